/* test_plugins.c - the plugin API: every event in its documented order, the
 * C plugin and its Lua twin playing identical games, plugin state cloned with
 * the game, version checks, missing entry points, failed inits leaving no
 * trace, plugins named never by path. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core.h"
#include "helpers.h"
#include "play.h"
#include "temp_files.h"
#include "plugin.h"

#define TRACE_HEADER(v) "carcassonne-record 1\nvariant tests/variants/" v ".ini\nseed 1\nplayer Red random\nplayer Blue random\n---\n"

typedef struct trace_state {
    uint32_t hash;
    int events;
    int token;
    int asks;
    int len;
    char log[16384];
} trace_state;

static const trace_state *trace_of(const carc_game *g)
{
    for (int i = 0; i < g->rules->nplugins; i++)
        if (strcmp(g->rules->plugins[i]->name, "trace") == 0)
            return (const trace_state *)(g->pstate + g->rules->plugins[i]->state_off);
    fail_msg("no trace plugin");
    return NULL;
}

/* The order of one turn (docs/plugin-guide.md): the tile E closes the start
 * tile's city and Red's knight on it scores at once (BASE-10). */
static void test_event_order_of_a_turn(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(TRACE_HEADER("trace-c") "draw base:E\nplace 0,-1 r180\ndeploy follower city@S\nend\n", &r);
    assert_string_equal(trace_of(g)->log,
                        "GS TS TD TP OC PH AO AF OC FC FM FV FS SB SA FR SC SE TE "
                        "GE SE SE FN SB SA SB SA SE ");
    assert_int_equal(carc_score(g, 0), 4 + 1); /* the city, and the final point of the trace batch */
    assert_int_equal(carc_score(g, 1), 1);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Turn 3: the plugin's own phase asks the next player a question; its
 * option's apply awards points as its own scoring step. */
static void test_plugin_phase_asks_another_player(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(TRACE_HEADER("trace-c")
                               "draw base:U\nplace 1,0 r0\npass\n"
                               "draw base:U\nplace 2,0 r0\npass\n"
                               "draw base:U\nplace 3,0 r0\n",
                               &r);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_int_equal(carc_decision_player(g), 1); /* Red's turn 3, Blue answers */
    assert_string_equal(carc_decision_label(g), "trace");
    assert_int_equal(carc_option_match(g, "trace yes"), 0);
    assert_int_equal(carc_choose(g, 0), 0);
    assert_int_equal(carc_score(g, 1), 2);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_string_equal(carc_decision_label(g), "action");
    assert_int_equal(carc_decision_player(g), 0);
    /* The trace token is offered on the placed tile, and lands there. */
    int k = carc_option_match(g, "trace-token 3,0");
    assert_true(k >= 0);
    assert_int_equal(carc_choose(g, k), 0);
    int kind, owner, where, tile, seg, space;
    assert_int_equal(carc_figure(g, 0, &kind, &owner, &where, &tile, &seg, &space), 0);
    assert_int_equal(owner, -1);
    assert_int_equal(where, CARC_AT_TILE);
    assert_int_equal(tile, carc_tile_index_at(g, 3, 0));
    carc_game_free(g);
    carc_rules_free(r);
}

/* Options change the game at play time: city-extra raises city values
 * through feature-value, farmers=no vetoes field deploys. */
static void test_plugin_options(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text("carcassonne-record 1\nvariant tests/variants/trace-c.ini\nseed 1\n"
                               "player Red random\nplayer Blue random\noption trace.city-extra=5\noption trace.farmers=no\n---\n"
                               "draw base:E\nplace 0,-1 r180\n",
                               &r);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    for (int i = 0; i < carc_option_count(g); i++) {
        char t[128];
        carc_option_text(g, i, t, sizeof t);
        assert_null(strstr(t, "field@"));
    }
    assert_true(carc_option_match(g, "deploy follower city@S") >= 0);
    assert_int_equal(carc_choose(g, carc_option_match(g, "deploy follower city@S")), 0);
    carc_end_now(g);
    assert_int_equal(carc_advance(g), CARC_FINISHED);
    assert_int_equal(carc_score(g, 0), 4 + 5 + 1);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Every option text of every decision, '|' after each. */
typedef struct option_texts {
    char *buf;
    size_t len, cap;
} option_texts;

static void note_options(carc_game *g, int status, void *user)
{
    option_texts *t = user;
    for (int i = 0; status == CARC_NEED_CHOICE && i < carc_option_count(g); i++) {
        char text[256];
        int n = carc_option_text(g, i, text, sizeof text);
        if (t->len + (size_t)n + 2 > t->cap) t->buf = realloc(t->buf, t->cap *= 2);
        memcpy(t->buf + t->len, text, (size_t)n);
        t->len += (size_t)n;
        t->buf[t->len++] = '|';
    }
}

/* Plays a game with uniform random choices; records every option text. */
static carc_game *play(const carc_rules *r, uint64_t seed, char **texts, size_t *len)
{
    carc_rng rng;
    carc_rng_seed(&rng, seed, 99);
    option_texts t = {malloc(1 << 16), 0, 1 << 16};
    carc_game *g = play_game(r, &(play_spec){.players = 3, .seed = seed, .pick = play_pick_uniform, .pick_state = &rng,
                                             .advanced = note_options, .user = &t});
    *texts = t.buf;
    *len = t.len;
    return g;
}

/* The C plugin and the Lua script are the same expansion written twice: the
 * same options at every decision, the same events, the same scores. */
static void test_c_and_lua_play_identical_games(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *rc = carc_variant_load("tests/variants/trace-c.ini", NULL, 0, err, sizeof err);
    if (!rc) fail_msg("%s", err);
    carc_rules *rl = carc_variant_load("tests/variants/trace-lua.ini", NULL, 0, err, sizeof err);
    if (!rl) fail_msg("%s", err);
    for (uint64_t seed = 1; seed <= 60; seed++) {
        char *ta, *tb;
        size_t la, lb;
        carc_game *a = play(rc, seed, &ta, &la), *b = play(rl, seed, &tb, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(ta, tb, la);
        assert_int_equal(carc_awards(a), carc_awards(b));
        for (int i = 0; i < carc_awards(a); i++)
            assert_memory_equal(carc_award_at(a, i), carc_award_at(b, i), sizeof(carc_award));
        for (int p = 0; p < 3; p++) assert_int_equal(carc_score(a, p), carc_score(b, p));
        free(ta);
        free(tb);
        carc_game_free(a);
        carc_game_free(b);
    }
    carc_rules_free(rc);
    carc_rules_free(rl);
}

/* A clone made mid-game, with plugin and script state, continues exactly as
 * the original. */
static void test_clone_with_plugin_and_script_state(void **state)
{
    (void)state;
    const char *variants[] = {"tests/variants/trace-c.ini", "tests/variants/trace-lua.ini"};
    for (int v = 0; v < 2; v++) {
        char err[1024];
        carc_rules *r = carc_variant_load(variants[v], NULL, 0, err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g = carc_game_new(r, 2, NULL, 11, err, sizeof err);
        assert_non_null(g);
        carc_rng ra, rb;
        carc_rng_seed(&ra, 5, 5);
        play_spec s = {.seed = 11, .pick = play_pick_uniform, .pick_state = &ra, .max_moves = 77};
        assert_int_equal(play_on(g, &s), PLAY_STOPPED);
        carc_game *c = carc_game_clone(g);
        assert_non_null(c);
        rb = ra;
        s.max_moves = 0;
        assert_int_equal(play_on(g, &s), CARC_FINISHED);
        s.pick_state = &rb;
        assert_int_equal(play_on(c, &s), CARC_FINISHED);
        for (int p = 0; p < 2; p++) assert_int_equal(carc_score(g, p), carc_score(c, p));
        assert_int_equal(carc_awards(g), carc_awards(c));
        assert_memory_equal(g->pstate, c->pstate, r->state_size); /* plugin and script state too */
        carc_game_free(g);
        carc_game_free(c);
        carc_rules_free(r);
    }
}

static void write_variant(const char *path, const char *plugins_line)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[variant]\nname = t\n[tiles]\nsets = base\n[plugins]\n%s\n", plugins_line);
    fclose(f);
}

static void expect_load_error(const char *plugins_line, const char *needle)
{
    char path[1024];
    write_variant(test_tmp_path(path, sizeof path, "carc-test-plugin-variant.ini"), plugins_line);
    char err[2048];
    carc_rules *r = carc_variant_load(path, NULL, 0, err, sizeof err);
    if (r) fail_msg("'%s' loaded but should not", plugins_line);
    if (!strstr(err, needle)) fail_msg("error '%s' does not say '%s'", err, needle);
    /* Every error names the variant file and its line. */
    assert_non_null(strstr(err, "carc-test-plugin-variant.ini:6:"));
}

static void test_abi_mismatch_refused(void **state)
{
    (void)state;
    expect_load_error("load = badabi", "built for carc plugin API version 999");
}

static void test_missing_entry_point_refused(void **state)
{
    (void)state;
    expect_load_error("load = noentry", "has no entry point 'carc_plugin_entry'");
}

static void test_unknown_plugin_refused(void **state)
{
    (void)state;
    expect_load_error("load = nosuchplugin", "no plugin named 'nosuchplugin'");
}

static void test_plugin_given_as_path_refused(void **state)
{
    (void)state;
    expect_load_error("load = ./build/plugins/road-closer.so", "given as a path");
}

/* A plugin whose init fails leaves the rules exactly as they were. */
static void test_failed_init_leaves_no_trace(void **state)
{
    (void)state;
    struct carc_rules *r = calloc(1, sizeof *r), *before = malloc(sizeof *r);
    rules_init_builtins(r);
    *before = *r;
    char err[1024];
    assert_int_equal(plugin_load(r, "failinit", err, sizeof err), -1);
    assert_non_null(strstr(err, "failinit: init failed"));
    assert_memory_equal(r, before, sizeof *r);
    /* A good plugin still loads after it. */
    assert_int_equal(plugin_load(r, "trace", err, sizeof err), 0);
    assert_int_equal(r->nplugins, 1);
    plugins_unload(r);
    free(r->types);
    free(r);
    free(before);
}

/* Writes a variant of the base and robbers tiles with one script (text). */
static carc_rules *load_bag_script(const char *script_text, char *err, size_t errn)
{
    char script[1024], variant[2048], path[1024];
    test_tmp_write(script, sizeof script, "bag-phase.lua", script_text);
    snprintf(variant, sizeof variant, "[variant]\nname = bag-phase\n[tiles]\nsets = base robbers\n[plugins]\nscripts = %s\n",
             script);
    test_tmp_write(path, sizeof path, "bag-phase.ini", variant);
    return carc_variant_load(path, NULL, 0, err, errn);
}

/* Plays 6 games of 2 to 4 players, choosing the (7k mod n)th option, with
 * tests/scripts/NAME as the script; each must finish (the script fails the
 * game on what it checks). */
static void play_script_games(const char *name)
{
    char path[512], text[4096], err[512];
    snprintf(path, sizeof path, "%s/tests/scripts/%s", carc_data_dir(), name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_true(n < sizeof text - 1); /* the whole script */
    text[n] = 0;
    carc_rules *r = load_bag_script(text, err, sizeof err);
    if (!r) fail_msg("%s", err);
    for (int seed = 1; seed <= 6; seed++) {
        int k = 0;
        carc_game_free(play_game(r, &(play_spec){.players = 2 + seed % 3, .seed = (uint64_t)seed,
                                                 .pick = play_pick_stride, .pick_state = &k}));
    }
    carc_rules_free(r);
}

/* phase_needs_tile_mark: the phase runs on the turns whose tile bears the
 * mark and on no other (tests/scripts/bag-phase.lua counts and fails the
 * game otherwise). */
static void test_phase_runs_only_on_marked_tiles(void **state)
{
    (void)state;
    play_script_games("bag-phase.lua");
}

/* A script that load_bag_script refuses, with an error that says needle. */
static void expect_refused(const char *script, const char *needle)
{
    char err[512];
    carc_rules *r = load_bag_script(script, err, sizeof err);
    if (r) fail_msg("loaded: %s", script);
    if (!strstr(err, needle)) fail_msg("error '%s' does not say '%s'", err, needle);
}

/* carc.on and carc.add_phase with a carc.state key: the function runs while
 * the key holds a value and is passed by while it does not, for a string
 * and an integer key (tests/scripts/wait-key.lua sets the keys turn by turn
 * and fails the game on a call too many or one missing). */
static void test_handlers_wait_for_state_key(void **state)
{
    (void)state;
    play_script_games("wait-key.lua");
}

/* A key carc.state would refuse is refused at registration. */
static void test_wait_key_checked(void **state)
{
    (void)state;
    static const struct {
        const char *script, *needle;
    } cases[] = {
        {"carc.on('turn-start', function() end, '')", "carc.state keys are 1 to 23 characters"},
        {"carc.on('turn-start', function() end, 'a-key-of-twenty-four-xxx')", "carc.state keys are 1 to 23 characters"},
        {"carc.on('turn-start', function() end, '#1')", "do not start with '#'"},
        {"carc.add_phase('p', 'after', 'place', function() return 'done' end, {})", "carc.state keys are strings or integers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) expect_refused(cases[i].script, cases[i].needle);
}

/* What phase_needs_tile_mark refuses, with the reason. */
static void test_phase_needs_tile_mark_checked(void **state)
{
    (void)state;
    static const struct {
        const char *script, *needle;
    } cases[] = {
        {"carc.phase_needs_tile_mark('nowhere', carc.define_tile_mark('bag'))", "no turn phase of that name"},
        {"carc.phase_needs_tile_mark('place', carc.define_tile_mark('bag'))", "only a phase this plugin added"},
        {"carc.phase_needs_tile_mark('final-features', carc.define_tile_mark('bag'))", "a phase of the game's end has no turn tile"},
        {"carc.define_tile_mark('bag')\ncarc.add_phase('p', 'after', 'place', function() return 'done' end)\n"
         "carc.phase_needs_tile_mark('p', 7)",
         "no such tile mark"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) expect_refused(cases[i].script, cases[i].needle);
    /* During a game: registration is over. */
    char err[512];
    carc_rules *r = load_bag_script("local BAG = carc.define_tile_mark('bag')\n"
                                    "carc.add_phase('p', 'after', 'place', function() return 'done' end)\n"
                                    "carc.on('turn-start', function() carc.phase_needs_tile_mark('p', BAG) end)\n",
                                    err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(carc_advance(g), CARC_FAILED);
    if (!strstr(carc_game_error(g), "only allowed during init")) fail_msg("%s", carc_game_error(g));
    carc_game_free(g);
    carc_rules_free(r);
}

/* The replay trap: a plugin offers `barn X,Y field@Nw` and `barn X,Y
 * field@Wn` for one field (two ports of one segment): one record line would
 * choose either, so the decision is refused when it is posed, naming the
 * plugin, before any player or record sees it. With texts that differ the
 * same game plays on. */
static void test_options_one_line_could_choose_refused(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("tests/variants/test-ambiguous.ini", NULL, 0, err, sizeof err);
    assert_non_null(r);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    int st;
    while ((st = carc_advance(g)) != CARC_FAILED && st != CARC_FINISHED) {
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else carc_choose(g, 0);
    }
    assert_int_equal(st, CARC_FAILED);
    assert_int_equal(carc_turn_number(g), 1); /* the first action decision */
    const char *e = carc_game_error(g);
    assert_non_null(strstr(e, "ambiguous offered two options one record line could choose, 'barn "));
    carc_game_free(g);
    carc_rules_free(r);

    const char *ov[] = {"ambiguous.texts=distinct"};
    r = carc_variant_load("tests/variants/test-ambiguous.ini", ov, 1, err, sizeof err);
    assert_non_null(r);
    g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    int barns = 0;
    while ((st = carc_advance(g)) != CARC_FAILED && st != CARC_FINISHED) {
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            continue;
        }
        char t[128];
        carc_option_text(g, 0, t, sizeof t);
        barns += strncmp(t, "barn", 4) == 0;
        assert_int_equal(carc_option_duplicate(g, 0), -1);
        carc_choose(g, 0);
    }
    assert_int_equal(st, CARC_FINISHED);
    assert_true(barns > 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* ---- plugins in several rules objects of one process ---------------------------------- */

/* One game played line by line by uniform random choices; its record text
 * grows as it goes. */
typedef struct interleaved {
    const char *variant, *option;
    carc_rules *rules;
    carc_game *g;
    carc_rng rng;
    char *record;
    size_t len, cap;
} interleaved;

static void record_line(interleaved *x, const char *line)
{
    size_t n = strlen(line);
    while (x->len + n + 2 > x->cap) x->record = realloc(x->record, x->cap = x->cap ? 2 * x->cap : 1 << 16);
    memcpy(x->record + x->len, line, n);
    x->len += n;
    x->record[x->len++] = '\n';
    x->record[x->len] = 0;
}

static void interleaved_start(interleaved *x, uint64_t seed)
{
    char err[1024], line[256];
    x->rules = carc_variant_load(x->variant, &x->option, x->option ? 1 : 0, err, sizeof err);
    if (!x->rules) fail_msg("%s: %s", x->variant, err);
    const char *names[] = {"Red", "Blue", "Green"};
    x->g = carc_game_new(x->rules, 3, names, seed, err, sizeof err);
    assert_non_null(x->g);
    carc_rng_seed(&x->rng, seed, 7);
    snprintf(line, sizeof line, "carcassonne-record 1\nvariant %s\nseed %llu\nplayer Red random\nplayer Blue random\n"
             "player Green random", x->variant, (unsigned long long)seed);
    record_line(x, line);
    if (x->option) {
        snprintf(line, sizeof line, "option %s", x->option);
        record_line(x, line);
    }
    record_line(x, "---");
}

/* One stop of the game answered (a draw or a decision); 0 once it is over. */
static int interleaved_step(interleaved *x)
{
    int st = carc_advance(x->g);
    if (st == CARC_FINISHED) return 0;
    if (st == CARC_FAILED) fail_msg("%s: %s", x->variant, carc_game_error(x->g));
    char text[512];
    if (st == CARC_NEED_DRAW) {
        assert_int_equal(carc_draw(x->g, -1), 0);
        carc_draw_text(x->g, carc_last_drawn(x->g), text, sizeof text);
    } else {
        int k = (int)carc_rng_below(&x->rng, (uint32_t)carc_option_count(x->g));
        assert_int_equal(carc_option_record_text(x->g, k, text, sizeof text), 0);
        assert_int_equal(carc_choose(x->g, k), 0);
    }
    record_line(x, text);
    return 1;
}

/* road-closer defines its reason in each rules object that loads it, where
 * inns-cathedrals, loaded before it, numbers its own reasons first: the ids
 * differ between base+road-closer and inns-cathedrals+road-closer, and
 * prophet+princess-dragon+road-closer loads the other shipped plugins in
 * another order again. Three games, one of each, interleaved draw by draw
 * and choice by choice in one process, with their rules loaded side by
 * side: each plays to its end, its road-closer awards under its own
 * points-per-tile, and each record replays to the same scores. */
static void test_rules_side_by_side_interleaved(void **state)
{
    (void)state;
    interleaved x[] = {
        {.variant = "house/road-closer"},
        {.variant = "inns-cathedrals+house/road-closer", .option = "road-closer.points-per-tile=2"},
        {.variant = "prophet+princess-dragon+house/road-closer", .option = "road-closer.points-per-tile=3"},
    };
    enum { N = sizeof x / sizeof x[0] };
    for (int i = 0; i < N; i++) interleaved_start(&x[i], 11 + (uint64_t)i);
    for (int live = N; live > 0;) {
        live = 0;
        for (int i = 0; i < N; i++)
            if (!carc_is_finished(x[i].g) && interleaved_step(&x[i])) live++;
    }
    for (int i = 0; i < N; i++) {
        const carc_rules *r = carc_game_rules(x[i].g);
        int per_tile = i + 1, closer = 0;
        for (int a = 0; a < carc_awards(x[i].g); a++) {
            const carc_award *aw = carc_award_at(x[i].g, a);
            if (strcmp(carc_reason_name(r, aw->reason), "road-closer") != 0) continue;
            closer++;
            assert_int_equal(aw->points % per_tile, 0);
            assert_true(aw->points >= 2 * per_tile); /* a road has 2 tiles at least */
        }
        if (closer == 0) fail_msg("%s: no road-closer award in the whole game", x[i].variant);
        carc_rules *rr;
        carc_game *again = replay_text(x[i].record, &rr);
        assert_true(carc_is_finished(again));
        for (int p = 0; p < 3; p++) assert_int_equal(carc_score(again, p), carc_score(x[i].g, p));
        assert_int_equal(carc_awards(again), carc_awards(x[i].g));
        carc_game_free(again);
        carc_rules_free(rr);
    }
    for (int i = 0; i < N; i++) {
        carc_game_free(x[i].g);
        carc_rules_free(x[i].rules);
        free(x[i].record);
    }
}

/* The data a plugin keeps per rules object (set_plugin_data, plugin_data,
 * set_rules_ready; tests/plugins/pdata): each rules object gets its own,
 * made in init and ready once the options are set; each game finds its own
 * rules' data; the kernel frees it with the rules, when rules_ready refuses
 * them, and when init fails after setting it; rules_ready registers nothing. */
static void test_plugin_data_per_rules(void **state)
{
    (void)state;
    const char *dir = getenv("CARC_PLUGIN_PATH");
    char so[600], err[2048];
    snprintf(so, sizeof so, "%s/pdata.so", dir ? dir : ".");
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL); /* the same object the kernel loads */
    if (!h) fail_msg("%s (make test builds it; CARC_PLUGIN_PATH names its directory)", dlerror());
    int *made = dlsym(h, "pdata_made"), *freed = dlsym(h, "pdata_freed"), *ready = dlsym(h, "pdata_ready");
    assert_true(made && freed && ready);
    *made = *freed = *ready = 0;
    const char *two[] = {"pdata.points=2"}, *five[] = {"pdata.points=5"}, *refuse[] = {"pdata.refuse=1"};
    carc_rules *r2 = carc_variant_load("tests/variants/pdata.ini", two, 1, err, sizeof err);
    if (!r2) fail_msg("%s", err);
    carc_rules *r5 = carc_variant_load("tests/variants/pdata.ini", five, 1, err, sizeof err);
    if (!r5) fail_msg("%s", err);
    assert_int_equal(*made, 2);
    assert_int_equal(*ready, 2);
    assert_int_equal(*freed, 0);
    carc_game *g2 = carc_game_new(r2, 2, NULL, 1, err, sizeof err), *g5 = carc_game_new(r5, 2, NULL, 1, err, sizeof err);
    assert_true(g2 && g5);
    assert_int_equal(carc_advance(g5), CARC_NEED_DRAW);
    assert_int_equal(carc_advance(g2), CARC_NEED_DRAW);
    assert_int_equal(carc_score(g2, 0), 2);
    assert_int_equal(carc_score(g5, 0), 5);
    carc_game_free(g2);
    carc_game_free(g5);
    carc_rules_free(r2);
    assert_int_equal(*freed, 1);
    carc_rules_free(r5);
    assert_int_equal(*freed, 2);
    /* rules_ready refuses: the rules do not load, the data is freed */
    assert_null(carc_variant_load("tests/variants/pdata.ini", refuse, 1, err, sizeof err));
    if (!strstr(err, "pdata: refused the rules: refused as asked")) fail_msg("%s", err);
    assert_int_equal(*made, 3);
    assert_int_equal(*ready, 3);
    assert_int_equal(*freed, 3);
    /* init fails after setting its data: freed at once, never made ready */
    setenv("PDATA_FAIL_INIT", "1", 1);
    carc_rules *bad = carc_variant_load("tests/variants/pdata.ini", NULL, 0, err, sizeof err);
    unsetenv("PDATA_FAIL_INIT");
    assert_null(bad);
    if (!strstr(err, "pdata: init failed")) fail_msg("%s", err);
    assert_int_equal(*made, 4);
    assert_int_equal(*freed, 4);
    assert_int_equal(*ready, 3);
    dlclose(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_order_of_a_turn),
        cmocka_unit_test(test_plugin_phase_asks_another_player),
        cmocka_unit_test(test_phase_runs_only_on_marked_tiles),
        cmocka_unit_test(test_phase_needs_tile_mark_checked),
        cmocka_unit_test(test_handlers_wait_for_state_key),
        cmocka_unit_test(test_wait_key_checked),
        cmocka_unit_test(test_plugin_options),
        cmocka_unit_test(test_c_and_lua_play_identical_games),
        cmocka_unit_test(test_clone_with_plugin_and_script_state),
        cmocka_unit_test(test_abi_mismatch_refused),
        cmocka_unit_test(test_missing_entry_point_refused),
        cmocka_unit_test(test_unknown_plugin_refused),
        cmocka_unit_test(test_plugin_given_as_path_refused),
        cmocka_unit_test(test_failed_init_leaves_no_trace),
        cmocka_unit_test(test_options_one_line_could_choose_refused),
        cmocka_unit_test(test_rules_side_by_side_interleaved),
        cmocka_unit_test(test_plugin_data_per_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
