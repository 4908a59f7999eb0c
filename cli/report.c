/* report.c - what sim, tournament and compare print, from per-game results:
 * readable tables, JSON, CSV. Every rate and mean comes with its 95%
 * interval. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Share of the win of seat p in one game: 1/k for k tied winners. */
static double win_share(const study_game *g, int n, int p)
{
    int best = g->score[0], k = 0;
    for (int q = 1; q < n; q++)
        if (g->score[q] > best) best = g->score[q];
    for (int q = 0; q < n; q++) k += g->score[q] == best;
    return g->score[p] == best ? 1.0 / k : 0.0;
}

static double *column(int n)
{
    double *x = calloc((size_t)(n > 0 ? n : 1), sizeof *x);
    if (!x) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    return x;
}

void report_sim(const study *s, FILE *f, bool json)
{
    int n = s->nresults, np = s->nplayers;
    double *x = column(n), turns = 0;
    for (int i = 0; i < n; i++) turns += s->results[i].turns;
    if (json) {
        fprintf(f, "{\"variant\": \"%s\", \"games\": %d, \"seed\": %llu, \"seconds\": %.3f, \"mean_turns\": %.3f, \"seats\": [",
                s->variant_name, n, (unsigned long long)s->seed, s->seconds, n ? turns / n : 0);
    } else {
        fprintf(f, "variant %s, %d games, seed %llu, %.2f s (%.0f games/s)\n\n", s->variant_name, n,
                (unsigned long long)s->seed, s->seconds, s->seconds > 0 ? n / s->seconds : 0.0);
        fprintf(f, "seat  agent          win rate  (95%% interval)     mean score  (95%% interval)      sd\n");
    }
    for (int p = 0; p < np; p++) {
        double wins = 0;
        for (int i = 0; i < n; i++) wins += win_share(&s->results[i], np, p);
        for (int i = 0; i < n; i++) x[i] = s->results[i].score[p];
        interval w = stat_wilson95(wins, n), m = stat_mean_ci95(x, n);
        const char *agent = s->agents[n ? s->results[0].agent[p] : p];
        if (json)
            fprintf(f,
                    "%s{\"seat\": %d, \"agent\": \"%s\", \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f, "
                    "\"mean_score\": %.4f, \"mean_score_lo\": %.4f, \"mean_score_hi\": %.4f, \"sd_score\": %.4f}",
                    p ? ", " : "", p + 1, agent, n ? wins / n : 0, w.lo, w.hi, stat_mean(x, n), m.lo, m.hi, stat_sd(x, n));
        else
            fprintf(f, "%4d  %-12s %7.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]  %6.2f\n", p + 1, agent,
                    n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, n), m.lo, m.hi, stat_sd(x, n));
    }
    if (json) fprintf(f, "], \"points_by_reason\": {");
    else fprintf(f, "\npoints per game by reason (all players):\n");
    bool first = true;
    for (int k = 0; k < s->nreasons; k++) {
        double total = 0;
        for (int i = 0; i < n; i++) total += s->results[i].points[k];
        if (!total) continue;
        if (json) fprintf(f, "%s\"%s\": %.4f", first ? "" : ", ", s->reasons[k], total / n);
        else fprintf(f, "  %-12s %8.2f\n", s->reasons[k], total / n);
        first = false;
    }
    if (json) fprintf(f, "}}\n");
    else fprintf(f, "\nmean game length: %.2f turns\n", n ? turns / n : 0);
    free(x);
}

