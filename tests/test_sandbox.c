/* test_sandbox.c - Lua scripts run sandboxed and limited: forbidden
 * libraries unreachable, binary chunks refused, endless loops (also in
 * coroutines and under pcall) and memory bombs stopped with a clear error,
 * errors naming the file and line, state kept in the game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>

#include <unistd.h>

#include "helpers.h"
#include "lua_host.h"
#include "rng.h"

#define VARIANT "/tmp/carc-sandbox-variant.ini"

/* Loads base + one script; returns the rules or NULL with err set. */
static carc_rules *load_script(const char *script, char *err, size_t errn)
{
    char cwd[512], path[1024];
    if (script[0] == '/') snprintf(path, sizeof path, "%s", script);
    else snprintf(path, sizeof path, "%s/tests/scripts/sandbox/%s", getcwd(cwd, sizeof cwd), script);
    FILE *f = fopen(VARIANT, "w");
    assert_non_null(f);
    fprintf(f, "[variant]\nname = sandbox\n[tiles]\nsets = base\n[plugins]\nscripts = %s\n", path);
    fclose(f);
    return carc_variant_load(VARIANT, NULL, 0, err, errn);
}

static void expect_load_error(const char *script, const char *needle)
{
    char err[4096];
    carc_rules *r = load_script(script, err, sizeof err);
    if (r) fail_msg("%s loaded but should not", script);
    if (!strstr(err, needle)) fail_msg("%s: error '%s' does not say '%s'", script, err, needle);
}

/* Plays a 2-player random game; returns its status and the game. */
static int play(const carc_rules *r, uint64_t seed, carc_game **out)
{
    char err[256];
    carc_game *g = carc_game_new(r, 2, NULL, seed, err, sizeof err);
    assert_non_null(g);
    carc_rng rng;
    carc_rng_seed(&rng, seed, 3);
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW || st == CARC_NEED_CHOICE) {
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
    }
    *out = g;
    return st;
}

static void expect_game_error(const char *script, const char *needle)
{
    char err[4096];
    carc_rules *r = load_script(script, err, sizeof err);
    if (!r) fail_msg("%s: %s", script, err);
    carc_game *g;
    assert_int_equal(play(r, 1, &g), CARC_FAILED);
    if (!strstr(carc_game_error(g), needle))
        fail_msg("%s: error '%s' does not say '%s'", script, carc_game_error(g), needle);
    carc_game_free(g);
    carc_rules_free(r);
}

static void test_safe_libraries_only(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("allowed.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_rules_free(r);
}

/* Each forbidden name, used, is an error naming it. */
static void test_each_forbidden_name_unreachable(void **state)
{
    (void)state;
    const char *names[] = {"io.open('/etc/passwd')", "os.execute('true')", "package.loadlib('x', 'y')",
                           "debug.getinfo(1)", "require('os')", "dofile('/etc/passwd')", "loadfile('/etc/passwd')",
                           "load('return 1')", "string.dump(print)", "collectgarbage('count')"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *path = "/tmp/carc-sandbox-forbidden.lua";
        FILE *f = fopen(path, "w");
        fprintf(f, "local x = %s\n", names[i]);
        fclose(f);
        char err[4096];
        carc_rules *r = load_script(path, err, sizeof err);
        if (r) fail_msg("'%s' ran in the sandbox", names[i]);
        if (!strstr(err, "nil")) fail_msg("'%s': unexpected error %s", names[i], err);
    }
}

static int write_chunk(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    return fwrite(p, 1, sz, ud) == sz ? 0 : 1;
}

static void test_binary_chunk_refused(void **state)
{
    (void)state;
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_loadstring(L, "carc.on('turn-start', function() end)"), LUA_OK);
    const char *path = "/tmp/carc-sandbox-binary.lua";
    FILE *f = fopen(path, "wb");
    lua_dump(L, write_chunk, f, 0);
    fclose(f);
    lua_close(L);
    expect_load_error(path, "attempt to load a binary chunk");
}

