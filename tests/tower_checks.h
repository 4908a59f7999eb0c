/* tower_checks.h - The Tower's rules checked on a game after every move,
 * from the board, the figures, the supplies, the scoring events and the
 * pending decision alone, never the script's state (include after
 * cmocka.h; rules TOWER-1 to TOWER-7, docs/tower.md):
 * - floors stand only on tiles with a tower foundation, each player's floors
 *   in supply and on the board add up to the published count (TOWER-1);
 * - a follower stands on a tile only on top of a tower of one floor or more,
 *   one a tower (TOWER-3);
 * - every option of the action decision `tower-floor X,Y` names a foundation
 *   or an open tower and the player has a floor; `tower-top X,Y KIND` an open
 *   tower with a floor (TOWER-2, TOWER-3);
 * - a follower goes into a hand only in the move that added a floor, into
 *   the hand of that floor's player, from a tile within the tower's reach:
 *   its own tile or up to its height tiles away in a straight line, empty
 *   spaces between counting (TOWER-4); nobody holds his own follower
 *   (TOWER-5); no two players hold each other's followers after a move
 *   (TOWER-6);
 * - a ransom is 3 points from a player who had them to a player who held
 *   one of his followers, which comes home in the same move, at most once a
 *   turn (TOWER-7).
 * The state between moves lives in a tower_watch the caller zeroes. */
#ifndef CARC_TEST_TOWER_CHECKS_H
#define CARC_TEST_TOWER_CHECKS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOWER_MAX_FIGS 1024
#define TOWER_MAX_TILES 256

typedef struct tower_watch {
    bool started;
    int nfigs;
    int where[TOWER_MAX_FIGS], tile[TOWER_MAX_FIGS], owner[TOWER_MAX_FIGS];
    int floors[TOWER_MAX_TILES];     /* floors on each placed tile */
    int nlog;                        /* scoring events seen */
    int grew_before, builder_before; /* the tower that grew in the move before, its builder; -1 */
    int ransom_turn[CARC_MAX_PLAYERS]; /* the turn of each player's last ransom */
    int captures, ransoms, floors_placed, tops; /* what the games did, counted */
} tower_watch;

static const int TOWER_FLOORS[7] = {0, 10, 10, 9, 7, 6, 5};

static inline bool tower_tile(const carc_game *g, int tile)
{
    const carc_rules *r = carc_game_rules(g);
    int x, y, rot, type, mark = -1;
    for (int m = 0; m < carc_tile_marks(r); m++)
        if (strcmp(carc_tile_mark_name(r, m), "tower") == 0) mark = m;
    carc_tile_at_index(g, tile, &x, &y, &rot, &type);
    return mark >= 0 && carc_type_has_mark(r, type, mark);
}

static inline int tower_kind(const carc_game *g, const char *name)
{
    const carc_rules *r = carc_game_rules(g);
    for (int k = 0; k < carc_figure_kinds(r); k++)
        if (strcmp(carc_figure_kind_name(r, k), name) == 0) return k;
    return -1;
}

/* A player's figure that is no floor: in the shipped modules, what stands
 * on a tile or in a hand this way is a follower (a knight, a large
 * follower, the Prophet) topping a tower or taken prisoner. */
static inline bool tower_is_follower(const carc_game *g, int kind)
{
    return strcmp(carc_figure_kind_name(carc_game_rules(g), kind), "floor") != 0;
}

/* Floors on a tile and whether a follower tops it. */
static inline int tower_height(const carc_game *g, int tile, bool *topped)
{
    int floor = tower_kind(g, "floor"), h = 0;
    *topped = false;
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, t, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &t, &seg, &space) < 0 || where != CARC_AT_TILE || t != tile) continue;
        if (kind == floor) h++;
        else if (owner >= 0 && tower_is_follower(g, kind)) *topped = true;
    }
    return h;
}

static inline int tower_tile_of_text(const carc_game *g, const char *text, const char *word)
{
    int x, y;
    size_t n = strlen(word);
    if (strncmp(text, word, n) != 0 || sscanf(text + n, " %d,%d", &x, &y) != 2) return -2;
    return carc_tile_index_at(g, x, y);
}

