/* covenant: the features of The Ark of the Covenant (rules ARK-5 to ARK-12,
 * ARK-22) on the `ark` tile set:
 *
 *  - the kind `temple`, complete when its tile has all four orthogonal
 *    neighbours (ARK-9). No follower stands on a temple (ARK-5) unless
 *    covenant.follower-on-temple=yes (German edition).
 *  - a completed temple scores 7 to the majority of followers on its tile and
 *    its four neighbours, after the roads and cities that the same tile
 *    completed have been scored and their followers returned (ARK-10). Nobody
 *    returns (ARK-11), except a follower standing on the temple itself.
 *    covenant.ark-doubles-temple=yes: 14 when the Ark stands on the temple's
 *    tile (ARK-12).
 *  - final scoring: incomplete temples 3 each, before roads and cities
 *    (ARK-22, step 1).
 *  - oases +1 on roads, scrolls +2 in completed cities and +1 in incomplete
 *    ones (ARK-6, ARK-7, ARK-22), and fields worth 2 per sheep left after each
 *    wolf has eaten one, never below 0, whatever the cities (ARK-8, ARK-22).
 *
 * A "follower" for the temple majority is any follower kind a player has
 * standing on a segment of those tiles, counted with its strength:
 * followers and Prophets 1 each (ARK-10, ARK-13), another expansion's large
 * follower 2; figures that are not followers (a builder, a pig) do not count.
 */
#include <stdio.h>
#include <stdlib.h>

#include "carc_plugin.h"

static const carc_api *api;

#define MAX_TURN_TEMPLES 8

/* Ids of names, the plugin's data in the rules that loaded it (another
 * variant, loaded in the same process, may number its kinds and marks
 * otherwise): looked up once the rules are complete, since the tile set
 * defining the marks and the script defining the Ark load after the
 * plugins. */
typedef struct cov_ids {
    int road, city, field, temple;
    int oasis, scroll, sheep, wolf;
    int reason_temple;
    int ark; /* the figure kind "ark" of the Ark's script, -1 without it */
} cov_ids;

/* The game state: the temples this turn's tile completed. */
typedef struct cov_state {
    int ntemples;
    int temples[MAX_TURN_TEMPLES];
} cov_state;

enum { TEMPLE_COMPLETE = 7, TEMPLE_INCOMPLETE = 3 };

static cov_state *st(carc_ctx *ctx) { return api->state(ctx); }
#define ID ((const cov_ids *)api->plugin_data(ctx))

static int temple_tile(carc_ctx *ctx, int feature)
{
    int tile = -1, seg = -1;
    if (api->feature_segments(ctx, feature, &tile, &seg, 1) < 1) return -1;
    return tile;
}

/* Followers (with their strength) on the temple's tile and
 * on its present cross neighbours. */
static void temple_counts(carc_ctx *ctx, int tile, int counts[CARC_MAX_PLAYERS])
{
    int x, y, area[5], n = 0;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) counts[p] = 0;
    if (api->tile_pos(ctx, tile, &x, &y) < 0) return;
    area[n++] = tile;
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; d++) {
        int t = api->tile_at(ctx, x + dx[d], y + dy[d]);
        if (t >= 0) area[n++] = t;
    }
    int nf = api->figures(ctx);
    for (int f = 0; f < nf; f++) {
        carc_figure_info fi;
        if (api->figure(ctx, f, &fi) != CARC_AT_SEGMENT || fi.seat < 0 || fi.seat >= CARC_MAX_PLAYERS) continue;
        if (!(api->figure_kind_flags(ctx, fi.kind) & CARC_FIGURE_FOLLOWER)) continue; /* a builder, a pig */
        for (int i = 0; i < n; i++)
            if (fi.tile == area[i]) {
                counts[fi.seat] += api->figure_kind_strength(ctx, fi.kind);
                break;
            }
    }
}

/* Whether the Ark (a neutral figure of kind "ark", if any plugin defines
 * one) stands on the tile. */
static int ark_on_tile(carc_ctx *ctx, int tile)
{
    int ark = ID->ark;
    if (ark < 0) return 0;
    for (int f = api->figure_next_on_tile(ctx, tile, -1); f >= 0; f = api->figure_next_on_tile(ctx, tile, f)) {
        carc_figure_info fi;
        if (api->figure(ctx, f, &fi) == CARC_AT_TILE && fi.kind == ark) return 1;
    }
    return 0;
}

