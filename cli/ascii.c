/* ascii.c - each tile as 5x3 characters: its edge ports, its centre, and
 * followers as their seat number (1-6) on their segment.
 *
 *    . C .      C city   = | road   . field   M cloister   T temple
 *    = M =      a digit: a follower of that seat
 *    . | .
 */
#include "ascii.h"

#include <stdlib.h>
#include <string.h>

#define TW 5
#define TH 3

static char port_char(const carc_game *g, int t, int port)
{
    const char *k = carc_kind_name(carc_game_rules(g), carc_segment_kind(g, t, carc_segment_at_port(g, t, port)));
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

void ascii_board(const carc_game *g, FILE *out)
{
    int n = carc_tiles_placed(g), minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (int i = 0; i < n; i++) {
        int x, y, r, t;
        carc_tile_at_index(g, i, &x, &y, &r, &t);
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
    }
    int w = (maxx - minx + 1) * TW, h = (maxy - miny + 1) * TH;
    char *grid = malloc((size_t)w * (size_t)h);
    if (!grid) return;
    memset(grid, ' ', (size_t)w * (size_t)h);
    for (int i = 0; i < n; i++) {
        int x, y, r, type;
        carc_tile_at_index(g, i, &x, &y, &r, &type);
        int ox = (x - minx) * TW, oy = (y - miny) * TH;
        for (int p = 0; p < CARC_PORTS; p++) {
            int cx, cy;
            port_cell(p, &cx, &cy);
            if ((cx == 0 || cx == 4) && (cy == 0 || cy == 2)) continue; /* corners stay blank */
            grid[(oy + cy) * w + ox + cx] = port_char(g, i, p);
        }
        for (int s = 0; s < carc_segment_count(g, i); s++) {
            if (carc_segment_canonical_port(g, i, s) >= 0) continue;
            const char *k = carc_kind_name(carc_game_rules(g), carc_segment_kind(g, i, s));
            grid[(oy + 1) * w + ox + 2] = strcmp(k, "cloister") == 0 ? 'M' : strcmp(k, "temple") == 0 ? 'T' : '.';
        }
    }
    int nf = carc_figures(g);
    for (int f = 0; f < nf; f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where != 1 || owner < 0) continue;
        int x, y, r, type;
        carc_tile_at_index(g, tile, &x, &y, &r, &type);
        int port = carc_segment_canonical_port(g, tile, seg), cx = 2, cy = 1;
        if (port >= 0) port_cell(port, &cx, &cy);
        grid[((y - miny) * TH + cy) * w + (x - minx) * TW + cx] = (char)('1' + owner);
    }
    fprintf(out, "\n     ");
    for (int x = minx; x <= maxx; x++) fprintf(out, "%-5d", x);
    fprintf(out, "\n");
    for (int row = 0; row < h; row++) {
        if (row % TH == 1) fprintf(out, "%4d ", miny + row / TH);
        else fprintf(out, "     ");
        fwrite(grid + row * w, 1, (size_t)w, out);
        fputc('\n', out);
    }
    free(grid);
}

void ascii_scores(const carc_game *g, FILE *out)
{
    fprintf(out, "\nturn %d, %d tiles left |", carc_turn_number(g), carc_pile_left(g));
    for (int p = 0; p < carc_players(g); p++)
        fprintf(out, " %d:%s %d (%d in supply)", p + 1, carc_player_name(g, p), carc_score(g, p),
                carc_supply(g, p, "follower"));
    fputc('\n', out);
}