void report_tournament(const study *s, FILE *f, bool json)
{
    int n = s->nresults, np = s->nplayers;
    double *x = column(n * np);
    if (json) fprintf(f, "{\"variant\": \"%s\", \"games\": %d, \"seed\": %llu, \"agents\": [", s->variant_name, n,
                      (unsigned long long)s->seed);
    else {
        fprintf(f, "tournament: variant %s, %d games, %d seats rotated, seed %llu\n\n", s->variant_name, n, np,
                (unsigned long long)s->seed);
        fprintf(f, "agent            games   win rate  (95%% interval)     mean score  (95%% interval)\n");
    }
    for (int a = 0; a < s->nagents; a++) {
        double wins = 0;
        int played = 0, nx = 0;
        for (int i = 0; i < n; i++)
            for (int p = 0; p < np; p++)
                if (s->results[i].agent[p] == a) {
                    wins += win_share(&s->results[i], np, p);
                    played++;
                    x[nx++] = s->results[i].score[p];
                }
        interval w = stat_wilson95(wins, played), m = stat_mean_ci95(x, nx);
        if (json)
            fprintf(f,
                    "%s{\"agent\": \"%s\", \"games\": %d, \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f, "
                    "\"mean_score\": %.4f, \"mean_score_lo\": %.4f, \"mean_score_hi\": %.4f}",
                    a ? ", " : "", s->agents[a], played, played ? wins / played : 0, w.lo, w.hi, stat_mean(x, nx), m.lo,
                    m.hi);
        else
            fprintf(f, "%-15s %6d %8.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]\n", s->agents[a], played,
                    played ? 100.0 * wins / played : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, nx), m.lo, m.hi);
    }
    if (json) fprintf(f, "], \"seats\": [");
    else fprintf(f, "\nwin rate by seat (whoever sat there):\n");
    for (int p = 0; p < np; p++) {
        double wins = 0;
        for (int i = 0; i < n; i++) wins += win_share(&s->results[i], np, p);
        interval w = stat_wilson95(wins, n);
        if (json) fprintf(f, "%s{\"seat\": %d, \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f}",
                          p ? ", " : "", p + 1, n ? wins / n : 0, w.lo, w.hi);
        else fprintf(f, "  seat %d  %6.1f%%  [%5.1f%%, %5.1f%%]\n", p + 1, n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi);
    }
    if (json) fprintf(f, "]}\n");
    free(x);
}

/* ---- compare ------------------------------------------------------------------------- */

/* The value of metric m for one game. Metrics past METRIC_FIXED are points
 * by reason (reason name in `reason`). */
enum { M_MEAN, M_SPREAD, M_FIRST_ADV, M_FIRST_WIN, M_LENGTH, M_MARGIN, METRIC_FIXED };
static const char *const metric_names[METRIC_FIXED] = {
    "mean score", "score spread (highest - lowest)", "first player's lead over the others' mean",
    "first player's win share", "game length (turns)", "winner's margin over the runner-up"};

static double metric(const study *s, const study_game *g, int m, const char *reason)
{
    int np = s->nplayers, best = g->score[0], second = -1000000, lo = g->score[0];
    double sum = 0, others = 0;
    for (int p = 0; p < np; p++) {
        sum += g->score[p];
        if (p) others += g->score[p];
        if (g->score[p] < lo) lo = g->score[p];
    }
    for (int p = 1; p < np; p++)
        if (g->score[p] > best) best = g->score[p];
    bool seen = false;
    for (int p = 0; p < np; p++) {
        if (g->score[p] == best && !seen) {
            seen = true;
            continue;
        }
        if (g->score[p] > second) second = g->score[p];
    }
    switch (m) {
    case M_MEAN: return sum / np;
    case M_SPREAD: return best - lo;
    case M_FIRST_ADV: return np > 1 ? g->score[0] - others / (np - 1) : 0;
    case M_FIRST_WIN: return win_share(g, np, 0);
    case M_LENGTH: return g->turns;
    case M_MARGIN: return np > 1 ? best - second : 0;
    default:
        for (int k = 0; k < s->nreasons; k++)
            if (strcmp(s->reasons[k], reason) == 0) return g->points[k];
        return 0;
    }
}

