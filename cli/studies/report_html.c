/* report_html.c - a report's JSON drawn: the HTML page and the SVG files
 * (report_html.h). */
#include "report_html.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "chart_svg.h"
#include "render.h"

#define MAX_CHARTS 64

typedef struct chart {
    char file[96];  /* NAME.svg */
    char *svg;
    size_t len;
} chart;

typedef struct charts {
    chart c[MAX_CHARTS];
    int n;
    FILE *cur;
} charts;

/* ---- reading the JSON: absent or mistyped members read as "" or 0 ---------------------- */

static const char *text_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* A number of the report, within +-1e12 (a file's numbers are drawn: none
 * may overflow the arithmetic of an axis). */
static double num_of(const json_t *o, const char *key)
{
    double v = json_number_value(json_object_get(o, key));
    return v > 1e12 ? 1e12 : v < -1e12 ? -1e12 : v == v ? v : 0;
}

static bool has_num(const json_t *o, const char *key)
{
    return json_is_number(json_object_get(o, key));
}

/* A measure's effect: "diff" (compare, sweep) or "value". */
static chart_effect effect_of(const json_t *m, const char *name)
{
    chart_effect e = {.name = name};
    e.value = has_num(m, "diff") ? num_of(m, "diff") : num_of(m, "value");
    e.lo = num_of(m, "lo");
    e.hi = num_of(m, "hi");
    e.has_corrected = has_num(m, "corrected_lo") && has_num(m, "corrected_hi");
    e.corrected_lo = num_of(m, "corrected_lo");
    e.corrected_hi = num_of(m, "corrected_hi");
    e.finding = json_is_true(json_object_get(m, "finding"));
    return e;
}

/* ---- the list of charts ------------------------------------------------------------------ */

/* A file name of letters, digits and '-' from parts. */
static void slug(char *out, size_t n, const char *a, const char *b)
{
    snprintf(out, n, "%s%s%s", a, b[0] ? "-" : "", b);
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) *p = *p >= 'A' && *p <= 'Z' ? *p + 32 : '-';
    strncat(out, ".svg", n - strlen(out) - 1);
}

static FILE *chart_begin(charts *cs, const char *a, const char *b)
{
    if (cs->n == MAX_CHARTS) return NULL;
    chart *c = &cs->c[cs->n];
    char name[80];
    slug(name, sizeof name, a, b);
    /* Two measures whose names make the same file name: the second gets a number. */
    snprintf(c->file, sizeof c->file, "%s", name);
    for (int i = 0, k = 2; i < cs->n; i++)
        if (strcmp(cs->c[i].file, c->file) == 0) {
            snprintf(c->file, sizeof c->file, "%.*s-%d.svg", (int)strlen(name) - 4, name, k++);
            i = -1;
        }
    cs->cur = open_memstream(&c->svg, &c->len);
    return cs->cur;
}

static void chart_end(charts *cs)
{
    if (!cs->cur) return;
    fclose(cs->cur);
    cs->cur = NULL;
    if (cs->c[cs->n].svg) cs->n++;
}

/* ---- the charts ---------------------------------------------------------------------------- */

static const char *unit_axis(const char *unit)
{
    return strcmp(unit, "share") == 0 ? "share of games" : unit;
}

/* One forest plot a unit of the measures in `list` (no "point"). */
static void forest_by_unit(charts *cs, const json_t *list, const char *what)
{
    const char *units[16];
    int nunits = 0;
    size_t i;
    const json_t *m;
    json_array_foreach(list, i, m) {
        const char *u = text_of(m, "unit");
        int k = 0;
        while (k < nunits && strcmp(units[k], u) != 0) k++;
        if (k == nunits && nunits < 16) units[nunits++] = u;
    }
    size_t n = json_array_size(list);
    chart_effect *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) return;
    for (int k = 0; k < nunits; k++) {
        int nr = 0;
        json_array_foreach(list, i, m)
            if (strcmp(text_of(m, "unit"), units[k]) == 0) rows[nr++] = effect_of(m, text_of(m, "metric"));
        char title[160], axis[160];
        snprintf(title, sizeof title, "%s%s%s", what, units[k][0] ? ", in " : "", unit_axis(units[k]));
        snprintf(axis, sizeof axis, "B - A%s%s", units[k][0] ? ", " : "", unit_axis(units[k]));
        FILE *f = chart_begin(cs, "effects", units[k]);
        if (!f) break;
        chart_forest(f, title, axis, rows, nr);
        chart_end(cs);
    }
    free(rows);
}

