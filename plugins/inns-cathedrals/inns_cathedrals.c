/* inns-cathedrals: Inns & Cathedrals, 1st edition (rules IC-1 to IC-8,
 * docs/inns-cathedrals.md), usable in any variant; its 18 tiles are the tile
 * set `inns-cathedrals` (tiles/inns-cathedrals.ini).
 *
 *  - A road with an inn (segment mark `inn`) is worth 2 per tile when it is
 *    completed, nothing when it is incomplete at the end (IC-2, IC-3).
 *  - A city with a cathedral (segment mark `cathedral`) is worth 3 per tile
 *    and 3 per pennant when it is completed, nothing when it is incomplete
 *    at the end (IC-4, IC-5).
 *  - Those points are reported with the reasons `inn` and `cathedral`
 *    instead of `road` and `city`, so that `carc sim` shows them apart.
 *  - Each player has one large follower (figure kind `large-follower`): a
 *    follower kind of strength 2, deployed by the kernel wherever a follower
 *    may go (`deploy large-follower road@E`), also through the magic portal
 *    (IC-6, IC-7). The kernel counts its strength in every majority; the
 *    plugin only declares it.
 *
 * The values are changed in feature-value, which the kernel raises for
 * every scoring of a road or city and for the bots' estimates, by what the
 * inn or cathedral adds to the base game's value (another plugin's change,
 * an Ark oasis or scroll, is kept). The relabelling happens in score-before,
 * after every plugin has seen the award in the batch under its kernel reason.
 */
#include <stdlib.h>

#include "carc_plugin.h"

static const carc_api *api;

/* Ids of names, the plugin's data in the rules that loaded it (another
 * variant, loaded in the same process, may number its marks and reasons
 * otherwise): looked up once the rules are complete, since the tile sets
 * that define the marks load after the plugins. The plugin keeps no game
 * state. */
typedef struct ic_ids {
    int road, city;                       /* kinds */
    int inn, cathedral, pennant;          /* segment marks */
    int r_road, r_city, r_inn, r_cathedral; /* reasons */
} ic_ids;

static const ic_ids *ids(carc_ctx *ctx) { return api->plugin_data(ctx); }

/* IC-2 to IC-5: the value of a road with an inn or a city with a cathedral.
 * ev->value holds the value so far (the base game's: 1 per road tile; 2 per
 * city tile and pennant when complete, 1 when not); ev->flags is 1 for a
 * completed feature. */
static int on_value(carc_ctx *ctx, carc_event *ev)
{
    const ic_ids *s = ids(ctx);
    int kind = api->feature_kind(ctx, ev->feature);
    if (kind == s->road && api->feature_marks(ctx, ev->feature, s->inn) > 0) {
        if (ev->flags) ev->value += api->feature_tiles(ctx, ev->feature); /* 2 per tile (IC-2) */
        else ev->value = 0;                                               /* IC-3 */
    } else if (kind == s->city && api->feature_marks(ctx, ev->feature, s->cathedral) > 0) {
        if (ev->flags) /* 3 per tile and per pennant instead of 2 (IC-4) */
            ev->value += api->feature_tiles(ctx, ev->feature) + api->feature_marks(ctx, ev->feature, s->pennant);
        else
            ev->value = 0; /* IC-5 */
    }
    return 0;
}

/* A road's points with an inn are `inn` points, a city's with a cathedral
 * `cathedral` points. */
static int on_score_before(carc_ctx *ctx, carc_event *ev)
{
    const ic_ids *s = ids(ctx);
    carc_award *a = ev->award;
    if (a->feature < 0 || (a->reason != s->r_road && a->reason != s->r_city)) return 0;
    int kind = api->feature_kind(ctx, a->feature);
    if (a->reason == s->r_road && kind == s->road && api->feature_marks(ctx, a->feature, s->inn) > 0)
        a->reason = s->r_inn;
    else if (a->reason == s->r_city && kind == s->city && api->feature_marks(ctx, a->feature, s->cathedral) > 0)
        a->reason = s->r_cathedral;
    return 0;
}

static int rules_ready(carc_ctx *ctx)
{
    ic_ids *s = api->plugin_data(ctx);
    s->road = api->kind(ctx, "road");
    s->city = api->kind(ctx, "city");
    s->inn = api->mark(ctx, "inn");
    s->cathedral = api->mark(ctx, "cathedral");
    s->pennant = api->mark(ctx, "pennant");
    s->r_road = api->reason(ctx, "road");
    s->r_city = api->reason(ctx, "city");
    s->r_inn = api->reason(ctx, "inn");
    s->r_cathedral = api->reason(ctx, "cathedral");
    return 0;
}

static int init(carc_ctx *ctx)
{
    /* IC-6, IC-7: one per player, a follower counting 2, on every kind a
     * follower may stand on, sent home like a follower when scored. */
    const carc_figure_kind_def large = {"large-follower", 1, CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE, 2, NULL};
    if (api->define_figure_kind(ctx, &large) < 0) return -1;
    if (api->define_mark(ctx, "inn") < 0 || api->define_mark(ctx, "cathedral") < 0 ||
        api->define_reason(ctx, "inn") < 0 || api->define_reason(ctx, "cathedral") < 0)
        return -1;
    ic_ids *s = calloc(1, sizeof *s);
    if (!s || api->set_plugin_data(ctx, s, free) < 0) {
        free(s);
        return -1;
    }
    if (api->set_rules_ready(ctx, rules_ready) < 0) return -1;
    if (api->on(ctx, CARC_EV_FEATURE_VALUE, on_value, NULL) < 0 ||
        api->on(ctx, CARC_EV_SCORE_BEFORE, on_score_before, NULL) < 0)
        return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "inns-cathedrals";
    desc->version = "1.0";
    desc->description = "Inns & Cathedrals: inns on roads, cathedrals in cities, the large follower";
    desc->init = init;
    return 0;
}