int compare_metrics(const study *a, const study *b, compare_row *rows, int max)
{
    int n = a->nresults < b->nresults ? a->nresults : b->nresults, nrows = 0;
    char reasons[2 * STUDY_MAX_REASONS][32];
    int nr = 0;
    const study *both[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < both[s]->nreasons; k++) {
            int j = 0;
            while (j < nr && strcmp(reasons[j], both[s]->reasons[k]) != 0) j++;
            if (j == nr && nr < 2 * STUDY_MAX_REASONS) snprintf(reasons[nr++], 32, "%s", both[s]->reasons[k]);
        }
    double *xa = column(n), *xb = column(n), *d = column(n);
    for (int m = 0; m < METRIC_FIXED + nr && nrows < max; m++) {
        const char *reason = m >= METRIC_FIXED ? reasons[m - METRIC_FIXED] : NULL;
        for (int i = 0; i < n; i++) {
            xa[i] = metric(a, &a->results[i], m, reason);
            xb[i] = metric(b, &b->results[i], m, reason);
            d[i] = xb[i] - xa[i]; /* paired: game i of A and game i of B share a seed */
        }
        compare_row *r = &rows[nrows];
        if (m >= METRIC_FIXED) {
            bool any = false;
            for (int i = 0; i < n && !any; i++) any = xa[i] != 0 || xb[i] != 0;
            if (!any) continue;
            snprintf(r->name, sizeof r->name, "points/game: %s", reason);
        } else {
            snprintf(r->name, sizeof r->name, "%s", metric_names[m]);
        }
        r->a = stat_mean(xa, n);
        r->b = stat_mean(xb, n);
        r->diff = stat_mean(d, n);
        interval ci = stat_mean_ci95(d, n);
        r->lo = ci.lo;
        r->hi = ci.hi;
        r->significant = n > 1 && (ci.lo > 0 || ci.hi < 0);
        nrows++;
    }
    free(xa);
    free(xb);
    free(d);
    return nrows;
}

void report_compare(const study *a, const study *b, FILE *f, int format)
{
    compare_row rows[METRIC_FIXED + 2 * STUDY_MAX_REASONS];
    int nrows = compare_metrics(a, b, rows, (int)(sizeof rows / sizeof rows[0]));
    int n = a->nresults < b->nresults ? a->nresults : b->nresults;
    if (format == REPORT_JSON) {
        fprintf(f, "{\"a\": {\"variant\": \"%s\", \"options\": [", a->variant);
        for (int i = 0; i < a->noverrides; i++) fprintf(f, "%s\"%s\"", i ? ", " : "", a->overrides[i]);
        fprintf(f, "]}, \"b\": {\"variant\": \"%s\", \"options\": [", b->variant);
        for (int i = 0; i < b->noverrides; i++) fprintf(f, "%s\"%s\"", i ? ", " : "", b->overrides[i]);
        fprintf(f, "]}, \"games\": %d, \"metrics\": [", n);
        for (int i = 0; i < nrows; i++)
            fprintf(f, "%s{\"metric\": \"%s\", \"a\": %.6f, \"b\": %.6f, \"diff\": %.6f, \"lo\": %.6f, \"hi\": %.6f, \"significant\": %s}",
                    i ? ", " : "", rows[i].name, rows[i].a, rows[i].b, rows[i].diff, rows[i].lo, rows[i].hi,
                    rows[i].significant ? "true" : "false");
        fprintf(f, "]}\n");
        return;
    }
    if (format == REPORT_CSV) {
        fprintf(f, "metric,a,b,diff,lo,hi,significant\n");
        for (int i = 0; i < nrows; i++)
            fprintf(f, "\"%s\",%.6f,%.6f,%.6f,%.6f,%.6f,%s\n", rows[i].name, rows[i].a, rows[i].b, rows[i].diff,
                    rows[i].lo, rows[i].hi, rows[i].significant ? "yes" : "no");
        return;
    }
    fprintf(f, "A: %s", a->variant);
    for (int i = 0; i < a->noverrides; i++) fprintf(f, " %s", a->overrides[i]);
    fprintf(f, "\nB: %s", b->variant);
    for (int i = 0; i < b->noverrides; i++) fprintf(f, " %s", b->overrides[i]);
    fprintf(f, "\n%d paired games (game i of A and of B share a seed)\n\n", n);
    fprintf(f, "%-42s %9s %9s %9s  %-22s %s\n", "metric", "A", "B", "B - A", "95% interval", "significant");
    for (int i = 0; i < nrows; i++) {
        char ci[64];
        snprintf(ci, sizeof ci, "[%.2f, %.2f]", rows[i].lo, rows[i].hi);
        fprintf(f, "%-42s %9.2f %9.2f %+9.2f  %-22s %s\n", rows[i].name, rows[i].a, rows[i].b, rows[i].diff, ci,
                rows[i].significant ? "yes" : "no");
    }
}