/* The key of a measure: "key", else its name. */
static const char *key_of(const json_t *m)
{
    const char *k = text_of(m, "key");
    return k[0] ? k : text_of(m, "metric");
}

/* The reason a measure counts points of ("points:REASON" or "points/game:
 * REASON"), or NULL. */
static const char *reason_of(const json_t *m)
{
    const char *k = text_of(m, "key"), *name = text_of(m, "metric");
    if (strncmp(k, "points:", 7) == 0) return k + 7;
    if (strncmp(name, "points/game: ", 13) == 0) return name + 13;
    return NULL;
}

/* A sweep: for each measure, its effect at each point (in the order of
 * "points", else of the rows). */
static void sweep_trends(charts *cs, const json_t *rows)
{
    size_t n = json_array_size(rows), i;
    const json_t *m;
    const char **keys = calloc(n ? n : 1, sizeof *keys), **labels = calloc(n ? n : 1, sizeof *labels);
    chart_effect *eff = calloc(n ? n : 1, sizeof *eff);
    int nkeys = 0;
    if (!keys || !labels || !eff) goto done;
    json_array_foreach(rows, i, m) {
        int k = 0;
        while (k < nkeys && strcmp(keys[k], key_of(m)) != 0) k++;
        if (k == nkeys) keys[nkeys++] = key_of(m);
    }
    for (int k = 0; k < nkeys; k++) {
        int np = 0;
        const char *unit = "", *name = "";
        json_array_foreach(rows, i, m) {
            if (strcmp(key_of(m), keys[k]) != 0) continue;
            labels[np] = text_of(m, "point");
            eff[np] = effect_of(m, labels[np]);
            np++;
            unit = text_of(m, "unit");
            name = text_of(m, "metric");
        }
        char title[200], axis[160];
        snprintf(title, sizeof title, "%s: the effect at each point against the baseline", name);
        snprintf(axis, sizeof axis, "point - baseline%s%s", unit[0] ? ", " : "", unit_axis(unit));
        FILE *f = chart_begin(cs, "trend", keys[k]);
        if (!f) break;
        chart_trend(f, title, axis, labels, eff, np);
        chart_end(cs);
    }
done:
    free(keys);
    free(labels);
    free(eff);
}

/* Points by reason: from the measures (a and b, or baseline and each
 * point's value), else from "points_by_reason". */
