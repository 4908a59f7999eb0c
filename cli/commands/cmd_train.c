/* cmd_train.c - carc train: learns a variant's evaluator from self-play and
 * writes its weights file (train.h, docs/bots.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "train.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc train --variant NAME --out FILE [OPTIONS]\n\n"
               "Learns how to judge a position of the variant from games the greedy bot plays\n"
               "against itself, a few generations, each judging with the weights the previous\n"
               "one learned. Writes a weights file for greedy:eval=FILE and mcts:eval=FILE (or,\n"
               "saved as weights/NAME.ini in the data directory, for greedy:trained), after\n"
               "every generation: stopped half-way, it keeps the last finished one.\n"
               "The same options give the same file, whatever --jobs is.\n"
               "Example: carc train --variant base --games 2000 --out weights/base.ini --jobs 2\n\n"
               "options:\n"
               "  --variant NAME       variant name or file (default base)\n"
               "  --out FILE           the weights file to write (required)\n"
               "  --games N            games per generation (default 1000)\n"
               "  --generations G      generations (default 3)\n"
               "  --players N          players a game (default 2)\n"
               "  --seed S             seed (default 1)\n"
               "  --jobs J             threads (default 1)\n"
               "  --explore X          share of moves played at random, 0 to 0.5 (default 0.05)\n"
               "  --from FILE          start from these weights instead of the hand-written judgement\n"
               "  --option KEY=VALUE   a rule option (repeatable)\n"
               "  --allow-plugin-paths let the variant load C plugins from paths it gives\n");
}

/* Each generation's weights go to the file as soon as they are fitted: a
 * long training stopped half-way keeps its last finished generation. */
static int save_generation(const evaluator *e, void *user, char *err, size_t errn)
{
    if (evaluator_save(e, user, err, errn) < 0) return -1;
    fprintf(stderr, "carc train: wrote %s (generation %d)\n", (const char *)user, e->generations);
    return 0;
}

int cmd_train(int argc, char **argv)
{
    train_config cfg = {0};
    cfg.variant = "base";
    cfg.players = 2;
    cfg.games = 1000;
    cfg.generations = 3;
    cfg.seed = 1;
    cfg.jobs = 1;
    cfg.explore = 0.05;
    cfg.progress = stderr;
    const char *out = NULL, *from = NULL, *ov[32];
    int nov = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int common = arg_common(a, usage);
        if (common == 2) return 0;
        if (common) continue;
        if (strncmp(a, "--", 2) != 0 || !v) {
            if (strncmp(a, "--", 2) != 0) fprintf(stderr, "carc train: unexpected argument '%s'\n\n", a);
            else fprintf(stderr, "carc train: %s needs a value\n\n", a);
            usage(stderr);
            return 2;
        }
        i++;
        bool ok = true;
        if (strcmp(a, "--variant") == 0) cfg.variant = v;
        else if (strcmp(a, "--out") == 0) out = v;
        else if (strcmp(a, "--from") == 0) from = v;
        else if (strcmp(a, "--games") == 0) ok = arg_int("train", a, v, 1, 10000000, &cfg.games);
        else if (strcmp(a, "--generations") == 0) ok = arg_int("train", a, v, 1, 100, &cfg.generations);
        else if (strcmp(a, "--players") == 0) ok = arg_int("train", a, v, 1, CARC_MAX_PLAYERS, &cfg.players);
        else if (strcmp(a, "--jobs") == 0) ok = arg_int("train", a, v, 1, 256, &cfg.jobs);
        else if (strcmp(a, "--seed") == 0) ok = arg_u64("train", a, v, &cfg.seed);
        else if (strcmp(a, "--explore") == 0) {
            char *end;
            cfg.explore = strtod(v, &end);
            if (*end || end == v || !(cfg.explore >= 0 && cfg.explore <= 0.5)) {
                fprintf(stderr, "carc train: --explore expects a share from 0 to 0.5, not '%s'\n", v);
                ok = false;
            }
        } else if (strcmp(a, "--option") == 0) {
            if (nov == 32 || !strchr(v, '=')) {
                fprintf(stderr, "carc train: --option expects KEY=VALUE (at most 32)\n");
                ok = false;
            } else ov[nov++] = v;
        } else {
            fprintf(stderr, "carc train: unknown option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
        if (!ok) return 2;
    }
    if (!out) {
        fprintf(stderr, "carc train: --out FILE is required (where the weights go)\n");
        return 2;
    }
    cfg.overrides = ov;
    cfg.noverrides = nov;
    cfg.on_generation = save_generation;
    cfg.user = (void *)out;
    char err[1024] = "";
    evaluator *start = NULL, *result = malloc(sizeof *result);
    int rc = result ? 0 : -1;
    if (rc == 0 && from) {
        start = malloc(sizeof *start);
        rc = start ? evaluator_load(start, from, err, sizeof err) : -1;
        cfg.start = start;
    }
    if (rc == 0) rc = train_run(&cfg, result, err, sizeof err);
    if (rc < 0) fprintf(stderr, "carc train: %s\n", err[0] ? err : "out of memory");
    free(start);
    free(result);
    return rc == 0 ? 0 : 1;
}
