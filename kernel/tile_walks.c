/* tile_walks.c - the walks of a figure that moves over the placed tiles:
 * every path of 1 to N steps from a tile, each step to an orthogonally
 * adjacent placed tile, never entering a tile the walk has visited (the
 * start included). offer_tile_walks offers one option per walk while the
 * action decision is built, so a plugin that moves a figure this way (the
 * Ark) offers hundreds of moves with one call instead of a walk of its own
 * per turn. offer_figure_walks offers the same walks of a figure under a
 * walk rule the kernel applies itself (tile_walk_apply): a bot trying every
 * walk runs no plugin code for them, and walks that pay the same players
 * in the same order and end on the same tile are known to be one move
 * (tile_walk_effect). */
#include <stdlib.h>

#include "api.h"
#include "core.h"

typedef struct walker {
    carc_game *g;
    carc_option option;              /* the option being offered: arg[0], arg[1] filled per walk */
    int owner;
    int max_steps;
    int32_t path[CARC_MAX_WALK_STEPS + 1]; /* the tiles of the walk so far, the start first */
    int offered;
} walker;

static bool on_path(const walker *w, int depth, int32_t t)
{
    for (int i = 0; i <= depth; i++)
        if (w->path[i] == t) return true;
    return false;
}

/* Offers the walks that continue the one of `depth` steps ending at
 * path[depth], whose directions are `dirs`; depth-first, N E S W. */
static int walk_on(walker *w, int depth, int32_t dirs)
{
    const placed *at = &w->g->tiles[w->path[depth]];
    for (int d = 0; d < 4; d++) {
        int32_t t = at->nb[d];
        if (t < 0 || on_path(w, depth, t)) continue;
        int32_t next = dirs | (int32_t)d << (2 * depth);
        w->option.arg[0] = next;
        w->option.arg[1] = depth + 1;
        if (decision_offer(w->g, &w->option, w->owner) < 0) return -1;
        w->offered++;
        if (depth + 1 < w->max_steps) {
            w->path[depth + 1] = t;
            if (walk_on(w, depth + 1, next) < 0) return -1;
        }
    }
    return 0;
}

static int offer_from(carc_game *g, int start, int max_steps, const carc_option *option, int owner)
{
    walker w = {.g = g, .option = *option, .owner = owner, .max_steps = max_steps};
    w.path[0] = start;
    return walk_on(&w, 0, 0) < 0 ? -1 : w.offered;
}

int offer_tile_walks(carc_game *g, int start, int max_steps, const carc_option *option, int owner)
{
    carc_option o = *option;
    o.arg[2] = 0;
    return offer_from(g, start, max_steps, &o, owner);
}

static bool same_rule(const walk_rule *a, const walk_rule *b)
{
    return a->figure == b->figure && a->kinds == b->kinds && a->points == b->points && a->reason == b->reason &&
           a->owner == b->owner;
}

int offer_figure_walks(carc_game *g, int walker_id, int max_steps, const carc_option *option, int owner, uint32_t kinds,
                       int points, int reason)
{
    walk_rule rule = {.figure = walker_id, .kinds = kinds, .points = points, .reason = reason, .owner = (uint16_t)owner};
    int k = 0;
    while (k < g->nwalk_rules && !same_rule(&g->walk_rules[k], &rule)) k++;
    if (k == g->nwalk_rules) {
        if (k == CARC_MAX_WALK_RULES) return -2;
        g->walk_rules[g->nwalk_rules++] = rule;
    }
    carc_option o = *option;
    o.tile = -1;
    o.seg = CARC_SEG_WALK;
    o.arg[2] = k;
    return offer_from(g, g->figs[walker_id].tile, max_steps, &o, owner);
}

/* The rule of walk option opt, or NULL when it is not one this game made. */
static const walk_rule *rule_of(const carc_game *g, const carc_option *opt)
{
    if (opt->seg != CARC_SEG_WALK || opt->arg[2] < 0 || opt->arg[2] >= g->nwalk_rules) return NULL;
    const walk_rule *w = &g->walk_rules[opt->arg[2]];
    if (w->owner != opt->owner || w->figure < 0 || w->figure >= g->nfigs || g->figs[w->figure].where != CARC_AT_TILE)
        return NULL;
    return w;
}

