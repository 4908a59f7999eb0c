/*
 * test_limits.c - hostile input (docs/security.md): every input limit stops
 * an oversized tile set, variant or record with a clear message, in bounded
 * time; C plugins load by name, or by path only when the user allows it; a
 * script cannot break the saved game with the text of its options; nothing
 * the kernel holds is cut at a fixed size without a word.
 *
 * Run from the project root: CARC_DATA=. CARC_PLUGIN_PATH=build/tests/plugins
 * ./build/tests/test_limits (make test does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agents.h"
#include "carc.h"
#include "core.h"
#include "inireader.h"
#include "record.h"
#include "render.h"
#include "temp_files.h"

static char path_buf[8][1024];
static int path_next;

/* A path in the program's temporary folder (a few live at once). */
static const char *tmp_path(const char *name)
{
    return test_tmp_path(path_buf[path_next++ % 8], sizeof path_buf[0], name);
}

static const char *write_file(const char *name, const char *text)
{
    return test_tmp_write(path_buf[path_next++ % 8], sizeof path_buf[0], name, text);
}

/* A growing text. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

static const char *write_text(const char *name, text *t)
{
    const char *p = write_file(name, t->s ? t->s : "");
    free(t->s);
    memset(t, 0, sizeof *t);
    return p;
}

/* When a refusal began: the process's CPU time (what refusing costs, the
 * same on a busy machine) and the clock's (what it waited). */
typedef struct began {
    double cpu, wall;
} began;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static began now_s(void) { return (began){clock_s(CLOCK_PROCESS_CPUTIME_ID), clock_s(CLOCK_MONOTONIC)}; }

/* The message contains the phrase; the refusal cost under 10 s of CPU time
 * and waited under 60 s (other work on the machine slows the clock, not
 * the CPU time). */
static void expect(const char *err, const char *phrase, began t0)
{
    if (!strstr(err, phrase)) fail_msg("expected '%s' in: %s", phrase, err);
    began t = now_s();
    if (t.cpu - t0.cpu > 10) fail_msg("took %.1f s of CPU time to refuse", t.cpu - t0.cpu);
    if (t.wall - t0.wall > 60) fail_msg("took %.1f s to refuse", t.wall - t0.wall);
}

static void tiles_refused(const char *path, const char *phrase)
{
    char err[2048] = "";
    began t0 = now_s();
    carc_rules *r = carc_rules_from_tileset(path, err, sizeof err);
    if (r) {
        carc_rules_free(r);
        fail_msg("%s loaded", path);
    }
    expect(err, phrase, t0);
}

static void variant_refused(const char *path, const char *phrase)
{
    char err[4096] = "";
    began t0 = now_s();
    carc_rules *r = carc_variant_load(path, NULL, 0, err, sizeof err);
    if (r) {
        carc_rules_free(r);
        fail_msg("%s loaded", path);
    }
    expect(err, phrase, t0);
}

static void record_refused(const char *path, const char *phrase)
{
    char err[2048] = "";
    began t0 = now_s();
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) == 0) {
        carc_record_free(&rec);
        fail_msg("%s parsed", path);
    }
    expect(err, phrase, t0);
}

static const char TILE_HEADER[] = "[set]\nname = big\ntitle = big\n";
static const char START_TILE[] = "[tile S]\ncount = 1\nedges = FFFF\nsegment = field N E S W\nmarks = start\n";

static int teardown(void **state)
{
    (void)state;
    carc_allow_plugin_paths(0);
    return 0;
}

/* ---- INI files: size and line length --------------------------------------- */

static void ini_file_too_large(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "%s", TILE_HEADER);
    while (t.len <= INI_MAX_FILE_BYTES) add(&t, "# %0100d\n", 0);
    const char *p = write_text("huge.ini", &t);
    tiles_refused(p, "file too large");
    variant_refused(p, "file too large");
}

static void ini_line_too_long(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "%s[tile A]\nnote = %0300d\n", TILE_HEADER, 7);
    const char *p = write_text("long-line.ini", &t);
    tiles_refused(p, ":5: line longer than");
}

/* A file of 4 MB of blank lines and comments: read to its end in bounded time. */
static void ini_many_lines(void **state)
{
    (void)state;
    text t = {0};
    while (t.len < INI_MAX_FILE_BYTES - 4096) add(&t, "\n\n#\n");
    add(&t, "%s", TILE_HEADER);
    const char *p = write_text("many-lines.ini", &t);
    tiles_refused(p, "the set has no tile");
}

/* ---- tile sets: types and tiles ---------------------------------------------- */

static void tiles_too_many_types(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "%s%s", TILE_HEADER, START_TILE);
    for (int i = 0; i < MAX_TILE_TYPES; i++) add(&t, "[tile T%d]\ncount = 1\nedges = FFFF\nsegment = field N E S W\n", i);
    const char *p = write_text("types.ini", &t);
    tiles_refused(p, "too many tile types (at most 1024");
}

