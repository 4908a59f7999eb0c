/* abbey_mayor_checks.h - Abbey & Mayor's placement rules checked on a
 * board, for every game its tests play (include after cmocka.h): each
 * abbey lies in a hole, its four neighbours placed before it (AM-2); each
 * barn stands at a corner of a placed tile where four fields meet (AM-9);
 * mayors stand only in cities (AM-5), wagons only on roads, cities and
 * cloisters (AM-7). Reads the board only, never the plugin's state. */
#ifndef CARC_TEST_ABBEY_MAYOR_CHECKS_H
#define CARC_TEST_ABBEY_MAYOR_CHECKS_H

#include <stdbool.h>
#include <string.h>

static inline bool abbey_tile(const carc_rules *r, int type)
{
    return strcmp(carc_tile_set_of(r, type), "abbey-mayor") == 0 && strcmp(carc_tile_id(r, type), "abbey") == 0;
}

/* Whether the two ports of tile `tile`'s corner c (0 NW, 1 NE, 2 SE, 3 SW,
 * board directions) both hold a field. */
static inline bool corner_is_field(const carc_game *g, int tile, int c)
{
    static const int ports[4][2] = {{CARC_Nw, CARC_Wn}, {CARC_Ne, CARC_En}, {CARC_Es, CARC_Se}, {CARC_Sw, CARC_Ws}};
    const carc_rules *r = carc_game_rules(g);
    for (int k = 0; k < 2; k++)
        if (strcmp(carc_kind_name(r, carc_segment_kind(g, tile, carc_segment_at_port(g, tile, ports[c][k]))), "field") != 0)
            return false;
    return true;
}

/* Fails the test, naming the rule, when the board breaks one; returns the
 * number of abbeys on the board. */
static inline int check_abbey_mayor_board(const carc_game *g, const char *what)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    const carc_rules *r = carc_game_rules(g);
    int abbeys = 0, x, y, rot, type;
    for (int i = 0; i < carc_tiles_placed(g); i++) {
        carc_tile_at_index(g, i, &x, &y, &rot, &type);
        if (!abbey_tile(r, type)) continue;
        abbeys++;
        for (int d = 0; d < 4; d++) {
            int n = carc_tile_index_at(g, x + dx[d], y + dy[d]);
            if (n < 0 || n > i) fail_msg("%s: AM-2: the abbey at %d,%d was placed without a neighbour on side %d", what, x, y, d);
        }
    }
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == CARC_AT_NONE) continue;
        const char *name = carc_figure_kind_name(r, kind);
        if (strcmp(name, "barn") == 0) {
            if (where != CARC_AT_CORNER) fail_msg("%s: AM-9: a barn not at a corner", what);
            carc_tile_at_index(g, tile, &x, &y, &rot, &type);
            /* The corner point as the NW corner of space (px, py): the four
             * spaces around it, each at its corner facing the point. */
            int px = x + (space == 1 || space == 2), py = y + (space == 2 || space == 3);
            static const int ax[4] = {0, -1, -1, 0}, ay[4] = {0, 0, -1, -1}, ac[4] = {0, 1, 2, 3};
            for (int k = 0; k < 4; k++) {
                int t = carc_tile_index_at(g, px + ax[k], py + ay[k]);
                if (t < 0 || !corner_is_field(g, t, ac[k]))
                    fail_msg("%s: AM-9: a barn at %d,%d corner %d where four fields do not meet", what, x, y, space);
            }
        } else if (where == CARC_AT_SEGMENT && (strcmp(name, "mayor") == 0 || strcmp(name, "wagon") == 0)) {
            const char *k = carc_kind_name(r, carc_segment_kind(g, tile, seg));
            if (strcmp(name, "mayor") == 0 && strcmp(k, "city") != 0) fail_msg("%s: AM-5: a mayor on a %s", what, k);
            if (strcmp(name, "wagon") == 0 && strcmp(k, "road") != 0 && strcmp(k, "city") != 0 && strcmp(k, "cloister") != 0)
                fail_msg("%s: AM-7: a wagon on a %s", what, k);
        }
    }
    return abbeys;
}

#endif
