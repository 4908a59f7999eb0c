/* tileset.c - load and validate a tile-set INI file (docs/tile-sets.md). */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_host.h"
#include "inireader.h"
#include "tileset.h"

typedef struct ts_ctx {
    struct carc_rules *r;
    ini_reader_state rd;
    int set;            /* index in r->sets */
    int first_type;     /* first type of this set */
    int cur;            /* type being read, -1 in [set] */
    char section[64];
    int last_section_line;
    bool have_name, have_title, have_count, have_edges;
    int seg_line[MAX_SEGS];
    char border_ports[MAX_SEGS][8]; /* ports named after `borders` per segment */
    int nborder[MAX_SEGS];
    char touches[8][256];  /* the tile's `touches` lines, resolved when it is complete */
    int touches_line[8];
    int ntouches;
    char last_id[NAME_LEN], start_id[NAME_LEN]; /* [set] last and start, resolved at the end */
    int last_line, start_line;
} ts_ctx;

#define FAIL(c, ...) return (ini_reader_fail(&(c)->rd, __VA_ARGS__), 0)

static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return -1;
        tok[n++] = t;
    }
    return n;
}

static bool parse_count(const char *s, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 1 || v > max) return false;
    *out = (int)v;
    return true;
}

/* Ports that a port token covers for a segment of this kind. */
static int token_ports(const struct carc_rules *r, int kind, const char *tok, uint16_t *mask)
{
    if (strcmp(tok, "inner") == 0) {
        *mask = 0;
        return 0;
    }
    int p = port_parse(tok);
    if (p < 0) return -1;
    if (p % 3 == 1 && !r->kinds[kind].line)
        *mask = (uint16_t)(7u << (p - 1)); /* an edge letter: the whole edge */
    else
        *mask = (uint16_t)(1u << p);
    return 0;
}

static int parse_segment(ts_ctx *c, tile_type *t, char *value)
{
    char *tok[64];
    int n = split(value, tok, 64);
    if (n < 1) FAIL(c, "a segment needs a kind and its ports, e.g. 'segment = road E W'");
    if (n < 0) FAIL(c, "too many words in one segment");
    if (t->nsegs >= MAX_SEGS) FAIL(c, "tile %s has more than %d segments", t->id, MAX_SEGS);
    int kind = rules_kind(c->r, tok[0]);
    if (kind < 0)
        FAIL(c, "unknown kind '%s' (known: road, city, field, cloister, or one declared in [set] kinds)", tok[0]);
    int si = t->nsegs;
    seg_def *s = &t->segs[si];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    c->seg_line[si] = c->rd.line;
    c->nborder[si] = 0;
    int i = 1;
    bool inner = false;
    for (; i < n; i++) {
        uint16_t m;
        if (token_ports(c->r, kind, tok[i], &m) < 0) break;
        if (m == 0) inner = true;
        if (s->ports & m) FAIL(c, "port %s named twice in one segment", tok[i]);
        s->ports |= m;
    }
    if (i == 1) FAIL(c, "segment '%s' names no port (use N E S W, Nw Ne En Es Se Sw Ws Wn or inner)", tok[0]);
    if (inner && s->ports) FAIL(c, "a segment is either 'inner' or touches ports, not both");
    bool in_borders = false;
    while (i < n) {
        if (strcmp(tok[i], "borders") == 0) {
            if (kind != CARC_KIND_FIELD) FAIL(c, "only a field borders cities");
            in_borders = true;
            i++;
            continue;
        }
        if (in_borders && port_parse(tok[i]) >= 0) {
            if (c->nborder[si] >= 8) FAIL(c, "too many borders");
            c->border_ports[si][c->nborder[si]++] = (char)port_parse(tok[i]);
            i++;
            continue;
        }
        int mark = rules_mark(c->r, tok[i]);
        if (mark < 0)
            FAIL(c, "unknown %s '%s' (a mark declared in [set] marks%s)", in_borders ? "border or mark" : "mark",
                 tok[i], in_borders ? ", or a port of a city segment" : "");
        int count = 1;
        if (i + 1 < n && isdigit((unsigned char)tok[i + 1][0])) {
            if (!parse_count(tok[i + 1], 99, &count)) FAIL(c, "bad mark count '%s'", tok[i + 1]);
            i++;
        }
        if (s->nmarks >= MAX_SEG_MARKS) FAIL(c, "too many marks on one segment");
        s->mark[s->nmarks] = (uint8_t)mark;
        s->mark_count[s->nmarks++] = (uint8_t)count;
        i++;
    }
    t->nsegs++;
    return 1;
}


