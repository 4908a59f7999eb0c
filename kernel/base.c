/* base.c - the base game, owner 0 of every rules: its kinds, mark, reasons,
 * figure and options (rules_init_builtins), its turn (BASE-4) as phases:
 *   turn-start, draw, place, action, score, turn-end
 * and the end of the game (BASE-20..22):
 *   game-end, final-features, final-farms, final-score
 * its options (place, deploy, pass): what they offer, their record texts
 * and what choosing one does. Plugins insert their own phases between these
 * by name; the phase machine that runs them is in engine.c. */
#include <stdio.h>
#include <string.h>

#include "core.h"

static int ph_turn_start(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_game *g = ctx->g;
    carc_event e = {0};
    if (g->turn.number == 0) dispatch(g, CARC_EV_GAME_START, &e);
    g->turn.number++;
    /* An extra turn (extra_turn, the builder) keeps the active player. */
    g->turn.extra = g->turn.extra_next;
    g->turn.extra_next = false;
    if (!g->turn.extra) g->turn.active = (g->turn.active + 1) % g->nplayers;
    g->turn.drawn = g->turn.placed = -1;
    g->turn.action_forbid_pass = false;
    g->turn.draw_offered = false;
    g->turn.ncompleted = 0;
    g->turn.asked = 0;
    e.player = g->turn.active;
    dispatch(g, CARC_EV_TURN_START, &e);
    return CARC_PHASE_DONE;
}

static bool pile_has_placeable(carc_game *g)
{
    if (g->rules->nhandlers[CARC_EV_PLACE_FILTER]) {
        /* Each type once: a probe raises place-filter. */
        for (int i = 0; i < g->npile; i++) {
            bool seen = false;
            for (int j = 0; j < i && !seen; j++) seen = g->pile[j] == g->pile[i];
            if (!seen && placement_possible(g, g->pile[i])) return true;
        }
        return false;
    }
    for (int i = 0; i < g->npile; i++)
        if (board_any_placement(g, g->pile[i])) return true;
    return false;
}

/* Before the draw, when plugins offer placements (place-offer): placements
 * of tiles the player holds, and `draw-tile`, posed as the decision
 * `place`. 1 if it was posed, 0 if nobody offered anything, -1 on failure. */
static int offer_before_draw(carc_game *g)
{
    g->turn.draw_offered = true;
    int first = g->nopts;
    if (placement_build(g, first, -1, true) < 0) return -1;
    if (g->nopts == first) return 0;
    carc_option *o = opt_push(g);
    if (!o) return -1;
    o->code = BASE_OPT_DRAW;
    decision_pose_built(g, g->turn.active, 0, "place", first);
    return 1;
}

/* The drawn tile cannot be placed (BASE-6): discarded, or put back with
 * unplaceable-tile=reshuffle. The phase returns what this returns. */
static int drawn_unplaceable(carc_game *g, int type)
{
    g->turn.drawn = -1;
    if (g->rules->k.unplaceable_reshuffle) {
        g->pile[g->npile++] = (int16_t)type;
        if (!pile_has_placeable(g)) return CARC_PHASE_END_GAME;
    }
    return CARC_PHASE_AGAIN;
}

/* Draws until a placeable tile comes (BASE-6); plugins may set a drawn tile
 * aside or put it back (CARC_EV_TILE_DRAWN). */
static int ph_draw(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_game *g = ctx->g;
    int type = g->turn.drawn;
    if (type < 0) {
        if (g->rules->nhandlers[CARC_EV_PLACE_OFFER]) {
            if (g->turn.placed >= 0) return CARC_PHASE_DONE; /* a held tile instead of drawing */
            if (g->npile > 0 && !g->turn.draw_offered) {
                int posed = offer_before_draw(g);
                if (posed < 0) return -1;
                if (posed) return CARC_PHASE_AGAIN; /* this phase goes on after the answer */
            }
        }
        if (g->npile == 0) return CARC_PHASE_END_GAME;
        /* unplaceable-tile=reshuffle: the game ends when no tile left fits. */
        if (g->rules->k.unplaceable_reshuffle && !pile_has_placeable(g)) return CARC_PHASE_END_GAME;
        g->need_draw = true;
        return CARC_PHASE_AGAIN;
    }
    carc_event e = {0};
    e.player = g->turn.active;
    e.tile = type;
    e.value = CARC_DRAW_KEEP;
    dispatch(g, CARC_EV_TILE_DRAWN, &e);
    if (e.value == CARC_DRAW_SET_ASIDE) {
        g->aside[g->naside++] = (int16_t)type;
        g->turn.drawn = -1;
        return CARC_PHASE_AGAIN;
    }
    if (e.value == CARC_DRAW_PUT_BACK) {
        g->pile[g->npile++] = (int16_t)type;
        g->turn.drawn = -1;
        return CARC_PHASE_AGAIN;
    }
    if (!board_any_placement(g, type)) return drawn_unplaceable(g, type);
    /* With place-filter handlers, a tile whose every placement they veto
     * is unplaceable too. */
    if (g->rules->nhandlers[CARC_EV_PLACE_FILTER] && !placement_possible(g, type))
        return g->failed ? -1 : drawn_unplaceable(g, type);
    return CARC_PHASE_DONE;
}

