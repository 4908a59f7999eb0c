/* api.c - the functions behind carc_api: what plugins (and, through the Lua
 * host, scripts) may do. Each call checks its arguments and its moment, then
 * delegates to the file that owns the concept (rules.c, decision.c,
 * figures.c, scoring.c, ...): a plugin's mistake is an error returned (-1)
 * that stops the game, never a crash of the engine. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "core.h"

#define STR_OF_(x) #x
#define STR_OF(x) STR_OF_(x)

static plugin_slot *slot(carc_ctx *ctx)
{
    return ctx->owner > 0 && ctx->owner <= ctx->rules->nplugins ? ctx->rules->plugins[ctx->owner - 1] : NULL;
}

/* Registration is open only to the plugin whose init is running. */
static bool registering(carc_ctx *ctx)
{
    return ctx->g == NULL && !ctx->rules->frozen && ctx->rules->registering == ctx->owner && ctx->owner > 0;
}

#define REG_ONLY(ctx)                                                                  \
    do {                                                                               \
        if (!registering(ctx)) return api_error(ctx, "registration is only allowed during init"); \
    } while (0)

int api_error(carc_ctx *ctx, const char *msg)
{
    plugin_slot *ps = slot(ctx);
    if (ctx->g) {
        game_fail(ctx->g, "%s: %s", ps ? ps->name : "kernel", msg);
    } else {
        snprintf(ctx->rules->reg_error, sizeof ctx->rules->reg_error, "%s", msg);
    }
    return -1;
}

/* ---- registration ---------------------------------------------------------------- */

static int api_on(carc_ctx *ctx, int event, carc_handler_fn fn, void *user)
{
    REG_ONLY(ctx);
    struct carc_rules *r = ctx->rules;
    if (event < 0 || event >= CARC_EV_COUNT || !fn) return api_error(ctx, "on: unknown event or no handler");
    if (r->nhandlers[event] >= MAX_HANDLERS) return api_error(ctx, "on: too many handlers for one event");
    handler_ref *h = &r->handlers[event][r->nhandlers[event]++];
    h->fn = fn;
    h->owner = ctx->owner;
    h->user = user;
    return 0;
}

static int api_add_phase(carc_ctx *ctx, const char *name, const char *where, const char *anchor,
                         carc_phase_fn fn, void *user)
{
    REG_ONLY(ctx);
    struct carc_rules *r = ctx->rules;
    if (!name || !*name || strlen(name) >= NAME_LEN || !fn || !where || !anchor)
        return api_error(ctx, "add_phase: a name, where, anchor and function are needed");
    bool after = strcmp(where, "after") == 0;
    if (!after && strcmp(where, "before") != 0) return api_error(ctx, "add_phase: where is 'before' or 'after'");
    phase_def *list = r->turn_phases;
    int *n = &r->nturn_phases;
    int at = rules_phase_find(list, *n, anchor);
    if (at < 0) {
        list = r->end_phases;
        n = &r->nend_phases;
        at = rules_phase_find(list, *n, anchor);
    }
    if (at < 0) return api_error(ctx, "add_phase: no phase of that name to put it beside");
    if (rules_phase_find(r->turn_phases, r->nturn_phases, name) >= 0 ||
        rules_phase_find(r->end_phases, r->nend_phases, name) >= 0)
        return api_error(ctx, "add_phase: a phase of that name exists");
    if (*n >= MAX_PHASES) return api_error(ctx, "add_phase: too many phases");
    if (after) at++;
    rules_phase_insert(list, n, at, name, fn, ctx->owner, user);
    return at;
}

static int api_phase_needs_tile_mark(carc_ctx *ctx, const char *phase, int tile_mark)
{
    REG_ONLY(ctx);
    struct carc_rules *r = ctx->rules;
    if (!phase) return api_error(ctx, "phase_needs_tile_mark: a phase name is needed");
    int at = rules_phase_find(r->turn_phases, r->nturn_phases, phase);
    if (at < 0) {
        bool at_end = rules_phase_find(r->end_phases, r->nend_phases, phase) >= 0;
        return api_error(ctx, at_end ? "phase_needs_tile_mark: a phase of the game's end has no turn tile"
                                     : "phase_needs_tile_mark: no turn phase of that name");
    }
    if (r->turn_phases[at].owner != ctx->owner)
        return api_error(ctx, "phase_needs_tile_mark: only a phase this plugin added");
    if (tile_mark < 0 || tile_mark >= r->ntmarks) return api_error(ctx, "phase_needs_tile_mark: no such tile mark");
    r->turn_phases[at].needs_tile_marks |= 1u << tile_mark;
    return 0;
}

static int api_define_kind(carc_ctx *ctx, const char *name, int completion, int flags)
{
    REG_ONLY(ctx);
    if (!name || completion < CARC_COMPLETE_PORTS || completion > CARC_COMPLETE_NEVER)
        return api_error(ctx, "define_kind: a name and a completion rule are needed");
    int k = rules_kind(ctx->rules, name);
    if (k >= 0 && ctx->rules->kinds[k].owner >= 0) {
        rules_note_conflict(ctx->rules, "kind", name, ctx->rules->kinds[k].owner);
        char msg[96];
        snprintf(msg, sizeof msg, ctx->rules->kinds[k].owner == 0 ? "define_kind: '%.31s' is one of the kernel's kinds"
                                                                   : "define_kind: the kind '%.31s' is defined already",
                 name);
        return api_error(ctx, msg);
    }
    k = rules_define_kind(ctx->rules, name, (enum carc_completion)completion, flags, ctx->owner);
    return k < 0 ? api_error(ctx, "define_kind: too many kinds or a bad name") : k;
}

static int api_define_figure_kind(carc_ctx *ctx, const carc_figure_kind_def *def)
{
    REG_ONLY(ctx);
    char err[200];
    int k = rules_define_figkind(ctx->rules, def, ctx->owner, err, sizeof err);
    return k < 0 ? api_error(ctx, err) : k;
}

/* Version 1's call: strength 1, on every deployable kind. */
static int api_define_figure(carc_ctx *ctx, const char *name, int per_player, int flags)
{
    carc_figure_kind_def def = {name, per_player, flags, 1, NULL};
    return api_define_figure_kind(ctx, &def);
}

static int api_define_mark(carc_ctx *ctx, const char *name)
{
    REG_ONLY(ctx);
    int m = name ? rules_add_mark(ctx->rules, name) : -1;
    return m < 0 ? api_error(ctx, "define_mark: too many marks or a bad name") : m;
}

static int api_define_tile_mark(carc_ctx *ctx, const char *name)
{
    REG_ONLY(ctx);
    int m = name ? rules_add_tmark(ctx->rules, name) : -1;
    return m < 0 ? api_error(ctx, "define_tile_mark: too many tile marks or a bad name") : m;
}

