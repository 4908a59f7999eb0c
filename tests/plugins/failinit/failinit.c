/* failinit: registers a little of everything, then fails; carc must undo it all. */
#include "carc_plugin.h"

static const carc_api *api;

static int handler(carc_ctx *ctx, carc_event *ev)
{
    (void)ctx;
    (void)ev;
    return 0;
}

static int phase(carc_ctx *ctx, int step)
{
    (void)ctx;
    (void)step;
    return CARC_PHASE_DONE;
}

static int init(carc_ctx *ctx)
{
    api->on(ctx, CARC_EV_TURN_START, handler, NULL);
    api->add_phase(ctx, "failinit-phase", "after", "draw", phase, NULL);
    api->define_kind(ctx, "failinit-kind", CARC_COMPLETE_RING, 0);
    api->define_figure(ctx, "failinit-figure", 1, CARC_FIGURE_FOLLOWER);
    api->define_mark(ctx, "failinit-mark");
    api->define_reason(ctx, "failinit-reason");
    api->define_option_int(ctx, "x", 1, 0, 2, "");
    api->set_state(ctx, 64, NULL);
    return -1;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "failinit";
    desc->version = "1";
    desc->description = "fails its init";
    desc->init = init;
    return 0;
}