static void points_by_reason(charts *cs, const json_t *report, const json_t *list, bool sweep, const char *a_name,
                             const char *b_name)
{
    const char *cats[64], *series[64];
    int ncats = 0, nseries = 0;
    double values[64 * 64] = {0};
    size_t i;
    const json_t *m;
    if (list) {
        series[0] = sweep ? "baseline" : a_name;
        series[1] = b_name;
        nseries = sweep ? 1 : 2;
        json_array_foreach(list, i, m) {
            const char *r = reason_of(m);
            if (!r) continue;
            int c = 0;
            while (c < ncats && strcmp(cats[c], r) != 0) c++;
            if (c == 64) continue;
            if (c == ncats) cats[ncats++] = r;
            if (!sweep) {
                values[c] = num_of(m, "a");
                values[64 + c] = num_of(m, "b");
                continue;
            }
            values[c] = num_of(m, "baseline");
            const char *p = text_of(m, "point");
            int s = 1;
            while (s < nseries && strcmp(series[s], p) != 0) s++;
            if (s == 64) continue;
            if (s == nseries) series[nseries++] = p;
            values[s * 64 + c] = num_of(m, "value");
        }
    } else {
        const json_t *pr = json_object_get(report, "points_by_reason");
        const char *key;
        const json_t *v;
        json_object_foreach((json_t *)pr, key, v) {
            if (ncats == 64) break;
            double x = json_number_value(v);
            values[ncats] = x > 1e12 ? 1e12 : x < -1e12 ? -1e12 : x;
            cats[ncats++] = key;
        }
        series[0] = "all players";
        nseries = 1;
    }
    if (!ncats) return;
    /* values are laid out 64 apart; chart_bars wants ncats apart. */
    double packed[64 * 64];
    for (int s = 0; s < nseries; s++)
        for (int c = 0; c < ncats; c++) packed[s * ncats + c] = values[s * 64 + c];
    FILE *f = chart_begin(cs, "points-by-reason", "");
    if (!f) return;
    chart_bars(f, "bars", "Points per game by reason (all players)", "points per game", cats, ncats, series, nseries,
               packed);
    chart_end(cs);
}

/* The histogram of final scores: one side, or "a" and "b" on the same bins. */
static void score_histogram(charts *cs, const json_t *report, const char *a_name, const char *b_name)
{
    const json_t *d = json_object_get(report, "score_distribution"), *sides[2];
    int nsides = 0;
    if (json_object_get(d, "bins")) sides[nsides++] = d;
    else if (json_object_get(d, "a") && json_object_get(d, "b")) {
        sides[nsides++] = json_object_get(d, "a");
        sides[nsides++] = json_object_get(d, "b");
    }
    if (!nsides) return;
    /* Bins of a report read from a file: bounded before any arithmetic. */
    double wd = num_of(sides[0], "bin_width");
    int width = wd >= 1 && wd <= 1e7 ? (int)wd : 1, lo = 0, hi = -1;
    for (int s = 0; s < nsides; s++) {
        const json_t *bins = json_object_get(sides[s], "bins"), *b;
        size_t i;
        json_array_foreach(bins, i, b) {
            double fd = num_of(b, "from");
            if (!(fd >= -1e7 && fd <= 1e7)) return;
            int from = (int)fd;
            if (hi < lo) lo = hi = from;
            if (from < lo) lo = from;
            if (from > hi) hi = from;
        }
    }
    if (hi < lo || (hi - lo) / width >= 400) return;
    int nbins = (hi - lo) / width + 1;
    char (*labels)[32] = calloc((size_t)nbins, sizeof *labels);
    const char **cats = calloc((size_t)nbins, sizeof *cats);
    double *values = calloc((size_t)(nbins * nsides), sizeof *values);
    if (labels && cats && values) {
        for (int k = 0; k < nbins; k++) {
            int from = lo + k * width;
            if (width == 1) snprintf(labels[k], sizeof labels[k], "%d", from);
            else snprintf(labels[k], sizeof labels[k], "%d-%d", from, from + width - 1);
            cats[k] = labels[k];
        }
        for (int s = 0; s < nsides; s++) {
            const json_t *bins = json_object_get(sides[s], "bins"), *b;
            size_t i;
            json_array_foreach(bins, i, b) {
                int k = ((int)num_of(b, "from") - lo) / width; /* from: checked above */
                if (k >= 0 && k < nbins) values[s * nbins + k] = num_of(b, "count");
            }
        }
        const char *series[2] = {nsides == 2 ? a_name : "every player", b_name};
        FILE *f = chart_begin(cs, "scores", "");
        if (f) {
            chart_bars(f, "histogram", "Final scores: how many players ended in each range", "players", cats, nbins,
                       series, nsides, values);
            chart_end(cs);
        }
    }
    free(labels);
    free(cats);
    free(values);
}

/* sim and tournament: win rate and mean score with their intervals, by seat
 * or by agent. */