static int api_define_reason(carc_ctx *ctx, const char *name)
{
    REG_ONLY(ctx);
    int m = name ? rules_add_reason(ctx->rules, name) : -1;
    return m < 0 ? api_error(ctx, "define_reason: too many reasons or a bad name") : m;
}

static bool full_key(carc_ctx *ctx, const char *key, char *out, size_t n)
{
    plugin_slot *ps = slot(ctx);
    if (!key || !*key || !ps || strchr(key, '.') || strchr(key, '=') || strchr(key, ' ')) return false;
    return snprintf(out, n, "%s.%s", ps->name, key) < (int)n;
}

static int api_define_option_int(carc_ctx *ctx, const char *key, int def, int min, int max, const char *help)
{
    REG_ONLY(ctx);
    char k[64];
    if (!full_key(ctx, key, k, sizeof k) || def < min || def > max)
        return api_error(ctx, "define_option_int: bad key or a default outside [min, max]");
    if (rules_option(ctx->rules, k)) return api_error(ctx, "define_option_int: that option exists");
    int i = rules_define_int(ctx->rules, k, def, min, max, help ? help : "", ctx->owner);
    return i < 0 ? api_error(ctx, "define_option_int: too many options") : i;
}

static int api_define_option_enum(carc_ctx *ctx, const char *key, const char *values, const char *help)
{
    REG_ONLY(ctx);
    char k[64];
    if (!full_key(ctx, key, k, sizeof k) || !values || !*values)
        return api_error(ctx, "define_option_enum: bad key or no values");
    if (rules_option(ctx->rules, k)) return api_error(ctx, "define_option_enum: that option exists");
    int i = rules_define_enum(ctx->rules, k, values, help ? help : "", ctx->owner);
    if (i < 0 || ctx->rules->opts[i].nvalues == 0) return api_error(ctx, "define_option_enum: bad values");
    return i;
}

static int api_set_state(carc_ctx *ctx, size_t size, carc_game_init_fn game_init)
{
    REG_ONLY(ctx);
    if (size > (1u << 20)) return api_error(ctx, "set_state: at most 1 MiB of state");
    plugin_slot *ps = slot(ctx);
    ps->state_size = size;
    ps->game_init = game_init;
    return 0;
}

static int api_set_option_fns(carc_ctx *ctx, carc_format_fn format, carc_apply_fn apply)
{
    REG_ONLY(ctx);
    plugin_slot *ps = slot(ctx);
    ps->format = format;
    ps->apply = apply;
    return 0;
}

/* ---- lookups ---------------------------------------------------------------------- */

static int api_kind(carc_ctx *ctx, const char *n) { return n ? rules_kind(ctx->rules, n) : -1; }
static int api_mark(carc_ctx *ctx, const char *n) { return n ? rules_mark(ctx->rules, n) : -1; }
static int api_tile_mark(carc_ctx *ctx, const char *n) { return n ? rules_tmark(ctx->rules, n) : -1; }
static int api_figure_kind(carc_ctx *ctx, const char *n) { return n ? rules_figkind(ctx->rules, n) : -1; }
static int api_reason(carc_ctx *ctx, const char *n) { return n ? rules_reason(ctx->rules, n) : -1; }

/* An option by its full key, else the calling plugin's own by its short
 * name: one pass over the options, no key formatted (scripts ask on every
 * try of a bot's look-ahead). */
static int api_option(carc_ctx *ctx, const char *key)
{
    if (!key) return -1;
    const option_def *own = NULL;
    bool short_name = ctx->owner > 0 && !strchr(key, '.');
    for (int i = 0; i < ctx->rules->nopts; i++) {
        const option_def *o = &ctx->rules->opts[i];
        if (strcmp(o->key, key) == 0) return o->value;
        if (short_name && !own && o->owner == ctx->owner) {
            const char *dot = strchr(o->key, '.');
            if (dot && strcmp(dot + 1, key) == 0) own = o;
        }
    }
    return own ? own->value : -1;
}

/* ---- the game ------------------------------------------------------------------------ */

#define GAME_ONLY(ctx, ret)                                                 \
    do {                                                                    \
        if (!(ctx)->g) {                                                    \
            api_error(ctx, "this call needs a game (not during init)");    \
            return ret;                                                     \
        }                                                                   \
    } while (0)

static bool tile_ok(carc_ctx *ctx, int t) { return t >= 0 && t < ctx->g->ntiles; }
static bool seg_ok(carc_ctx *ctx, int t, int s)
{
    return tile_ok(ctx, t) && s >= 0 && s < ctx->rules->types[ctx->g->tiles[t].type].nsegs;
}
static bool player_ok(carc_ctx *ctx, int p) { return p >= 0 && p < ctx->g->nplayers; }
static bool feature_ok(carc_ctx *ctx, int f) { return f >= 0 && f < ctx->g->nnodes && ctx->g->nodes[f].parent == f; }

static void *api_state(carc_ctx *ctx)
{
    GAME_ONLY(ctx, NULL);
    plugin_slot *ps = slot(ctx);
    return ps && ps->state_size ? ctx->g->pstate + ps->state_off : NULL;
}

static int api_players(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->nplayers; }
static int api_active(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->turn.active; }
static int api_turn(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->turn.number; }
static int api_score(carc_ctx *ctx, int p) { GAME_ONLY(ctx, 0); return player_ok(ctx, p) ? ctx->g->score[p] : 0; }
static const char *api_player_name(carc_ctx *ctx, int p)
{
    GAME_ONLY(ctx, "");
    return player_ok(ctx, p) ? ctx->g->names[p] : "";
}
static int api_supply(carc_ctx *ctx, int p, int k)
{
    GAME_ONLY(ctx, -1);
    return player_ok(ctx, p) && k >= 0 && k < ctx->rules->nfigkinds ? ctx->g->supply[p][k] : -1;
}
static uint32_t api_random(carc_ctx *ctx, uint32_t bound)
{
    GAME_ONLY(ctx, 0);
    return bound ? carc_rng_below(&ctx->g->plugin_rng, bound) : 0;
}
static int api_fail(carc_ctx *ctx, const char *message) { return api_error(ctx, message ? message : "failed"); }

/* ---- tiles ------------------------------------------------------------------------------ */

