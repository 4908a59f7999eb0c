/*
 * fuzz_lua_grammar.c - libFuzzer target: the input's bytes choose, one by
 * one, the constructs of a Lua script from a grammar of what attacks the
 * sandbox's limits: endless loops, coroutines (nested, yielded, closed,
 * wrapped), pcall and xpcall with message handlers, to-be-closed variables,
 * metamethods on every value carc reads, library functions that call back,
 * the carc API (handlers, phases that run again, refusals, carc.state,
 * print, awards and batches by the hundred thousand, text in other
 * encodings), phases asking many one-option questions with long texts
 * (records with many answers), and what freezing after load touches (writes to a table, a class
 * and an upvalue of the top level; pairs, next, rawget, rawset, sort past
 * 100 elements, %p, keys with no fixed order). The script is loaded into
 * the base rules and a short random game is played, whose record must save,
 * load and replay; fuzz_bounded checks the time and memory of each input
 * against the documented limits.
 * Random bytes give valid scripts, so the fuzzer spends its time on the
 * limits, not on Lua's parser (fuzz_lua.c covers that).
 */
#include "fuzz_common.h"

int fuzz_lua_grammar(const uint8_t *data, size_t size);

typedef struct gen {
    const uint8_t *data;
    size_t size, at;
    char *out;
    size_t len, cap;
    int depth, names;
} gen;

/* The next choice among n (0 when the input is used up). */
static unsigned pick(gen *g, unsigned n)
{
    if (g->at >= g->size) return 0;
    return g->data[g->at++] % n;
}

static void emit(gen *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        g->cap = (g->len + n + 1) * 2;
        g->out = realloc(g->out, g->cap);
        if (!g->out) abort();
    }
    memcpy(g->out + g->len, s, n + 1);
    g->len += n;
}

static void block(gen *g);

/* An expression: numbers, strings (some long), tables with metatables. */
static void expr(gen *g)
{
    static const char *const atoms[] = {
        "1", "0", "-1", "math.maxinteger", "math.mininteger", "1e308", "0/0", "'x'", "''", "nil", "true",
        "string.rep('ab', 100000)", "{}", "{1, 2, 3}", "ev", "carc.state", "_G", "coroutine.running()",
    };
    unsigned k = pick(g, 22);
    if (k < sizeof atoms / sizeof atoms[0] || g->depth > 4) {
        emit(g, atoms[k % (sizeof atoms / sizeof atoms[0])]);
        return;
    }
    g->depth++;
    static const char *const meta[] = {"__index", "__newindex", "__tostring", "__eq", "__lt", "__le", "__len",
                                       "__call", "__concat", "__unm", "__add", "__close", "__name", "__pairs"};
    emit(g, "setmetatable({}, {");
    emit(g, meta[pick(g, sizeof meta / sizeof meta[0])]);
    emit(g, " = function(...) ");
    block(g);
    emit(g, " return ");
    emit(g, atoms[pick(g, sizeof atoms / sizeof atoms[0])]);
    emit(g, " end})");
    g->depth--;
}

