/* dragon.c - the volcano and the dragon (PD-2 to PD-10, FAIRY-4).
 *
 * - tile-drawn: a dragon-symbol tile drawn before the first volcano is set
 *   aside (PD-5), or put straight back (early-dragon-tile=reshuffle-now).
 * - tile-placed: on a volcano the dragon appears or flies there (PD-2); the
 *   first volcano returns the set-aside tiles to the pile.
 * - the phases "dragon" (after "action", dragon-timing=before-scoring) and
 *   "dragon-late" (after "score", after-scoring): after a dragon-symbol tile
 *   the dragon makes up to dragon-steps single steps, one decision each, the
 *   players choosing in turn from the active one (PD-7), never onto a tile
 *   visited in this move nor onto the fairy's tile (PD-8), eating every
 *   player's figure on each tile it enters (PD-9). */
#include <stdio.h>

#include "pd.h"

#define api pd_api
#define ID pd_ids_of(ctx)

static const char *const dir_names[4] = {"N", "E", "S", "W"};
static const int dir_dx[4] = {0, 1, 0, -1}, dir_dy[4] = {-1, 0, 1, 0};

static int has_mark(carc_ctx *ctx, int type, int mark) { return api->type_has_mark(ctx, type, mark) > 0; }

static int on_tile_drawn(carc_ctx *ctx, carc_event *ev)
{
    pd_state *st = pd_st(ctx);
    if (st->dragon >= 0 || !has_mark(ctx, ev->tile, ID->dragon_mark)) {
        st->putbacks = 0;
        return 0;
    }
    if (st->early_reshuffle) {
        /* Straight back into the pile. Should nothing but dragon-symbol tiles
         * be left (every volcano discarded), putting back forever would never
         * end: after many draws in a row the tile is set aside instead. */
        int left = api->pile_left(ctx);
        if (st->putbacks < 20 * (left + 1)) {
            st->putbacks++;
            ev->value = CARC_DRAW_PUT_BACK;
            return 0;
        }
    }
    st->putbacks = 0;
    ev->value = CARC_DRAW_SET_ASIDE;
    return 0;
}

static int on_tile_placed(carc_ctx *ctx, carc_event *ev)
{
    int type = api->tile_type(ctx, ev->tile);
    if (!has_mark(ctx, type, ID->volcano)) return 0;
    pd_state *st = pd_st(ctx);
    if (st->dragon < 0) {
        st->dragon = api->figure_place(ctx, ID->dragon_fig, -1, CARC_AT_TILE, ev->tile, -1, 0, 0);
        if (st->dragon < 0) return -1;
        return api->return_set_aside(ctx) < 0 ? -1 : 0;
    }
    return api->figure_move(ctx, st->dragon, CARC_AT_TILE, ev->tile, -1, 0);
}

static int visited(const pd_state *st, int tile)
{
    for (int i = 0; i < st->nvisited; i++)
        if (st->visited[i] == tile) return 1;
    return 0;
}

/* The dragon's move; `timing` is the dragon-timing value this phase serves. */
static int dragon_phase(carc_ctx *ctx, int step, int timing)
{
    pd_state *st = pd_st(ctx);
    if (st->timing != timing) return CARC_PHASE_DONE;
    int from = pd_dragon_tile(ctx);
    if (step == 0) {
        int placed = api->placed_tile(ctx);
        if (placed < 0 || from < 0 || !has_mark(ctx, api->tile_type(ctx, placed), ID->dragon_mark))
            return CARC_PHASE_DONE;
        st->steps = 0;
        st->nvisited = 1;
        st->visited[0] = from;
    }
    if (from < 0 || st->steps >= st->max_steps || st->nvisited >= PD_MAX_VISITED)
        return CARC_PHASE_DONE;
    int fairy = st->fairy_no_eat ? -1 : pd_fairy_tile(ctx);
    int x, y;
    api->tile_pos(ctx, from, &x, &y);
    carc_option opts[4];
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int t = api->tile_at(ctx, x + dir_dx[d], y + dir_dy[d]);
        if (t < 0 || visited(st, t) || t == fairy) continue;
        opts[n] = (carc_option){0};
        opts[n].code = PD_OPT_DRAGON;
        opts[n].tile = -1;
        opts[n].seg = -1;
        opts[n].arg[0] = d;
        n++;
    }
    if (n == 0) return CARC_PHASE_DONE; /* stuck: the move ends early (PD-8) */
    int player = (api->active_player(ctx) + st->steps) % api->players(ctx);
    if (api->ask(ctx, player, "dragon", opts, n) < 0) return -1;
    return CARC_PHASE_AGAIN;
}

