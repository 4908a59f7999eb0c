/* prophet: the Prophet of The Ark of the Covenant (rules ARK-13 to ARK-16),
 * usable in any variant.
 *
 * Each player has one Prophet: a follower kind (strength 1) that stands only
 * on cities and is deployable, so the kernel offers it like a follower,
 * instead of one, on a city segment of the tile just placed into a city
 * nobody occupies (BASE-8), and through a magic portal (PD-13, the
 * princess-dragon plugin) on another tile's unoccupied, incomplete city:
 *
 *     deploy prophet city@<port>
 *     deploy prophet city@<port> at <x>,<y>
 *
 * For majority it counts as one follower. When its city is completed and
 * scored, its owner's award is doubled if the owner is among the majority
 * (ARK-14); then the Prophet leaves the game (ARK-15: boxed when scored,
 * never back to the supply). It is used once: eaten by the dragon or removed
 * by the princess, it goes into the box as well (ARK-15). In final scoring it
 * counts as a follower, without doubling (ARK-16).
 */
#include <stdlib.h>

#include "carc_plugin.h"

static const carc_api *api;

/* Ids of names, the plugin's data in the rules that loaded it (they belong
 * to those rules: another variant in the same process may number them
 * otherwise), looked up once the rules are complete. No game state. */
typedef struct prophet_ids {
    int prophet, city, reason_city;
} prophet_ids;

#define ID ((prophet_ids *)api->plugin_data(ctx))

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

static int rules_ready(carc_ctx *ctx)
{
    prophet_ids *id = ID;
    id->prophet = api->figure_kind(ctx, "prophet");
    id->city = api->kind(ctx, "city");
    id->reason_city = api->reason(ctx, "city");
    return 0;
}

static int init(carc_ctx *ctx)
{
    static const carc_figure_kind_def prophet = {
        "prophet", 1,
        CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE | CARC_FIGURE_BOXED_WHEN_SCORED | CARC_FIGURE_BOXED_WHEN_REMOVED,
        1, "city"};
    if (api->define_figure_kind(ctx, &prophet) < 0 || api->reason(ctx, "city") < 0) return -1;
    prophet_ids *id = calloc(1, sizeof *id);
    if (!id || api->set_plugin_data(ctx, id, free) < 0) {
        free(id);
        return -1;
    }
    if (api->set_rules_ready(ctx, rules_ready) < 0) return -1;
    return api->on(ctx, CARC_EV_FEATURE_SCORED, on_scored, NULL) < 0 ? -1 : 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "prophet";
    desc->version = "2.0";
    desc->description = "the Prophet: deployed once on a city, counts as one follower, doubles its owner's city score";
    desc->init = init;
    return 0;
}
