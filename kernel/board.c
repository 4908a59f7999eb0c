/* board.c - placed tiles, the position hash, the frontier of open positions
 * with the edge each side requires, and legal placement. */
#include <assert.h>
#include <string.h>

#include "core.h"

/* A position as one word, never 0 (the mark of a free cell): coordinates
 * stay within MAX_TILES of the start, far inside 16 bits. */
_Static_assert(MAX_TILES + 2 < 0x8000, "board positions fit a cell key");
static uint32_t cell_key(int x, int y)
{
    return (uint32_t)(uint16_t)(x + 0x8000) << 16 | (uint16_t)(y + 0x8000);
}

static uint32_t cell_slot(const carc_game *g, uint32_t key)
{
    uint32_t h = key * 0x9E3779B1u;
    return (h ^ (h >> 15)) & (uint32_t)g->cell_mask;
}

static cell *cell_find(const carc_game *g, int x, int y)
{
    uint32_t key = cell_key(x, y);
    for (uint32_t i = cell_slot(g, key);; i = (i + 1) & (uint32_t)g->cell_mask) {
        cell *c = &g->cells[i];
        if (c->key == key) return c;
        if (c->key == 0) return NULL;
    }
}

/* Notes a cell about to change, for a look-ahead copy's next restore. */
static void cell_changes(carc_game *g, const cell *c)
{
    if (g->ncell_journal < 0) return;
    if (g->ncell_journal == CELL_JOURNAL) g->ncell_journal = -1;
    else g->cell_journal[g->ncell_journal++] = (int32_t)(c - g->cells);
}

/* The cell of (x, y), made if there is none; the caller may change it. */
static cell *cell_insert(carc_game *g, int x, int y)
{
    uint32_t key = cell_key(x, y);
    for (uint32_t i = cell_slot(g, key);; i = (i + 1) & (uint32_t)g->cell_mask) {
        cell *c = &g->cells[i];
        if (c->key == key) {
            cell_changes(g, c);
            return c;
        }
        if (c->key == 0) {
            cell_changes(g, c);
            *c = (cell){.key = key, .tile = -1, .fidx = -1};
            return c;
        }
    }
}

int board_tile_at(const carc_game *g, int x, int y)
{
    const cell *c = cell_find(g, x, y);
    return c ? c->tile : -1;
}

int board_frontier_index(const carc_game *g, int x, int y)
{
    const cell *c = cell_find(g, x, y);
    return c && c->tile < 0 ? c->fidx : -1;
}

bool board_fits(const carc_game *g, int type, int fidx, int rot)
{
    return (board_type_fits(&g->rules->types[type], &g->front[fidx]) >> rot) & 1u;
}

int board_count_placements(const carc_game *g, int type)
{
    const tile_type *tt = &g->rules->types[type];
    int n = 0;
    for (int i = 0; i < g->nfront; i++) n += __builtin_popcount(board_type_fits(tt, &g->front[i]));
    return n;
}

/* One rotation of a frontier position: written whatever it is, kept (the
 * next write goes past it) when it fits. */
static inline carc_option *put_rotation(carc_option *o, const carc_option *at, int rot, unsigned fits)
{
    *o = *at;
    o->arg[2] = rot;
    return o + ((fits >> rot) & 1u);
}

carc_option *board_list_placements(const carc_game *g, int type, const carc_option *proto, carc_option *out)
{
    /* Without a branch on whether a rotation fits: that comes out in no
     * pattern (half of the frontier positions take no rotation of the
     * drawn tile), and its mispredictions cost more than the writes. */
    uint32_t sig[4]; /* a copy the option writes cannot alias: loaded once */
    const tile_type *tt = &g->rules->types[type];
    memcpy(sig, tt->sig, sizeof sig);
    bool wild = tt->wild_sides;
    carc_option at = *proto;
    for (int i = 0; i < g->nfront; i++) {
        const frontier_pos *f = &g->front[i];
        unsigned fits = wild ? board_type_fits(tt, f) : board_fit_rotations(sig, f);
        at.arg[0] = f->x;
        at.arg[1] = f->y;
        out = put_rotation(out, &at, 0, fits);
        out = put_rotation(out, &at, 1, fits);
        out = put_rotation(out, &at, 2, fits);
        out = put_rotation(out, &at, 3, fits);
    }
    return out;
}

