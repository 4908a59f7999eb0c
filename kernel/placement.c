/* placement.c - the placement decision opened to plugins: place-offer (a
 * plugin offers placements of a tile a player holds, with the drawn tile's
 * or before the draw, instead of drawing) and place-filter (a plugin vetoes
 * placements before any player, bot or page sees them); the tiles players
 * hold outside the pile; what a kernel placement option places.
 *
 * Nothing here runs unless a plugin registered for place-offer or
 * place-filter (rules->place_hooked): the base game lists its placements and
 * poses them as before. */
#include <string.h>

#include "core.h"

int tiles_outstanding(const carc_game *g)
{
    int n = g->ntiles + g->npile + g->naside;
    for (int p = 0; p < g->nplayers; p++) n += g->nheld[p];
    if (g->turn.drawn >= 0 && g->turn.placed < 0) n++;
    return n;
}

int held_take(carc_game *g, int seat, int type)
{
    int n = g->nheld[seat];
    for (int i = 0; i < n; i++)
        if (g->held[seat][i] == type) {
            /* Keep the order of the rest: a hand is listed in the order given. */
            memmove(&g->held[seat][i], &g->held[seat][i + 1], (size_t)(n - i - 1) * sizeof g->held[seat][0]);
            g->nheld[seat]--;
            return 0;
        }
    return -1;
}

int placement_of_option(const carc_game *g, const carc_option *o, int *type, int *x, int *y, int *rot)
{
    if (!o || o->owner != 0 || (o->code != BASE_OPT_PLACE && o->code != BASE_OPT_PLACE_HELD)) return -1;
    /* The kernel's place options keep the tile type in `seg` (their `tile`
     * is -1: they name no placed tile). */
    if (type) *type = o->seg;
    if (x) *x = o->arg[0];
    if (y) *y = o->arg[1];
    if (rot) *rot = o->arg[2];
    (void)g;
    return 0;
}

/* Raises place-filter over the options from build_first on and drops the
 * vetoed ones. */
static int filter(carc_game *g, carc_event *e)
{
    if (!g->rules->nhandlers[CARC_EV_PLACE_FILTER]) return 0;
    g->filtering = true;
    int rc = dispatch(g, CARC_EV_PLACE_FILTER, e);
    g->filtering = false;
    decision_drop_vetoed(g);
    return rc;
}

int placement_build(carc_game *g, int first, int type, bool before_draw)
{
    carc_event e = {0};
    e.player = g->turn.active;
    e.tile = type;
    e.flags = before_draw ? CARC_PLACE_BEFORE_DRAW : 0;
    decision_build_place_begin(g, first);
    int rc = dispatch(g, CARC_EV_PLACE_OFFER, &e);
    if (rc == 0) rc = filter(g, &e);
    decision_build_end(g);
    return rc < 0 || g->failed ? -1 : 0;
}

bool placement_possible(carc_game *g, int type)
{
    if (!board_any_placement(g, type)) return false;
    if (!g->rules->nhandlers[CARC_EV_PLACE_FILTER]) return true;
    /* List the placements past the options in use, let the filter veto,
     * count what is left, and forget them. */
    int first = g->nopts;
    carc_option *o = opt_room(g, 4 * g->nfront);
    if (!o) return false;
    const carc_option place = {.code = BASE_OPT_PLACE, .tile = -1, .seg = type};
    g->nopts = (int)(board_list_placements(g, type, &place, o) - g->opts);
    carc_event e = {0};
    e.player = g->turn.active;
    e.tile = type;
    e.flags = CARC_PLACE_PROBE;
    decision_build_place_begin(g, first);
    filter(g, &e);
    decision_build_end(g);
    bool left = g->nopts > first;
    g->nopts = first;
    return left && !g->failed;
}

int carc_option_placement(const carc_game *g, int i, int *type, int *x, int *y, int *rot)
{
    return placement_of_option(g, carc_option_at(g, i), type, x, y, rot);
}

int carc_held_tiles(const carc_game *g, int seat)
{
    return seat >= 0 && seat < g->nplayers ? g->nheld[seat] : -1;
}

int carc_held_tile(const carc_game *g, int seat, int i)
{
    return seat >= 0 && seat < g->nplayers && i >= 0 && i < g->nheld[seat] ? g->held[seat][i] : -1;
}

int placement_apply(carc_game *g, const carc_option *opt, int player)
{
    if (opt->code == BASE_OPT_DRAW) return 0; /* the draw phase goes on to draw */
    /* A tile the player holds, instead of the drawn one (which goes back
     * into the pile) or instead of drawing. */
    int type = opt->seg;
    if (type < 0 || type >= g->rules->ntypes || held_take(g, player, type) < 0) {
        game_fail(g, "place: the player holds no such tile");
        return -1;
    }
    if (g->turn.drawn >= 0) {
        g->pile[g->npile++] = (int16_t)g->turn.drawn;
        g->turn.drawn = -1;
    }
    int t = board_place(g, type, opt->arg[0], opt->arg[1], opt->arg[2]);
    if (t < 0) {
        game_fail(g, "board full");
        return -1;
    }
    g->turn.placed = t;
    carc_event e = {0};
    e.player = player;
    e.tile = t;
    e.flags = CARC_PLACED_HELD;
    return dispatch(g, CARC_EV_TILE_PLACED, &e);
}

int placement_completions_bound(const carc_game *g, int type, int x, int y)
{
    /* The new tile's features, and the ring and cross features of its 8
     * neighbours (the turn's list notes each feature once). */
    int n = g->rules->types[type].nsegs;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int t = (dx || dy) ? board_tile_at(g, x + dx, y + dy) : -1;
            if (t < 0) continue;
            const tile_type *tt = &g->rules->types[g->tiles[t].type];
            n += __builtin_popcount((unsigned)(tt->ring_segs | tt->cross_segs));
        }
    return n;
}
