/* features.c - the feature graph: union-find over segment nodes. Each root
 * keeps open ports, occupants and member count; members form a circular list
 * so a feature's tiles and marks can be enumerated when it is scored. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int feat_root_c(const carc_game *g, int n)
{
    while (g->nodes[n].parent != n) n = g->nodes[n].parent;
    return n;
}

void feat_join(carc_game *g, int a, int b)
{
    assert(g->nodes[a].parent == a && g->nodes[b].parent == b);
    if (a == b) return;
    node *na = &g->nodes[a], *nb = &g->nodes[b];
    if (na->size < nb->size || (na->size == nb->size && a > b)) {
        node *tn = na; na = nb; nb = tn;
        int t = a; a = b; b = t;
    }
    assert(na->kind == nb->kind && na->open >= 0 && nb->open >= 0);
    nb->parent = a;
    na->size += nb->size;
    na->open += nb->open;
    na->occupants = (uint16_t)(na->occupants + nb->occupants);
    na->flags |= nb->flags;
    uint16_t *ma = &g->node_marks[(size_t)a * (size_t)g->rules->nmarks];
    const uint16_t *mb = &g->node_marks[(size_t)b * (size_t)g->rules->nmarks];
    for (int m = 0; m < g->rules->nmarks; m++) ma[m] = ma[m] > UINT16_MAX - mb[m] ? UINT16_MAX : (uint16_t)(ma[m] + mb[m]);
    int an = na->next; /* splice the two circular lists */
    na->next = nb->next;
    nb->next = an;
}

int feat_node(const carc_game *g, int tile, int seg) { return g->tiles[tile].node0 + seg; }

int feat_distinct_tiles(carc_game *g, int root)
{
    uint32_t stamp = ++g->stamp;
    int count = 0, n = root;
    do {
        int t = g->nodes[n].tile;
        if (g->tile_stamp[t] != stamp) {
            g->tile_stamp[t] = stamp;
            count++;
        }
        n = g->nodes[n].next;
    } while (n != root);
    return count;
}

void feat_marks_init(carc_game *g, int n, const seg_def *s)
{
    uint16_t *m = &g->node_marks[(size_t)n * (size_t)g->rules->nmarks];
    memset(m, 0, (size_t)g->rules->nmarks * sizeof *m);
    for (int i = 0; i < s->nmarks; i++) m[s->mark[i]] = (uint16_t)(m[s->mark[i]] + s->mark_count[i]);
}

int feat_mark_count(carc_game *g, int root, int mark)
{
    int kept = g->node_marks[(size_t)root * (size_t)g->rules->nmarks + (size_t)mark];
    return kept < UINT16_MAX ? kept : feat_mark_walk(g, root, mark); /* past what a count keeps: the walk */
}

int feat_mark_walk(const carc_game *g, int root, int mark)
{
    int count = 0, n = root;
    do {
        const node *nd = &g->nodes[n];
        const seg_def *s = &g->rules->types[g->tiles[nd->tile].type].segs[nd->seg];
        for (int i = 0; i < s->nmarks; i++)
            if (s->mark[i] == mark) count += s->mark_count[i];
        n = nd->next;
    } while (n != root);
    return count;
}

bool feat_is_complete(const carc_game *g, int root)
{
    const node *n = &g->nodes[root];
    switch (g->rules->kinds[n->kind].completion) {
    case CARC_COMPLETE_PORTS: return n->open == 0;
    case CARC_COMPLETE_RING: return g->tiles[n->tile].ring == 8;
    case CARC_COMPLETE_CROSS: return g->tiles[n->tile].cross == 4;
    default: return false;
    }
}

void feat_followers(const carc_game *g, int root, int counts[CARC_MAX_PLAYERS])
{
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) counts[p] = 0;
    if (g->nodes[root].occupants == 0) return;
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where != CARC_AT_SEGMENT || fg->seat < 0 || !g->rules->figkinds[fg->kind].follower) continue;
        if (feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg) == root) counts[fg->seat]++;
    }
}

/* The feature's segments: up to max (tile, seg) pairs (either array may be
 * NULL); returns how many it has. */
int feat_segments(const carc_game *g, int root, int *tiles, int *segs, int max)
{
    int n = 0, i = root;
    do {
        if (n < max) {
            if (tiles) tiles[n] = g->nodes[i].tile;
            if (segs) segs[n] = g->nodes[i].seg;
        }
        n++;
        i = g->nodes[i].next;
    } while (i != root);
    return n;
}

void feat_strengths(const carc_game *g, int root, int strength[CARC_MAX_PLAYERS])
{
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) strength[p] = 0;
    if (g->nodes[root].occupants == 0) return;
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where != CARC_AT_SEGMENT || fg->seat < 0) continue;
        const figkind_def *k = &g->rules->figkinds[fg->kind];
        if (!k->follower) continue;
        if (feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg) == root) strength[fg->seat] += k->strength; /* 0 for a kind declared so (CARC_FIGURE_STRENGTH_ZERO) */
    }
}

int feat_first_segment(const carc_game *g, int root, int *tile, int *seg)
{
    int n = root, best = root;
    do {
        if (g->nodes[n].tile < g->nodes[best].tile ||
            (g->nodes[n].tile == g->nodes[best].tile && g->nodes[n].seg < g->nodes[best].seg))
            best = n;
        n = g->nodes[n].next;
    } while (n != root);
    *tile = g->nodes[best].tile;
    *seg = g->nodes[best].seg;
    return 0;
}

void int_list_init(int_list *l)
{
    l->v = l->local;
    l->n = 0;
    l->cap = (int)(sizeof l->local / sizeof l->local[0]);
    l->oom = false;
}

void int_list_push(int_list *l, int x)
{
    if (l->n == l->cap) {
        int cap = l->cap * 2;
        int *v = l->v == l->local ? malloc((size_t)cap * sizeof *v) : realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) {
            l->oom = true;
            return;
        }
        if (l->v == l->local) memcpy(v, l->local, sizeof l->local);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
}

void int_list_free(int_list *l)
{
    if (l->v != l->local) free(l->v);
    int_list_init(l);
}

/* Distinct city features a field touches, in the order first met, appended
 * to `cities`. */
void feat_bordering_cities(carc_game *g, int field_root, int_list *cities)
{
    int n = field_root;
    do {
        const node *nd = &g->nodes[n];
        const placed *p = &g->tiles[nd->tile];
        uint16_t borders = g->rules->types[p->type].segs[nd->seg].borders;
        for (int s = 0; borders; s++, borders >>= 1) {
            if (!(borders & 1u)) continue;
            int city = feat_find(g, p->node0 + s);
            int k = 0;
            while (k < cities->n && cities->v[k] != city) k++;
            if (k == cities->n) int_list_push(cities, city);
        }
        n = nd->next;
    } while (n != field_root);
}
