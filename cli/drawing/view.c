/* view.c - builds the view of a game (view.h) from the public queries. */
#include "view.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tile ports turned to board ports: r90 moves every port three places on. */
static uint16_t rotate_ports(unsigned mask, int rot)
{
    unsigned s = (unsigned)(3 * (rot & 3)), m = mask & 0xfffu;
    return (uint16_t)(((m << s) | (m >> (12 - s))) & 0xfffu);
}

/* The port records name a segment by, as the kernel's segments.c writes it: the
 * first edge N E S W it covers (a road at the middle, other kinds both
 * halves), else the first half in the order Nw Ne En Es Se Sw Ws Wn. For
 * tile sheets, which have no game to ask. */
static int canonical_port(const view_seg *s)
{
    if (!s->ports) return -1;
    bool line = strcmp(s->kind_name, "road") == 0;
    for (int side = 0; side < 4; side++) {
        int h1 = side * 3, mid = h1 + 1, h2 = h1 + 2;
        if (line ? (s->ports >> mid) & 1u : ((s->ports >> h1) & 1u) && ((s->ports >> h2) & 1u)) return mid;
    }
    static const int halves[8] = {CARC_Nw, CARC_Ne, CARC_En, CARC_Es, CARC_Se, CARC_Sw, CARC_Ws, CARC_Wn};
    for (int i = 0; i < 8; i++)
        if ((s->ports >> halves[i]) & 1u) return halves[i];
    return -1;
}

static void fill_segment(view_seg *vs, const carc_rules *r, int type, int rot, int s)
{
    vs->index = s;
    vs->kind = carc_type_segment_kind(r, type, s);
    vs->kind_name = carc_kind_name(r, vs->kind);
    vs->ports = rotate_ports(carc_type_segment_ports(r, type, s), rot);
    vs->canon_port = canonical_port(vs);
    vs->nmarks = 0;
    for (int m = 0; m < carc_marks(r) && vs->nmarks < VIEW_MAX_MARKS; m++) {
        int n = carc_type_segment_marks(r, type, s, m);
        if (n > 0) vs->marks[vs->nmarks++] = (view_mark){m, n};
    }
}

static void fill_tile(view_tile *t, const carc_rules *r, int x, int y, int rot, int type)
{
    t->x = x;
    t->y = y;
    t->rot = rot;
    t->type = type;
    t->nsegs = carc_type_segments(r, type);
    if (t->nsegs > VIEW_MAX_SEGS) t->nsegs = VIEW_MAX_SEGS;
    for (int s = 0; s < t->nsegs; s++) fill_segment(&t->segs[s], r, type, rot, s);
    t->tile_marks = 0;
    for (int m = 0; m < carc_tile_marks(r) && m < 32; m++)
        if (carc_type_has_mark(r, type, m)) t->tile_marks |= 1u << m;
}

static void extend_bounds(view *v)
{
    v->minx = v->maxx = v->miny = v->maxy = 0;
    for (int i = 0; i < v->ntiles; i++) {
        const view_tile *t = &v->tiles[i];
        if (i == 0 || t->x < v->minx) v->minx = t->x;
        if (i == 0 || t->x > v->maxx) v->maxx = t->x;
        if (i == 0 || t->y < v->miny) v->miny = t->y;
        if (i == 0 || t->y > v->maxy) v->maxy = t->y;
    }
}

static int fill_figures(view *v, const carc_game *g)
{
    int n = carc_figures(g);
    v->figs = calloc((size_t)(n ? n : 1), sizeof *v->figs);
    if (!v->figs) return -1;
    for (int f = 0; f < n; f++) {
        view_figure vf;
        if (carc_figure(g, f, &vf.kind, &vf.owner, &vf.where, &vf.tile, &vf.seg, &vf.space) < 0) continue;
        if (vf.where == CARC_AT_NONE) continue; /* in the supply or the box */
        if (vf.where == CARC_AT_HELD && (vf.owner < 0 || vf.space < 0 || vf.space >= carc_players(g))) continue;
        if (!view_off_board(&vf) && (vf.tile < 0 || vf.tile >= v->ntiles)) continue;
        if (vf.where == CARC_AT_SEGMENT && (vf.seg < 0 || vf.seg >= v->tiles[vf.tile].nsegs))
            vf.where = CARC_AT_TILE; /* no such segment: show it on its tile */
        if (vf.where != CARC_AT_SEGMENT) vf.seg = -1;
        if (view_off_board(&vf)) vf.tile = -1;
        vf.kind_name = carc_figure_kind_name(v->rules, vf.kind);
        v->figs[v->nfigs++] = vf;
    }
    return 0;
}

