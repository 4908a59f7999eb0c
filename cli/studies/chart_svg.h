/* chart_svg.h - the charts of a study's report as SVG, drawn by carc itself
 * (no plotting library): a forest plot of effects with their intervals,
 * grouped bars (points by reason, a histogram of scores) and a trend over a
 * sweep's points with its bands.
 *
 * Each chart is one <svg class="chart" data-chart="KIND"> that reads on its
 * own (for papers) and inline in the HTML report. Its value axis is a set of
 * <g class="tick"> with a line at the tick's place and a <text> giving the
 * tick's value, so a reader (or a test) maps any coordinate back to a value;
 * the marks carry the class of what they show (interval, corrected,
 * estimate, bar, band, trend) and their group a data-name. Text from the
 * report (measure, reason and option names) is escaped. */
#ifndef CARC_CHART_SVG_H
#define CARC_CHART_SVG_H
#include <stdbool.h>
#include <stdio.h>

/* One row of a forest plot: an estimate, its 95% interval and (when
 * has_corrected) its interval corrected for testing many measures. */
typedef struct chart_effect {
    const char *name;
    double value, lo, hi, corrected_lo, corrected_hi;
    bool has_corrected, finding;
} chart_effect;

/* A forest plot: one row an effect, the value axis below with 0 marked.
 * axis_label names the unit ("B - A, points"). */
void chart_forest(FILE *f, const char *title, const char *axis_label, const chart_effect *rows, int n);

/* Grouped bars: ncats categories along the bottom, in each one bar a
 * series (values[s * ncats + c]); series names in the legend. */
void chart_bars(FILE *f, const char *kind, const char *title, const char *axis_label, const char *const *cats, int ncats,
                const char *const *series, int nseries, const double *values);

/* A trend over n points (their labels along the bottom): the estimate as a
 * line with dots, its 95% interval as a band, the corrected interval as a
 * lighter band around it (when has_corrected), 0 marked. */
void chart_trend(FILE *f, const char *title, const char *axis_label, const char *const *points, const chart_effect *rows,
                 int n);

#endif
