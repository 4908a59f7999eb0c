/* scenario.h - a scenario record's "#!" checks (docs/records.md), shared by
 * `carc test` and the project's scenario test program.
 *
 *   #! rule BASE-16              the rule(s) the scenario tests (required)
 *   #! expect NAME SCORE         the player's final score
 *   #! expect-supply NAME N [KIND]  figures of KIND (default follower) in the
 *                                player's supply at the end
 *   #! expect-event NAME REASON POINTS   the next scoring event, in order
 *   #! expect-event-count N      exactly N scoring events in the game
 *   #! expect-finished yes|no    whether the game is over (default: either)
 *   #! expect-error LINE [MESSAGE]  replay must stop at this line of the file,
 *                                with MESSAGE (a part of it) when given
 *
 * With expect-event lines, the events must be exactly those, in that order. */
#ifndef CARC_SCENARIO_H
#define CARC_SCENARIO_H
#include <stddef.h>

/* Replays the record at path and checks its directives. Returns 0 when every
 * check holds; otherwise 1 with why in msg ("path: ..." or "path:line: ...").
 * rules (may be NULL) receives the rule IDs the scenario cites. */
int scenario_check(const char *path, char *rules, size_t rulesn, char *msg, size_t msgn);

#endif
