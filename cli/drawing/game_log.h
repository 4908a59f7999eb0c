/* game_log.h - what happened in a game, told in words: each award with the
 * player, the points and the reason, and the points of the whole game
 * broken down by player and reason. The terminal game and the web page
 * (carc serve) both tell a game with these. */
#ifndef CARC_GAME_LOG_H
#define CARC_GAME_LOG_H
#include <stddef.h>

#include "carc.h"

#define LOG_MAX_REASONS 64

/* "Blue +4 for city" or "Red +9 for farm (final scoring)": scoring event i
 * of the game. Returns the length written. */
int log_award_text(const carc_game *g, int i, char *buf, size_t n);

/* The points of every scoring event so far, summed by player and reason.
 * reasons[] receives the reasons that gave anyone points (or took them), in
 * the order they first happened; points[p][k] the sum of seat p for reasons[k]. */
typedef struct log_breakdown {
    int nreasons;
    int reasons[LOG_MAX_REASONS];
    int points[CARC_MAX_PLAYERS][LOG_MAX_REASONS];
    int total[CARC_MAX_PLAYERS];
} log_breakdown;
void log_breakdown_of(const carc_game *g, log_breakdown *b);
#endif