static int api_tiles(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->ntiles; }
static int api_tile_at(carc_ctx *ctx, int x, int y) { GAME_ONLY(ctx, -1); return board_tile_at(ctx->g, x, y); }
static int api_tile_pos(carc_ctx *ctx, int t, int *x, int *y)
{
    GAME_ONLY(ctx, -1);
    if (!tile_ok(ctx, t)) return -1;
    if (x) *x = ctx->g->tiles[t].x;
    if (y) *y = ctx->g->tiles[t].y;
    return ctx->g->tiles[t].rot;
}
static int api_tile_type(carc_ctx *ctx, int t) { GAME_ONLY(ctx, -1); return tile_ok(ctx, t) ? ctx->g->tiles[t].type : -1; }
static int api_type_has_mark(carc_ctx *ctx, int type, int m)
{
    if (type < 0 || type >= ctx->rules->ntypes || m < 0 || m >= ctx->rules->ntmarks) return 0;
    return (ctx->rules->types[type].tile_marks >> m) & 1u;
}
static int api_placed_tile(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->turn.placed; }
static int api_drawn_type(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->turn.drawn; }
static int api_pile_left(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->npile; }
static int api_return_set_aside(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    return pile_return_aside(ctx->g);
}
static int api_segments(carc_ctx *ctx, int t)
{
    GAME_ONLY(ctx, -1);
    return tile_ok(ctx, t) ? ctx->rules->types[ctx->g->tiles[t].type].nsegs : -1;
}
static int api_segment_kind(carc_ctx *ctx, int t, int s)
{
    GAME_ONLY(ctx, -1);
    return seg_ok(ctx, t, s) ? ctx->rules->types[ctx->g->tiles[t].type].segs[s].kind : -1;
}
static int api_segment_at_port(carc_ctx *ctx, int t, int port)
{
    GAME_ONLY(ctx, -1);
    return tile_ok(ctx, t) && port >= 0 && port < CARC_PORTS ? seg_at_port(ctx->g, t, port) : -1;
}
static int api_segment_marks(carc_ctx *ctx, int t, int s, int mark)
{
    GAME_ONLY(ctx, -1);
    return seg_ok(ctx, t, s) ? seg_mark_count(ctx->g, t, s, mark) : -1;
}
static int api_segment_name(carc_ctx *ctx, int t, int s, char *buf, size_t n)
{
    GAME_ONLY(ctx, -1);
    if (!seg_ok(ctx, t, s) || !buf) return -1;
    return seg_name(ctx->g, t, s, buf, n);
}
static int api_segment_by_name(carc_ctx *ctx, int t, const char *name)
{
    GAME_ONLY(ctx, -1);
    return tile_ok(ctx, t) && name ? seg_by_name(ctx->g, t, name) : -1;
}

/* ---- features ------------------------------------------------------------------------------ */

static int api_feature(carc_ctx *ctx, int t, int s)
{
    GAME_ONLY(ctx, -1);
    return seg_ok(ctx, t, s) ? feat_find(ctx->g, ctx->g->tiles[t].node0 + s) : -1;
}
static int api_feature_kind(carc_ctx *ctx, int f) { GAME_ONLY(ctx, -1); return feature_ok(ctx, f) ? ctx->g->nodes[f].kind : -1; }
static int api_feature_complete(carc_ctx *ctx, int f) { GAME_ONLY(ctx, -1); return feature_ok(ctx, f) ? feat_is_complete(ctx->g, f) : -1; }
static int api_feature_scored(carc_ctx *ctx, int f)
{
    GAME_ONLY(ctx, -1);
    return feature_ok(ctx, f) ? (ctx->g->nodes[f].flags & NODE_SCORED) != 0 : -1;
}
static int api_feature_tiles(carc_ctx *ctx, int f) { GAME_ONLY(ctx, -1); return feature_ok(ctx, f) ? feat_distinct_tiles(ctx->g, f) : -1; }
static int api_feature_marks(carc_ctx *ctx, int f, int m)
{
    GAME_ONLY(ctx, -1);
    return feature_ok(ctx, f) && m >= 0 && m < ctx->rules->nmarks ? feat_mark_count(ctx->g, f, m) : -1;
}
static int api_feature_followers(carc_ctx *ctx, int f, int p)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f) || !player_ok(ctx, p)) return -1;
    int counts[CARC_MAX_PLAYERS];
    feat_followers(ctx->g, f, counts);
    return counts[p];
}
static int api_feature_open(carc_ctx *ctx, int f) { GAME_ONLY(ctx, -1); return feature_ok(ctx, f) ? ctx->g->nodes[f].open : -1; }
static int api_feature_segments(carc_ctx *ctx, int f, int *tiles, int *segs, int max)
{
    GAME_ONLY(ctx, -1);
    return feature_ok(ctx, f) ? feat_segments(ctx->g, f, tiles, segs, max) : -1;
}

/* ---- figures ------------------------------------------------------------------------------- */

static int api_figures(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->nfigs; }
static int api_figure(carc_ctx *ctx, int f, carc_figure_info *out)
{
    GAME_ONLY(ctx, -1);
    if (f < 0 || f >= ctx->g->nfigs || !out) return -1;
    const figure *fg = &ctx->g->figs[f];
    *out = (carc_figure_info){.kind = fg->kind, .seat = fg->seat, .where = fg->where, .tile = fg->tile, .seg = fg->seg,
                              .space = fg->space};
    return fg->where;
}

static bool where_ok(carc_ctx *ctx, int where, int t, int s, int space)
{
    switch (where) {
    case CARC_AT_SEGMENT: return seg_ok(ctx, t, s);
    case CARC_AT_TILE: return tile_ok(ctx, t);
    case CARC_AT_TRACK: return space >= 0 && space < 1000;
    case CARC_AT_CORNER: return tile_ok(ctx, t) && space >= 0 && space < CARC_CORNERS;
    default: return false;
    }
}

static int api_figure_place(carc_ctx *ctx, int kind, int seat, int where, int t, int s, int space, int from_supply)
{
    GAME_ONLY(ctx, -1);
    if (kind < 0 || kind >= ctx->rules->nfigkinds || (seat != -1 && !player_ok(ctx, seat)) ||
        !where_ok(ctx, where, t, s, space))
        return api_error(ctx, "figure_place: bad figure, owner or place");
    int f = fig_place(ctx->g, kind, seat, where, t, s, space, from_supply != 0);
    if (f == -1) return api_error(ctx, "figure_place: none left in the supply");
    if (f < 0) return api_error(ctx, "figure_place: too many figures");
    return f;
}

static int api_figure_move(carc_ctx *ctx, int f, int where, int t, int s, int space)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (f < 0 || f >= g->nfigs || g->figs[f].where == CARC_AT_NONE || !where_ok(ctx, where, t, s, space))
        return api_error(ctx, "figure_move: bad figure or place");
    if (g->figs[f].where == CARC_AT_HELD) return api_error(ctx, "figure_move: the figure is held (figure_free frees it)");
    fig_move(g, f, where, t, s, space);
    return 0;
}

