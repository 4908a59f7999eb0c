/* game_trace.h - how one game went, turn by turn, kept as it is played in
 * a few numbers (no per-turn arrays): who led after each turn and when the
 * lead changed hands, from which turn the winner led for good, how often
 * the winner was behind, and how many options the players' decisions
 * offered. The study measures of docs/measures.md are made from it.
 *
 * The scores are looked at once a turn, when a new turn begins (the scores
 * after the turn before), and once at the end (after the final scoring).
 * The snapshot after turn t is labelled t; the one at the end T, the number
 * of turns played. */
#ifndef CARC_GAME_TRACE_H
#define CARC_GAME_TRACE_H
#include <stdbool.h>

#include "carc.h"

typedef struct game_trace {
    /* results, read by the measures */
    int snapshots;        /* score snapshots looked at (turns after the first, and the end) */
    int lead_changes;     /* times a player other than the last sole leader became sole leader */
    int led_from;         /* the turn from which the winner led alone in every snapshot;
                           * a game tied for the win: its last turn (decided only at the end) */
    int winner_behind;    /* snapshots in which the winner's score was below the leader's */
    int decisions;        /* decisions answered by the players */
    int choice_decisions; /* of them, those with two options or more */
    long options;         /* options offered, summed over the decisions */
    /* state while the game runs */
    int last_turn, seen_turn, leader, streak_owner, streak_from;
    int behind[CARC_MAX_PLAYERS];
} game_trace;

void game_trace_begin(game_trace *t);
/* The scores after turn `turn` (turns are labelled in increasing order). */
void game_trace_scores(game_trace *t, int turn, const int *score, int nplayers);
/* A decision of a player offered `options` options. */
void game_trace_decision(game_trace *t, int options);
/* The final scores, after turn `turn`: fixes led_from and winner_behind. */
void game_trace_finish(game_trace *t, int turn, const int *score, int nplayers);

/* From a running game: call before every draw and decision (a snapshot
 * when a new turn has begun), and once when it is finished. */
void game_trace_observe(game_trace *t, const carc_game *g);
void game_trace_observe_end(game_trace *t, const carc_game *g);

/* The trace's results as JSON-line fields, by name: how many, the name of
 * field i, its value; and setting field `name` from a line read back
 * (false for a name it does not know). */
#define GAME_TRACE_FIELDS 7
const char *game_trace_field_name(int i);
long game_trace_field(const game_trace *t, int i);
bool game_trace_set_field(game_trace *t, const char *name, long v);
#endif
