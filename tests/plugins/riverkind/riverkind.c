/* riverkind: defines the segment kind `river` (a line through the middle of
 * an edge, never complete, never scored) for tests/tiles/test-river.ini,
 * whose [set] gives it the edge letter V: river edges fit only river edges
 * (test_board.c). */
#include "carc_plugin.h"

static const carc_api *api;

static int init(carc_ctx *ctx)
{
    return api->define_kind(ctx, "river", CARC_COMPLETE_NEVER, CARC_KIND_LINE) < 0 ? -1 : 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "riverkind";
    desc->version = "1";
    desc->description = "the river segment kind (tests)";
    desc->init = init;
    return 0;
}
