/* cmd_analyse.c - carc analyse FILE [--turn N]: the search's estimate of
 * every option of a decision in a game record (analysis.h). */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "record.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc analyse FILE [--turn N] [--agent SPEC] [--top K] [--seed S]\n\n"
               "Replays the game record FILE to the first decision of turn N (default: where\n"
               "the record ends, as in a saved game) and prints each option of that decision\n"
               "with the search's estimate: win (its chance of winning, in %%), lead (the\n"
               "points it expects to lead the best opponent by) and visits (how much the\n"
               "search looked at it), then the move it would play. The search never sees the\n"
               "order of the pile.\n\n"
               "options:\n"
               "  --turn N      the decision at the start of turn N\n"
               "  --agent SPEC  the searching agent (default mcts:3000it:trained when the game\n"
               "                has 2 players and its variant ships weights, else mcts:3000it)\n"
               "  --top K       print the K most visited options (default 10; 0: all)\n"
               "  --seed S      the search's seed (default 1): the same seed, the same answer\n"
               "  --allow-plugin-paths  let the record's variant load C plugins from paths it gives\n");
}

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

int cmd_analyse(int argc, char **argv)
{
    const char *path = NULL, *spec = NULL;
    int turn = 0, top = 10;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int common = arg_common(a, usage);
        if (common == 2) return 0;
        if (common) continue;
        if (a[0] != '-' || !a[1]) {
            if (path) {
                fprintf(stderr, "carc analyse: one record at a time\n");
                return 2;
            }
            path = a;
            continue;
        }
        if (!v) {
            fprintf(stderr, "carc analyse: %s needs a value (see carc analyse --help)\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--turn") == 0) {
            if (!arg_int("analyse", a, v, 1, 1000000, &turn)) return 2;
        } else if (strcmp(a, "--top") == 0) {
            if (!arg_int("analyse", a, v, 0, 1000000, &top)) return 2;
        } else if (strcmp(a, "--seed") == 0) {
            if (!arg_u64("analyse", a, v, &seed)) return 2;
        } else if (strcmp(a, "--agent") == 0) {
            spec = v;
        } else {
            fprintf(stderr, "carc analyse: unknown option '%s' (see carc analyse --help)\n", a);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
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
