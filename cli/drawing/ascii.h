/* ascii.h - the board, the drawn tile and the scores as text for the
 * terminal (ascii.c describes the characters). */
#ifndef CARC_ASCII_H
#define CARC_ASCII_H
#include <stdbool.h>
#include <stdio.h>

#include "carc.h"

/* How to draw the board: the tile laid last (its corners marked; -1 none),
 * and a window of at most cols x rows tiles around (centre_x, centre_y) for
 * a small terminal (0: the whole board). */
typedef struct ascii_opts {
    int last_tile;
    int cols, rows;
    int centre_x, centre_y;
} ascii_opts;

/* The board; o may be NULL (the whole board, no tile marked). */
void ascii_board_with(const carc_game *g, FILE *out, const ascii_opts *o);
/* The whole board. */
void ascii_board(const carc_game *g, FILE *out);
/* One line naming every figure that is not a follower and where it is, and
 * one with the letters of the segment marks on the board (nothing when
 * there are none). */
void ascii_figures(const carc_game *g, FILE *out);
/* A tile type in its four turns side by side; with fits, the turns that fit
 * nowhere on the board are labelled in brackets. */
void ascii_tile_turns(const carc_rules *r, int type, const bool fits[4], FILE *out);
void ascii_scores(const carc_game *g, FILE *out);
/* The points by player and reason, and the scores, as a table. */
void ascii_breakdown(const carc_game *g, FILE *out);
#endif
