/* cmd_sweep.c - carc sweep: one rule set at many settings of its options,
 * every point on the baseline's seeds, the baseline played once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "study_args.h"
#include "sweep.h"
#include "term_text.h"

static int run(const cli_args *args)
{
    static sweep sw;
    memset(&sw, 0, sizeof sw);
    study *base = &sw.base;
    study_defaults(base);
    study_flags fl = {0};
    if (study_from_args(args, base, &fl) < 0 || study_skill_gap(args, base) != 0) return 2;
    compare_settings cs;
    compare_settings_default(&cs);
    if (study_judging(args, &cs) != 0) return 2;
    char err[1024];
    for (int k = 0; k < cli_count(args, "--vary"); k++) {
        if (sw.naxes == SWEEP_MAX_AXES) {
            fprintf(stderr, "carc sweep: at most %d --vary\n", SWEEP_MAX_AXES);
            return 2;
        }
        if (sweep_axis_parse(cli_nth(args, "--vary", k), &sw.axes[sw.naxes], err, sizeof err) < 0) {
            term_error("carc sweep", err);
            return 2;
        }
        for (int a = 0; a < sw.naxes; a++)
            if (strcmp(sw.axes[a].key, sw.axes[sw.naxes].key) == 0) {
                snprintf(err, sizeof err, "--vary %s given twice", sw.axes[a].key);
                term_error("carc sweep", err);
                return 2;
            }
        sw.naxes++;
    }
    const char *m = cli_text(args, "--measures", NULL);
    if (m) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", m);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (sw.nmeasures == 32 || strlen(t) >= sizeof sw.measures[0]) {
                fprintf(stderr, "carc sweep: --measures takes at most 32 keys\n");
                return 2;
            }
            snprintf(sw.measures[sw.nmeasures++], sizeof sw.measures[0], "%s", t);
        }
    }
    const char *va = args->operands[0], *vb = args->noperands > 1 ? args->operands[1] : va;
    snprintf(base->variant, sizeof base->variant, "%s", va);
    if (sweep_plan(&sw, vb) < 0) {
        term_error("carc sweep", sw.error);
        sweep_free(&sw);
        return 2;
    }
    int rc = 0;
    study_out_clear(&fl);
    if (sweep_run(&sw) < 0) {
        term_error("carc sweep", sw.error);
        rc = 1;
    } else {
        /* A measure asked for that no row has: a misspelt key. */
        compare_row *rows = NULL;
        int *point = NULL;
        if (sw.nmeasures) {
            rows = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *rows);
            point = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *point);
            if (!rows || !point) {
                fprintf(stderr, "carc: out of memory\n");
                exit(1);
            }
            int n = sweep_rows(&sw, &cs, rows, point);
            for (int i = 0; i < sw.nmeasures && rc == 0; i++) {
                bool found = false;
                for (int r = 0; r < n && !found; r++) found = strcmp(rows[r].key, sw.measures[i]) == 0;
                if (!found) {
                    char msg[300]; /* the key may come from a stranger's study file: shown escaped */
                    snprintf(msg, sizeof msg, "--measures: no measure '%s' in this sweep (docs/measures.md lists the "
                             "keys; points by reason are points:REASON)", sw.measures[i]);
                    term_error("carc sweep", msg);
                    rc = 2;
                }
            }
            free(rows);
            free(point);
        }
        FILE *out = rc ? NULL : study_out("sweep", &fl);
        if (rc == 0 && !out) rc = 1;
        if (out) report_sweep(&sw, &cs, out, study_format(&fl));
        if (out && study_out_close("sweep", &fl, out) < 0) rc = 1;
        if (rc == 0 && fl.games_jsonl && sweep_games_jsonl(&sw, &fl) < 0) rc = 1;
        if (rc == 0 && (fl.html || fl.svg_dir)) { /* the report's JSON, drawn */
            char *json = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&json, &len);
            if (mem) {
                report_sweep(&sw, &cs, mem, REPORT_JSON);
                fclose(mem);
            }
            if (!mem || study_pictures("sweep", &fl, json, len) < 0) rc = 1;
            free(json);
        }
    }
    sweep_free(&sw);
    return rc;
}

static const cli_flag flags[] = {
    FLAG_TEXTS("--vary", "KEY=VALUES", "the option and its values: whole numbers 0..4, 0..10:2,\n"
                                       "or a list none,per-city-once; repeatable: every\n"
                                       "combination is a point (at most 64 points)"),
    STUDY_FLAGS_PLAY,
    FLAG_TEXT("--skill-gap", "STRONG,WEAK", "these agents against each other, seats rotated (not\n"
                                             "with --players); skill-gap: STRONG's win share"),
    FLAG_INT("--blocks", "N", 2, 256, "judge each measure over N blocks of games (default 10)"),
    FLAG_TEXTS("--min-effect", "UNIT=X", "a finding's practical threshold per unit (repeatable):\n"
                                          "points=X (1), share=X (0.02), turns=X (1), count=X (0.5)"),
    FLAG_TEXT("--measures", "KEY,...", "report only these measures (fewer rows, a smaller\n"
                                       "correction): margin,first-win,points:farm\n"
                                       "(the keys of docs/measures.md)"),
    FLAG_TEXT("--out", "FILE", "write the report into FILE, whole or not at all"),
    FLAG_TEXT("--games-jsonl", "FILE", "also write every game as one JSON line into FILE,\n"
                                       "its side the point: for R or pandas"),
    FLAG_TEXT("--html", "FILE", "also the report as an HTML page with its charts (carc stats report)"),
    FLAG_TEXT("--svg-dir", "DIR", "also each chart of the report as an SVG file in DIR"),
    FLAG_SWITCH("--json", "the report as one JSON object"),
    FLAG_SWITCH("--csv", "the report as CSV (what was run in '# ' lines first)"),
    FLAG_ALLOW_PLUGIN_PATHS("the variants"),
};

static const cli_hint hints[] = {
    {"--variant", "name the variants as arguments: carc sweep BASELINE [VARIANT] --vary KEY=VALUES"},
    {"--shard", "a sweep runs in one piece: --jobs J plays it on J threads"},
    {"--option-b", "the points' options are --vary's; --option sets an option for the baseline and every point"},
    {NULL, NULL},
};

const cli_command command_sweep = {
    .name = "sweep",
    .operands = "BASELINE [VARIANT]",
    .min_operands = 1,
    .max_operands = 2,
    .summary = "one rule set at many settings of its options, each compared with a baseline",
    .about = "Plays BASELINE once, then VARIANT (default BASELINE) at every point of the grid\n"
             "the --vary axes span, each point on the baseline's seeds (game i of every point\n"
             "and of the baseline share a seed), and compares each point with the baseline as\n"
             "carc compare does: per measure and point, the mean under the baseline and at the\n"
             "point, B - A with its 95% interval over independent blocks, Holm's correction\n"
             "over every (point, measure) row, how many blocks agree, and whether it is a\n"
             "finding. One row per (point, measure) in the table, --csv and --json.\n"
             "Script and plugin options vary as any other (road-closer.points-per-tile).\n"
             "Example: carc sweep base house/road-closer-lua --players greedy,greedy\n"
             "         --vary road-closer.points-per-tile=0..4 --games 1000 --jobs 2\n"
             "--records DIR keeps the baseline's records in DIR/baseline/ and point K's in\n"
             "DIR/point-K/; --games-jsonl FILE writes every game, its side the point.\n",
    CLI_FLAGS(flags),
    .hints = hints,
    .more_help = study_agents_help,
    .run = run,
};