static void tiles_too_many_tiles(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "%s%s", TILE_HEADER, START_TILE);
    add(&t, "[tile A]\ncount = %d\nedges = FFFF\nsegment = field N E S W\n", MAX_TILES - 1);
    add(&t, "[tile B]\ncount = 2\nedges = FFFF\nsegment = field N E S W\n");
    const char *p = write_text("tiles.ini", &t);
    tiles_refused(p, ":14: the set holds more than 10000 tiles");
    write_file("huge-count.ini", "[set]\nname = c\ntitle = c\n[tile A]\ncount = 10001\n");
    tiles_refused(tmp_path("huge-count.ini"), "bad count '10001' (a whole number from 1 to 10000)");
}

/* Count overrides in a variant can raise the total too. */
static void variant_too_many_tiles(void **state)
{
    (void)state;
    const char *p = write_file("big-counts.ini", "[variant]\nname = big\n[tiles]\nsets = base\nbase:D = 10000\n");
    variant_refused(p, "a game has at most 10000");
}

/* ---- variants: entries and includes ------------------------------------------ */

static void variant_too_many_options(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "[variant]\nname = opts\n[tiles]\nsets = base\n[options]\n");
    for (int i = 0; i < 129; i++) add(&t, "option-%d = 1\n", i);
    const char *p = write_text("options.ini", &t);
    variant_refused(p, "too many entries (at most 128)");
}

static void variant_includes_too_deep(void **state)
{
    (void)state;
    char name[32], body[128];
    for (int i = 0; i < 12; i++) {
        snprintf(name, sizeof name, "deep-%d.ini", i);
        snprintf(body, sizeof body, "[variant]\nname = deep%d\ninclude = deep-%d.ini\n", i, i + 1);
        write_file(name, body);
    }
    write_file("deep-12.ini", "[variant]\nname = deep12\n[tiles]\nsets = base\n");
    variant_refused(tmp_path("deep-0.ini"), "includes nested deeper than 8");
}

/* ---- records: size, lines, players, options -------------------------------------- */

static void record_too_large(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n");
    while (t.len <= CARC_RECORD_MAX_BYTES) add(&t, "# %0200d\n", 0);
    size_t len = t.len;
    char *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, t.s, len);
    record_refused(write_text("huge.rec", &t), "record too large");
    char err[512];
    carc_record rec;
    assert_int_equal(carc_record_parse("memory", copy, len, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "record too large"));
    free(copy);
}

static void record_line_too_long(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n");
    add(&t, "pass %01000d\n", 1);
    record_refused(write_text("long.rec", &t), ":7: line longer than 1000 characters");
}

static void record_too_many_lines(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n");
    for (int i = 0; i <= CARC_RECORD_MAX_LINES; i++) add(&t, "pass\n");
    record_refused(write_text("lines.rec", &t), "more than 200000 lines");
}

/* The writer keeps to the reader's limits: it refuses the line that would
 * pass one (the game stops there), and what it wrote parses. */
