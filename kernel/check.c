/* check.c - the kernel checking itself. Everything the board and the feature
 * graph keep up to date move by move (the frontier with the edges it
 * requires, the position hash, neighbours, ring and cross counts, the
 * features with their members, open ports and occupants, completion) is
 * recomputed here from the placed tiles and the figures alone, and compared.
 *
 * carc_game_check does it on demand; with CARC_CHECK=1 in the environment
 * when a game is made, the game does it after every carc_choose (which
 * also covers what the phases did since the last one) and when it finishes
 * (engine.c, check_move); a difference fails the game with a message
 * naming it. The property tests
 * and the fuzz targets run with it on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int mismatch(char *err, size_t errn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int mismatch(char *err, size_t errn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
    return -1;
}

static int uf_find(int *parent, int n)
{
    while (parent[n] != n) n = parent[n] = parent[parent[n]];
    return n;
}

/* The board: hash, neighbours, ring and cross counts, the frontier. */
static int check_board(const carc_game *g, char *err, size_t errn)
{
    const struct carc_rules *r = g->rules;
    for (int t = 0; t < g->ntiles; t++) {
        const placed *p = &g->tiles[t];
        if (board_tile_at(g, p->x, p->y) != t)
            return mismatch(err, errn, "tile %d at %d,%d is not found there", t, p->x, p->y);
        int ring = 0, cross = 0, nb[4];
        for (int d = 0; d < 4; d++) { /* the four beside, then the four corners */
            int dx, dy;
            dir_delta(d, &dx, &dy);
            nb[d] = board_tile_at(g, p->x + dx, p->y + dy);
            cross += nb[d] >= 0;
            ring += (nb[d] >= 0) + (board_tile_at(g, p->x + dx - dy, p->y + dy + dx) >= 0);
        }
        if (ring != p->ring || cross != p->cross)
            return mismatch(err, errn, "tile %d at %d,%d counts %d around and %d beside, not %d and %d", t, p->x, p->y,
                            p->ring, p->cross, ring, cross);
        for (int d = 0; d < 4; d++) {
            int dx, dy;
            dir_delta(d, &dx, &dy);
            int u = nb[d];
            if (u != p->nb[d])
                return mismatch(err, errn, "tile %d at %d,%d has neighbour %d on side %s, not %d", t, p->x, p->y,
                                p->nb[d], dir_name(d), u);
            int fi = u < 0 ? board_frontier_index(g, p->x + dx, p->y + dy) : 0;
            if (fi < 0 || fi >= g->nfront)
                return mismatch(err, errn, "%d,%d beside tile %d is not on the frontier", p->x + dx, p->y + dy, t);
        }
    }
    for (int i = 0; i < g->nfront; i++) {
        const frontier_pos *f = &g->front[i];
        if (board_tile_at(g, f->x, f->y) >= 0)
            return mismatch(err, errn, "frontier position %d,%d holds a tile", f->x, f->y);
        if (board_frontier_index(g, f->x, f->y) != i)
            return mismatch(err, errn, "frontier position %d,%d is not found at its index %d", f->x, f->y, i);
        uint32_t req = 0, mask = 0;
        bool beside = false;
        for (int s = 0; s < 4; s++) {
            int dx, dy;
            dir_delta(s, &dx, &dy);
            int u = board_tile_at(g, f->x + dx, f->y + dy);
            if (u < 0) continue;
            beside = true;
            const placed *q = &g->tiles[u];
            int facing = (s + 2) & 3;
            if (!(r->types[q->type].keep[q->rot] >> (8 * facing) & 0xffu)) continue; /* wild: asks nothing */
            uint32_t cls = r->edge_class_rev[(r->types[q->type].sig[q->rot] >> (8 * facing)) & 0xffu];
            req |= cls << (8 * s);
            mask |= 0xffu << (8 * s);
        }
        if (!beside) return mismatch(err, errn, "frontier position %d,%d has no tile beside it", f->x, f->y);
        if (req != f->req || mask != f->mask)
            return mismatch(err, errn, "frontier position %d,%d requires %08x/%08x, not %08x/%08x", f->x, f->y, f->req,
                            f->mask, req, mask);
    }
    return 0;
}

/* The feature graph, rebuilt: which segments belong together, and what each
 * feature knows as a whole. */