static int names_into(ts_ctx *c, char *value, int (*add)(struct carc_rules *, const char *),
                      const char *what)
{
    char *tok[64];
    int n = split(value, tok, 64);
    if (n < 0) FAIL(c, "too many %s", what);
    for (int i = 0; i < n; i++) {
        if (!rules_name_is_record_safe(tok[i])) FAIL(c, "bad %s name '%s' (" RECORD_SAFE_NAME_RULE ")", what, tok[i]);
        if (add(c->r, tok[i]) < 0) FAIL(c, "cannot declare %s '%s' (too many, or too long)", what, tok[i]);
    }
    return 1;
}

/* `kinds = NAME NAME:L ...`: kinds this set uses; NAME:L also gives the
 * kind an edge letter (an upper-case letter no other kind has), so that
 * `edges` can name an edge whose middle the kind holds (a river:
 * `kinds = river:V`). Edges match by the kinds of their ports, so a river
 * edge fits only a river edge. */
static int declare_kinds(ts_ctx *c, char *value)
{
    char *tok[64];
    int n = split(value, tok, 64);
    if (n < 0) FAIL(c, "too many kinds");
    for (int i = 0; i < n; i++) {
        char *colon = strchr(tok[i], ':');
        char letter = 0;
        bool wild = false;
        if (colon) {
            /* NAME:L, or NAME:L:wild: an edge of the kind fits every edge
             * and closes the feature facing it (the abbey's). */
            if (colon[1] < 'A' || colon[1] > 'Z' || (colon[2] && strcmp(colon + 2, ":wild") != 0))
                FAIL(c, "bad kind '%s' (NAME, NAME:LETTER with an upper-case edge letter: river:V, or "
                        "NAME:LETTER:wild for an edge that fits every edge: abbey:A:wild)", tok[i]);
            letter = colon[1];
            wild = colon[2] != 0;
            *colon = 0;
        }
        if (!rules_name_is_record_safe(tok[i])) FAIL(c, "bad kind name '%s' (" RECORD_SAFE_NAME_RULE ")", tok[i]);
        int k = rules_add_kind(c->r, tok[i], -1);
        if (k < 0) FAIL(c, "cannot declare kind '%s' (too many, or too long)", tok[i]);
        if (!letter) continue;
        kind_def *kd = &c->r->kinds[k];
        if (kd->letter && kd->letter != letter)
            FAIL(c, "kind %s has the edge letter %c already, not %c", kd->name, kd->letter, letter);
        for (int j = 0; j < c->r->nkinds; j++)
            if (j != k && c->r->kinds[j].letter == letter)
                FAIL(c, "edge letter %c is the kind %s's already", letter, c->r->kinds[j].name);
        kd->letter = letter;
        if (wild) {
            kd->wild = true;
            if (kd->line) FAIL(c, "kind %s: a wild edge takes whole edges, and the kind is a line", kd->name);
        } else if (kd->wild) {
            FAIL(c, "kind %s is declared wild elsewhere: write %s:%c:wild", kd->name, kd->name, letter);
        }
    }
    return 1;
}

/* The kind whose edge letter is l, or -1. */
static int kind_of_letter(const struct carc_rules *r, char l)
{
    for (int k = 0; k < r->nkinds; k++)
        if (r->kinds[k].letter == l) return k;
    return -1;
}

/* The segment of tile t that `kind@port` names (unrotated tile ports, any
 * port of the segment; `inner` for a segment on no port), or -1. */
static int segment_named(const struct carc_rules *r, const tile_type *t, const char *name)
{
    const char *at = strchr(name, '@');
    if (!at || at == name || (size_t)(at - name) >= NAME_LEN) return -1;
    char kname[NAME_LEN];
    memcpy(kname, name, (size_t)(at - name));
    kname[at - name] = 0;
    int kind = rules_kind(r, kname);
    if (kind < 0) return -1;
    uint16_t mask;
    if (token_ports(r, kind, at + 1, &mask) < 0) return -1;
    for (int i = 0; i < t->nsegs; i++) {
        if (t->segs[i].kind != kind) continue;
        if (mask == 0 ? t->segs[i].ports == 0 : (t->segs[i].ports & mask) == mask) return i;
    }
    return -1;
}