/* Adds the temple's awards to the batch: `points` to each player of the
 * majority. */
static int temple_into_batch(carc_ctx *ctx, int feature, int points, int flags)
{
    int tile = temple_tile(ctx, feature);
    if (tile < 0) return api->fail(ctx, "a temple without a tile");
    int counts[CARC_MAX_PLAYERS], best = 0, np = api->players(ctx);
    temple_counts(ctx, tile, counts);
    for (int p = 0; p < np; p++)
        if (counts[p] > best) best = counts[p];
    if (best == 0) return 0;
    if (flags == 0 && api->option(ctx, "ark-doubles-temple") == 1 && ark_on_tile(ctx, tile)) points *= 2;
    for (int p = 0; p < np; p++)
        if (counts[p] == best && api->batch_add(ctx, p, points, ID->reason_temple, feature, flags) < 0) return -1;
    return 0;
}

/* ---- events ------------------------------------------------------------------ */

static int on_turn_start(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    st(ctx)->ntemples = 0;
    return 0;
}

static int on_completed(carc_ctx *ctx, carc_event *ev)
{
    if (api->feature_kind(ctx, ev->feature) != ID->temple) return 0;
    cov_state *s = st(ctx);
    if (s->ntemples >= MAX_TURN_TEMPLES) return api->fail(ctx, "too many temples completed by one tile");
    s->temples[s->ntemples++] = ev->feature;
    return 0;
}

/* The kernel has scored the roads and cities this tile completed and returned
 * their followers: now the temples (ARK-10, ARK-11). */
static int on_score(carc_ctx *ctx, carc_event *ev)
{
    cov_state *s = st(ctx);
    if (s->ntemples == 0) return 0;
    if (api->batch_begin(ctx) < 0) return -1;
    for (int i = 0; i < s->ntemples; i++)
        if (temple_into_batch(ctx, s->temples[i], TEMPLE_COMPLETE, 0) < 0) return -1;
    if (api->batch_commit(ctx, ev->player) < 0) return -1;
    if (api->option(ctx, "follower-on-temple") == 1)
        for (int i = 0; i < s->ntemples; i++)
            if (api->return_followers(ctx, s->temples[i]) < 0) return -1;
    s->ntemples = 0;
    return 0;
}

/* ARK-5: the kernel offers deploys on temples (the kind is deployable so the
 * German option can allow them); without the option they are vetoed. */
static int on_filter(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    if (api->option(ctx, "follower-on-temple") == 1) return 0;
    int n = api->offered(ctx);
    for (int i = 0; i < n; i++) {
        const carc_option *o = api->offered_at(ctx, i);
        if (o && o->tile >= 0 && o->seg >= 0 && api->segment_kind(ctx, o->tile, o->seg) == ID->temple &&
            api->veto(ctx, i) < 0)
            return -1;
    }
    return 0;
}

/* ARK-6, ARK-7, ARK-22: oases, scrolls, sheep and wolves. */
static int on_value(carc_ctx *ctx, carc_event *ev)
{
    const cov_ids *id = ID;
    int kind = api->feature_kind(ctx, ev->feature), complete = ev->flags & 1;
    if (kind == id->road) {
        ev->value += api->feature_marks(ctx, ev->feature, id->oasis);
    } else if (kind == id->city) {
        int scrolls = api->feature_marks(ctx, ev->feature, id->scroll);
        /* A scroll is worth what a pennant is worth (small-city: 1). */
        int small = api->option(ctx, "small-city") == 1 && api->feature_tiles(ctx, ev->feature) == 2;
        ev->value += complete && !small ? 2 * scrolls : scrolls;
    } else if (kind == id->field) {
        int left = api->feature_marks(ctx, ev->feature, id->sheep) - api->feature_marks(ctx, ev->feature, id->wolf);
        ev->value = left > 0 ? 2 * left : 0;
    }
    return 0;
}

/* ---- end of the game ----------------------------------------------------------- */

/* ARK-22 step 1: every incomplete temple scores 3 to its majority, before
 * the kernel's incomplete roads and cities. */
