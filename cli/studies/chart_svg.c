/* chart_svg.c - a report's charts as SVG (chart_svg.h). */
#include "chart_svg.h"

#include <math.h>
#include <string.h>

#include "render.h"

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define PALETTE_N ((int)(sizeof palette / sizeof palette[0]))

/* A value axis: [lo, hi] in steps of `step` (1, 2 or 5 times a power of
 * ten, about five of them), drawn from pixel p0 (at lo) to p1 (at hi). */
typedef struct axis {
    double lo, hi, step, p0, p1;
} axis;

static void axis_fit(axis *a, double lo, double hi, double p0, double p1)
{
    if (!isfinite(lo) || !isfinite(hi)) lo = hi = 0;
    if (hi - lo < 1e-12 * (fabs(lo) + fabs(hi)) || hi <= lo) {
        double pad = lo != 0 ? fabs(lo) / 2 : 1;
        lo -= pad;
        hi += pad;
    }
    double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;
    a->step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
    a->lo = floor(lo / a->step) * a->step;
    a->hi = ceil(hi / a->step) * a->step;
    a->p0 = p0;
    a->p1 = p1;
}

static double axis_px(const axis *a, double v)
{
    return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* The ticks of a horizontal axis (vertical grid lines from y0 to y1, labels
 * below) or of a vertical one (horizontal lines from x0 to x1, labels left). */
static void axis_ticks(FILE *f, const axis *a, bool horizontal, double from, double to)
{
    int n = (int)floor((a->hi - a->lo) / a->step + 0.5);
    for (int k = 0; k <= n; k++) {
        double v = a->lo + k * a->step, p;
        if (fabs(v) < a->step * 1e-9) v = 0;
        p = axis_px(a, v);
        if (horizontal)
            fprintf(f, "<g class=\"tick\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                       "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%.10g</text></g>\n",
                    p, from, p, to, p, to + 16, v);
        else
            fprintf(f, "<g class=\"tick\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                       "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%.10g</text></g>\n",
                    from, p, to, p, from - 6, p + 4, v);
    }
    if (a->lo < 0 && a->hi > 0) {
        double z = axis_px(a, 0);
        if (horizontal)
            fprintf(f, "<line class=\"zero\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\"/>\n", z, from,
                    z, to);
        else
            fprintf(f, "<line class=\"zero\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\"/>\n", from, z,
                    to, z);
    }
}

static void chart_open(FILE *f, const char *kind, const char *title, int w, int h)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"%s\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n<title>",
            kind, w, h, w, h);
    xml_text(f, title);
    fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
               "<text class=\"chart-title\" x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">",
            w, h);
    xml_text(f, title);
    fprintf(f, "</text>\n");
}

static void axis_label(FILE *f, double x, double y, const char *label, bool vertical)
{
    if (vertical) fprintf(f, "<text class=\"axis-label\" transform=\"translate(%.2f %.2f) rotate(-90)\" "
                             "text-anchor=\"middle\">", x, y);
    else fprintf(f, "<text class=\"axis-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", x, y);
    xml_text(f, label);
    fprintf(f, "</text>\n");
}

static void extend(double *lo, double *hi, double v)
{
    if (!isfinite(v)) return;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

void chart_forest(FILE *f, const char *title, const char *label, const chart_effect *rows, int n)
{
    const int w = 760, left = 320, right = 30, top = 52, row_h = 24;
    int h = top + n * row_h + 56;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        extend(&lo, &hi, rows[i].value);
        extend(&lo, &hi, rows[i].lo);
        extend(&lo, &hi, rows[i].hi);
        if (rows[i].has_corrected) {
            extend(&lo, &hi, rows[i].corrected_lo);
            extend(&lo, &hi, rows[i].corrected_hi);
        }
    }
    axis a;
    axis_fit(&a, lo, hi, left, w - right);
    double bottom = top + n * row_h;
    chart_open(f, "forest", title, w, h);
    fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">dot: the estimate; dark line: its 95%% interval; grey bar: the "
               "interval corrected for testing every measure; red: a finding</text>\n");
    axis_ticks(f, &a, true, top - 4, bottom);
    for (int i = 0; i < n; i++) {
        const chart_effect *r = &rows[i];
        double y = top + i * row_h + row_h / 2.0;
        const char *colour = r->finding ? "#c0392b" : "#2c3e50";
        fprintf(f, "<g class=\"effect\" data-name=\"");
        xml_text(f, r->name);
        fprintf(f, "\"><text class=\"name\" x=\"%d\" y=\"%.2f\" text-anchor=\"end\">", left - 8, y + 4);
        xml_text(f, r->name);
        fprintf(f, "</text>\n");
        if (r->has_corrected)
            fprintf(f, "<line class=\"corrected\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#c8c8c8\" "
                       "stroke-width=\"8\"/>\n",
                    axis_px(&a, r->corrected_lo), y, axis_px(&a, r->corrected_hi), y);
        fprintf(f, "<line class=\"interval\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                   "stroke-width=\"2\"/>\n",
                axis_px(&a, r->lo), y, axis_px(&a, r->hi), y, colour);
        fprintf(f, "<circle class=\"estimate\" cx=\"%.2f\" cy=\"%.2f\" r=\"4.5\" fill=\"%s\"/></g>\n",
                axis_px(&a, r->value), y, colour);
    }
    axis_label(f, (left + w - right) / 2.0, bottom + 40, label, false);
    fprintf(f, "</svg>\n");
}

