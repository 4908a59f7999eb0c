/* ascii.c - each tile as 5x3 characters, drawn from the view of the game
 * (view.h) like carc render's pictures:
 *
 *    + C P +     C city (P: a city segment with a pennant; any segment mark
 *    = C C =       shows its letter, see the legend), = | road, . field,
 *    + | . +       M cloister, T temple, a digit: a figure of that seat;
 *                  + in the corners: the tile laid last; a small letter in
 *                  the top-left corner: a tile mark (v volcano, p portal,
 *                  ..., see the legend)
 *
 * A city or a road crossing the tile fills the middle row; the centre holds
 * what stands inside (cloister, temple) or where roads meet (x). Neutral
 * figures on a tile (dragon, fairy, Ark) show their initial in the middle
 * row; every figure that is not a follower is also listed under the board. */
#include "ascii.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "game_log.h"
#include "view.h"

#define TW 5
#define TH 3

/* Cell of a port in the 5x3 block. */
static void port_cell(int port, int *cx, int *cy)
{
    static const int px[12] = {1, 2, 3, 4, 4, 4, 3, 2, 1, 0, 0, 0};
    static const int py[12] = {0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 1, 0};
    *cx = px[port];
    *cy = py[port];
}

/* The letter of segment mark m: its initial, or the next letter of its name
 * another mark has not taken (sheep and scroll). */
static char mark_letter(const carc_rules *r, int m)
{
    const char *name = carc_mark_name(r, m);
    for (const char *c = name; *c; c++) {
        char l = (char)toupper((unsigned char)*c);
        if (l < 'A' || l > 'Z' || strchr("CMT", l)) continue; /* those draw tiles */
        int taken = 0;
        for (int o = 0; o < m && !taken; o++) taken = mark_letter(r, o) == l;
        if (!taken) return l;
    }
    return '*';
}

/* The letter of tile mark m (volcano, portal, dragon, ...): its initial in
 * lower case, or the next letter of its name another tile mark has not
 * taken. It stands in the tile's top-left corner. */
static char tile_mark_letter(const carc_rules *r, int m)
{
    const char *name = carc_tile_mark_name(r, m);
    for (const char *c = name; *c; c++) {
        char l = (char)tolower((unsigned char)*c);
        if (l < 'a' || l > 'z') continue;
        int taken = 0;
        for (int o = 0; o < m && !taken; o++) taken = tile_mark_letter(r, o) == l;
        if (!taken) return l;
    }
    return '*';
}

/* The first tile mark of t, -1 if none. The start tile's mark is left
 * out: the board begins there, and every game has one. */
static int first_tile_mark(const carc_rules *r, const view_tile *t)
{
    for (int m = 0; m < carc_tile_marks(r) && m < 32; m++)
        if (((t->tile_marks >> m) & 1u) && strcmp(carc_tile_mark_name(r, m), "start") != 0) return m;
    return -1;
}

static int sides_of(unsigned ports)
{
    int n = 0;
    for (int side = 0; side < 4; side++) n += ((ports >> (3 * side)) & 7u) != 0;
    return n;
}

static char kind_char(const char *k, int port)
{
    if (strcmp(k, "city") == 0) return 'C';
    if (strcmp(k, "road") == 0) return (port == CARC_N || port == CARC_S) ? '|' : '=';
    if (strcmp(k, "field") == 0) return '.';
    if (strcmp(k, "cloister") == 0) return 'M';
    if (strcmp(k, "temple") == 0) return 'T';
    return (char)tolower((unsigned char)k[0]);
}

/* The middle row and the centre: what crosses the tile, what stands in it. */
static void draw_middle(char *cell, int w, const view_tile *t)
{
    int roads_ending = 0;
    for (int s = 0; s < t->nsegs; s++) {
        const view_seg *sg = &t->segs[s];
        const char *k = sg->kind_name;
        if (!sg->ports) {
            cell[w + 2] = kind_char(k, -1);
            continue;
        }
        bool city = strcmp(k, "city") == 0, road = strcmp(k, "road") == 0;
        bool ns = (sg->ports >> CARC_N) & 1u && (sg->ports >> CARC_S) & 1u;
        bool ew = (sg->ports >> CARC_E) & 1u && (sg->ports >> CARC_W) & 1u;
        if (city && sides_of(sg->ports) >= 2) {
            cell[w + 2] = 'C';
            if (((sg->ports >> 9) & 7u) && ((sg->ports >> 3) & 7u)) cell[w + 1] = cell[w + 3] = 'C';
            else if ((sg->ports >> 9) & 7u) cell[w + 1] = 'C';
            else if ((sg->ports >> 3) & 7u) cell[w + 3] = 'C';
        } else if (road && sides_of(sg->ports) == 2) {
            if (cell[w + 2] == ' ') cell[w + 2] = ns ? '|' : ew ? '=' : '+';
            if (ew) cell[w + 1] = cell[w + 3] = '=';
        } else if (road) roads_ending++;
    }
    if (roads_ending >= 2 && cell[w + 2] == ' ') cell[w + 2] = 'x';
}

