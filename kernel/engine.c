/* engine.c - the game object and the phase machine: a game made, cloned
 * and freed; phases run in order until a decision or a draw waits for an
 * answer; events go to their handlers; a failure stops the game; the pile
 * answers draws. What the phases do is in base.c (the base game) and the
 * plugins; decisions are in decision.c. */
#include <stdarg.h>
#include <stdatomic.h>
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
    "feature-majority", "award-order", "place-offer", "place-filter", "figure-captured", "figure-freed"};

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

int dispatch_to_handlers(carc_game *g, int ev, carc_event *e)
{
    const struct carc_rules *r = g->rules;
    int n = r->nhandlers[ev];
    e->type = ev;
    for (int i = 0; i < n && !g->failed; i++) {
        const handler_ref *h = &r->handlers[ev][i];
        if (g->scripts_muted && h->owner > 0 && r->plugins[h->owner - 1]->is_script) continue;
        struct carc_ctx ctx = GAME_CTX(g, h->owner, h->user);
        if (h->fn(&ctx, e) < 0) {
            const plugin_slot *ps = owner_slot(g, h->owner);
            game_fail(g, "%s: handler failed", ps ? ps->name : "kernel");
        }
    }
    return g->failed ? -1 : 0;
}

/* ---- lifecycle ---------------------------------------------------------------- */

/* Every array a game owns, listed once: carc_game_new, carc_game_clone,
 * game_copy and carc_game_free all follow this table.
 *   X(field, made, used, cap, kind)
 *   made  elements a new game makes room for (0: none until it grows)
 *   used  elements in use: what a clone or a copy carries
 *   cap   the field counting a growable array's room (none: its room is made)
 *   kind  FIXED    sized once from the rules, written before it is read
 *         NODES    as FIXED; a copy leaves them when dst holds src's already
 *                  (the same nodes_epoch: core.h)
 *         CELLS    sized once, all zero when made (a free cell's key is 0); a
 *                  copy restores only the cells that differ (cells_origin)
 *         STATE    the plugins' state blocks: all zero when made, copied block
 *                  by block up to each one's used length (copy_plugin_states)
 *         GROWS    grows by doubling; a copy makes room first
 *         OPTIONS  grows; a copy may leave out the pending decision's
 *         OWN      grows; a copy keeps its own (the award log)
 * The expressions read g (the game), r (its rules), maxt (its room for
 * tiles) and cells (its room for cells). */
#define GAME_ARRAYS(X)                                                                                 \
    X(pile, maxt, g->npile, none, FIXED)                                                              \
    X(aside, maxt, g->naside, none, FIXED)                                                            \
    X(tiles, maxt, g->ntiles, none, FIXED)                                                            \
    X(cells, cells, g->cell_mask + 1, none, CELLS)                                                    \
    X(front, 4 * maxt + 8, g->nfront, none, FIXED)                                                    \
    X(nodes, (size_t)maxt * MAX_SEGS, g->nnodes, none, NODES)                                         \
    X(node_marks, (size_t)maxt * MAX_SEGS * (size_t)r->nmarks, (size_t)g->nnodes * (size_t)r->nmarks, \
      none, NODES)                                                                                    \
    X(figs, CARC_MAX_PLAYERS * (r->k.followers + 8) + 16, g->nfigs, cap_figs, GROWS)                  \
    X(tile_stamp, maxt, g->ntiles, none, FIXED)                                                       \
    X(pstate, r->state_size, r->state_size, none, STATE)                                              \
    X(opts, 0, g->nopts, cap_opts, OPTIONS)                                                           \
    X(log, 0, g->nlog, cap_log, OWN)                                                                  \
    X(batch, 0, g->nbatch, cap_batch, GROWS)                                                          \
    X(landing, 0, g->nlanding, cap_landing, GROWS)

/* Whether an array of that kind is sized once (0) or grows (1). */
#define GROWS_FIXED 0
#define GROWS_NODES 0
#define GROWS_CELLS 0
#define GROWS_STATE 0
#define GROWS_GROWS 1
#define GROWS_OPTIONS 1
#define GROWS_OWN 1

static void *xcalloc(size_t n, size_t size, bool *oom)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) *oom = true;
    return p;
}

/* An array the game fills before it reads it (as a clone's): not cleared,
 * which was a tenth of a random base game. */
