/* trace: a test plugin that uses every event and capability of the API and
 * writes what happened into its game state. tests/scripts/trace.lua does the
 * same in Lua; test_plugins.c compares the two and checks the order.
 *
 * Log codes: GS game-start, TS turn-start, TD tile-drawn, TP tile-placed,
 * AO action-offer, AF action-filter, OC option-chosen, FC feature-completed,
 * FV feature-value, FS feature-scored, SB score-before, SA score-after,
 * SC score, SE score-step-end, FR figure-removed, TE turn-end, GE game-end,
 * FN final-score, PH the plugin's own phase, AP apply of its own option. */
#include <stdio.h>
#include <string.h>

#include "carc_plugin.h"

static const carc_api *api;
static int reason_bonus, fig_token, kind_city;

typedef struct trace_state {
    uint32_t hash;          /* rolling hash of every code, as trace.lua keeps */
    int events;
    int token;              /* figure id of the token, -1 */
    int asks;
    int len;
    char log[16384];
} trace_state;

static const char *const codes[CARC_EV_COUNT] = {"GS", "TS", "TD", "TP", "AO", "AF", "OC", "FC", "FV", "FS",
                                                 "SB", "SA", "SC", "SE", "FR", "TE", "GE", "FN", "FM", "AW"};

static void note(carc_ctx *ctx, const char *code)
{
    trace_state *s = api->state(ctx);
    for (const char *p = code; *p; p++) s->hash = s->hash * 31u + (uint8_t)*p;
    s->hash = s->hash * 31u + ' ';
    s->events++;
    int n = (int)strlen(code);
    if (s->len + n + 2 < (int)sizeof s->log) {
        memcpy(s->log + s->len, code, (size_t)n);
        s->log[s->len + n] = ' ';
        s->len += n + 1;
        s->log[s->len] = 0;
    }
}

enum { OPT_TOKEN = 1, OPT_YES, OPT_NO };

static int on_event(carc_ctx *ctx, carc_event *ev)
{
    note(ctx, codes[ev->type]);
    switch (ev->type) {
    case CARC_EV_ACTION_OFFER: {
        /* trace-token x,y: stand the token on the placed tile. */
        int t = api->placed_tile(ctx), x, y;
        if (t >= 0 && api->tile_pos(ctx, t, &x, &y) >= 0) {
            carc_option o = {0};
            o.code = OPT_TOKEN;
            o.tile = t;
            o.seg = -1;
            o.arg[0] = x;
            o.arg[1] = y;
            if (api->offer(ctx, &o) < 0) return -1;
        }
        break;
    }
    case CARC_EV_ACTION_FILTER:
        /* With trace.farmers=no, no follower goes onto a field. */
        if (api->option(ctx, "farmers") == 1)
            for (int i = 0; i < api->offered(ctx); i++) {
                const carc_option *o = api->offered_at(ctx, i);
                if (o->seg >= 0 && api->segment_kind(ctx, o->tile, o->seg) == api->kind(ctx, "field")) api->veto(ctx, i);
            }
        break;
    case CARC_EV_FEATURE_VALUE:
        /* trace.city-extra points on every city's value. */
        if (api->feature_kind(ctx, ev->feature) == kind_city) ev->value += api->option(ctx, "city-extra");
        break;
    case CARC_EV_SCORE_BEFORE:
        if (ev->award->reason == api->reason(ctx, "road")) ev->award->points += 0; /* seen, unchanged */
        break;
    case CARC_EV_TURN_START:
        /* A point at the start of every 10th turn, as its own scoring step. */
        if (api->turn(ctx) % 10 == 0) {
            api->step_begin(ctx);
            api->award(ctx, ev->player, 1, reason_bonus, -1, 0);
            api->step_end(ctx);
        }
        break;
    case CARC_EV_GAME_END: {
        trace_state *s = api->state(ctx);
        if (s->token >= 0) api->figure_remove(ctx, s->token, CARC_GONE_BOX);
        s->token = -1;
        break;
    }
    case CARC_EV_FINAL_SCORE: {
        /* One batch: a point to everyone, in seat order from seat 0. */
        api->step_begin(ctx);
        api->batch_begin(ctx);
        for (int p = 0; p < api->players(ctx); p++) api->batch_add(ctx, p, 1, reason_bonus, -1, 0);
        api->batch_commit(ctx, 0);
        api->step_end(ctx);
        break;
    }
    default:
        break;
    }
    return 0;
}

