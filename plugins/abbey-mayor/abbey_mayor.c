/* abbey-mayor: Abbey & Mayor, 1st edition (rules AM-1 to AM-13,
 * docs/abbey-mayor.md), usable in any variant; its 12 land tiles and the
 * abbey tile are the tile set `abbey-mayor` (tiles/abbey-mayor.ini).
 *
 *  - The abbey (AM-1 to AM-4): each player holds one abbey tile outside the
 *    pile (held tiles) and may place it instead of drawing, only in a space
 *    whose four neighbours are placed (a place-filter veto: nothing else is
 *    ever offered). Its edges are of the kind `abbey-wall`, which the tile
 *    set declares wild (`abbey-wall:A:wild`): they fit every edge and close
 *    the feature facing them. Its middle is a cloister that takes a monk.
 *  - The mayor (AM-5, AM-6): a follower that stands only in cities, whose
 *    strength in a city's majority is the city's pennants (0 without):
 *    declared with CARC_FIGURE_STRENGTH_ZERO, given its pennants in
 *    feature-majority.
 *  - The wagon (AM-7, AM-8): a follower on roads, cities and cloisters.
 *    After the feature it stands on is scored in a turn, its owner may put
 *    it on an unfinished, unoccupied road, city or cloister that touches
 *    that feature on one of the feature's tiles (the tile sets' `touches`
 *    data: a road ending at a city, a cloister or a junction), or leave it
 *    in the supply (`pass`); the owners choose in turn order from the
 *    active player, in the phase `wagon` after the score phase.
 *  - The barn (AM-9 to AM-12): instead of deploying a follower, a player
 *    may stand the barn on a corner of the tile just placed where four
 *    fields meet (CARC_AT_CORNER, corner_feature), on a field without a
 *    barn. The field's farmers score at once, 3 points a completed city to
 *    the majority, and go home; no farmer may then be deployed on that
 *    field; farmers whose field is later joined to it score 1 point a
 *    completed city (majority) and go home in that turn's scoring; at the
 *    end the barns' majority scores 4 points a completed city.
 *  - The last round of abbeys (AM-13): after the last tile of the pile,
 *    the players who still hold an abbey may place it in a hole, in turn
 *    order, with a monk (the end phase `abbey-final`); what it completes
 *    is scored at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc_plugin.h"

static const carc_api *api;

enum { OPT_BARN = 1, OPT_WAGON, OPT_WAGON_PASS, OPT_FINAL_ABBEY, OPT_FINAL_MONK, OPT_FINAL_PASS };

/* Ids of names in the rules that loaded the plugin (looked up once they
 * are complete: the tile set loads after the plugin). */
typedef struct am_ids {
    int road, city, field, cloister;          /* kinds */
    int pennant;                              /* mark */
    int mayor, wagon, barn, follower;         /* figure kinds */
    int r_farm, r_barn;                       /* reasons */
    int abbey;                                /* the abbey's tile type */
} am_ids;

#define MAX_WAGONS (2 * CARC_MAX_PLAYERS)

/* What changes during a game: the wagons whose feature was scored this
 * turn, waiting for their owners' choice (in seat order from the active
 * player), and which of them is asked next. */
typedef struct am_state {
    int nwagons, next;
    int wagon_seat[MAX_WAGONS];
    int wagon_feature[MAX_WAGONS];
    /* The last round of abbeys (AM-13): seats asked so far, and the abbey
     * just placed there whose player may deploy a monk (-1: none). */
    int final_asked, final_abbey;
} am_state;

static const am_ids *ids(carc_ctx *ctx) { return api->plugin_data(ctx); }
static am_state *st(carc_ctx *ctx) { return api->state(ctx); }

/* ---- the abbey (AM-1 to AM-4) ------------------------------------------- */

/* AM-1: one abbey into each player's hand; the copies for absent players
 * leave the game. */
static int on_game_start(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    int abbey = ids(ctx)->abbey;
    for (int seat = 0; seat < api->players(ctx); seat++)
        if (api->pile_take(ctx, abbey) == 0 && api->give_tile(ctx, seat, abbey) < 0) return -1;
    while (api->pile_take(ctx, abbey) == 0) {
    }
    return 0;
}

