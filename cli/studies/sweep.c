/* sweep.c - one rule set at many settings of its options (sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_io.h"
#include "report.h"
#include "shard.h"
#include "study_args.h"

int sweep_axis_parse(const char *spec, sweep_axis *ax, char *err, size_t errn)
{
    memset(ax, 0, sizeof *ax);
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof ax->key) {
        snprintf(err, errn, "--vary expects KEY=FROM..TO, KEY=FROM..TO:STEP or KEY=A,B,C, not '%s'", spec);
        return -1;
    }
    snprintf(ax->key, sizeof ax->key, "%.*s", (int)(eq - spec), spec);
    const char *v = eq + 1;
    long from, to, step = 1;
    int used = 0;
    if (strstr(v, "..")) {
        int n = sscanf(v, "%ld..%ld%n:%ld%n", &from, &to, &used, &step, &used);
        if (n < 2 || v[used] || step < 1 || to < from) {
            snprintf(err, errn, "--vary %s: a range is FROM..TO or FROM..TO:STEP in whole numbers, FROM <= TO, "
                                "STEP >= 1 (0..4, 0..10:2), not '%s'", ax->key, v);
            return -1;
        }
        if ((to - from) / step + 1 > SWEEP_MAX_VALUES) {
            snprintf(err, errn, "--vary %s: %s gives %ld values, more than %d", ax->key, v, (to - from) / step + 1,
                     SWEEP_MAX_VALUES);
            return -1;
        }
        for (long x = from; x <= to; x += step) snprintf(ax->values[ax->nvalues++], sizeof ax->values[0], "%ld", x);
        return 0;
    }
    char buf[SWEEP_MAX_VALUES * 64 + 1];
    if (strlen(v) >= sizeof buf) {
        snprintf(err, errn, "--vary %s: the list is too long", ax->key);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (ax->nvalues == SWEEP_MAX_VALUES || strlen(t) >= sizeof ax->values[0]) {
            snprintf(err, errn, "--vary %s: at most %d values of at most 63 characters", ax->key, SWEEP_MAX_VALUES);
            return -1;
        }
        for (int i = 0; i < ax->nvalues; i++)
            if (strcmp(ax->values[i], t) == 0) {
                snprintf(err, errn, "--vary %s: the value '%s' is listed twice", ax->key, t);
                return -1;
            }
        snprintf(ax->values[ax->nvalues++], sizeof ax->values[0], "%s", t);
    }
    if (ax->nvalues == 0) {
        snprintf(err, errn, "--vary %s: no values", ax->key);
        return -1;
    }
    return 0;
}

static int make_dir(const char *path, char *err, size_t errn)
{
    if (mkdir(path, 0755) == 0 || (errno == EEXIST && access(path, W_OK) == 0)) return 0;
    snprintf(err, errn, "cannot create the records directory %s", path);
    return -1;
}

int sweep_plan(sweep *sw, const char *variant)
{
    long n = 1;
    for (int a = 0; a < sw->naxes; a++) n *= sw->axes[a].nvalues;
    if (sw->naxes == 0 || n > SWEEP_MAX_POINTS) {
        snprintf(sw->error, sizeof sw->error,
                 sw->naxes ? "the axes span %ld points, more than %d: sweep fewer values (a step: 0..10:2)"
                           : "nothing to vary: give --vary KEY=VALUES (%ld)",
                 n, SWEEP_MAX_POINTS);
        return -1;
    }
    sw->npoints = (int)n;
    sw->points = calloc((size_t)n, sizeof *sw->points);
    sw->labels = calloc((size_t)n, sizeof *sw->labels);
    if (!sw->points || !sw->labels) {
        snprintf(sw->error, sizeof sw->error, "out of memory");
        return -1;
    }
    static char dirs[SWEEP_MAX_POINTS + 1][1100];
    const char *records = sw->base.records_dir;
    if (records) {
        snprintf(dirs[0], sizeof dirs[0], "%s/baseline", records);
        if (make_dir(dirs[0], sw->error, sizeof sw->error) < 0) return -1;
        sw->base.records_dir = dirs[0];
    }
    for (int k = 0; k < sw->npoints; k++) {
        study *p = &sw->points[k];
        *p = sw->base;
        p->results = NULL;
        p->nresults = 0;
        snprintf(p->variant, sizeof p->variant, "%s", variant);
        int rest = k;
        sw->labels[k][0] = 0;
        /* the last axis varies fastest */
        int idx[SWEEP_MAX_AXES];
        for (int a = sw->naxes - 1; a >= 0; a--) {
            idx[a] = rest % sw->axes[a].nvalues;
            rest /= sw->axes[a].nvalues;
        }
        for (int a = 0; a < sw->naxes; a++) {
            if (p->noverrides == 32) {
                snprintf(sw->error, sizeof sw->error, "more than 32 options for one point");
                return -1;
            }
            snprintf(p->overrides[p->noverrides++], sizeof p->overrides[0], "%s=%s", sw->axes[a].key,
                     sw->axes[a].values[idx[a]]);
            size_t u = strlen(sw->labels[k]);
            snprintf(sw->labels[k] + u, sizeof sw->labels[0] - u, "%s%s=%s", a ? "," : "", sw->axes[a].key,
                     sw->axes[a].values[idx[a]]);
        }
        if (records) {
            snprintf(dirs[k + 1], sizeof dirs[0], "%s/point-%d", records, k + 1);
            if (make_dir(dirs[k + 1], sw->error, sizeof sw->error) < 0) return -1;
            p->records_dir = dirs[k + 1];
        }
    }
    return 0;
}

