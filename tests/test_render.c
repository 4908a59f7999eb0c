/* test_render.c - carc render: the SVG is well-formed XML (checked by the
 * small parser below: nesting, attribute quoting, entities), it has one
 * shape per segment carrying its kind and tile position and one per figure
 * carrying its owner; every tile of every shipped set and of a fan set
 * written for this test draws; turn-by-turn frames and the HTML page agree
 * with the replayed game; the terminal board draws from the same view. */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "ascii.h"
#include "frames.h"
#include "helpers.h"
#include "play.h"
#include "render.h"
#include "rng.h"

/* ---- a small XML checker ------------------------------------------------------ */

#define MAX_ATTRS 16

typedef struct xml_el {
    char name[24];
    int nattrs;
    char key[MAX_ATTRS][24];
    char val[MAX_ATTRS][160];
} xml_el;

typedef struct xml_doc {
    xml_el *els;
    int n, cap;
    char error[160];
} xml_doc;

static int xml_fail(xml_doc *d, const char *p, const char *msg)
{
    snprintf(d->error, sizeof d->error, "%s at '%.30s'", msg, p);
    return -1;
}

static bool name_char(char c, bool first)
{
    return isalpha((unsigned char)c) || c == '_' || c == ':' || (!first && (isdigit((unsigned char)c) || c == '-' || c == '.'));
}

static const char *xml_name(const char *p, char *out, size_t n)
{
    size_t i = 0;
    if (!name_char(*p, true)) return NULL;
    while (name_char(*p, i == 0)) {
        if (i + 1 < n) out[i++] = *p;
        p++;
    }
    out[i] = 0;
    return p;
}

/* &amp; &lt; &gt; &quot; &apos; &#N; &#xH; */
static const char *xml_entity(const char *p)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (strncmp(p, named[i], strlen(named[i])) == 0) return p + strlen(named[i]);
    if (p[1] != '#') return NULL;
    const char *q = p + 2;
    bool hex = *q == 'x';
    if (hex) q++;
    const char *digits = q;
    while (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)) q++;
    return q > digits && *q == ';' ? q + 1 : NULL;
}

static const char *xml_attrs(xml_doc *d, const char *p, xml_el *el)
{
    for (;;) {
        const char *s = p;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '>' || *p == '/' || *p == '?') return p;
        if (p == s) return xml_fail(d, p, "no space before an attribute"), NULL;
        char key[24];
        if (!(p = xml_name(p, key, sizeof key))) return xml_fail(d, s, "bad attribute name"), NULL;
        if (*p++ != '=') return xml_fail(d, p, "attribute without '='"), NULL;
        char q = *p++;
        if (q != '"' && q != '\'') return xml_fail(d, p, "unquoted attribute value"), NULL;
        size_t n = 0;
        char val[160];
        for (; *p != q; p++) {
            if (!*p || *p == '<') return xml_fail(d, p, "bad attribute value"), NULL;
            if (*p == '&' && !xml_entity(p)) return xml_fail(d, p, "bad entity in an attribute"), NULL;
            if (n + 1 < sizeof val) val[n++] = *p;
        }
        val[n] = 0;
        p++;
        for (int i = 0; i < el->nattrs; i++)
            if (strcmp(el->key[i], key) == 0) return xml_fail(d, s, "attribute given twice"), NULL;
        if (el->nattrs < MAX_ATTRS) {
            snprintf(el->key[el->nattrs], sizeof el->key[0], "%s", key);
            snprintf(el->val[el->nattrs++], sizeof el->val[0], "%s", val);
        }
    }
}

static xml_el *xml_push(xml_doc *d)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 256;
        d->els = realloc(d->els, (size_t)d->cap * sizeof *d->els);
        assert_non_null(d->els);
    }
    memset(&d->els[d->n], 0, sizeof d->els[0]);
    return &d->els[d->n++];
}