bool board_any_placement(const carc_game *g, int type)
{
    const tile_type *tt = &g->rules->types[type];
    for (int i = 0; i < g->nfront; i++)
        if (board_type_fits(tt, &g->front[i])) return true;
    return false;
}

static void frontier_remove(carc_game *g, cell *c)
{
    assert(c->fidx >= 0 && c->fidx < g->nfront);
    int i = c->fidx, last = --g->nfront;
    if (i != last) {
        g->front[i] = g->front[last];
        cell *moved = cell_find(g, g->front[i].x, g->front[i].y);
        cell_changes(g, moved);
        moved->fidx = i;
    }
    c->fidx = -1;
}

static void note_completed(carc_game *g, int root)
{
    node *n = &g->nodes[root];
    if (n->flags & NODE_COMPLETE) return;
    n->flags |= NODE_COMPLETE;
    nodes_changed(g, NODES_COMPLETE, (uint64_t)(uint32_t)root);
    /* Sized for every segment of the placed tile and its 8 neighbours: each
     * feature is noted once (NODE_COMPLETE), so this cannot overflow. */
    assert(g->turn.ncompleted < (int)(sizeof g->turn.completed / sizeof g->turn.completed[0]));
    g->turn.completed[g->turn.ncompleted++] = root;
}

/* Notes the features of tile t that its neighbours complete: those of
 * segments whose kind completes with a full ring or cross, once it is full
 * (a feature is noted once, so asking again when nothing changed would
 * add nothing). */
static void check_inner(carc_game *g, int t)
{
    const placed *p = &g->tiles[t];
    const tile_type *tt = &g->rules->types[p->type];
    unsigned segs = (p->ring == 8 ? tt->ring_segs : 0u) | (p->cross == 4 ? tt->cross_segs : 0u);
    for (; segs; segs &= segs - 1) note_completed(g, feat_find(g, p->node0 + __builtin_ctz(segs)));
}

/* Joins port `port` of the new tile p to the facing port of its neighbour
 * q: one port fewer open on each side's feature, then one feature. A wild
 * edge (NAME:L:wild) on either side joins nothing: it closes the port
 * facing it, whose feature may be complete now (the new tile's own are
 * looked at once all its ports are joined). */
static void join_port(carc_game *g, const placed *p, const placed *q, int port)
{
    const struct carc_rules *r = g->rules;
    int a = feat_find(g, p->node0 + r->types[p->type].seg_at[p->rot][port]);
    int b = feat_find(g, q->node0 + r->types[q->type].seg_at[q->rot][port_opposite(port)]);
    g->nodes[a].open--;
    g->nodes[b].open--;
    if (r->kinds[g->nodes[a].kind].wild || r->kinds[g->nodes[b].kind].wild) {
        if (g->nodes[b].open == 0 && r->kinds[g->nodes[b].kind].completion == CARC_COMPLETE_PORTS)
            note_completed(g, b);
        return;
    }
    assert(g->nodes[a].kind == g->nodes[b].kind); /* only matching edges are placed */
    feat_join(g, a, b);
}

/* A tile among the 8 around the new one: each counts the other in its ring
 * (and cross, when orthogonal), and the neighbour's inner features may now
 * be complete. */
static void ring_neighbours(carc_game *g, placed *p, int u, bool orth)
{
    placed *q = &g->tiles[u];
    q->ring++;
    p->ring++;
    if (orth) {
        q->cross++;
        p->cross++;
    }
    if (q->ring == 8 || (orth && q->cross == 4)) check_inner(g, u);
}