static int phase_final_temples(carc_ctx *ctx, int step)
{
    (void)step;
    if (api->option(ctx, "incomplete-features") == 1) return CARC_PHASE_DONE; /* house rule: none */
    api->step_begin(ctx);
    if (api->batch_begin(ctx) < 0) return -1;
    int nt = api->tiles(ctx);
    for (int t = 0; t < nt; t++) {
        int ns = api->segments(ctx, t);
        for (int s = 0; s < ns; s++) {
            if (api->segment_kind(ctx, t, s) != ID->temple) continue;
            int f = api->feature(ctx, t, s);
            if (api->feature_complete(ctx, f) == 0 &&
                temple_into_batch(ctx, f, TEMPLE_INCOMPLETE, CARC_AWARD_FINAL) < 0)
                return -1;
        }
    }
    int first = api->active_player(ctx);
    if (api->batch_commit(ctx, first < 0 ? 0 : first) < 0) return -1;
    if (api->option(ctx, "follower-on-temple") == 1) {
        for (int t = 0; t < nt; t++) {
            int ns = api->segments(ctx, t);
            for (int s = 0; s < ns; s++)
                if (api->segment_kind(ctx, t, s) == ID->temple &&
                    api->return_followers(ctx, api->feature(ctx, t, s)) < 0)
                    return -1;
        }
    }
    return api->step_end(ctx) < 0 ? -1 : CARC_PHASE_DONE;
}

static int rules_ready(carc_ctx *ctx)
{
    cov_ids *id = api->plugin_data(ctx);
    id->road = api->kind(ctx, "road");
    id->city = api->kind(ctx, "city");
    id->field = api->kind(ctx, "field");
    id->temple = api->kind(ctx, "temple");
    id->oasis = api->mark(ctx, "oasis");
    id->scroll = api->mark(ctx, "scroll");
    id->sheep = api->mark(ctx, "sheep");
    id->wolf = api->mark(ctx, "wolf");
    id->reason_temple = api->reason(ctx, "temple");
    id->ark = api->figure_kind(ctx, "ark");
    return 0;
}

/* Farms scored per city (farm-scoring=per-city-once, city-majority) never
 * ask a field's value: sheep and wolves could not count. */
static int game_init(carc_ctx *ctx)
{
    int fs = api->option(ctx, "farm-scoring");
    if (fs == 2 || fs == 3)
        return api->fail(ctx, "fields score sheep and wolves in this game (ARK-22): farm-scoring must be "
                              "per-farm or none, not a per-city rule");
    return 0;
}

static int init(carc_ctx *ctx)
{
    if (api->define_option_enum(ctx, "follower-on-temple", "no yes",
                                "a follower may stand on a temple and returns when it is scored (ARK-5, German edition)") < 0 ||
        api->define_option_enum(ctx, "ark-doubles-temple", "no yes",
                                "a completed temple with the Ark on its tile scores 14 (ARK-12, German edition)") < 0)
        return -1;
    if (api->define_kind(ctx, "temple", CARC_COMPLETE_CROSS, CARC_KIND_DEPLOYABLE) < 0 ||
        api->reason(ctx, "temple") < 0 || api->define_mark(ctx, "oasis") < 0 || api->define_mark(ctx, "scroll") < 0 ||
        api->define_mark(ctx, "sheep") < 0 || api->define_mark(ctx, "wolf") < 0)
        return -1;
    cov_ids *id = calloc(1, sizeof *id);
    if (!id || api->set_plugin_data(ctx, id, free) < 0) {
        free(id);
        return -1;
    }
    if (api->set_rules_ready(ctx, rules_ready) < 0 || api->set_state(ctx, sizeof(cov_state), game_init) < 0)
        return -1;
    if (api->on(ctx, CARC_EV_TURN_START, on_turn_start, NULL) < 0 ||
        api->on(ctx, CARC_EV_FEATURE_COMPLETED, on_completed, NULL) < 0 ||
        api->on(ctx, CARC_EV_SCORE, on_score, NULL) < 0 || api->on(ctx, CARC_EV_ACTION_FILTER, on_filter, NULL) < 0 ||
        api->on(ctx, CARC_EV_FEATURE_VALUE, on_value, NULL) < 0)
        return -1;
    return api->add_phase(ctx, "covenant-final-temples", "before", "final-features", phase_final_temples, NULL) < 0
               ? -1
               : 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "covenant";
    desc->version = "1.0";
    desc->description = "The Ark of the Covenant: temples, oases, scrolls, sheep and wolves";
    desc->init = init;
    return 0;
}