/* A phase after "place": the next player answers yes or no. */
static int phase(carc_ctx *ctx, int step)
{
    note(ctx, "PH");
    if (step > 0 || api->turn(ctx) % 3 != 0) return CARC_PHASE_DONE;
    carc_option o[2] = {{0}, {0}};
    o[0].code = OPT_YES;
    o[0].tile = o[0].seg = -1;
    o[1].code = OPT_NO;
    o[1].tile = o[1].seg = -1;
    int next = (api->active_player(ctx) + 1) % api->players(ctx);
    if (api->ask(ctx, next, "trace", o, 2) < 0) return -1;
    return CARC_PHASE_AGAIN;
}

static int format(carc_ctx *ctx, const carc_option *o, char *buf, size_t n)
{
    (void)ctx;
    switch (o->code) {
    case OPT_TOKEN: return snprintf(buf, n, "trace-token %d,%d", o->arg[0], o->arg[1]);
    case OPT_YES: return snprintf(buf, n, "trace yes");
    case OPT_NO: return snprintf(buf, n, "trace no");
    default: return -1;
    }
}

static int apply(carc_ctx *ctx, const carc_option *o, int player)
{
    note(ctx, "AP");
    trace_state *s = api->state(ctx);
    if (o->code == OPT_TOKEN) {
        if (s->token < 0) s->token = api->figure_place(ctx, fig_token, -1, CARC_AT_TILE, o->tile, -1, 0, 0);
        else if (api->figure_move(ctx, s->token, CARC_AT_TILE, o->tile, -1, 0) < 0) return -1;
        return s->token < 0 ? -1 : 0;
    }
    if (o->code == OPT_YES) {
        s->asks++;
        api->step_begin(ctx);
        api->award(ctx, player, 2, reason_bonus, -1, 0);
        api->step_end(ctx);
    }
    return 0;
}

static int game_init(carc_ctx *ctx)
{
    trace_state *s = api->state(ctx);
    s->token = -1;
    return 0;
}

static int init(carc_ctx *ctx)
{
    /* The events of API version 2, as its Lua twin (the placement events of
     * version 4 have their own tests: test_placement.c). */
    for (int e = 0; e < CARC_EV_PLACE_OFFER; e++)
        if (api->on(ctx, e, on_event, NULL) < 0) return -1;
    if (api->add_phase(ctx, "trace", "after", "place", phase, NULL) < 0) return -1;
    reason_bonus = api->define_reason(ctx, "trace");
    fig_token = api->define_figure(ctx, "trace-token", 0, 0);
    kind_city = api->kind(ctx, "city");
    if (api->define_mark(ctx, "trace-mark") < 0 || api->define_tile_mark(ctx, "trace-tile-mark") < 0) return -1;
    if (api->define_kind(ctx, "trace-kind", CARC_COMPLETE_RING, CARC_KIND_DEPLOYABLE) < 0) return -1;
    if (api->define_option_int(ctx, "city-extra", 0, 0, 100, "extra points on every city") < 0) return -1;
    if (api->define_option_enum(ctx, "farmers", "yes no", "whether followers may farm") < 0) return -1;
    if (api->set_state(ctx, sizeof(trace_state), game_init) < 0) return -1;
    return api->set_option_fns(ctx, format, apply);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "trace";
    desc->version = "1";
    desc->description = "test plugin: every event and capability";
    desc->init = init;
    return 0;
}