int sweep_run(sweep *sw)
{
    /* Every point's rules first: a misspelt option or value stops the
     * sweep before any game is played. */
    for (int k = 0; k < sw->npoints; k++) {
        const study *p = &sw->points[k];
        const char *ov[32];
        for (int i = 0; i < p->noverrides; i++) ov[i] = p->overrides[i];
        char err[1024] = "";
        carc_rules *r = carc_variant_load(p->variant, ov, p->noverrides, err, sizeof err);
        if (!r) {
            snprintf(sw->error, sizeof sw->error, "point %s: %s", sw->labels[k], err);
            return -1;
        }
        carc_rules_free(r);
    }
    sw->base.label = "sweep baseline";
    if (study_run(&sw->base) < 0) {
        snprintf(sw->error, sizeof sw->error, "baseline: %s", sw->base.error);
        return -1;
    }
    static char labels[SWEEP_MAX_POINTS][300];
    for (int k = 0; k < sw->npoints; k++) {
        snprintf(labels[k], sizeof labels[k], "sweep %d/%d", k + 1, sw->npoints);
        sw->points[k].label = labels[k];
        if (study_run(&sw->points[k]) < 0) {
            snprintf(sw->error, sizeof sw->error, "point %s: %s", sw->labels[k], sw->points[k].error);
            return -1;
        }
    }
    sw->base.label = "sweep";
    for (int k = 0; k < sw->npoints; k++) sw->points[k].label = "sweep";
    return 0;
}

void sweep_free(sweep *sw)
{
    study_free(&sw->base);
    for (int k = 0; sw->points && k < sw->npoints; k++) study_free(&sw->points[k]);
    free(sw->points);
    free(sw->labels);
    sw->points = NULL;
    sw->labels = NULL;
}

long sweep_games_played(const sweep *sw)
{
    long n = sw->base.nresults;
    for (int k = 0; k < sw->npoints; k++) n += sw->points[k].nresults;
    return n;
}

static bool wanted(const sweep *sw, const char *key)
{
    if (!sw->nmeasures) return true;
    for (int i = 0; i < sw->nmeasures; i++)
        if (strcmp(sw->measures[i], key) == 0) return true;
    return false;
}

int sweep_rows(const sweep *sw, const compare_settings *cs, compare_row *rows, int *point)
{
    /* Each point's rows, then ordered by measure (in the order the
     * measures first come) and by point within a measure. */
    compare_row *all = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *all);
    int *pt = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *pt);
    char (*keys)[48] = calloc(COMPARE_MAX_ROWS, sizeof *keys);
    if (!all || !pt || !keys) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    int n = 0, nkeys = 0;
    for (int k = 0; k < sw->npoints; k++) {
        int from = n, got = compare_metrics(&sw->base, &sw->points[k], cs, all + from, COMPARE_MAX_ROWS);
        for (int i = 0; i < got; i++) {
            if (!wanted(sw, all[from + i].key)) continue;
            all[n] = all[from + i];
            pt[n++] = k;
        }
    }
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < nkeys && strcmp(keys[j], all[i].key) != 0) j++;
        if (j == nkeys && nkeys < COMPARE_MAX_ROWS) snprintf(keys[nkeys++], sizeof keys[0], "%s", all[i].key);
    }
    int m = 0;
    for (int j = 0; j < nkeys; j++)
        for (int i = 0; i < n; i++)
            if (strcmp(all[i].key, keys[j]) == 0) {
                rows[m] = all[i];
                point[m++] = pt[i];
            }
    compare_correct(rows, m); /* over the whole sweep: every (point, measure) row is one test */
    free(all);
    free(pt);
    free(keys);
    return m;
}

