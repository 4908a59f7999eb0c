/* cmd_train.c - carc train: learns a variant's evaluator from self-play and
 * writes its weights file (train.h, docs/bots.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "train.h"

/* Each generation's weights go to the file as soon as they are fitted: a
 * long training stopped half-way keeps its last finished generation. */
static int save_generation(const evaluator *e, void *user, char *err, size_t errn)
{
    if (evaluator_save(e, user, err, errn) < 0) return -1;
    fprintf(stderr, "carc train: wrote %s (generation %d)\n", (const char *)user, e->generations);
    return 0;
}

static int run(const cli_args *a)
{
    train_config cfg = {0};
    cfg.variant = cli_text(a, "--variant", "base");
    cfg.players = cli_int(a, "--players", 2);
    cfg.games = cli_int(a, "--games", 1000);
    cfg.generations = cli_int(a, "--generations", 3);
    cfg.seed = cli_u64(a, "--seed", 1);
    cfg.jobs = cli_int(a, "--jobs", 1);
    cfg.explore = 0.05;
    cfg.progress = stderr;
    const char *out = cli_text(a, "--out", NULL), *from = cli_text(a, "--from", NULL), *ov[32];
    if (cli_given(a, "--explore")) {
        const char *v = cli_text(a, "--explore", NULL);
        char *end;
        cfg.explore = strtod(v, &end);
        if (*end || end == v || !(cfg.explore >= 0 && cfg.explore <= 0.5)) {
            fprintf(stderr, "carc train: --explore expects a share from 0 to 0.5, not '%s'\n", v);
            return 2;
        }
    }
    int nov = cli_count(a, "--option");
    for (int k = 0; k < nov; k++) {
        ov[k % 32] = cli_nth(a, "--option", k);
        if (k == 32 || !strchr(ov[k % 32], '=')) {
            fprintf(stderr, "carc train: --option expects KEY=VALUE (at most 32)\n");
            return 2;
        }
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

static const cli_flag flags[] = {
    FLAG_TEXT("--variant", "NAME", "variant name or file (default base)"),
    FLAG_TEXT("--out", "FILE", "the weights file to write (required)"),
    FLAG_INT("--games", "N", 1, 10000000, "games per generation (default 1000)"),
    FLAG_INT("--generations", "G", 1, 100, "generations (default 3)"),
    FLAG_INT("--players", "N", 1, CARC_MAX_PLAYERS, "players a game (default 2)"),
    FLAG_U64("--seed", "S", "seed (default 1)"),
    FLAG_INT("--jobs", "J", 1, 256, "threads (default 1)"),
    FLAG_TEXT("--explore", "X", "share of moves played at random, 0 to 0.5 (default 0.05)"),
    FLAG_TEXT("--from", "FILE", "start from these weights instead of the hand-written judgement"),
    FLAG_TEXTS("--option", "KEY=VALUE", "a rule option (repeatable)"),
    FLAG_ALLOW_PLUGIN_PATHS("the variant"),
};

const cli_command command_train = {
    .name = "train",
    .max_operands = 0,
    .summary = "learn how the bots judge a variant's positions, from self-play",
    .about = "Learns how to judge a position of the variant from games the greedy bot plays\n"
             "against itself, a few generations, each judging with the weights the previous\n"
             "one learned. Writes a weights file for greedy:eval=FILE and mcts:eval=FILE (or,\n"
             "saved as weights/NAME.ini in the data directory, for greedy:trained), after\n"
             "every generation: stopped half-way, it keeps the last finished one.\n"
             "The same options give the same file, whatever --jobs is.\n"
             "Example: carc train --variant base --games 2000 --out weights/base.ini --jobs 2\n",
    CLI_FLAGS(flags),
    .run = run,
};