static void rates(charts *cs, const json_t *list, const char *by, const char *label_key)
{
    size_t n = json_array_size(list), i;
    const json_t *m;
    if (!n || !has_num(json_array_get(list, 0), "win_rate")) return;
    chart_effect *rows = calloc(n, sizeof *rows);
    char (*names)[128] = calloc(n, sizeof *names);
    static const char *const what[2][3] = {{"win_rate", "win rate", "share of games won"},
                                           {"mean_score", "mean score", "points"}};
    for (int w = 0; rows && names && w < 2; w++) {
        if (!has_num(json_array_get(list, 0), what[w][0])) continue;
        char lo[32], hi[32], title[96];
        snprintf(lo, sizeof lo, "%s_lo", what[w][0]);
        snprintf(hi, sizeof hi, "%s_hi", what[w][0]);
        json_array_foreach(list, i, m) {
            const json_t *seat = json_object_get(m, "seat");
            if (strcmp(label_key, "seat") == 0)
                snprintf(names[i], sizeof names[i], "seat %lld%s%s", (long long)json_integer_value(seat),
                         text_of(m, "agent")[0] ? ", " : "", text_of(m, "agent"));
            else snprintf(names[i], sizeof names[i], "%s", text_of(m, label_key));
            rows[i] = (chart_effect){.name = names[i], .value = num_of(m, what[w][0]), .lo = num_of(m, lo),
                                     .hi = num_of(m, hi)};
        }
        snprintf(title, sizeof title, "%s by %s (95%% intervals)", what[w][1], by);
        title[0] = (char)(title[0] - 32);
        char a[32];
        snprintf(a, sizeof a, "%s-by", what[w][1]);
        FILE *f = chart_begin(cs, a, by);
        if (!f) break;
        chart_forest(f, title, what[w][2], rows, (int)n);
        chart_end(cs);
    }
    free(rows);
    free(names);
}

/* ---- the page -------------------------------------------------------------------------------- */

static const char page_style[] =
    "body{font-family:sans-serif;margin:16px 24px;background:#f6f5f0;color:#222;max-width:1100px}"
    "h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:22px 0 6px}"
    "table{border-collapse:collapse;font-size:13px;background:#fff}"
    "td,th{border:1px solid #ccc;padding:3px 7px;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.finding td{background:#fde8e4}figure{margin:14px 14px 0 0;vertical-align:top;background:#fff;border:1px solid #ccc;display:inline-block}"
    "figcaption{font-size:12px;color:#555;padding:4px 8px}code{font-size:12px}";

static void html_text(FILE *f, const char *s)
{
    xml_text(f, s ? s : "");
}

static void html_join(FILE *f, const json_t *list)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (i) fputs(", ", f);
        html_text(f, json_string_value(v));
    }
}

/* Whether `files` lists file (the same name and hash). */
static bool file_listed(const json_t *files, const json_t *file)
{
    size_t i;
    const json_t *v;
    json_array_foreach(files, i, v) if (strcmp(text_of(v, "file"), text_of(file, "file")) == 0 &&
                                        strcmp(text_of(v, "sha256"), text_of(file, "sha256")) == 0) return true;
    return false;
}