static void *xmalloc(size_t n, size_t size, bool *oom)
{
    void *p = malloc((n ? n : 1) * size);
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
        for (int k = 0; k < r->nfigkinds; k++) {
            const figkind_def *fk = &r->figkinds[k];
            g->supply[p][k] = fk->any_by_players && fk->by_players[nplayers] >= 0 ? fk->by_players[nplayers] : fk->per_player;
        }
    }
    carc_rng_seed(&g->pile_rng, seed, CARC_STREAM_PILE);
    carc_rng_seed(&g->plugin_rng, seed, CARC_STREAM_SCRIPT);
    int maxt = r->max_tiles;
    /* Cells: the placed tiles and the frontier. A tile placed next to
     * another adds at most 3 frontier positions, so a game has fewer than
     * three quarters of maxcells: with room for 1.5 times maxcells the
     * hash stays under half full, and is small to clear and to copy. */
    int maxcells = 4 * maxt + 8, cap = 16;
    while (cap < maxcells + maxcells / 2) cap <<= 1;
    g->cell_mask = cap - 1;
    size_t cells = (size_t)cap;
#define NEW_SIZED(f, made) g->f = xmalloc((size_t)(made), sizeof *g->f, &oom)
#define NEW_CLEARED(f, made) g->f = xcalloc((size_t)(made), sizeof *g->f, &oom)
#define NEW_GROWING(f, made, cap)                                       \
    if ((made) > 0) {                                                   \
        g->cap = (made);                                                \
        g->f = xmalloc((size_t)(made), sizeof *g->f, &oom);             \
    }
#define NEW_ARRAY(f, made, used, cap, kind) NEW_##kind(f, made, cap);
#define NEW_FIXED(f, made, cap) NEW_SIZED(f, made)
#define NEW_NODES(f, made, cap) NEW_SIZED(f, made)
#define NEW_CELLS(f, made, cap) NEW_CLEARED(f, made)
#define NEW_STATE(f, made, cap) NEW_CLEARED(f, made)
#define NEW_GROWS(f, made, cap) NEW_GROWING(f, made, cap)
#define NEW_OPTIONS(f, made, cap) NEW_GROWING(f, made, cap)
#define NEW_OWN(f, made, cap) NEW_GROWING(f, made, cap)
    GAME_ARRAYS(NEW_ARRAY)
    g->made_max_tiles = maxt;
    g->made_state_size = r->state_size;
    g->serial = game_serial_new();
    g->ncell_journal = -1;
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
    g->board_epoch = g->nodes_epoch = game_serial_new(); /* each game's epochs its own (core.h) */
    board_place(g, r->start_type, 0, 0, 0);
    g->turn.ncompleted = 0;
    for (int i = 0; i < r->nplugins; i++) {
        plugin_slot *ps = r->plugins[i];
        if (!ps->game_init) continue;
        struct carc_ctx ctx = GAME_CTX(g, i + 1, ps->user);
        if (ps->game_init(&ctx) < 0 || g->failed) {
            /* The error names the plugin already when the plugin failed the
             * game itself (api fail, a script's carc.fail): once is enough. */
            size_t nl = strlen(ps->name);
            if (strncmp(g->error, ps->name, nl) == 0 && strncmp(g->error + nl, ": ", 2) == 0)
                snprintf(err, errn, "%s", g->error);
            else
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
        else if ((used) > 0) memcpy((dst)->field, (src)->field, (size_t)(used) * sizeof *(src)->field); \
    } while (0)

carc_game *carc_game_clone(const carc_game *src)
{
    carc_game *clone = malloc(sizeof *clone);
    if (!clone) return NULL;
    *clone = *src;
    bool ok = true;
    const carc_game *g = src; /* GAME_ARRAYS reads the source */
    const struct carc_rules *r = g->rules;
    int maxt = r->max_tiles;
    size_t cells = (size_t)g->cell_mask + 1;
#define CLONE_ROOM_0(made, cap) (made)
#define CLONE_ROOM_1(made, cap) g->cap
#define CLONE_ROOM(grows, made, cap) CLONE_ROOM_##grows(made, cap)
#define CLONE_ROOM_OF(grows, made, cap) CLONE_ROOM(grows, made, cap)
#define CLONE_EACH(f, made, used, cap, kind) CLONE_ARRAY(clone, g, f, used, CLONE_ROOM_OF(GROWS_##kind, made, cap));
    GAME_ARRAYS(CLONE_EACH)
    clone->serial = game_serial_new();
    clone->ncell_journal = -1;
    clone->shape_memo = NULL;
    clone->field_cities = NULL;
    clone->field_cities_epoch = 0;
    game_mark_trial(clone, src);
    if (!ok) {
        carc_game_free(clone);
        return NULL;
    }
    return clone;
}

/* Grows a heap array to at least `need` elements; false when out of memory
 * (the array is then unchanged). */
static bool reserve(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) return true;
    void *q = realloc(*p, (size_t)need * size);
    if (!q) return false;
    *p = q;
    *cap = need;
    return true;
}

