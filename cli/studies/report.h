/* report.h - the reports of sim, tournament and compare. */
#ifndef CARC_REPORT_H
#define CARC_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "study.h"

enum { REPORT_TABLE, REPORT_JSON, REPORT_CSV };

/* Every report begins with what was run: the variant (its name, title and
 * modules), every option not at its default, the --option values, the
 * players with their settings, the number of games, the seed and the carc
 * version; in JSON as members, in CSV as "# " lines before the table. */

/* What decides a side's games and how the report names them, as a new JSON
 * object: carc_version, variant (its name), variant_given (as given),
 * title, modules (a list), options_not_default ({key: value}) and
 * option_overrides (the --option values). Every report's header begins with
 * it, and so does every game line of a shard (shard.h). NULL when out of
 * memory. */
json_t *study_about_json(const study *s);

/* Per seat: win rate and mean score with 95% intervals; points by reason.
 * format: REPORT_TABLE, REPORT_JSON or REPORT_CSV. */
/* Writes s as one CSV field, quoted (and its quotes doubled) when it holds
 * a comma, a quote or a line break. */
void report_csv_field(FILE *f, const char *s);
void report_sim(const study *s, FILE *f, int format);
/* Per agent over rotated seats, and per seat. */
void report_tournament(const study *s, FILE *f, int format);

/* How compare judges its measures. The paired games are cut into `blocks`
 * blocks of consecutive game numbers (independent seeds); each measure's
 * interval is Student's t over the blocks' mean differences (blocks - 1
 * degrees of freedom), so it holds however the games within a block hang
 * together. Holm's step-down procedure corrects for testing every measure at
 * once; a measure is a finding when Holm rejects "no effect" at 5% family-wise
 * and the effect is at least the practical threshold of its unit. */
#define COMPARE_DEFAULT_BLOCKS 10
/* The most rows a comparison has (fixed measures, measures.h's, points by reason). */
#define COMPARE_MAX_ROWS 160
typedef struct compare_settings {
    int blocks;                            /* default COMPARE_DEFAULT_BLOCKS */
    double min_points, min_share, min_turns; /* practical thresholds: 1, 0.02, 1 */
    double min_count;      /* for counts (lead changes, options per decision): 0.5 */
    /* A study run until one measure's interval was narrow enough (Stein's
     * two-stage procedure): that measure's key, and the standard deviation
     * of its block means in the first stage with its degrees of freedom,
     * which its interval uses instead of all the blocks'. */
    char staged_key[48];
    double staged_sd;
    int staged_df;
    int staged_first;      /* games a side in the first stage */
    double staged_width;   /* the width asked for */
    bool staged_capped;    /* --max-games stopped it short of that width */
} compare_settings;
void compare_settings_default(compare_settings *cs);
/* Parses "--min-effect UNIT=X" (points, share, turns or count); false if bad. */
bool compare_min_effect(compare_settings *cs, const char *v);

/* One measure of a comparison: means under A and B, the mean of the paired
 * differences B - A, its 95% interval over the blocks, its p-value and
 * Holm-adjusted p-value, the Holm-corrected interval (level 1 - 0.05 / (m -
 * r + 1) for the measure ranked r by p-value among m), how many blocks agree
 * in sign, and whether it is a finding. */
typedef struct compare_row {
    char name[96];
    char key[48];          /* short name for --until-width: mean-score, first-win, points:farm, ... */
    const char *unit;      /* "points", "share", "turns" or "count" */
    double a, b, diff, lo, hi;
    bool significant;      /* the 95% interval over the blocks excludes 0 (uncorrected) */
    int blocks, agree;
    double block_sd;       /* standard deviation of the blocks' mean differences */
    double se;             /* the standard error of diff: block_sd / sqrt(blocks) */
    int df;                /* degrees of freedom of the interval */
    double p, p_holm, clo, chi, min_effect;
    bool finding;
} compare_row;

/* The keys of the fixed measures, for --until-width (points by reason:
 * "points:REASON"). */
extern const char *const compare_measure_keys[];
extern const int compare_measure_key_count;
/* cs: NULL for the defaults. */
int compare_metrics(const study *a, const study *b, const compare_settings *cs, compare_row *rows, int max);
/* Holm's correction over m rows (of one comparison, or of all the points
 * of a sweep): sets p_holm, the corrected interval and finding from each
 * row's p, se, df and min_effect. */
void compare_correct(compare_row *rows, int m);
/* Sets in JSON object m what the test of row r found: p, p_holm, the
 * corrected interval, the blocks agreeing, min_effect and finding (the
 * rows of compare and sweep reports). */
void compare_row_test_json(json_t *m, const compare_row *r);
/* The practical thresholds of cs as a JSON object (points, share, turns, count). */
json_t *min_effect_json(const compare_settings *cs);
/* What was run, as every report begins (sim, tournament, compare, sweep):
 * text lines with `prefix` before each ("", "A "), or (format REPORT_CSV)
 * "# " lines naming the side `prefix`. In JSON it is report_header_json. */
void report_header(const study *s, FILE *f, int format, const char *prefix);
/* The same header as a new JSON object: study_about_json, then the files
 * read with their hashes, the study file, the players, seats_rotated, the
 * games and the seed. NULL when out of memory. */
json_t *report_header_json(const study *s);
/* The games A and B both played, by game number (results sorted by it):
 * ia[k], ib[k] are the positions of the k-th pair. Returns the pairs. */
int pair_games(const study *a, const study *b, int *ia, int *ib);

/* In how many paired games the winner (the set of seats with the highest
 * score) differs between A and B, with the 95% Wilson interval of the share. */
typedef struct winner_change {
    int changed, games;
    double lo, hi;
    bool paired; /* A and B played the same seeds */
    /* The same between unrelated games (A's k-th paired game against B's
     * (k+1)-th, which share no seed): the rate a rule that changed every
     * game's course would reach. A rate near it says the rule reshuffles
     * who wins; it says nothing of whom it favours. */
    int unrelated_changed;
    double unrelated_lo, unrelated_hi;
} winner_change;
winner_change compare_winner_change(const study *a, const study *b);
void report_compare(const study *a, const study *b, const compare_settings *cs, FILE *f, int format);
#endif