/* What was run, one column a side. */
static void what_was_run(FILE *f, const json_t *const *sides, const char *const *names, int nsides)
{
    static const char *const rows[] = {"variant", "title", "modules", "options not at their default", "--option",
                                       "players", "games", "seed", "carc"};
    fprintf(f, "<table class=\"run\"><tr><th></th>");
    for (int s = 0; s < nsides; s++) {
        fprintf(f, "<th>");
        html_text(f, names[s]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (int r = 0; r < 9; r++) {
        fprintf(f, "<tr><th>%s</th>", rows[r]);
        for (int s = 0; s < nsides; s++) {
            const json_t *h = sides[s];
            fprintf(f, "<td>");
            const char *key;
            const json_t *v;
            size_t k = 0;
            switch (r) {
            case 0: html_text(f, text_of(h, "variant")); break;
            case 1: html_text(f, text_of(h, "title")); break;
            case 2: html_join(f, json_object_get(h, "modules")); break;
            case 3:
                json_object_foreach((json_t *)json_object_get(h, "options_not_default"), key, v) {
                    fprintf(f, "%s", k++ ? ", " : "");
                    html_text(f, key);
                    fputc('=', f);
                    html_text(f, json_string_value(v));
                }
                break;
            case 4: html_join(f, json_object_get(h, "option_overrides")); break;
            case 5: html_join(f, json_object_get(h, "players")); break;
            case 6: fprintf(f, "%lld", (long long)json_integer_value(json_object_get(h, "games"))); break;
            case 7:
                if (json_is_string(json_object_get(h, "seed"))) html_text(f, text_of(h, "seed"));
                else fprintf(f, "%lld", (long long)json_integer_value(json_object_get(h, "seed")));
                break;
            default: html_text(f, text_of(h, "carc_version"));
            }
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n<h2>Files read, by their content</h2>\n<table class=\"files\"><tr><th>file</th><th>SHA-256</th></tr>\n");
    for (int s = 0; s < nsides; s++) {
        const json_t *files = json_object_get(sides[s], "files"), *v;
        size_t i;
        json_array_foreach(files, i, v) {
            if (s == 1 && file_listed(json_object_get(sides[0], "files"), v)) continue; /* both sides read it */
            fprintf(f, "<tr><td>");
            html_text(f, text_of(v, "file"));
            fprintf(f, "</td><td><code>");
            html_text(f, text_of(v, "sha256"));
            fprintf(f, "</code></td></tr>\n");
        }
        const json_t *sf = json_object_get(sides[s], "study_file");
        if (sf && s == 0) {
            fprintf(f, "<tr><td>study file ");
            html_text(f, text_of(sf, "file"));
            fprintf(f, "</td><td><code>");
            html_text(f, text_of(sf, "sha256"));
            fprintf(f, "</code></td></tr>\n");
        }
    }
    fprintf(f, "</table>\n");
}

/* The measures as a table (compare, sweep). */
static void measures_table(FILE *f, const json_t *list, bool sweep)
{
    fprintf(f, "<table class=\"measures\"><tr>%s<th>measure</th><th>%s</th><th>%s</th><th>effect</th><th>95%% interval</th>"
               "<th>corrected interval</th><th>finding</th></tr>\n",
            sweep ? "<th>point</th>" : "", sweep ? "baseline" : "A", sweep ? "value" : "B");
    size_t i;
    const json_t *m;
    json_array_foreach(list, i, m) {
        bool finding = json_is_true(json_object_get(m, "finding"));
        fprintf(f, "<tr%s>", finding ? " class=\"finding\"" : "");
        if (sweep) {
            fprintf(f, "<td>");
            html_text(f, text_of(m, "point"));
            fprintf(f, "</td>");
        }
        fprintf(f, "<td>");
        html_text(f, text_of(m, "metric"));
        fprintf(f, "</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td><td class=\"num\">%+.4g</td>"
                   "<td class=\"num\">[%.4g, %.4g]</td><td class=\"num\">[%.4g, %.4g]</td><td>%s</td></tr>\n",
                num_of(m, sweep ? "baseline" : "a"), num_of(m, sweep ? "value" : "b"), num_of(m, "diff"),
                num_of(m, "lo"), num_of(m, "hi"), num_of(m, "corrected_lo"), num_of(m, "corrected_hi"),
                finding ? "yes" : "no");
    }
    fprintf(f, "</table>\n");
}

static int write_svgs(const charts *cs, const char *dir, char *err, size_t errn)
{
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errn, "%s: %s", dir, strerror(errno));
        return -1;
    }
    for (int i = 0; i < cs->n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, cs->c[i].file);
        static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        size_t n = sizeof decl - 1 + cs->c[i].len;
        char *whole = malloc(n);
        if (!whole) {
            snprintf(err, errn, "out of memory");
            return -1;
        }
        memcpy(whole, decl, sizeof decl - 1);
        memcpy(whole + sizeof decl - 1, cs->c[i].svg, cs->c[i].len);
        int rc = atomic_file_write(path, whole, n, NULL, err, errn);
        free(whole);
        if (rc < 0) return -1;
    }
    return 0;
}