static int holds_abbey(carc_ctx *ctx, int seat)
{
    int n = api->held_tiles(ctx, seat);
    for (int i = 0; i < n; i++)
        if (api->held_tile(ctx, seat, i) == ids(ctx)->abbey) return 1;
    return 0;
}

/* AM-2: the abbey instead of drawing (the kernel poses it with draw-tile). */
static int on_place_offer(carc_ctx *ctx, carc_event *ev)
{
    if (!(ev->flags & CARC_PLACE_BEFORE_DRAW) || !holds_abbey(ctx, ev->player)) return 0;
    return api->offer_placements(ctx, ids(ctx)->abbey) < 0 ? -1 : 0;
}

/* AM-2: only in a hole, a space with four placed neighbours; its four
 * turns are one tile (r0 only). */
static int on_place_filter(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    int n = api->offered(ctx);
    for (int i = 0; i < n; i++) {
        int type, x, y, rot;
        if (api->placement_of(ctx, api->offered_at(ctx, i), &type, &x, &y, &rot) < 0 || type != ids(ctx)->abbey)
            continue;
        int hole = api->tile_at(ctx, x, y - 1) >= 0 && api->tile_at(ctx, x + 1, y) >= 0 &&
                   api->tile_at(ctx, x, y + 1) >= 0 && api->tile_at(ctx, x - 1, y) >= 0;
        if (!hole || rot != 0) api->veto(ctx, i);
    }
    return 0;
}

/* ---- the mayor (AM-5, AM-6) ------------------------------------------------- */

static int on_feature_majority(carc_ctx *ctx, carc_event *ev)
{
    const am_ids *s = ids(ctx);
    if (api->feature_kind(ctx, ev->feature) != s->city) return 0;
    int pennants = api->feature_marks(ctx, ev->feature, s->pennant);
    if (pennants <= 0) return 0;
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++) {
        if (api->figure(ctx, f, &fi) != CARC_AT_SEGMENT || fi.kind != s->mayor || fi.seat < 0) continue;
        if (api->feature(ctx, fi.tile, fi.seg) != ev->feature) continue;
        api->set_majority_strength(ctx, fi.seat, api->majority_strength(ctx, fi.seat) + pennants);
    }
    return 0;
}

/* ---- the barn (AM-9 to AM-12) ------------------------------------------- */

/* The field a barn stands on, or -1. */
static int barn_field(carc_ctx *ctx, const carc_figure_info *fi)
{
    return api->corner_feature(ctx, fi->tile, fi->space, ids(ctx)->field);
}

static int field_has_barn(carc_ctx *ctx, int field)
{
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++)
        if (api->figure(ctx, f, &fi) == CARC_AT_CORNER && fi.kind == ids(ctx)->barn && barn_field(ctx, &fi) == field)
            return 1;
    return 0;
}

/* The completed cities a field borders. */
static int completed_cities(carc_ctx *ctx, int field)
{
    int cities[256], n = api->feature_borders(ctx, field, cities, 256), done = 0;
    for (int i = 0; i < n && i < 256; i++) done += api->feature_complete(ctx, cities[i]) > 0;
    return done;
}

/* The field's farmers score `per_city` a completed city for the majority
 * (a scoring step of its own), then go home. A field with a barn scores
 * again and again (AM-10 to AM-12), so its awards name no feature: each
 * stands alone in the event log. */
static int score_farmers(carc_ctx *ctx, int field, int per_city)
{
    int strength[CARC_MAX_PLAYERS] = {0};
    int best = api->feature_majority(ctx, field, 0, strength);
    if (best < 0) return -1;
    int points = per_city * completed_cities(ctx, field);
    /* A field worth nothing awards nothing (as the kernel's farms). */
    if (best > 0 && points > 0) {
        api->step_begin(ctx);
        if (api->batch_begin(ctx) < 0) return -1;
        for (int p = 0; p < api->players(ctx); p++)
            if (strength[p] == best && api->batch_add(ctx, p, points, ids(ctx)->r_farm, -1, 0) < 0) return -1;
        if (api->batch_commit(ctx, api->active_player(ctx)) < 0 || api->step_end(ctx) < 0) return -1;
    }
    return api->return_followers(ctx, field) < 0 ? -1 : 0;
}

