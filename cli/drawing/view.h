/* view.h - what is where in a game, as plain data: the placed tiles with
 * their segments (kind, board ports, marks), the tile marks, the figures with
 * their places and owners, the players and scores. The terminal board
 * (ascii.c) and the SVG and HTML renderers draw from it and from nothing
 * else, so every tile set draws, a fan's included, from its tile data alone. */
#ifndef CARC_VIEW_H
#define CARC_VIEW_H
#include <stdint.h>

#include "carc.h"

#define VIEW_MAX_SEGS 16
#define VIEW_MAX_MARKS 8

typedef struct view_mark {
    int mark;             /* segment-mark id of the rules */
    int count;
} view_mark;

typedef struct view_seg {
    int index;            /* segment number on its tile */
    int kind;             /* kind id; kind_name is its name */
    const char *kind_name;
    uint16_t ports;       /* board ports after rotation (bit p = port p); 0: inner */
    int canon_port;       /* the port records name it by (kind@port); -1: inner */
    int nmarks;
    view_mark marks[VIEW_MAX_MARKS];
} view_seg;

typedef struct view_tile {
    int x, y, rot, type;
    int nsegs;
    view_seg segs[VIEW_MAX_SEGS];
    uint32_t tile_marks;  /* bit m = tile mark m */
} view_tile;

typedef struct view_figure {
    int kind;             /* figure-kind id; kind_name is its name */
    const char *kind_name;
    int owner;            /* seat, or -1 for a neutral figure */
    int where;            /* CARC_AT_SEGMENT, CARC_AT_TILE, CARC_AT_TRACK,
                             CARC_AT_CORNER or CARC_AT_HELD (in a player's
                             hand: a prisoner) */
    int tile, seg;        /* index into view.tiles and its segment; -1 */
    int space;            /* score-track space (CARC_AT_TRACK), corner
                             (CARC_AT_CORNER), or the seat holding it
                             (CARC_AT_HELD) */
} view_figure;

typedef struct view {
    const carc_rules *rules;
    int ntiles;
    view_tile *tiles;     /* in the order placed (the game's tile indices) */
    int minx, maxx, miny, maxy;
    int nfigs;
    view_figure *figs;    /* figures on the board, the track or in a hand */
    int nplayers;
    char names[CARC_MAX_PLAYERS][64]; /* copies: a view outlives its game */
    int scores[CARC_MAX_PLAYERS];
    int followers[CARC_MAX_PLAYERS]; /* followers in supply, -1 if unknown */
    int turn, pile_left, finished;
    int sheet;            /* a sheet of tile types, not a game */
} view;

/* The view of a game now. 0, or -1 when out of memory. */
int view_of_game(view *v, const carc_game *g);
/* A sheet of tile types with no game: type i at (i % cols, i / cols), r0. */
int view_of_types(view *v, const carc_rules *r, int cols);
/* One tile type alone at (0, 0), turned rot quarter turns: the tile a
 * player has drawn, before it is placed. */
int view_of_tile_type(view *v, const carc_rules *r, int type, int rot);
/* Placed tile number `tile` of the game, as view_of_game draws it. 0, or
 * -1 when there is no such tile. */
int view_tile_of_game(view_tile *t, const carc_game *g, int tile);
void view_free(view *v);

/* Whether a view figure stands off the board (on the track or in a hand). */
static inline int view_off_board(const view_figure *f)
{
    return f->where == CARC_AT_TRACK || f->where == CARC_AT_HELD;
}

/* The segment of a tile at a board port, or -1. */
int view_seg_at_port(const view_tile *t, int port);
/* The seat's colour name and hex value (Red, Blue, Green, Yellow, Black,
 * Grey: the order carc play names players); neutral for seat -1. */
const char *view_seat_colour_name(int seat);
/* A tile corner's name (enum carc_corner) as records write it after
 * `corner@`: NW, NE, SE, SW. */
const char *view_corner_name(int corner);
const char *view_seat_colour(int seat);
#endif
