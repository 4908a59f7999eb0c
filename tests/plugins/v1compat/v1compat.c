/* v1compat: a plugin built against the version-1 plugin header
 * (carc_plugin_v1.h, a copy of it), as a fan's plugin compiled before API
 * version 2 was. The kernel must load it and play it unchanged:
 *   - whoever closes a road scores 1 per tile of it (reason v1-closer);
 *   - a `v1-mark x,y` option stands a neutral mark on the placed tile;
 *   - a version-1 follower kind `v1-knight` (one per player), which the
 *     kernel does not offer by itself: version 1 had no deployable kinds;
 *     the plugin offers it as `v1-knight city@port` on the placed tile.
 * It reads api->version and api->size only as version 1 knew them. */
#include <stdio.h>

#include "carc_plugin_v1.h"

static const carc_api *api;
static int reason, road, city, mark_fig, knight;

enum { OPT_MARK = 1, OPT_KNIGHT };

static int on_completed(carc_ctx *ctx, carc_event *ev)
{
    if (api->feature_kind(ctx, ev->feature) != road) return 0;
    return api->award(ctx, ev->player, api->feature_tiles(ctx, ev->feature), reason, ev->feature, 0);
}

static int on_offer(carc_ctx *ctx, carc_event *ev)
{
    int t = ev->tile;
    if (t < 0) return 0;
    carc_option o = {0};
    o.code = OPT_MARK;
    o.tile = t;
    o.seg = -1;
    if (api->offer(ctx, &o) < 0) return -1;
    if (api->supply(ctx, ev->player, knight) <= 0) return 0;
    for (int s = 0; s < api->segments(ctx, t); s++) {
        if (api->segment_kind(ctx, t, s) != city) continue;
        int f = api->feature(ctx, t, s), taken = 0;
        for (int p = 0; p < api->players(ctx); p++) taken |= api->feature_followers(ctx, f, p) > 0;
        if (taken) continue;
        carc_option k = {0};
        k.code = OPT_KNIGHT;
        k.tile = t;
        k.seg = s;
        if (api->offer(ctx, &k) < 0) return -1;
    }
    return 0;
}

static int format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    int x, y;
    char seg[64];
    if (api->tile_pos(ctx, opt->tile, &x, &y) < 0) return -1;
    if (opt->code == OPT_MARK) return snprintf(buf, n, "v1-mark %d,%d", x, y) < 0 ? -1 : 0;
    if (api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0) return -1;
    return snprintf(buf, n, "v1-knight %s", seg) < 0 ? -1 : 0;
}

static int apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    if (opt->code == OPT_MARK)
        return api->figure_place(ctx, mark_fig, -1, CARC_AT_TILE, opt->tile, -1, 0, 0) < 0 ? -1 : 0;
    return api->figure_place(ctx, knight, player, CARC_AT_SEGMENT, opt->tile, opt->seg, 0, 1) < 0 ? -1 : 0;
}

static int init(carc_ctx *ctx)
{
    /* Version 1 knew its own struct: everything it calls is there. */
    if (api->version < 1 || api->size < sizeof(carc_api)) return -1;
    reason = api->define_reason(ctx, "v1-closer");
    mark_fig = api->define_figure(ctx, "v1-mark", 0, 0);
    knight = api->define_figure(ctx, "v1-knight", 1, CARC_FIGURE_FOLLOWER);
    road = api->kind(ctx, "road");
    city = api->kind(ctx, "city");
    if (reason < 0 || mark_fig < 0 || knight < 0 || road < 0 || city < 0) return -1;
    if (api->set_option_fns(ctx, format, apply) < 0) return -1;
    if (api->on(ctx, CARC_EV_FEATURE_COMPLETED, on_completed, NULL) < 0) return -1;
    return api->on(ctx, CARC_EV_ACTION_OFFER, on_offer, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION; /* 1: the header it was built with */
    desc->name = "v1compat";
    desc->version = "1.0";
    desc->description = "a plugin built against the version-1 header";
    desc->init = init;
    return 0;
}
