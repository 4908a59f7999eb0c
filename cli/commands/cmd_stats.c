/* cmd_stats.c - carc stats merge: the report of a study run in shards; carc
 * stats report: a report drawn (HTML and SVG). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "json_io.h"
#include "regular_file.h"
#include "report.h"
#include "report_html.h"
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

/* ---- carc stats report: the pictures of a report ------------------------------------- */

#define REPORT_JSON_MAX_BYTES (64LL << 20)

static int run_report(const cli_args *args)
{
    const char *path = args->operands[0], *html_path = cli_text(args, "--html", NULL),
               *svg_dir = cli_text(args, "--svg-dir", NULL);
    if (!html_path && !svg_dir) {
        fprintf(stderr, "carc stats report: say where the pictures go: --html OUT.html, --svg-dir DIR or both\n");
        return 2;
    }
    char err[2048];
    size_t len = 0;
    char *text = regular_file_read(path, "report", REPORT_JSON_MAX_BYTES, &len, err, sizeof err);
    if (!text) {
        term_error("carc stats report", err);
        return 1;
    }
    json_error_t jerr;
    json_t *report = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!json_is_object(report)) {
        snprintf(err, sizeof err, "%s:%d: %s (expected the JSON object of a carc report: --json)", path,
                 report ? 1 : jerr.line, report ? "not a JSON object" : jerr.text);
        term_error("carc stats report", err);
        json_decref(report);
        return 1;
    }
    char *page = NULL;
    size_t page_len = 0;
    FILE *html = html_path ? open_memstream(&page, &page_len) : NULL;
    if (html_path && !html) {
        fprintf(stderr, "carc stats report: out of memory\n");
        json_decref(report);
        return 1;
    }
    const char *slash = strrchr(path, '/');
    int n = report_pictures(report, slash ? slash + 1 : path, html, svg_dir, err, sizeof err);
    if (html) fclose(html);
    json_decref(report);
    int rc = 0;
    if (n < 0) {
        term_error("carc stats report", err);
        rc = 1;
    } else if (html_path && atomic_file_write(html_path, page, page_len, NULL, err, sizeof err) < 0) {
        term_error("carc stats report", err);
        rc = 1;
    }
    free(page);
    return rc;
}

static const cli_flag report_flags[] = {
    FLAG_TEXT("--html", "OUT.html", "the report as one HTML page with its charts (self-contained: no network)"),
    FLAG_TEXT("--svg-dir", "DIR", "each chart also as an SVG file of its own in DIR (created if missing)"),
};

const cli_command command_stats_report = {
    .name = "stats report",
    .operands = "REPORT.json",
    .min_operands = 1,
    .max_operands = 1,
    .summary = "a study's report drawn: an HTML page and SVG charts",
    .about = "Reads the JSON of a report ('carc sim|tournament|compare|study run --json', 'carc\n"
             "stats merge --json', a sweep's) and draws it with carc's own SVG: each\n"
             "measure's effect with its 95% and corrected intervals (a forest plot a unit), a\n"
             "sweep's trend over its points with the bands, points per game by reason, the\n"
             "distribution of final scores; sim and tournament: win rate and mean score by\n"
             "seat or agent. --html writes one page holding what was run, the files read with\n"
             "their SHA-256, the measures and every chart; --svg-dir writes each chart as an\n"
             "SVG file of its own (for papers). docs/house-rules.md shows one.\n",
    CLI_FLAGS(report_flags),
    .run = run_report,
};
