/* analysis.h - the search's view of a decision, for players: every option
 * with the search's estimate of it (chance of winning, expected lead) and
 * the move it would play. Used by carc analyse and the hint at carc play. */
#ifndef CARC_ANALYSIS_H
#define CARC_ANALYSIS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"

/* The analysing agent when none is named: mcts:3000it, judging with the
 * weights shipped for the game's variant when there are some and the game
 * has 2 players (with more, the hand-written judgement searches better). */
void analysis_default_agent(const carc_game *g, char *buf, size_t n);
/* Searches the pending decision of g (which it does not change) with the
 * agent `spec` (an mcts agent) seeded with `seed`, and prints its options,
 * the `top` best first (0: all), and the move it would play. The search
 * samples what the player cannot know (the order of the pile), never the
 * real one. -1 with a message in err. */
int analysis_print(carc_game *g, const char *spec, uint64_t seed, int top, FILE *out, char *err, size_t errn);
#endif
