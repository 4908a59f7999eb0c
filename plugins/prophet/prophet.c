/* prophet: the Prophet of The Ark of the Covenant (rules ARK-13 to ARK-16),
 * usable in any variant.
 *
 * Each player has one Prophet (figure kind `prophet`). Instead of a
 * follower, the active player may deploy it on a city segment of the tile
 * just placed, into a city that holds no follower yet (BASE-8):
 *
 *     deploy prophet city@<port>
 *
 * After a magic-portal tile (tile mark `portal`, The Princess and The
 * Dragon, PD-13) it may instead go on a city segment of any other placed
 * tile whose city is neither occupied nor completed, never on the dragon's
 * tile (PD-4):
 *
 *     deploy prophet city@<port> at <x>,<y>
 *
 * For majority it counts as one follower. When its city is completed and
 * scored, its owner's award is doubled if the owner is among the majority
 * (ARK-14); then the Prophet leaves the game (ARK-15: boxed, never back to
 * the supply). In final scoring it counts as a follower, without doubling
 * (ARK-16). A Prophet that another plugin removes unscored goes back to its
 * owner's supply like a follower.
 */
#include <stdio.h>

#include "carc_plugin.h"

static const carc_api *api;

/* Ids of names, looked up when a game is set up (they belong to the rules
 * the game plays): the plugin's whole game state. */
typedef struct prophet_ids {
    int prophet, city, reason_city;
} prophet_ids;

#define ID ((prophet_ids *)api->state(ctx))

enum { OPT_DEPLOY = 1, OPT_PORTAL = 2 };

static int occupied(carc_ctx *ctx, int feature)
{
    int np = api->players(ctx);
    for (int p = 0; p < np; p++)
        if (api->feature_followers(ctx, feature, p) > 0) return 1;
    return 0;
}

static int offer_cities(carc_ctx *ctx, int t, int code)
{
    int ns = api->segments(ctx, t);
    for (int s = 0; s < ns; s++) {
        if (api->segment_kind(ctx, t, s) != ID->city) continue;
        int f = api->feature(ctx, t, s);
        if (occupied(ctx, f) || (code == OPT_PORTAL && api->feature_complete(ctx, f) != 0)) continue;
        carc_option o = {0};
        o.code = (uint16_t)code;
        o.tile = t;
        o.seg = s;
        if (api->offer(ctx, &o) < 0) return -1;
    }
    return 0;
}

/* The tile where a neutral figure of the kind stands, or -1. */
static int figure_tile(carc_ctx *ctx, const char *kind_name)
{
    int kind = api->figure_kind(ctx, kind_name), nf = api->figures(ctx);
    for (int f = 0; kind >= 0 && f < nf; f++) {
        carc_figure_info fi;
        if (api->figure(ctx, f, &fi) == CARC_AT_TILE && fi.kind == kind) return fi.tile;
    }
    return -1;
}

/* ARK-13: a Prophet on any free city segment of the placed tile; after a
 * portal tile also on other tiles (PD-13). */
static int on_offer(carc_ctx *ctx, carc_event *ev)
{
    int t = ev->tile, p = ev->player;
    if (t < 0 || p < 0 || api->supply(ctx, p, ID->prophet) <= 0) return 0;
    if (offer_cities(ctx, t, OPT_DEPLOY) < 0) return -1;
    int portal = api->tile_mark(ctx, "portal");
    if (portal < 0 || api->type_has_mark(ctx, api->tile_type(ctx, t), portal) <= 0) return 0;
    int nt = api->tiles(ctx), dragon = figure_tile(ctx, "dragon");
    for (int u = 0; u < nt; u++)
        if (u != t && u != dragon && offer_cities(ctx, u, OPT_PORTAL) < 0) return -1;
    return 0;
}

static int format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    char seg[64];
    int x, y;
    if ((opt->code != OPT_DEPLOY && opt->code != OPT_PORTAL) ||
        api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0 || api->tile_pos(ctx, opt->tile, &x, &y) < 0)
        return -1;
    if (opt->code == OPT_PORTAL) snprintf(buf, n, "deploy prophet %s at %d,%d", seg, x, y);
    else snprintf(buf, n, "deploy prophet %s", seg);
    return 0;
}

static int apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    if (opt->code != OPT_DEPLOY && opt->code != OPT_PORTAL) return api->fail(ctx, "unknown option");
    return api->figure_place(ctx, ID->prophet, player, CARC_AT_SEGMENT, opt->tile, opt->seg, 0, 1) < 0 ? -1 : 0;
}

/* ARK-14: the completed city's awards are in the batch; the owner of a
 * Prophet standing in it, if among the majority, scores double. Not in final
 * scoring (ARK-16). */
static int on_scored(carc_ctx *ctx, carc_event *ev)
{
    const prophet_ids *id = ID;
    if (ev->flags || api->feature_kind(ctx, ev->feature) != id->city || api->feature_complete(ctx, ev->feature) != 1)
        return 0;
    int doubled[CARC_MAX_PLAYERS] = {0};
    int nf = api->figures(ctx);
    for (int f = 0; f < nf; f++) {
        carc_figure_info fi;
        if (api->figure(ctx, f, &fi) != CARC_AT_SEGMENT || fi.kind != id->prophet || fi.seat < 0 ||
            fi.seat >= CARC_MAX_PLAYERS || doubled[fi.seat] || api->feature(ctx, fi.tile, fi.seg) != ev->feature)
            continue;
        doubled[fi.seat] = 1;
        int nb = api->batch_count(ctx);
        for (int i = 0; i < nb; i++) {
            carc_award *a = api->batch_at(ctx, i);
            if (a && a->feature == ev->feature && a->player == fi.seat && a->reason == id->reason_city &&
                !(a->flags & CARC_AWARD_BONUS)) {
                a->points *= 2;
                break;
            }
        }
    }
    return 0;
}

static int game_init(carc_ctx *ctx)
{
    prophet_ids *id = ID;
    id->prophet = api->figure_kind(ctx, "prophet");
    id->city = api->kind(ctx, "city");
    id->reason_city = api->reason(ctx, "city");
    return 0;
}

static int init(carc_ctx *ctx)
{
    if (api->define_figure(ctx, "prophet", 1, CARC_FIGURE_FOLLOWER | CARC_FIGURE_BOXED_WHEN_SCORED) < 0 ||
        api->kind(ctx, "city") < 0 || api->reason(ctx, "city") < 0)
        return -1;
    if (api->set_state(ctx, sizeof(prophet_ids), game_init) < 0 || api->set_option_fns(ctx, format, apply) < 0)
        return -1;
    if (api->on(ctx, CARC_EV_ACTION_OFFER, on_offer, NULL) < 0 ||
        api->on(ctx, CARC_EV_FEATURE_SCORED, on_scored, NULL) < 0)
        return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "prophet";
    desc->version = "1.0";
    desc->description = "the Prophet: deployed once on a city, counts as one follower, doubles its owner's city score";
    desc->init = init;
    return 0;
}