static int on_action_offer(carc_ctx *ctx, carc_event *ev)
{
    const am_ids *s = ids(ctx);
    int tile = api->placed_tile(ctx);
    if (tile < 0 || api->supply(ctx, ev->player, s->barn) <= 0) return 0;
    for (int c = 0; c < CARC_CORNERS; c++) {
        int field = api->corner_feature(ctx, tile, c, s->field);
        if (field < 0 || field_has_barn(ctx, field)) continue;
        carc_option o = {0};
        o.code = OPT_BARN;
        o.tile = tile;
        o.seg = -1;
        o.arg[0] = c;
        if (api->offer(ctx, &o) < 0) return -1;
    }
    return 0;
}

/* AM-11: no follower deployed on a field with a barn. */
static int on_action_filter(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    const am_ids *s = ids(ctx);
    int n = api->offered(ctx);
    for (int i = 0; i < n; i++) {
        const carc_option *o = api->offered_at(ctx, i);
        if (o->owner != 0 || o->tile < 0 || o->seg < 0 || api->segment_kind(ctx, o->tile, o->seg) != s->field) continue;
        char text[128];
        if (api->option_text(ctx, o, text, sizeof text) < 0 || strncmp(text, "deploy ", 7) != 0) continue;
        if (field_has_barn(ctx, api->feature(ctx, o->tile, o->seg))) api->veto(ctx, i);
    }
    return 0;
}

static int barn_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    const am_ids *s = ids(ctx);
    int field = api->corner_feature(ctx, opt->tile, opt->arg[0], s->field);
    if (field < 0 || field_has_barn(ctx, field)) return api->fail(ctx, "abbey-mayor: no barn can stand there");
    if (api->figure_place(ctx, s->barn, player, CARC_AT_CORNER, opt->tile, -1, opt->arg[0], 1) < 0) return -1;
    return score_farmers(ctx, field, 3); /* AM-10 */
}

/* AM-11: farmers whose field was joined to a barn's this turn. */
static int on_score(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    const am_ids *s = ids(ctx);
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++) {
        if (api->figure(ctx, f, &fi) != CARC_AT_CORNER || fi.kind != s->barn) continue;
        int field = barn_field(ctx, &fi), farmers = 0;
        if (field < 0) continue;
        for (int p = 0; p < api->players(ctx); p++) farmers += api->feature_followers(ctx, field, p);
        if (farmers > 0 && score_farmers(ctx, field, 1) < 0) return -1;
    }
    return 0;
}

/* AM-12: at the end, each field's barns: 4 points a completed city to the
 * players with the most barns there. */
static int on_final_score(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    const am_ids *s = ids(ctx);
    int fields[64], counts[64][CARC_MAX_PLAYERS], nfields = 0;
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++) {
        if (api->figure(ctx, f, &fi) != CARC_AT_CORNER || fi.kind != s->barn || fi.seat < 0) continue;
        int field = barn_field(ctx, &fi), i = 0;
        if (field < 0) continue;
        while (i < nfields && fields[i] != field) i++;
        if (i == nfields) {
            if (nfields == 64) return api->fail(ctx, "abbey-mayor: more than 64 fields with barns");
            fields[nfields] = field;
            memset(counts[nfields], 0, sizeof counts[nfields]);
            nfields++;
        }
        counts[i][fi.seat]++;
    }
    if (nfields == 0) return 0;
    api->step_begin(ctx);
    if (api->batch_begin(ctx) < 0) return -1;
    for (int i = 0; i < nfields; i++) {
        int best = 0;
        for (int p = 0; p < api->players(ctx); p++) best = counts[i][p] > best ? counts[i][p] : best;
        int points = 4 * completed_cities(ctx, fields[i]);
        if (points == 0) continue;
        for (int p = 0; p < api->players(ctx); p++)
            if (counts[i][p] == best && api->batch_add(ctx, p, points, s->r_barn, -1, CARC_AWARD_FINAL) < 0)
                return -1;
    }
    if (api->batch_commit(ctx, 0) < 0) return -1;
    return api->step_end(ctx) < 0 ? -1 : 0;
}

