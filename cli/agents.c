/* agents.c - random, greedy and human agents. */
#include "agents.h"

#include <stdlib.h>
#include <string.h>

#include "play_terminal.h"

static int choose_random(agent *a, carc_game *g)
{
    return (int)carc_rng_below(&a->rng, (uint32_t)carc_option_count(g));
}

/* The position as one number for the player: score lead over the best
 * opponent, plus half of the lead in what features held now would pay. */
static double evaluate(carc_game *g, int me)
{
    int est[CARC_MAX_PLAYERS] = {0};
    carc_estimate_final(g, est);
    int n = carc_players(g);
    double best_other = -1e9, best_other_est = -1e9;
    for (int p = 0; p < n; p++) {
        if (p == me) continue;
        if (carc_score(g, p) > best_other) best_other = carc_score(g, p);
        if (est[p] > best_other_est) best_other_est = est[p];
    }
    double v = carc_score(g, me) - best_other + 0.5 * (est[me] - best_other_est);
    return v + 0.25 * carc_supply(g, me, "follower"); /* keep a follower or two */
}

/* Runs the game on until the next decision (or the end); chance draws stop it. */
static int settle(carc_game *g)
{
    return carc_advance(g);
}

static double option_value(carc_game *g, int opt, int me, int depth);

/* The value of option opt for me, played on c itself, which it frees. */
static double value_in_place(carc_game *c, int opt, int me, int depth)
{
    double v;
    if (carc_choose(c, opt) < 0) {
        carc_game_free(c);
        return -1e9;
    }
    int st = settle(c);
    if (st == CARC_NEED_CHOICE && depth > 0 && carc_decision_player(c) == me) {
        /* The same player decides again this turn (deploy after place): take
         * the best continuation. The last one is played on c itself, which
         * is not needed after it: one clone fewer per position. */
        v = -1e9;
        int n = carc_option_count(c);
        if (n <= 0) carc_game_free(c);
        for (int i = 0; i < n; i++) {
            double w = i < n - 1 ? option_value(c, i, me, depth - 1) : value_in_place(c, i, me, depth - 1);
            if (w > v) v = w;
        }
        return v;
    }
    v = evaluate(c, me);
    carc_game_free(c);
    return v;
}

static double option_value(carc_game *g, int opt, int me, int depth)
{
    carc_game *c = carc_game_clone(g);
    return c ? value_in_place(c, opt, me, depth) : -1e9;
}

static int choose_greedy(agent *a, carc_game *g)
{
    int n = carc_option_count(g), me = carc_decision_player(g), best = 0, ties = 0;
    if (n == 1) return 0;
    double bestv = -1e18;
    for (int i = 0; i < n; i++) {
        double v = option_value(g, i, me, 1);
        if (v > bestv + 1e-9) {
            bestv = v;
            best = i;
            ties = 1;
        } else if (v > bestv - 1e-9 && carc_rng_below(&a->rng, (uint32_t)++ties) == 0) {
            best = i; /* an even choice among equals, from the agent's stream */
        }
    }
    return best;
}

/* The terminal's prompt (play_terminal.c). */
static int choose_human(agent *a, carc_game *g) { return terminal_choose(g, a->in, a->out); }

/* "" (the default, 1000 iterations), ":200ms", ":2s" or ":5000it". */
static bool parse_budget(agent *a, const char *s)
{
    a->iterations = 1000;
    const char *pl = getenv("CARC_MCTS_PLAYOUT");
    a->playout_limit = pl ? atol(pl) : -1;
    if (!*s) return true;
    if (*s != ':') return false;
    char *end;
    double v = strtod(s + 1, &end);
    if (end == s + 1 || v <= 0) return false;
    a->iterations = 0;
    if (strcmp(end, "it") == 0 && v <= AGENT_MAX_ITERATIONS) a->iterations = (long)v;
    else if (strcmp(end, "ms") == 0 && v <= AGENT_MAX_SECONDS * 1000.0) a->seconds = v / 1000.0;
    else if (strcmp(end, "s") == 0 && v <= AGENT_MAX_SECONDS) a->seconds = v;
    else return false;
    return true;
}

agent *agent_create(const char *spec, uint64_t seed, int seat, char *err, size_t errn)
{
    agent *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    snprintf(a->spec, sizeof a->spec, "%s", spec);
    a->seat = seat;
    a->in = stdin;
    a->out = stdout;
    carc_rng_seed(&a->rng, seed, CARC_STREAM_AGENT + (uint64_t)seat);
    if (strcmp(spec, "random") == 0) a->choose = choose_random;
    else if (strcmp(spec, "greedy") == 0) a->choose = choose_greedy;
    else if (strcmp(spec, "human") == 0) a->choose = choose_human;
    else if (strncmp(spec, "mcts", 4) == 0 && parse_budget(a, spec + 4)) a->choose = mcts_choose;
    else {
        snprintf(err, errn,
                 "unknown agent '%s' (known: random, greedy, human, mcts[:N ms|s|it] with at most %d iterations "
                 "or %d s a move)",
                 spec, AGENT_MAX_ITERATIONS, AGENT_MAX_SECONDS);
        free(a);
        return NULL;
    }
    return a;
}

void agent_free(agent *a) { free(a); }

void agent_list(FILE *f)
{
    fprintf(f, "  random   picks any option, uniformly\n"
               "  greedy   best immediate score change, with a positional term\n"
               "  human    you, at the terminal\n"
               "  mcts     Monte Carlo tree search: mcts (1000 iterations a move), mcts:5000it,\n"
               "           mcts:200ms, mcts:2s (deterministic with an iteration budget)\n");
}
