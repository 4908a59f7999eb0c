/* wildcorner: the kernel's wild edges and corner figures, for tests
 * (tests/tiles/test-wild.ini, tests/variants/test-wild.ini,
 * test_wild_corners.c). Defines the kind `wall` (the set gives it the
 * edge letter X, wild: it fits every edge and closes what faces it), and
 * stands a neutral `post` at every corner of a placed tile where four
 * fields meet (corner_feature), one post a point. */
#include <stdlib.h>

#include "carc_plugin.h"

static const carc_api *api;

typedef struct wc_ids {
    int field, post;
} wc_ids;

static wc_ids *ids(carc_ctx *ctx) { return api->plugin_data(ctx); }

/* The point of corner c of a tile at x,y, as the NW corner of a space. */
static void point_of(int x, int y, int c, int *px, int *py)
{
    *px = x + (c == CARC_CORNER_NE || c == CARC_CORNER_SE);
    *py = y + (c == CARC_CORNER_SE || c == CARC_CORNER_SW);
}

static int post_at(carc_ctx *ctx, int px, int py)
{
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++) {
        if (api->figure(ctx, f, &fi) != CARC_AT_CORNER || fi.kind != ids(ctx)->post) continue;
        int x, y, qx, qy;
        api->tile_pos(ctx, fi.tile, &x, &y);
        point_of(x, y, fi.space, &qx, &qy);
        if (qx == px && qy == py) return 1;
    }
    return 0;
}

static int on_tile_placed(carc_ctx *ctx, carc_event *ev)
{
    int x, y;
    if (api->tile_pos(ctx, ev->tile, &x, &y) < 0) return -1;
    for (int c = 0; c < CARC_CORNERS; c++) {
        int px, py;
        point_of(x, y, c, &px, &py);
        if (api->corner_feature(ctx, ev->tile, c, ids(ctx)->field) < 0 || post_at(ctx, px, py)) continue;
        if (api->figure_place(ctx, ids(ctx)->post, -1, CARC_AT_CORNER, ev->tile, -1, c, 0) < 0) return -1;
    }
    return 0;
}

static int ready(carc_ctx *ctx)
{
    ids(ctx)->field = api->kind(ctx, "field");
    ids(ctx)->post = api->figure_kind(ctx, "post");
    return 0;
}

static int init(carc_ctx *ctx)
{
    const carc_figure_kind_def post = {"post", 0, 0, 1, NULL};
    if (api->define_kind(ctx, "wall", CARC_COMPLETE_NEVER, 0) < 0 || api->define_figure_kind(ctx, &post) < 0)
        return -1;
    wc_ids *s = calloc(1, sizeof *s);
    if (!s || api->set_plugin_data(ctx, s, free) < 0) {
        free(s);
        return -1;
    }
    if (api->set_rules_ready(ctx, ready) < 0 ||
        api->on(ctx, CARC_EV_TILE_PLACED, on_tile_placed, NULL) < 0)
        return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "wildcorner";
    desc->version = "1";
    desc->description = "wild edges and corner figures (tests)";
    desc->init = init;
    return 0;
}
