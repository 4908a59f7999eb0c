/* ascii.c - each tile as 5x3 characters: its edge ports, its centre, and
 * followers as their seat number (1-6) on their segment. Drawn from the view
 * of the game (view.h), like carc render's pictures.
 *
 *    . C .      C city   = | road   . field   M cloister   T temple
 *    = M =      a digit: a follower of that seat
 *    . | .
 */
#include "ascii.h"

#include <stdlib.h>
#include <string.h>

#include "view.h"

#define TW 5
#define TH 3

static char port_char(const view_tile *t, int port)
{
    int s = view_seg_at_port(t, port);
    const char *k = s >= 0 ? t->segs[s].kind_name : "?";
    if (strcmp(k, "city") == 0) return 'C';
    if (strcmp(k, "road") == 0) return (port == CARC_N || port == CARC_S) ? '|' : '=';
    if (strcmp(k, "field") == 0) return '.';
    return k[0];
}

/* Cell of a port in the 5x3 block. */
static void port_cell(int port, int *cx, int *cy)
{
    static const int px[12] = {1, 2, 3, 4, 4, 4, 3, 2, 1, 0, 0, 0};
    static const int py[12] = {0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 1, 0};
    *cx = px[port];
    *cy = py[port];
}

static void draw_tile(char *grid, int w, const view *v, const view_tile *t)
{
    int ox = (t->x - v->minx) * TW, oy = (t->y - v->miny) * TH;
    for (int p = 0; p < CARC_PORTS; p++) {
        int cx, cy;
        port_cell(p, &cx, &cy);
        if ((cx == 0 || cx == 4) && (cy == 0 || cy == 2)) continue; /* corners stay blank */
        grid[(oy + cy) * w + ox + cx] = port_char(t, p);
    }
    for (int s = 0; s < t->nsegs; s++) {
        if (t->segs[s].ports) continue;
        const char *k = t->segs[s].kind_name;
        grid[(oy + 1) * w + ox + 2] = strcmp(k, "cloister") == 0 ? 'M' : strcmp(k, "temple") == 0 ? 'T' : '.';
    }
}

static void draw_followers(char *grid, int w, const view *v)
{
    for (int f = 0; f < v->nfigs; f++) {
        const view_figure *fg = &v->figs[f];
        if (fg->where != CARC_AT_SEGMENT || fg->owner < 0) continue;
        const view_tile *t = &v->tiles[fg->tile];
        int port = t->segs[fg->seg].canon_port, cx = 2, cy = 1;
        if (port >= 0) port_cell(port, &cx, &cy);
        grid[((t->y - v->miny) * TH + cy) * w + (t->x - v->minx) * TW + cx] = (char)('1' + fg->owner);
    }
}

void ascii_board(const carc_game *g, FILE *out)
{
    view v;
    if (view_of_game(&v, g) < 0) return;
    int w = (v.maxx - v.minx + 1) * TW, h = (v.maxy - v.miny + 1) * TH;
    char *grid = malloc((size_t)w * (size_t)h);
    if (!grid) {
        view_free(&v);
        return;
    }
    memset(grid, ' ', (size_t)w * (size_t)h);
    for (int i = 0; i < v.ntiles; i++) draw_tile(grid, w, &v, &v.tiles[i]);
    draw_followers(grid, w, &v);
    fprintf(out, "\n     ");
    for (int x = v.minx; x <= v.maxx; x++) fprintf(out, "%-5d", x);
    fprintf(out, "\n");
    for (int row = 0; row < h; row++) {
        if (row % TH == 1) fprintf(out, "%4d ", v.miny + row / TH);
        else fprintf(out, "     ");
        fwrite(grid + row * w, 1, (size_t)w, out);
        fputc('\n', out);
    }
    free(grid);
    view_free(&v);
}

void ascii_scores(const carc_game *g, FILE *out)
{
    view v;
    if (view_of_game(&v, g) < 0) return;
    fprintf(out, "\nturn %d, %d tiles left |", v.turn, v.pile_left);
    for (int p = 0; p < v.nplayers; p++)
        fprintf(out, " %d:%s %d (%d in supply)", p + 1, v.names[p], v.scores[p], v.followers[p]);
    fputc('\n', out);
    view_free(&v);
}
