/* figures.c - everything that stands somewhere: followers on segments,
 * neutral figures on tiles, robbers on the score track, prisoners in a
 * player's hand, and every move of one: standing, moving, removing (with
 * its event), capturing and freeing (with theirs), followers going home
 * after scoring. Slots are stable (a removed figure leaves a free slot) so
 * plugins may keep figure ids. */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "core.h"

/* Whether a figure in this place is on its tile's list. */
static bool on_a_tile(int where)
{
    return where == CARC_AT_SEGMENT || where == CARC_AT_TILE || where == CARC_AT_CORNER;
}

/* Puts figure f on its tile's list, in id order (a tile holds a few). */
static void tile_link(carc_game *g, int f)
{
    figure *fg = &g->figs[f];
    int32_t *at = &g->tiles[fg->tile].figs_on;
    while (*at >= 0 && *at < f) at = &g->figs[*at].next_on_tile;
    fg->next_on_tile = *at;
    *at = f;
}

static void tile_unlink(carc_game *g, int f)
{
    figure *fg = &g->figs[f];
    int32_t *at = &g->tiles[fg->tile].figs_on;
    while (*at != f) {
        assert(*at >= 0);
        at = &g->figs[*at].next_on_tile;
    }
    *at = fg->next_on_tile;
    fg->next_on_tile = -1;
}

int fig_next_on_tile(const carc_game *g, int tile, int after)
{
    int f = g->tiles[tile].figs_on;
    while (f >= 0 && f <= after) f = g->figs[f].next_on_tile;
    return f;
}

/* Stands a figure in the first free slot, growing the table when it is
 * full. -1 when the game holds MAX_FIGURES already or memory is out. */
int fig_add(carc_game *g, int kind, int seat, int where, int tile, int seg, int space)
{
    int f = 0;
    while (f < g->nfigs && g->figs[f].where != CARC_AT_NONE) f++;
    if (f == g->nfigs) {
        if (g->nfigs == MAX_FIGURES) return -1;
        if (g->nfigs == g->cap_figs) {
            int cap = g->cap_figs * 2 > MAX_FIGURES ? MAX_FIGURES : g->cap_figs * 2;
            figure *figs = realloc(g->figs, (size_t)cap * sizeof *figs);
            if (!figs) return -1;
            g->figs = figs;
            g->cap_figs = cap;
        }
        g->nfigs++;
    }
    figure *fg = &g->figs[f];
    fg->where = (uint8_t)where;
    fg->kind = (uint8_t)kind;
    fg->seat = (int8_t)seat;
    fg->tile = tile;
    fg->seg = seg;
    fg->space = space;
    fg->next_on_tile = -1;
    if (on_a_tile(where)) tile_link(g, f);
    if (where == CARC_AT_SEGMENT && g->rules->figkinds[kind].follower) {
        int root = feat_find(g, g->tiles[tile].node0 + seg);
        g->nodes[root].occupants++;
        nodes_follower(g, true, root, seat, kind);
    }
    return f;
}

/* Stands a figure (api figure_place): from its owner's supply when
 * from_supply. Its id, or -1 when the supply has none, -2 when the table is
 * full. */
int fig_place(carc_game *g, int kind, int seat, int where, int tile, int seg, int space, bool from_supply)
{
    if (from_supply) {
        if (seat < 0 || g->supply[seat][kind] == 0) return -1;
        g->supply[seat][kind]--;
    }
    int f = fig_add(g, kind, seat, where, where == CARC_AT_TRACK ? -1 : tile, where == CARC_AT_SEGMENT ? seg : -1,
                    where == CARC_AT_TRACK || where == CARC_AT_CORNER ? space : 0);
    if (f < 0) {
        if (from_supply) g->supply[seat][kind]++;
        return -2;
    }
    return f;
}

/* Moves a standing figure to another place; a follower leaves its feature's
 * occupants and joins the new one's. */
void fig_move(carc_game *g, int f, int where, int tile, int seg, int space)
{
    figure *fg = &g->figs[f];
    bool follower = g->rules->figkinds[fg->kind].follower;
    if (follower && fg->where == CARC_AT_SEGMENT) {
        int root = feat_find(g, g->tiles[fg->tile].node0 + fg->seg);
        assert(g->nodes[root].occupants > 0);
        g->nodes[root].occupants--;
        nodes_follower(g, false, root, fg->seat, fg->kind);
    }
    if (on_a_tile(fg->where)) tile_unlink(g, f);
    fg->where = (uint8_t)where;
    fg->tile = on_a_tile(where) ? tile : -1;
    fg->seg = where == CARC_AT_SEGMENT ? seg : -1;
    fg->space = where == CARC_AT_TRACK || where == CARC_AT_CORNER || where == CARC_AT_HELD ? space : 0;
    if (on_a_tile(where)) tile_link(g, f);
    if (follower && where == CARC_AT_SEGMENT) {
        int root = feat_find(g, g->tiles[tile].node0 + seg);
        g->nodes[root].occupants++;
        nodes_follower(g, true, root, fg->seat, fg->kind);
    }
}