static int check_features(const carc_game *g, char *err, size_t errn)
{
    const struct carc_rules *r = g->rules;
    int n = g->nnodes, rc = 0;
    int *scratch = malloc((size_t)(n ? n : 1) * 6 * sizeof *scratch);
    if (!scratch) return mismatch(err, errn, "out of memory");
    int *parent = scratch, *open = scratch + n, *size = scratch + 2 * n, *occupants = scratch + 3 * n;
    int *to_fresh = scratch + 4 * n, *to_kept = scratch + 5 * n;
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        open[i] = size[i] = occupants[i] = 0;
        to_fresh[i] = to_kept[i] = -1;
        const node *nd = &g->nodes[i];
        if (nd->parent < 0 || nd->parent >= n || nd->next < 0 || nd->next >= n || nd->tile >= g->ntiles) {
            rc = mismatch(err, errn, "segment node %d links outside the graph", i);
            goto done;
        }
    }
    for (int t = 0; t < g->ntiles; t++) {
        const placed *p = &g->tiles[t];
        const tile_type *tt = &r->types[p->type];
        for (int port = 0; port < CARC_PORTS; port++) {
            int a = p->node0 + tt->seg_at[p->rot][port];
            int u = p->nb[port_side(port)];
            if (u < 0) {
                open[a]++;
                continue;
            }
            const placed *q = &g->tiles[u];
            int b = q->node0 + r->types[q->type].seg_at[q->rot][port_opposite(port)];
            if (r->kinds[g->nodes[a].kind].wild || r->kinds[g->nodes[b].kind].wild) continue; /* closed, not joined */
            parent[uf_find(parent, a)] = uf_find(parent, b);
        }
    }
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where != CARC_AT_SEGMENT || !r->figkinds[fg->kind].follower) continue;
        occupants[g->tiles[fg->tile].node0 + fg->seg]++;
    }
    for (int i = 0; i < n; i++) {
        int kept = feat_root_c(g, i), fresh = uf_find(parent, i);
        if (to_fresh[kept] < 0 && to_kept[fresh] < 0) {
            to_fresh[kept] = fresh;
            to_kept[fresh] = kept;
        } else if (to_fresh[kept] != fresh || to_kept[fresh] != kept) {
            rc = mismatch(err, errn, "segment %d of tile %d is in feature %d, which joins segments the board keeps apart "
                          "(or splits what it joins)", g->nodes[i].seg, g->nodes[i].tile, kept);
            goto done;
        }
        if (g->nodes[i].kind != g->nodes[kept].kind) {
            rc = mismatch(err, errn, "feature %d mixes kinds %s and %s", kept, kind_name(r, g->nodes[kept].kind),
                          kind_name(r, g->nodes[i].kind));
            goto done;
        }
        if (i != kept) {
            open[kept] += open[i];
            occupants[kept] += occupants[i];
        }
        size[kept]++;
    }
    for (int i = 0; i < n; i++) {
        const node *nd = &g->nodes[i];
        if (nd->parent != i) continue;
        if (nd->open != open[i] || nd->size != size[i] || nd->occupants != occupants[i]) {
            rc = mismatch(err, errn, "feature %d (%s) keeps %d open ports, %d segments, %d occupants; it has %d, %d, %d", i,
                          kind_name(r, nd->kind), nd->open, nd->size, nd->occupants, open[i], size[i], occupants[i]);
            goto done;
        }
        int walked = 0, m = i;
        do {
            if (feat_root_c(g, m) != i || ++walked > size[i]) break;
            m = g->nodes[m].next;
        } while (m != i);
        if (walked != size[i] || m != i) {
            rc = mismatch(err, errn, "feature %d's member list does not go round its %d segments", i, size[i]);
            goto done;
        }
        /* The mark counts kept at the root (features.c), against the members' marks. */
        for (int k = 0; k < r->nmarks; k++) {
            int counted = feat_mark_walk(g, i, k);
            int kept = g->node_marks[(size_t)i * (size_t)r->nmarks + (size_t)k];
            if (kept != (counted < UINT16_MAX ? counted : UINT16_MAX)) {
                rc = mismatch(err, errn, "feature %d (%s) keeps %d marks '%s'; its segments hold %d", i,
                              kind_name(r, nd->kind), kept, r->marks[k], counted);
                goto done;
            }
        }
        bool noted = nd->flags & NODE_COMPLETE;
        if (noted != feat_is_complete(g, i)) {
            rc = mismatch(err, errn, "feature %d (%s) is %scomplete but noted %scomplete", i, kind_name(r, nd->kind),
                          noted ? "not " : "", noted ? "" : "not ");
            goto done;
        }
    }