/* `touches = SEG SEG ...` (kind@port names): the named segments of the tile
 * touch each other (a road ending at a city, a cloister or a junction), as
 * data a rule can ask (carc_api.segments_touching). */
static int resolve_touches(ts_ctx *c, tile_type *t)
{
    for (int l = 0; l < c->ntouches; l++) {
        c->rd.line = c->touches_line[l];
        char *tok[MAX_SEGS + 1];
        int n = split(c->touches[l], tok, MAX_SEGS + 1);
        if (n < 2) FAIL(c, "tile %s: touches names two segments or more (kind@port, as road@S cloister@inner)", t->id);
        uint16_t named = 0;
        for (int i = 0; i < n; i++) {
            int seg = segment_named(c->r, t, tok[i]);
            if (seg < 0) FAIL(c, "tile %s: touches: '%s' names no segment of the tile", t->id, tok[i]);
            named |= (uint16_t)(1u << seg);
        }
        for (int i = 0; i < t->nsegs; i++)
            if (named & (1u << i)) t->touches[i] |= (uint16_t)(named & ~(1u << i));
    }
    c->ntouches = 0;
    return 1;
}

/* Checks a tile once its section is complete. */
static int finish_tile(ts_ctx *c)
{
    if (c->cur < 0) return 1;
    tile_type *t = &c->r->types[c->cur];
    c->rd.line = t->line;
    if (!c->have_count) FAIL(c, "tile %s has no 'count'", t->id);
    if (!c->have_edges) FAIL(c, "tile %s has no 'edges'", t->id);
    if (t->nsegs == 0) FAIL(c, "tile %s has no segment", t->id);
    uint16_t seen = 0;
    int inner_kinds = 0;
    for (int i = 0; i < t->nsegs; i++) {
        seg_def *s = &t->segs[i];
        c->rd.line = c->seg_line[i];
        if (s->ports & seen) {
            for (int p = 0; p < CARC_PORTS; p++)
                if (s->ports & seen & (1u << p)) FAIL(c, "tile %s: port %s is covered twice", t->id, port_name(p));
        }
        seen |= s->ports;
        if (!s->ports) {
            if (inner_kinds & (1 << s->kind)) FAIL(c, "tile %s: two inner segments of kind %s", t->id, kind_name(c->r, s->kind));
            inner_kinds |= 1 << s->kind;
        }
        const kind_def *k = &c->r->kinds[s->kind];
        for (int side = 0; side < 4 && s->ports; side++) {
            unsigned e = (s->ports >> (side * 3)) & 7u;
            if (k->line && (e & 5u))
                FAIL(c, "tile %s: a %s only takes the middle port of an edge", t->id, k->name);
            if (s->kind == CARC_KIND_CITY && e && e != 7u)
                FAIL(c, "tile %s: a city takes a whole edge", t->id);
            if (k->wild && e && e != 7u)
                FAIL(c, "tile %s: a wild edge (%s) takes a whole edge", t->id, k->name);
        }
        for (int b = 0; b < c->nborder[i]; b++) {
            int p = c->border_ports[i][b], target = -1;
            for (int j = 0; j < t->nsegs; j++)
                if (t->segs[j].ports & (1u << p)) target = j;
            if (target < 0 || t->segs[target].kind != CARC_KIND_CITY)
                FAIL(c, "tile %s: 'borders %s' names no city segment", t->id, port_name(p));
            s->borders |= (uint16_t)(1u << target);
        }
    }
    if (!resolve_touches(c, t)) return 0;
    c->rd.line = t->line;
    for (int p = 0; p < CARC_PORTS; p++)
        if (!(seen & (1u << p))) FAIL(c, "tile %s: port %s is covered by no segment", t->id, port_name(p));
    for (int side = 0; side < 4; side++) {
        int mid = side * 3 + 1, seg = -1;
        for (int i = 0; i < t->nsegs; i++)
            if (t->segs[i].ports & (1u << mid)) seg = i;
        char want = c->r->kinds[t->segs[seg].kind].letter;
        if (want != t->edges[side])
            FAIL(c, "tile %s: edges says %c on the %s edge but the segments put %s there", t->id,
                 t->edges[side], port_name(mid), kind_name(c->r, t->segs[seg].kind));
    }
    return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    ts_ctx *c = user;
    struct carc_rules *r = c->r;
    char val[512];
    snprintf(val, sizeof val, "%s", value);
    if (strcmp(section, c->section) != 0 || c->rd.section_line != c->last_section_line) {
        c->last_section_line = c->rd.section_line;
        if (!finish_tile(c)) return 0;
        snprintf(c->section, sizeof c->section, "%s", section);
        c->cur = -1;
        c->rd.line = c->rd.section_line;
        if (strncmp(section, "tile ", 5) == 0) {
            const char *id = section + 5;
            if (!rules_name_is_record_safe(id)) FAIL(c, "bad tile id '%s' (" RECORD_SAFE_NAME_RULE ")", id);
            if (!c->have_name) FAIL(c, "[set] with 'name' must come before the tiles");
            for (int i = c->first_type; i < r->ntypes; i++)
                if (strcmp(r->types[i].id, id) == 0)
                    FAIL(c, "duplicate tile id '%s' (first at line %d)", id, r->types[i].line);
            if (r->ntypes >= MAX_TILE_TYPES)
                FAIL(c, "too many tile types (at most %d in all the sets of a game)", MAX_TILE_TYPES);
            if (r->ntypes == r->cap_types) {
                int cap = r->cap_types ? r->cap_types * 2 : 64;
                tile_type *nt = realloc(r->types, (size_t)cap * sizeof *nt);
                if (!nt) FAIL(c, "out of memory");
                r->types = nt;
                r->cap_types = cap;
            }
            c->cur = r->ntypes++;
            tile_type *t = &r->types[c->cur];
            memset(t, 0, sizeof *t);
            snprintf(t->id, NAME_LEN, "%s", id);
            t->set = c->set;
            t->line = c->rd.section_line;
            c->have_count = c->have_edges = false;
            c->ntouches = 0;
        } else if (strcmp(section, "set") != 0) {
            FAIL(c, "unknown section [%s] (expected [set] or [tile ID])", section);
        }
        c->rd.line = c->rd.cur_line;
    }
    if (c->cur < 0) {
        tile_set *s = &r->sets[c->set];
        if (strcmp(name, "name") == 0) {
            if (!rules_name_is_record_safe(val)) FAIL(c, "bad set name '%s' (" RECORD_SAFE_NAME_RULE ")", val);
            for (int i = 0; i < c->set; i++)
                if (strcmp(r->sets[i].name, val) == 0) FAIL(c, "tile set '%s' is loaded twice", val);
            snprintf(s->name, NAME_LEN, "%s", val);
            c->have_name = true;
        } else if (strcmp(name, "title") == 0) {
            snprintf(s->title, sizeof s->title, "%s", val);
            c->have_title = true;
        } else if (strcmp(name, "kinds") == 0) {
            return declare_kinds(c, val);
        } else if (strcmp(name, "pile") == 0) {
            if (strcmp(val, "first") != 0)
                FAIL(c, "bad pile '%s' (first: the set's tiles are drawn before every other set's)", val);
            s->pile_first = true;
        } else if (strcmp(name, "last") == 0 || strcmp(name, "start") == 0) {
            char *slot = strcmp(name, "last") == 0 ? c->last_id : c->start_id;
            if (!rules_name_is_record_safe(val)) FAIL(c, "bad tile id '%s' for %s", val, name);
            snprintf(slot, NAME_LEN, "%s", val);
            *(strcmp(name, "last") == 0 ? &c->last_line : &c->start_line) = c->rd.line;
        } else if (strcmp(name, "marks") == 0) {
            return names_into(c, val, rules_add_mark, "mark");
        } else if (strcmp(name, "tile-marks") == 0) {
            return names_into(c, val, rules_add_tmark, "tile mark");
        } else {
            FAIL(c, "unknown key '%s' in [set] (expected name, title, kinds, marks, tile-marks, pile, last, start)", name);
        }
        return 1;
    }
    tile_type *t = &r->types[c->cur];
    if (strcmp(name, "count") == 0) {
        if (!parse_count(val, MAX_TILES, &t->count))
            FAIL(c, "bad count '%s' (a whole number from 1 to %d)", val, MAX_TILES);
        t->base_count = t->count;
        int total = 0;
        for (int i = c->first_type; i <= c->cur; i++) total += r->types[i].count;
        if (total > MAX_TILES) FAIL(c, "the set holds more than %d tiles", MAX_TILES);
        c->have_count = true;
    } else if (strcmp(name, "edges") == 0) {
        bool letters = strlen(val) == 4;
        for (int i = 0; i < 4 && letters; i++) letters = kind_of_letter(r, val[i]) >= 0;
        if (!letters)
            FAIL(c, "bad edges '%s' (four letters N E S W, each C, R, F or the edge letter a [set] kinds line "
                    "gives a kind, as kinds = river:V)", val);
        memcpy(t->edges, val, 5);
        c->have_edges = true;
    } else if (strcmp(name, "segment") == 0) {
        return parse_segment(c, t, val);
    } else if (strcmp(name, "touches") == 0) {
        if (c->ntouches == (int)(sizeof c->touches / sizeof c->touches[0])) FAIL(c, "tile %s: too many touches lines", t->id);
        if (strlen(val) >= sizeof c->touches[0]) FAIL(c, "tile %s: a touches line is too long", t->id);
        snprintf(c->touches[c->ntouches], sizeof c->touches[0], "%s", val);
        c->touches_line[c->ntouches++] = c->rd.line;
    } else if (strcmp(name, "marks") == 0) {
        char *tok[32];
        int n = split(val, tok, 32);
        if (n < 0) FAIL(c, "too many tile marks");
        for (int i = 0; i < n; i++) {
            int m = rules_tmark(r, tok[i]);
            if (m < 0) FAIL(c, "unknown tile mark '%s' (declare it in [set] tile-marks)", tok[i]);
            if (m == rules_tmark(r, "start"))
                for (int j = c->first_type; j < c->cur; j++)
                    if (r->types[j].tile_marks & (1u << m))
                        FAIL(c, "tile %s is marked start, but so is tile %s: a set has one start tile type", t->id,
                             r->types[j].id);
            t->tile_marks |= 1u << m;
        }
    } else if (strcmp(name, "image") == 0) {
        if (!parse_count(val, 100000, &t->image)) FAIL(c, "bad image number '%s'", val);
    } else if (strcmp(name, "note") != 0) {
        FAIL(c, "unknown key '%s' in a tile (expected count, edges, segment, touches, marks, image, note)", name);
    }
    return 1;
}

