/* cmd_analyse.c - carc analyse FILE [--turn N]: the search's estimate of
 * every option of a decision in a game record (analysis.h). */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "record.h"

/* The game after the first `lines` lines of the record. */
static carc_game *replay_prefix(carc_record *rec, const carc_rules *rules, int lines, char *err, size_t errn)
{
    int all = rec->nlines;
    rec->nlines = lines;
    carc_game *g = NULL;
    int rc = carc_replay(rec, rules, &g, err, errn);
    rec->nlines = all;
    if (rc < 0) {
        carc_game_free(g);
        return NULL;
    }
    return g;
}

/* The game at the first decision (not a draw) of turn `turn`. */
static carc_game *at_turn(carc_record *rec, const carc_rules *rules, int turn, char *err, size_t errn)
{
    int lo = 0, hi = rec->nlines; /* smallest prefix whose game has reached the turn */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        carc_game *g = replay_prefix(rec, rules, mid, err, errn);
        if (!g) return NULL;
        if (carc_turn_number(g) >= turn) hi = mid;
        else lo = mid + 1;
        carc_game_free(g);
    }
    for (int k = lo; k <= rec->nlines; k++) {
        carc_game *g = replay_prefix(rec, rules, k, err, errn);
        if (!g) return NULL;
        int st = carc_advance(g);
        if (st == CARC_NEED_DRAW) st = carc_draw(g, -1) < 0 ? CARC_FAILED : carc_advance(g);
        if (st == CARC_NEED_CHOICE && carc_turn_number(g) == turn) return g;
        bool past = carc_turn_number(g) > turn || st != CARC_NEED_CHOICE;
        carc_game_free(g);
        if (past) break;
    }
    snprintf(err, errn, "%s: the game has no decision at turn %d", rec->path, turn);
    return NULL;
}

static int run(const cli_args *a)
{
    const char *path = a->operands[0], *spec = cli_text(a, "--agent", NULL);
    int turn = cli_int(a, "--turn", 0), top = cli_int(a, "--top", 10);
    uint64_t seed = cli_u64(a, "--seed", 1);
    char err[8192] = "";
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        fprintf(stderr, "carc analyse: %s\n", err);
        return 1;
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    carc_game *g = NULL;
    if (rules && turn > 0) g = at_turn(&rec, rules, turn, err, sizeof err);
    else if (rules) {
        g = replay_prefix(&rec, rules, rec.nlines, err, sizeof err);
        int st = g ? carc_advance(g) : CARC_FAILED;
        if (st == CARC_NEED_DRAW && carc_draw(g, -1) == 0) st = carc_advance(g);
        if (g && st != CARC_NEED_CHOICE) {
            snprintf(err, sizeof err, "%s: the game is over (%d turns): give --turn N to analyse one of its decisions",
                     path, carc_turn_number(g));
            carc_game_free(g);
            g = NULL;
        }
    }
    int rc = 1;
    if (g) {
        char agent_spec[64];
        if (spec) snprintf(agent_spec, sizeof agent_spec, "%s", spec);
        else analysis_default_agent(g, agent_spec, sizeof agent_spec);
        rc = analysis_print(g, agent_spec, seed, top, stdout, err, sizeof err) < 0 ? 1 : 0;
    }
    if (rc) fprintf(stderr, "carc analyse: %s\n", err);
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    return rc;
}

static const cli_flag flags[] = {
    FLAG_INT("--turn", "N", 1, 1000000, "the decision at the start of turn N"),
    FLAG_TEXT("--agent", "SPEC", "the searching agent (default mcts:3000it:trained when the game\n"
                                 "has 2 players and its variant ships weights, else mcts:3000it)"),
    FLAG_INT("--top", "K", 0, 1000000, "print the K most visited options (default 10; 0: all)"),
    FLAG_U64("--seed", "S", "the search's seed (default 1): the same seed, the same answer"),
    FLAG_ALLOW_PLUGIN_PATHS("the record's variant"),
};

const cli_command command_analyse = {
    .name = "analyse",
    .alias = "analyze",
    .operands = "FILE",
    .min_operands = 1,
    .max_operands = 1,
    .summary = "the search's estimate of each option at a point of a game record",
    .about = "Replays the game record FILE to the first decision of turn N (default: where\n"
             "the record ends, as in a saved game) and prints each option of that decision\n"
             "with the search's estimate: win (its chance of winning, in %), lead (the\n"
             "points it expects to lead the best opponent by) and visits (how much the\n"
             "search looked at it), then the move it would play. The search never sees the\n"
             "order of the pile.\n",
    CLI_FLAGS(flags),
    .run = run,
};