/* A statement. */
static void stmt(gen *g)
{
    char buf[160];
    unsigned k = pick(g, 43);
    if (g->depth > 5) k = 20 + k % 23; /* deep enough: no more nesting */
    g->depth++;
    switch (k) {
    case 0: emit(g, "while true do "); block(g); emit(g, " end"); break;
    case 1:
        snprintf(buf, sizeof buf, "for i = 1, %u do ", 1u << pick(g, 24));
        emit(g, buf);
        block(g);
        emit(g, " end");
        break;
    case 2: emit(g, "pcall(function(...) "); block(g); emit(g, " end)"); break;
    case 3:
        emit(g, "xpcall(function(...) ");
        block(g);
        emit(g, " end, function(m) ");
        block(g);
        emit(g, " return m end)");
        break;
    case 4:
        snprintf(buf, sizeof buf, "local co%d = coroutine.create(function(...) ", g->names);
        emit(g, buf);
        block(g);
        snprintf(buf, sizeof buf, " end) coroutine.resume(co%d) coroutine.resume(co%d) coroutine.close(co%d)", g->names,
                 g->names, g->names);
        g->names++;
        emit(g, buf);
        break;
    case 5: emit(g, "coroutine.wrap(function(...) "); block(g); emit(g, " end)()"); break;
    case 6:
        snprintf(buf, sizeof buf, "local w%d = coroutine.wrap(function() while true do coroutine.yield() ", g->names);
        emit(g, buf);
        block(g);
        snprintf(buf, sizeof buf, " end end) for i = 1, 1000 do w%d() end", g->names++);
        emit(g, buf);
        break;
    case 7:
        snprintf(buf, sizeof buf, "do local c%d <close> = setmetatable({}, {__close = function() ", g->names++);
        emit(g, buf);
        block(g);
        emit(g, " end}) ");
        block(g);
        emit(g, " end");
        break;
    case 8: emit(g, "error("); expr(g); emit(g, ")"); break;
    case 9:
        emit(g, "do local t = ");
        expr(g);
        static const char *const uses[] = {"local x = t.a", "t.a = 1", "local x = tostring(t)", "local x = t == t",
                                           "local x = t < t", "local x = #t", "t()", "local x = t .. 'a'",
                                           "local x = -t", "local x = t + 1", "print(t)", "for k in pairs(t) do end",
                                           "local x = string.format('%s', t)", "table.concat(t)", "table.insert(t, 1)"};
        emit(g, " ");
        emit(g, uses[pick(g, sizeof uses / sizeof uses[0])]);
        emit(g, " end");
        break;
    case 10: emit(g, "table.sort({3, 1, 2, 5, 4}, function(a, b) "); block(g); emit(g, " return a < b end)"); break;
    case 11: emit(g, "string.rep('abc', 1000):gsub('.', function(c) "); block(g); emit(g, " end)"); break;
    case 12: {
        static const char *const repl[] = {"tostring", "string.upper", "string.rep", "print", "coroutine.yield",
                                           "error", "pcall", "next"};
        snprintf(buf, sizeof buf, "pcall(string.gsub, string.rep('x', %u), '', %s)", 1u << pick(g, 23),
                 repl[pick(g, sizeof repl / sizeof repl[0])]);
        emit(g, buf);
        break;
    }
    case 13:
        snprintf(buf, sizeof buf, "do local it = string.rep('a', %u):gmatch('a-b') for i = 1, 100 do it() end end",
                 1u << pick(g, 13));
        emit(g, buf);
        break;
    case 14: emit(g, "coroutine.yield()"); break;
    case 15: emit(g, "pcall(carc.award, 99, 1, 0)"); break;
    case 16: emit(g, "carc.state.k = "); expr(g); break;
    case 17: emit(g, "print("); expr(g); emit(g, ")"); break;
    case 18: emit(g, "rawset(_G, 'x', 1)"); break;
    case 19: emit(g, "local ok = pcall(carc.ask, 0, 'x', {{}, 1})"); break;
    case 20: emit(g, "local x = math.random(math.mininteger, math.maxinteger)"); break;
    case 21: emit(g, "local x = ('a'):rep(1000000) == ('a'):rep(1000000)"); break;
    case 22: emit(g, "local t = {} for i = 1, 100000 do t[i] = {} end"); break;
    case 23: emit(g, "if ev then ev.value = "); expr(g); emit(g, " end"); break;
    case 24: emit(g, "if ev and ev.award then ev.award.points = "); expr(g); emit(g, " end"); break;
    case 25: emit(g, "return 'again'"); break;
    case 26: emit(g, "local s = tostring(coroutine.running())"); break;
    case 27: emit(g, "getmetatable('').__index = nil"); break;
    case 28: emit(g, "local x = select('#', table.unpack({}, 1, 100000))"); break;
    /* What the top level made (K, its class C, the upvalue up) is frozen
     * once the script has loaded; order and addresses are fixed. */
    case 29: emit(g, "K.a = "); expr(g); break;
    case 30: emit(g, "for k, v in pairs(K) do local x = tostring(k) .. tostring(v) end"); break;
    case 31: emit(g, "local k = next(K) while k ~= nil do k = next(K, k) end"); break;
    case 32: emit(g, "local x = rawget(K, 'a') rawset(K, 'b', "); expr(g); emit(g, ")"); break;
    case 33: emit(g, "local o = setmetatable({}, C) local x = o.m and o:m() local y = getmetatable(o) == C"); break;
    case 34:
        emit(g, "local t = {} for i = 1, 300 do t[i] = i % 7 end table.sort(t, function(a, b) ");
        block(g);
        emit(g, " return a < b end)");
        break;
    case 35: emit(g, "local x = string.format('%s %p', K, K)"); break;
    case 36: emit(g, "local x = up + #K + #C"); break;
    case 37: emit(g, "for k in pairs({[K] = 1, a = 2, [1.5] = 3, [true] = 4}) do end"); break;
    case 38: emit(g, "up = "); expr(g); break;
    /* What the kernel keeps for a script: awards landed, batched (bounded
     * per turn and per game), and text in other encodings (Latin-1, stray
     * continuation bytes, overlong forms) in labels, state and output. */
    case 39:
        snprintf(buf, sizeof buf, "for i = 1, %u do pcall(carc.award, 0, 0, 0) end", 1u << pick(g, 20));
        emit(g, buf);
        break;
    case 40:
        snprintf(buf, sizeof buf,
                 "pcall(carc.batch_begin) for i = 1, %u do pcall(carc.batch_add, 0, 0, 0, -1, 0) end "
                 "pcall(carc.batch_commit, 0)",
                 1u << pick(g, 20));
        emit(g, buf);
        break;
    case 41: emit(g, "local ok = pcall(carc.ask, 0, 'caf\\xe9\\xff', {{code = 1}, {code = 2}})"); break;
    case 42: emit(g, "carc.state.t = 'caf\\xe9\\x80\\xc0\\xaf' print('\\xe9\\xfe\\x1b[2J')"); break;
    default: emit(g, "local x = 1"); break;
    }
    g->depth--;
}

