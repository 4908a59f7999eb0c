/* road-closer: a house rule as a C plugin. Whoever places the tile that
 * closes a road scores 1 point per tile of that road (option
 * road-closer.points-per-tile), on top of the road's normal scoring. */
#include "carc_plugin.h"

static const carc_api *api;
static int reason, road;

static int on_completed(carc_ctx *ctx, carc_event *ev)
{
    if (api->feature_kind(ctx, ev->feature) != road) return 0;
    int points = api->feature_tiles(ctx, ev->feature) * api->option(ctx, "points-per-tile");
    return points > 0 ? api->award(ctx, ev->player, points, reason, ev->feature, 0) : 0;
}

static int init(carc_ctx *ctx)
{
    if (api->define_option_int(ctx, "points-per-tile", 1, 0, 10, "points per tile for closing a road") < 0) return -1;
    reason = api->define_reason(ctx, "road-closer");
    road = api->kind(ctx, "road");
    return reason < 0 ? -1 : api->on(ctx, CARC_EV_FEATURE_COMPLETED, on_completed, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "road-closer";
    desc->version = "1.0";
    desc->description = "whoever closes a road scores 1 point per tile of it";
    desc->init = init;
    return 0;
}