/* ---- the wagon (AM-7, AM-8) --------------------------------------------- */

/* AM-7: the wagons on a feature scored during a turn wait for their move. */
static int on_feature_scored(carc_ctx *ctx, carc_event *ev)
{
    if (ev->flags & 1) return 0; /* final scoring: the game is over */
    const am_ids *s = ids(ctx);
    am_state *w = st(ctx);
    carc_figure_info fi;
    for (int f = 0; f < api->figures(ctx); f++) {
        if (api->figure(ctx, f, &fi) != CARC_AT_SEGMENT || fi.kind != s->wagon || fi.seat < 0) continue;
        if (api->feature(ctx, fi.tile, fi.seg) != ev->feature || w->nwagons == MAX_WAGONS) continue;
        w->wagon_seat[w->nwagons] = fi.seat;
        w->wagon_feature[w->nwagons] = ev->feature;
        w->nwagons++;
    }
    return 0;
}

static int on_turn_start(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    st(ctx)->nwagons = st(ctx)->next = 0;
    st(ctx)->final_asked = 0;
    st(ctx)->final_abbey = -1;
    return 0;
}

static int occupied(carc_ctx *ctx, int feature)
{
    for (int p = 0; p < api->players(ctx); p++)
        if (api->feature_followers(ctx, feature, p) > 0) return 1;
    return 0;
}

/* AM-8: the places a wagon on scored feature `from` may go: one option per
 * unfinished, unoccupied feature of a kind it stands on that touches
 * `from` on one of from's tiles, named by its first such segment. */
static int wagon_targets(carc_ctx *ctx, int from, carc_option *opts, int max)
{
    enum { MAX_SEGS_SEEN = 512 };
    int tiles[MAX_SEGS_SEEN], segs[MAX_SEGS_SEEN], seen[MAX_SEGS_SEEN];
    int n = api->feature_segments(ctx, from, tiles, segs, MAX_SEGS_SEEN), nopts = 0, nseen = 0;
    if (n > MAX_SEGS_SEEN) n = MAX_SEGS_SEEN;
    for (int i = 0; i < n; i++) {
        int touches = api->segment_touches(ctx, tiles[i], segs[i]);
        for (int j = 0; touches > 0 && j < 16; j++) {
            if (!(touches >> j & 1)) continue;
            int target = api->feature(ctx, tiles[i], j), k = 0;
            if (target < 0 || target == from) continue;
            while (k < nseen && seen[k] != target) k++;
            if (k < nseen) continue;
            if (nseen < MAX_SEGS_SEEN) seen[nseen++] = target;
            if (api->figure_kind_stands_on(ctx, ids(ctx)->wagon, api->feature_kind(ctx, target)) != 1 ||
                api->feature_complete(ctx, target) || occupied(ctx, target) || nopts == max)
                continue;
            opts[nopts] = (carc_option){0};
            opts[nopts].code = OPT_WAGON;
            opts[nopts].tile = tiles[i];
            opts[nopts].seg = j;
            nopts++;
        }
    }
    return nopts;
}

/* The phase `wagon` after `score`: each waiting wagon's owner, in seat
 * order from the active player, moves it or leaves it in the supply. */
static int wagon_phase(carc_ctx *ctx, int call)
{
    (void)call;
    am_state *w = st(ctx);
    int players = api->players(ctx), active = api->active_player(ctx);
    while (w->next < players) {
        int seat = (active + w->next) % players;
        w->next++;
        for (int i = 0; i < w->nwagons; i++) {
            if (w->wagon_seat[i] != seat || api->supply(ctx, seat, ids(ctx)->wagon) <= 0) continue;
            carc_option opts[65];
            int n = wagon_targets(ctx, w->wagon_feature[i], opts, 64);
            if (n == 0) continue;
            opts[n] = (carc_option){0};
            opts[n].code = OPT_WAGON_PASS;
            opts[n].tile = opts[n].seg = -1;
            if (api->ask(ctx, seat, "wagon", opts, n + 1) < 0) return -1;
            return CARC_PHASE_AGAIN;
        }
    }
    w->nwagons = 0;
    return CARC_PHASE_DONE;
}