/* One tile into the grid at block (ox, oy). */
static void draw_tile(char *grid, int w, int ox, int oy, const view *v, const view_tile *t)
{
    char *cell = grid + (size_t)oy * w + ox;
    for (int p = 0; p < CARC_PORTS; p++) {
        int cx, cy, s = view_seg_at_port(t, p);
        port_cell(p, &cx, &cy);
        if ((cx == 0 || cx == 4) && (cy == 0 || cy == 2)) continue; /* corners stay blank */
        cell[cy * w + cx] = s >= 0 ? kind_char(t->segs[s].kind_name, p) : '?';
    }
    draw_middle(cell, w, t);
    /* A segment's marks: the letter on its named port (its centre when inner). */
    for (int s = 0; s < t->nsegs; s++) {
        if (!t->segs[s].nmarks) continue;
        int cx = 2, cy = 1, port = t->segs[s].canon_port;
        if (port >= 0) port_cell(port, &cx, &cy);
        if ((cx == 0 || cx == 4) && (cy == 0 || cy == 2)) cx = cx ? 3 : 1;
        cell[cy * w + cx] = mark_letter(v->rules, t->segs[s].marks[0].mark);
    }
}

static void draw_figures(char *grid, int w, const view *v, int ox0, int oy0, int minx, int miny, int maxx, int maxy)
{
    int on_tile[4096] = {0};
    for (int f = 0; f < v->nfigs; f++) {
        const view_figure *fg = &v->figs[f];
        if (view_off_board(fg)) continue;
        const view_tile *t = &v->tiles[fg->tile];
        if (t->x < minx || t->x > maxx || t->y < miny || t->y > maxy) continue;
        char *cell = grid + (size_t)(oy0 + (t->y - miny) * TH) * w + ox0 + (t->x - minx) * TW;
        char c = fg->owner >= 0 ? (char)('1' + fg->owner) : (char)toupper((unsigned char)fg->kind_name[0]);
        if (fg->where == CARC_AT_SEGMENT && fg->owner >= 0) {
            int port = t->segs[fg->seg].canon_port, cx = 2, cy = 1;
            if (port >= 0) port_cell(port, &cx, &cy);
            cell[cy * w + cx] = c;
        } else if (fg->where == CARC_AT_CORNER) { /* in the tile's box, at that corner */
            int cx = fg->space == CARC_CORNER_NE || fg->space == CARC_CORNER_SE ? TW - 2 : 0;
            int cy = fg->space == CARC_CORNER_SE || fg->space == CARC_CORNER_SW ? TH - 2 : 0;
            cell[cy * w + cx] = c;
        } else { /* on the tile: the middle row's free places, left then right */
            int k = fg->tile < 4096 ? on_tile[fg->tile]++ : 0;
            cell[w + (k % 2 ? 3 : 1)] = c;
        }
    }
}

void ascii_board(const carc_game *g, FILE *out) { ascii_board_with(g, out, NULL); }

