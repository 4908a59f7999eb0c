/* portal.c - the magic portal (PD-13). After a portal tile, the action
 * decision also offers a follower on any segment of any OTHER placed tile
 * (`deploy follower kind@port at x,y`) whose feature is unoccupied and not
 * completed (as the board stands after the placement: a cloister the portal
 * tile just completed cannot be taken), never on the dragon's tile (PD-4).
 * Deploys on the portal tile itself are the kernel's usual ones. */
#include <stdio.h>

#include "pd.h"

#define api pd_api
#define ID (&pd_st(ctx)->id)

static int deployable_kind(carc_ctx *ctx, int kind)
{
    return kind == ID->road || kind == ID->city || kind == ID->field || kind == ID->cloister;
}

static int occupied(carc_ctx *ctx, int feature, int players)
{
    for (int p = 0; p < players; p++)
        if (api->feature_followers(ctx, feature, p) > 0) return 1;
    return 0;
}

int pd_portal_offer(carc_ctx *ctx, int player, int placed)
{
    if (placed < 0 || api->type_has_mark(ctx, api->tile_type(ctx, placed), ID->portal) <= 0) return 0;
    int follower = api->figure_kind(ctx, "follower");
    if (follower < 0 || api->supply(ctx, player, follower) <= 0) return 0;
    int ntiles = api->tiles(ctx), dragon = pd_dragon_tile(ctx), players = api->players(ctx);
    for (int t = 0; t < ntiles; t++) {
        if (t == placed || t == dragon) continue;
        int nseg = api->segments(ctx, t);
        for (int s = 0; s < nseg; s++) {
            if (!deployable_kind(ctx, api->segment_kind(ctx, t, s))) continue;
            int f = api->feature(ctx, t, s);
            if (f < 0 || api->feature_complete(ctx, f) != 0 || occupied(ctx, f, players)) continue;
            carc_option o = {0};
            o.code = PD_OPT_PORTAL;
            o.tile = t;
            o.seg = s;
            o.arg[0] = follower;
            if (api->offer(ctx, &o) < 0) return -1;
        }
    }
    return 0;
}

int pd_portal_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    return api->figure_place(ctx, opt->arg[0], player, CARC_AT_SEGMENT, opt->tile, opt->seg, 0, 1) < 0 ? -1 : 0;
}

int pd_portal_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    char seg[64];
    int x, y;
    if (api->tile_pos(ctx, opt->tile, &x, &y) < 0 || api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0)
        return -1;
    snprintf(buf, n, "deploy follower %s at %d,%d", seg, x, y);
    return 0;
}
