/* river_checks.h - the river's placement rules checked on a board, for
 * every game the river's tests play (include after cmocka.h): the spring
 * starts (RIVER-1), the river's tiles were placed before any other tile and
 * form one unbroken river from the spring, each tile's upstream edge facing
 * the tile before it, the lake last (RIVER-1, RIVER-2), no two turns in the
 * same direction one right after the other (RIVER-3), and no figure on the
 * river (RIVER-4). Reads the board only, never the script's state. */
#ifndef CARC_TEST_RIVER_CHECKS_H
#define CARC_TEST_RIVER_CHECKS_H

#include <stdbool.h>
#include <string.h>

static const int RIVER_DX[4] = {0, 1, 0, -1}, RIVER_DY[4] = {-1, 0, 1, 0}, RIVER_MIDDLE_PORT[4] = {1, 4, 7, 10};

static inline bool river_tile(const carc_rules *r, int type)
{
    return strcmp(carc_tile_set_of(r, type), "river") == 0;
}

/* The board edges (bit d for 0 N, 1 E, 2 S, 3 W) where a placed tile's river runs. */
static inline int river_edges_of(const carc_game *g, int tile)
{
    const carc_rules *r = carc_game_rules(g);
    int mask = 0;
    for (int d = 0; d < 4; d++) {
        int seg = carc_segment_at_port(g, tile, RIVER_MIDDLE_PORT[d]);
        if (seg >= 0 && strcmp(carc_kind_name(r, carc_segment_kind(g, tile, seg)), "river") == 0) mask |= 1 << d;
    }
    return mask;
}

/* Fails the test, naming the rule, when the board breaks one; returns the
 * number of river tiles on the board. */
static inline int check_river_board(const carc_game *g, const char *what)
{
    const carc_rules *r = carc_game_rules(g);
    int n = carc_tiles_placed(g), x, y, rot, type, rivers = 0;
    int other_seen = -1;
    for (int i = 0; i < n; i++) {
        carc_tile_at_index(g, i, &x, &y, &rot, &type);
        if (i == 0 && strcmp(carc_tile_id(r, type), "A") != 0) fail_msg("%s: RIVER-1: the start tile is not the spring", what);
        if (!river_tile(r, type)) {
            if (other_seen < 0) other_seen = i;
            continue;
        }
        if (other_seen >= 0) {
            int ox, oy, orot, otype;
            carc_tile_at_index(g, other_seen, &ox, &oy, &orot, &otype);
            fail_msg("%s: RIVER-1: river tile %d placed after tile %d, %s:%s at %d,%d", what, i, other_seen,
                     carc_tile_set_of(r, otype), carc_tile_id(r, otype), ox, oy);
        }
        rivers++;
    }
    /* Walk the river down from the spring. */
    int cur = 0, flow = -1, prev_turn = 0, walked = 0;
    for (;;) {
        walked++;
        carc_tile_at_index(g, cur, &x, &y, &rot, &type);
        int edges = river_edges_of(g, cur);
        if (flow >= 0) {
            int back = (flow + 2) % 4;
            if (!(edges & (1 << back))) fail_msg("%s: RIVER-2: tile %d does not continue the river", what, cur);
            edges &= ~(1 << back);
        }
        if (edges == 0) {
            if (strcmp(carc_tile_id(r, type), "L") != 0) fail_msg("%s: RIVER-2: the river ends at tile %d, not the lake", what, cur);
            break;
        }
        int exit = __builtin_ctz((unsigned)edges);
        if (edges != (1 << exit)) fail_msg("%s: RIVER-2: the river forks at tile %d", what, cur);
        int turn = flow < 0 ? 0 : (exit - flow + 4) % 4;
        if (turn != 0 && turn == prev_turn) fail_msg("%s: RIVER-3: a U-turn at tile %d", what, cur);
        int next = carc_tile_index_at(g, x + RIVER_DX[exit], y + RIVER_DY[exit]);
        if (next < 0) break;
        carc_tile_at_index(g, next, &x, &y, &rot, &type);
        if (!river_tile(r, type)) fail_msg("%s: RIVER-2: the river runs into tile %d of another set", what, next);
        prev_turn = turn;
        flow = exit;
        cur = next;
        if (walked > n) fail_msg("%s: RIVER-2: the river loops", what);
    }
    if (walked != rivers) fail_msg("%s: RIVER-2: %d river tiles, %d of them on the river", what, rivers, walked);
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where != 1) continue;
        if (strcmp(carc_kind_name(r, carc_segment_kind(g, tile, seg)), "river") == 0)
            fail_msg("%s: RIVER-4: a figure on the river at tile %d", what, tile);
    }
    return rivers;
}

#endif
