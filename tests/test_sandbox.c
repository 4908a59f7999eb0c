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

#include "core.h"
#include "agents.h"
#include "helpers.h"
#include "play.h"
#include "lua_host.h"
#include "rng.h"
#include "temp_files.h"

/* Files in the program's temporary folder (a few live at once). */
static const char *tmp_file(const char *name)
{
    static char paths[4][1024];
    static int next;
    return test_tmp_path(paths[next++ % 4], sizeof paths[0], name);
}

#define VARIANT tmp_file("variant.ini")

/* Loads base + one script; returns the rules or NULL with err set. */
static carc_rules *load_script(const char *script, char *err, size_t errn)
{
    char path[1024];
    if (script[0] == '/') snprintf(path, sizeof path, "%s", script);
    else snprintf(path, sizeof path, "%s/tests/scripts/sandbox/%s", carc_data_dir(), script);
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
    *out = carc_game_new(r, 2, NULL, seed, err, sizeof err);
    assert_non_null(*out);
    carc_rng rng;
    carc_rng_seed(&rng, seed, 3);
    return play_on(*out, &(play_spec){.seed = seed, .pick = play_pick_uniform, .pick_state = &rng, .may_fail = true});
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
        const char *path = tmp_file("forbidden.lua");
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
    const char *path = tmp_file("binary.lua");
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
    assert_int_equal(carc_awards(a), carc_awards(b));
    for (int i = 0; i < carc_awards(a); i++)
        assert_memory_equal(carc_award_at(a, i), carc_award_at(b, i), sizeof(carc_award));
    int dice = 0, differ = 0;
    for (int i = 0; i < carc_awards(a) && i < carc_awards(c); i++) {
        const carc_award *x = carc_award_at(a, i), *y = carc_award_at(c, i);
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

/* ---- limits that hold whatever the script does (hostile scripts, part 2) -------------- */

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* The CPU time a limited call may take before it is stopped, and slack. */
#define CALL_SECONDS (2.0 * LUA_HOST_SECONDS + 8)

/* Runs body with the standard error sent to /dev/null (scripts that print). */
static int quiet_begin(void)
{
    fflush(stderr);
    int saved = dup(2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* The message of either per-call limit: which comes first depends on how
 * fast the machine runs carc's C code (AddressSanitizer slows it, not Lua). */
static bool a_limit(const char *err)
{
    return strstr(err, "instruction budget exceeded (2000000 instructions per call)") ||
           strstr(err, "time limit exceeded (2 s of CPU per call)");
}

/* A game of the script (or its loading) is stopped by a per-call limit, within the call's CPU time. */
static void expect_limit(const char *script, bool at_load)
{
    char err[4096];
    double t0 = now_s();
    carc_rules *r = load_script(script, err, sizeof err);
    if (at_load) {
        if (r) fail_msg("%s loaded", script);
    } else {
        if (!r) fail_msg("%s: %s", script, err);
        carc_game *g;
        assert_int_equal(play(r, 1, &g), CARC_FAILED);
        snprintf(err, sizeof err, "%s", carc_game_error(g));
        carc_game_free(g);
        carc_rules_free(r);
    }
    if (!a_limit(err)) fail_msg("%s: '%s' names no per-call limit", script, err);
    if (now_s() - t0 > CALL_SECONDS) fail_msg("%s took %.1f s of CPU to stop", script, now_s() - t0);
}

/* A game of the script fails with needle, within seconds of CPU. */
static void expect_game_error_within(const char *script, const char *needle, double seconds)
{
    double t0 = now_s();
    expect_game_error(script, needle);
    double took = now_s() - t0;
    if (took > seconds) fail_msg("%s took %.1f s of CPU to stop (at most %.0f)", script, took, seconds);
}

/* Finding 1: xpcall's message handler ran with hooks off after the budget's
 * error; so did the __close handlers of a coroutine the budget stopped. */
static void test_message_handler_after_a_limit(void **state)
{
    (void)state;
    expect_limit("xpcall-handler-loop.lua", true);
}

static void test_close_of_a_stopped_coroutine(void **state)
{
    (void)state;
    /* The script keeps the stopped coroutine for its next call, to close it
     * there: keeping it is refused, so no coroutine outlives its call. */
    expect_game_error("close-after-stop.lua", "cannot change a table made when the script loaded (field 'co')");
}

/* Finding 2: a tree of coroutines, each too short for its own hook. */
static void test_coroutine_tree_is_charged(void **state)
{
    (void)state;
    expect_limit("coroutine-tree.lua", true);
}

/* Finding 3: what carc reads back from the script, and a full heap. */
static void test_event_read_back_is_protected(void **state)
{
    (void)state;
    expect_game_error("event-write-back.lua", "field 'value' must be an integer");
    char err[4096];
    carc_rules *r = load_script("event-metatable.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g;
    double t0 = now_s();
    assert_int_equal(play(r, 1, &g), CARC_FINISHED); /* raw reads: the metamethods never run */
    assert_true(now_s() - t0 < CALL_SECONDS);
    carc_game_free(g);
    carc_rules_free(r);
    expect_game_error_within("event-full-heap.lua", "not enough memory", CALL_SECONDS);
    /* Filled as it is read: every way of reading sees the whole event. */
    const char *lazy[] = {"event-lazy.lua", "event-as-option.lua"};
    for (int i = 0; i < 2; i++) {
        r = load_script(lazy[i], err, sizeof err);
        if (!r) fail_msg("%s", err);
        if (play(r, 2, &g) != CARC_FINISHED) fail_msg("%s: %s", lazy[i], carc_game_error(g));
        carc_game_free(g);
        carc_rules_free(r);
    }
}

/* Bytes the C heap holds now (AddressSanitizer's own count under it: its
 * quarantine keeps freed memory in the process). */
#if defined(__SANITIZE_ADDRESS__)
size_t __sanitizer_get_current_allocated_bytes(void); /* AddressSanitizer's runtime */
static size_t heap_in_use(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
#include <malloc.h>
static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}
#endif

/* Finding 4: carc.ask's options are Lua memory, under the script's cap and
 * freed with it (they leaked about 200 MB a call under pcall). */
static void test_ask_does_not_leak(void **state)
{
    (void)state;
    size_t before = heap_in_use();
    expect_limit("ask-leak.lua", false);
    size_t after = heap_in_use();
    if (after > before + (4u << 20)) fail_msg("the heap kept %zu MB more after the game", (after - before) >> 20);
}

/* Memory Lua loses (a buffer in a failing message handler inside another,
 * lost by Lua 5.4.4 itself) is freed with the script's state: loading and
 * freeing the rules again and again does not grow the heap. */
static void test_memory_lua_loses_is_freed(void **state)
{
    (void)state;
    char err[4096];
    carc_rules_free(load_script("handler-fails-in-handler.lua", err, sizeof err)); /* the allocator's first use */
    size_t before = heap_in_use();
    for (int i = 0; i < 100; i++) {
        carc_rules *r = load_script("handler-fails-in-handler.lua", err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_rules_free(r);
    }
    size_t after = heap_in_use();
    if (after > before + (150u << 10)) fail_msg("the heap kept %zu KB more after 100 loads", (after - before) >> 10);
}

/* Finding 6: work a single instruction hides in a library call. */
static void test_library_callbacks_are_charged(void **state)
{
    (void)state;
    expect_limit("gmatch-reuse.lua", false);
    expect_limit("gsub-c-function.lua", true);
}

/* Finding 11: work one instruction hides. string.rep is charged per piece
 * it copies (a separator is a piece), a block of 1 KiB or more per 64 bytes
 * (its filling), each table made 8 instructions more, each call of a C
 * function given to gsub 64, so a call that copies megabytes, makes tables
 * by the hundred thousand or raises an error a match meets the instruction
 * budget, not only the CPU-time backstop, and a game of it cannot run for
 * minutes under every limit. */
static void test_hidden_work_is_charged(void **state)
{
    (void)state;
    const char *budget = "instruction budget exceeded (2000000 instructions per call)";
    double t0 = now_s();
    expect_game_error("rep-pieces.lua", budget);
    expect_game_error("rep-separator-pieces.lua", budget);
    expect_game_error("concat-megabytes.lua", budget);
    expect_game_error("tables-made.lua", budget);
    expect_game_error("gsub-pcall-replacement.lua", budget);
    if (now_s() - t0 > CALL_SECONDS) fail_msg("took %.1f s of CPU to stop", now_s() - t0);
}

/* Finding 9: print is charged, and capped per call and per game. */
static void test_print_is_capped(void **state)
{
    (void)state;
    int saved = quiet_begin();
    double t0 = now_s();
    expect_game_error("output/print-tostring.lua", "output limit exceeded (" "65536" " bytes per call");
    expect_game_error("output/print-per-game.lua", "output limit exceeded");
    double took = now_s() - t0;
    quiet_end(saved);
    if (took > CALL_SECONDS) fail_msg("took %.1f s", took);
}

/* Finding 10: a phase that runs again for ever is stopped by the turn's budget. */
static void test_phase_again_has_a_turn_budget(void **state)
{
    (void)state;
    expect_game_error_within("phase-again.lua", "instructions per turn", CALL_SECONDS);
}

/* Finding 11: rawset on the globals, math.random's widest interval, a FIFO for a script. */
static void test_small_escapes(void **state)
{
    (void)state;
    expect_game_error("rawset-global.lua", "rawset cannot set a global");
    expect_game_error("random-wide.lua", "interval is empty or too large");
    const char *fifo = tmp_file("fifo.lua");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    double t0 = now_s();
    expect_load_error(fifo, "not a regular file");
    assert_true(now_s() - t0 < 5);
    unlink(fifo);
}

/* A refusal stops the game, even when the script catches it with pcall;
 * the game ends with the refusal's message, where the script made it. */
static void test_refusal_stops_the_game_under_pcall(void **state)
{
    (void)state;
    expect_game_error("refusal-pcall.lua", "award: bad player, reason or feature");
    expect_game_error("refusal-pcall.lua", "refusal-pcall.lua:4:");
    expect_load_error("refusal-pcall-load.lua", "refusal-pcall-load.lua:3:");
    expect_load_error("refusal-pcall-load.lua", "add_phase: no phase of that name");
}

/* Every construct that runs script code: under the limits, stopped within
 * the call's time, whatever catches or handles the error. */
static void test_every_callback_is_limited(void **state)
{
    (void)state;
    static const char *const attacks[] = {
        "xpcall(function() while true do end end, function(m) while true do end end)",
        "xpcall(function() while true do end end, function(m) return m end) while true do end",
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, print) end",
        "do local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end",
        "pcall(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) "
        "while true do end end) while true do end",
        "local co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() "
        "while true do end end}) while true do end end) coroutine.resume(co) coroutine.close(co)",
        "local co = coroutine.create(function() while true do end end) while true do pcall(coroutine.resume, co) end",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
        "coroutine.wrap(function() while true do end end)()",
        "local co = coroutine.create(function() pcall(function() while true do end end) while true do end end) "
        "coroutine.resume(co) while true do end",
        "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function(a, b) while true do end end)",
        "('abc'):gsub('.', function() while true do end end)",
        "('abc'):gsub('.', setmetatable({}, {__index = function() while true do end end}))",
        "tostring(setmetatable({}, {__tostring = function() while true do end end}))",
        "print(setmetatable({}, {__tostring = function() while true do end end}))",
        "string.format('%s', setmetatable({}, {__tostring = function() while true do end end}))",
        "local t = setmetatable({}, {__index = function() while true do end end}) local x = t.a",
        "local t = setmetatable({}, {__newindex = function() while true do end end}) t.a = 1",
        "local m = {__eq = function() while true do end end} local x = setmetatable({}, m) == setmetatable({}, m)",
        "local m = {__lt = function() while true do end end} local x = setmetatable({}, m) < setmetatable({}, m)",
        "local m = {__le = function() while true do end end} local x = setmetatable({}, m) <= setmetatable({}, m)",
        "local x = setmetatable({}, {__concat = function() while true do end end}) .. 'a'",
        "local x = #setmetatable({}, {__len = function() while true do end end})",
        "setmetatable({}, {__call = function() while true do end end})()",
        "local x = -setmetatable({}, {__unm = function() while true do end end})",
        "local x = setmetatable({}, {__add = function() while true do end end}) + 1",
        "table.concat(setmetatable({}, {__len = function() while true do end end}))",
        "table.insert(setmetatable({}, {__len = function() while true do end end}), 1)",
        "for k in pairs(setmetatable({}, {__pairs = function() while true do end end})) do end",
        "for i, v in ipairs(setmetatable({}, {__index = function() while true do end end})) do end",
        "local co = coroutine.create(function() for i = 1, 1e9 do coroutine.yield() end end) "
        "while true do coroutine.resume(co) end",
        "string.rep('x', 1000):gsub('x', function() while true do end end)",
        "for w in string.gmatch('a b c', '%a') do while true do end end",
        "setmetatable(_ENV, {__index = function() while true do end end}) local x = undefined_name",
        "string.upper = function() while true do end end local x = ('a'):upper()",
    };
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        const char *path = tmp_file("attack.lua");
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%s\n", attacks[i]);
        fclose(f);
        char err[4096];
        double t0 = now_s();
        int saved = quiet_begin();
        carc_rules *r = load_script(path, err, sizeof err);
        quiet_end(saved);
        double took = now_s() - t0;
        if (r) fail_msg("attack %zu loaded: %s", i, attacks[i]);
        if (!a_limit(err))
            fail_msg("attack %zu (%s): %s", i, attacks[i], err);
        if (took > CALL_SECONDS) fail_msg("attack %zu (%s) took %.1f s of CPU", i, attacks[i], took);
    }
}

/* The tries of one move on a bot's scratch game are charged to one account,
 * the decision's, with a turn's limits (20 million instructions): at about
 * 1.8 million a try, the 12th finds it spent, fails at once and says so;
 * the real game is untouched and plays on from its own turn's account. */
static void test_tries_of_one_decision_share_an_account(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("turn-budget-tries.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 3, err, sizeof err);
    assert_non_null(g);
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(st, CARC_NEED_CHOICE); /* the first placement */
    carc_game *scratch = carc_game_clone(g);
    assert_non_null(scratch);
    int tried = 0;
    for (int i = 0; i < 20; i++) {
        int rc = carc_game_try(scratch, g, 0);
        if (carc_game_trials_spent(scratch)) {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(carc_game_error(scratch), "trial moves"));
            break;
        }
        if (rc != 0) fail_msg("try %d: %s", i, carc_game_error(scratch));
        tried++;
    }
    assert_int_equal(tried, 11);
    assert_int_equal(carc_game_trials_spent(g), 0);
    assert_int_equal(carc_choose(g, 0), 0);
    carc_game_free(scratch);
    carc_game_free(g);
    carc_rules_free(r);
}

/* carc.state keeps 64 entries through deletes and refills; the 65th is
 * refused. A look-ahead copy, which copies a store only up to its entries
 * in use, leaves the scratch game's state equal byte for byte to the
 * source's, whether the scratch held more entries or fewer. */
static carc_game *state_store_game(const carc_rules *r, int turns)
{
    carc_game *g = play_game(r, &(play_spec){.seed = 5, .pick = play_pick_first, .until_turn = turns});
    assert_int_equal(carc_turn_number(g), turns);
    return g;
}

static void test_state_store_keeps_64_entries(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("state-store.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g;
    if (play(r, 1, &g) != CARC_FINISHED) fail_msg("%s", carc_game_error(g));
    carc_game_free(g);
    carc_game *full = state_store_game(r, 3), *emptied = state_store_game(r, 4);
    carc_game *scratch = carc_game_clone(full);
    assert_non_null(scratch);
    assert_int_equal(carc_game_copy_into(scratch, emptied), 0);
    assert_memory_equal(scratch->pstate, emptied->pstate, r->state_size);
    assert_int_equal(carc_game_copy_into(scratch, full), 0);
    assert_memory_equal(scratch->pstate, full->pstate, r->state_size);
    carc_game_free(scratch);
    carc_game_free(full);
    carc_game_free(emptied);
    carc_rules_free(r);

    const char *ov[] = {"state-store.which=overfill"};
    r = carc_variant_load(VARIANT, ov, 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    assert_int_equal(play(r, 1, &g), CARC_FAILED);
    if (!strstr(carc_game_error(g), "carc.state is full (64 entries)")) fail_msg("%s", carc_game_error(g));
    carc_game_free(g);
    carc_rules_free(r);
}

/* ---- Finding 7: a script's games depend on the game alone ----------------------------------- */

/* State kept between calls is refused where it is made. */
static void test_state_between_calls_refused(void **state)
{
    (void)state;
    expect_load_error("state-upvalue.lua", "state-upvalue.lua:5: this function assigns 'turns', a variable made when "
                                           "the script loaded");
    expect_load_error("state-upvalue-nested.lua", "state-upvalue-nested.lua:5: this function assigns 'last'");
    expect_load_error("state-upvalue-factory.lua", "state-upvalue-factory.lua:5: this function assigns 'n'");
    expect_load_error("state-coroutine.lua", "a coroutine made when the script loaded is kept for later calls");
    expect_load_error("state-gmatch.lua", "an iterator made when the script loaded");
    expect_load_error("state-weak.lua", "weak tables (__mode) are not available");
    expect_game_error("state-table.lua", "state-table.lua:4: cannot change a table made when the script loaded");
    expect_game_error("state-rawset.lua", "rawset cannot change a table made when the script loaded");
    expect_game_error("state-lent-field.lua", "state-lent-field.lua:4: the table carc gives this call has no field "
                                              "'count'");
}

/* Plays a whole game of the script; fails with its error if it stops. */
static void expect_game_plays(const char *script)
{
    char err[4096];
    carc_rules *r = load_script(script, err, sizeof err);
    if (!r) fail_msg("%s: %s", script, err);
    carc_game *g;
    if (play(r, 5, &g) != CARC_FINISHED) fail_msg("%s: %s", script, carc_game_error(g));
    carc_game_free(g);
    carc_rules_free(r);
}

/* Reading what the top level made, classes, and state in locals and in
 * carc.state, all work after freezing. */
static void test_frozen_tables_read_as_before(void **state)
{
    (void)state;
    expect_game_plays("state-allowed.lua");
}

static void test_pairs_next_sort_and_tostring_are_fixed(void **state)
{
    (void)state;
    expect_game_plays("order-pairs.lua");
    expect_game_plays("order-sort.lua");
    expect_game_plays("order-addresses.lua");
}

/* Two loads of the rules are two Lua states, their string hashes seeded
 * differently: a score that follows pairs' order is the same in both. */
static void test_pairs_order_same_in_every_state(void **state)
{
    (void)state;
    int scores[4][2];
    for (int load = 0; load < 4; load++) {
        char err[4096];
        carc_rules *r = load_script("order-decides.lua", err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g;
        if (play(r, 11, &g) != CARC_FINISHED) fail_msg("%s", carc_game_error(g));
        for (int p = 0; p < 2; p++) scores[load][p] = carc_score(g, p);
        carc_game_free(g);
        carc_rules_free(r);
    }
    for (int load = 1; load < 4; load++)
        for (int p = 0; p < 2; p++) assert_int_equal(scores[load][p], scores[0][p]);
}


/* Runs g (random moves from rng) until the costly script's decision is pending. */
static void reach_costly(carc_game *g, carc_rng *rng)
{
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW || st == CARC_NEED_CHOICE) {
        if (st == CARC_NEED_CHOICE && strcmp(carc_decision_label(g), "costly") == 0) return;
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else carc_choose(g, (int)carc_rng_below(rng, (uint32_t)carc_option_count(g)));
    }
    fail_msg("the game ended before the costly decision: %s", carc_game_error(g));
}

/* How many options of g's pending decision a bot can try on copies before
 * the scripts' account for that decision is spent. */
static int tries_until_spent(const carc_game *g)
{
    carc_game *c = carc_game_clone(g);
    assert_non_null(c);
    int ok = 0, n = carc_option_count(g);
    for (int i = 0; i < n; i++) {
        int rc = carc_game_try(c, g, i);
        if (carc_game_trials_spent(c)) break;
        assert_int_equal(rc, 0);
        ok++;
    }
    carc_game_free(c);
    return ok;
}

/* Every copy a bot makes to try the moves of one decision is charged to one
 * account per script with the limits of a turn (20 million instructions):
 * a decision of 200 options whose apply costs about a million instructions
 * each is tried about 20 times, not 200 times with fresh limits each;
 * the real game goes on unhurt, and its next decision has a fresh account. */
static void test_trials_share_one_account(void **state)
{
    (void)state;
    char err[4096];
    carc_rules *r = load_script("costly-options.lua", err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 5, err, sizeof err);
    assert_non_null(g);
    carc_rng rng;
    carc_rng_seed(&rng, 5, 3);
    reach_costly(g, &rng);
    assert_int_equal(carc_option_count(g), 200);
    int first = tries_until_spent(g);
    assert_true(first >= 10);
    assert_true(first <= LUA_HOST_TURN_BUDGET / 1000000);
    assert_int_equal(carc_game_trials_spent(g), 0);
    /* The copies' account is spent for this decision: another copy fails at once. */
    assert_int_equal(tries_until_spent(g), 0);
    /* The real game itself pays from its own turn. */
    assert_int_equal(carc_choose(g, 7), 0);
    reach_costly(g, &rng);
    assert_int_equal(tries_until_spent(g), first);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Greedy and the search on that decision stop trying when the account is
 * spent, choose among what they weighed, count it, and the game finishes. */
static void test_bots_fall_back_when_trials_spent(void **state)
{
    (void)state;
    static const char *const kinds[] = {"greedy", "mcts:300it"};
    for (int k = 0; k < 2; k++) {
        char err[4096];
        carc_rules *r = load_script("costly-options.lua", err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g = carc_game_new(r, 2, NULL, 3, err, sizeof err);
        assert_non_null(g);
        agent *a = agent_create(kinds[k], 3, 0, err, sizeof err);
        assert_non_null(a);
        carc_rng rng;
        carc_rng_seed(&rng, 3, 3);
        int costly = 0;
        for (int st; (st = carc_advance(g)) == CARC_NEED_DRAW || st == CARC_NEED_CHOICE;) {
            if (st == CARC_NEED_DRAW) carc_draw(g, -1);
            else if (strcmp(carc_decision_label(g), "costly") == 0 && costly < 3) {
                costly++;
                int o = a->choose(a, g);
                assert_true(o >= 0 && o < carc_option_count(g));
                assert_int_equal(carc_choose(g, o), 0);
            } else {
                carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
            }
        }
        if (!carc_is_finished(g)) fail_msg("%s: %s", kinds[k], carc_game_error(g));
        assert_int_equal(costly, 3);
        assert_int_equal(a->fallbacks, 3);
        agent_free(a);
        carc_game_free(g);
        carc_rules_free(r);
    }
}

/* What the kernel keeps on a script's behalf is bounded like its memory:
 * a script landing 250,000 zero-point awards at a turn's start (2.1 GB a
 * game before) stops the game at the per-turn bound, by carc.award or
 * through a batch, with a message naming it; 4,000 a turn stop it at the
 * per-game bound later. The game holds no more than the bound. */
static void test_awards_a_script_causes_are_bounded(void **state)
{
    (void)state;
    static const struct {
        const char *opts[2];
        const char *needle;
    } cases[] = {
        {{"award-flood.how=award", "award-flood.awards=250000"}, "award-flood.lua:14: award: more than 4096 awards in one turn"},
        {{"award-flood.how=batch", "award-flood.awards=250000"}, "award-flood.lua:11: batch_add: more than 4096 awards in one turn"},
        {{"award-flood.how=award", "award-flood.awards=4000"}, "award-flood.lua:14: award: more than 65536 awards in one game"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[4096];
        carc_rules_free(load_script("award-flood.lua", err, sizeof err)); /* writes VARIANT */
        carc_rules *r = carc_variant_load(VARIANT, cases[i].opts, 2, err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g;
        assert_int_equal(play(r, 1, &g), CARC_FAILED);
        if (strncmp(carc_game_error(g), "award-flood: ", 13) != 0 || !strstr(carc_game_error(g), cases[i].needle))
            fail_msg("case %zu: '%s' does not say '%s'", i, carc_game_error(g), cases[i].needle);
        assert_true(carc_awards(g) <= 65536);
        carc_game_free(g);
        carc_rules_free(r);
    }
}

/* carc.ask takes what a person can choose from: 1000 options, not 1001. */
static void test_ask_takes_a_thousand_options(void **state)
{
    (void)state;
    char err[4096];
    const char *ok[] = {"costly-options.options=1000"};
    carc_rules_free(load_script("costly-options.lua", err, sizeof err));
    carc_rules *r = carc_variant_load(VARIANT, ok, 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    carc_rng rng;
    carc_rng_seed(&rng, 1, 3);
    reach_costly(g, &rng);
    assert_int_equal(carc_option_count(g), 1000);
    carc_game_free(g);
    carc_rules_free(r);
    expect_game_error("ask-1001.lua", "ask: 0 to 1000 options");
}

/* Each plugin offers at most 1000 options in a row to one decision; two
 * plugins may offer 1000 each to the same one (a composition of many
 * modules passes 1000 together). */
static void test_offers_bounded_per_plugin(void **state)
{
    (void)state;
    char err[4096];
    FILE *f = fopen(VARIANT, "w");
    assert_non_null(f);
    fprintf(f, "[variant]\nname = sandbox\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/sandbox/offer-many.lua "
               "%s/tests/scripts/sandbox/offer-many-too.lua\n[options]\noffer-many.offers = 1000\n"
               "offer-many-too.offers = 1000\n",
            carc_data_dir(), carc_data_dir());
    fclose(f);
    carc_rules *r = carc_variant_load(VARIANT, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    if (!g) fail_msg("%s", err);
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    if (st != CARC_NEED_CHOICE) fail_msg("no decision: %s", carc_game_error(g));
    while (carc_option_count(g) < 2000) { /* the placement first, then the action */
        assert_int_equal(carc_choose(g, 0), 0);
        while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
        if (st != CARC_NEED_CHOICE) fail_msg("no action decision: %s", carc_game_error(g));
    }
    assert_true(carc_option_count(g) > 2000);
    /* The next decisions too: a plugin's run starts anew with each. */
    for (int turns = 0; turns < 6; turns++) {
        assert_int_equal(carc_choose(g, carc_option_count(g) - 1), 0);
        while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
        if (st != CARC_NEED_CHOICE) fail_msg("decision %d: %s", turns, carc_game_error(g));
    }
    carc_game_free(g);
    carc_rules_free(r);
    /* One plugin alone offers 1000 to every action decision of a game. */
    const char *thousand[] = {"offer-many.offers=1000"};
    carc_rules_free(load_script("offer-many.lua", err, sizeof err));
    r = carc_variant_load(VARIANT, thousand, 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    if (play(r, 1, &g) != CARC_FINISHED) fail_msg("%s", carc_game_error(g));
    carc_game_free(g);
    carc_rules_free(r);
    const char *one[] = {"offer-many.offers=1001"};
    carc_rules_free(load_script("offer-many.lua", err, sizeof err));
    r = carc_variant_load(VARIANT, one, 1, err, sizeof err);
    if (!r) fail_msg("%s", err);
    assert_int_equal(play(r, 1, &g), CARC_FAILED);
    if (!strstr(carc_game_error(g), "offer: more than 1000 options from one plugin in one decision"))
        fail_msg("'%s'", carc_game_error(g));
    carc_game_free(g);
    carc_rules_free(r);
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
        cmocka_unit_test(test_message_handler_after_a_limit),
        cmocka_unit_test(test_close_of_a_stopped_coroutine),
        cmocka_unit_test(test_coroutine_tree_is_charged),
        cmocka_unit_test(test_event_read_back_is_protected),
        cmocka_unit_test(test_ask_does_not_leak),
        cmocka_unit_test(test_memory_lua_loses_is_freed),
        cmocka_unit_test(test_library_callbacks_are_charged),
        cmocka_unit_test(test_hidden_work_is_charged),
        cmocka_unit_test(test_print_is_capped),
        cmocka_unit_test(test_phase_again_has_a_turn_budget),
        cmocka_unit_test(test_small_escapes),
        cmocka_unit_test(test_refusal_stops_the_game_under_pcall),
        cmocka_unit_test(test_every_callback_is_limited),
        cmocka_unit_test(test_tries_of_one_decision_share_an_account),
        cmocka_unit_test(test_state_store_keeps_64_entries),
        cmocka_unit_test(test_state_between_calls_refused),
        cmocka_unit_test(test_frozen_tables_read_as_before),
        cmocka_unit_test(test_pairs_next_sort_and_tostring_are_fixed),
        cmocka_unit_test(test_pairs_order_same_in_every_state),
        cmocka_unit_test(test_trials_share_one_account),
        cmocka_unit_test(test_bots_fall_back_when_trials_spent),
        cmocka_unit_test(test_awards_a_script_causes_are_bounded),
        cmocka_unit_test(test_ask_takes_a_thousand_options),
        cmocka_unit_test(test_offers_bounded_per_plugin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
