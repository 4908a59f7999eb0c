/* figures.c - everything that stands somewhere: followers on segments,
 * neutral figures on tiles, robbers on the score track. Slots are stable
 * (a removed figure leaves a free slot) so plugins may keep figure ids. */
#include "core.h"

int fig_add(carc_game *g, int kind, int owner, int where, int tile, int seg, int space)
{
    int f = 0;
    while (f < g->nfigs && g->figs[f].where != WHERE_NONE) f++;
    if (f == g->nfigs) {
        if (g->nfigs == g->cap_figs) return -1;
        g->nfigs++;
    }
    figure *fg = &g->figs[f];
    fg->where = (uint8_t)where;
    fg->kind = (uint8_t)kind;
    fg->owner = (int8_t)owner;
    fg->tile = tile;
    fg->seg = seg;
    fg->space = space;
    if (where == WHERE_SEGMENT && g->rules->figkinds[kind].follower) {
        int root = feat_find(g, g->tiles[tile].node0 + seg);
        g->nodes[root].occupants++;
    }
    return f;
}

/* Takes a figure from its owner's supply and stands it on a segment. */
int fig_place_segment(carc_game *g, int kind, int owner, int tile, int seg)
{
    if (g->supply[owner][kind] == 0) return -1;
    int f = fig_add(g, kind, owner, WHERE_SEGMENT, tile, seg, 0);
    if (f >= 0) g->supply[owner][kind]--;
    return f;
}

void fig_remove(carc_game *g, int f, bool to_supply)
{
    figure *fg = &g->figs[f];
    if (fg->where == WHERE_SEGMENT && g->rules->figkinds[fg->kind].follower) {
        int root = feat_find(g, g->tiles[fg->tile].node0 + fg->seg);
        g->nodes[root].occupants--;
    }
    if (to_supply && fg->owner >= 0) g->supply[fg->owner][fg->kind]++;
    fg->where = WHERE_NONE;
    while (g->nfigs > 0 && g->figs[g->nfigs - 1].where == WHERE_NONE) g->nfigs--;
}

int fig_on_feature(const carc_game *g, int root, int *out, int max)
{
    int n = 0;
    for (int f = 0; f < g->nfigs && n < max; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where == WHERE_SEGMENT && feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg) == root)
            out[n++] = f;
    }
    return n;
}