static int phase_before(carc_ctx *ctx, int step) { return dragon_phase(ctx, step, PD_TIMING_BEFORE); }
static int phase_after(carc_ctx *ctx, int step) { return dragon_phase(ctx, step, PD_TIMING_AFTER); }

/* PD-9: every follower on the tile (of any follower kind: a large follower
 * is one figure, eaten once) goes back to its owner; a kind used once (the
 * Prophet, ARK-15) goes into the box. "Everything of flesh and blood": the
 * seed's menu has the builder and the pig eaten too, so by default every
 * figure a player owns on the tile's features is eaten (neutral figures:
 * the fairy, the Ark, the dragon itself, are not, nor a tower's floors and
 * the follower on top of it, which stand on the tile: The Tower's FAQ);
 * option dragon-eats=followers spares the others. */
static int eat(carc_ctx *ctx, int tile)
{
    pd_state *st = pd_st(ctx);
    if (st->fairy_no_eat && pd_fairy_tile(ctx) == tile) return 0;
    carc_figure_info fi;
    /* Removing f keeps the walk: the next is the first above f. */
    for (int f = api->figure_next_on_tile(ctx, tile, -1); f >= 0; f = api->figure_next_on_tile(ctx, tile, f)) {
        /* Only what stands on the tile's features: a tower's floors and the
         * follower on top of it stand on the tile itself (The Tower, TOWER-3). */
        if (api->figure(ctx, f, &fi) < 0 || fi.seat < 0 || fi.where != CARC_AT_SEGMENT) continue;
        if (st->eats_followers_only && !(api->figure_kind_flags(ctx, fi.kind) & CARC_FIGURE_FOLLOWER)) continue;
        if (api->figure_remove(ctx, f, CARC_GONE_RETURNED) < 0) return -1;
    }
    return 0;
}

int pd_dragon_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    (void)player;
    pd_state *st = pd_st(ctx);
    int from = pd_dragon_tile(ctx), d = opt->arg[0], x, y;
    if (from < 0 || d < 0 || d > 3 || st->nvisited >= PD_MAX_VISITED) return api->fail(ctx, "bad dragon step");
    api->tile_pos(ctx, from, &x, &y);
    int to = api->tile_at(ctx, x + dir_dx[d], y + dir_dy[d]);
    if (to < 0 || api->figure_move(ctx, st->dragon, CARC_AT_TILE, to, -1, 0) < 0) return api->fail(ctx, "bad dragon step");
    st->visited[st->nvisited++] = to;
    st->steps++;
    return eat(ctx, to);
}

int pd_dragon_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    (void)ctx;
    if (opt->arg[0] < 0 || opt->arg[0] > 3) return -1;
    snprintf(buf, n, "dragon %s", dir_names[opt->arg[0]]);
    return 0;
}

int pd_dragon_init(carc_ctx *ctx)
{
    if (api->on(ctx, CARC_EV_TILE_DRAWN, on_tile_drawn, NULL) < 0 ||
        api->on(ctx, CARC_EV_TILE_PLACED, on_tile_placed, NULL) < 0 ||
        api->add_phase(ctx, "dragon", "after", "action", phase_before, NULL) < 0 ||
        api->add_phase(ctx, "dragon-late", "after", "score", phase_after, NULL) < 0)
        return -1;
    return 0;
}
