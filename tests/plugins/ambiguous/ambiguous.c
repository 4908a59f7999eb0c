/* ambiguous: a test plugin for the replay trap. On each placed tile it
 * offers, for every field segment touching two ports or more, a `barn`
 * option worth 1 point and one worth 2.
 *   ambiguous.texts=trap      the two read `barn X,Y field@P` and
 *                             `barn X,Y field@Q` with P and Q two ports of
 *                             the same field: one record line chooses
 *                             either (the kernel refuses the decision);
 *   ambiguous.texts=distinct  they read `barn X,Y field@P` and
 *                             `barn2 X,Y field@P` (records replay). */
#include <stdio.h>

#include "carc_plugin.h"

static const carc_api *api;
static const char *const port_names[CARC_PORTS] = {"Nw", "N", "Ne", "En", "E", "Es",
                                                   "Se", "S", "Sw", "Ws", "W", "Wn"};
static int reason;

/* The first and the last port of a segment, board directions. */
static int ports_of(carc_ctx *ctx, int tile, int seg, int *first, int *last)
{
    int n = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if (api->segment_at_port(ctx, tile, p) == seg) {
            if (n++ == 0) *first = p;
            *last = p;
        }
    return n;
}

static int offer(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    int t = api->placed_tile(ctx);
    if (t < 0) return 0;
    int field = api->kind(ctx, "field");
    for (int s = 0; s < api->segments(ctx, t); s++) {
        int first = 0, last = 0;
        if (api->segment_kind(ctx, t, s) != field || ports_of(ctx, t, s, &first, &last) < 2) continue;
        for (int worth = 0; worth < 2; worth++) {
            carc_option o = {.code = 1, .tile = t, .seg = s, .arg = {worth, worth ? last : first, 0}};
            if (api->offer(ctx, &o) < 0) return -1;
        }
    }
    return 0;
}

static int format(carc_ctx *ctx, const carc_option *o, char *buf, size_t n)
{
    int x, y;
    api->tile_pos(ctx, o->tile, &x, &y);
    int trap = api->option(ctx, "texts") == 0;
    return snprintf(buf, n, "%s %d,%d field@%s", !trap && o->arg[0] ? "barn2" : "barn", x, y, port_names[o->arg[1]]);
}

static int apply(carc_ctx *ctx, const carc_option *o, int player)
{
    return api->award(ctx, player, o->arg[0] + 1, reason, -1, 0);
}

static int init(carc_ctx *ctx)
{
    if (api->define_option_enum(ctx, "texts", "trap distinct", "how the two barn options read") < 0) return -1;
    if ((reason = api->define_reason(ctx, "barn")) < 0) return -1;
    if (api->set_option_fns(ctx, format, apply) < 0) return -1;
    return api->on(ctx, CARC_EV_ACTION_OFFER, offer, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = 2; /* the trap needs nothing of version 4 */
    desc->name = "ambiguous";
    desc->version = "1";
    desc->description = "two options one record line could choose (tests)";
    desc->init = init;
    return 0;
}