/* One tag at p ('<'): an element, an end tag, a comment or the prolog. */
static const char *xml_tag(xml_doc *d, const char *p, char stack[][24], int *depth, int *roots)
{
    if (strncmp(p, "<!--", 4) == 0) {
        const char *e = strstr(p, "-->");
        return e ? e + 3 : (xml_fail(d, p, "unclosed comment"), NULL);
    }
    if (strncmp(p, "<?xml", 5) == 0) {
        if (d->n) return xml_fail(d, p, "prolog not first"), NULL;
        const char *e = strstr(p, "?>");
        return e ? e + 2 : (xml_fail(d, p, "unclosed prolog"), NULL);
    }
    if (p[1] == '/') {
        char name[24];
        const char *q = xml_name(p + 2, name, sizeof name);
        if (!q || *q != '>') return xml_fail(d, p, "bad end tag"), NULL;
        if (!*depth || strcmp(stack[*depth - 1], name) != 0) return xml_fail(d, p, "end tag does not match"), NULL;
        (*depth)--;
        return q + 1;
    }
    xml_el *el = xml_push(d);
    const char *q = xml_name(p + 1, el->name, sizeof el->name);
    if (!q) return xml_fail(d, p, "bad element name"), NULL;
    if (!(q = xml_attrs(d, q, el))) return NULL;
    if (*depth == 0 && (*roots)++) return xml_fail(d, p, "a second root element"), NULL;
    if (*q == '/' && q[1] == '>') return q + 2;
    if (*q != '>') return xml_fail(d, q, "bad tag end"), NULL;
    if (*depth == 63) return xml_fail(d, p, "too deep"), NULL;
    snprintf(stack[(*depth)++], 24, "%s", el->name);
    return q + 1;
}

/* Parses a whole document; 0 if it is well-formed. */
static int xml_parse(xml_doc *d, const char *text)
{
    char stack[64][24];
    int depth = 0, roots = 0;
    memset(d, 0, sizeof *d);
    for (const char *p = text; *p;) {
        if (*p == '<') {
            if (!(p = xml_tag(d, p, stack, &depth, &roots))) return -1;
        } else if (*p == '&') {
            if (!(p = xml_entity(p))) return xml_fail(d, text, "bad entity in text");
        } else {
            if (!depth && !isspace((unsigned char)*p)) return xml_fail(d, p, "text outside the root");
            p++;
        }
    }
    if (depth) return xml_fail(d, "", "unclosed element");
    return roots == 1 ? 0 : xml_fail(d, "", "no root element");
}

static void xml_free(xml_doc *d) { free(d->els); }

static const char *attr(const xml_el *el, const char *key)
{
    for (int i = 0; i < el->nattrs; i++)
        if (strcmp(el->key[i], key) == 0) return el->val[i];
    return NULL;
}