int view_tile_of_game(view_tile *t, const carc_game *g, int tile)
{
    if (tile < 0 || tile >= carc_tiles_placed(g)) return -1;
    int x, y, rot, type;
    carc_tile_at_index(g, tile, &x, &y, &rot, &type);
    fill_tile(t, carc_game_rules(g), x, y, rot, type);
    for (int s = 0; s < t->nsegs; s++) t->segs[s].canon_port = carc_segment_canonical_port(g, tile, s);
    return 0;
}

int view_of_tile_type(view *v, const carc_rules *r, int type, int rot)
{
    memset(v, 0, sizeof *v);
    v->rules = r;
    v->tiles = calloc(1, sizeof *v->tiles);
    v->figs = calloc(1, sizeof *v->figs);
    if (!v->tiles || !v->figs || type < 0 || type >= carc_tile_types(r)) {
        view_free(v);
        return -1;
    }
    v->ntiles = 1;
    fill_tile(&v->tiles[0], r, 0, 0, rot & 3, type);
    v->finished = 1;
    return 0;
}

int view_of_game(view *v, const carc_game *g)
{
    memset(v, 0, sizeof *v);
    v->rules = carc_game_rules(g);
    v->ntiles = carc_tiles_placed(g);
    v->tiles = calloc((size_t)(v->ntiles ? v->ntiles : 1), sizeof *v->tiles);
    if (!v->tiles) return -1;
    for (int i = 0; i < v->ntiles; i++) {
        int x, y, rot, type;
        carc_tile_at_index(g, i, &x, &y, &rot, &type);
        fill_tile(&v->tiles[i], v->rules, x, y, rot, type);
        for (int s = 0; s < v->tiles[i].nsegs; s++)
            v->tiles[i].segs[s].canon_port = carc_segment_canonical_port(g, i, s);
    }
    extend_bounds(v);
    if (fill_figures(v, g) < 0) {
        view_free(v);
        return -1;
    }
    v->nplayers = carc_players(g);
    for (int p = 0; p < v->nplayers; p++) {
        snprintf(v->names[p], sizeof v->names[p], "%s", carc_player_name(g, p));
        v->scores[p] = carc_score(g, p);
        v->followers[p] = carc_supply(g, p, "follower");
    }
    v->turn = carc_turn_number(g);
    v->pile_left = carc_pile_left(g);
    v->finished = carc_is_finished(g);
    return 0;
}

int view_of_types(view *v, const carc_rules *r, int cols)
{
    memset(v, 0, sizeof *v);
    v->rules = r;
    v->ntiles = carc_tile_types(r);
    v->tiles = calloc((size_t)(v->ntiles ? v->ntiles : 1), sizeof *v->tiles);
    v->figs = calloc(1, sizeof *v->figs);
    if (!v->tiles || !v->figs) {
        view_free(v);
        return -1;
    }
    if (cols < 1) cols = 1;
    for (int i = 0; i < v->ntiles; i++) fill_tile(&v->tiles[i], r, i % cols, i / cols, 0, i);
    extend_bounds(v);
    v->finished = 1;
    v->sheet = 1;
    return 0;
}

void view_free(view *v)
{
    free(v->tiles);
    free(v->figs);
    memset(v, 0, sizeof *v);
}

int view_seg_at_port(const view_tile *t, int port)
{
    for (int s = 0; s < t->nsegs; s++)
        if ((t->segs[s].ports >> port) & 1u) return s;
    return -1;
}

static const char *const colour_names[CARC_MAX_PLAYERS] = {"Red", "Blue", "Green", "Yellow", "Black", "Grey"};
static const char *const colour_values[CARC_MAX_PLAYERS] = {"#d62728", "#1f5fbf", "#2ca02c",
                                                            "#f2c40f", "#222222", "#9a9a9a"};

const char *view_corner_name(int corner)
{
    static const char *const names[4] = {"NW", "NE", "SE", "SW"};
    return names[((corner % 4) + 4) % 4];
}

const char *view_seat_colour_name(int seat)
{
    return seat >= 0 && seat < CARC_MAX_PLAYERS ? colour_names[seat] : "neutral";
}

const char *view_seat_colour(int seat)
{
    return seat >= 0 && seat < CARC_MAX_PLAYERS ? colour_values[seat] : "#ffffff";
}
