/* lua_guard.c - wrappers that charge the work of costly library functions
 * to a script's budget before it is done (lua_guard.h). */
#include "lua_guard.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua_wrapper.h"

/* Upvalue 1: the library's own function; upvalue 2: the charge function. */
static void charge(lua_State *L, double work)
{
    lua_guard_charge_fn fn = *(lua_guard_charge_fn *)lua_touserdata(L, lua_upvalueindex(2));
    fn(L, work);
}

/* lua_wrapper_call_original, on this frame where it can be. */
static int call_original(lua_State *L)
{
    /* A library function without upvalues (all of string's, table's, utf8's)
     * runs on this frame: the same arguments and results without a second
     * call through the VM (a third of a short string.byte's cost). */
    lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
    if (f && !lua_getupvalue(L, lua_upvalueindex(1), 1)) return f(L);
    if (f) lua_pop(L, 1);
    return lua_wrapper_call_original(L);
}

/* Length of argument i if it is a string (numbers are left as they are). */
static double str_arg(lua_State *L, int i)
{
    size_t n = 0;
    if (lua_type(L, i) == LUA_TSTRING) lua_tolstring(L, i, &n);
    return (double)n;
}

/* Functions that scan their string arguments without allocating. */
static int g_linear(lua_State *L)
{
    double work = 1;
    for (int i = 1; i <= lua_gettop(L); i++) work += str_arg(L, i) / 16;
    charge(L, work);
    return call_original(L);
}

/* string.rep(s, n, sep) copies s and sep one piece at a time: a short piece
 * repeated a million times is a million copies (about half an instruction's
 * time each) in a string of one megabyte, so each piece is charged as one
 * instruction, besides the bytes its output allocates. With s and sep empty
 * it would loop n times for nothing: answered at once. */
static int g_rep(lua_State *L)
{
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0) return call_original(L);
    if (l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    charge(L, (double)n * (lsep > 0 ? 2 : 1));
    return call_original(L);
}

/* ---- patterns ---------------------------------------------------------------------- */

/* End of the set class starting at p[i] == '[' (Lua's classEnd). */
static size_t set_end(const char *p, size_t m, size_t i)
{
    i++;
    if (i < m && p[i] == '^') i++;
    do {
        if (i >= m) return m;
        if (p[i++] == '%' && i < m) i++;
    } while (i < m && p[i] != ']');
    return i < m ? i + 1 : m;
}

/* Worst-case steps of matching pattern p (m bytes) against n bytes: each
 * start position, times the pattern, times every repetition that may try
 * each remaining position (x*, x+, x-, a back-reference, %b), times 2 for
 * each x?. Generous, so that only a pattern that can explode is refused. */
static double pattern_steps(const char *p, size_t m, size_t n, int plain)
{
    double N = (double)n + 1, steps = N * ((double)m + 1);
    if (plain) return steps;
    for (size_t i = 0; i < m && steps < 1e30;) {
        size_t end;
        char c = p[i];
        if (c == '(' || c == ')' || (c == '^' && i == 0) || (c == '$' && i + 1 == m)) {
            i++;
            continue;
        }
        if (c == '%' && i + 1 < m) {
            char d = p[i + 1];
            if (d == 'b') {
                steps *= N;
                i += 4;
                continue;
            }
            if (d == 'f') {
                i = i + 2 < m && p[i + 2] == '[' ? set_end(p, m, i + 2) : i + 2;
                continue;
            }
            if (d >= '0' && d <= '9') {
                steps *= N;
                i += 2;
                continue;
            }
            end = i + 2;
        } else if (c == '[') {
            end = set_end(p, m, i);
        } else {
            end = i + 1;
        }
        if (end < m) {
            char q = p[end];
            if (q == '*' || q == '+' || q == '-') {
                steps *= N;
                end++;
            } else if (q == '?') {
                steps *= 2;
                end++;
            }
        }
        i = end;
    }
    return steps;
}

/* Returns the worst-case steps of one match, charged; refuses a pattern whose worst case is too costly. */
static double check_pattern(lua_State *L, int plain)
{
    size_t n, m;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &m);
    (void)s;
    double steps = pattern_steps(p, m, n, plain);
    if (steps > LUA_GUARD_PATTERN_STEPS) {
        char msg[160]; /* lua_pushfstring knows no %g */
        snprintf(msg, sizeof msg, "pattern too costly for a %zu-byte string (worst case %.3g steps; at most %.3g)",
                 n, steps, LUA_GUARD_PATTERN_STEPS);
        luaL_error(L, "%s", msg);
    }
    charge(L, 1 + steps / LUA_GUARD_STEPS_PER_UNIT);
    return steps;
}

static int g_find(lua_State *L)
{
    check_pattern(L, lua_toboolean(L, 4));
    return call_original(L);
}

static int g_pattern(lua_State *L)
{
    check_pattern(L, 0);
    return call_original(L);
}

/* gmatch's iterator matches again at each call, kept as long as the script
 * likes: each call pays the worst case of one match. Upvalues: the
 * iterator, the charge function, the cost. */
static int g_gmatch_next(lua_State *L)
{
    charge(L, lua_tonumber(L, lua_upvalueindex(3)));
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L);
}

static int g_gmatch(lua_State *L)
{
    double steps = check_pattern(L, 0);
    call_original(L); /* leaves the iterator on top */
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushnumber(L, 1 + steps / LUA_GUARD_STEPS_PER_UNIT);
    lua_pushcclosure(L, g_gmatch_next, 3);
    return 1;
}

