/* large: a test plugin, the large follower of Inns & Cathedrals as data,
 * through the C API (define_figure_kind): one per player, a follower of
 * strength 2 that the kernel deploys like any follower.
 *
 * large.guest=yes (a fixture): when a large follower is deployed on a
 * cloister, one follower of the next player from that player's supply
 * stands on the same cloister, so that the test can show 2 against 1 there
 * (a cloister otherwise never holds two players' figures). */
#include <stddef.h>

#include "carc_plugin.h"

static const carc_api *api;

typedef struct large_state {
    int large, follower, cloister, guest;
} large_state;

static int on_chosen(carc_ctx *ctx, carc_event *ev)
{
    large_state *st = api->state(ctx);
    const carc_option *o = ev->option;
    if (!st->guest || !o || o->tile < 0 || o->seg < 0 || api->segment_kind(ctx, o->tile, o->seg) != st->cloister)
        return 0;
    const char *owner = api->option_owner(ctx, o);
    if (!owner || owner[0] != 'k' || o->arg[0] != st->large) return 0; /* the kernel's deploy of a large follower */
    int next = (ev->player + 1) % api->players(ctx);
    return api->figure_place(ctx, st->follower, next, CARC_AT_SEGMENT, o->tile, o->seg, 0, 1) < 0 ? -1 : 0;
}

/* feature-majority: each player's strength is the sum of their followers'
 * strengths (feature_strength agrees); a failed check stops the game. */
static int on_majority(carc_ctx *ctx, carc_event *ev)
{
    for (int p = 0; p < api->players(ctx); p++)
        if (api->majority_strength(ctx, p) != api->feature_strength(ctx, ev->feature, p))
            return api->fail(ctx, "majority_strength and feature_strength disagree");
    return 0;
}

static int game_init(carc_ctx *ctx)
{
    large_state *st = api->state(ctx);
    st->large = api->figure_kind(ctx, "large-follower");
    st->follower = api->figure_kind(ctx, "follower");
    st->cloister = api->kind(ctx, "cloister");
    st->guest = api->option(ctx, "guest") == 1;
    /* The kind's data, as the queries give it back. */
    int road = api->kind(ctx, "road"), field = api->kind(ctx, "field");
    if (api->figure_kind_flags(ctx, st->large) != (CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE) ||
        api->figure_kind_strength(ctx, st->large) != 2 || api->figure_kind_strength(ctx, st->follower) != 1 ||
        api->figure_kind_stands_on(ctx, st->large, road) != 1 || api->figure_kind_stands_on(ctx, st->large, field) != 1 ||
        api->figure_kind_flags(ctx, api->figure_kind(ctx, "dragon")) != 0 || api->figure_kind_flags(ctx, 99) != -1 ||
        !api->figure_kind_name(ctx, st->large) || api->figure_kind_name(ctx, st->large)[0] != 'l')
        return api->fail(ctx, "the large follower's kind reads back wrong");
    return 0;
}

static int init(carc_ctx *ctx)
{
    static const carc_figure_kind_def large = {"large-follower", 1, CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE, 2,
                                               NULL};
    if (api->define_figure_kind(ctx, &large) < 0) return -1;
    if (api->define_option_enum(ctx, "guest", "no yes", "a follower of the next player joins a large one on a cloister") < 0)
        return -1;
    if (api->set_state(ctx, sizeof(large_state), game_init) < 0) return -1;
    if (api->on(ctx, CARC_EV_FEATURE_MAJORITY, on_majority, NULL) < 0) return -1;
    return api->on(ctx, CARC_EV_OPTION_CHOSEN, on_chosen, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "large";
    desc->version = "1.0";
    desc->description = "test plugin: the large follower (strength 2) through the C API";
    desc->init = init;
    return 0;
}
