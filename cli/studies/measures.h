/* measures.h - the measures designers ask for, per game and per study
 * (docs/measures.md gives each one's formula and source): skill gap,
 * first-player advantage by seat, score spread and closeness, lead changes,
 * the turn from which the winner led for good, how often the winner was
 * behind, choices per turn and options per decision, game length, points by
 * reason.
 *
 * Each measure has a key (skill-gap, lead-changes, seat-win:3, points:farm),
 * a name for tables and a unit ("points", "share", "turns" or "count": the
 * unit decides compare's practical threshold, --min-effect). Which measures
 * a study has depends on it: the skill gap needs two agents with seats
 * rotated, the seats' win shares three players or more. */
#ifndef CARC_MEASURES_H
#define CARC_MEASURES_H
#include <stdio.h>

#include <jansson.h>

#include "study.h"

typedef struct measure_ref {
    int id;          /* which formula (measures.c) */
    int arg;         /* its argument: a seat, a reason number */
    char key[48];
    char name[96];
    const char *unit;
} measure_ref;

#define MEASURES_MAX (16 + CARC_MAX_PLAYERS + STUDY_MAX_REASONS)

/* The designer measures the study has (not points by reason, which
 * compare lists itself): how many were written to out (at most max). */
int measures_of(const study *s, measure_ref *out, int max);
/* Every measure of the study, for its report: the scores' (spread, margin,
 * closeness, the first player's win share, length), the designer measures,
 * and points by reason. */
int measures_all(const study *s, measure_ref *out, int max);
/* The value of measure m in one game of study s. */
double measure_value(const study *s, const study_game *g, const measure_ref *m);
/* Seat p's share of the win of one game of np seats: 1/k for k tied
 * winners, 0 for a seat that did not win. */
double measure_win_share(const study_game *g, int np, int p);

/* One game's values as a new JSON object ({"skill-gap": 1, ...}): the
 * per-game designer measures, for shard lines. NULL only when out of
 * memory. */
json_t *measures_game_json(const study *s, const study_game *g);

/* The study's measures as a new JSON array of {"key", "name", "unit", "value",
 * "lo", "hi", "games"}: the mean over the games with its 95% interval (a
 * Wilson interval for shares that are 0 or 1 a game, Student's t
 * otherwise); a list any report can draw without knowing the measures. */
json_t *measures_study_json(const study *s);
/* The same as a table (text), or as CSV rows of sim's and tournament's table
 * "measure,seat,agent,games,value,lo,hi" with the key as the measure. */
void measures_study_text(FILE *f, const study *s);
void measures_study_csv(FILE *f, const study *s);
#endif