static int api_figure_remove(carc_ctx *ctx, int f, int how)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (f < 0 || f >= g->nfigs || g->figs[f].where == CARC_AT_NONE || (how != CARC_GONE_RETURNED && how != CARC_GONE_BOX))
        return api_error(ctx, "figure_remove: bad figure or how");
    if (g->figs[f].where == CARC_AT_HELD) return api_error(ctx, "figure_remove: the figure is held (figure_free frees it)");
    return fig_remove_event(g, f, how, fig_feature(g, f));
}

/* ---- version 6: figures held by a player ---------------------------------------------------- */

static int api_figure_capture(carc_ctx *ctx, int f, int holder)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (f < 0 || f >= g->nfigs || g->figs[f].where == CARC_AT_NONE) return api_error(ctx, "figure_capture: no such figure");
    if (g->figs[f].where == CARC_AT_HELD) return api_error(ctx, "figure_capture: the figure is held already");
    if (g->figs[f].seat < 0) return api_error(ctx, "figure_capture: a neutral figure cannot be held");
    if (!player_ok(ctx, holder)) return api_error(ctx, "figure_capture: the holder is not a player");
    return fig_capture(g, f, holder) < 0 ? -1 : 0;
}

static int api_figure_free(carc_ctx *ctx, int f, int how)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (f < 0 || f >= g->nfigs || g->figs[f].where != CARC_AT_HELD) return api_error(ctx, "figure_free: not a held figure");
    if (how != CARC_GONE_RETURNED && how != CARC_GONE_BOX) return api_error(ctx, "figure_free: how is CARC_GONE_RETURNED or CARC_GONE_BOX");
    return fig_free(g, f, how) < 0 ? -1 : 0;
}

static int api_held_figures(carc_ctx *ctx, int holder, int owner, int kind)
{
    GAME_ONLY(ctx, -1);
    const carc_game *g = ctx->g;
    if (!player_ok(ctx, holder) || (owner != -1 && !player_ok(ctx, owner)) || kind < -1 || kind >= ctx->rules->nfigkinds)
        return api_error(ctx, "held_figures: bad holder, owner or kind");
    int n = 0;
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        n += fg->where == CARC_AT_HELD && fg->space == holder && (owner == -1 || fg->seat == owner) &&
             (kind == -1 || fg->kind == kind);
    }
    return n;
}

/* ---- decisions -------------------------------------------------------------------------------- */

/* An option's place: no tile, a placed tile, or a segment of one. */
static bool option_place_ok(carc_ctx *ctx, const carc_option *opt)
{
    /* CARC_SEG_WALK marks the kernel's walks (offer_figure_walks) alone. */
    return opt && opt->seg != CARC_SEG_WALK &&
           (opt->tile < 0 || (tile_ok(ctx, opt->tile) && (opt->seg < 0 || seg_ok(ctx, opt->tile, opt->seg))));
}

static int api_offer(carc_ctx *ctx, const carc_option *opt)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->building) return api_error(ctx, "offer: only while the action or placement decision is built");
    if (!option_place_ok(ctx, opt)) return api_error(ctx, "offer: bad option (tile or segment)");
    carc_game *g = ctx->g;
    int offered = decision_offered(g);
    if (g->offer_owner != ctx->owner) g->offer_owner = ctx->owner, g->offer_run = 0;
    if (g->offer_run >= MAX_PLUGIN_OPTIONS)
        return api_error(ctx, "offer: more than " STR_OF(MAX_PLUGIN_OPTIONS) " options from one plugin in one decision");
    if (offered >= MAX_DECISION_OFFERS)
        return api_error(ctx, "offer: more than " STR_OF(MAX_DECISION_OFFERS) " options in one decision");
    g->offer_run++;
    return decision_offer(g, opt, ctx->owner);
}

static int api_offered(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    return decision_offered(ctx->g);
}

static const carc_option *api_offered_at(carc_ctx *ctx, int i)
{
    GAME_ONLY(ctx, NULL);
    return decision_offered_at(ctx->g, i);
}

static int api_veto(carc_ctx *ctx, int i)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->filtering || i < 0 || i >= decision_offered(ctx->g)) return api_error(ctx, "veto: only during action-filter or place-filter, an option offered");
    decision_veto(ctx->g, i);
    return 0;
}

static int api_forbid_pass(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    ctx->g->turn.action_forbid_pass = true;
    return 0;
}

static int api_ask(carc_ctx *ctx, int player, const char *label, const carc_option *opts, int n)
{
    GAME_ONLY(ctx, -1);
    if (!player_ok(ctx, player) || n < 0 || (n && !opts)) return api_error(ctx, "ask: bad player or options");
    if (n > MAX_PLUGIN_OPTIONS) return api_error(ctx, "ask: at most " STR_OF(MAX_PLUGIN_OPTIONS) " options in one decision");
    if (ctx->g->building) return api_error(ctx, "ask: not while the action or placement decision is built");
    if (label && strlen(label) >= NAME_LEN) return api_error(ctx, "ask: a label has at most 31 characters");
    carc_option tmp;
    for (int i = 0; i < n; i++) {
        tmp = opts[i];
        if (!option_place_ok(ctx, &tmp))
            return api_error(ctx, "ask: an option names a bad tile or segment");
    }
    return decision_ask(ctx->g, player, ctx->owner, label ? label : "decision", opts, n);
}

/* ---- scoring ------------------------------------------------------------------------------------ */

/* Whether the game has room for n more awards of a plugin (landed or
 * batched) this turn and this game; else the game stops naming it. */
static bool plugin_award_room(carc_ctx *ctx, int n, const char *what)
{
    carc_game *g = ctx->g;
    int held = carc_awards(g) + g->nbatch;
    if (g->award_turn != g->turn.number || g->award_turn_end != g->in_end) {
        g->award_turn = g->turn.number;
        g->award_turn_end = g->in_end;
        g->award_turn_first = held;
    }
    char msg[160];
    if (held + n > MAX_PLUGIN_AWARDS_GAME)
        snprintf(msg, sizeof msg, "%s: more than %d awards in one game", what, MAX_PLUGIN_AWARDS_GAME);
    else if (held - g->award_turn_first + n > MAX_PLUGIN_AWARDS_TURN)
        snprintf(msg, sizeof msg, "%s: more than %d awards in one turn", what, MAX_PLUGIN_AWARDS_TURN);
    else
        return true;
    api_error(ctx, msg);
    return false;
}

static int api_award(carc_ctx *ctx, int player, int points, int reason, int feature, int flags)
{
    GAME_ONLY(ctx, -1);
    if (!player_ok(ctx, player) || reason < 0 || reason >= ctx->rules->nreasons || (feature != -1 && !feature_ok(ctx, feature)))
        return api_error(ctx, "award: bad player, reason or feature");
    if (!plugin_award_room(ctx, 1, "award")) return -1;
    award_now(ctx->g, player, points, reason, feature, flags);
    return ctx->g->failed ? -1 : 0;
}

