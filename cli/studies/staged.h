/* staged.h - a comparison run until one measure's interval is as narrow as
 * asked, by Stein's two-stage procedure (C. Stein, "A two-sample test for a
 * linear hypothesis whose power is independent of the variance", Ann. Math.
 * Statist. 16, 1945): the first stage (the study as given, in its blocks)
 * estimates how much the measure's block means vary; that fixes how many
 * blocks of the same size the whole study needs; the interval then uses the
 * first stage's deviation and degrees of freedom, so it keeps its 95%
 * although the number of games depended on the data (and its width is at
 * most the one asked for). */
#ifndef CARC_STAGED_H
#define CARC_STAGED_H
#include <stddef.h>

#include "report.h"
#include "study.h"

/* a and b have played the first stage (games divisible by cs->blocks).
 * Plays the games the measure `key` needs for an interval no wider than
 * `width` (at most max_games a side), appends them, and sets cs (blocks,
 * staged_*) for the report. -1 with err on an unknown key or a failed game. */
int staged_extend(study *a, study *b, compare_settings *cs, const char *key, double width, int max_games, char *err,
                  size_t errn);
#endif
