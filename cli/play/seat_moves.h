/* seat_moves.h - each seat's last move on the board, for the page to mark
 * what the others did since one last looked: the tile the seat laid last
 * and the figure it put or moved in that turn. */
#ifndef CARC_SEAT_MOVES_H
#define CARC_SEAT_MOVES_H
#include "carc.h"

typedef struct seat_moves {
    int tile[CARC_MAX_PLAYERS];   /* placed-tile index, -1 */
    int figure[CARC_MAX_PLAYERS]; /* figure slot (carc_figure), -1 */
    int figure_tile[CARC_MAX_PLAYERS], figure_seg[CARC_MAX_PLAYERS]; /* where the move put it */
    int line[CARC_MAX_PLAYERS];   /* the record line of that move, -1 */
} seat_moves;

/* Where every figure stood before a move (seat_moves_before); opaque. */
typedef struct seat_figures seat_figures;

void seat_moves_clear(seat_moves *m);
/* Call before answering a decision of g; NULL when out of memory (the move
 * then marks no figure). */
seat_figures *seat_moves_before(const carc_game *g);
/* After seat's move (record line `line`) on g, which had `tiles` placed
 * tiles before it: notes the tile laid and the figure put or moved, and
 * frees before. */
void seat_moves_after(seat_moves *m, const carc_game *g, seat_figures *before, int seat, int tiles, int line);
/* The figure of seat's last move while it still stands where that move put
 * it (a neutral figure moved on by another seat is theirs to show), or -1. */
int seat_moves_figure(const seat_moves *m, const carc_game *g, int seat);
#endif