/* memcpy of the first `used` elements (none: an array not yet made may be NULL). */
#define COPY_USED(dst, src, field, used)                                                  \
    do {                                                                                   \
        if ((used) > 0) memcpy((dst)->field, (src)->field, (size_t)(used) * sizeof *(src)->field); \
    } while (0)

uint64_t game_serial_new(void)
{
    static _Atomic uint64_t next = 1; /* games are made on several threads (sim --jobs) */
    return atomic_fetch_add(&next, 1);
}

/* Each array's place in GAME_ARRAYS. */
#define ARRAY_INDEX(f, made, used, cap, kind) ARRAY_##f,
enum { GAME_ARRAYS(ARRAY_INDEX) GAME_NARRAYS };

/* What a game's cells are: the cells of the game `base` when it had
 * `tiles` tiles, except at the n indices of `journal` (core.h). */
typedef struct cells_origin {
    uint64_t base;
    int tiles, n;
    const int32_t *journal;
} cells_origin;

static cells_origin cells_origin_of(const carc_game *g)
{
    if (g->ncell_journal < 0) return (cells_origin){g->serial, g->ntiles, 0, NULL};
    return (cells_origin){g->cells_base, g->cells_base_tiles, g->ncell_journal, g->cell_journal};
}

/* The plugins' state blocks: a block that knows its used length is copied
 * up to it, and what dst used beyond it is cleared (the rest of a block is
 * zero), so the copy is still equal byte for byte. */
static void copy_plugin_states(carc_game *dst, const carc_game *src)
{
    const struct carc_rules *r = src->rules;
    size_t copied = 0; /* blocks without a used length go in runs */
    for (int i = 0; i < r->nplugins; i++) {
        const plugin_slot *ps = r->plugins[i];
        if (!ps->state_used || !ps->state_size) continue;
        if (ps->state_off > copied) memcpy(dst->pstate + copied, src->pstate + copied, ps->state_off - copied);
        unsigned char *to = dst->pstate + ps->state_off;
        size_t n = ps->state_used(src->pstate + ps->state_off), was = ps->state_used(to);
        memcpy(to, src->pstate + ps->state_off, n);
        if (was > n) memset(to + n, 0, was - n);
        copied = ps->state_off + ps->state_size;
    }
    if (r->state_size > copied) memcpy(dst->pstate + copied, src->pstate + copied, r->state_size - copied);
}

