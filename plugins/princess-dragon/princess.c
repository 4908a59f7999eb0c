/* princess.c - the princess (PD-11, PD-12). When the placed tile's princess
 * city segment belongs to a city holding knights, the action decision offers
 * the removal of any one of them (`princess x,y city@port`, where the knight
 * stands: any follower, each figure once whatever its strength); it goes
 * back to its owner's supply, or into the box for a kind used once (the
 * Prophet, ARK-15). A removal is the turn's one
 * action, so no deploy and no fairy move follow it. Where the tile joins both
 * of its city segments into one city, that one city is the princess's. */
#include <stdio.h>

#include "pd.h"

#define api pd_api
#define ID pd_ids_of(ctx)

/* Offers the removals; returns how many. */
int pd_princess_offer(carc_ctx *ctx, int player, int placed)
{
    (void)player;
    if (placed < 0) return 0;
    int nseg = api->segments(ctx, placed), done[8], ndone = 0, count = 0;
    for (int s = 0; s < nseg; s++) {
        if (api->segment_kind(ctx, placed, s) != ID->city || api->segment_marks(ctx, placed, s, ID->princess) <= 0)
            continue;
        int city = api->feature(ctx, placed, s), seen = 0;
        for (int i = 0; i < ndone; i++) seen |= done[i] == city;
        if (seen || city < 0) continue;
        if (ndone < 8) done[ndone++] = city;
        int nf = api->figures(ctx);
        carc_figure_info fi;
        for (int f = 0; f < nf; f++) {
            if (api->figure(ctx, f, &fi) != CARC_AT_SEGMENT ||
                !(api->figure_kind_flags(ctx, fi.kind) & CARC_FIGURE_FOLLOWER))
                continue;
            if (api->feature(ctx, fi.tile, fi.seg) != city) continue;
            carc_option o = {0};
            o.code = PD_OPT_PRINCESS;
            o.tile = fi.tile;
            o.seg = fi.seg;
            o.arg[0] = f;
            if (api->offer(ctx, &o) < 0) return -1;
            count++;
        }
    }
    return count;
}

int pd_princess_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    (void)player;
    carc_figure_info fi;
    if (api->figure(ctx, opt->arg[0], &fi) != CARC_AT_SEGMENT || fi.tile != opt->tile || fi.seg != opt->seg)
        return api->fail(ctx, "the princess's knight is not there");
    return api->figure_remove(ctx, opt->arg[0], CARC_GONE_RETURNED);
}

int pd_princess_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    char seg[64];
    int x, y;
    if (api->tile_pos(ctx, opt->tile, &x, &y) < 0 || api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0)
        return -1;
    snprintf(buf, n, "princess %d,%d %s", x, y, seg);
    return 0;
}
