/* engine.c - the game object and the phase machine: a game made, cloned
 * and freed; phases run in order until a decision or a draw waits for an
 * answer; events go to their handlers; a failure stops the game; the pile
 * answers draws. What the phases do is in base.c (the base game) and the
 * plugins; decisions are in decision.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

plugin_slot *owner_slot(const carc_game *g, int owner)
{
    return owner > 0 ? g->rules->plugins[owner - 1] : NULL;
}

void game_fail(carc_game *g, const char *fmt, ...)
{
    if (g->failed) return;
    g->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
}

static const char *const event_names[CARC_EV_COUNT] = {
    "game-start", "turn-start", "tile-drawn", "tile-placed", "action-offer", "action-filter",
    "option-chosen", "feature-completed", "feature-value", "feature-scored", "score-before",
    "score-after", "score", "score-step-end", "figure-removed", "turn-end", "game-end", "final-score",
    "feature-majority", "award-order"};

const char *carc_event_name(int event)
{
    return event >= 0 && event < CARC_EV_COUNT ? event_names[event] : "?";
}

int carc_event_by_name(const char *name)
{
    for (int i = 0; i < CARC_EV_COUNT; i++)
        if (strcmp(event_names[i], name) == 0) return i;
    return -1;
}

int dispatch(carc_game *g, int ev, carc_event *e)
{
    const struct carc_rules *r = g->rules;
    int n = r->nhandlers[ev];
    if (n == 0) return 0;
    e->type = ev;
    for (int i = 0; i < n && !g->failed; i++) {
        const handler_ref *h = &r->handlers[ev][i];
        struct carc_ctx ctx = GAME_CTX(g, h->owner, h->user);
        if (h->fn(&ctx, e) < 0) {
            const plugin_slot *ps = owner_slot(g, h->owner);
            game_fail(g, "%s: handler failed", ps ? ps->name : "kernel");
        }
    }
    return g->failed ? -1 : 0;
}

/* ---- lifecycle ---------------------------------------------------------------- */

static void *xcalloc(size_t n, size_t size, bool *oom)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) *oom = true;
    return p;
}

