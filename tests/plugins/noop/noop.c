/* noop: a handler for every event that does nothing (make bench: the cost
 * of dispatch). */
#include "carc_plugin.h"

static const carc_api *api;

static int nothing(carc_ctx *ctx, carc_event *ev)
{
    (void)ctx;
    (void)ev;
    return 0;
}

static int init(carc_ctx *ctx)
{
    for (int e = 0; e < CARC_EV_COUNT; e++)
        if (api->on(ctx, e, nothing, NULL) < 0) return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "noop";
    desc->version = "1";
    desc->description = "handlers that do nothing";
    desc->init = init;
    return 0;
}
