/* tile_walks.c - the walks of a figure that moves over the placed tiles:
 * every path of 1 to N steps from a tile, each step to an orthogonally
 * adjacent placed tile, never entering a tile the walk has visited (the
 * start included). offer_tile_walks offers one option per walk while the
 * action decision is built, so a plugin that moves a figure this way (the
 * Ark) offers hundreds of moves with one call instead of a walk of its own
 * per turn. */
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

int offer_tile_walks(carc_game *g, int start, int max_steps, const carc_option *option, int owner)
{
    walker w = {.g = g, .option = *option, .owner = owner, .max_steps = max_steps};
    w.option.arg[2] = 0;
    w.path[0] = start;
    return walk_on(&w, 0, 0) < 0 ? -1 : w.offered;
}