int game_copy(carc_game *dst, const carc_game *src, bool without_pending)
{
    if (dst == src || dst->rules != src->rules || dst->cell_mask != src->cell_mask ||
        dst->made_max_tiles != src->made_max_tiles || dst->made_state_size != src->made_state_size)
        return -1;
    const carc_game *g = src; /* GAME_ARRAYS reads the source */
    const struct carc_rules *r = g->rules;
    /* Room first, so that a failure leaves dst as it was (the log is dst's own). */
#define RESERVE_ROOM(f, cap) \
    if (!reserve((void **)&dst->f, &dst->cap, src->cap, sizeof *dst->f)) return -1;
#define RESERVE_EACH(f, made, used, cap, kind) RESERVE_##kind(f, cap)
#define RESERVE_FIXED(f, cap)
#define RESERVE_NODES(f, cap)
#define RESERVE_CELLS(f, cap)
#define RESERVE_STATE(f, cap)
#define RESERVE_GROWS(f, cap) RESERVE_ROOM(f, cap)
#define RESERVE_OPTIONS(f, cap) RESERVE_ROOM(f, cap)
#define RESERVE_OWN(f, cap)
    GAME_ARRAYS(RESERVE_EACH)
    /* The cells: when dst's and src's are the same base's except at their
     * journals' indices, only those are copied. */
    cells_origin from = cells_origin_of(src), was = cells_origin_of(dst);
    if (from.base == was.base && from.tiles == was.tiles && from.n + was.n < src->cell_mask) {
        for (int i = 0; i < was.n; i++) dst->cells[was.journal[i]] = src->cells[was.journal[i]];
        for (int i = 0; i < from.n; i++) dst->cells[from.journal[i]] = src->cells[from.journal[i]];
    } else {
        COPY_USED(dst, src, cells, src->cell_mask + 1);
    }
    /* dst keeps its own arrays and their room. */
    void *owned[GAME_NARRAYS];
    int room[GAME_NARRAYS];
#define KEEP_ROOM_0(f, cap)
#define KEEP_ROOM_1(f, cap) room[ARRAY_##f] = dst->cap;
#define KEEP_ROOM(grows, f, cap) KEEP_ROOM_##grows(f, cap)
#define KEEP_ROOM_OF(grows, f, cap) KEEP_ROOM(grows, f, cap)
#define KEEP_EACH(f, made, used, cap, kind) owned[ARRAY_##f] = dst->f; KEEP_ROOM_OF(GROWS_##kind, f, cap)
    GAME_ARRAYS(KEEP_EACH)
    /* Most look-ahead moves place no tile and move no follower: dst, copied
     * from the same source again, holds its nodes already. */
    bool same_nodes = dst->nodes_epoch == src->nodes_epoch && dst->nnodes == src->nnodes;
    struct shape_memo *memo = dst->shape_memo;
    /* dst's estimate, when made for the nodes src has, outlives the copy:
     * the next move tried from src that leaves the nodes finds it. */
    bool keep_estimate = dst->estimate_epoch != 0 && dst->estimate_epoch == src->nodes_epoch;
    int estimate[CARC_MAX_PLAYERS];
    memcpy(estimate, dst->estimate, sizeof estimate);
    int16_t *field_cities = dst->field_cities;
    uint64_t field_cities_epoch = dst->field_cities_epoch;
    *dst = *src;
    dst->shape_memo = memo; /* its entries belong to dst's old serial: not used again */
    dst->field_cities = field_cities; /* valid again if src has the same features */
    dst->field_cities_epoch = field_cities_epoch;
    if (keep_estimate) {
        dst->estimate_epoch = src->nodes_epoch;
        memcpy(dst->estimate, estimate, sizeof estimate);
    }
#define PUT_ROOM_0(f, cap)
#define PUT_ROOM_1(f, cap) dst->cap = room[ARRAY_##f];
#define PUT_ROOM(grows, f, cap) PUT_ROOM_##grows(f, cap)
#define PUT_ROOM_OF(grows, f, cap) PUT_ROOM(grows, f, cap)
#define PUT_EACH(f, made, used, cap, kind) dst->f = owned[ARRAY_##f]; PUT_ROOM_OF(GROWS_##kind, f, cap)
    GAME_ARRAYS(PUT_EACH)
    dst->serial = game_serial_new(); /* new contents: a copy made from dst must not count on the old */
    game_mark_trial(dst, src);
    dst->cells_base = from.base;
    dst->cells_base_tiles = from.tiles;
    dst->ncell_journal = from.n; /* src's journal came with the struct */
    /* The contents: the cells are copied above, the options below. */
#define COPY_EACH(f, made, used, cap, kind) COPY_##kind(f, used)
#define COPY_FIXED(f, used) COPY_USED(dst, src, f, used);
#define COPY_NODES(f, used) if (!same_nodes) COPY_USED(dst, src, f, used);
#define COPY_CELLS(f, used)
#define COPY_STATE(f, used) copy_plugin_states(dst, src);
#define COPY_GROWS(f, used) COPY_USED(dst, src, f, used);
#define COPY_OPTIONS(f, used)
#define COPY_OWN(f, used)
    GAME_ARRAYS(COPY_EACH)
    /* The log only grows and no rule reads it: the copy starts its own. */
    dst->log_from = src->log_from + src->nlog;
    dst->nlog = 0;
    if (!without_pending || !src->ndq) {
        COPY_USED(dst, src, opts, src->nopts);
        return 0;
    }
    /* The pending decision is answered on the copy: its options (all but
     * the chosen one, which the caller holds) are not copied. */
    const decision *d = &src->dq[0];
    int after = src->nopts - (d->first + d->n);
    if (d->first > 0) memcpy(dst->opts, src->opts, (size_t)d->first * sizeof *dst->opts);
    if (after > 0) memcpy(dst->opts + d->first, src->opts + d->first + d->n, (size_t)after * sizeof *dst->opts);
    dst->nopts = src->nopts - d->n;
    dst->ndq = src->ndq - 1;
    for (int i = 0; i < dst->ndq; i++) {
        dst->dq[i] = src->dq[i + 1];
        if (dst->dq[i].first > d->first) dst->dq[i].first -= d->n;
    }
    return 0;
}