static inline void check_tower_options(const carc_game *g, const char *what)
{
    if (strcmp(carc_decision_label(g), "action") != 0) return;
    int player = carc_decision_player(g);
    char text[CARC_OPTION_TEXT_MAX + 1];
    for (int i = 0; i < carc_option_count(g); i++) {
        carc_option_text(g, i, text, sizeof text);
        bool topped;
        int t = tower_tile_of_text(g, text, "tower-floor");
        if (t != -2) {
            if (t < 0 || !tower_tile(g, t)) fail_msg("%s: TOWER-2: '%s' names no tower foundation", what, text);
            tower_height(g, t, &topped);
            if (topped) fail_msg("%s: TOWER-3: '%s' builds on a topped tower", what, text);
            if (carc_supply(g, player, "floor") <= 0) fail_msg("%s: TOWER-1: '%s' offered with no floor left", what, text);
        }
        t = tower_tile_of_text(g, text, "tower-top");
        if (t != -2) {
            if (t < 0 || !tower_tile(g, t)) fail_msg("%s: TOWER-3: '%s' names no tower", what, text);
            if (tower_height(g, t, &topped) < 1 || topped) fail_msg("%s: TOWER-3: '%s' tops no open tower", what, text);
        }
    }
}

static inline void check_tower_move(const carc_game *g, tower_watch *w, const char *what)
{
    const carc_rules *r = carc_game_rules(g);
    int n = carc_figures(g), players = carc_players(g), floor = tower_kind(g, "floor");
    if (n > TOWER_MAX_FIGS || carc_tiles_placed(g) > TOWER_MAX_TILES) fail_msg("%s: too big for the checks", what);
    /* TOWER-1: floors conserved; floors only on foundations. */
    int on_board[CARC_MAX_PLAYERS] = {0}, floors[TOWER_MAX_TILES] = {0}, tops[TOWER_MAX_TILES] = {0};
    for (int f = 0; f < n; f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0) continue;
        if (kind == floor && where != CARC_AT_NONE) {
            if (where != CARC_AT_TILE || !tower_tile(g, tile)) fail_msg("%s: TOWER-2: a floor off a foundation", what);
            on_board[owner]++;
            floors[tile]++;
        } else if (where == CARC_AT_TILE && owner >= 0 && tower_is_follower(g, kind)) {
            if (!tower_tile(g, tile)) fail_msg("%s: TOWER-3: a follower on a tile with no tower", what);
            tops[tile]++;
        } else if (where == CARC_AT_HELD) {
            if (space == owner) fail_msg("%s: TOWER-5: %s holds his own follower", what, carc_player_name(g, owner));
            if (!tower_is_follower(g, kind)) fail_msg("%s: TOWER-4: a figure that is no follower is held", what);
        }
    }
    for (int p = 0; p < players; p++)
        if (carc_supply(g, p, "floor") + on_board[p] != TOWER_FLOORS[players])
            fail_msg("%s: TOWER-1: %s has %d floors in supply and %d on the board, not %d", what, carc_player_name(g, p),
                     carc_supply(g, p, "floor"), on_board[p], TOWER_FLOORS[players]);
    for (int t = 0; t < carc_tiles_placed(g); t++)
        if (tops[t] > 1 || (tops[t] && floors[t] < 1)) fail_msg("%s: TOWER-3: tile %d topped %d times on %d floors", what, t, tops[t], floors[t]);
    /* TOWER-6: no two players hold each other's followers. */
    int held[CARC_MAX_PLAYERS][CARC_MAX_PLAYERS] = {{0}};
    for (int f = 0; f < n; f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == CARC_AT_HELD) held[space][owner]++;
    }
    for (int a = 0; a < players; a++)
        for (int b = a + 1; b < players; b++)
            if (held[a][b] && held[b][a]) fail_msg("%s: TOWER-6: %s and %s hold each other's followers", what,
                                                   carc_player_name(g, a), carc_player_name(g, b));
    if (w->started) {
        /* The tower that grew in this move, and its builder. */
        int grew = -1, builder = -1;
        for (int t = 0; t < carc_tiles_placed(g); t++) {
            int before = t < TOWER_MAX_TILES ? w->floors[t] : 0;
            if (floors[t] == before) continue;
            if (floors[t] != before + 1 || grew >= 0) fail_msg("%s: TOWER-2: more than one floor in a move", what);
            grew = t;
            w->floors_placed++;
        }
        if (grew >= 0)
            for (int f = 0; f < n; f++) {
                int kind, owner, where, tile, seg, space;
                if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && kind == floor && where == CARC_AT_TILE &&
                    tile == grew && (f >= w->nfigs || w->where[f] != CARC_AT_TILE))
                    builder = owner;
            }
        /* The capture is the decision right after the floor: the tower
         * that grew in the move before counts too. */
        if (grew < 0 && w->grew_before >= 0) grew = w->grew_before, builder = w->builder_before;
        else if (grew < 0) grew = -1;
        int captured = 0;
        for (int f = 0; f < n && f < w->nfigs; f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where != CARC_AT_HELD) continue;
            if (w->where[f] == CARC_AT_HELD) continue;
            /* Newly held: captured by this move's floor, within reach. */
            captured++;
            w->captures++;
            if (grew < 0) fail_msg("%s: TOWER-4: a follower captured with no floor placed", what);
            if (space != builder) fail_msg("%s: TOWER-4: held by another player than the tower's builder", what);
            int tx, ty, fx, fy, rot, type;
            carc_tile_at_index(g, grew, &tx, &ty, &rot, &type);
            carc_tile_at_index(g, w->tile[f], &fx, &fy, &rot, &type);
            int dist = abs(tx - fx) + abs(ty - fy);
            if ((tx != fx && ty != fy) || dist > floors[grew])
                fail_msg("%s: TOWER-4: a follower at %d,%d captured from a tower of %d at %d,%d", what, fx, fy, floors[grew], tx, ty);
        }
        for (int f = 0; f < n; f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == CARC_AT_TILE && owner >= 0 &&
                tower_is_follower(g, kind) && (f >= w->nfigs || w->where[f] != CARC_AT_TILE))
                w->tops++;
        }
        if (captured > 1) fail_msg("%s: TOWER-4: %d followers captured in one move", what, captured);
        /* TOWER-7: ransoms, from the events of this move. */
        int ransom = -1;
        for (int i = 0; i < 64 && strcmp(carc_reason_name(r, i), "?") != 0; i++)
            if (strcmp(carc_reason_name(r, i), "ransom") == 0) ransom = i;
        for (; w->nlog < carc_events(g); w->nlog++) {
            const carc_award *a = carc_event_at(g, w->nlog);
            if (a->reason != ransom) continue;
            if (a->points != -3 && a->points != 3) fail_msg("%s: TOWER-7: a ransom of %d", what, a->points);
            if (a->points == 3) continue;
            w->ransoms++;
            if (carc_score(g, a->player) < 0) fail_msg("%s: TOWER-7: %s paid without the points", what, carc_player_name(g, a->player));
            if (w->ransom_turn[a->player] == carc_turn_number(g))
                fail_msg("%s: TOWER-7: %s paid two ransoms in one turn", what, carc_player_name(g, a->player));
            w->ransom_turn[a->player] = carc_turn_number(g);
            if (w->nlog + 1 >= carc_events(g) || carc_event_at(g, w->nlog + 1)->points != 3)
                fail_msg("%s: TOWER-7: a ransom paid to nobody", what);
            int holder = carc_event_at(g, w->nlog + 1)->player, freed = 0;
            for (int f = 0; f < w->nfigs; f++) {
                int kind, owner, where, tile, seg, space;
                if (w->where[f] == CARC_AT_HELD && w->tile[f] == holder && w->owner[f] == a->player &&
                    (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == CARC_AT_NONE))
                    freed++;
            }
            if (freed != 1) fail_msg("%s: TOWER-7: a ransom freed %d followers", what, freed);
        }
    } else {
        w->nlog = carc_events(g);
    }
    check_tower_options(g, what);
    /* Remember this move's figures (a held figure's holder in tile). */
    /* The tower that grew in this move, for the capture in the next one. */
    int grew_now = -1, builder_now = -1;
    for (int t = 0; t < carc_tiles_placed(g); t++)
        if (floors[t] > w->floors[t]) grew_now = t;
    if (grew_now >= 0)
        for (int f = 0; f < n; f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && kind == floor && where == CARC_AT_TILE &&
                tile == grew_now && (f >= w->nfigs || w->where[f] != CARC_AT_TILE))
                builder_now = owner;
        }
    w->grew_before = grew_now;
    w->builder_before = builder_now;
    w->started = true;
    w->nfigs = n;
    for (int f = 0; f < n; f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0) where = CARC_AT_NONE;
        w->where[f] = where;
        w->tile[f] = where == CARC_AT_HELD ? space : tile;
        w->owner[f] = owner;
    }
    for (int t = 0; t < TOWER_MAX_TILES; t++) w->floors[t] = floors[t];
}

#endif