/* The place and action phases are done once their decision is posed: the
 * phase machine waits for the answer before it runs the next phase, and a
 * second call only to say so cost a turn two rounds of the machine. */
static int ph_place(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_game *g = ctx->g;
    if (g->rules->place_hooked && g->turn.placed >= 0) return CARC_PHASE_DONE; /* a held tile instead of drawing */
    int first = g->nopts;
    /* At most four options a frontier position: room once, then plain
     * stores (the listing is a third of a random game). A kernel place
     * option keeps its tile type in seg (placement_of_option). */
    carc_option *o = opt_room(g, 4 * g->nfront);
    if (!o) return -1;
    const carc_option place = {.code = BASE_OPT_PLACE, .tile = -1, .seg = g->turn.drawn};
    g->nopts = (int)(board_list_placements(g, g->turn.drawn, &place, o) - g->opts);
    if (g->rules->place_hooked) {
        if (placement_build(g, first, g->turn.drawn, false) < 0) return -1;
        if (g->nopts == first) {
            /* A phase between the draw and this one changed the board so
             * that no placement is left: unplaceable, and the draw again. */
            int rc = drawn_unplaceable(g, g->turn.drawn);
            if (rc == CARC_PHASE_END_GAME) return rc;
            g->phase = rules_phase_find(g->rules->turn_phases, g->rules->nturn_phases, "draw");
            g->phase_calls = 0;
            return CARC_PHASE_AGAIN;
        }
    }
    decision_pose_built(g, g->turn.active, 0, "place", first);
    return CARC_PHASE_DONE;
}

/* The kernel's deploy options on the placed tile (BASE-7..9): every
 * deployable follower kind the player has in supply, on the segments its
 * kind may stand on, of features nobody occupies. */
static void offer_deploys(carc_game *g)
{
    if (g->turn.placed >= 0) offer_deploys_on(g, g->turn.active, g->turn.placed, false);
}

static int ph_action(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_game *g = ctx->g;
    int first = g->nopts;
    decision_build_begin(g);
    offer_deploys(g);
    carc_event e = {0};
    e.player = g->turn.active;
    e.tile = g->turn.placed;
    dispatch(g, CARC_EV_ACTION_OFFER, &e);
    if (g->rules->nhandlers[CARC_EV_ACTION_FILTER]) {
        g->filtering = true;
        dispatch(g, CARC_EV_ACTION_FILTER, &e);
        g->filtering = false;
        decision_drop_vetoed(g);
    }
    decision_build_end(g);
    if (!g->turn.action_forbid_pass || g->nopts == first) {
        carc_option *o = opt_push(g);
        if (!o) return -1;
        o->code = BASE_OPT_PASS;
    }
    decision_pose_built(g, g->turn.active, 0, "action", first);
    return CARC_PHASE_DONE;
}

/* Scores what the placement completed (BASE-10, BASE-15..19): roads, cities
 * and cloisters in one batch, followers back, then plugins score their kinds
 * (CARC_EV_SCORE), then the scoring step ends. */