static int api_step_begin(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    return ++ctx->g->score_step;
}

static int api_step_end(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    carc_event e = {0};
    e.player = ctx->g->turn.active;
    e.value = ctx->g->score_step;
    return dispatch(ctx->g, CARC_EV_SCORE_STEP_END, &e);
}

static int api_batch_begin(carc_ctx *ctx) { GAME_ONLY(ctx, -1); batch_begin(ctx->g); return 0; }
static int api_batch_add(carc_ctx *ctx, int player, int points, int reason, int feature, int flags)
{
    GAME_ONLY(ctx, -1);
    if (ctx->g->batch_is_view) return api_error(ctx, "batch_add: not during award-order");
    if (!player_ok(ctx, player) || reason < 0 || reason >= ctx->rules->nreasons || (feature != -1 && !feature_ok(ctx, feature)))
        return api_error(ctx, "batch_add: bad player, reason or feature");
    if (!plugin_award_room(ctx, 1, "batch_add")) return -1;
    batch_add(ctx->g, player, points, reason, feature, flags);
    return ctx->g->failed ? -1 : 0;
}
static int api_batch_commit(carc_ctx *ctx, int first)
{
    GAME_ONLY(ctx, -1);
    batch_commit(ctx->g, player_ok(ctx, first) ? first : 0);
    return ctx->g->failed ? -1 : 0;
}
static int api_batch_count(carc_ctx *ctx) { GAME_ONLY(ctx, -1); return ctx->g->nbatch; }
static carc_award *api_batch_at(carc_ctx *ctx, int i)
{
    GAME_ONLY(ctx, NULL);
    return i >= 0 && i < ctx->g->nbatch ? &ctx->g->batch[i] : NULL;
}
static int api_score_feature(carc_ctx *ctx, int f, int final)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f)) return api_error(ctx, "score_feature: bad feature");
    score_feature_into_batch(ctx->g, f, final != 0);
    return 0;
}
static int api_return_followers(carc_ctx *ctx, int f)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f)) return api_error(ctx, "return_followers: bad feature");
    fig_return_followers(ctx->g, f);
    return 0;
}

static void *api_user_data(carc_ctx *ctx) { return ctx->user; }

/* ---- version 2 ------------------------------------------------------------------------------------ */

static bool figkind_ok(carc_ctx *ctx, int k) { return k >= 0 && k < ctx->rules->nfigkinds; }

static int api_figure_kind_flags(carc_ctx *ctx, int k)
{
    if (!figkind_ok(ctx, k)) return -1;
    const figkind_def *f = &ctx->rules->figkinds[k];
    return (f->follower ? CARC_FIGURE_FOLLOWER : 0) | (f->boxed_when_scored ? CARC_FIGURE_BOXED_WHEN_SCORED : 0) |
           (f->deployable ? CARC_FIGURE_DEPLOYABLE : 0) | (f->boxed_when_removed ? CARC_FIGURE_BOXED_WHEN_REMOVED : 0) |
           (f->strength == 0 ? CARC_FIGURE_STRENGTH_ZERO : 0);
}

static int api_figure_kind_strength(carc_ctx *ctx, int k)
{
    return figkind_ok(ctx, k) ? ctx->rules->figkinds[k].strength : -1;
}

static int api_figure_kind_stands_on(carc_ctx *ctx, int k, int kind)
{
    if (!figkind_ok(ctx, k) || kind < 0 || kind >= ctx->rules->nkinds) return -1;
    return fig_kind_stands_on(ctx->rules, k, kind);
}

static const char *api_figure_kind_name(carc_ctx *ctx, int k)
{
    return figkind_ok(ctx, k) ? ctx->rules->figkinds[k].name : NULL;
}

static int api_feature_strength(carc_ctx *ctx, int f, int p)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f) || !player_ok(ctx, p)) return -1;
    int strength[CARC_MAX_PLAYERS];
    feat_strengths(ctx->g, f, strength);
    return strength[p];
}

static int api_deploy_elsewhere(carc_ctx *ctx, int t)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (!g->building || g->build_place) return api_error(ctx, "deploy_elsewhere: only while the action decision is built");
    if (!tile_ok(ctx, t) || t == g->turn.placed)
        return api_error(ctx, "deploy_elsewhere: a placed tile other than this turn's is needed");
    return offer_deploys_on(g, g->turn.active, t, true);
}

static const char *api_option_owner(carc_ctx *ctx, const carc_option *opt)
{
    if (!opt) return NULL;
    if (opt->owner == 0) return "kernel";
    if (opt->owner > ctx->rules->nplugins) return NULL; /* vetoed */
    return ctx->rules->plugins[opt->owner - 1]->name;
}

static int api_option_text(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    GAME_ONLY(ctx, -1);
    if (!opt || !buf || n == 0 || opt->owner > ctx->rules->nplugins) return -1;
    if (opt->tile >= 0 && (!tile_ok(ctx, opt->tile) || (opt->seg >= 0 && !seg_ok(ctx, opt->tile, opt->seg))))
        return -1;
    return option_format(ctx->g, opt, buf, n) < 0 ? -1 : 0;
}

static int api_batch_withdraw(carc_ctx *ctx, int i)
{
    GAME_ONLY(ctx, -1);
    if (batch_withdraw(ctx->g, i) < 0) return api_error(ctx, "batch_withdraw: no award of that index in the batch being collected");
    return 0;
}

static int api_majority_strength(carc_ctx *ctx, int p)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->in_majority || !player_ok(ctx, p)) return api_error(ctx, "majority_strength: only during feature-majority, for a player");
    return ctx->g->majority[p];
}

static int api_set_majority_strength(carc_ctx *ctx, int p, int strength)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->in_majority || !player_ok(ctx, p) || strength < 0 || strength > 100000)
        return api_error(ctx, "set_majority_strength: only during feature-majority, for a player, 0 to 100000");
    ctx->g->majority[p] = strength;
    return 0;
}

static int api_extra_turn(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    if (ctx->g->turn.extra) return api_error(ctx, "extra_turn: this turn is an extra turn already (no chains)");
    ctx->g->turn.extra_next = true;
    return 0;
}

static int api_in_extra_turn(carc_ctx *ctx)
{
    GAME_ONLY(ctx, -1);
    return ctx->g->turn.extra;
}