int carc_game_copy_into(carc_game *dst, const carc_game *src)
{
    return game_copy(dst, src, false);
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

void game_mark_trials_spent(carc_game *g) { g->trials_spent = true; }

int carc_game_trials_spent(const carc_game *g) { return g->trials_spent; }

void carc_game_mute_scripts(carc_game *g) { g->scripts_muted = true; }

/* dst, just made a copy of src, tries moves for src's decision (or, when
 * src is itself a copy, for the decision src was made for). */
void game_mark_trial(carc_game *dst, const carc_game *src)
{
    dst->trial_of = src->trial_of ? src->trial_of : src->serial;
    dst->trial_at = src->trial_of ? src->trial_at : src->answered;
    dst->trials_spent = src->trials_spent;
}

game_host_view game_host_view_of(const carc_game *g)
{
    return (game_host_view){g->serial, g->turn.number, g->in_end, g->trial_of, g->trial_at};
}

char *game_error_buffer(carc_game *g, size_t *n)
{
    *n = sizeof g->error;
    return g->error;
}

bool game_failed(const carc_game *g) { return g->failed; }

void carc_game_free(carc_game *g)
{
    if (!g) return;
    shape_memo_free(g->shape_memo);
    free(g->field_cities);
#define FREE_EACH(f, made, used, cap, kind) free(g->f);
    GAME_ARRAYS(FREE_EACH)
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

/* Whether the turn's tile (the one placed this turn, else the one drawn;
 * none before the draw) bears one of the tile marks. */
static bool turn_tile_has_marks(const carc_game *g, uint32_t marks)
{
    int type = g->turn.placed >= 0 ? g->tiles[g->turn.placed].type : g->turn.drawn;
    return type >= 0 && (g->rules->types[type].tile_marks & marks) != 0;
}

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
        if (ph->needs_tile_marks && g->phase_calls == 0 && !turn_tile_has_marks(g, ph->needs_tile_marks)) {
            g->phase++; /* as if it had said "done" at once, without a call */
            continue;
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

/* The pile as data ([set] pile = first, last = ID): while tiles of a set
 * drawn first are in the pile only they may be drawn, their sets' last
 * tiles once no other of them is left. Which class of the pile's tiles may
 * be drawn now: 2 the first ones but the last, 1 the last ones, 0 any. */
static int pile_class_now(const carc_game *g)
{
    const struct carc_rules *r = g->rules;
    int cls = 0;
    for (int i = 0; i < g->npile; i++) {
        const tile_set *s = &r->sets[r->types[g->pile[i]].set];
        if (!s->pile_first) continue;
        if (g->pile[i] != s->last_type) return 2;
        cls = 1;
    }
    return cls;
}

static int pile_class_of(const carc_game *g, int type)
{
    const tile_set *s = &g->rules->sets[g->rules->types[type].set];
    return !s->pile_first ? 0 : type == s->last_type ? 1 : 2;
}

/* carc_draw for rules whose pile has an order: one draw of the pile's
 * generator, as for any pile, among the tiles that may come now. */
static int __attribute__((noinline, cold)) draw_ordered(carc_game *g, int type)
{
    int cls = pile_class_now(g), n = 0;
    for (int i = 0; i < g->npile; i++) n += !cls || pile_class_of(g, g->pile[i]) == cls;
    int k = (int)carc_rng_below(&g->pile_rng, (uint32_t)n);
    if (type >= 0) {
        if (cls && pile_class_of(g, type) != cls) {
            bool in_pile = false;
            for (int i = 0; i < g->npile && !in_pile; i++) in_pile = g->pile[i] == type;
            if (!in_pile) return -1; /* not in the pile: the caller reports it */
            const struct carc_rules *r = g->rules;
            game_fail(g, "%s:%s cannot be drawn now: %s", r->sets[r->types[type].set].name, r->types[type].id,
                      pile_class_of(g, type) == 1 ? "it comes last of the tiles drawn first (its set's last = ...)"
                                                  : "the tiles of a set drawn first (pile = first) come before it");
            return -1;
        }
        if (pile_take(g, type) < 0) return -1;
    } else {
        for (int i = 0; i < g->npile; i++) {
            if (cls && pile_class_of(g, g->pile[i]) != cls) continue;
            if (k-- == 0) {
                type = g->pile[i];
                g->pile[i] = g->pile[--g->npile];
                break;
            }
        }
    }
    g->turn.drawn = type;
    g->need_draw = false;
    return 0;
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
    if (__builtin_expect(g->rules->pile_order, 0)) return draw_ordered(g, type);
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