static int ph_score(struct carc_ctx *ctx, int call)
{
    carc_game *g = ctx->g;
    carc_event e = {0};
    e.player = g->turn.active;
    if (call == 0) {
        g->score_step++;
        for (int i = 0; i < g->turn.ncompleted; i++) {
            e.feature = g->turn.completed[i];
            dispatch(g, CARC_EV_FEATURE_COMPLETED, &e);
        }
        batch_begin(g);
        for (int i = 0; i < g->turn.ncompleted; i++) {
            int root = g->turn.completed[i];
            const node *n = &g->nodes[root];
            if (!g->rules->kinds[n->kind].kernel_scored || (n->flags & NODE_SCORED) || !n->occupants) continue;
            score_feature_into_batch(g, root, false);
        }
        /* A player may be asked the order of their awards (ROB-15): the
         * phase then runs again after the answer and lands the rest. */
        if (batch_commit_pausable(g, g->turn.active)) return CARC_PHASE_AGAIN;
    } else if (batch_land_resume(g)) {
        return CARC_PHASE_AGAIN;
    }
    for (int i = 0; i < g->turn.ncompleted; i++) {
        int root = g->turn.completed[i];
        if (g->nodes[root].flags & NODE_SCORED) fig_return_followers(g, root);
    }
    e.feature = -1;
    dispatch(g, CARC_EV_SCORE, &e);
    e.value = g->score_step;
    dispatch(g, CARC_EV_SCORE_STEP_END, &e);
    return CARC_PHASE_DONE;
}

static int ph_turn_end(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_game *g = ctx->g;
    carc_event e = {0};
    e.player = g->turn.active;
    dispatch(g, CARC_EV_TURN_END, &e);
    if (g->stop_requested || g->npile == 0) return CARC_PHASE_END_GAME;
    return CARC_PHASE_DONE;
}

static int ph_game_end(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_event e = {0};
    e.player = ctx->g->turn.active;
    dispatch(ctx->g, CARC_EV_GAME_END, &e);
    return CARC_PHASE_DONE;
}

static int ph_final_features(struct carc_ctx *ctx, int call)
{
    (void)call;
    score_final_features(ctx->g);
    return CARC_PHASE_DONE;
}

static int ph_final_farms(struct carc_ctx *ctx, int call)
{
    (void)call;
    score_farms(ctx->g);
    return CARC_PHASE_DONE;
}

static int ph_final_score(struct carc_ctx *ctx, int call)
{
    (void)call;
    carc_event e = {0};
    dispatch(ctx->g, CARC_EV_FINAL_SCORE, &e);
    return CARC_PHASE_DONE;
}

/* ---- the base game's options: place, deploy, pass ------------------------- */

/* Carries out an option the base game offered (owner 0's apply). */
static int base_apply(struct carc_ctx *ctx, const carc_option *opt, int player)
{
    carc_game *g = ctx->g;
    switch (opt->code) {
    case BASE_OPT_PLACE: {
        int t = board_place(g, g->turn.drawn, opt->arg[0], opt->arg[1], opt->arg[2]);
        if (t < 0) {
            game_fail(g, "board full");
            return -1;
        }
        g->turn.placed = t;
        carc_event e = {0};
        e.player = player;
        e.tile = t;
        return dispatch(g, CARC_EV_TILE_PLACED, &e);
    }
    case BASE_OPT_DEPLOY:
        if (fig_place_segment(g, opt->arg[0], player, opt->tile, opt->seg) < 0) {
            game_fail(g, "no figure in supply to deploy");
            return -1;
        }
        return 0;
    case BASE_OPT_PASS:
        return 0;
    case BASE_OPT_ORDER:
        return landing_choose(g, opt);
    default:
        if (opt->code == BASE_OPT_PLACE_HELD || opt->code == BASE_OPT_DRAW) return placement_apply(g, opt, player);
        game_fail(g, "unknown kernel option %d", opt->code);
        return -1;
    }
}

/* The record text of a base-game option (owner 0's format; records.md,
 * "Option texts"). */
