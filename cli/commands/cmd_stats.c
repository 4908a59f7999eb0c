/* cmd_stats.c - carc stats merge: the report of a study run in shards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term_text.h"
#include "commands.h"
#include "report.h"
#include "study.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc stats merge [--json|--csv] FILE...\n\n"
               "Reads the JSON lines that 'carc sim|tournament|compare --shard K/N' wrote and\n"
               "prints the report of the whole study, as if it had run in one piece.\n");
}

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
    char kind[32] = "", err[1024];
    int format = REPORT_TABLE, files = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) format = REPORT_JSON;
        else if (strcmp(argv[i], "--csv") == 0) format = REPORT_CSV;
        else if (argv[i][0] == '-' && argv[i][1]) return arg_unknown("stats merge", argv[i]);
        else if (study_read_jsonl(argv[i], &a, &b, kind, sizeof kind, err, sizeof err) < 0) {
            term_error("carc stats merge", err);
            return 1;
        } else files++;
    }
    /* The report quotes the shards (variant, agent and reason names): it is
     * written through term_write, control characters escaped as replay does. */
    char *shown = NULL;
    size_t shown_len = 0;
    FILE *out = open_memstream(&shown, &shown_len);
    if (!out) {
        fprintf(stderr, "carc stats merge: out of memory\n");
        return 1;
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
        report_compare(&a, &b, out, format);
    } else if (strcmp(kind, "tournament") == 0) {
        a.rotate = true;
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
    return rc;
}