int tileset_load(struct carc_rules *r, const char *path, char *err, size_t errn)
{
    if (r->nsets >= MAX_SETS) {
        snprintf(err, errn, "%s: too many tile sets (at most %d)", path, MAX_SETS);
        return -1;
    }
    ts_ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.set = r->nsets;
    c.first_type = r->ntypes;
    c.cur = -1;
    snprintf(c.section, sizeof c.section, "%s", "");
    tile_set *s = &r->sets[c.set];
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    int types_before = r->ntypes;
    if (ini_reader_open(&c.rd, path, err, errn) < 0) return -1;
    int rc = ini_parse_stream(ini_reader_next, &c.rd, handler, &c);
    if (rc == 0 && !c.rd.failed) finish_tile(&c);
    int failed = ini_reader_close(&c.rd, rc, err, errn);
    if (!failed && !c.have_name) {
        snprintf(err, errn, "%s: no [set] section with a 'name'", path);
        failed = -1;
    } else if (!failed && !c.have_title) {
        snprintf(err, errn, "%s: [set] has no 'title'", path);
        failed = -1;
    } else if (!failed && r->ntypes == types_before) {
        snprintf(err, errn, "%s: the set has no tile", path);
        failed = -1;
    }
    s->last_type = s->start_type = -1;
    for (int k = 0; k < 2 && !failed; k++) {
        const char *id = k ? c.start_id : c.last_id;
        if (!id[0]) continue;
        int found = -1;
        for (int t = types_before; t < r->ntypes && found < 0; t++)
            if (strcmp(r->types[t].id, id) == 0) found = t;
        if (found < 0) {
            snprintf(err, errn, "%s:%d: %s = %s: the set has no tile %s", path, k ? c.start_line : c.last_line,
                     k ? "start" : "last", id, id);
            failed = -1;
        } else if (k) {
            s->start_type = found;
        } else if (!s->pile_first) {
            snprintf(err, errn, "%s:%d: last = %s needs pile = first (the tile comes last among the set's tiles, "
                                "which are drawn first)", path, c.last_line, id);
            failed = -1;
        } else {
            s->last_type = found;
        }
    }
    if (failed) {
        r->ntypes = types_before;
        return -1;
    }
    r->nsets++;
    return 0;
}
