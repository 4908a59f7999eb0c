/* road-closer: a house rule as a C plugin. Whoever places the tile that
 * closes a road scores 1 point per tile of that road (option
 * road-closer.points-per-tile), on top of the road's normal scoring. */
#include <stdlib.h>

#include "carc_plugin.h"

/* The same for every rules object of the process: a static may keep it. */
static const carc_api *api;

/* What belongs to one rules object: the ids init looks up. Another rules
 * object loaded in the same process (carc serve holds one per game) numbers
 * its reasons otherwise, so each gets its own (set_plugin_data). */
typedef struct closer_data {
    int reason, road, points_per_tile;
} closer_data;

static int on_completed(carc_ctx *ctx, carc_event *ev)
{
    const closer_data *d = api->plugin_data(ctx);
    if (api->feature_kind(ctx, ev->feature) != d->road) return 0;
    int points = api->feature_tiles(ctx, ev->feature) * d->points_per_tile;
    return points > 0 ? api->award(ctx, ev->player, points, d->reason, ev->feature, 0) : 0;
}

/* The options have their values once the rules are complete. */
static int rules_ready(carc_ctx *ctx)
{
    closer_data *d = api->plugin_data(ctx);
    d->points_per_tile = api->option(ctx, "points-per-tile");
    return 0;
}

static int init(carc_ctx *ctx)
{
    closer_data *d = calloc(1, sizeof *d);
    if (!d || api->set_plugin_data(ctx, d, free) < 0) {
        free(d);
        return -1;
    }
    if (api->define_option_int(ctx, "points-per-tile", 1, 0, 10, "points per tile for closing a road") < 0) return -1;
    d->reason = api->define_reason(ctx, "road-closer");
    d->road = api->kind(ctx, "road");
    if (d->reason < 0 || api->set_rules_ready(ctx, rules_ready) < 0) return -1;
    return api->on(ctx, CARC_EV_FEATURE_COMPLETED, on_completed, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "road-closer";
    desc->version = "1.1";
    desc->description = "whoever closes a road scores 1 point per tile of it";
    desc->init = init;
    return 0;
}
