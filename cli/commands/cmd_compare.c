/* cmd_compare.c - carc compare: the same seeds under two rule sets, and for
 * each metric the paired difference with its 95% interval. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "term_text.h"
#include "commands.h"
#include "report.h"
#include "shard.h"
#include "staged.h"
#include "study_args.h"

static int add_option(study *s, const char *v)
{
    if (!v || !strchr(v, '=') || s->noverrides == 32) {
        fprintf(stderr, "carc compare: --option-a/--option-b expect KEY=VALUE\n");
        return -1;
    }
    snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", v);
    return 0;
}

/* --blocks, --min-effect, --until-width: how the measures are judged. 0, or
 * 2 (bad usage, message printed). */
static int judging(const cli_args *args, const study *a, const study_flags *fl, compare_settings *cs, char *key,
                   size_t keyn, double *width)
{
    if (study_judging(args, cs) != 0) return 2;
    const char *v = cli_text(args, "--until-width", NULL);
    if (!v) return 0;
    const char *eq = strrchr(v, '=');
    char *end = NULL;
    *width = eq ? strtod(eq + 1, &end) : 0;
    if (!eq || eq == v || !end || *end || !(*width > 0) || (size_t)(eq - v) >= keyn) {
        fprintf(stderr, "carc compare: --until-width expects MEASURE=WIDTH (first-win=0.02, mean-score=1, "
                        "points:farm=0.5), not '%s'\n", v);
        return 2;
    }
    snprintf(key, keyn, "%.*s", (int)(eq - v), v);
    if (fl->sharded || a->games % cs->blocks != 0 || a->games < 2 * cs->blocks) {
        fprintf(stderr, "carc compare: --until-width runs in one piece (not with --shard), from a first stage of\n"
                        "--games that --blocks divides into blocks of 2 games or more (--games %d, --blocks %d)\n",
                a->games, cs->blocks);
        return 2;
    }
    return 0;
}

static int run(const cli_args *args)
{
    static study a, b;
    study_defaults(&a);
    study_flags fl = {0};
    if (study_from_args(args, &a, &fl) < 0 || study_skill_gap(args, &a) != 0) return 2;
    compare_settings cs;
    compare_settings_default(&cs);
    char until_key[48] = "", staged_err[1400];
    double until_width = 0;
    if (judging(args, &a, &fl, &cs, until_key, sizeof until_key, &until_width) != 0) return 2;
    const char *va = args->operands[0], *vb = args->noperands > 1 ? args->operands[1] : NULL;
    int na = cli_count(args, "--option-a"), nb = cli_count(args, "--option-b");
    bool have_seed_b = cli_given(args, "--seed-b");
    snprintf(a.variant, sizeof a.variant, "%s", va);
    b = a;
    snprintf(b.variant, sizeof b.variant, "%s", vb ? vb : va);
    for (int i = 0; i < na; i++)
        if (add_option(&a, cli_nth(args, "--option-a", i)) < 0) return 2;
    for (int i = 0; i < nb; i++)
        if (add_option(&b, cli_nth(args, "--option-b", i)) < 0) return 2;
    if (have_seed_b) b.seed = cli_u64(args, "--seed-b", 0);
    if (!vb && nb == 0 && na == 0 && !have_seed_b)
        fprintf(stderr, "carc compare: A and B are the same rules and seeds; every difference will be 0\n");
    /* Both sides keep their records: DIR/a/ and DIR/b/. */
    static char dir_a[1100], dir_b[1100];
    if (a.records_dir) {
        snprintf(dir_a, sizeof dir_a, "%s/a", a.records_dir);
        snprintf(dir_b, sizeof dir_b, "%s/b", a.records_dir);
        if ((mkdir(dir_a, 0755) != 0 && access(dir_a, W_OK) != 0) ||
            (mkdir(dir_b, 0755) != 0 && access(dir_b, W_OK) != 0)) {
            fprintf(stderr, "carc compare: cannot create %s and %s\n", dir_a, dir_b);
            return 1;
        }
        a.records_dir = dir_a;
        b.records_dir = dir_b;
    }
    a.label = "compare A";
    b.label = "compare B";
    a.progress = b.progress = !fl.sharded;
    int rc = 0;
    study_out_clear(&fl);
    if (study_run(&a) < 0) {
        term_error("carc compare: A", a.error);
        rc = 1;
    } else if (study_run(&b) < 0) {
        term_error("carc compare: B", b.error);
        rc = 1;
    } else if (until_key[0] && staged_extend(&a, &b, &cs, until_key, until_width, cli_int(args, "--max-games", 100000),
                                             staged_err, sizeof staged_err) < 0) {
        term_error("carc compare", staged_err);
        rc = strstr(staged_err, "--until-width") ? 2 : 1;
    } else {
        FILE *out = study_out("compare", &fl);
        if (!out) {
            rc = 1;
        } else if (fl.sharded) {
            shard_write(out, "compare", &a, &b);
        } else {
            a.label = b.label = "compare"; /* "compare A" was for the progress line */
            report_compare(&a, &b, &cs, out, study_format(&fl));
        }
        if (out && study_out_close("compare", &fl, out) < 0) rc = 1;
        if (rc == 0 && study_games_jsonl("compare", &fl, "compare", &a, &b) < 0) rc = 1;
        if (rc == 0 && !fl.sharded && (fl.html || fl.svg_dir)) { /* the report's JSON, drawn */
            char *json = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&json, &len);
            if (m) {
                report_compare(&a, &b, &cs, m, REPORT_JSON);
                fclose(m);
            }
            if (!m || study_pictures("compare", &fl, json, len) < 0) rc = 1;
            free(json);
        }
    }
    study_free(&a);
    study_free(&b);
    return rc;
}