/* Takes a figure from its owner's supply and stands it on a segment. */
int fig_place_segment(carc_game *g, int kind, int seat, int tile, int seg)
{
    if (g->supply[seat][kind] == 0) return -1;
    int f = fig_add(g, kind, seat, CARC_AT_SEGMENT, tile, seg, 0);
    if (f >= 0) g->supply[seat][kind]--;
    return f;
}

void fig_remove(carc_game *g, int f, bool to_supply)
{
    figure *fg = &g->figs[f];
    assert(f >= 0 && f < g->nfigs && fg->where != CARC_AT_NONE);
    if (fg->where == CARC_AT_SEGMENT && g->rules->figkinds[fg->kind].follower) {
        int root = feat_find(g, g->tiles[fg->tile].node0 + fg->seg);
        assert(g->nodes[root].occupants > 0);
        g->nodes[root].occupants--;
        nodes_follower(g, false, root, fg->seat, fg->kind);
    }
    if (to_supply && fg->seat >= 0) g->supply[fg->seat][fg->kind]++;
    if (on_a_tile(fg->where)) tile_unlink(g, f);
    fg->where = CARC_AT_NONE;
    while (g->nfigs > 0 && g->figs[g->nfigs - 1].where == CARC_AT_NONE) g->nfigs--;
}

/* The figures standing on a feature, appended to `figs` in slot order. */
void fig_on_feature(const carc_game *g, int root, int_list *figs)
{
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where == CARC_AT_SEGMENT && feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg) == root)
            int_list_push(figs, f);
    }
}

/* Removes a figure (to the supply unless how is CARC_GONE_BOX) and raises
 * CARC_EV_FIGURE_REMOVED. */
int fig_remove_event(carc_game *g, int f, int how, int feature)
{
    figure fg = g->figs[f];
    how = fig_removal(g, f, how); /* a kind used once goes into the box (ARK-15) */
    fig_remove(g, f, how != CARC_GONE_BOX);
    carc_event e = {0};
    e.figure = f;
    e.player = fg.seat;
    e.tile = fg.tile;
    e.feature = feature;
    e.flags = how;
    e.value = fg.kind;
    return dispatch(g, CARC_EV_FIGURE_REMOVED, &e);
}

/* Figure f (on the board, a seat's) into holder's hand (CARC_AT_HELD, its
 * space the holder); raises CARC_EV_FIGURE_CAPTURED. */
int fig_capture(carc_game *g, int f, int holder)
{
    figure before = g->figs[f];
    int feature = fig_feature(g, f);
    fig_move(g, f, CARC_AT_HELD, -1, -1, holder);
    carc_event e = {0};
    e.figure = f;
    e.player = holder;
    e.tile = on_a_tile(before.where) ? before.tile : -1;
    e.feature = feature;
    e.value = before.kind;
    return dispatch(g, CARC_EV_FIGURE_CAPTURED, &e);
}

/* Held figure f out of the hand: to its owner's supply, or the box (how);
 * raises CARC_EV_FIGURE_FREED. */
int fig_free(carc_game *g, int f, int how)
{
    figure fg = g->figs[f];
    fig_remove(g, f, how != CARC_GONE_BOX);
    carc_event e = {0};
    e.figure = f;
    e.player = fg.space;
    e.tile = -1;
    e.feature = -1;
    e.flags = how;
    e.value = fg.kind;
    return dispatch(g, CARC_EV_FIGURE_FREED, &e);
}

/* The feature a figure stands on, or -1 when it stands on no segment. */
int fig_feature(carc_game *g, int f)
{
    const figure *fg = &g->figs[f];
    return fg->where == CARC_AT_SEGMENT ? feat_find(g, g->tiles[fg->tile].node0 + fg->seg) : -1;
}

/* Returns the followers of a scored feature (BASE-19); a figure kind marked
 * boxed-when-scored (the Prophet, ARK-15) leaves the game instead. */
void fig_return_followers(carc_game *g, int root)
{
    int_list figs;
    int_list_init(&figs);
    fig_on_feature(g, root, &figs);
    if (figs.oom) game_fail(g, "out of memory");
    for (int i = 0; i < figs.n && !g->failed; i++) {
        const figure *fg = &g->figs[figs.v[i]];
        if (!g->rules->figkinds[fg->kind].follower) continue;
        fig_remove_event(g, figs.v[i], g->rules->figkinds[fg->kind].boxed_when_scored ? CARC_GONE_BOX : CARC_GONE_SCORED,
                         root);
    }
    int_list_free(&figs);
}