/* ---- the last round of abbeys (AM-13) -------------------------------------- */

static int is_hole(carc_ctx *ctx, int x, int y)
{
    return api->tile_at(ctx, x, y) < 0 && api->tile_at(ctx, x, y - 1) >= 0 && api->tile_at(ctx, x + 1, y) >= 0 &&
           api->tile_at(ctx, x, y + 1) >= 0 && api->tile_at(ctx, x - 1, y) >= 0;
}

/* The kernel's kinds a placement outside a turn completes: scored here, as
 * the turn's score phase would (a step of its own), followers home. */
static int score_completed_around(carc_ctx *ctx, int tile, int seat)
{
    int x, y, features[128], n = 0;
    api->tile_pos(ctx, tile, &x, &y);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int t = api->tile_at(ctx, x + dx, y + dy);
            for (int s = 0; t >= 0 && s < api->segments(ctx, t); s++) {
                int f = api->feature(ctx, t, s), k = api->feature_kind(ctx, f), i = 0;
                if (k != ids(ctx)->road && k != ids(ctx)->city && k != ids(ctx)->cloister) continue;
                if (!api->feature_complete(ctx, f) || api->feature_scored(ctx, f) || !occupied(ctx, f)) continue;
                while (i < n && features[i] != f) i++;
                if (i == n && n < 128) features[n++] = f;
            }
        }
    if (n == 0) return 0;
    api->step_begin(ctx);
    if (api->batch_begin(ctx) < 0) return -1;
    for (int i = 0; i < n; i++)
        if (api->score_feature(ctx, features[i], 0) < 0) return -1;
    if (api->batch_commit(ctx, seat) < 0) return -1;
    for (int i = 0; i < n; i++)
        if (api->return_followers(ctx, features[i]) < 0) return -1;
    return api->step_end(ctx) < 0 ? -1 : 0;
}

/* The end phase `abbey-final`, before game-end: when the last tile of the
 * pile was placed, each player who still holds an abbey may place it in a
 * hole, in turn order from the player after the one who placed the last
 * tile, and deploy a monk on it. */
static int final_phase(carc_ctx *ctx, int call)
{
    (void)call;
    am_state *w = st(ctx);
    const am_ids *s = ids(ctx);
    if (api->pile_left(ctx) > 0) return CARC_PHASE_DONE; /* the game ended otherwise (`end`) */
    int players = api->players(ctx);
    if (w->final_abbey >= 0) { /* the monk, then the next player */
        int seat = (api->active_player(ctx) + w->final_asked) % players, tile = w->final_abbey;
        w->final_abbey = -1;
        carc_option opts[CARC_MAX_PLAYERS + 2];
        int n = 0, seg = -1;
        for (int i = 0; i < api->segments(ctx, tile); i++)
            if (api->segment_kind(ctx, tile, i) == s->cloister) seg = i;
        for (int k = 0; seg >= 0 && k < 16 && n < CARC_MAX_PLAYERS; k++) {
            int flags = api->figure_kind_flags(ctx, k);
            if (flags < 0 || !(flags & CARC_FIGURE_FOLLOWER) || !(flags & CARC_FIGURE_DEPLOYABLE) ||
                api->figure_kind_stands_on(ctx, k, s->cloister) != 1 || api->supply(ctx, seat, k) <= 0)
                continue;
            opts[n] = (carc_option){0};
            opts[n].code = OPT_FINAL_MONK;
            opts[n].tile = tile;
            opts[n].seg = seg;
            opts[n].arg[0] = k;
            n++;
        }
        if (n > 0) {
            opts[n] = (carc_option){0};
            opts[n].code = OPT_FINAL_PASS;
            opts[n].tile = opts[n].seg = -1;
            if (api->ask(ctx, seat, "monk", opts, n + 1) < 0) return -1;
            return CARC_PHASE_AGAIN;
        }
    }
    while (w->final_asked < players) {
        w->final_asked++;
        int seat = (api->active_player(ctx) + w->final_asked) % players;
        if (!holds_abbey(ctx, seat)) continue;
        carc_option opts[257];
        int n = 0;
        for (int t = 0; t < api->tiles(ctx) && n < 256; t++) {
            int x, y;
            api->tile_pos(ctx, t, &x, &y);
            static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
            for (int d = 0; d < 4 && n < 256; d++) {
                int hx = x + dx[d], hy = y + dy[d], dup = 0;
                if (!is_hole(ctx, hx, hy)) continue;
                for (int i = 0; i < n && !dup; i++) dup = opts[i].arg[0] == hx && opts[i].arg[1] == hy;
                if (dup) continue;
                opts[n] = (carc_option){0};
                opts[n].code = OPT_FINAL_ABBEY;
                opts[n].tile = opts[n].seg = -1;
                opts[n].arg[0] = hx;
                opts[n].arg[1] = hy;
                n++;
            }
        }
        if (n == 0) continue;
        opts[n] = (carc_option){0};
        opts[n].code = OPT_FINAL_PASS;
        opts[n].tile = opts[n].seg = -1;
        if (api->ask(ctx, seat, "abbey", opts, n + 1) < 0) return -1;
        return CARC_PHASE_AGAIN;
    }
    return CARC_PHASE_DONE;
}