static int api_feature_borders(carc_ctx *ctx, int f, int *cities, int max)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f) || ctx->g->nodes[f].kind != CARC_KIND_FIELD || max < 0 || (max && !cities)) return -1;
    int_list all;
    int_list_init(&all);
    feat_bordering_cities(ctx->g, f, &all);
    if (all.oom) {
        int_list_free(&all);
        return api_error(ctx, "feature_borders: out of memory");
    }
    int n = all.n;
    for (int i = 0; i < n && i < max; i++) cities[i] = all.v[i];
    int_list_free(&all);
    return n;
}

static int api_figure_next_on_tile(carc_ctx *ctx, int tile, int after)
{
    GAME_ONLY(ctx, -1);
    if (tile < 0 || tile >= ctx->g->ntiles) return api_error(ctx, "figure_next_on_tile: no such placed tile");
    return fig_next_on_tile(ctx->g, tile, after);
}

static int api_offer_walks(carc_ctx *ctx, int start, int max_steps, const carc_option *opt)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->building || ctx->g->build_place) return api_error(ctx, "offer_walks: only while the action decision is built");
    if (!tile_ok(ctx, start)) return api_error(ctx, "offer_walks: no such placed tile");
    if (max_steps < 1 || max_steps > CARC_MAX_WALK_STEPS) return api_error(ctx, "offer_walks: max_steps is 1 to 8");
    if (!option_place_ok(ctx, opt)) return api_error(ctx, "offer_walks: bad option (tile or segment)");
    return offer_tile_walks(ctx->g, start, max_steps, opt, ctx->owner);
}

static int api_offer_figure_walks(carc_ctx *ctx, int walker, int max_steps, const carc_option *opt, uint32_t award_kinds,
                                  int points, int reason)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (!g->building || g->build_place) return api_error(ctx, "offer_figure_walks: only while the action decision is built");
    if (walker < 0 || walker >= g->nfigs || g->figs[walker].where != CARC_AT_TILE)
        return api_error(ctx, "offer_figure_walks: the figure does not stand on a tile (CARC_AT_TILE)");
    if (max_steps < 1 || max_steps > CARC_MAX_WALK_STEPS) return api_error(ctx, "offer_figure_walks: max_steps is 1 to 8");
    if (!opt) return api_error(ctx, "offer_figure_walks: an option is needed");
    if (reason < 0 || reason >= ctx->rules->nreasons) return api_error(ctx, "offer_figure_walks: no such reason");
    int n = offer_figure_walks(g, walker, max_steps, opt, ctx->owner, award_kinds, points, reason);
    if (n == -2)
        return api_error(ctx, "offer_figure_walks: more than " STR_OF(CARC_MAX_WALK_RULES)
                              " walk rules (figure, kinds, points, reason) in one decision");
    return n;
}

static int api_offer_figures(carc_ctx *ctx, int owner, int where, uint32_t kinds, int except, const carc_option *opt)
{
    GAME_ONLY(ctx, -1);
    if (!ctx->g->building || ctx->g->build_place) return api_error(ctx, "offer_figures: only while the action decision is built");
    if (owner < -1 || owner >= ctx->g->nplayers) return api_error(ctx, "offer_figures: owner is a player or -1 (neutral)");
    if (where != CARC_AT_SEGMENT && where != CARC_AT_TILE && where != CARC_AT_TRACK)
        return api_error(ctx, "offer_figures: where is CARC_AT_SEGMENT, CARC_AT_TILE or CARC_AT_TRACK");
    if (!opt) return api_error(ctx, "offer_figures: an option is needed");
    return offer_figures(ctx->g, owner, where, kinds, except, opt, ctx->owner);
}

static int api_award_figures_on(carc_ctx *ctx, int tile, int where, uint32_t kinds, int points, int reason)
{
    GAME_ONLY(ctx, -1);
    if (!tile_ok(ctx, tile)) return api_error(ctx, "award_figures_on: no such placed tile");
    if (where != CARC_AT_SEGMENT && where != CARC_AT_TILE)
        return api_error(ctx, "award_figures_on: where is CARC_AT_SEGMENT or CARC_AT_TILE");
    if (reason < 0 || reason >= ctx->rules->nreasons) return api_error(ctx, "award_figures_on: no such reason");
    /* One award a figure there: the figures on one tile, at most. */
    if (!plugin_award_room(ctx, 0, "award_figures_on")) return -1;
    int n = award_figures_on(ctx->g, tile, where, kinds, points, reason);
    if (n > 0 && !plugin_award_room(ctx, 0, "award_figures_on")) return -1;
    return n;
}

/* ---- version 4: placement, held tiles, tile types ------------------------------------------------ */

static bool type_ok(carc_ctx *ctx, int type) { return type >= 0 && type < ctx->rules->ntypes; }

static int api_placement_of(carc_ctx *ctx, const carc_option *opt, int *type, int *x, int *y, int *rot)
{
    GAME_ONLY(ctx, -1);
    return placement_of_option(ctx->g, opt, type, x, y, rot);
}

static int api_offer_placements(carc_ctx *ctx, int type)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (!g->building || !g->build_place || g->filtering)
        return api_error(ctx, "offer_placements: only during place-offer");
    if (!type_ok(ctx, type)) return api_error(ctx, "offer_placements: no such tile type");
    int seat = g->turn.active;
    bool holds = false;
    for (int i = 0; i < g->nheld[seat] && !holds; i++) holds = g->held[seat][i] == type;
    if (!holds) return api_error(ctx, "offer_placements: the active player holds no tile of that type");
    /* Offered once a type: a second call for it would offer the same
     * options again. */
    for (int i = g->build_first; i < g->nopts; i++)
        if (g->opts[i].owner == 0 && g->opts[i].code == BASE_OPT_PLACE_HELD && g->opts[i].seg == type) return 0;
    int first = g->nopts;
    carc_option *o = opt_room(g, 4 * g->nfront);
    if (!o) return -1;
    const carc_option place = {.owner = 0, .code = BASE_OPT_PLACE_HELD, .tile = -1, .seg = type};
    g->nopts = (int)(board_list_placements(g, type, &place, o) - g->opts);
    return g->nopts - first;
}

static int api_reserve_tiles(carc_ctx *ctx, int n)
{
    REG_ONLY(ctx);
    if (n < 0 || n > MAX_TILES) return api_error(ctx, "reserve_tiles: 0 to 10000 tiles");
    ctx->rules->reserve_tiles += n;
    return 0;
}

static int api_give_tile(carc_ctx *ctx, int seat, int type)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (!player_ok(ctx, seat) || !type_ok(ctx, type)) return api_error(ctx, "give_tile: bad seat or tile type");
    if (g->nheld[seat] >= MAX_HELD) return api_error(ctx, "give_tile: a player holds at most 16 tiles");
    if (tiles_outstanding(g) >= g->rules->max_tiles)
        return api_error(ctx, "give_tile: no room for another tile in this game (reserve_tiles during init)");
    g->held[seat][g->nheld[seat]++] = (int16_t)type;
    return g->nheld[seat];
}