int fig_removal(const carc_game *g, int f, int how)
{
    return g->rules->figkinds[g->figs[f].kind].boxed_when_removed ? CARC_GONE_BOX : how;
}

/* Whether a follower kind may stand on a segment of feature kind k. */
static bool stands_on(const struct carc_rules *r, const figkind_def *f, int k)
{
    return r->kinds[k].deployable && (f->stands_on == 0 || (f->stands_on >> k) & 1u);
}

int fig_kind_stands_on(const struct carc_rules *r, int kind, int feature_kind)
{
    return stands_on(r, &r->figkinds[kind], feature_kind);
}

int offer_deploys_on(carc_game *g, int player, int tile, bool elsewhere)
{
    const struct carc_rules *r = g->rules;
    const placed *pl = &g->tiles[tile];
    const tile_type *tt = &r->types[pl->type];
    int offered = 0;
    for (int k = 0; k < r->nfigkinds; k++) {
        const figkind_def *f = &r->figkinds[k];
        if (!f->follower || !f->deployable || g->supply[player][k] == 0) continue;
        for (int s = 0; s < tt->nsegs; s++) {
            if (!stands_on(r, f, tt->segs[s].kind)) continue;
            int root = feat_find(g, pl->node0 + s);
            if (g->nodes[root].occupants || (elsewhere && feat_is_complete(g, root))) continue;
            carc_option *o = opt_push(g);
            if (!o) return -1;
            o->code = BASE_OPT_DEPLOY;
            o->tile = tile;
            o->seg = s;
            o->arg[0] = k;
            offered++;
        }
    }
    return offered;
}

/* Offers `option` once per figure of `seat` (-1: neutral) standing `where`
 * whose kind is in the mask `kinds` (0: every kind), in id order, skipping
 * figure `except`: each with the figure's tile (-1 on the track), segment
 * (-1 off a segment) and id in arg[0]. What a plugin that moves a figure
 * next to one of the player's offers in one call (the fairy). The number
 * offered, or -1. */
int offer_figures(carc_game *g, int seat, int where, uint32_t kinds, int except, const carc_option *option, int owner)
{
    carc_option o = *option;
    int offered = 0;
    for (int id = 0; id < g->nfigs; id++) {
        const figure *f = &g->figs[id];
        if (f->where != where || f->seat != seat || id == except || (kinds && !(kinds >> f->kind & 1u))) continue;
        o.tile = on_a_tile(where) ? f->tile : -1;
        o.seg = where == CARC_AT_SEGMENT ? f->seg : -1;
        o.arg[0] = id;
        if (decision_offer(g, &o, owner) < 0) return -1;
        offered++;
    }
    return offered;
}

/* A tile's two ports at each corner (board directions), clockwise from
 * the north-west: Nw/Wn, Ne/En, Es/Se, Sw/Ws. */
static const int8_t CORNER_PORTS[CARC_CORNERS][2] = {
    {CARC_Nw, CARC_Wn}, {CARC_Ne, CARC_En}, {CARC_Es, CARC_Se}, {CARC_Sw, CARC_Ws}};

int corner_feature(carc_game *g, int tile, int corner, int kind)
{
    const placed *p = &g->tiles[tile];
    /* The point as the north-west corner of the space (px, py); around it
     * the spaces west, north-west and north of it, at their NE, SE and SW. */
    int px = p->x + (corner == CARC_CORNER_NE || corner == CARC_CORNER_SE);
    int py = p->y + (corner == CARC_CORNER_SE || corner == CARC_CORNER_SW);
    static const struct { int8_t dx, dy, corner; } around[4] = {
        {0, 0, CARC_CORNER_NW}, {-1, 0, CARC_CORNER_NE}, {-1, -1, CARC_CORNER_SE}, {0, -1, CARC_CORNER_SW}};
    int feature = -1;
    for (int i = 0; i < 4; i++) {
        int t = board_tile_at(g, px + around[i].dx, py + around[i].dy);
        if (t < 0) return -1;
        const placed *q = &g->tiles[t];
        const tile_type *tt = &g->rules->types[q->type];
        for (int k = 0; k < 2; k++) {
            int seg = tt->seg_at[q->rot][CORNER_PORTS[around[i].corner][k]];
            if (tt->segs[seg].kind != kind) return -1;
            int root = feat_find(g, q->node0 + seg);
            if (feature >= 0 && root != feature) return -1;
            feature = root;
        }
    }
    return feature;
}
