/* princess-dragon: The Princess and The Dragon (expansion 3, rules PD-1 to
 * PD-15): the volcano and the dragon, the princess, the magic portal. The
 * fairy is its own script (scripts/fairy.lua); the dragon only reads where
 * the fairy figure stands.
 *
 * This file: the entry point, the options, the per-game state, the texts and
 * effects of this plugin's options, and the action decision (offers and the
 * veto of anything deployed on the dragon's tile, PD-4).
 *
 * Everything that changes during a game lives in the game's state block
 * (pd_state), the ids of names in the plugin's data for the rules that
 * loaded it (pd_ids); the only static is the API pointer. */
#include <stdlib.h>
#include <string.h>

#include "pd.h"

const carc_api *pd_api;

#define api pd_api

pd_state *pd_st(carc_ctx *ctx) { return api->state(ctx); }
const pd_ids *pd_ids_of(carc_ctx *ctx) { return api->plugin_data(ctx); }

int pd_dragon_tile(carc_ctx *ctx)
{
    pd_state *st = pd_st(ctx);
    carc_figure_info fi;
    if (!st || st->dragon < 0 || api->figure(ctx, st->dragon, &fi) != CARC_AT_TILE) return -1;
    return fi.tile;
}

int pd_fairy_tile(carc_ctx *ctx)
{
    int kind = pd_ids_of(ctx)->fairy_kind;
    if (kind < 0) return -1;
    int n = api->figures(ctx);
    carc_figure_info fi;
    for (int f = 0; f < n; f++)
        if (api->figure(ctx, f, &fi) == CARC_AT_TILE && fi.kind == kind) return fi.tile;
    return -1;
}

static int rules_ready(carc_ctx *ctx)
{
    pd_ids *id = api->plugin_data(ctx);
    id->volcano = api->tile_mark(ctx, "volcano");
    id->dragon_mark = api->tile_mark(ctx, "dragon");
    id->portal = api->tile_mark(ctx, "portal");
    id->princess = api->mark(ctx, "princess");
    id->dragon_fig = api->figure_kind(ctx, "dragon");
    id->fairy_kind = api->figure_kind(ctx, "fairy");
    id->city = api->kind(ctx, "city");
    if (id->volcano < 0 || id->dragon_mark < 0 || id->portal < 0 || id->princess < 0 || id->dragon_fig < 0 ||
        id->city < 0)
        return api->fail(ctx, "a tile mark, mark, figure or kind of the expansion is missing");
    return 0;
}

static int game_init(carc_ctx *ctx)
{
    pd_state *st = pd_st(ctx);
    memset(st, 0, sizeof *st);
    st->dragon = -1;
    st->timing = api->option(ctx, "dragon-timing");
    st->max_steps = api->option(ctx, "dragon-steps");
    st->princess_must = api->option(ctx, "princess") == PD_PRINCESS_MUST;
    st->early_reshuffle = api->option(ctx, "early-dragon-tile") == PD_EARLY_RESHUFFLE;
    st->fairy_no_eat = api->option(ctx, "fairy-protection") == PD_FAIRY_NO_EAT;
    st->eats_followers_only = api->option(ctx, "dragon-eats") == PD_EATS_FOLLOWERS;
    return 0;
}

/* The action decision: princess removals, and the kernel's deploys through
 * the portal. */
static int on_action_offer(carc_ctx *ctx, carc_event *ev)
{
    pd_state *st = pd_st(ctx);
    st->must_princess = 0;
    int removals = pd_princess_offer(ctx, ev->player, ev->tile);
    if (removals < 0 || pd_portal_offer(ctx, ev->player, ev->tile) < 0) return -1;
    if (removals > 0 && st->princess_must) {
        st->must_princess = 1;
        api->forbid_pass(ctx);
    }
    return 0;
}

/* PD-4: nothing is deployed on the dragon's tile, by anyone's option (the
 * kernel's deploys, other plugins' options naming that tile). With
 * princess=must and a removal possible, only the removals stay. */
static int on_action_filter(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    pd_state *st = pd_st(ctx);
    int n = api->offered(ctx), dt = pd_dragon_tile(ctx);
    for (int i = 0; i < n; i++) {
        const carc_option *o = api->offered_at(ctx, i);
        if (!o) continue;
        const char *owner = api->option_owner(ctx, o);
        int mine = owner && strcmp(owner, "princess-dragon") == 0;
        if (st->must_princess) {
            if (!(mine && o->code == PD_OPT_PRINCESS) && api->veto(ctx, i) < 0) return -1;
        } else if (!mine && dt >= 0 && o->tile == dt && api->veto(ctx, i) < 0) {
            return -1;
        }
    }
    st->must_princess = 0;
    return 0;
}

static int apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    switch (opt->code) {
    case PD_OPT_DRAGON: return pd_dragon_apply(ctx, opt, player);
    case PD_OPT_PRINCESS: return pd_princess_apply(ctx, opt, player);
    default: return api->fail(ctx, "unknown option");
    }
}

static int format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    switch (opt->code) {
    case PD_OPT_DRAGON: return pd_dragon_format(ctx, opt, buf, n);
    case PD_OPT_PRINCESS: return pd_princess_format(ctx, opt, buf, n);
    default: return -1;
    }
}

static int init(carc_ctx *ctx)
{
    if (api->define_option_enum(ctx, "dragon-timing", "before-scoring after-scoring",
                                "when the dragon moves after a dragon-symbol tile (PD-6)") < 0 ||
        api->define_option_int(ctx, "dragon-steps", 6, 0, PD_MAX_VISITED - 1, "steps of the dragon's move (PD-7)") < 0 ||
        api->define_option_enum(ctx, "princess", "may must", "whether the princess removal is optional (PD-11)") < 0 ||
        api->define_option_enum(ctx, "early-dragon-tile", "set-aside reshuffle-now",
                                "a dragon-symbol tile drawn before the first volcano (PD-5)") < 0 ||
        api->define_option_enum(ctx, "fairy-protection", "blocks-dragon no-eat",
                                "the dragon and the fairy's tile (FAIRY-4)") < 0 ||
        api->define_option_enum(ctx, "dragon-eats", "figures followers",
                                "what the dragon eats (PD-9): every player's figure, or followers only") < 0)
        return -1;
    if (api->define_tile_mark(ctx, "volcano") < 0 || api->define_tile_mark(ctx, "dragon") < 0 ||
        api->define_tile_mark(ctx, "portal") < 0 || api->define_mark(ctx, "princess") < 0 ||
        api->define_figure(ctx, "dragon", 0, 0) < 0)
        return -1;
    pd_ids *id = calloc(1, sizeof *id);
    if (!id || api->set_plugin_data(ctx, id, free) < 0) {
        free(id);
        return -1;
    }
    if (api->set_rules_ready(ctx, rules_ready) < 0 || api->set_state(ctx, sizeof(pd_state), game_init) < 0 ||
        api->set_option_fns(ctx, format, apply) < 0 ||
        api->on(ctx, CARC_EV_ACTION_OFFER, on_action_offer, NULL) < 0 ||
        api->on(ctx, CARC_EV_ACTION_FILTER, on_action_filter, NULL) < 0)
        return -1;
    return pd_dragon_init(ctx);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    pd_api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "princess-dragon";
    desc->version = "2.0";
    desc->description = "The Princess and The Dragon: volcano, dragon, princess, magic portal";
    desc->init = init;
    return 0;
}
