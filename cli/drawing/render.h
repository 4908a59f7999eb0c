/* render.h - pictures of a game drawn from its view (view.h): the SVG board
 * (render_svg.c), each tile from its segments (svg_tile.c), the icons of
 * marks and figures (svg_icons.c), and the HTML replay (render_html.c).
 * Everything is written to a FILE; docs/render.md describes the output. */
#ifndef CARC_RENDER_H
#define CARC_RENDER_H
#include <stdio.h>

#include "carc.h"
#include "record.h"
#include "view.h"

/* A tile is drawn in its own units, 0..100 on each axis, north up. */
#define TILE_UNITS 100.0

/* Where the parts of the picture go, in pixels. */
typedef struct svg_layout {
    int minx, miny, cols, rows; /* the board's extent in tiles */
    int nplayers;
    double tile;                /* pixels per tile */
    double board_x, board_y;    /* top-left corner of tile (minx, miny) */
    double legend_y;            /* the players and scores */
    double track_x, track_y;    /* top-left corner of the score track */
    double width, height;
} svg_layout;

/* ---- render_svg.c: the board as one SVG document, and its parts ---- */
void svg_layout_of(svg_layout *l, const view *v);
void svg_open(FILE *out, const svg_layout *l, int standalone);
void svg_close(FILE *out);
void svg_coords(FILE *out, const svg_layout *l);
void svg_tiles(FILE *out, const svg_layout *l, const view *v);
void svg_figures(FILE *out, const svg_layout *l, const view *v);
void svg_track(FILE *out, const svg_layout *l);
void svg_markers(FILE *out, const svg_layout *l, const view *v);
void svg_legend(FILE *out, const svg_layout *l, const view *v);
/* The centre of a score-track space (taken mod 50), in pixels. */
void svg_track_space_centre(const svg_layout *l, int space, double *x, double *y);
/* The whole board: tiles, figures, coordinates, score track and legend. */
void render_svg(FILE *out, const view *v);
/* Writes s with & < > " ' escaped, for text and attribute values. */
void xml_text(FILE *out, const char *s);

/* ---- svg_tile.c: one tile, drawn in tile units ---- */
/* Its ground, one shape per segment, marks and tile marks. */
void svg_tile(FILE *out, const view *v, int tile);
/* Where a figure or mark on the segment stands, in tile units. */
void svg_seg_anchor(const view_tile *t, int seg, double *x, double *y);
/* The point of a tile's corner (enum carc_corner, board directions) in
 * tile units, where a figure at the corner (CARC_AT_CORNER) stands. */
void svg_corner_anchor(int corner, double *x, double *y);

/* ---- svg_icons.c: marks and figures, centred on (x, y) ---- */
void icon_mark(FILE *out, const char *name, int count, double x, double y);
void icon_tile_mark(FILE *out, const char *name, double x, double y);
/* The figure's shape (a meeple, a dragon, ...) in its owner's colour. */
void icon_figure(FILE *out, const char *kind, int owner, double x, double y, double scale);
/* A colour of its own for a name nobody gave one (a fan's kind or mark). */
void name_colour(const char *name, char *buf, size_t n);

/* ---- render_html.c: the replay page ---- */

/* The largest replay page: each turn's frame draws the whole board, so a
 * page grows with the square of a game's length; a long record from
 * elsewhere is refused past this instead of filling memory and disk. */
#define RENDER_HTML_MAX_BYTES (64l << 20)
/* Replays the record and writes one self-contained page that opens at turn
 * start_turn (-1: the end). 0, or -1 with err. */
int render_html(FILE *out, const carc_record *rec, const carc_rules *rules, int start_turn, char *err,
                size_t errn);
/* render_html with a page of at most max_bytes (render_html: RENDER_HTML_MAX_BYTES). */
int render_html_limited(FILE *out, const carc_record *rec, const carc_rules *rules, int start_turn, long max_bytes,
                        char *err, size_t errn);
#endif