static int api_take_tile(carc_ctx *ctx, int seat, int type)
{
    GAME_ONLY(ctx, -1);
    if (!player_ok(ctx, seat) || !type_ok(ctx, type)) return api_error(ctx, "take_tile: bad seat or tile type");
    return held_take(ctx->g, seat, type);
}

static int api_held_tiles(carc_ctx *ctx, int seat)
{
    GAME_ONLY(ctx, -1);
    return player_ok(ctx, seat) ? ctx->g->nheld[seat] : -1;
}

static int api_held_tile(carc_ctx *ctx, int seat, int i)
{
    GAME_ONLY(ctx, -1);
    if (!player_ok(ctx, seat) || i < 0 || i >= ctx->g->nheld[seat]) return -1;
    return ctx->g->held[seat][i];
}

static int api_can_place(carc_ctx *ctx, int type, int x, int y, int rot)
{
    GAME_ONLY(ctx, -1);
    if (!type_ok(ctx, type) || rot < 0 || rot > 3) return -1;
    int f = board_frontier_index(ctx->g, x, y);
    return f >= 0 && board_fits(ctx->g, type, f, rot);
}

static int api_place_tile(carc_ctx *ctx, int type, int x, int y, int rot)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (g->building) return api_error(ctx, "place_tile: not while a decision is built");
    if (!type_ok(ctx, type) || rot < 0 || rot > 3) return api_error(ctx, "place_tile: bad tile type or rotation");
    int f = board_frontier_index(g, x, y);
    if (f < 0 || !board_fits(g, type, f, rot))
        return api_error(ctx, "place_tile: the tile does not fit there (an open space whose edges it matches)");
    if (tiles_outstanding(g) >= g->rules->max_tiles)
        return api_error(ctx, "place_tile: no room for another tile in this game (reserve_tiles during init)");
    if (g->turn.ncompleted + placement_completions_bound(g, type, x, y) > (int)(sizeof g->turn.completed / sizeof g->turn.completed[0]))
        return api_error(ctx, "place_tile: this turn has completed too many features for the kernel to note more");
    int t = board_place(g, type, x, y, rot);
    if (t < 0 || g->failed) return api_error(ctx, "place_tile: board full");
    carc_event e = {0};
    e.player = g->turn.active;
    e.tile = t;
    e.flags = CARC_PLACED_BY_PLUGIN;
    if (dispatch(g, CARC_EV_TILE_PLACED, &e) < 0) return -1;
    return t;
}

static int api_tile_rotation(carc_ctx *ctx, int t)
{
    GAME_ONLY(ctx, -1);
    return tile_ok(ctx, t) ? ctx->g->tiles[t].rot : -1;
}

static int api_segment_touches(carc_ctx *ctx, int t, int s)
{
    GAME_ONLY(ctx, -1);
    if (!seg_ok(ctx, t, s)) return api_error(ctx, "segment_touches: bad tile or segment");
    return ctx->rules->types[ctx->g->tiles[t].type].touches[s];
}

static int api_tile_types(carc_ctx *ctx) { return ctx->rules->ntypes; }

static int api_tile_type_find(carc_ctx *ctx, const char *name)
{
    return name ? carc_tile_type_find(ctx->rules, name) : -1;
}

static int api_tile_type_name(carc_ctx *ctx, int type, char *buf, size_t n)
{
    if (!type_ok(ctx, type) || !buf || n == 0) return -1;
    const struct carc_rules *r = ctx->rules;
    return snprintf(buf, n, "%s:%s", r->sets[r->types[type].set].name, r->types[type].id);
}

static int api_pile_take(carc_ctx *ctx, int type)
{
    GAME_ONLY(ctx, -1);
    carc_game *g = ctx->g;
    if (!type_ok(ctx, type)) return api_error(ctx, "pile_take: no such tile type");
    for (int i = g->npile - 1; i >= 0; i--)
        if (g->pile[i] == type) {
            /* The order of the pile does not matter (a draw picks at random)
             * but stays what it was for the tiles left. */
            memmove(&g->pile[i], &g->pile[i + 1], (size_t)(g->npile - i - 1) * sizeof *g->pile);
            g->npile--;
            return 0;
        }
    return -1;
}

static int api_set_supply_by_players(carc_ctx *ctx, int kind, int players, int count)
{
    REG_ONLY(ctx);
    if (!figkind_ok(ctx, kind) || ctx->rules->figkinds[kind].owner != ctx->owner)
        return api_error(ctx, "set_supply_by_players: a figure kind this plugin defined is needed");
    if (players < 1 || players > CARC_MAX_PLAYERS || count < 0 || count > 99)
        return api_error(ctx, "set_supply_by_players: players is 1 to 6, count 0 to 99");
    figkind_def *f = &ctx->rules->figkinds[kind];
    f->by_players[players] = (int8_t)count;
    f->any_by_players = true;
    return 0;
}

static int api_feature_majority(carc_ctx *ctx, int f, int final, int *strengths)
{
    GAME_ONLY(ctx, -1);
    if (!feature_ok(ctx, f)) return api_error(ctx, "feature_majority: bad feature");
    int strength[CARC_MAX_PLAYERS];
    feat_strengths(ctx->g, f, strength);
    int best = majority_event(ctx->g, f, strength, final != 0);
    if (strengths) memcpy(strengths, strength, sizeof strength);
    return ctx->g->failed ? -1 : best;
}

static int api_pile_count(carc_ctx *ctx, int type)
{
    GAME_ONLY(ctx, -1);
    if (!type_ok(ctx, type)) return -1;
    int n = 0;
    for (int i = 0; i < ctx->g->npile; i++) n += ctx->g->pile[i] == type;
    return n;
}
/* ---- version 3: the plugin's own data in these rules ------------------------------------ */

static int api_set_plugin_data(carc_ctx *ctx, void *data, void (*free_data)(void *data))
{
    REG_ONLY(ctx);
    plugin_slot *ps = slot(ctx);
    if (ps->data || ps->free_data) return api_error(ctx, "set_plugin_data: the plugin's data is set once");
    if (!data) return api_error(ctx, "set_plugin_data: no data");
    ps->data = data;
    ps->free_data = free_data;
    return 0;
}

static void *api_plugin_data(carc_ctx *ctx)
{
    plugin_slot *ps = slot(ctx);
    return ps ? ps->data : NULL;
}

