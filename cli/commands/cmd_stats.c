/* cmd_stats.c - carc stats merge: the report of a study run in shards. */
#include <stdio.h>
#include <string.h>

#include "term_text.h"
#include "commands.h"
#include "report.h"
#include "shard.h"
#include "study.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc stats merge [--json|--csv] [--blocks N] [--min-effect UNIT=X] FILE...\n\n"
               "Reads the JSON lines that 'carc sim|tournament|compare --shard K/N' wrote and\n"
               "prints the report of the whole study, as if it had run in one piece.\n"
               "Each shard names its study (the command, variants with the content hash of\n"
               "every file they read, options, players, seeds, --games, carc's version):\n"
               "the merge refuses, naming the file, a shard of another study, a shard given\n"
               "twice, and a shard or a game missing. The time reported is the shards' sum.\n"
               "--blocks and --min-effect judge a compare's measures as in carc compare.\n");
}

int cmd_stats(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "merge") != 0) {
        fprintf(stderr, "carc stats: unknown subcommand '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    static study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32] = "", err[2048];
    int format = REPORT_TABLE, files = 0;
    char **paths = argv + 2; /* the file arguments, gathered in place */
    compare_settings cs;
    compare_settings_default(&cs);
    for (int i = 2; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--blocks") == 0) {
            if (!arg_int("stats merge", argv[i], v, 2, 256, &cs.blocks)) return 2;
            i++;
        } else if (strcmp(argv[i], "--min-effect") == 0) {
            if (!compare_min_effect(&cs, v)) {
                fprintf(stderr, "carc stats merge: --min-effect expects points=X, share=X or turns=X, not '%s'\n",
                        v ? v : "");
                return 2;
            }
            i++;
        } else if (strcmp(argv[i], "--json") == 0) format = REPORT_JSON;
        else if (strcmp(argv[i], "--csv") == 0) format = REPORT_CSV;
        else if (argv[i][0] == '-' && argv[i][1]) return arg_unknown("stats merge", argv[i]);
        else paths[files++] = argv[i];
    }
    if (!files) {
        fprintf(stderr, "carc stats merge: no shard file given\n");
        usage(stderr);
        return 2;
    }
    if (shard_merge(paths, files, &a, &b, kind, sizeof kind, err, sizeof err) < 0) {
        term_error("carc stats merge", err);
        study_free(&a);
        study_free(&b);
        return 1;
    }
    if (strcmp(kind, "compare") == 0) {
        a.label = b.label = "compare";
        report_compare(&a, &b, &cs, stdout, format);
    } else if (strcmp(kind, "tournament") == 0) {
        a.label = "tournament";
        report_tournament(&a, stdout, format);
    } else {
        a.label = "sim";
        report_sim(&a, stdout, format);
    }
    study_free(&a);
    study_free(&b);
    return 0;
}