void ascii_board_with(const carc_game *g, FILE *out, const ascii_opts *o)
{
    view v;
    if (view_of_game(&v, g) < 0) return;
    int minx = v.minx, maxx = v.maxx, miny = v.miny, maxy = v.maxy;
    if (o && o->cols > 0 && maxx - minx + 1 > o->cols) {
        minx = o->centre_x - o->cols / 2;
        if (minx < v.minx) minx = v.minx;
        if (minx + o->cols - 1 > v.maxx) minx = v.maxx - o->cols + 1;
        maxx = minx + o->cols - 1;
    }
    if (o && o->rows > 0 && maxy - miny + 1 > o->rows) {
        miny = o->centre_y - o->rows / 2;
        if (miny < v.miny) miny = v.miny;
        if (miny + o->rows - 1 > v.maxy) miny = v.maxy - o->rows + 1;
        maxy = miny + o->rows - 1;
    }
    int w = (maxx - minx + 1) * TW, h = (maxy - miny + 1) * TH;
    char *grid = malloc((size_t)w * (size_t)h);
    if (!grid) {
        view_free(&v);
        return;
    }
    memset(grid, ' ', (size_t)w * (size_t)h);
    for (int i = 0; i < v.ntiles; i++) {
        const view_tile *t = &v.tiles[i];
        if (t->x < minx || t->x > maxx || t->y < miny || t->y > maxy) continue;
        int ox = (t->x - minx) * TW, oy = (t->y - miny) * TH;
        draw_tile(grid, w, ox, oy, &v, t);
        if (o && i == o->last_tile)
            for (int c = 0; c < 4; c++) grid[(size_t)(oy + (c / 2) * 2) * w + ox + (c % 2) * 4] = '+';
        int tm = first_tile_mark(v.rules, t);
        if (tm >= 0) grid[(size_t)oy * w + ox] = tile_mark_letter(v.rules, tm);
    }
    draw_figures(grid, w, &v, 0, 0, minx, miny, maxx, maxy);
    if (minx > v.minx || maxx < v.maxx || miny > v.miny || maxy < v.maxy)
        fprintf(out, "(the board from %d,%d to %d,%d; x %d..%d, y %d..%d around the last tile)\n", v.minx, v.miny,
                v.maxx, v.maxy, minx, maxx, miny, maxy);
    fprintf(out, "     ");
    for (int x = minx; x <= maxx; x++) fprintf(out, "%-5d", x);
    fprintf(out, "\n");
    for (int row = 0; row < h; row++) {
        if (row % TH == 1) fprintf(out, "%4d ", miny + row / TH);
        else fprintf(out, "     ");
        int end = w; /* no trailing blanks */
        while (end > 0 && grid[(size_t)row * w + end - 1] == ' ') end--;
        fwrite(grid + (size_t)row * w, 1, (size_t)end, out);
        fputc('\n', out);
    }
    free(grid);
    view_free(&v);
}

void ascii_figures(const carc_game *g, FILE *out)
{
    view v;
    if (view_of_game(&v, g) < 0) return;
    const carc_rules *r = carc_game_rules(g);
    int n = 0;
    for (int f = 0; f < v.nfigs; f++) {
        const view_figure *fg = &v.figs[f];
        if (strcmp(fg->kind_name, "follower") == 0 && fg->where != CARC_AT_HELD) continue;
        fprintf(out, "%s", n++ ? "; " : "figures: ");
        if (fg->owner >= 0) fprintf(out, "%s's %s", v.names[fg->owner], fg->kind_name);
        else fprintf(out, "the %s (%c)", fg->kind_name, toupper((unsigned char)fg->kind_name[0]));
        if (fg->where == CARC_AT_TRACK) fprintf(out, " on track space %d", fg->space);
        else if (fg->where == CARC_AT_HELD) fprintf(out, " held by %s", v.names[fg->space]);
        else fprintf(out, " at %d,%d", v.tiles[fg->tile].x, v.tiles[fg->tile].y);
        if (fg->where == CARC_AT_SEGMENT) fprintf(out, " (%s)", v.tiles[fg->tile].segs[fg->seg].kind_name);
        if (fg->where == CARC_AT_CORNER) fprintf(out, " (corner@%s)", view_corner_name(fg->space));
    }
    if (n) fputc('\n', out);
    /* The letters of the segment marks this board shows. */
    int shown = 0;
    for (int m = 0; m < carc_marks(r); m++) {
        int used = 0;
        for (int i = 0; i < v.ntiles && !used; i++)
            for (int s = 0; s < v.tiles[i].nsegs && !used; s++) used = v.tiles[i].segs[s].nmarks > 0 && v.tiles[i].segs[s].marks[0].mark == m;
        if (used) fprintf(out, "%s%c %s", shown++ ? ", " : "marks: ", mark_letter(r, m), carc_mark_name(r, m));
    }
    if (shown) fputc('\n', out);
    /* The letters of the tile marks this board shows (top-left corners). */
    shown = 0;
    for (int m = 0; m < carc_tile_marks(r) && m < 32; m++) {
        int used = 0;
        for (int i = 0; i < v.ntiles && !used; i++) used = first_tile_mark(r, &v.tiles[i]) == m;
        if (used) fprintf(out, "%s%c %s", shown++ ? ", " : "tile marks: ", tile_mark_letter(r, m), carc_tile_mark_name(r, m));
    }
    if (shown) fputc('\n', out);
    view_free(&v);
}

