/* report_html.h - the pictures of a study: from a report's JSON (what sim,
 * tournament, compare, study run, stats merge --json, or a sweep print),
 * its charts (chart_svg.h) as one self-contained HTML page (inline style
 * and SVG, no script, nothing from the network) and as SVG files on their
 * own.
 *
 * The charts are found in the JSON by what it holds, not by which command
 * wrote it, so that new measures show up without changes here:
 *   - a list of measures, each an object with a name ("metric"), an effect
 *     ("diff") and its interval ("lo", "hi"; "corrected_lo", "corrected_hi"
 *     and "finding" when present), under "metrics": a forest plot for each
 *     unit ("unit");
 *   - the same under "rows" with a "point" each (a sweep): a trend over the
 *     points for each measure ("key", else "metric"), with its bands;
 *   - points by reason: "points_by_reason" (one side), or the measures whose
 *     key is "points:REASON" (their "a" and "b", or "baseline" and each
 *     point's "value");
 *   - "score_distribution" ({"bin_width", "bins": [{"from", "count"}]}, or
 *     one a side under "a" and "b"): a histogram;
 *   - "seats" and "agents" with "win_rate" / "mean_score" and their
 *     intervals (sim, tournament): forest plots. */
#ifndef CARC_REPORT_HTML_H
#define CARC_REPORT_HTML_H
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Draws the charts of report. html (NULL: none) receives the page; svg_dir
 * (NULL: none) receives one NAME.svg a chart (created if missing; files of
 * the same names replaced whole). source names the report on the page.
 * Returns the number of charts, or -1 with err (a file that cannot be
 * written, or a JSON with nothing to draw). */
int report_pictures(const json_t *report, const char *source, FILE *html, const char *svg_dir, char *err, size_t errn);
#endif