/* Whether the class attribute holds the token. */
static bool has_class(const xml_el *el, const char *token)
{
    const char *c = attr(el, "class");
    size_t n = strlen(token);
    for (const char *p = c; p && (p = strstr(p, token)); p += n)
        if ((p == c || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return true;
    return false;
}

static int count_class(const xml_doc *d, const char *token)
{
    int n = 0;
    for (int i = 0; i < d->n; i++) n += has_class(&d->els[i], token);
    return n;
}

/* ---- rendering into memory -------------------------------------------------- */

static char *svg_of_view(const view *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    render_svg(f, v);
    fclose(f);
    return buf;
}

/* Renders and parses the view; fails the test when the SVG is not XML. */
static void parse_view(const view *v, xml_doc *d)
{
    char *svg = svg_of_view(v);
    if (xml_parse(d, svg) < 0) fail_msg("the SVG is not well-formed: %s", d->error);
    free(svg);
}

static int total_segments(const view *v)
{
    int n = 0;
    for (int i = 0; i < v->ntiles; i++) n += v->tiles[i].nsegs;
    return n;
}

/* Every segment shape names its kind (class and data-kind alike) and lies on
 * a tile of the view at data-x, data-y, and there is one per segment. */
static void check_segments(const view *v, const xml_doc *d)
{
    int n = 0;
    for (int i = 0; i < d->n; i++) {
        const xml_el *el = &d->els[i];
        if (!has_class(el, "seg")) continue;
        n++;
        const char *t = attr(el, "data-tile"), *s = attr(el, "data-seg"), *x = attr(el, "data-x"), *y = attr(el, "data-y");
        assert_true(t && s && x && y && attr(el, "data-kind"));
        const view_tile *vt = &v->tiles[atoi(t)];
        assert_int_equal(atoi(x), vt->x);
        assert_int_equal(atoi(y), vt->y);
        assert_string_equal(attr(el, "data-kind"), vt->segs[atoi(s)].kind_name);
        assert_true(has_class(el, vt->segs[atoi(s)].kind_name));
    }
    assert_int_equal(n, total_segments(v));
}

/* One shape per figure, with its owner (-1 neutral) and kind. */
static void check_figures(const view *v, const xml_doc *d)
{
    int n = 0;
    for (int i = 0; i < d->n; i++) {
        const xml_el *el = &d->els[i];
        if (!has_class(el, "figure")) continue;
        const view_figure *f = &v->figs[n++];
        assert_non_null(attr(el, "data-owner"));
        assert_int_equal(atoi(attr(el, "data-owner")), f->owner);
        assert_string_equal(attr(el, "data-kind"), f->kind_name);
        assert_true(has_class(el, f->kind_name));
    }
    assert_int_equal(n, v->nfigs);
}

static int total_marks(const view *v, int *tile_marks)
{
    int n = 0;
    *tile_marks = 0;
    for (int i = 0; i < v->ntiles; i++) {
        for (int s = 0; s < v->tiles[i].nsegs; s++) n += v->tiles[i].segs[s].nmarks;
        for (int m = 0; m < carc_tile_marks(v->rules); m++)
            *tile_marks += (v->tiles[i].tile_marks >> m & 1u) && strcmp(carc_tile_mark_name(v->rules, m), "start") != 0;
    }
    return n;
}

/* Draws every tile type of the set at `path`, read alone; or, with a
 * variant, of that variant's rules (a set whose kind is a line only once
 * its module's script defines it: the river). */
static void check_sheet_of(const char *path, const char *variant)
{
    char err[8192];
    carc_rules *r = variant ? carc_variant_load(variant, NULL, 0, err, sizeof err)
                            : carc_rules_from_tileset(path, err, sizeof err);
    if (!r) fail_msg("%s: %s", variant ? variant : path, err);
    view v;
    assert_int_equal(view_of_types(&v, r, 8), 0);
    assert_true(v.ntiles > 0);
    xml_doc d;
    parse_view(&v, &d);
    check_segments(&v, &d);
    int tmarks, marks = total_marks(&v, &tmarks);
    assert_int_equal(count_class(&d, "mark"), marks);
    assert_int_equal(count_class(&d, "tmark"), tmarks);
    assert_int_equal(count_class(&d, "tile"), v.ntiles);
    xml_free(&d);
    view_free(&v);
    carc_rules_free(r);
}

static void check_sheet(const char *path) { check_sheet_of(path, NULL); }

static carc_game *load_game(const char *path, carc_rules **r, carc_record *rec)
{
    char err[8192];
    if (carc_record_load(path, rec, err, sizeof err) < 0) fail_msg("%s", err);
    *r = carc_record_rules(rec, err, sizeof err);
    if (!*r) fail_msg("%s", err);
    carc_game *g = NULL;
    if (carc_replay(rec, *r, &g, err, sizeof err) < 0) fail_msg("%s", err);
    return g;
}

/* ---- the tests -------------------------------------------------------------- */

static void test_xml_checker(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "<a><b></a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a>&nbsp;</a>", "<a>x & y</a>",
        "<a x=\"<\"/>", "<a></a><b/>", "<a>", "text<a/>", "<a x=\"1\"y=\"2\"/>"};
    xml_doc d;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (xml_parse(&d, bad[i]) == 0) fail_msg("accepted: %s", bad[i]);
        xml_free(&d);
    }
    assert_int_equal(xml_parse(&d, "<?xml version=\"1.0\"?>\n<a b='1' c=\"&amp;&#39;&#x3c;\"><!-- x --><b/>t&lt;</a>\n"), 0);
    assert_int_equal(d.n, 2);
    assert_string_equal(attr(&d.els[0], "c"), "&amp;&#39;&#x3c;");
    xml_free(&d);
}

/* Every tile type of every shipped set (each tiles/NAME.ini) draws. */
static void test_every_shipped_tile_renders(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tiles", carc_data_dir());
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int sets = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ini") != 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        /* The river's kind is a line by its script (docs/river.md): drawn
         * as the variant river loads it, base tiles and all. */
        check_sheet_of(path, strcmp(e->d_name, "river.ini") == 0 ? "river" : NULL);
        sets++;
    }
    closedir(dp);
    assert_true(sets >= 4);
}

/* A fan set written only for this test: its own kind, marks and tile mark. */
static void test_fan_tiles_render(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/tiles/render-fan.ini", carc_data_dir());
    check_sheet(path);
    char err[1024];
    carc_rules *r = carc_rules_from_tileset(path, err, sizeof err);
    view v;
    assert_int_equal(view_of_types(&v, r, 8), 0);
    xml_doc d;
    parse_view(&v, &d);
    assert_int_equal(count_class(&d, "lighthouse"), 2);
    assert_int_equal(count_class(&d, "well"), 4);
    assert_int_equal(count_class(&d, "lantern"), 2);
    assert_int_equal(count_class(&d, "storm"), 2);
    assert_int_equal(count_class(&d, "city"), 4);
    xml_free(&d);
    view_free(&v);
    carc_rules_free(r);
}