static void writer_keeps_to_reader_limits(void **state)
{
    (void)state;
    static const char *const names[] = {"A", "B"}, *const agents[] = {"random", "random"};
    char err[512], line[CARC_RECORD_MAX_LINE + 2];
    carc_record_writer w;
    carc_record rec;
    /* a line over 1000 characters, a line with '#' or a line break */
    assert_int_equal(carc_writer_begin(&w, "base", 1, 2, names, agents, NULL, 0), 0);
    memset(line, 'x', CARC_RECORD_MAX_LINE + 1);
    line[CARC_RECORD_MAX_LINE + 1] = 0;
    assert_int_equal(carc_writer_line(&w, line), -1);
    assert_non_null(strstr(w.error, "at most 1000"));
    line[CARC_RECORD_MAX_LINE] = 0;
    assert_int_equal(carc_writer_line(&w, line), 0);
    assert_int_equal(carc_writer_line(&w, "pass # a comment"), -1);
    assert_int_equal(carc_writer_line(&w, "pass\ndraw base:D"), -1);
    if (carc_record_parse("memory", w.buf, w.len, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    assert_int_equal(rec.nlines, 1);
    carc_record_free(&rec);
    carc_writer_free(&w);
    /* move lines: the 200,001st is refused */
    assert_int_equal(carc_writer_begin(&w, "base", 1, 2, names, agents, NULL, 0), 0);
    int n = 0;
    while (carc_writer_line(&w, "pass") == 0) n++;
    assert_int_equal(n, CARC_RECORD_MAX_LINES);
    assert_non_null(strstr(w.error, "would pass its limit of 200000 move lines"));
    if (carc_record_parse("memory", w.buf, w.len, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    assert_int_equal(rec.nlines, CARC_RECORD_MAX_LINES);
    carc_record_free(&rec);
    carc_writer_free(&w);
    /* bytes: lines of 1000 characters until the record would pass 8 MiB */
    assert_int_equal(carc_writer_begin(&w, "base", 1, 2, names, agents, NULL, 0), 0);
    n = 0;
    while (carc_writer_line(&w, line) == 0) n++;
    assert_non_null(strstr(w.error, "would pass its limit of 8388608 bytes"));
    assert_true(w.len <= CARC_RECORD_MAX_BYTES && w.len + CARC_RECORD_MAX_LINE + 1 > CARC_RECORD_MAX_BYTES);
    if (carc_record_parse("memory", w.buf, w.len, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    assert_int_equal(rec.nlines, n);
    carc_record_free(&rec);
    carc_writer_free(&w);
}

/* A turn asks at most MAX_DECISIONS_PER_TURN decisions, the rules' own
 * included: a phase asking for ever stops the game, naming the script. */
static void decisions_per_turn_capped(void **state)
{
    (void)state;
    char cwd[512], ini[1024], err[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    static const char *const names[] = {"A", "B"};
    for (int asks = 250; asks <= 260; asks += 10) {
        snprintf(ini, sizeof ini,
                 "[variant]\nname = ask-many\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/ask-many.lua\n"
                 "[options]\nask-many.asks = %d\n",
                 cwd, asks);
        carc_rules *r = carc_variant_load(write_file("ask-many.ini", ini), NULL, 0, err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g = carc_game_new(r, 2, names, 1, err, sizeof err);
        assert_non_null(g);
        int st, asked = 0;
        while ((st = carc_advance(g)) == CARC_NEED_DRAW || st == CARC_NEED_CHOICE) {
            if (st == CARC_NEED_DRAW) assert_int_equal(carc_draw(g, -1), 0);
            else if (carc_choose(g, 0) < 0) break;
            else asked++;
            if (carc_turn_number(g) > 1) break; /* the first turn whole */
        }
        if (asks == 250) {
            assert_true(carc_turn_number(g) > 1);
            assert_int_equal(asked, 252); /* place, action and the script's 250 */
        } else {
            assert_int_equal(st, CARC_FAILED);
            assert_int_equal(asked, MAX_DECISIONS_PER_TURN);
            assert_non_null(strstr(carc_game_error(g), "ask-many asked more than 256 decisions in one turn"));
        }
        carc_game_free(g);
        carc_rules_free(r);
    }
}

static void record_too_many_players(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "carcassonne-record 1\nvariant base\nseed 1\n");
    for (int i = 0; i <= CARC_MAX_PLAYERS; i++) add(&t, "player P%d random\n", i);
    add(&t, "---\n");
    record_refused(write_text("players.rec", &t), ":10: more than 6 players");
}

static void record_too_many_options(void **state)
{
    (void)state;
    text t = {0};
    add(&t, "carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n");
    for (int i = 0; i <= 32; i++) add(&t, "option farm-scoring=none\n");
    add(&t, "---\n");
    record_refused(write_text("options.rec", &t), "too many or too long options");
}

/* ---- C plugins: by name, or by path when the user allows it --------------------------- */

static void plugin_path_rule(void **state)
{
    (void)state;
    const char *dir = getenv("CARC_PLUGIN_PATH");
    if (!dir || !*dir) skip();
    char so[600], body[1024];
    snprintf(so, sizeof so, "%s/noop.so", dir);
    if (access(so, R_OK) != 0) skip();
    snprintf(body, sizeof body, "[variant]\nname = by-path\n[tiles]\nsets = base\n[plugins]\nload = %s\n", so);
    const char *by_path = write_file("by-path.ini", body);
    const char *by_name = write_file("by-name.ini", "[variant]\nname = by-name\n[tiles]\nsets = base\n[plugins]\nload = noop\n");
    char err[4096];

    carc_allow_plugin_paths(0);
    assert_int_equal(carc_plugin_paths_allowed(), 0);
    variant_refused(by_path, "--allow-plugin-paths");
    variant_refused(by_path, ":6:");
    variant_refused(write_file("rel.ini", "[variant]\nname = r\n[tiles]\nsets = base\n[plugins]\nload = noop.so\n"),
                    "is given as a path");
    carc_rules *r = carc_variant_load(by_name, NULL, 0, err, sizeof err);
    if (!r) fail_msg("a plugin by name: %s", err);
    carc_rules_free(r);

    carc_allow_plugin_paths(1);
    r = carc_variant_load(by_path, NULL, 0, err, sizeof err);
    carc_allow_plugin_paths(0);
    if (!r) fail_msg("allowed, a plugin by path: %s", err);
    carc_rules_free(r);
    /* Allowed or not, a name is never a path and a path must exist. */
    carc_allow_plugin_paths(1);
    variant_refused(write_file("missing.ini", "[variant]\nname = m\n[tiles]\nsets = base\n[plugins]\nload = ./nosuch.so\n"),
                    "no such file");
    variant_refused(write_file("badname.ini", "[variant]\nname = b\n[tiles]\nsets = base\n[plugins]\nload = No$Name\n"),
                    "never given as a path");
    carc_allow_plugin_paths(0);
}

/* ---- option texts: one safe line of the record --------------------------------------- */

static const char INJECT_LUA[] =
    "carc.on('action-offer', function(ev) carc.offer({code = 1}) carc.offer({code = 2}) end)\n"
    "carc.format(function(opt)\n"
    "  if opt.code == 1 then return 'wait\\ndraw base:D # x' end\n"
    "  return 'end'\n"
    "end)\n"
    "carc.apply(function(opt, player) end)\n";

static void option_text_is_one_record_line(void **state)
{
    (void)state;
    write_file("inject.lua", INJECT_LUA);
    const char *v = write_file("inject.ini", "[variant]\nname = inject\n[tiles]\nsets = base\n[plugins]\nscripts = inject.lua\n");
    char err[4096];
    carc_rules *r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    static const char *const names[] = {"A", "B"}, *const agents[] = {"random", "random"};
    carc_game *g = carc_game_new(r, 2, names, 5, err, sizeof err);
    assert_non_null(g);
    carc_record_writer w;
    assert_int_equal(carc_writer_begin(&w, v, 5, 2, names, agents, NULL, 0), 0);
    char line[512];
    int seen_script = 0, k = 0;
    for (int d = 0; d < 400; d++) {
        int st = carc_advance(g);
        if (st == CARC_NEED_DRAW) {
            assert_int_equal(carc_draw(g, -1), 0);
            carc_draw_text(g, carc_last_drawn(g), line, sizeof line);
        } else if (st == CARC_NEED_CHOICE) {
            int n = carc_option_count(g);
            for (int i = 0; i < n; i++) {
                carc_option_text(g, i, line, sizeof line);
                assert_null(strpbrk(line, "\n\r#"));
                assert_string_not_equal(line, "end");
            }
            k = (k + 7) % n; /* scripted options too */
            carc_option_text(g, k, line, sizeof line);
            if (strstr(line, "wait") || strstr(line, "end")) seen_script++;
            assert_int_equal(carc_choose(g, k), 0);
        } else {
            break;
        }
        assert_int_equal(carc_writer_line(&w, line), 0);
    }
    assert_true(seen_script > 0);
    /* Saved, loaded and replayed: the same game. */
    const char *saved = tmp_path("inject.rec");
    assert_int_equal(carc_writer_save(&w, saved, err, sizeof err), 0);
    carc_writer_free(&w);
    carc_record rec;
    if (carc_record_load(saved, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_game *g2 = NULL;
    if (carc_replay(&rec, r, &g2, err, sizeof err) < 0) fail_msg("the saved game does not replay: %s", err);
    assert_int_equal(carc_tiles_placed(g2), carc_tiles_placed(g));
    assert_int_equal(carc_score(g2, 0), carc_score(g, 0));
    assert_int_equal(carc_score(g2, 1), carc_score(g, 1));
    carc_game_free(g2);
    carc_record_free(&rec);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Two options a script formats alike: a record could not tell them apart,
 * so the decision is refused when it is posed (no player, bot or record
 * meets it), naming the script. */
static void ambiguous_option_texts(void **state)
{
    (void)state;
    write_file("twins.lua", "carc.on('action-offer', function(ev) carc.offer({code = 1}) carc.offer({code = 2}) end)\n"
                            "carc.format(function(opt) return 'twin' end)\n"
                            "carc.apply(function(opt, player) end)\n");
    const char *v = write_file("twins.ini", "[variant]\nname = twins\n[tiles]\nsets = base\n[plugins]\nscripts = twins.lua\n");
    char err[4096], buf[512];
    carc_rules *r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(st, CARC_NEED_CHOICE);
    assert_int_equal(carc_option_record_text(g, 0, buf, sizeof buf), 0); /* a placement */
    assert_int_equal(carc_choose(g, 0), 0);
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(st, CARC_FAILED);
    assert_non_null(strstr(carc_game_error(g), "twins offered two options with one text, 'twin', in one decision (action)"));
    carc_game_free(g);
    carc_rules_free(r);
}

/* A text that changes with the game (against lua-guide.md: carc keeps
 * each option's shape for the game once formatted) is seen when a record
 * line is written: from then on the script's texts are formatted at every
 * decision, so the decision where option 1 reads like option 2 ('tok 4')
 * is still refused when it is posed. Without that, the shape of 'tok 1'
 * kept from the first turn would hide it. */
static void changing_option_texts_still_checked(void **state)
{
    (void)state;
    write_file("drift.lua", "local S = carc.state\n"
                            "carc.on('turn-start', function(ev) S.n = (S.n or 0) + 1 end)\n"
                            "carc.on('action-offer', function(ev) carc.offer({code = 1}) carc.offer({code = 2}) end)\n"
                            "carc.format(function(o) if o.code == 1 then return 'tok ' .. (S.n or 0) end return 'tok 4' end)\n"
                            "carc.apply(function(opt, player) end)\n");
    const char *v = write_file("drift.ini", "[variant]\nname = drift\n[tiles]\nsets = base\n[plugins]\nscripts = drift.lua\n");
    char err[4096], buf[512];
    carc_rules *r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int st, toks = 0;
    while ((st = carc_advance(g)) != CARC_FAILED && st != CARC_FINISHED) {
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            continue;
        }
        int k = 0; /* option 1 ('tok N') when offered, as a record writer writes it */
        for (int i = 0; i < carc_option_count(g); i++)
            if (carc_option_text(g, i, buf, sizeof buf) > 0 && strncmp(buf, "tok ", 4) == 0 && strcmp(buf, "tok 4") != 0) k = i;
        if (carc_option_record_text(g, k, buf, sizeof buf) == 0 && strncmp(buf, "tok ", 4) == 0) toks++;
        assert_int_equal(carc_choose(g, k), 0);
    }
    assert_int_equal(st, CARC_FAILED);
    assert_true(toks >= 2);
    assert_non_null(strstr(carc_game_error(g), "drift offered two options with one text, 'tok 4', in one decision (action)"));
    carc_game_free(g);
    carc_rules_free(r);
}

/* ---- no silent truncation: what used to be cut at a fixed size ---------------------- */

/* 25 all-field tiles, each with a cloister and 12 inner features of kinds a
 * script defines, all completing when their ring of 8 tiles is full. */
static const char RING_TILES[] =
    "[set]\nname = rings\ntitle = Test: many ring features per tile\n"
    "[tile T]\ncount = 25\nedges = FFFF\nmarks = start\nsegment = field N E S W\nsegment = cloister inner\n"
    "segment = r1 inner\nsegment = r2 inner\nsegment = r3 inner\nsegment = r4 inner\nsegment = r5 inner\n"
    "segment = r6 inner\nsegment = r7 inner\nsegment = r8 inner\nsegment = r9 inner\nsegment = r10 inner\n"
    "segment = r11 inner\nsegment = r12 inner\n";

static carc_rules *ring_rules(void)
{
    write_file("rings-tiles.ini", RING_TILES);
    write_file("rings.lua", "for i = 1, 12 do carc.define_kind('r' .. i, 'ring') end\n");
    const char *v = write_file("rings.ini", "[variant]\nname = rings\n[tiles]\nsets = rings-tiles.ini\n"
                                            "[plugins]\nscripts = rings.lua\n");
    char err[4096];
    carc_rules *r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

/* A 5x5 block around (2,0) (the start tile is its west middle), all but its
 * centre; returns the game, the centre not yet placed. */
static carc_game *ring_block(const carc_rules *r)
{
    char err[256];
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    if (!g) fail_msg("%s", err);
    for (int x = 0; x <= 4; x++)
        for (int y = -2; y <= 2; y++)
            if (!(x == 0 && y == 0) && !(x == 2 && y == 0)) {
                g->turn.ncompleted = 0; /* as each turn starts */
                assert_true(board_place(g, 0, x, y, 0) >= 0);
            }
    return g;
}

/* One placement completes 9 tiles' 13 ring features: 117, all noted for the
 * score phase (the kernel kept 64). */
static void many_features_completed_at_once(void **state)
{
    (void)state;
    carc_rules *r = ring_rules();
    carc_game *g = ring_block(r);
    g->turn.ncompleted = 0;
    assert_true(board_place(g, 0, 2, 0, 0) >= 0);
    assert_int_equal(g->turn.ncompleted, 9 * 13);
    for (int i = 0; i < g->turn.ncompleted; i++) {
        assert_true(feat_is_complete(g, g->turn.completed[i]));
        for (int j = 0; j < i; j++) assert_int_not_equal(g->turn.completed[i], g->turn.completed[j]);
    }
    carc_game_free(g);
    carc_rules_free(r);
}

/* 256 followers on one cloister: it counts as occupied (the count was 8
 * bits), the figure table grows for them, and all of them go home when it
 * scores (the kernel returned 64) to a supply that holds them all. */
static void many_followers_on_one_feature(void **state)
{
    (void)state;
    carc_rules *r = ring_rules();
    carc_game *g = ring_block(r);
    int centre = board_place(g, 0, 2, 0, 0);
    assert_true(centre >= 0);
    int cloister = feat_find(g, g->tiles[centre].node0 + 1);
    for (int i = 0; i < 256; i++) assert_true(fig_add(g, CARC_FIG_FOLLOWER, 0, CARC_AT_SEGMENT, centre, 1, 0) >= 0);
    assert_int_equal(g->nodes[cloister].occupants, 256);
    int counts[CARC_MAX_PLAYERS];
    feat_followers(g, cloister, counts);
    assert_int_equal(counts[0], 256);
    fig_return_followers(g, cloister);
    assert_false(g->failed);
    assert_int_equal(g->nodes[cloister].occupants, 0);
    int standing = 0;
    for (int f = 0; f < carc_figures(g); f++) standing += g->figs[f].where != CARC_AT_NONE;
    assert_int_equal(standing, 0);
    assert_int_equal(carc_supply(g, 0, "follower"), 7 + 256);
    carc_game_free(g);
    carc_rules_free(r);
}

/* One farm along 257 completed two-tile cities: worth 3 x 257 (the kernel
 * counted 256 cities), in every farm-scoring mode that counts cities. */
static void farm_bordering_many_cities(void **state)
{
    (void)state;
    const char *tiles = write_file("cities-tiles.ini", "[set]\nname = cities\ntitle = Test: a farm along many cities\n"
                                                       "[tile E]\ncount = 514\nedges = CFFF\nmarks = start\n"
                                                       "segment = city N\nsegment = field E S W borders N\n");
    (void)tiles;
    const char *v = write_file("cities.ini", "[variant]\nname = cities\n[tiles]\nsets = cities-tiles.ini\n");
    static const char *const modes[] = {"farm-scoring=per-farm", "farm-scoring=per-city-once"};
    for (int m = 0; m < 2; m++) {
        char err[4096];
        carc_rules *r = carc_variant_load(v, &modes[m], 1, err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
        if (!g) fail_msg("%s", err);
        for (int i = 1; i < 2 * 257; i++) { /* the start tile is the first city's south half */
            g->turn.ncompleted = 0; /* as each turn starts */
            assert_true(board_place(g, 0, i % 257, i < 257 ? 0 : -1, i < 257 ? 0 : 2) >= 0);
        }
        assert_true(fig_place_segment(g, CARC_FIG_FOLLOWER, 0, 0, 1) >= 0);
        int farm = feat_find(g, g->tiles[0].node0 + 1);
        if (m == 0) assert_int_equal(feature_value(g, farm, false), 3 * 257);
        score_farms(g);
        assert_false(g->failed);
        assert_int_equal(carc_score(g, 0), 3 * 257);
        carc_game_free(g);
        carc_rules_free(r);
    }
}

/* An option text of 120 words and over 600 characters is still found by its
 * record line (the kernel read 511 characters and 32 words of it). */
static void long_option_text_matches(void **state)
{
    (void)state;
    write_file("long.lua", "carc.on('action-offer', function(ev) carc.offer({code = 1}) end)\n"
                           "carc.format(function(opt) return string.rep('word ', 120) .. 'end' end)\n"
                           "carc.apply(function(opt, player) end)\n");
    const char *v = write_file("long.ini", "[variant]\nname = long\n[tiles]\nsets = base\n[plugins]\nscripts = long.lua\n");
    char err[4096], buf[1024];
    carc_rules *r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int st, found = 0;
    for (int d = 0; d < 10 && !found; d++) {
        while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
        assert_int_equal(st, CARC_NEED_CHOICE);
        for (int i = 0; i < carc_option_count(g); i++) {
            carc_option_text(g, i, buf, sizeof buf);
            if (strncmp(buf, "word ", 5) != 0) continue;
            assert_true(strlen(buf) > 600);
            assert_int_equal(carc_option_match(g, buf), i);
            assert_int_equal(carc_option_record_text(g, i, buf, sizeof buf), 0);
            found = 1;
        }
        assert_int_equal(carc_choose(g, 0), 0);
    }
    assert_true(found);
    carc_game_free(g);
    carc_rules_free(r);
}

/* A player name or a decision label too long for the game is refused with a
 * message, not cut. */
static void long_names_refused(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    static const char *const names[] = {"A", "a-name-of-forty-characters-xxxxxxxxxxxxx"};
    assert_null(carc_game_new(r, 2, names, 1, err, sizeof err));
    assert_non_null(strstr(err, "longer than 31 characters"));
    carc_rules_free(r);

    write_file("label.lua", "carc.on('turn-start', function(ev)\n"
                            "  carc.ask(0, 'a-label-of-forty-characters-xxxxxxxxxxxx', {{code = 1}})\n"
                            "end)\ncarc.apply(function(opt, player) end)\n");
    const char *v = write_file("label.ini", "[variant]\nname = label\n[tiles]\nsets = base\n[plugins]\nscripts = label.lua\n");
    r = carc_variant_load(v, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(st, CARC_FAILED);
    assert_non_null(strstr(carc_game_error(g), "a label has at most 31 characters"));
    carc_game_free(g);
    carc_rules_free(r);
}

/* ---- names that records carry, files that are not files, saves -------------------------- */

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* Finding 7: a '#' (or a space) in a tile id, set name, kind or mark
 * passed the loader but starts a comment in a record. */
static void names_that_break_records_refused(void **state)
{
    (void)state;
    char body[512];
    snprintf(body, sizeof body, "%s%s", "[set]\nname = a#b\ntitle = t\n", START_TILE);
    tiles_refused(write_file("hash-set.ini", body), "bad set name 'a#b' (1 to 31 letters, digits, '-' and '_')");
    snprintf(body, sizeof body, "%s[tile S#1]\ncount = 1\nedges = FFFF\nsegment = field N E S W\n", TILE_HEADER);
    tiles_refused(write_file("hash-id.ini", body), "bad tile id 'S#1'");
    snprintf(body, sizeof body, "[set]\nname = big\ntitle = t\nkinds = moat#x\n%s", START_TILE);
    tiles_refused(write_file("hash-kind.ini", body), "bad kind name 'moat#x'");
    snprintf(body, sizeof body, "[set]\nname = big\ntitle = t\nmarks = ok bad\x1b[2J\n%s", START_TILE);
    tiles_refused(write_file("esc-mark.ini", body), "bad mark name");
}

/* The same rule for the names a script defines: a kind, a mark, a reason or
 * a figure kind with a '#' or a blank would break the records that name it. */
static void script_names_that_break_records_refused(void **state)
{
    (void)state;
    static const struct { const char *lua, *phrase; } cases[] = {
        {"carc.define_kind('moat#x', 'ports')", "define_kind: too many kinds or a bad name"},
        {"carc.define_mark('gold coin')", "define_mark: too many marks or a bad name"},
        {"carc.define_reason('inn#2')", "define_reason: too many reasons or a bad name"},
        {"carc.define_figure('big one', 1, {follower = true})", "a figure name is 1 to 31 letters"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char lua[256];
        snprintf(lua, sizeof lua, "%s\n", cases[i].lua);
        write_file("names.lua", lua);
        variant_refused(write_file("names.ini", "[variant]\nname = names\n[tiles]\nsets = base\n[plugins]\n"
                                                "scripts = names.lua\n"),
                        cases[i].phrase);
    }
}

/* Finding 11: a FIFO given as a record, variant or tile set is refused at
 * once (opening it for reading would wait for a writer for ever). */
static void fifos_refused(void **state)
{
    (void)state;
    const char *fifo = tmp_path("fifo.ini");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    tiles_refused(fifo, "not a regular file");
    variant_refused(fifo, "not a regular file");
    record_refused(fifo, "not a regular file");
    unlink(fifo);
}

static void save_one(const char *path)
{
    const char *names[] = {"Red", "Blue"}, *agents[] = {"random", "random"};
    carc_record_writer w;
    assert_int_equal(carc_writer_begin(&w, "base", 5, 2, names, agents, NULL, 0), 0);
    char err[1200];
    if (carc_writer_save(&w, path, err, sizeof err) < 0) fail_msg("%s", err);
    carc_writer_free(&w);
}

static void expect_file(const char *path, const char *want)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    if (strcmp(buf, want) != 0) fail_msg("%s was changed: '%s'", path, buf);
}

/* Finding 5: the save's temporary file was FILE.tmpPID, predictable and
 * opened through links; a planted link made a save overwrite another file.
 * Now its name is unguessable and it is created new, never followed. */
static void save_refuses_planted_links(void **state)
{
    (void)state;
    const char *victim = write_file("victim.txt", "precious");
    const char *rec = tmp_path("game.rec");
    char planted[700];
    /* every name the old scheme could use in the next thousand processes */
    for (int pid = (int)getpid(); pid < (int)getpid() + 1000; pid++) {
        snprintf(planted, sizeof planted, "%s.tmp%d", rec, pid);
        unlink(planted);
        assert_int_equal(symlink(victim, planted), 0);
    }
    save_one(rec);
    expect_file(victim, "precious");
    struct stat st;
    assert_int_equal(lstat(rec, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    for (int pid = (int)getpid(); pid < (int)getpid() + 1000; pid++) {
        snprintf(planted, sizeof planted, "%s.tmp%d", rec, pid);
        unlink(planted);
    }
}

/* The whole file at path, malloc'd (its length in *len). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(CARC_RECORD_MAX_BYTES + 1);
    assert_non_null(buf);
    *len = fread(buf, 1, CARC_RECORD_MAX_BYTES + 1, f);
    fclose(f);
    return buf;
}

static void expect_saved(const char *path, const carc_record_writer *w)
{
    size_t len;
    char *got = slurp(path, &len);
    assert_int_equal(len, w->len);
    assert_memory_equal(got, w->buf, len);
    free(got);
}

/* play's saves (carc_writer_sync): the record written whole once, then
 * each move appended to the same file; an append that fails (here a file
 * size limit, as a full disk) is cut back off, the file keeping the last
 * save whole, and the next save writes the record whole again. */
static void save_appends_and_recovers(void **state)
{
    (void)state;
    static const char *const names[] = {"A", "B"}, *const agents[] = {"random", "random"};
    const char *path = tmp_path("appended.rec");
    char err[1024];
    carc_record_writer w;
    assert_int_equal(carc_writer_begin(&w, "base", 1, 2, names, agents, NULL, 0), 0);
    assert_int_equal(carc_writer_sync(&w, path, true, err, sizeof err), 0);
    struct stat first, now;
    assert_int_equal(stat(path, &first), 0);
    expect_saved(path, &w);
    for (int i = 0; i < 50; i++) {
        assert_int_equal(carc_writer_line(&w, i % 2 ? "pass" : "draw base:D"), 0);
        assert_int_equal(carc_writer_sync(&w, path, i % 10 == 0, err, sizeof err), 0);
        expect_saved(path, &w);
    }
    assert_int_equal(stat(path, &now), 0);
    assert_true(now.st_ino == first.st_ino); /* appended, never written anew */
    /* The next append passes a file size limit (SIGXFSZ ignored: EFBIG). */
    size_t good = w.len;
    char *before = slurp(path, &(size_t){0});
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    lim = old;
    lim.rlim_cur = (rlim_t)good + 8;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    for (int i = 0; i < 10; i++) assert_int_equal(carc_writer_line(&w, "deploy follower road@E"), 0);
    int rc = carc_writer_sync(&w, path, true, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "File too large"));
    size_t len;
    char *after = slurp(path, &len);
    assert_int_equal(len, good); /* the last save, whole */
    assert_memory_equal(after, before, good);
    free(after);
    free(before);
    /* Room again: the record is written whole. */
    assert_int_equal(carc_writer_sync(&w, path, true, err, sizeof err), 0);
    expect_saved(path, &w);
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    assert_int_equal(rec.nlines, 60);
    carc_record_free(&rec);
    carc_writer_free(&w);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -c 'appended.rec.tmp' >/dev/null && exit 1 || exit 0", tmp_path(""));
    assert_int_equal(system(cmd), 0); /* no temporary file left */
}

/* Finding 11: a save path of 1023 characters or more cut the temporary
 * name short, onto a neighbouring file's name. */
static void save_with_a_long_path(void **state)
{
    (void)state;
    char dir[2048], path[2100], neighbour[2100];
    snprintf(dir, sizeof dir, "%s", tmp_path(""));
    size_t len = strlen(dir);
    /* nested directories (a name is at most 255 bytes) up to a 1100-byte path */
    while (len < 1000) {
        strcat(dir, "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd/");
        len = strlen(dir);
        mkdir(dir, 0700);
    }
    snprintf(path, sizeof path, "%sgame-with-a-long-name.rec", dir);
    assert_true(strlen(path) >= 1023);
    /* what the old code wrote to: the temporary name cut at 1023 bytes */
    snprintf(neighbour, 1024, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(neighbour, "w");
    if (f) {
        fputs("neighbour", f);
        fclose(f);
    }
    save_one(path);
    if (f) expect_file(neighbour, "neighbour");
    carc_record rec;
    char err[4096];
    if (carc_record_load(path, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_record_free(&rec);
    char cmd[2300];
    snprintf(cmd, sizeof cmd, "rm -rf '%sddd'*", tmp_path(""));
    assert_int_equal(system(cmd), 0);
}

/* Finding 8: a record names its bots; `play --resume` ran any budget it
 * named (mcts:1000000000it searched for ever, growing without bound). */
static void bot_budgets_capped(void **state)
{
    (void)state;
    char err[512];
    const char *refused[] = {"mcts:1000000000it", "mcts:100001it", "mcts:61s", "mcts:60001ms", "mcts:1e300s"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        agent *a = agent_create(refused[i], 1, 0, err, sizeof err);
        if (a) fail_msg("%s was accepted", refused[i]);
        if (!strstr(err, "at most 100000")) fail_msg("%s", err);
    }
    agent *a = agent_create("mcts:100000it", 1, 0, err, sizeof err);
    assert_non_null(a);
    agent_free(a);
}

/* Finding 9: a replay page grows with the square of the game's length (each
 * turn draws the whole board): a 324 KB record made a 1.8 GB page. The page
 * is capped (RENDER_HTML_MAX_BYTES); here a small cap on a scenario record. */
static void render_page_capped(void **state)
{
    (void)state;
    char err[1024];
    carc_record rec;
    const char *path = "tests/scenarios/rob-track-modulo-50.rec";
    if (carc_record_load(path, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_rules *r = carc_record_rules(&rec, err, sizeof err);
    if (!r) fail_msg("%s", err);
    FILE *out = fopen("/dev/null", "w");
    assert_non_null(out);
    assert_int_equal(render_html_limited(out, &rec, r, -1, 1 << 30, err, sizeof err), 0);
    assert_int_equal(render_html_limited(out, &rec, r, -1, 20000, err, sizeof err), -1);
    if (!strstr(err, "rob-track-modulo-50.rec: the replay page would be larger than 20000 bytes")) fail_msg("%s", err);
    fclose(out);
    carc_rules_free(r);
    carc_record_free(&rec);
    assert_true(RENDER_HTML_MAX_BYTES <= (64l << 20));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ini_file_too_large),
        cmocka_unit_test(ini_line_too_long),
        cmocka_unit_test(ini_many_lines),
        cmocka_unit_test(tiles_too_many_types),
        cmocka_unit_test(tiles_too_many_tiles),
        cmocka_unit_test(variant_too_many_tiles),
        cmocka_unit_test(variant_too_many_options),
        cmocka_unit_test(variant_includes_too_deep),
        cmocka_unit_test(record_too_large),
        cmocka_unit_test(record_line_too_long),
        cmocka_unit_test(record_too_many_lines),
        cmocka_unit_test(writer_keeps_to_reader_limits),
        cmocka_unit_test(decisions_per_turn_capped),
        cmocka_unit_test(record_too_many_players),
        cmocka_unit_test(record_too_many_options),
        cmocka_unit_test(plugin_path_rule),
        cmocka_unit_test(option_text_is_one_record_line),
        cmocka_unit_test(ambiguous_option_texts),
        cmocka_unit_test(changing_option_texts_still_checked),
        cmocka_unit_test(many_features_completed_at_once),
        cmocka_unit_test(many_followers_on_one_feature),
        cmocka_unit_test(farm_bordering_many_cities),
        cmocka_unit_test(long_option_text_matches),
        cmocka_unit_test(long_names_refused),
        cmocka_unit_test(names_that_break_records_refused),
        cmocka_unit_test(script_names_that_break_records_refused),
        cmocka_unit_test(fifos_refused),
        cmocka_unit_test(save_refuses_planted_links),
        cmocka_unit_test(save_with_a_long_path),
        cmocka_unit_test(save_appends_and_recovers),
        cmocka_unit_test(bot_budgets_capped),
        cmocka_unit_test(render_page_capped),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
