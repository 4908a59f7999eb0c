/* segments.c - the segments of placed tiles: the ports they cover on the
 * board, and their names ("city@N", records.md "Segment names"), written
 * canonically and read in any form. */
#include <stdio.h>
#include <string.h>

#include "core.h"

const char *kind_name(const struct carc_rules *r, int kind)
{
    return kind >= 0 && kind < r->nkinds ? r->kinds[kind].name : "?";
}

/* Board-port mask of a placed tile's segment. */
static uint16_t board_ports(const carc_game *g, int tile, int seg)
{
    const placed *p = &g->tiles[tile];
    const tile_type *tt = &g->rules->types[p->type];
    uint16_t m = 0;
    for (int port = 0; port < CARC_PORTS; port++)
        if (tt->seg_at[p->rot][port] == seg) m |= (uint16_t)(1u << port);
    return m;
}

/* The port that names the segment: the first edge N E S W it covers (a road
 * at the middle, other kinds both halves), else the first half in the order
 * Nw Ne En Es Se Sw Ws Wn, else -1 for inner. */
int seg_canonical_port(const carc_game *g, int tile, int seg)
{
    uint16_t m = board_ports(g, tile, seg);
    if (!m) return -1;
    int kind = g->rules->types[g->tiles[tile].type].segs[seg].kind;
    bool line = g->rules->kinds[kind].line;
    for (int side = 0; side < 4; side++) {
        int h1 = side * 3, mid = h1 + 1, h2 = h1 + 2;
        if (line ? (m >> mid) & 1u : ((m >> h1) & 1u) && ((m >> h2) & 1u)) return mid;
    }
    static const int halves[8] = {CARC_Nw, CARC_Ne, CARC_En, CARC_Es, CARC_Se, CARC_Sw, CARC_Ws, CARC_Wn};
    for (int i = 0; i < 8; i++)
        if ((m >> halves[i]) & 1u) return halves[i];
    return (int)__builtin_ctz(m); /* a road on a half port cannot happen; be total */
}

int seg_name(const carc_game *g, int tile, int seg, char *buf, size_t n)
{
    int kind = g->rules->types[g->tiles[tile].type].segs[seg].kind;
    return snprintf(buf, n, "%s@%s", kind_name(g->rules, kind), port_name(seg_canonical_port(g, tile, seg)));
}

/* Reads "kind@port" on a placed tile: any port the segment touches names it;
 * an edge letter names a road's middle port, or a city's or field's edge
 * (then both halves must belong to that one segment). -1 if nothing fits. */
int seg_by_name(const carc_game *g, int tile, const char *kindport)
{
    const char *at = strchr(kindport, '@');
    if (!at || at == kindport || (size_t)(at - kindport) >= NAME_LEN) return -1;
    char kname[NAME_LEN];
    memcpy(kname, kindport, (size_t)(at - kindport));
    kname[at - kindport] = 0;
    int kind = rules_kind(g->rules, kname);
    if (kind < 0) return -1;
    const placed *p = &g->tiles[tile];
    const tile_type *tt = &g->rules->types[p->type];
    const char *pname = at + 1;
    int seg = -1;
    if (strcmp(pname, "inner") == 0) {
        for (int s = 0; s < tt->nsegs; s++)
            if (tt->segs[s].kind == kind && tt->segs[s].ports == 0) return s;
        return -1;
    }
    int port = port_parse(pname);
    if (port < 0) return -1;
    if (port % 3 == 1 && !g->rules->kinds[kind].line) {
        int a = tt->seg_at[p->rot][port - 1], b = tt->seg_at[p->rot][port + 1];
        if (a != b) return -1;
        seg = a;
    } else {
        seg = tt->seg_at[p->rot][port];
    }
    return seg >= 0 && tt->segs[seg].kind == kind ? seg : -1;
}

/* The segment at a board port of a placed tile. */
int seg_at_port(const carc_game *g, int tile, int port)
{
    const placed *p = &g->tiles[tile];
    return g->rules->types[p->type].seg_at[p->rot][port];
}

/* The count of a mark on a placed tile's segment. */
int seg_mark_count(const carc_game *g, int tile, int seg, int mark)
{
    const seg_def *sd = &g->rules->types[g->tiles[tile].type].segs[seg];
    int n = 0;
    for (int i = 0; i < sd->nmarks; i++)
        if (sd->mark[i] == mark) n += sd->mark_count[i];
    return n;
}