static int final_abbey_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    const am_ids *s = ids(ctx);
    if (!is_hole(ctx, opt->arg[0], opt->arg[1]) || api->take_tile(ctx, player, s->abbey) < 0)
        return api->fail(ctx, "abbey-mayor: no abbey can be placed there");
    int t = api->place_tile(ctx, s->abbey, opt->arg[0], opt->arg[1], 0);
    if (t < 0) return -1;
    st(ctx)->final_abbey = t;
    return score_completed_around(ctx, t, player);
}

static int final_monk_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    if (api->figure_place(ctx, opt->arg[0], player, CARC_AT_SEGMENT, opt->tile, opt->seg, 0, 1) < 0) return -1;
    return score_completed_around(ctx, opt->tile, player); /* a full ring: the monk scores at once */
}

/* ---- options ----------------------------------------------------------------- */

static int apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    switch (opt->code) {
    case OPT_BARN: return barn_apply(ctx, opt, player);
    case OPT_WAGON:
        return api->figure_place(ctx, ids(ctx)->wagon, player, CARC_AT_SEGMENT, opt->tile, opt->seg, 0, 1) < 0 ? -1 : 0;
    case OPT_WAGON_PASS: return 0;
    case OPT_FINAL_ABBEY: return final_abbey_apply(ctx, opt, player);
    case OPT_FINAL_MONK: return final_monk_apply(ctx, opt, player);
    case OPT_FINAL_PASS: return 0;
    default: return api->fail(ctx, "abbey-mayor: unknown option");
    }
}

static int format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    static const char *const corners[CARC_CORNERS] = {"NW", "NE", "SE", "SW"};
    char seg[64];
    int x, y;
    switch (opt->code) {
    case OPT_BARN:
        if (opt->arg[0] < 0 || opt->arg[0] >= CARC_CORNERS) return -1;
        snprintf(buf, n, "deploy barn corner@%s", corners[opt->arg[0]]);
        return 0;
    case OPT_WAGON:
        if (api->tile_pos(ctx, opt->tile, &x, &y) < 0 || api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0)
            return -1;
        snprintf(buf, n, "wagon %d,%d %s", x, y, seg);
        return 0;
    case OPT_WAGON_PASS:
    case OPT_FINAL_PASS: snprintf(buf, n, "pass"); return 0;
    case OPT_FINAL_ABBEY: snprintf(buf, n, "place abbey-mayor:abbey %d,%d r0", opt->arg[0], opt->arg[1]); return 0;
    case OPT_FINAL_MONK: {
        const char *name = api->figure_kind_name(ctx, opt->arg[0]);
        if (!name || api->segment_name(ctx, opt->tile, opt->seg, seg, sizeof seg) < 0) return -1;
        snprintf(buf, n, "deploy %s %s", name, seg);
        return 0;
    }
    default: return -1;
    }
}