/* Whether the rule pays figure f where it stands (award_figures_on's test). */
static bool pays(const walk_rule *w, const figure *f)
{
    return w->points != 0 && f->where == CARC_AT_SEGMENT && f->seat >= 0 && (!w->kinds || (w->kinds >> f->kind & 1u));
}

/* Calls visit(tile, figure id, user) for each figure the walk pays, in
 * order, then returns its last tile (-1: the walk leaves the tiles). The
 * figures are those standing when it begins: what a handler does to the
 * figures while the walk is paid changes nothing of whom it pays. */
typedef void walk_visit(const carc_game *g, int fig, void *user);
static int walk_figures(const carc_game *g, const walk_rule *w, const carc_option *opt, walk_visit *visit, void *user)
{
    int t = g->figs[w->figure].tile;
    int32_t path = opt->arg[0];
    if (opt->arg[1] < 1 || opt->arg[1] > CARC_MAX_WALK_STEPS) return -1;
    for (int i = 0; i < opt->arg[1]; i++, path >>= 2) {
        t = g->tiles[t].nb[path & 3];
        if (t < 0) return -1;
        if (w->points == 0) continue;
        for (int id = g->tiles[t].figs_on; id >= 0; id = g->figs[id].next_on_tile)
            if (pays(w, &g->figs[id])) visit(g, id, user);
    }
    return t;
}

typedef struct seat_list {
    int8_t *seat;
    int n, cap;
    bool oom;
} seat_list;

static void note_seat(const carc_game *g, int fig, void *user)
{
    seat_list *l = user;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        int8_t *s = realloc(l->seat, (size_t)cap);
        if (!s) {
            l->oom = true;
            return;
        }
        l->seat = s;
        l->cap = cap;
    }
    l->seat[l->n++] = g->figs[fig].seat;
}

int tile_walk_apply(carc_ctx *ctx, const carc_option *opt)
{
    carc_game *g = ctx->g;
    const walk_rule *w = rule_of(g, opt);
    if (!w) return api_error(ctx, "a walk whose figure or rule is gone");
    walk_rule rule = *w; /* handlers may offer nothing now, but the table is the game's */
    seat_list paid = {0};
    int last = walk_figures(g, &rule, opt, note_seat, &paid);
    if (last < 0 || paid.oom) {
        free(paid.seat);
        return api_error(ctx, paid.oom ? "out of memory" : "a walk that leaves the placed tiles");
    }
    const carc_api *api = &carc_api_v1;
    int rc = api->step_begin(ctx) < 0 ? -1 : 0;
    for (int i = 0; i < paid.n && rc == 0; i++) rc = api->award(ctx, paid.seat[i], rule.points, rule.reason, -1, 0);
    free(paid.seat);
    if (rc == 0) rc = api->figure_move(ctx, rule.figure, CARC_AT_TILE, last, -1, 0);
    if (rc == 0) rc = api->step_end(ctx);
    return rc < 0 ? -1 : 0;
}

typedef struct effect_hash {
    uint64_t h;
} effect_hash;

static void hash_seat(const carc_game *g, int fig, void *user)
{
    effect_hash *e = user;
    e->h = epoch_mix(e->h, (uint64_t)(uint8_t)g->figs[fig].seat);
}

uint64_t tile_walk_effect(const carc_game *g, const carc_option *opt)
{
    const walk_rule *w = rule_of(g, opt);
    if (!w) return 0;
    effect_hash e = {epoch_mix((uint64_t)opt->owner << 32 | (uint32_t)opt->arg[2], 0x77616c6bu)};
    int last = walk_figures(g, w, opt, hash_seat, &e);
    if (last < 0) return 0;
    uint64_t key = epoch_mix(e.h, (uint64_t)last);
    return key ? key : 1;
}
