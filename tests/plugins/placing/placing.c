/* placing: a test plugin for the placement API (version 4).
 *   - place-filter: no tile west of the start tile's column (x < 0), and
 *     no tile of type base:C anywhere (so every base:C is unplaceable);
 *   - held tiles: each player holds one base:B (a cloister) from the start,
 *     offered before the draw (placing it skips the draw);
 *   - place_tile: on turn 4 the plugin takes a base:U from the pile and
 *     places it itself at the first open space, scanned row by row, where
 *     it fits;
 * and it counts what it saw in its state (test_placement.c reads it). */
#include <string.h>

#include "carc_plugin.h"

static const carc_api *api;

typedef struct placing_state {
    int before_draw;      /* place-offer raised before a draw */
    int after_draw;       /* ... with a drawn tile */
    int probes;           /* place-filter raised to ask if a tile can be placed */
    int vetoed;           /* placements vetoed */
    int placed_held;      /* tile-placed with CARC_PLACED_HELD */
    int placed_by_plugin; /* tile-placed with CARC_PLACED_BY_PLUGIN */
    int extra_tile;       /* the tile index place_tile returned, or 0 */
    int type_b, type_c, type_u;
} placing_state;

static int game_init(carc_ctx *ctx)
{
    placing_state *s = api->state(ctx);
    s->type_b = api->tile_type_find(ctx, "base:B");
    s->type_c = api->tile_type_find(ctx, "base:C");
    s->type_u = api->tile_type_find(ctx, "base:U");
    if (s->type_b < 0 || s->type_c < 0 || s->type_u < 0) return api->fail(ctx, "base tile types missing");
    for (int p = 0; p < api->players(ctx); p++)
        if (api->give_tile(ctx, p, s->type_b) != 1) return -1;
    return 0;
}

static int on_offer(carc_ctx *ctx, carc_event *ev)
{
    placing_state *s = api->state(ctx);
    if (ev->flags & CARC_PLACE_BEFORE_DRAW) s->before_draw++;
    else s->after_draw++;
    /* Only before the draw: the cloister instead of drawing. */
    if ((ev->flags & CARC_PLACE_BEFORE_DRAW) && api->held_tiles(ctx, ev->player) > 0)
        return api->offer_placements(ctx, api->held_tile(ctx, ev->player, 0)) < 0 ? -1 : 0;
    return 0;
}

static int on_filter(carc_ctx *ctx, carc_event *ev)
{
    placing_state *s = api->state(ctx);
    if (ev->flags & CARC_PLACE_PROBE) s->probes++;
    int n = api->offered(ctx);
    for (int i = 0; i < n; i++) {
        int type, x, y, rot;
        if (api->placement_of(ctx, api->offered_at(ctx, i), &type, &x, &y, &rot) < 0) continue;
        if (x < 0 || type == s->type_c) {
            if (api->veto(ctx, i) < 0) return -1;
            s->vetoed++;
        }
    }
    return 0;
}

static int on_placed(carc_ctx *ctx, carc_event *ev)
{
    placing_state *s = api->state(ctx);
    if (ev->flags == CARC_PLACED_HELD) s->placed_held++;
    if (ev->flags == CARC_PLACED_BY_PLUGIN) s->placed_by_plugin++;
    return 0;
}

/* Before the score phase of turn 4: a base:U from the pile, placed by the
 * plugin at the first space (rows north to south, west to east) it fits. */
static int extra_tile(carc_ctx *ctx, int call)
{
    (void)call;
    placing_state *s = api->state(ctx);
    if (api->turn(ctx) != 4 || api->pile_take(ctx, s->type_u) < 0) return CARC_PHASE_DONE;
    for (int y = -12; y <= 12; y++)
        for (int x = 0; x <= 12; x++)
            for (int rot = 0; rot < 4; rot++)
                if (api->can_place(ctx, s->type_u, x, y, rot) == 1) {
                    int t = api->place_tile(ctx, s->type_u, x, y, rot);
                    if (t < 0) return -1;
                    s->extra_tile = t;
                    return CARC_PHASE_DONE;
                }
    return CARC_PHASE_DONE;
}

static int init(carc_ctx *ctx)
{
    if (api->set_state(ctx, sizeof(placing_state), game_init) < 0) return -1;
    if (api->reserve_tiles(ctx, CARC_MAX_PLAYERS) < 0) return -1;
    if (api->on(ctx, CARC_EV_PLACE_OFFER, on_offer, NULL) < 0) return -1;
    if (api->on(ctx, CARC_EV_PLACE_FILTER, on_filter, NULL) < 0) return -1;
    if (api->on(ctx, CARC_EV_TILE_PLACED, on_placed, NULL) < 0) return -1;
    if (api->add_phase(ctx, "placing-extra", "before", "score", extra_tile, NULL) < 0) return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "placing";
    desc->version = "1";
    desc->description = "placement filters, held tiles and tiles placed by a plugin (tests)";
    desc->init = init;
    return 0;
}