static int base_format(struct carc_ctx *ctx, const carc_option *o, char *buf, size_t n)
{
    const carc_game *g = ctx->g;
    switch (o->code) {
    case BASE_OPT_PLACE:
        return snprintf(buf, n, "place %d,%d r%d", o->arg[0], o->arg[1], o->arg[2] * 90);
    case BASE_OPT_DEPLOY: {
        char seg[64];
        seg_name(g, o->tile, o->seg, seg, sizeof seg);
        if (o->tile == g->turn.placed)
            return snprintf(buf, n, "deploy %s %s", g->rules->figkinds[o->arg[0]].name, seg);
        return snprintf(buf, n, "deploy %s %s at %d,%d", g->rules->figkinds[o->arg[0]].name, seg,
                        g->tiles[o->tile].x, g->tiles[o->tile].y);
    }
    case BASE_OPT_PLACE_HELD: {
        const struct carc_rules *r = g->rules;
        const char *set = o->seg >= 0 && o->seg < r->ntypes ? r->sets[r->types[o->seg].set].name : "?";
        const char *id = o->seg >= 0 && o->seg < r->ntypes ? r->types[o->seg].id : "?";
        return snprintf(buf, n, "place %s:%s %d,%d r%d", set, id, o->arg[0], o->arg[1], o->arg[2] * 90);
    }
    case BASE_OPT_DRAW:
        return snprintf(buf, n, "draw-tile");
    case BASE_OPT_PASS:
        return snprintf(buf, n, "pass");
    case BASE_OPT_ORDER:
        return landing_format(g, o, buf, n);
    default:
        return snprintf(buf, n, "?");
    }
}

/* ---- registration ------------------------------------------------------------ */

static void builtin_kind(struct carc_rules *r, const char *name, enum carc_completion c,
                         bool line, bool deployable, bool scored, char letter)
{
    int i = rules_add_kind(r, name, 0);
    kind_def *k = &r->kinds[i];
    k->completion = c;
    k->line = line;
    k->deployable = deployable;
    k->kernel_scored = scored;
    k->letter = letter;
}

static void base_phase(phase_def *list, int *n, const char *name, phase_fn fn)
{
    rules_phase_insert(list, n, *n, name, fn, 0, NULL);
}

/* The base game into fresh rules: what every variant starts from. */
void rules_init_builtins(struct carc_rules *r)
{
    builtin_kind(r, "road", CARC_COMPLETE_PORTS, true, true, true, 'R');
    builtin_kind(r, "city", CARC_COMPLETE_PORTS, false, true, true, 'C');
    builtin_kind(r, "field", CARC_COMPLETE_NEVER, false, true, false, 'F');
    builtin_kind(r, "cloister", CARC_COMPLETE_RING, false, true, true, 0);
    rules_add_mark(r, "pennant");
    rules_add_tmark(r, "start");
    rules_add_reason(r, "road");
    rules_add_reason(r, "city");
    rules_add_reason(r, "cloister");
    rules_add_reason(r, "farm");
    static const carc_figure_kind_def follower = {"follower", 0, CARC_FIGURE_FOLLOWER | CARC_FIGURE_DEPLOYABLE, 1, NULL};
    char err[200];
    rules_define_figkind(r, &follower, 0, err, sizeof err);

    rules_define_enum(r, "farm-scoring", "per-farm none per-city-once city-majority",
                      "how farms score at the end (BASE-22)", 0);
    rules_define_enum(r, "small-city", "off on",
                      "a completed 2-tile city scores 2, its pennants 1 each", 0);
    rules_define_enum(r, "incomplete-features", "score none",
                      "incomplete features score at the end (BASE-21) or not", 0);
    rules_define_enum(r, "unplaceable-tile", "discard reshuffle",
                      "a tile with no legal placement is discarded (BASE-6) or goes back", 0);
    rules_define_int(r, "followers-per-player", 7, 0, 99,
                     "followers in each player's supply (BASE-2)", 0);
    r->min_players = 2;
    r->max_players = CARC_MAX_PLAYERS;

    base_phase(r->turn_phases, &r->nturn_phases, "turn-start", ph_turn_start);
    base_phase(r->turn_phases, &r->nturn_phases, "draw", ph_draw);
    base_phase(r->turn_phases, &r->nturn_phases, "place", ph_place);
    base_phase(r->turn_phases, &r->nturn_phases, "action", ph_action);
    base_phase(r->turn_phases, &r->nturn_phases, "score", ph_score);
    base_phase(r->turn_phases, &r->nturn_phases, "turn-end", ph_turn_end);
    base_phase(r->end_phases, &r->nend_phases, "game-end", ph_game_end);
    base_phase(r->end_phases, &r->nend_phases, "final-features", ph_final_features);
    base_phase(r->end_phases, &r->nend_phases, "final-farms", ph_final_farms);
    base_phase(r->end_phases, &r->nend_phases, "final-score", ph_final_score);

    /* Owner 0's slot: its name in messages, how its options read and act. */
    snprintf(r->base.name, NAME_LEN, "kernel");
    r->base.format = base_format;
    r->base.apply = base_apply;
}
