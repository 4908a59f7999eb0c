/* cmd_stats.c - carc stats merge: the report of a study run in shards. */
#include <stdio.h>
#include <string.h>

#include "term_text.h"
#include "commands.h"
#include "report.h"
#include "study.h"

/* Every game of the study once: no number twice, none missing. */
static int check_complete(const study *s, const char *side)
{
    for (int i = 0; i < s->nresults; i++) {
        if (i > 0 && s->results[i].index == s->results[i - 1].index) {
            fprintf(stderr, "carc stats merge: game %d%s%s appears twice (a shard merged twice?)\n",
                    s->results[i].index, *side ? " of side " : "", side);
            return -1;
        }
    }
    if (s->games && s->nresults != s->games)
        fprintf(stderr, "carc stats merge: warning: %d of the study's %d games%s%s (shards missing?)\n", s->nresults,
                s->games, *side ? " on side " : "", side);
    return 0;
}

static int run(const cli_args *args)
{
    if (cli_given(args, "--json") && cli_given(args, "--csv")) {
        fprintf(stderr, "carc stats merge: --json and --csv: choose one\n");
        return 2;
    }
    int format = cli_given(args, "--json") ? REPORT_JSON : cli_given(args, "--csv") ? REPORT_CSV : REPORT_TABLE;
    static study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32] = "", err[1024];
    int files = 0;
    for (int i = 0; i < args->noperands; i++) {
        if (study_read_jsonl(args->operands[i], &a, &b, kind, sizeof kind, err, sizeof err) < 0) {
            term_error("carc stats merge", err);
            return 1;
        }
        files++;
    }
    int rc = 0;
    if (!files || !a.nresults) {
        fprintf(stderr, "carc stats merge: no game in the files\n");
        rc = 1;
    } else if (check_complete(&a, strcmp(kind, "compare") == 0 ? "A" : "") < 0 ||
               (b.nresults && check_complete(&b, "B") < 0)) {
        rc = 1;
    } else if (strcmp(kind, "compare") == 0) {
        a.label = b.label = "compare";
        report_compare(&a, &b, stdout, format);
    } else if (strcmp(kind, "tournament") == 0) {
        a.rotate = true;
        a.label = "tournament";
        report_tournament(&a, stdout, format);
    } else {
        a.label = "sim";
        report_sim(&a, stdout, format);
    }
    study_free(&a);
    study_free(&b);
    return rc;
}

static const cli_flag flags[] = {
    FLAG_SWITCH("--json", "the report as one JSON object"),
    FLAG_SWITCH("--csv", "the report as CSV (what was run in '# ' lines first)"),
};

const cli_command command_stats = {
    .name = "stats merge",
    .operands = "FILE...",
    .min_operands = 1,
    .max_operands = -1,
    .summary = "the report of a study run in shards (--shard K/N)",
    .about = "Reads the JSON lines that 'carc sim|tournament|compare --shard K/N' wrote and\n"
             "prints the report of the whole study, as if it had run in one piece.\n",
    CLI_FLAGS(flags),
    .run = run,
};
