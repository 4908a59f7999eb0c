/* report.h - the reports of sim, tournament and compare. */
#ifndef CARC_REPORT_H
#define CARC_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "study.h"

enum { REPORT_TABLE, REPORT_JSON, REPORT_CSV };

/* Per seat: win rate and mean score with 95% intervals; points by reason. */
void report_sim(const study *s, FILE *f, bool json);
/* Per agent over rotated seats, and per seat. */
void report_tournament(const study *s, FILE *f, bool json);

/* One metric of a paired comparison: means under A and B, the mean of the
 * paired differences B - A with its 95% interval. */
typedef struct compare_row {
    char name[96];
    double a, b, diff, lo, hi;
    bool significant; /* the interval excludes 0 */
} compare_row;

int compare_metrics(const study *a, const study *b, compare_row *rows, int max);
void report_compare(const study *a, const study *b, FILE *f, int format);
#endif