static const char *verdict(const compare_row *r)
{
    return r->finding ? "yes" : r->p_holm < 0.05 && r->df > 0 ? "no, small" : "no";
}

void report_sweep(const sweep *sw, const compare_settings *cs, FILE *f, int format)
{
    compare_row *rows = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *rows);
    int *point = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *point);
    if (!rows || !point) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    int n = sweep_rows(sw, cs, rows, point), findings = 0;
    for (int i = 0; i < n; i++) findings += rows[i].finding;
    const study *b = &sw->base;
    int games = b->nresults, nb = n ? rows[0].blocks : 0;
    long played = sweep_games_played(sw);
    if (format == REPORT_JSON) {
        json_t *vary = json_array(), *files = json_array(), *pts = json_array(), *list = json_array();
        for (int a = 0; a < sw->naxes; a++) {
            json_t *values = json_array();
            for (int v = 0; v < sw->axes[a].nvalues; v++) json_array_append_new(values, json_text(sw->axes[a].values[v]));
            json_array_append_new(vary, json_pack("{s:o, s:o}", "option", json_text(sw->axes[a].key), "values", values));
        }
        for (int i = 0; sw->npoints && i < sw->points[0].nsources; i++)
            json_array_append_new(files, json_pack("{s:o, s:s}", "file", json_text(sw->points[0].source_name[i]),
                                                   "sha256", sw->points[0].source_hash[i]));
        for (int k = 0; k < sw->npoints; k++)
            json_array_append_new(pts, json_pack("{s:o, s:i, s:o}", "point", json_text(sw->labels[k]), "games",
                                                 sw->points[k].nresults, "seed", json_u64(sw->points[k].seed)));
        for (int i = 0; i < n; i++) {
            const compare_row *r = &rows[i];
            json_t *m = json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "point",
                                  json_text(sw->labels[point[i]]), "key", json_text(r->key), "metric",
                                  json_text(r->name), "unit", r->unit, "baseline", json_fixed(r->a, 6), "value",
                                  json_fixed(r->b, 6), "diff", json_fixed(r->diff, 6), "lo", json_fixed(r->lo, 6), "hi",
                                  json_fixed(r->hi, 6));
            compare_row_test_json(m, r);
            json_array_append_new(list, m);
        }
        json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:I, s:i, s:s, s:i, s:o}", "baseline",
                              report_header_json(b), "variant", json_text(sw->npoints ? sw->points[0].variant : ""),
                              "vary", vary, "point_files", files, "points", pts, "games", games, "games_played",
                              (json_int_t)played, "blocks", nb, "correction", "holm", "family_size", n,
                              "family_wise_level", json_sig(0.05, 6));
        json_object_set_new(j, "min_effect", min_effect_json(cs));
        json_object_set_new(j, "findings", json_integer(findings));
        json_object_set_new(j, "rows", list);
        if (json_print_new(f, j) < 0) {
            fprintf(stderr, "carc: out of memory\n");
            exit(1);
        }
        fputc('\n', f);
    } else if (format == REPORT_CSV) {
        report_header(b, f, REPORT_CSV, "baseline ");
        fprintf(f, "# points: %s with", sw->npoints ? sw->points[0].variant : "");
        for (int a = 0; a < sw->naxes; a++) {
            fprintf(f, " %s%s in", a ? "and" : "", sw->axes[a].key);
            for (int v = 0; v < sw->axes[a].nvalues; v++) fprintf(f, "%s%s", v ? "," : " ", sw->axes[a].values[v]);
        }
        for (int i = 0; sw->npoints && i < sw->points[0].nsources; i++)
            fprintf(f, "\n# points file: %s sha256:%s", sw->points[0].source_name[i], sw->points[0].source_hash[i]);
        fprintf(f, "\n# games: %d a point on the baseline's seeds; %ld played in all (the baseline once)\n", games,
                played);
        fprintf(f, "# blocks: %d; correction: Holm over all %d rows, 5%% family-wise; min effect: points %g, share %g, "
                   "turns %g, count %g\n",
                nb, n, cs->min_points, cs->min_share, cs->min_turns, cs->min_count);
        fprintf(f, "point,key,metric,unit,baseline,value,diff,lo,hi,p,p_holm,corrected_lo,corrected_hi,blocks,"
                   "blocks_agreeing,min_effect,finding\n");
        for (int i = 0; i < n; i++) {
            const compare_row *r = &rows[i];
            report_csv_field(f, sw->labels[point[i]]);
            fputc(',', f);
            report_csv_field(f, r->key);
            fputc(',', f);
            report_csv_field(f, r->name);
            fprintf(f, ",%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6g,%.6g,%.6f,%.6f,%d,%d,%g,%s\n", r->unit, r->a, r->b, r->diff,
                    r->lo, r->hi, r->p, r->p_holm, r->clo, r->chi, r->blocks, r->agree, r->min_effect,
                    r->finding ? "yes" : "no");
        }
    } else {
        fprintf(f, "carc %s sweep: %d point%s, %d games each on the baseline's seeds, in %d blocks; %ld games played\n"
                   "(the baseline once)\n",
                b->version[0] ? b->version : CARC_VERSION, sw->npoints, sw->npoints == 1 ? "" : "s", games, nb, played);
        report_header(b, f, REPORT_TABLE, "baseline ");
        fprintf(f, "points   %s with", sw->npoints ? sw->points[0].variant : "");
        for (int a = 0; a < sw->naxes; a++) {
            fprintf(f, " %s%s =", a ? "and " : "", sw->axes[a].key);
            for (int v = 0; v < sw->axes[a].nvalues; v++) fprintf(f, "%s%s", v ? ", " : " ", sw->axes[a].values[v]);
        }
        for (int i = 0; sw->npoints && i < sw->points[0].nsources; i++)
            fprintf(f, "\n%s %s sha256:%.12s", i ? "             " : "points files ", sw->points[0].source_name[i],
                    sw->points[0].source_hash[i]);
        int w = 5;
        for (int k = 0; k < sw->npoints; k++)
            if ((int)strlen(sw->labels[k]) > w) w = (int)strlen(sw->labels[k]);
        int mw = 7;
        for (int i = 0; i < n; i++)
            if ((int)strlen(rows[i].name) > mw) mw = (int)strlen(rows[i].name);
        fprintf(f, "\n\n%-*s %-*s %9s %9s %9s  %-20s %-20s %6s  %s\n", mw, "measure", w, "point", "baseline", "point",
                "B - A", "95% interval", "Holm-corrected", "blocks", "finding");
        for (int i = 0; i < n; i++) {
            const compare_row *r = &rows[i];
            char ci[64], cc[64], ag[16], name[96];
            snprintf(ci, sizeof ci, "[%.2f, %.2f]", r->lo, r->hi);
            snprintf(cc, sizeof cc, "[%.2f, %.2f]", r->clo, r->chi);
            snprintf(ag, sizeof ag, "%d/%d", r->agree, r->blocks);
            snprintf(name, sizeof name, "%s", i && strcmp(rows[i - 1].key, r->key) == 0 ? "" : r->name);
            fprintf(f, "%-*s %-*s %9.2f %9.2f %+9.2f  %-20s %-20s %6s  %s\n", mw, name, w, sw->labels[point[i]], r->a,
                    r->b, r->diff, ci, cc, ag, verdict(r));
        }
        fprintf(f,
                "\n%d finding%s. Each point is compared with the baseline game by game (the same seeds),\n"
                "as carc compare does: intervals are Student's t over %d blocks; Holm's correction is\n"
                "taken over all %d rows of the sweep (5%% family-wise), so a finding is a (point,\n"
                "measure) that passes it and whose B - A reaches --min-effect. docs/measures.md\n"
                "defines every measure.\n",
                findings, findings == 1 ? "" : "s", nb, n);
    }
    free(rows);
    free(point);
}

int sweep_games_jsonl(const sweep *sw, const struct study_flags *fl)
{
    study_flags g = *fl;
    g.out = fl->games_jsonl;
    FILE *f = study_out("sweep", &g);
    if (!f) return -1;
    shard_identity *id = malloc(sizeof *id);
    if (!id) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    shard_identity_of("sweep", &sw->base, NULL, id);
    shard_write_side(f, "sweep", &sw->base, "baseline", id->id);
    for (int k = 0; k < sw->npoints; k++) shard_write_side(f, "sweep", &sw->points[k], sw->labels[k], id->id);
    free(id);
    return study_out_close("sweep", &g, f);
}