static void test_endless_loop_at_load(void **state)
{
    (void)state;
    expect_load_error("endless-load.lua", "instruction budget exceeded");
}

static void test_endless_loop_in_coroutine(void **state)
{
    (void)state;
    expect_load_error("endless-coroutine.lua", "instruction budget exceeded");
}

static void test_endless_loop_under_pcall(void **state)
{
    (void)state;
    expect_load_error("endless-pcall.lua", "instruction budget exceeded");
}

static void test_endless_loop_in_handler(void **state)
{
    (void)state;
    expect_game_error("endless-handler.lua", "instruction budget exceeded");
}

static void test_memory_bomb(void **state)
{
    (void)state;
    expect_load_error("memory-bomb.lua", "not enough memory");
}

static void test_huge_string(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("memory-rep.lua", err, sizeof err);
    assert_null(r);
    assert_true(strstr(err, "not enough memory") || strstr(err, "too large"));
}

/* Whichever limit comes first, Lua's stack or the memory cap, stops it. */
static void test_deep_recursion(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("deep-recursion.lua", err, sizeof err);
    assert_null(r);
    assert_true(strstr(err, "stack overflow") || strstr(err, "not enough memory"));
}

static void test_error_names_file_and_line(void **state)
{
    (void)state;
    expect_load_error("error-line.lua", "error-line.lua:3: boom");
    expect_load_error("error-line.lua", "stack traceback");
}

static void test_handler_error_stops_the_game(void **state)
{
    (void)state;
    expect_game_error("error-handler.lua", "error-handler.lua:3:");
}

static void test_registration_only_at_load(void **state)
{
    (void)state;
    expect_game_error("late-register.lua", "registration is only allowed");
}

static void test_globals_read_only_after_load(void **state)
{
    (void)state;
    expect_game_error("global-write.lua", "keep game state in carc.state");
    expect_game_error("global-existing.lua", "keep game state in carc.state");
}