int report_pictures(const json_t *report, const char *source, FILE *html, const char *svg_dir, char *err, size_t errn)
{
    static charts cs;
    memset(&cs, 0, sizeof cs);
    const json_t *metrics = json_object_get(report, "metrics"), *rows = json_object_get(report, "rows");
    const json_t *a = json_object_get(report, "a"), *b = json_object_get(report, "b"),
                 *base = json_object_get(report, "baseline");
    bool compare = json_is_array(metrics) && json_is_object(a) && json_is_object(b);
    bool sweep = json_is_array(rows) && json_object_get(json_array_get(rows, 0), "point");
    char a_name[300], b_name[300];
    snprintf(a_name, sizeof a_name, "A: %s", text_of(a, "variant"));
    snprintf(b_name, sizeof b_name, "B: %s", text_of(b, "variant"));
    if (compare) forest_by_unit(&cs, metrics, "Effect of B against A");
    if (sweep) sweep_trends(&cs, rows);
    if (!compare && !sweep) {
        const json_t *agents = json_object_get(report, "agents");
        rates(&cs, agents, "agent", "agent");
        rates(&cs, json_object_get(report, "seats"), "seat", "seat");
    }
    points_by_reason(&cs, report, compare ? metrics : sweep ? rows : NULL, sweep, a_name, b_name);
    score_histogram(&cs, report, a_name, b_name);
    int rc = cs.n;
    if (cs.n == 0) {
        snprintf(err, errn, "%s: nothing to draw (not the JSON of a carc report: no measures, seats or agents)", source);
        rc = -1;
    }
    if (rc >= 0 && svg_dir && write_svgs(&cs, svg_dir, err, errn) < 0) rc = -1;
    if (rc >= 0 && html) {
        const char *kind = compare ? "compare" : sweep ? "sweep" : json_object_get(report, "agents") ? "tournament" : "sim";
        fprintf(html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>carc %s: ", kind);
        html_text(html, source);
        fprintf(html, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>carc %s report</h1>\n<p>From <code>", page_style,
                kind);
        html_text(html, source);
        fprintf(html, "</code>; every chart is also an SVG file of its own%s.</p>\n<h2>What was run</h2>\n",
                svg_dir ? " (named under it)" : " (carc stats report --svg-dir DIR)");
        const json_t *sides[2] = {compare ? a : sweep ? base : report, b};
        const char *names[2] = {compare ? a_name : sweep ? "baseline" : "study", b_name};
        what_was_run(html, sides, names, compare ? 2 : 1);
        if (compare || sweep) {
            long long findings = json_integer_value(json_object_get(report, "findings"));
            fprintf(html, "<h2>Measures</h2>\n<p>%lld finding%s; intervals over %lld blocks, corrected by %s.</p>\n",
                    findings, findings == 1 ? "" : "s", (long long)json_integer_value(json_object_get(report, "blocks")),
                    text_of(report, "correction")[0] ? text_of(report, "correction") : "none");
            measures_table(html, compare ? metrics : rows, sweep);
        }
        fprintf(html, "<h2>Charts</h2>\n");
        for (int i = 0; i < cs.n; i++) {
            fprintf(html, "<figure id=\"%.*s\">\n", (int)strlen(cs.c[i].file) - 4, cs.c[i].file);
            fwrite(cs.c[i].svg, 1, cs.c[i].len, html);
            fprintf(html, "<figcaption>%s</figcaption></figure>\n", cs.c[i].file);
        }
        fprintf(html, "</body>\n</html>\n");
    }
    for (int i = 0; i < cs.n; i++) free(cs.c[i].svg);
    return rc;
}
