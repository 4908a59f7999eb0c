/* strength: a test plugin for API version 4's figure and majority gaps.
 *   - `floor`, a figure kind whose supply depends on the number of players
 *     (10, 9, 7, 6, 5 for 2 to 6 players, as the Tower's floors);
 *   - `mayor`, a follower on cities declared with strength 0
 *     (CARC_FIGURE_STRENGTH_ZERO): a feature-majority handler gives it one
 *     strength a pennant of its city;
 *   - a phase after the score phase that asks feature_majority of the
 *     placed tile's first city (nothing scored) and keeps the answer. */
#include <string.h>

#include "carc_plugin.h"

static const carc_api *api;
static int kind_mayor, kind_city, mark_pennant;

typedef struct strength_state {
    int probes;                        /* feature_majority calls */
    int best;                          /* its last answer */
    int strengths[CARC_MAX_PLAYERS];   /* ... and each player's strength */
} strength_state;

static int on_majority(carc_ctx *ctx, carc_event *ev)
{
    if (api->feature_kind(ctx, ev->feature) != kind_city) return 0;
    int pennants = api->feature_marks(ctx, ev->feature, mark_pennant);
    for (int f = 0; f < api->figures(ctx); f++) {
        carc_figure_info fi;
        if (api->figure(ctx, f, &fi) < 0 || fi.where != CARC_AT_SEGMENT || fi.kind != kind_mayor) continue;
        if (api->feature(ctx, fi.tile, fi.seg) != ev->feature) continue;
        int s = api->majority_strength(ctx, fi.seat);
        if (api->set_majority_strength(ctx, fi.seat, s + pennants) < 0) return -1;
    }
    return 0;
}

static int probe(carc_ctx *ctx, int call)
{
    (void)call;
    strength_state *st = api->state(ctx);
    int t = api->placed_tile(ctx);
    if (t < 0) return CARC_PHASE_DONE;
    for (int s = 0; s < api->segments(ctx, t); s++) {
        if (api->segment_kind(ctx, t, s) != kind_city) continue;
        st->best = api->feature_majority(ctx, api->feature(ctx, t, s), 0, st->strengths);
        if (st->best < 0) return -1;
        st->probes++;
        break;
    }
    return CARC_PHASE_DONE;
}

static int init(carc_ctx *ctx)
{
    static const carc_figure_kind_def floor = {"floor", 0, 0, 1, NULL};
    static const carc_figure_kind_def mayor = {
        "mayor", 1, CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE | CARC_FIGURE_STRENGTH_ZERO, 0, "city"};
    static const int floors[] = {0, 0, 10, 9, 7, 6, 5};
    int k = api->define_figure_kind(ctx, &floor);
    if (k < 0) return -1;
    for (int n = 2; n <= CARC_MAX_PLAYERS; n++)
        if (api->set_supply_by_players(ctx, k, n, floors[n]) < 0) return -1;
    if ((kind_mayor = api->define_figure_kind(ctx, &mayor)) < 0) return -1;
    kind_city = api->kind(ctx, "city");
    mark_pennant = api->mark(ctx, "pennant");
    if (api->set_state(ctx, sizeof(strength_state), NULL) < 0) return -1;
    if (api->on(ctx, CARC_EV_FEATURE_MAJORITY, on_majority, NULL) < 0) return -1;
    return api->add_phase(ctx, "strength-probe", "after", "score", probe, NULL) < 0 ? -1 : 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "strength";
    desc->version = "1";
    desc->description = "supplies by players, strength 0, the majority without scoring (tests)";
    desc->init = init;
    return 0;
}