int board_place(carc_game *g, int type, int x, int y, int rot)
{
    static const int8_t ddx[4] = {0, 1, 0, -1}, ddy[4] = {-1, 0, 1, 0}; /* N E S W */
    const struct carc_rules *r = g->rules;
    const tile_type *tt = &r->types[type];
    if (g->ntiles >= r->max_tiles) return -1;
    /* the features change: what was kept of them is stale */
    uint64_t placement = (uint64_t)(uint16_t)type | (uint64_t)(uint16_t)x << 16 | (uint64_t)(uint16_t)y << 32 | (uint64_t)(rot & 3) << 48;
    g->board_epoch = epoch_mix(g->board_epoch, placement);
    nodes_changed(g, NODES_PLACED, placement);
    int t = g->ntiles++;
    placed *p = &g->tiles[t];
    p->x = (int16_t)x;
    p->y = (int16_t)y;
    p->rot = (uint8_t)rot;
    p->type = (uint16_t)type;
    p->ring = p->cross = 0;
    p->node0 = g->nnodes;
    p->figs_on = -1;
    g->tile_stamp[t] = 0; /* clones copy only the stamps of placed tiles */
    for (int s = 0; s < tt->nsegs; s++) {
        int id = g->nnodes++;
        g->nodes[id] = (node){.parent = id, .next = id, .tile = (uint16_t)t, .seg = (uint8_t)s,
                              .kind = tt->segs[s].kind, .open = tt->nports[s], .size = 1};
        feat_marks_init(g, id, &tt->segs[s]);
    }
    cell *c = cell_insert(g, x, y);
    if (c->fidx >= 0) frontier_remove(g, c);
    c->tile = t;

    for (int d = 0; d < 4; d++) {
        cell *nc = cell_find(g, x + ddx[d], y + ddy[d]);
        if (nc && nc->tile >= 0) {
            int u = nc->tile;
            placed *q = &g->tiles[u];
            p->nb[d] = u;
            q->nb[(d + 2) & 3] = t;
            for (int o = 0; o < 3; o++) join_port(g, p, q, d * 3 + o);
        } else {
            p->nb[d] = -1;
            if (!nc) nc = cell_insert(g, x + ddx[d], y + ddy[d]);
            if (nc->fidx < 0) {
                cell_changes(g, nc);
                nc->fidx = g->nfront++;
                g->front[nc->fidx] = (frontier_pos){.x = (int16_t)(x + ddx[d]), .y = (int16_t)(y + ddy[d])};
            }
            frontier_pos *f = &g->front[nc->fidx];
            int side = (d + 2) & 3;
            if (!(tt->keep[rot] >> (8 * d) & 0xffu)) continue; /* a wild side asks nothing */
            uint32_t cls = r->edge_class_rev[(tt->sig[rot] >> (8 * d)) & 0xffu];
            f->req |= cls << (8 * side);
            f->mask |= 0xffu << (8 * side);
        }
    }
    /* The ring, row by row (the order features are noted complete in). The
     * orthogonal neighbours are known; a diagonal one is the neighbour of
     * an orthogonal one, looked up only when both of those are empty. */
    static const struct { int8_t dx, dy, side, sx, sy; } ring[8] = {
        {-1, -1, -1, 3, 0}, {0, -1, 0, 0, 0}, {1, -1, -1, 1, 0}, {-1, 0, 3, 0, 0},
        {1, 0, 1, 0, 0},    {-1, 1, -1, 3, 2}, {0, 1, 2, 0, 0},  {1, 1, -1, 1, 2}};
    for (int i = 0; i < 8; i++) {
        int u;
        if (ring[i].side >= 0) {
            u = p->nb[ring[i].side];
        } else if (p->nb[ring[i].sx] >= 0) {
            u = g->tiles[p->nb[ring[i].sx]].nb[ring[i].sy];
        } else if (p->nb[ring[i].sy] >= 0) {
            u = g->tiles[p->nb[ring[i].sy]].nb[ring[i].sx];
        } else {
            const cell *nc = cell_find(g, x + ring[i].dx, y + ring[i].dy);
            u = nc ? nc->tile : -1;
        }
        if (u >= 0) ring_neighbours(g, p, u, ring[i].side >= 0);
    }
    for (unsigned segs = tt->ports_segs; segs; segs &= segs - 1) {
        int root = feat_find(g, p->node0 + __builtin_ctz(segs));
        if (g->nodes[root].open == 0) note_completed(g, root);
    }
    check_inner(g, t);
    return t;
}
