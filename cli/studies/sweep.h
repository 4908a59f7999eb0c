/* sweep.h - one rule set played at many settings of its options on the
 * same seeds: the baseline once, then every point of the grid the axes
 * span (each axis an option and its values: a range of whole numbers
 * "0..4", "0..10:2", or a list "none,per-city-once"), each point compared
 * with the baseline game by game, as compare does, and Holm's correction
 * taken over every (point, measure) row reported. */
#ifndef CARC_SWEEP_H
#define CARC_SWEEP_H
#include <stdio.h>

#include "report.h"
#include "study.h"

#define SWEEP_MAX_AXES 4
#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_POINTS 64

typedef struct sweep_axis {
    char key[128];
    char values[SWEEP_MAX_VALUES][64];
    int nvalues;
} sweep_axis;

/* Parses "KEY=0..4", "KEY=0..10:2" or "KEY=a,b,c"; -1 with err. */
int sweep_axis_parse(const char *spec, sweep_axis *ax, char *err, size_t errn);

typedef struct sweep {
    study base;                  /* the baseline, played once */
    study *points;               /* one study a point: the varied rules, the baseline's seeds */
    int npoints;
    char (*labels)[256];         /* "key=value,key=value" a point */
    sweep_axis axes[SWEEP_MAX_AXES];
    int naxes;
    char measures[32][48];       /* the measures reported (keys); none: all */
    int nmeasures;
    char error[1400];
} sweep;

/* The points of the grid as studies of `variant` (the baseline's overrides,
 * then each axis's KEY=VALUE), from the baseline as set up (players, games,
 * seed, jobs, records_dir: DIR/baseline and DIR/point-K). -1 with
 * sw->error (too many points, a directory that cannot be made). */
int sweep_plan(sweep *sw, const char *variant);
/* Checks that every point's rules load, then plays the baseline and the
 * points. -1 with sw->error naming the point. */
int sweep_run(sweep *sw);
void sweep_free(sweep *sw);
/* Games played in all (the baseline once, and each point). */
long sweep_games_played(const sweep *sw);

/* The rows: each (measure, point) compared with the baseline, Holm over
 * all of them. rows: at least SWEEP_MAX_POINTS * COMPARE_MAX_ROWS; point[k]
 * the point of row k. Returns the number of rows. */
int sweep_rows(const sweep *sw, const compare_settings *cs, compare_row *rows, int *point);
/* --games-jsonl: the baseline's games (side "baseline"), then each
 * point's (side its label), written whole or not at all. 0, or -1 with a
 * message. */
struct study_flags;
int sweep_games_jsonl(const sweep *sw, const struct study_flags *fl);
/* The report: a table, JSON or CSV (REPORT_*). */
void report_sweep(const sweep *sw, const compare_settings *cs, FILE *f, int format);
#endif
