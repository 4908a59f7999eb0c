/* report.h - the reports of sim, tournament and compare. */
#ifndef CARC_REPORT_H
#define CARC_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "study.h"

enum { REPORT_TABLE, REPORT_JSON, REPORT_CSV };

/* Every report begins with what was run: the variant (its name, title and
 * modules), every option not at its default, the --option values, the
 * players with their settings, the number of games, the seed and the carc
 * version; in JSON as members, in CSV as "# " lines before the table. */

/* Per seat: win rate and mean score with 95% intervals; points by reason.
 * format: REPORT_TABLE, REPORT_JSON or REPORT_CSV. */
void report_sim(const study *s, FILE *f, int format);
/* Per agent over rotated seats, and per seat. */
void report_tournament(const study *s, FILE *f, int format);

/* One metric of a paired comparison: means under A and B, the mean of the
 * paired differences B - A with its 95% interval. */
typedef struct compare_row {
    char name[96];
    double a, b, diff, lo, hi;
    bool significant; /* the interval excludes 0 */
} compare_row;

int compare_metrics(const study *a, const study *b, compare_row *rows, int max);
/* The games A and B both played, by game number (results sorted by it):
 * ia[k], ib[k] are the positions of the k-th pair. Returns the pairs. */
int pair_games(const study *a, const study *b, int *ia, int *ib);

/* In how many paired games the winner (the set of seats with the highest
 * score) differs between A and B, with the 95% Wilson interval of the share. */
typedef struct winner_change {
    int changed, games;
    double lo, hi;
    bool paired; /* A and B played the same seeds */
} winner_change;
winner_change compare_winner_change(const study *a, const study *b);
void report_compare(const study *a, const study *b, FILE *f, int format);
#endif