void chart_bars(FILE *f, const char *kind, const char *title, const char *label, const char *const *cats, int ncats,
                const char *const *series, int nseries, const double *values)
{
    const int left = 70, right = 20, top = 48 + 16 * (nseries > 1 ? (nseries + 3) / 4 : 0), plot_h = 240;
    int group_w = nseries * 14 + 10;
    if (group_w < 28) group_w = 28;
    int w = left + right + ncats * group_w;
    if (w < 420) w = 420;
    double gw = (double)(w - left - right) / (ncats > 0 ? ncats : 1);
    double lo = 0, hi = 0;
    for (int i = 0; i < ncats * nseries; i++) extend(&lo, &hi, values[i]);
    axis a;
    double bottom = top + plot_h;
    axis_fit(&a, lo, hi, bottom, top);
    /* Long category names are written slanted below the bars. */
    size_t longest = 0;
    for (int c = 0; c < ncats; c++)
        if (strlen(cats[c]) > longest) longest = strlen(cats[c]);
    bool slant = longest * 7.0 > gw;
    int h = (int)bottom + (slant ? (int)(longest * 5.5) + 30 : 30) + 24;
    chart_open(f, kind, title, w, h);
    for (int s = 0; s < nseries && nseries > 1; s++) {
        double lx = 10 + (s % 4) * 180, ly = 36 + (s / 4) * 16;
        fprintf(f, "<g class=\"legend\"><rect x=\"%.2f\" y=\"%.2f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                   "<text x=\"%.2f\" y=\"%.2f\">",
                lx, ly - 9, palette[s % PALETTE_N], lx + 14, ly);
        xml_text(f, series[s]);
        fprintf(f, "</text></g>\n");
    }
    axis_ticks(f, &a, false, left, w - right);
    double zero = axis_px(&a, a.lo > 0 ? a.lo : a.hi < 0 ? a.hi : 0);
    double bw = (gw - 8) / (nseries > 0 ? nseries : 1);
    for (int c = 0; c < ncats; c++) {
        double x0 = left + c * gw + 4, cx = left + (c + 0.5) * gw;
        fprintf(f, "<g class=\"category\" data-name=\"");
        xml_text(f, cats[c]);
        fprintf(f, "\">\n");
        for (int s = 0; s < nseries; s++) {
            double v = values[s * ncats + c], y = axis_px(&a, v);
            fprintf(f, "<rect class=\"bar\" data-series=\"");
            xml_text(f, series[s]);
            fprintf(f, "\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>", x0 + s * bw,
                    y < zero ? y : zero, bw > 1 ? bw - 1 : bw, fabs(zero - y), palette[s % PALETTE_N]);
            xml_text(f, series[s]);
            fprintf(f, ", ");
            xml_text(f, cats[c]);
            fprintf(f, ": %.6g</title></rect>\n", v);
        }
        if (slant)
            fprintf(f, "<text class=\"name\" transform=\"translate(%.2f %.2f) rotate(-40)\" text-anchor=\"end\">", cx,
                    bottom + 14);
        else fprintf(f, "<text class=\"name\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", cx, bottom + 16);
        xml_text(f, cats[c]);
        fprintf(f, "</text></g>\n");
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#555\"/>\n", left, zero, w - right, zero);
    axis_label(f, 18, top + plot_h / 2.0, label, true);
    fprintf(f, "</svg>\n");
}

/* The part of every label before its first '=' when all share it (a
 * sweep's one option, "road-closer.points-per-tile="): its length, else 0. */
static size_t common_key(const char *const *labels, int n)
{
    const char *eq = n ? strchr(labels[0], '=') : NULL;
    if (!eq) return 0;
    size_t k = (size_t)(eq - labels[0]) + 1;
    for (int i = 1; i < n; i++)
        if (strncmp(labels[i], labels[0], k) != 0 || strchr(labels[i] + k, '=')) return 0;
    return k;
}

void chart_trend(FILE *f, const char *title, const char *label, const char *const *points, const chart_effect *rows,
                 int n)
{
    const int left = 70, right = 30, top = 52, plot_h = 220;
    size_t key = common_key(points, n), longest = 0;
    for (int i = 0; i < n; i++)
        if (strlen(points[i]) - key > longest) longest = strlen(points[i]) - key;
    int w = left + right + (n > 1 ? n : 2) * 70;
    if (w < 560) w = 560;
    double lo = 0, hi = 0;
    bool corrected = false;
    for (int i = 0; i < n; i++) {
        extend(&lo, &hi, rows[i].value);
        extend(&lo, &hi, rows[i].lo);
        extend(&lo, &hi, rows[i].hi);
        if (rows[i].has_corrected) {
            corrected = true;
            extend(&lo, &hi, rows[i].corrected_lo);
            extend(&lo, &hi, rows[i].corrected_hi);
        }
    }
    axis a;
    double bottom = top + plot_h, step = (double)(w - left - right) / (n > 0 ? n : 1);
    bool slant = longest * 7.0 > step;
    int below = slant ? (int)(longest * 5.5) + 20 : 24;
    axis_fit(&a, lo, hi, bottom, top);
    chart_open(f, "trend", title, w, (int)bottom + below + (key ? 22 : 0) + 20);
    fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">line: the estimate at each point; dark band: its 95%% interval%s"
               "</text>\n",
            corrected ? "; light band: corrected" : "");
    axis_ticks(f, &a, false, left, w - right);
    /* Bands: the upper edge left to right, then the lower edge back. */
    for (int band = corrected ? 0 : 1; band < 2; band++) {
        fprintf(f, "<polygon class=\"band%s\" fill=\"%s\" points=\"", band ? "" : " corrected",
                band ? "#9bb7d4" : "#dbe6f1");
        for (int i = 0; i < n; i++)
            fprintf(f, "%.2f,%.2f ", left + (i + 0.5) * step,
                    axis_px(&a, band ? rows[i].hi : rows[i].has_corrected ? rows[i].corrected_hi : rows[i].hi));
        for (int i = n - 1; i >= 0; i--)
            fprintf(f, "%.2f,%.2f ", left + (i + 0.5) * step,
                    axis_px(&a, band ? rows[i].lo : rows[i].has_corrected ? rows[i].corrected_lo : rows[i].lo));
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "<polyline class=\"trend\" fill=\"none\" stroke=\"#1f3b5a\" stroke-width=\"2\" points=\"");
    for (int i = 0; i < n; i++) fprintf(f, "%.2f,%.2f ", left + (i + 0.5) * step, axis_px(&a, rows[i].value));
    fprintf(f, "\"/>\n");
    for (int i = 0; i < n; i++) {
        double x = left + (i + 0.5) * step;
        fprintf(f, "<g class=\"point\" data-name=\"");
        xml_text(f, points[i]);
        fprintf(f, "\"><circle class=\"estimate\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>", x,
                axis_px(&a, rows[i].value), rows[i].finding ? "#c0392b" : "#1f3b5a");
        if (slant)
            fprintf(f, "<text class=\"name\" transform=\"translate(%.2f %.2f) rotate(-40)\" text-anchor=\"end\">", x,
                    bottom + 14);
        else fprintf(f, "<text class=\"name\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", x, bottom + 16);
        xml_text(f, points[i] + key);
        fprintf(f, "</text></g>\n");
    }
    if (key) { /* the option every point sets, once below its values */
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)key - 1, points[0]);
        axis_label(f, (left + w - right) / 2.0, bottom + below + 16, name, false);
    }
    axis_label(f, 18, top + plot_h / 2.0, label, true);
    fprintf(f, "</svg>\n");
}