done:
    free(scratch);
    return rc;
}

/* Figures stand on placed tiles; pending decisions are ranges of the option
 * array. */
static int check_figures_and_decisions(const carc_game *g, char *err, size_t errn)
{
    const struct carc_rules *r = g->rules;
    if (g->nfigs > 0 && g->figs[g->nfigs - 1].where == CARC_AT_NONE)
        return mismatch(err, errn, "the figure table ends with a free slot");
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where == CARC_AT_NONE) continue;
        if (fg->kind >= r->nfigkinds || fg->seat < -1 || fg->seat >= g->nplayers)
            return mismatch(err, errn, "figure %d has kind %d and seat %d", f, fg->kind, fg->seat);
        if ((fg->where == CARC_AT_SEGMENT || fg->where == CARC_AT_TILE || fg->where == CARC_AT_CORNER) &&
            (fg->tile < 0 || fg->tile >= g->ntiles))
            return mismatch(err, errn, "figure %d stands on tile %d of %d", f, fg->tile, g->ntiles);
        if (fg->where == CARC_AT_SEGMENT && (fg->seg < 0 || fg->seg >= r->types[g->tiles[fg->tile].type].nsegs))
            return mismatch(err, errn, "figure %d stands on segment %d of tile %d", f, fg->seg, fg->tile);
        if (fg->where == CARC_AT_HELD && (fg->seat < 0 || fg->space < 0 || fg->space >= g->nplayers || fg->tile != -1))
            return mismatch(err, errn, "figure %d of seat %d is held by seat %d", f, fg->seat, fg->space);
        if (fg->where > CARC_AT_HELD) return mismatch(err, errn, "figure %d stands at place %d", f, fg->where);
    }
    /* Each tile's figure list holds the figures standing there, in id order. */
    int listed = 0, standing = 0;
    for (int f = 0; f < g->nfigs; f++)
        standing += g->figs[f].where == CARC_AT_SEGMENT || g->figs[f].where == CARC_AT_TILE || g->figs[f].where == CARC_AT_CORNER;
    for (int t = 0; t < g->ntiles; t++) {
        int last = -1;
        for (int f = g->tiles[t].figs_on; f >= 0; f = g->figs[f].next_on_tile) {
            if (f <= last || f >= g->nfigs || ++listed > standing)
                return mismatch(err, errn, "tile %d's figure list holds figure %d out of order, twice or out of the table", t, f);
            const figure *fg = &g->figs[f];
            if ((fg->where != CARC_AT_SEGMENT && fg->where != CARC_AT_TILE && fg->where != CARC_AT_CORNER) || fg->tile != t)
                return mismatch(err, errn, "tile %d's figure list holds figure %d, which stands elsewhere", t, f);
            last = f;
        }
    }
    if (listed != standing)
        return mismatch(err, errn, "the tiles' figure lists hold %d figures; %d stand on tiles", listed, standing);
    for (int p = 0; p < g->nplayers; p++)
        for (int k = 0; k < r->nfigkinds; k++)
            if (g->supply[p][k] < 0) return mismatch(err, errn, "%s has %d %s in supply", g->names[p], g->supply[p][k], r->figkinds[k].name);
    int end = 0;
    for (int i = 0; i < g->ndq; i++) {
        const decision *d = &g->dq[i];
        if (d->first < end || d->n <= 0 || d->first + d->n > g->nopts)
            return mismatch(err, errn, "decision %d holds options %d to %d of %d", i, d->first, d->first + d->n, g->nopts);
        end = d->first + d->n;
    }
    return 0;
}

int carc_game_check(const carc_game *g, char *err, size_t errn)
{
    if (!g || !err) return -1;
    err[0] = 0;
    /* Figures first: the feature check counts occupants where they stand. */
    if (check_board(g, err, errn) < 0 || check_figures_and_decisions(g, err, errn) < 0 ||
        check_features(g, err, errn) < 0)
        return -1;
    return 0;
}

bool check_mode_on(void)
{
    const char *s = getenv("CARC_CHECK");
    return s && *s && strcmp(s, "0") != 0;
}
