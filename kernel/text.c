/* text.c - the record texts of options (../spec: "Option texts") and the
 * names of places on tiles, written canonically and read in any form. */
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

int carc_segment_name(const carc_game *g, int tile, int seg, char *buf, size_t n)
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

static int kernel_format(const carc_game *g, const carc_option *o, char *buf, size_t n)
{
    switch (o->code) {
    case KOPT_PLACE:
        return snprintf(buf, n, "place %d,%d r%d", o->arg[0], o->arg[1], o->arg[2] * 90);
    case KOPT_DEPLOY: {
        char seg[64];
        carc_segment_name(g, o->tile, o->seg, seg, sizeof seg);
        return snprintf(buf, n, "deploy %s %s", g->rules->figkinds[o->arg[0]].name, seg);
    }
    case KOPT_PASS:
        return snprintf(buf, n, "pass");
    default:
        return snprintf(buf, n, "?");
    }
}

int option_format(const carc_game *g, const carc_option *o, char *buf, size_t n)
{
    if (o->owner == 0) return kernel_format(g, o, buf, n);
    plugin_slot *ps = owner_slot(g, o->owner);
    struct carc_ctx ctx = GAME_CTX((carc_game *)g, o->owner, ps->user);
    if (!ps->format || ps->format(&ctx, o, buf, n) < 0) return snprintf(buf, n, "%s?", ps->name);
    /* The text becomes one line of a saved game: a plugin's or script's
     * format must not break it (a newline would add lines, '#' starts a
     * comment, a NUL cuts it, a blank line or `end` means something else). */
    if (n == 0) return 0;
    buf[n - 1] = 0;
    size_t len = strlen(buf);
    if (len > 900) buf[len = 900] = 0; /* records refuse lines over 1000 */
    bool blank = true;
    for (char *c = buf; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '#') *c = '?';
        if (*c != ' ') blank = false;
    }
    if (blank) return snprintf(buf, n, "%s?", ps->name);
    char word[8];
    if (sscanf(buf, " %7s", word) == 1 && strcmp(word, "end") == 0 && len + strlen(ps->name) + 2 < n) {
        memmove(buf + strlen(ps->name) + 1, buf, len + 1);
        memcpy(buf, ps->name, strlen(ps->name));
        buf[strlen(ps->name)] = ':';
    }
    return (int)strlen(buf);
}

int carc_option_text(const carc_game *g, int i, char *buf, size_t n)
{
    const carc_option *o = carc_option_at(g, i);
    if (!o) return -1;
    return option_format(g, o, buf, n);
}

static int tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return -1;
        tok[n++] = t;
    }
    return n;
}

int carc_option_match(const carc_game *g, const char *line)
{
    char lbuf[512];
    if (strlen(line) >= sizeof lbuf) return -1;
    snprintf(lbuf, sizeof lbuf, "%s", line);
    char *lt[32];
    int nl = tokens(lbuf, lt, 32);
    if (nl <= 0) return -1;
    int n = carc_option_count(g);
    for (int i = 0; i < n; i++) {
        char obuf[512];
        carc_option_text(g, i, obuf, sizeof obuf);
        char *ot[32];
        int no = tokens(obuf, ot, 32);
        if (no != nl) continue;
        const carc_option *o = carc_option_at(g, i);
        bool ok = true;
        for (int k = 0; k < no && ok; k++) {
            if (strcmp(ot[k], lt[k]) == 0) continue;
            ok = strchr(ot[k], '@') && o->tile >= 0 && seg_by_name(g, o->tile, lt[k]) == o->seg;
        }
        if (ok) return i;
    }
    return -1;
}

int carc_segment_at_port(const carc_game *g, int tile, int port)
{
    const placed *p = &g->tiles[tile];
    return g->rules->types[p->type].seg_at[p->rot][port];
}

int carc_segment_kind(const carc_game *g, int tile, int seg)
{
    return g->rules->types[g->tiles[tile].type].segs[seg].kind;
}

int carc_segment_canonical_port(const carc_game *g, int tile, int seg) { return seg_canonical_port(g, tile, seg); }
const char *carc_kind_name(const carc_rules *r, int kind) { return kind_name(r, kind); }

int carc_segment_count(const carc_game *g, int tile) { return g->rules->types[g->tiles[tile].type].nsegs; }
