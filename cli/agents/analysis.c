/* analysis.c - the search's view of a decision (analysis.h). */
#include "analysis.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agents.h"
#include "evaluator.h"

void analysis_default_agent(const carc_game *g, char *buf, size_t n)
{
    /* Weights learned from games of another number of players judge worse
     * than the hand-written judgement, and with 3 or 4 players the search
     * does no better with the weights learned for that many (measured in
     * docs/bots.md): only 2-player games are searched with weights. */
    char path[1024];
    evaluator_path_for(carc_rules_name(carc_game_rules(g)), carc_players(g), path, sizeof path);
    bool trained = carc_players(g) == 2 && access(path, R_OK) == 0;
    snprintf(buf, n, "%s", trained ? "mcts:3000it:trained" : "mcts:3000it");
}

typedef struct ranked {
    mcts_estimate e;
    char text[160];
} ranked;

static int by_visits(const void *a, const void *b)
{
    const mcts_estimate *x = &((const ranked *)a)->e, *y = &((const ranked *)b)->e;
    if (x->visits != y->visits) return x->visits < y->visits ? 1 : -1;
    if (x->win != y->win) return x->win < y->win ? 1 : -1;
    return x->option - y->option;
}

int analysis_print(carc_game *g, const char *spec, uint64_t seed, int top, FILE *out, char *err, size_t errn)
{
    if (carc_advance(g) != CARC_NEED_CHOICE) {
        snprintf(err, errn, "no decision is pending (the game is over or waits for its tile)");
        return -1;
    }
    if (strncmp(spec, "mcts", 4) != 0) {
        snprintf(err, errn, "the analysis needs a search agent (mcts...), not '%s'", spec);
        return -1;
    }
    agent *a = agent_create(spec, seed, carc_decision_player(g), err, errn);
    if (!a) return -1;
    int n = carc_option_count(g), count = 0;
    ranked *r = calloc((size_t)n, sizeof *r);
    mcts_estimate *est = calloc((size_t)n, sizeof *est);
    int best = r && est ? mcts_analyse(a, g, est, n, &count) : -1;
    if (best < 0) {
        snprintf(err, errn, "%s", r && est ? a->error : "out of memory");
        free(r), free(est);
        agent_free(a);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        r[i].e = est[i];
        r[i].e.option = i;
        carc_option_text(g, i, r[i].text, sizeof r[i].text);
    }
    qsort(r, (size_t)n, sizeof *r, by_visits);
    int me = carc_decision_player(g);
    fprintf(out, "turn %d, %s to decide (%s), %d option%s; search: %s\n", carc_turn_number(g),
            carc_player_name(g, me), carc_decision_label(g), n, n == 1 ? "" : "s", spec);
    fprintf(out, "  %-34s %6s %8s %7s\n", "option", "win", "lead", "visits");
    int shown = top > 0 && top < n ? top : n;
    for (int i = 0; i < shown; i++)
        fprintf(out, "  %-34s %5.1f%% %+8.1f %7d%s\n", r[i].text, 100 * r[i].e.win, r[i].e.lead, r[i].e.visits,
                r[i].e.option == best ? "  <- plays" : "");
    if (shown < n) fprintf(out, "  ... %d more, fewer visits\n", n - shown);
    char text[160];
    carc_option_text(g, best, text, sizeof text);
    fprintf(out, "%s would play: %s\n", spec, text);
    free(r);
    free(est);
    agent_free(a);
    return 0;
}
