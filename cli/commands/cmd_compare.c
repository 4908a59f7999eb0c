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

static void usage(FILE *f)
{
    fprintf(f, "usage: carc compare VARIANT_A [VARIANT_B] [OPTIONS]\n\n"
               "Plays the same seeds under A and B (B defaults to A: then change it with\n"
               "--option-b) and prints, per measure (mean score, score spread, first-player\n"
               "lead and win share, game length, winner's margin, points by reason), the\n"
               "means under A and B, the mean paired difference B - A with its 95%% interval\n"
               "over independent blocks of games, the interval corrected for testing every\n"
               "measure at once (Holm), how many blocks agree, and whether it is a finding:\n"
               "the corrected interval excludes zero and B - A is at least --min-effect.\n"
               "Pairing game i of A with game i of B (the same tiles and the same bots'\n"
               "seeds) takes most of the noise out.\n"
               "Example: carc compare base --option-b farm-scoring=none --games 2000 --jobs 2\n\n"
               "options (besides those below):\n"
               "  --option-a KEY=VALUE, --option-b KEY=VALUE   an option for one side only\n"
               "  --seed-b S     a different seed set for B (games no longer paired)\n"
               "  --blocks N     judge each measure over N blocks of consecutive games (default 10,\n"
               "                 2 to 256): its interval is Student's t over the blocks' means\n"
               "  --min-effect UNIT=X  the practical threshold of a finding, per unit: points=X\n"
               "                 (default 1), share=X (default 0.02), turns=X (default 1)\n"
               "  --until-width MEASURE=W  play --games first, then as many more blocks as the\n"
               "                 measure needs for a 95%% interval at most W wide (Stein's two-stage\n"
               "                 procedure; measures: mean-score, spread, first-lead, first-win,\n"
               "                 length, margin, points:REASON)\n"
               "  --max-games N  the most games a side --until-width may play (default 100000)\n"
               "  --records DIR  keeps A's records in DIR/a/ and B's in DIR/b/\n"
               "A and B are each a variant name, a file or a composition (base+robbers+fairy).\n"
               "Besides the metrics, the report says in how many games the winner changed\n"
               "between A and B, with its 95%% interval.\n");
    study_args_usage(f);
}

static int add_option(study *s, const char *v)
{
    if (!v || !strchr(v, '=') || s->noverrides == 32) {
        fprintf(stderr, "carc compare: --option-a/--option-b expect KEY=VALUE\n");
        return -1;
    }
    snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", v);
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    static study a, b;
    study_defaults(&a);
    study_flags fl = {0};
    const char *va = NULL, *vb = NULL, *only_a[32], *only_b[32];
    int na = 0, nb = 0;
    uint64_t seed_b = 0;
    bool have_seed_b = false;
    compare_settings cs;
    compare_settings_default(&cs);
    char until_key[48] = "";
    double until_width = 0;
    int max_games = 100000;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--option-a") == 0 || strcmp(arg, "--option-b") == 0) {
            if (!v || na == 32 || nb == 32) {
                fprintf(stderr, "carc compare: %s needs KEY=VALUE\n", arg);
                return 2;
            }
            if (arg[9] == 'a') only_a[na++] = v;
            else only_b[nb++] = v;
            i++;
            continue;
        }
        if (strcmp(arg, "--variant") == 0) {
            fprintf(stderr, "carc compare: --variant is not taken here: name the variants as arguments, "
                            "carc compare A [B] (a variant, a file or a composition such as base+fairy each)\n");
            return 2;
        }
        if (strcmp(arg, "--blocks") == 0) {
            if (!arg_int("compare", arg, v, 2, 256, &cs.blocks)) return 2;
            i++;
            continue;
        }
        if (strcmp(arg, "--min-effect") == 0) {
            if (!compare_min_effect(&cs, v)) {
                fprintf(stderr, "carc compare: --min-effect expects points=X, share=X or turns=X (X >= 0), not '%s'\n",
                        v ? v : "");
                return 2;
            }
            i++;
            continue;
        }
        if (strcmp(arg, "--until-width") == 0) {
            const char *eq = v ? strrchr(v, '=') : NULL;
            char *end = NULL;
            until_width = eq ? strtod(eq + 1, &end) : 0;
            if (!eq || eq == v || !end || *end || !(until_width > 0) || (size_t)(eq - v) >= sizeof until_key) {
                fprintf(stderr, "carc compare: --until-width expects MEASURE=WIDTH (first-win=0.02, mean-score=1, "
                                "points:farm=0.5), not '%s'\n", v ? v : "");
                return 2;
            }
            snprintf(until_key, sizeof until_key, "%.*s", (int)(eq - v), v);
            i++;
            continue;
        }
        if (strcmp(arg, "--max-games") == 0) {
            if (!arg_int("compare", arg, v, 1, 100000000, &max_games)) return 2;
            i++;
            continue;
        }
        if (strcmp(arg, "--seed-b") == 0) {
            if (!arg_u64("compare", arg, v, &seed_b)) return 2;
            have_seed_b = true;
            i++;
            continue;
        }
        int rc = study_args_parse("compare", argc, argv, &a, &fl, &i);
        if (rc < 0) return 2;
        if (rc == 1) continue;
        if (arg[0] == '-') return arg_unknown("compare", arg);
        if (!va) va = arg;
        else if (!vb) vb = arg;
        else {
            fprintf(stderr, "carc compare: at most two variants\n");
            return 2;
        }
    }
    if (!va) {
        usage(stderr);
        return 2;
    }
    if (fl.json && fl.csv) {
        fprintf(stderr, "carc compare: --json and --csv: choose one\n");
        return 2;
    }
    snprintf(a.variant, sizeof a.variant, "%s", va);
    b = a;
    snprintf(b.variant, sizeof b.variant, "%s", vb ? vb : va);
    for (int i = 0; i < na; i++)
        if (add_option(&a, only_a[i]) < 0) return 2;
    for (int i = 0; i < nb; i++)
        if (add_option(&b, only_b[i]) < 0) return 2;
    if (have_seed_b) b.seed = seed_b;
    if (until_key[0] && (fl.sharded || a.games % cs.blocks != 0 || a.games < 2 * cs.blocks)) {
        fprintf(stderr, "carc compare: --until-width runs in one piece (not with --shard), from a first stage of\n"
                        "--games that --blocks divides into blocks of 2 games or more (--games %d, --blocks %d)\n",
                a.games, cs.blocks);
        return 2;
    }
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
    char staged_err[1400];
    study_out_clear(&fl);
    if (study_run(&a) < 0) {
        term_error("carc compare: A", a.error);
        rc = 1;
    } else if (study_run(&b) < 0) {
        term_error("carc compare: B", b.error);
        rc = 1;
    } else if (until_key[0] &&
               staged_extend(&a, &b, &cs, until_key, until_width, max_games, staged_err, sizeof staged_err) < 0) {
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
    }
    study_free(&a);
    study_free(&b);
    return rc;
}