static void test_state_limits(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("state-limits.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_rules_free(r);
    expect_game_error("state-limits.lua", "keys are 1 to 23 characters");
    const char *ov[] = {"state-limits.which=table"};
    r = carc_variant_load(VARIANT, ov, 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g;
    assert_int_equal(play(r, 1, &g), CARC_FAILED);
    assert_non_null(strstr(carc_game_error(g), "holds numbers, booleans and strings"));
    carc_game_free(g);
    carc_rules_free(r);
}

/* math.random draws from the game's generator: the seed decides it. */
static void test_math_random_follows_the_seed(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("random-points.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *a, *b, *c;
    assert_int_equal(play(r, 7, &a), CARC_FINISHED);
    assert_int_equal(play(r, 7, &b), CARC_FINISHED);
    assert_int_equal(play(r, 8, &c), CARC_FINISHED);
    assert_int_equal(carc_events(a), carc_events(b));
    for (int i = 0; i < carc_events(a); i++)
        assert_memory_equal(carc_event_at(a, i), carc_event_at(b, i), sizeof(carc_award));
    int dice = 0, differ = 0;
    for (int i = 0; i < carc_events(a) && i < carc_events(c); i++) {
        const carc_award *x = carc_event_at(a, i), *y = carc_event_at(c, i);
        if (strcmp(carc_reason_name(r, x->reason), "dice") == 0) {
            assert_true(x->points >= 1 && x->points <= 6);
            dice++;
        }
        differ += x->points != y->points;
    }
    assert_true(dice > 50);
    assert_true(differ > 0);
    carc_game_free(a);
    carc_game_free(b);
    carc_game_free(c);
    carc_rules_free(r);
    expect_game_error("randomseed.lua", "math.randomseed is not available");
}

/* ---- hostile scripts (issue: hostile input) --------------------------------------- */

#include <time.h>

/* CPU time of this process: the bound the limits promise, and unlike the
 * wall clock it does not stretch when the machine is busy. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Loading fails with needle, within the given seconds. */
static void expect_load_error_within(const char *script, const char *needle, double seconds)
{
    double t0 = now_s();
    expect_load_error(script, needle);
    double took = now_s() - t0;
    if (took > seconds) fail_msg("%s took %.1f s of CPU to stop (at most %.0f)", script, took, seconds);
}

static void test_string_rep_in_coroutine(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("rep-in-coroutine.lua", err, sizeof err);
    assert_null(r);
    assert_true(strstr(err, "not enough memory") || strstr(err, "too large"));
}

static void test_string_rep_of_nothing_is_instant(void **state)
{
    (void)state;
    char err[4096];
    double t0 = now_s();
    carc_rules *r = load_script("rep-empty.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_rules_free(r);
    assert_true(now_s() - t0 < 5);
}

static void test_table_of_tables(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("table-of-tables.lua", err, sizeof err);
    assert_null(r);
    assert_true(strstr(err, "not enough memory") || strstr(err, "instruction budget exceeded"));
}

/* An error object that is a table is reported as such: its __tostring,
 * an endless loop, is never called. */
static void test_error_object_is_a_table(void **state)
{
    (void)state;
    expect_load_error_within("error-table.lua", "error object is not a string", 10);
    expect_game_error("error-table-handler.lua", "error");
}

/* Finalizers run under the same limits, at collection and at close. */
static void test_gc_metamethod_tricks(void **state)
{
    (void)state;
    char err[4096];
    double t0 = now_s();
    carc_rules *r = load_script("gc-loop.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g;
    int st = play(r, 1, &g);
    assert_true(st == CARC_FINISHED || st == CARC_FAILED);
    carc_game_free(g);
    carc_rules_free(r); /* runs the looping finalizers */
    assert_true(now_s() - t0 < 30);
}

static void test_yield_across_the_c_boundary(void **state)
{
    (void)state;
    expect_game_error("yield-across-c.lua", "outside a coroutine");
}

/* C library functions that loop without allocating are charged to the
 * budget before they run. */
static void test_costly_library_calls(void **state)
{
    (void)state;
    expect_load_error_within("table-move.lua", "instruction budget exceeded", 5);
    expect_load_error_within("concat-proxy.lua", "instruction budget exceeded", 5);
    expect_load_error_within("insert-len.lua", "instruction budget exceeded", 5);
    expect_load_error_within("pattern-bomb.lua", "pattern too costly", 5);
    char err[4096];
    carc_rules *r = load_script("pattern-ok.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_rules_free(r);
}

/* Work one instruction does (comparing long strings) is stopped by the
 * CPU-time backstop. */
static void test_cpu_time_backstop(void **state)
{
    (void)state;
    expect_load_error_within("compare-loop.lua", "time limit exceeded", 2 * LUA_HOST_SECONDS + 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_safe_libraries_only),
        cmocka_unit_test(test_each_forbidden_name_unreachable),
        cmocka_unit_test(test_binary_chunk_refused),
        cmocka_unit_test(test_endless_loop_at_load),
        cmocka_unit_test(test_endless_loop_in_coroutine),
        cmocka_unit_test(test_endless_loop_under_pcall),
        cmocka_unit_test(test_endless_loop_in_handler),
        cmocka_unit_test(test_memory_bomb),
        cmocka_unit_test(test_huge_string),
        cmocka_unit_test(test_deep_recursion),
        cmocka_unit_test(test_error_names_file_and_line),
        cmocka_unit_test(test_handler_error_stops_the_game),
        cmocka_unit_test(test_registration_only_at_load),
        cmocka_unit_test(test_globals_read_only_after_load),
        cmocka_unit_test(test_state_limits),
        cmocka_unit_test(test_math_random_follows_the_seed),
        cmocka_unit_test(test_string_rep_in_coroutine),
        cmocka_unit_test(test_string_rep_of_nothing_is_instant),
        cmocka_unit_test(test_table_of_tables),
        cmocka_unit_test(test_error_object_is_a_table),
        cmocka_unit_test(test_gc_metamethod_tricks),
        cmocka_unit_test(test_yield_across_the_c_boundary),
        cmocka_unit_test(test_costly_library_calls),
        cmocka_unit_test(test_cpu_time_backstop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
