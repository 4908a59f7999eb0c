/* cmd_stats.c - carc stats merge: the report of a study run in shards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "shard.h"
#include "study.h"
#include "term_text.h"

static int run(const cli_args *args)
{
    if (cli_given(args, "--json") && cli_given(args, "--csv")) {
        fprintf(stderr, "carc stats merge: --json and --csv: choose one\n");
        return 2;
    }
    int format = cli_given(args, "--json") ? REPORT_JSON : cli_given(args, "--csv") ? REPORT_CSV : REPORT_TABLE;
    compare_settings cs;
    compare_settings_default(&cs);
    cs.blocks = cli_int(args, "--blocks", cs.blocks);
    for (int k = 0; k < cli_count(args, "--min-effect"); k++)
        if (!compare_min_effect(&cs, cli_nth(args, "--min-effect", k))) {
            fprintf(stderr, "carc stats merge: --min-effect expects points=X, share=X or turns=X, not '%s'\n",
                    cli_nth(args, "--min-effect", k));
            return 2;
        }
    static study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32] = "", err[2048];
    if (shard_merge(args->operands, args->noperands, &a, &b, kind, sizeof kind, err, sizeof err) < 0) {
        term_error("carc stats merge", err);
        study_free(&a);
        study_free(&b);
        return 1;
    }
    /* The report quotes the shards (variant, agent and reason names): it is
     * written through term_write, control characters escaped as replay does. */
    char *shown = NULL;
    size_t shown_len = 0;
    FILE *out = open_memstream(&shown, &shown_len);
    if (!out) {
        fprintf(stderr, "carc stats merge: out of memory\n");
        study_free(&a);
        study_free(&b);
        return 1;
    }
    if (strcmp(kind, "compare") == 0) {
        a.label = b.label = "compare";
        report_compare(&a, &b, &cs, out, format);
    } else if (strcmp(kind, "tournament") == 0) {
        a.label = "tournament";
        report_tournament(&a, out, format);
    } else {
        a.label = "sim";
        report_sim(&a, out, format);
    }
    fclose(out);
    term_write(stdout, shown, shown_len);
    free(shown);
    study_free(&a);
    study_free(&b);
    return 0;
}

static const cli_flag flags[] = {
    FLAG_SWITCH("--json", "the report as one JSON object"),
    FLAG_SWITCH("--csv", "the report as CSV (what was run in '# ' lines first)"),
    FLAG_INT("--blocks", "N", 2, 256, "a compare's blocks (as carc compare --blocks)"),
    FLAG_TEXTS("--min-effect", "UNIT=X", "a compare's practical thresholds (as carc compare)"),
};

const cli_command command_stats = {
    .name = "stats merge",
    .operands = "FILE...",
    .min_operands = 1,
    .max_operands = -1,
    .summary = "the report of a study run in shards (--shard K/N)",
    .about = "Reads the JSON lines that 'carc sim|tournament|compare --shard K/N' wrote and\n"
             "prints the report of the whole study, as if it had run in one piece.\n"
             "Each shard names its study (the command, variants with the content hash of\n"
             "every file they read, options, players, seeds, --games, carc's version):\n"
             "the merge refuses, naming the file, a shard of another study, a shard given\n"
             "twice, and a shard or a game missing. The time reported is the shards' sum.\n",
    CLI_FLAGS(flags),
    .run = run,
};