/* One to three statements, each in its own do-block (a return ends a block). */
static void block(gen *g)
{
    unsigned n = 1 + pick(g, 3);
    for (unsigned i = 0; i < n; i++) {
        emit(g, "do ");
        stmt(g);
        emit(g, " end ");
    }
}

/* The script: a top level, handlers of a few events, a phase. */
static char *script(const uint8_t *data, size_t size)
{
    gen g = {.data = data, .size = size};
    emit(&g, "local ev = nil\nlocal up = 1\nlocal C = {}\nC.__index = C\nfunction C.m(self) return self end\n"
             "local K = setmetatable({a = 1, 'x', 'y', [2.5] = true, n = {1, 2}}, C)\n");
    if (pick(&g, 4) == 0) block(&g);
    static const char *const events[] = {"turn-start", "tile-drawn", "tile-placed", "action-offer", "score-before",
                                         "feature-completed", "turn-end", "game-end"};
    unsigned nh = pick(&g, 4);
    char buf[320];
    for (unsigned i = 0; i < nh; i++) {
        snprintf(buf, sizeof buf, "\ncarc.on('%s', function(ev) ", events[pick(&g, sizeof events / sizeof events[0])]);
        emit(&g, buf);
        block(&g);
        emit(&g, " end)\n");
    }
    if (pick(&g, 3) == 0) {
        emit(&g, "\ncarc.add_phase('fuzz', 'before', 'draw', function(step) if step < 3 then ");
        block(&g);
        emit(&g, " end end)\n");
    }
    /* Records with many answers: a phase asking one-option questions, up to
     * past the 256 decisions a turn may ask, their texts up to past the 900
     * characters an option's text may have (a record of 213,219 lines, one
     * of 363 MB, were found). Chosen last (and 1, not 0: an input used up
     * picks 0), so the inputs found before keep their scripts. */
    if (pick(&g, 2) == 1) {
        static const unsigned asks[] = {1, 100, 254, 255, 300, 3000}, lengths[] = {1, 100, 899, 900, 901, 2000};
        snprintf(buf, sizeof buf,
                 "\ncarc.format(function(o) return 'many ' .. o.a .. ' ' .. string.rep('y', %u) end)\n"
                 "carc.apply(function(o, player) ",
                 lengths[pick(&g, 6)]);
        emit(&g, buf);
        block(&g);
        snprintf(buf, sizeof buf,
                 " end)\ncarc.add_phase('many', 'after', 'action', function(call) if call < %u then "
                 "carc.ask(carc.active_player(), 'many', {{code = 1, a = call}}) return 'again' end end)\n",
                 asks[pick(&g, 6)]);
        emit(&g, buf);
    }
    return g.out;
}

static int lua_grammar_input(const uint8_t *data, size_t size)
{
    char *text = script(data, size);
    fuzz_play_script((const uint8_t *)(text ? text : ""), text ? strlen(text) : 0, fuzz_hash(data, size));
    free(text);
    return 0;
}

int fuzz_lua_grammar(const uint8_t *data, size_t size)
{
    return fuzz_bounded("lua_grammar", lua_grammar_input, data, size);
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_lua_grammar(data, size); }
#endif