/* Counts what the frames of a game showed. */
typedef struct figures_seen {
    int neutral, on_track, frames;
} figures_seen;

/* Every frame's picture: segments, figures with owners, score markers. */
static int check_frame(void *user, const carc_game *g, const frame_info *fi)
{
    (void)fi;
    figures_seen *seen = user;
    view v;
    assert_int_equal(view_of_game(&v, g), 0);
    xml_doc d;
    parse_view(&v, &d);
    check_segments(&v, &d);
    check_figures(&v, &d);
    seen->neutral += count_class(&d, "neutral");
    for (int f = 0; f < v.nfigs; f++) seen->on_track += v.figs[f].where == CARC_AT_TRACK;
    for (int p = 0; p < v.nplayers; p++) assert_int_equal(v.scores[p], carc_score(g, p));
    assert_int_equal(count_class(&d, "marker"), carc_players(g));
    for (int t = 0; t < v.ntiles; t++) /* the view's marks are the game's */
        for (int s = 0; s < v.tiles[t].nsegs; s++)
            for (int m = 0; m < v.tiles[t].segs[s].nmarks; m++)
                assert_int_equal(carc_segment_marks(g, t, s, v.tiles[t].segs[s].marks[m].mark),
                                 v.tiles[t].segs[s].marks[m].count);
    seen->frames++;
    xml_free(&d);
    view_free(&v);
    return 0;
}

/* Followers in their player's colour; the dragon, the fairy and the Ark by
 * name; robbers on the score track; every turn of these games. */
static void test_game_figures(void **state)
{
    (void)state;
    static const char *const recs[] = {"pd-dragon-walk-4p.rec", "pd-fairy-blocks-dragon.rec", "rob-place-move.rec",
                                       "ark-move-start-end.rec", "ark-temple-tie-prophet.rec", "pd-portal-deploy.rec",
                                       "pd-princess-fairy.rec", "pd-tunnel.rec"};
    figures_seen seen = {0};
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        char path[1024], err[8192];
        snprintf(path, sizeof path, "%s/tests/scenarios/%s", carc_data_dir(), recs[i]);
        carc_rules *r;
        carc_record rec;
        carc_game *g = load_game(path, &r, &rec);
        if (frames_replay(&rec, r, check_frame, &seen, err, sizeof err) < 0) fail_msg("%s", err);
        carc_game_free(g);
        carc_rules_free(r);
        carc_record_free(&rec);
    }
    assert_true(seen.frames > 20);
    assert_true(seen.neutral >= 3); /* dragon, fairy, Ark */
    assert_true(seen.on_track >= 1); /* a robber on the score track */
}

/* A base game of 72 tiles between random players, for the tests below. */
static carc_game *random_game(carc_rules **r, uint64_t seed)
{
    char err[1024];
    *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(*r);
    carc_rng rng;
    carc_rng_seed(&rng, seed, CARC_STREAM_AGENT);
    return play_game(*r, &(play_spec){.players = 3, .seed = seed, .pick = play_pick_uniform, .pick_state = &rng});
}