/* ---- registration ------------------------------------------------------------ */

static int rules_ready(carc_ctx *ctx)
{
    am_ids *s = api->plugin_data(ctx);
    s->road = api->kind(ctx, "road");
    s->city = api->kind(ctx, "city");
    s->field = api->kind(ctx, "field");
    s->cloister = api->kind(ctx, "cloister");
    s->pennant = api->mark(ctx, "pennant");
    s->mayor = api->figure_kind(ctx, "mayor");
    s->wagon = api->figure_kind(ctx, "wagon");
    s->barn = api->figure_kind(ctx, "barn");
    s->follower = api->figure_kind(ctx, "follower");
    s->r_farm = api->reason(ctx, "farm");
    s->r_barn = api->reason(ctx, "barn");
    s->abbey = api->tile_type_find(ctx, "abbey-mayor:abbey");
    if (s->abbey < 0) return api->fail(ctx, "abbey-mayor: the tile set abbey-mayor (with its tile abbey) is not loaded");
    return 0;
}

static int init(carc_ctx *ctx)
{
    /* AM-5: strength 0, given the city's pennants in feature-majority. */
    const carc_figure_kind_def mayor = {"mayor", 1,
                                        CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE | CARC_FIGURE_STRENGTH_ZERO, 0,
                                        "city"};
    const carc_figure_kind_def wagon = {"wagon", 1, CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE, 1,
                                        "road city cloister"};
    /* The barn stands on corners, which the plugin offers: no follower of
     * the kernel's, in no feature's majority. */
    const carc_figure_kind_def barn = {"barn", 1, 0, 1, NULL};
    if (api->define_figure_kind(ctx, &mayor) < 0 || api->define_figure_kind(ctx, &wagon) < 0 ||
        api->define_figure_kind(ctx, &barn) < 0)
        return -1;
    /* The abbey's edges: the tile set gives them the letter A, wild. */
    if (api->define_kind(ctx, "abbey-wall", CARC_COMPLETE_NEVER, 0) < 0) return -1;
    if (api->define_reason(ctx, "barn") < 0) return -1;
    am_ids *s = calloc(1, sizeof *s);
    if (!s || api->set_plugin_data(ctx, s, free) < 0) {
        free(s);
        return -1;
    }
    if (api->set_rules_ready(ctx, rules_ready) < 0 || api->set_state(ctx, sizeof(am_state), NULL) < 0 ||
        api->set_option_fns(ctx, format, apply) < 0)
        return -1;
    if (api->on(ctx, CARC_EV_GAME_START, on_game_start, NULL) < 0 ||
        api->on(ctx, CARC_EV_TURN_START, on_turn_start, NULL) < 0 ||
        api->on(ctx, CARC_EV_PLACE_OFFER, on_place_offer, NULL) < 0 ||
        api->on(ctx, CARC_EV_PLACE_FILTER, on_place_filter, NULL) < 0 ||
        api->on(ctx, CARC_EV_FEATURE_MAJORITY, on_feature_majority, NULL) < 0 ||
        api->on(ctx, CARC_EV_ACTION_OFFER, on_action_offer, NULL) < 0 ||
        api->on(ctx, CARC_EV_ACTION_FILTER, on_action_filter, NULL) < 0 ||
        api->on(ctx, CARC_EV_FEATURE_SCORED, on_feature_scored, NULL) < 0 ||
        api->on(ctx, CARC_EV_SCORE, on_score, NULL) < 0 ||
        api->on(ctx, CARC_EV_FINAL_SCORE, on_final_score, NULL) < 0 ||
        api->add_phase(ctx, "wagon", "after", "score", wagon_phase, NULL) < 0 ||
        api->add_phase(ctx, "abbey-final", "before", "game-end", final_phase, NULL) < 0)
        return -1;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "abbey-mayor";
    desc->version = "1.0";
    desc->description = "Abbey & Mayor (1st edition): the abbey, the mayor, the wagon, the barn";
    desc->init = init;
    return 0;
}