carc_game *carc_game_new(const carc_rules *r, int nplayers, const char *const *names,
                         uint64_t seed, char *err, size_t errn)
{
    if (nplayers < r->min_players || nplayers > r->max_players) {
        snprintf(err, errn, "variant %s takes %d to %d players, not %d", r->name, r->min_players,
                 r->max_players, nplayers);
        return NULL;
    }
    for (int p = 0; names && p < nplayers; p++)
        if (names[p] && strlen(names[p]) >= NAME_LEN) {
            snprintf(err, errn, "player name '%s' is longer than %d characters", names[p], NAME_LEN - 1);
            return NULL;
        }
    bool oom = false;
    carc_game *g = xcalloc(1, sizeof *g, &oom);
    if (!g) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    g->rules = r;
    g->check = check_mode_on();
    g->nplayers = nplayers;
    g->seed = seed;
    for (int p = 0; p < nplayers; p++) {
        if (names && names[p]) snprintf(g->names[p], NAME_LEN, "%s", names[p]);
        else snprintf(g->names[p], NAME_LEN, "P%d", p + 1);
        for (int k = 0; k < r->nfigkinds; k++) g->supply[p][k] = r->figkinds[k].per_player;
    }
    carc_rng_seed(&g->pile_rng, seed, CARC_STREAM_PILE);
    carc_rng_seed(&g->plugin_rng, seed, CARC_STREAM_SCRIPT);
    int maxt = r->max_tiles;
    int maxcells = 4 * maxt + 8, cap = 16;
    while (cap < 2 * maxcells) cap <<= 1;
    g->pile = xcalloc((size_t)maxt, sizeof *g->pile, &oom);
    g->aside = xcalloc((size_t)maxt, sizeof *g->aside, &oom);
    g->tiles = xcalloc((size_t)maxt, sizeof *g->tiles, &oom);
    g->cells = xcalloc((size_t)cap, sizeof *g->cells, &oom);
    g->cell_mask = cap - 1;
    g->front = xcalloc((size_t)maxcells, sizeof *g->front, &oom);
    g->nodes = xcalloc((size_t)maxt * MAX_SEGS, sizeof *g->nodes, &oom);
    g->cap_figs = CARC_MAX_PLAYERS * (r->k.followers + 8) + 16;
    g->figs = xcalloc((size_t)g->cap_figs, sizeof *g->figs, &oom);
    g->tile_stamp = xcalloc((size_t)maxt, sizeof *g->tile_stamp, &oom);
    g->pstate = xcalloc(r->state_size, 1, &oom);
    if (oom) {
        carc_game_free(g);
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    for (int t = 0; t < r->ntypes; t++)
        for (int c = r->types[t].count - (t == r->start_type); c > 0; c--) g->pile[g->npile++] = (int16_t)t;
    g->turn.drawn = g->turn.placed = -1;
    g->turn.active = -1;
    g->forced_draw = -1;
    board_place(g, r->start_type, 0, 0, 0);
    g->turn.ncompleted = 0;
    for (int i = 0; i < r->nplugins; i++) {
        plugin_slot *ps = r->plugins[i];
        if (!ps->game_init) continue;
        struct carc_ctx ctx = GAME_CTX(g, i + 1, ps->user);
        if (ps->game_init(&ctx) < 0 || g->failed) {
            snprintf(err, errn, "%s: %s", ps->name, g->error[0] ? g->error : "game set-up failed");
            carc_game_free(g);
            return NULL;
        }
    }
    return g;
}

/* Copies the first `used` elements of an array of capacity `cap`: a clone
 * only pays for what the game has used so far. */
#define CLONE_ARRAY(dst, src, field, used, cap)                               \
    do {                                                                      \
        size_t bytes_ = (size_t)(cap) * sizeof *(src)->field;                 \
        (dst)->field = malloc(bytes_ ? bytes_ : 1);                           \
        if (!(dst)->field) ok = false;                                        \
        else if (used) memcpy((dst)->field, (src)->field, (size_t)(used) * sizeof *(src)->field); \
    } while (0)

carc_game *carc_game_clone(const carc_game *src)
{
    const struct carc_rules *r = src->rules;
    carc_game *g = malloc(sizeof *g);
    if (!g) return NULL;
    *g = *src;
    bool ok = true;
    int maxt = r->max_tiles;
    CLONE_ARRAY(g, src, pile, src->npile, maxt);
    CLONE_ARRAY(g, src, aside, src->naside, maxt);
    CLONE_ARRAY(g, src, tiles, src->ntiles, maxt);
    CLONE_ARRAY(g, src, cells, src->cell_mask + 1, src->cell_mask + 1);
    CLONE_ARRAY(g, src, front, src->nfront, 4 * maxt + 8);
    CLONE_ARRAY(g, src, nodes, src->nnodes, (size_t)maxt * MAX_SEGS);
    CLONE_ARRAY(g, src, figs, src->nfigs, src->cap_figs);
    CLONE_ARRAY(g, src, tile_stamp, src->ntiles, maxt);
    CLONE_ARRAY(g, src, pstate, r->state_size, r->state_size);
    CLONE_ARRAY(g, src, opts, src->nopts, src->cap_opts);
    CLONE_ARRAY(g, src, log, src->nlog, src->cap_log);
    CLONE_ARRAY(g, src, batch, src->nbatch, src->cap_batch);
    CLONE_ARRAY(g, src, landing, src->nlanding, src->cap_landing);
    if (!ok) {
        carc_game_free(g);
        return NULL;
    }
    return g;
}

static int cmp_int16(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

void carc_game_reseed_hidden(carc_game *g, uint64_t seed)
{
    /* Which tiles are left is known; their order is not. Sorting the pile
     * first makes the sampled futures depend on the seed and that set alone. */
    qsort(g->pile, (size_t)g->npile, sizeof *g->pile, cmp_int16);
    carc_rng_seed(&g->pile_rng, seed, CARC_STREAM_PILE);
    carc_rng_seed(&g->plugin_rng, seed, CARC_STREAM_SCRIPT);
}

void carc_game_free(carc_game *g)
{
    if (!g) return;
    free(g->pile);
    free(g->aside);
    free(g->tiles);
    free(g->cells);
    free(g->front);
    free(g->nodes);
    free(g->figs);
    free(g->tile_stamp);
    free(g->pstate);
    free(g->opts);
    free(g->log);
    free(g->batch);
    free(g->landing);
    free(g);
}

/* In check mode, recomputes what the kernel keeps up to date and fails the
 * game on any difference (check.c). */
void check_move_now(carc_game *g)
{
    if (g->failed) return;
    char msg[400];
    if (carc_game_check(g, msg, sizeof msg) < 0) game_fail(g, "self-check (CARC_CHECK): %s", msg);
}

/* ---- the loop ------------------------------------------------------------------- */

int carc_advance(carc_game *g)
{
    const struct carc_rules *r = g->rules;
    for (;;) {
        if (g->failed) return CARC_FAILED;
        if (g->ndq) return CARC_NEED_CHOICE;
        if (g->need_draw) return CARC_NEED_DRAW;
        if (g->finished) {
            check_move(g); /* what the final scoring left */
            return g->failed ? CARC_FAILED : CARC_FINISHED;
        }
        const phase_def *list = g->in_end ? r->end_phases : r->turn_phases;
        int n = g->in_end ? r->nend_phases : r->nturn_phases;
        if (g->phase >= n) {
            if (g->in_end) {
                g->finished = true;
                continue;
            }
            g->phase = 0;
        }
        const phase_def *ph = &list[g->phase];
        /* No phase needs this many calls in a row (the draw phase makes one a
         * tile, and a game has at most MAX_TILES): one that keeps asking to
         * run again, or handlers that put every drawn tile back, would hang
         * the game. */
        if (g->phase_calls > PHASE_MAX_CALLS) {
            const plugin_slot *ps = owner_slot(g, ph->owner);
            game_fail(g, "%s: phase %s ran %d times without a decision", ps ? ps->name : "kernel", ph->name,
                      PHASE_MAX_CALLS);
            return CARC_FAILED;
        }
        struct carc_ctx ctx = GAME_CTX(g, ph->owner, ph->user);
        int rc = ph->fn(&ctx, g->phase_calls++);
        if (g->failed) return CARC_FAILED;
        if (rc < 0) {
            const plugin_slot *ps = owner_slot(g, ph->owner);
            game_fail(g, "%s: phase %s failed", ps ? ps->name : "kernel", ph->name);
            return CARC_FAILED;
        }
        if (rc == CARC_PHASE_DONE) {
            g->phase++;
            g->phase_calls = 0;
        } else if (rc == CARC_PHASE_END_GAME) {
            g->in_end = true;
            g->phase = 0;
            g->phase_calls = 0;
        }
    }
}

static int pile_take(carc_game *g, int type)
{
    for (int i = g->npile - 1; i >= 0; i--)
        if (g->pile[i] == type) {
            g->pile[i] = g->pile[--g->npile];
            return type;
        }
    return -1;
}

int carc_draw(carc_game *g, int type)
{
    if (!g->need_draw) {
        game_fail(g, "no tile is being drawn now");
        return -1;
    }
    if (g->npile == 0) {
        game_fail(g, "the pile is empty");
        return -1;
    }
    /* The pile's generator advances on every draw, named or not, so a record
     * that names the draws a seeded game made keeps the pile in step and a
     * resumed game draws on exactly as the original would have. */
    int i = (int)carc_rng_below(&g->pile_rng, (uint32_t)g->npile);
    if (type < 0 || g->pile[i] == type) {
        type = g->pile[i];
        g->pile[i] = g->pile[--g->npile];
    } else if (pile_take(g, type) < 0) {
        return -1; /* not in the pile: the caller reports it */
    }
    g->turn.drawn = type;
    g->need_draw = false;
    return 0;
}

/* Puts every set-aside tile back into the pile (api return_set_aside). */
int pile_return_aside(carc_game *g)
{
    int n = g->naside;
    for (int i = 0; i < n; i++) g->pile[g->npile++] = g->aside[i];
    g->naside = 0;
    return n;
}

int carc_end_now(carc_game *g)
{
    /* Called between two turns (after the last answer of a turn, before the
     * game is advanced again): the turn-end phase then ends the game. */
    g->stop_requested = true;
    if (g->turn.number == 0 && !g->in_end) {
        g->in_end = true;
        g->phase = g->phase_calls = 0;
    }
    return 0;
}