static void test_full_game_renders(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = random_game(&r, 7);
    view v;
    assert_int_equal(view_of_game(&v, g), 0);
    assert_int_equal(v.ntiles, 72);
    xml_doc d;
    parse_view(&v, &d);
    check_segments(&v, &d);
    check_figures(&v, &d);
    assert_int_equal(count_class(&d, "tile"), 72);
    int coords = count_class(&d, "coord");
    assert_int_equal(coords, (v.maxx - v.minx + 1) + (v.maxy - v.miny + 1));
    for (int i = 0; i < d.n; i++)
        if (has_class(&d.els[i], "score")) {
            int seat = atoi(attr(&d.els[i], "data-seat"));
            assert_int_equal(atoi(attr(&d.els[i], "data-score")), carc_score(g, seat));
        }
    xml_free(&d);
    view_free(&v);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Frames: one per turn plus the start; frame n shows n + 1 tiles; the last
 * has the replayed game's scores. */
typedef struct frames_seen {
    int n, tiles[128], scores[128][CARC_MAX_PLAYERS], last, events;
} frames_seen;

static int see_frame(void *user, const carc_game *g, const frame_info *fi)
{
    frames_seen *s = user;
    assert_int_equal(fi->frame, s->n);
    assert_int_equal(fi->first_award, s->events);
    s->events = fi->end_award;
    s->tiles[s->n] = carc_tiles_placed(g);
    for (int p = 0; p < carc_players(g); p++) s->scores[s->n][p] = carc_score(g, p);
    s->last = fi->last;
    s->n++;
    return 0;
}

static void test_frames(void **state)
{
    (void)state;
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/tests/scenarios/base-city-pennants.rec", carc_data_dir());
    carc_rules *r;
    carc_record rec;
    carc_game *g = load_game(path, &r, &rec);
    frames_seen s = {0};
    assert_int_equal(frames_replay(&rec, r, see_frame, &s, err, sizeof err), 0);
    assert_true(s.last);
    assert_true(s.n >= 2);
    for (int i = 0; i < s.n; i++) assert_int_equal(s.tiles[i], i + 1);
    for (int p = 0; p < carc_players(g); p++) assert_int_equal(s.scores[s.n - 1][p], carc_score(g, p));
    assert_int_equal(s.events, carc_awards(g));
    carc_game_free(g);
    carc_rules_free(r);
    carc_record_free(&rec);
}

static char *html_of(const char *rec_name, carc_game **end, carc_rules **r, carc_record *rec)
{
    char path[1024], err[8192], *buf = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/tests/scenarios/%s", carc_data_dir(), rec_name);
    *end = load_game(path, r, rec);
    FILE *f = open_memstream(&buf, &len);
    if (render_html(f, rec, *r, -1, err, sizeof err) < 0) fail_msg("%s", err);
    fclose(f);
    return buf;
}

/* The page: self-contained, one figure group per frame, the final scores. */
static void test_html_page(void **state)
{
    (void)state;
    carc_game *g;
    carc_rules *r;
    carc_record rec;
    char *html = html_of("pd-dragon-walk-4p.rec", &g, &r, &rec);
    assert_non_null(strstr(html, "<!DOCTYPE html>"));
    assert_null(strstr(html, "http:"));
    assert_null(strstr(html, "https:"));
    assert_null(strstr(html, " src="));
    assert_null(strstr(html, "<link"));
    int groups = 0, rows = 0;
    for (const char *p = html; (p = strstr(p, "<g class=\"frame\"")); p++) groups++;
    for (const char *p = html; (p = strstr(p, "<tr data-frame=")); p++) rows++;
    assert_true(groups >= 2);
    assert_int_equal(rows, groups);
    for (int p = 0; p < carc_players(g); p++) {
        char want[64];
        snprintf(want, sizeof want, "id=\"score-%d\" data-seat=\"%d\">%d<", p, p, carc_score(g, p));
        assert_non_null(strstr(html, want));
    }
    free(html);
    carc_game_free(g);
    carc_rules_free(r);
    carc_record_free(&rec);
}

/* The text board of a record's game (and the notes under it with
 * figures_too), as one string to free. */
static char *ascii_of(const char *record, bool figures_too)
{
    carc_rules *r;
    carc_game *g = replay_text(record, &r);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ascii_board(g, f);
    if (figures_too) ascii_figures(g, f);
    fclose(f);
    carc_game_free(g);
    carc_rules_free(r);
    return buf;
}

/* The terminal board draws from the same view: the start tile D and a
 * straight road with seat 1's follower on its east end; the roads cross
 * both tiles along the middle row. */
static void test_ascii_from_view(void **state)
{
    (void)state;
    char *buf = ascii_of("carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n"
                         "draw base:U\nplace 1,0 r0\ndeploy follower road@E\n",
                         false);
    assert_string_equal(buf, "     0    1    \n      CCC  ...\n   0 =========1\n      ...  ...\n");
    free(buf);
}

/* A tile mark (volcano, portal, dragon) shows as a small letter in the
 * tile's top-left corner, named under the figures. */
static void test_ascii_tile_marks(void **state)
{
    (void)state;
    char *buf = ascii_of("carcassonne-record 1\nvariant princess-dragon\nseed 1\nplayer A random\nplayer B random\n"
                         "---\ndraw princess-dragon:2\nplace 0,1 r0\npass\n",
                         true);
    assert_non_null(strstr(buf, "\n     v...\n"));
    assert_non_null(strstr(buf, "tile marks: v volcano\n"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_checker),
        cmocka_unit_test(test_every_shipped_tile_renders),
        cmocka_unit_test(test_fan_tiles_render),
        cmocka_unit_test(test_game_figures),
        cmocka_unit_test(test_full_game_renders),
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_html_page),
        cmocka_unit_test(test_ascii_from_view),
        cmocka_unit_test(test_ascii_tile_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