void ascii_tile_turns(const carc_rules *r, int type, const bool fits[4], FILE *out)
{
    enum { GAP = 4 };
    int w = 4 * (TW + GAP);
    char grid[TH][4 * (TW + GAP)];
    memset(grid, ' ', sizeof grid);
    for (int rot = 0; rot < 4; rot++) {
        view v;
        if (view_of_tile_type(&v, r, type, rot) < 0) continue;
        draw_tile(&grid[0][0], w, rot * (TW + GAP), 0, &v, &v.tiles[0]);
        view_free(&v);
    }
    /* The turns that fit nowhere are in brackets. */
    fprintf(out, "  ");
    for (int rot = 0; rot < 4; rot++) {
        char label[16];
        snprintf(label, sizeof label, fits && !fits[rot] ? "(r%d)" : "r%d", 90 * rot);
        fprintf(out, rot < 3 ? "%-9s" : "%s\n", label);
    }
    for (int row = 0; row < TH; row++) {
        fprintf(out, "  ");
        int end = w;
        while (end > 0 && grid[row][end - 1] == ' ') end--;
        fwrite(grid[row], 1, (size_t)end, out);
        fputc('\n', out);
    }
}

/* The figures each player holds (prisoners), one line, when any is held:
 * "held: Red holds 1 follower of Blue; Blue holds 2 follower of Red". */
static void ascii_held(const view *v, FILE *out)
{
    int n = 0;
    for (int holder = 0; holder < v->nplayers; holder++)
        for (int owner = 0; owner < v->nplayers; owner++)
            for (int f = 0; f < v->nfigs; f++) {
                const view_figure *fg = &v->figs[f];
                if (fg->where != CARC_AT_HELD || fg->space != holder || fg->owner != owner) continue;
                /* One entry per kind: count this kind's figures once, at its first. */
                bool first = true;
                int count = 0;
                for (int h = 0; h < v->nfigs; h++) {
                    const view_figure *o = &v->figs[h];
                    if (o->where != CARC_AT_HELD || o->space != holder || o->owner != owner || o->kind != fg->kind) continue;
                    if (h < f) first = false;
                    count++;
                }
                if (!first) continue;
                fprintf(out, "%s%s holds %d %s of %s", n++ ? "; " : "held: ", v->names[holder], count, fg->kind_name,
                        v->names[owner]);
            }
    if (n) fputc('\n', out);
}

void ascii_scores(const carc_game *g, FILE *out)
{
    view v;
    if (view_of_game(&v, g) < 0) return;
    fprintf(out, "turn %d, %d tiles left |", v.turn, v.pile_left);
    /* Every figure kind some player has in supply: the followers alone read
     * "(7 in supply)"; with more kinds, each is counted by name. */
    const carc_rules *r = carc_game_rules(g);
    int nk = carc_figure_kinds(r);
    bool others = false;
    for (int k = 0; k < nk && !others; k++) {
        const char *name = carc_figure_kind_name(r, k);
        if (strcmp(name, "follower") == 0) continue;
        for (int p = 0; p < v.nplayers && !others; p++) others = carc_supply(g, p, name) > 0;
    }
    for (int p = 0; p < v.nplayers; p++) {
        if (!others) {
            fprintf(out, " %d:%s %d (%d in supply)", p + 1, v.names[p], v.scores[p], v.followers[p]);
            continue;
        }
        fprintf(out, " %d:%s %d (in supply:", p + 1, v.names[p], v.scores[p]);
        const char *sep = " ";
        for (int k = 0; k < nk; k++) {
            const char *name = carc_figure_kind_name(r, k);
            int n = carc_supply(g, p, name);
            bool listed = strcmp(name, "follower") == 0;
            for (int q = 0; q < v.nplayers && !listed; q++) listed = carc_supply(g, q, name) > 0;
            if (!listed) continue;
            fprintf(out, "%s%d %s", sep, n, name);
            sep = ", ";
        }
        fputc(')', out);
    }
    fputc('\n', out);
    ascii_held(&v, out);
    view_free(&v);
}

void ascii_breakdown(const carc_game *g, FILE *out)
{
    log_breakdown b;
    log_breakdown_of(g, &b);
    const carc_rules *r = carc_game_rules(g);
    int np = carc_players(g);
    fprintf(out, "%-14s", "points for");
    for (int p = 0; p < np; p++) fprintf(out, " %10.10s", carc_player_name(g, p));
    fputc('\n', out);
    for (int k = 0; k < b.nreasons; k++) {
        fprintf(out, "%-14.14s", carc_reason_name(r, b.reasons[k]));
        for (int p = 0; p < np; p++) fprintf(out, " %10d", b.points[p][k]);
        fputc('\n', out);
    }
    fprintf(out, "%-14s", "score");
    for (int p = 0; p < np; p++) fprintf(out, " %10d", carc_score(g, p));
    fputc('\n', out);
}