static int api_set_rules_ready(carc_ctx *ctx, int (*ready)(carc_ctx *ctx))
{
    REG_ONLY(ctx);
    plugin_slot *ps = slot(ctx);
    if (!ready) return api_error(ctx, "set_rules_ready: no function");
    if (ps->rules_ready) return api_error(ctx, "set_rules_ready: set once");
    ps->rules_ready = ready;
    return 0;
}

/* ---- version 5: tile corners ------------------------------------------------------------------ */

static int api_corner_feature(carc_ctx *ctx, int tile, int corner, int kind)
{
    GAME_ONLY(ctx, -1);
    if (!tile_ok(ctx, tile) || corner < 0 || corner >= CARC_CORNERS)
        return api_error(ctx, "corner_feature: a placed tile and a corner 0..3 are needed");
    return corner_feature(ctx->g, tile, corner, kind);
}

/* Where each version's members end stays where it was: a plugin built
 * against an older header finds every member it knows at its offset. */
_Static_assert(offsetof(carc_api, define_figure_kind) == 2 * sizeof(uint32_t) + 72 * sizeof(void *),
               "the members of API version 1 moved");
_Static_assert(offsetof(carc_api, figure_next_on_tile) == 2 * sizeof(uint32_t) + 87 * sizeof(void *),
               "the members of API version 2 moved");
_Static_assert(offsetof(carc_api, placement_of) == 2 * sizeof(uint32_t) + 95 * sizeof(void *),
               "the members of API version 3 moved");
_Static_assert(offsetof(carc_api, corner_feature) == 2 * sizeof(uint32_t) + 113 * sizeof(void *),
               "the members of API version 4 moved");
_Static_assert(offsetof(carc_api, figure_capture) == 2 * sizeof(uint32_t) + 114 * sizeof(void *),
               "the members of API version 5 moved");
_Static_assert(offsetof(carc_api, offer_figure_walks) == 2 * sizeof(uint32_t) + 117 * sizeof(void *),
               "the members of API version 6 moved");

const carc_api carc_api_v1 = {
    .version = CARC_API_VERSION,
    .size = sizeof(carc_api),
    .on = api_on,
    .add_phase = api_add_phase,
    .define_kind = api_define_kind,
    .define_figure = api_define_figure,
    .define_mark = api_define_mark,
    .define_tile_mark = api_define_tile_mark,
    .define_reason = api_define_reason,
    .define_option_int = api_define_option_int,
    .define_option_enum = api_define_option_enum,
    .set_state = api_set_state,
    .set_option_fns = api_set_option_fns,
    .kind = api_kind,
    .mark = api_mark,
    .tile_mark = api_tile_mark,
    .figure_kind = api_figure_kind,
    .reason = api_reason,
    .option = api_option,
    .state = api_state,
    .players = api_players,
    .active_player = api_active,
    .turn = api_turn,
    .score = api_score,
    .player_name = api_player_name,
    .supply = api_supply,
    .random = api_random,
    .fail = api_fail,
    .tiles = api_tiles,
    .tile_at = api_tile_at,
    .tile_pos = api_tile_pos,
    .tile_type = api_tile_type,
    .type_has_mark = api_type_has_mark,
    .placed_tile = api_placed_tile,
    .drawn_type = api_drawn_type,
    .pile_left = api_pile_left,
    .return_set_aside = api_return_set_aside,
    .segments = api_segments,
    .segment_kind = api_segment_kind,
    .segment_at_port = api_segment_at_port,
    .segment_marks = api_segment_marks,
    .segment_name = api_segment_name,
    .segment_by_name = api_segment_by_name,
    .feature = api_feature,
    .feature_kind = api_feature_kind,
    .feature_complete = api_feature_complete,
    .feature_scored = api_feature_scored,
    .feature_tiles = api_feature_tiles,
    .feature_marks = api_feature_marks,
    .feature_followers = api_feature_followers,
    .feature_open = api_feature_open,
    .feature_segments = api_feature_segments,
    .figures = api_figures,
    .figure = api_figure,
    .figure_place = api_figure_place,
    .figure_move = api_figure_move,
    .figure_remove = api_figure_remove,
    .offer = api_offer,
    .offered = api_offered,
    .offered_at = api_offered_at,
    .veto = api_veto,
    .forbid_pass = api_forbid_pass,
    .ask = api_ask,
    .award = api_award,
    .step_begin = api_step_begin,
    .step_end = api_step_end,
    .batch_begin = api_batch_begin,
    .batch_add = api_batch_add,
    .batch_commit = api_batch_commit,
    .batch_count = api_batch_count,
    .batch_at = api_batch_at,
    .score_feature = api_score_feature,
    .return_followers = api_return_followers,
    .user_data = api_user_data,
    .define_figure_kind = api_define_figure_kind,
    .figure_kind_flags = api_figure_kind_flags,
    .figure_kind_strength = api_figure_kind_strength,
    .figure_kind_stands_on = api_figure_kind_stands_on,
    .figure_kind_name = api_figure_kind_name,
    .feature_strength = api_feature_strength,
    .deploy_elsewhere = api_deploy_elsewhere,
    .option_owner = api_option_owner,
    .option_text = api_option_text,
    .batch_withdraw = api_batch_withdraw,
    .majority_strength = api_majority_strength,
    .set_majority_strength = api_set_majority_strength,
    .extra_turn = api_extra_turn,
    .in_extra_turn = api_in_extra_turn,
    .feature_borders = api_feature_borders,
    .figure_next_on_tile = api_figure_next_on_tile,
    .offer_walks = api_offer_walks,
    .phase_needs_tile_mark = api_phase_needs_tile_mark,
    .offer_figures = api_offer_figures,
    .award_figures_on = api_award_figures_on,
    .placement_of = api_placement_of,
    .offer_placements = api_offer_placements,
    .reserve_tiles = api_reserve_tiles,
    .give_tile = api_give_tile,
    .take_tile = api_take_tile,
    .held_tiles = api_held_tiles,
    .held_tile = api_held_tile,
    .can_place = api_can_place,
    .place_tile = api_place_tile,
    .tile_rotation = api_tile_rotation,
    .segment_touches = api_segment_touches,
    .tile_types = api_tile_types,
    .tile_type_find = api_tile_type_find,
    .tile_type_name = api_tile_type_name,
    .pile_take = api_pile_take,
    .pile_count = api_pile_count,
    .corner_feature = api_corner_feature,
    .set_supply_by_players = api_set_supply_by_players,
    .feature_majority = api_feature_majority,
    .set_plugin_data = api_set_plugin_data,
    .plugin_data = api_plugin_data,
    .set_rules_ready = api_set_rules_ready,
    .figure_capture = api_figure_capture,
    .figure_free = api_figure_free,
    .held_figures = api_held_figures,
    .offer_figure_walks = api_offer_figure_walks,
};