static const cli_flag flags[] = {
    STUDY_FLAGS_PLAY,
    FLAG_TEXTS("--option-a", "KEY=VALUE", "a rule option for A only (repeatable)"),
    FLAG_TEXTS("--option-b", "KEY=VALUE", "a rule option for B only (repeatable)"),
    FLAG_U64("--seed-b", "S", "a different seed set for B (games no longer paired)"),
    FLAG_TEXT("--skill-gap", "STRONG,WEAK", "play these agents against each other, seats rotated from game to\n"
                                             "game (instead of --players); the measure skill-gap is STRONG's win\n"
                                             "share under A and B (docs/measures.md)"),
    FLAG_INT("--blocks", "N", 2, 256, "judge each measure over N blocks of consecutive games (default 10):\n"
                                      "its interval is Student's t over the blocks' mean differences"),
    FLAG_TEXTS("--min-effect", "UNIT=X", "the practical threshold of a finding, per unit (repeatable):\n"
                                          "points=X (default 1), share=X (default 0.02), turns=X (default 1),\n"
                                          "count=X (default 0.5: lead changes, options, choices)"),
    FLAG_TEXT("--until-width", "MEASURE=W", "play --games first, then as many more blocks as the measure\n"
                                            "needs for a 95% interval at most W wide (Stein's two-stage\n"
                                            "procedure); measures: mean-score, spread, first-lead, first-win,\n"
                                            "length, margin, points:REASON"),
    FLAG_INT("--max-games", "N", 1, 100000000, "the most games a side --until-width may play (default 100000)"),
    STUDY_FLAGS_OUTPUT,
};

static const cli_hint hints[] = {
    {"--variant", "name the variants as arguments, carc compare A [B] (a variant, a file or a composition such as "
                  "base+fairy each)"},
    {NULL, NULL},
};

const cli_command command_compare = {
    .name = "compare",
    .operands = "A [B]",
    .min_operands = 1,
    .max_operands = 2,
    .summary = "the same seeds under two rule sets: which measures differ, and by how much",
    .about = "Plays the same seeds under A and B (B defaults to A: then change it with\n"
             "--option-b) and prints, per measure (mean score, score spread, first-player\n"
             "lead and win share, game length, winner's margin, closeness, lead changes,\n"
             "the turn the winner led from, options and choices, the skill gap with\n"
             "--skill-gap, points by reason: docs/measures.md), the\n"
             "means under A and B, the mean paired difference B - A with its 95% interval\n"
             "over independent blocks of games, the interval corrected for testing every\n"
             "measure at once (Holm), how many blocks agree, and whether it is a finding:\n"
             "the corrected interval excludes zero and B - A is at least --min-effect.\n"
             "Pairing game i of A with game i of B (the same tiles and the same bots'\n"
             "seeds) takes most of the noise out.\n"
             "Example: carc compare base --option-b farm-scoring=none --games 2000 --jobs 2\n\n"
             "A and B are each a variant name, a file or a composition (base+robbers+fairy).\n"
             "Besides the metrics, the report says in how many games the winner changed\n"
             "between A and B, with its 95% interval, beside the share between unrelated\n"
             "games (A's game k, B's game k + 1). --records DIR keeps A's records in\n"
             "DIR/a/ and B's in DIR/b/.\n",
    CLI_FLAGS(flags),
    .hints = hints,
    .more_help = study_agents_help,
    .run = run,
};
