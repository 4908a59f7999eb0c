/* seat_moves.c - each seat's last move on the board (seat_moves.h). */
#include "seat_moves.h"

#include <stdlib.h>

typedef struct place {
    int where, tile, seg, space;
} place;

struct seat_figures {
    int n;
    place p[];
};

static place place_of(const carc_game *g, int f)
{
    place p = {0, -1, -1, -1};
    int kind, seat;
    if (carc_figure(g, f, &kind, &seat, &p.where, &p.tile, &p.seg, &p.space) < 0) p.where = 0;
    return p;
}

void seat_moves_clear(seat_moves *m)
{
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) m->tile[p] = m->figure[p] = m->line[p] = -1;
}

seat_figures *seat_moves_before(const carc_game *g)
{
    int n = carc_figures(g);
    seat_figures *b = malloc(sizeof *b + (size_t)(n > 0 ? n : 1) * sizeof b->p[0]);
    if (!b) return NULL;
    b->n = n;
    for (int f = 0; f < n; f++) b->p[f] = place_of(g, f);
    return b;
}

void seat_moves_after(seat_moves *m, const carc_game *g, seat_figures *before, int seat, int tiles, int line)
{
    if (seat < 0 || seat >= CARC_MAX_PLAYERS) {
        free(before);
        return;
    }
    if (carc_tiles_placed(g) > tiles) { /* a new turn of this seat's */
        m->tile[seat] = tiles;
        m->figure[seat] = -1;
        m->line[seat] = line;
    }
    for (int f = 0; before && f < carc_figures(g); f++) {
        place now = place_of(g, f), was = f < before->n ? before->p[f] : (place){0, -1, -1, -1};
        if (now.where == 0) continue; /* gone home, or an empty slot */
        if (now.where == was.where && now.tile == was.tile && now.seg == was.seg && now.space == was.space) continue;
        m->figure[seat] = f;
        m->figure_tile[seat] = now.tile;
        m->figure_seg[seat] = now.seg;
        m->line[seat] = line;
        break;
    }
    free(before);
}

int seat_moves_figure(const seat_moves *m, const carc_game *g, int seat)
{
    if (seat < 0 || seat >= CARC_MAX_PLAYERS || m->figure[seat] < 0) return -1;
    place now = place_of(g, m->figure[seat]);
    return now.where != 0 && now.tile == m->figure_tile[seat] && now.seg == m->figure_seg[seat] ? m->figure[seat] : -1;
}