/* A function replacement of gsub runs once a match; a C function there
 * (string.rep, tostring, pcall ...) would do its work unseen by the
 * instruction count: each call is charged by the strings it gets, and by
 * what the call itself costs (LUA_GUARD_GSUB_C_CALL for a C function, whose
 * work the count never sees: pcall of a string there builds an error
 * message, about 200 ns, the time of some 60 instructions; a Lua
 * function's instructions are counted, its call LUA_GUARD_GSUB_LUA_CALL).
 * Upvalues: the replacement, the charge function, the call's charge. */
static int g_gsub_repl(lua_State *L)
{
    double work = lua_tonumber(L, lua_upvalueindex(3));
    for (int i = 1; i <= lua_gettop(L); i++) work += str_arg(L, i) / 16;
    charge(L, work);
    return call_original(L);
}

static int g_gsub(lua_State *L)
{
    check_pattern(L, 0);
    if (lua_type(L, 3) == LUA_TFUNCTION) {
        int call = lua_iscfunction(L, 3) ? LUA_GUARD_GSUB_C_CALL : LUA_GUARD_GSUB_LUA_CALL;
        lua_pushvalue(L, 3);
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushinteger(L, call);
        lua_pushcclosure(L, g_gsub_repl, 3);
        lua_replace(L, 3);
    }
    return call_original(L);
}

/* ---- tables: ranges and shifts ----------------------------------------------------- */

static double range(lua_Integer i, lua_Integer j) { return j >= i ? (double)j - (double)i + 1 : 0; }

/* table.concat(t, sep, i, j) and table.unpack(t, i, j): the range is the
 * work, also over a proxy whose __index conjures elements. The range is
 * passed on explicitly, so __len runs once. */
static int g_ranged(lua_State *L, int first)
{
    if (lua_type(L, 1) != LUA_TTABLE && lua_isnoneornil(L, first + 1)) return call_original(L);
    lua_Integer i = luaL_optinteger(L, first, 1);
    lua_Integer j = lua_isnoneornil(L, first + 1) ? luaL_len(L, 1) : luaL_checkinteger(L, first + 1);
    charge(L, 1 + range(i, j));
    lua_settop(L, first - 1);
    lua_pushinteger(L, i);
    lua_pushinteger(L, j);
    return call_original(L);
}

static int g_concat(lua_State *L) { return g_ranged(L, 3); }
static int g_unpack(lua_State *L) { return g_ranged(L, 2); }

/* table.move(a1, f, e, t, a2) */
static int g_move(lua_State *L)
{
    charge(L, 1 + range(luaL_checkinteger(L, 2), luaL_checkinteger(L, 3)));
    return call_original(L);
}

/* The length a table function will use (its __len included). */
static double len_of(lua_State *L)
{
    if (lua_type(L, 1) != LUA_TTABLE) return 0;
    return (double)luaL_len(L, 1);
}

/* table.insert(t, pos, v) and table.remove(t, pos) shift the elements
 * after pos; appending and removing the last one do not. */
static void charge_shift(lua_State *L)
{
    int ok;
    lua_Integer pos = lua_tointegerx(L, 2, &ok);
    if (ok) charge(L, 1 + range(pos, (lua_Integer)len_of(L)));
}

static int g_insert(lua_State *L)
{
    if (lua_gettop(L) == 3) charge_shift(L);
    return call_original(L);
}

static int g_remove(lua_State *L)
{
    if (lua_gettop(L) >= 2) charge_shift(L);
    return call_original(L);
}

static int g_sort(lua_State *L)
{
    double n = len_of(L);
    if (n > 1) charge(L, n * log2(n + 1));
    return call_original(L);
}

typedef struct guard {
    const char *lib, *name;
    lua_CFunction fn;
} guard;

static const guard guards[] = {
    {"string", "rep", g_rep},       {"string", "find", g_find},       {"string", "match", g_pattern},
    {"string", "gmatch", g_gmatch}, {"string", "gsub", g_gsub},   {"string", "byte", g_linear},
    {"string", "format", g_linear}, {"string", "pack", g_linear},     {"string", "packsize", g_linear},
    {"string", "unpack", g_linear}, {"utf8", "len", g_linear},       {"utf8", "offset", g_linear},
    {"utf8", "codepoint", g_linear}, {"table", "concat", g_concat},  {"table", "unpack", g_unpack},
    {"table", "move", g_move},      {"table", "insert", g_insert},   {"table", "remove", g_remove},
    {"table", "sort", g_sort},      {NULL, "tonumber", g_linear},    {NULL, "print", g_linear},
};

void lua_guard_install(lua_State *L, int env, lua_guard_charge_fn fn)
{
    env = lua_absindex(L, env);
    lua_guard_charge_fn *slot = lua_newuserdatauv(L, sizeof fn, 0);
    *slot = fn;
    int ud = lua_gettop(L);
    for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++) {
        const guard *g = &guards[i];
        if (g->lib) lua_getfield(L, env, g->lib);
        else lua_pushvalue(L, env);
        int lib = lua_gettop(L);
        if (lua_istable(L, lib) && lua_getfield(L, lib, g->name) == LUA_TFUNCTION) {
            lua_pushvalue(L, ud);
            lua_pushcclosure(L, g->fn, 2);
            lua_setfield(L, lib, g->name);
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}
