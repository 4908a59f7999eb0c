/* lua_determinism.c - a script's games depend on the game alone
 * (lua_determinism.h). */
#include "lua_determinism.h"

#include <lauxlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lua_wrapper.h"

/* Registry keys (their addresses): frozen table -> the table holding its
 * contents; function -> true for the sandbox's own; frozen metatable -> the
 * plain copy objects get; the charge function. */
static const char FROZEN = 'f', KNOWN = 'k', META_COPY = 'm', CHARGE = 'c', LAZY = 'l';

static void charge(lua_State *L, double work)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &CHARGE);
    lua_guard_charge_fn fn = *(lua_guard_charge_fn *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    fn(L, work);
}

/* Pushes the table holding the contents of the table at idx: its backing
 * table when it is frozen, else itself. Returns true when frozen. */
static bool push_contents(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    /* A table filled on first read is filled whole before raw access. */
    if (lua_getmetatable(L, idx)) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &LAZY);
        lua_insert(L, -2);
        if (lua_rawget(L, -2) == LUA_TFUNCTION) {
            lua_pushvalue(L, idx);
            lua_call(L, 1, 0);
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &FROZEN);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_remove(L, -2);
        return true;
    }
    lua_pop(L, 2);
    lua_pushvalue(L, idx);
    return false;
}

/* ---- keys in a fixed order ------------------------------------------------------------------ */

/* One key, as sorting sees it: numbers, then strings, then booleans. */
typedef struct key_rec {
    int rank;
    bool is_int;
    lua_Integer i;
    lua_Number n;
    const char *s;
    size_t len;
    int slot; /* where the key itself is kept (pairs) */
} key_rec;

enum { RANK_NUMBER, RANK_STRING, RANK_BOOLEAN };

/* Reads the key at idx; raises an error for a key with no fixed order. The
 * string pointer lives as long as the key does. */
static key_rec read_key(lua_State *L, int idx, const char *fname)
{
    key_rec k = {0};
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        k.rank = RANK_NUMBER;
        k.is_int = lua_isinteger(L, idx);
        k.i = lua_tointeger(L, idx);
        k.n = lua_tonumber(L, idx);
        break;
    case LUA_TSTRING:
        k.rank = RANK_STRING;
        k.s = lua_tolstring(L, idx, &k.len);
        break;
    case LUA_TBOOLEAN:
        k.rank = RANK_BOOLEAN;
        k.i = lua_toboolean(L, idx);
        break;
    default:
        luaL_error(L, "%s: a table with a key of type %s has no fixed order (it would differ from run to run); "
                      "keep such values in an array and use ipairs",
                   fname, luaL_typename(L, idx));
    }
    return k;
}

static int compare_keys(const key_rec *a, const key_rec *b)
{
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    switch (a->rank) {
    case RANK_NUMBER:
        if (a->is_int && b->is_int) return a->i < b->i ? -1 : a->i > b->i;
        if (a->n != b->n) return a->n < b->n ? -1 : 1;
        return a->is_int == b->is_int ? 0 : a->is_int ? -1 : 1; /* 2^53 and 2^53.0 */
    case RANK_STRING: {
        int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
        if (c) return c < 0 ? -1 : 1;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    default:
        return a->i < b->i ? -1 : a->i > b->i;
    }
}

static int compare_key_recs(const void *a, const void *b) { return compare_keys(a, b); }

/* next(t, k): the key after k in the fixed order, and its value. */
static int d_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    push_contents(L, 1); /* 3 */
    lua_pushnil(L);
    if (!lua_next(L, 3)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pop(L, 2);
    bool from_start = lua_isnil(L, 2);
    key_rec after = from_start ? (key_rec){0} : read_key(L, 2, "next");
    bool found = false;
    key_rec best = {0};
    int seen = 0;
    lua_pushnil(L); /* 4: the best key so far */
    lua_pushnil(L); /* 5: the traversal's key */
    while (lua_next(L, 3)) {
        lua_pop(L, 1);
        seen++;
        key_rec k = read_key(L, 5, "next");
        if ((from_start || compare_keys(&k, &after) > 0) && (!found || compare_keys(&k, &best) < 0)) {
            lua_pushvalue(L, 5);
            lua_replace(L, 4);
            best = read_key(L, 4, "next"); /* its string is the one kept at 4 */
            found = true;
        }
    }
    charge(L, 1 + seen / 8.0);
    if (!found) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 4);
    lua_rawget(L, 3);
    return 2;
}

/* The iterator pairs returns. Upvalues: the contents, the keys in order
 * (nil: the contents are the array 1..n), the position, n. */
static int pairs_step(lua_State *L)
{
    lua_Integer pos = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(4));
    bool array = lua_isnil(L, lua_upvalueindex(2));
    while (pos < n) {
        pos++;
        if (array) lua_pushinteger(L, pos);
        else lua_rawgeti(L, lua_upvalueindex(2), pos);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) { /* removed while iterating: skipped */
            lua_pushinteger(L, pos);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, pos);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushnil(L);
    return 1;
}

static int d_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    push_contents(L, 1); /* 2 */
    /* First pass: how many keys, and are they 1..n? (n distinct integer
     * keys, none below 1 nor above n, are exactly 1..n.) */
    lua_Integer n = 0, largest = 0;
    bool array = true;
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        n++;
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) array = false;
        else if (lua_tointeger(L, -1) > largest) largest = lua_tointeger(L, -1);
    }
    array = array && largest <= n;
    charge(L, 1 + (double)n / 4);
    lua_pushvalue(L, 2); /* upvalue 1 */
    if (array) {
        lua_pushnil(L);
    } else {
        if ((size_t)n > SIZE_MAX / sizeof(key_rec)) return luaL_error(L, "pairs: table too large");
        key_rec *recs = lua_newuserdatauv(L, (size_t)n * sizeof(key_rec), 0); /* 4 */
        lua_createtable(L, (int)(n < 1 << 26 ? n : 0), 0);                  /* 5: the keys, as met */
        int i = 0;
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, 5, ++i);
            recs[i - 1] = read_key(L, -1, "pairs");
            recs[i - 1].slot = i;
        }
        /* A string's pointer stays valid: table 5 keeps every key. */
        qsort(recs, (size_t)i, sizeof *recs, compare_key_recs);
        charge(L, (double)n * 2);
        lua_createtable(L, i, 0); /* 6: the keys in order */
        for (int j = 0; j < i; j++) {
            lua_rawgeti(L, 5, recs[j].slot);
            lua_rawseti(L, 6, j + 1);
        }
        lua_replace(L, 4);
        lua_settop(L, 4);
    }
    lua_pushinteger(L, 0);
    lua_pushinteger(L, n);
    lua_pushcclosure(L, pairs_step, 4);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* ---- raw access sees the contents of a frozen table ------------------------------------------ */

static int d_rawget(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    push_contents(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

static int d_rawlen(lua_State *L)
{
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    if (t == LUA_TTABLE) push_contents(L, 1);
    else lua_pushvalue(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

static int d_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_getfield(L, LUA_REGISTRYINDEX, "carc.env");
    bool globals = lua_rawequal(L, 1, -1);
    lua_pop(L, 1);
    if (push_contents(L, 1)) {
        if (globals)
            return luaL_error(L, "rawset cannot set a global after the script has loaded: keep game state in carc.state");
        return luaL_error(L, "rawset cannot change a table made when the script loaded: keep game state in carc.state");
    }
    lua_pop(L, 1);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* ---- no addresses ---------------------------------------------------------------------------- */

const char *lua_determinism_tostring(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t != LUA_TTABLE && t != LUA_TFUNCTION && t != LUA_TTHREAD && t != LUA_TUSERDATA && t != LUA_TLIGHTUSERDATA)
        return luaL_tolstring(L, idx, len);
    if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1); /* luaL_tolstring calls it */
        return luaL_tolstring(L, idx, len);
    }
    int name = luaL_getmetafield(L, idx, "__name");
    if (name == LUA_TSTRING) return lua_tolstring(L, -1, len);
    if (name != LUA_TNIL) lua_pop(L, 1);
    lua_pushstring(L, lua_typename(L, t));
    return lua_tolstring(L, -1, len);
}

static int d_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_determinism_tostring(L, 1, NULL);
    return 1;
}

/* string.format: %p refused, values that print addresses given as their
 * address-free text. */
static int d_format(lua_State *L)
{
    size_t n;
    const char *f = luaL_checklstring(L, 1, &n);
    for (size_t i = 0; i + 1 < n; i++) {
        if (f[i] != '%') continue;
        size_t j = i + 1;
        while (j < n && strchr("-+ #0123456789.", f[j])) j++;
        if (j < n && f[j] == 'p')
            return luaL_error(L, "string.format: %%p gives a memory address, which differs from run to run");
        i = j < n && f[j] == '%' ? j : i;
    }
    int top = lua_gettop(L);
    for (int i = 2; i <= top; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA ||
            t == LUA_TLIGHTUSERDATA) {
            lua_determinism_tostring(L, i, NULL);
            lua_replace(L, i);
        }
    }
    return lua_wrapper_call_original(L);
}

/* ---- the collector --------------------------------------------------------------------------- */

/* The plain metatable objects get in place of a frozen one: a copy of its
 * contents, made once (the VM reads metatables raw). getmetatable of such
 * an object still answers the frozen table. */
static void push_meta_copy(lua_State *L, int frozen, int contents)
{
    frozen = lua_absindex(L, frozen);
    contents = lua_absindex(L, contents);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &META_COPY);
    lua_pushvalue(L, frozen);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, contents)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, copy);
    }
    if (lua_getfield(L, copy, "__metatable") == LUA_TNIL) {
        lua_pushvalue(L, frozen);
        lua_setfield(L, copy, "__metatable");
    }
    lua_pop(L, 1);
    lua_pushvalue(L, frozen);
    lua_pushvalue(L, copy);
    lua_rawset(L, -4);
    lua_remove(L, -2);
}

/* setmetatable: a frozen metatable is given as its plain copy; __gc and
 * __mode are refused (lua_determinism.h). */
static int d_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        if (push_contents(L, 2)) {
            push_meta_copy(L, 2, -1);
            lua_replace(L, 2);
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "__gc");
        bool gc = lua_rawget(L, 2) != LUA_TNIL;
        lua_pushliteral(L, "__mode");
        bool weak = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 2);
        /* Lua runs finalizers with hooks off, out of reach of the limits. */
        if (gc) return luaL_error(L, "__gc metamethods are not available in the sandbox");
        if (weak)
            return luaL_error(L, "weak tables (__mode) are not available in the sandbox: what they keep depends on "
                                 "when the collector runs, which differs from run to run");
    }
    lua_settop(L, 2);
    return lua_wrapper_call_original(L);
}

/* ---- table.sort: stable past 100 elements ----------------------------------------------------- */

/* Lua's sort chooses random pivots for ranges over 100 elements (ltablib.c,
 * RANLIMIT), so equal elements land in an order that differs from run to
 * run; up to that its order is fixed. */
#define SORT_FIXED_LIMIT 100

static bool sort_less(lua_State *L, int a, int b, bool has_cmp)
{
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    if (!has_cmp) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    bool r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
}

static int d_sort(lua_State *L)
{
    lua_Integer n = luaL_len(L, 1);
    if (n <= SORT_FIXED_LIMIT) return lua_wrapper_call_original(L);
    luaL_argcheck(L, n < INT32_MAX, 1, "array too big");
    bool has_cmp = !lua_isnoneornil(L, 2);
    if (has_cmp) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_createtable(L, (int)n, 0); /* 3: the run being read */
    lua_createtable(L, (int)n, 0); /* 4: the run being written */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    /* Bottom-up merge sort: equal elements keep their order. */
    for (lua_Integer width = 1; width < n; width *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * width) {
            lua_Integer mid = lo + width < n + 1 ? lo + width : n + 1;
            lua_Integer hi = lo + 2 * width < n + 1 ? lo + 2 * width : n + 1;
            lua_Integer a = lo, b = mid, out = lo;
            while (a < mid || b < hi) {
                bool take_b = false;
                if (a < mid && b < hi) {
                    lua_rawgeti(L, 3, b);
                    lua_rawgeti(L, 3, a);
                    take_b = sort_less(L, -2, -1, has_cmp);
                    lua_pop(L, 2);
                } else {
                    take_b = a >= mid;
                }
                lua_rawgeti(L, 3, take_b ? b++ : a++);
                lua_rawseti(L, 4, out++);
            }
        }
        lua_pushvalue(L, 3);
        lua_pushvalue(L, 4);
        lua_replace(L, 3);
        lua_replace(L, 4);
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 3, i);
        lua_seti(L, 1, i);
    }
    return 0;
}

/* ---- install --------------------------------------------------------------------------------- */

/* t[name] = fn, with the old t[name] and the charge function as upvalues. */
static void replace(lua_State *L, int t, const char *name, lua_CFunction fn)
{
    lua_getfield(L, t, name);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &CHARGE);
    lua_pushcclosure(L, fn, 2);
    lua_setfield(L, t, name);
}

void lua_determinism_install(lua_State *L, int env, lua_guard_charge_fn fn)
{
    env = lua_absindex(L, env);
    *(lua_guard_charge_fn *)lua_newuserdatauv(L, sizeof fn, 0) = fn;
    lua_rawsetp(L, LUA_REGISTRYINDEX, &CHARGE);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &FROZEN);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &KNOWN);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &META_COPY);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LAZY);
    replace(L, env, "next", d_next);
    replace(L, env, "pairs", d_pairs);
    replace(L, env, "rawget", d_rawget);
    replace(L, env, "rawset", d_rawset);
    replace(L, env, "rawlen", d_rawlen);
    replace(L, env, "tostring", d_tostring);
    replace(L, env, "setmetatable", d_setmetatable);
    lua_getfield(L, env, "string");
    replace(L, lua_gettop(L), "format", d_format);
    lua_pop(L, 1);
    lua_getfield(L, env, "table");
    replace(L, lua_gettop(L), "sort", d_sort);
    lua_pop(L, 1);
    /* The strings' metatable is the sandbox's: out of the script's reach. */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* Marks every function reachable from the table at idx (depth-first, each
 * table once: seen at index seen). */
static void mark_known(lua_State *L, int idx, int known, int seen)
{
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, seen);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_rawset(L, known);
        } else if (lua_type(L, -1) == LUA_TTABLE) {
            mark_known(L, -1, known, seen);
        }
        lua_pop(L, 1);
    }
}

void lua_determinism_mark_known(lua_State *L, int env)
{
    env = lua_absindex(L, env);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &KNOWN);
    lua_newtable(L);
    mark_known(L, env, lua_gettop(L) - 1, lua_gettop(L));
    lua_pop(L, 2);
}

/* ---- freezing -------------------------------------------------------------------------------- */

static int frozen_newindex(lua_State *L)
{
    luaL_where(L, 1);
    lua_pushfstring(L, "cannot change a table made when the script loaded (field '%s'): it would carry over from "
                       "game to game and into the bots' trial moves; keep game state in carc.state",
                    lua_type(L, 2) == LUA_TSTRING || lua_type(L, 2) == LUA_TNUMBER ? lua_tostring(L, 2) : luaL_typename(L, 2));
    lua_concat(L, 2);
    return lua_error(L);
}

static int global_newindex(lua_State *L)
{
    luaL_where(L, 1);
    lua_pushfstring(L, "global '%s' cannot be set after the script has loaded: keep game state in carc.state",
                    lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
    lua_concat(L, 2);
    return lua_error(L);
}

/* __len of a frozen table: upvalue 1, its contents. */
static int frozen_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/* __index of a frozen table whose metatable had one: its contents first,
 * then the old __index (upvalue 2). */
static int frozen_index(lua_State *L)
{
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    if (lua_type(L, -1) == LUA_TFUNCTION) {
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 2);
        lua_call(L, 2, 1);
    } else {
        lua_pushvalue(L, 2);
        lua_gettable(L, -2);
    }
    return 1;
}

/* Moves the raw contents of the table at t into a fresh table, pushed, and
 * records t as frozen. */
static void move_contents(lua_State *L, int t)
{
    t = lua_absindex(L, t);
    lua_newtable(L);
    int b = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, b);
    }
    lua_pushnil(L);
    while (lua_next(L, b)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &FROZEN);
    lua_pushvalue(L, t);
    lua_pushvalue(L, b);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* The globals: moved behind the environment, which stays empty, so that
 * every assignment to a global, new or existing, fails. */
static void freeze_globals(lua_State *L, int env)
{
    move_contents(L, env);
    lua_newtable(L);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, global_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, frozen_len, 1);
    lua_setfield(L, -2, "__len");
    lua_pushliteral(L, "the sandbox's globals");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, env);
    lua_pop(L, 1);
}

/* Gives the frozen table t (its old metatable, or nil, at old) the metatable
 * that reads its contents and refuses writes. */
static void set_frozen_metatable(lua_State *L, int t, int old)
{
    t = lua_absindex(L, t);
    old = lua_absindex(L, old);
    push_contents(L, t);
    int contents = lua_gettop(L);
    lua_newtable(L);
    int meta = lua_gettop(L);
    int source = 0;
    if (lua_istable(L, old)) {
        push_contents(L, old);
        source = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, source)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, meta);
        }
    }
    if (source && lua_getfield(L, source, "__index") != LUA_TNIL) {
        lua_pushvalue(L, contents);
        lua_insert(L, -2);
        lua_pushcclosure(L, frozen_index, 2);
    } else {
        if (source) lua_pop(L, 1);
        lua_pushvalue(L, contents);
    }
    lua_setfield(L, meta, "__index");
    lua_pushcfunction(L, frozen_newindex);
    lua_setfield(L, meta, "__newindex");
    /* No finalizer nor weakness, even one added after setmetatable. */
    lua_pushnil(L);
    lua_setfield(L, meta, "__gc");
    lua_pushnil(L);
    lua_setfield(L, meta, "__mode");
    if (!source || lua_getfield(L, source, "__len") == LUA_TNIL) {
        if (source) lua_pop(L, 1);
        lua_pushvalue(L, contents);
        lua_pushcclosure(L, frozen_len, 1);
    }
    lua_setfield(L, meta, "__len");
    /* getmetatable answers the old metatable (false when there was none),
     * and setmetatable is refused. */
    if (!source || lua_getfield(L, source, "__metatable") == LUA_TNIL) {
        if (source) lua_pop(L, 1);
        if (source) lua_pushvalue(L, old);
        else lua_pushboolean(L, 0);
    }
    lua_setfield(L, meta, "__metatable");
    lua_pushvalue(L, meta);
    lua_setmetatable(L, t);
    lua_settop(L, contents - 1);
}

/* ---- functions that assign variables of the top level ----------------------------------------- */

/* Lua 5.4's binary chunk format (ldump.c), read as far as needed to find
 * SETUPVAL instructions and name their line and variable. */
enum { OP_SETUPVAL = 10 }; /* lopcodes.h: MOVE LOADI LOADF LOADK LOADKX LOADFALSE LFALSESKIP LOADTRUE LOADNIL GETUPVAL SETUPVAL */

typedef struct chunk_reader {
    const unsigned char *p, *end;
    bool bad;
} chunk_reader;

static const unsigned char *take(chunk_reader *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const unsigned char *at = r->p;
    r->p += n;
    return at;
}

static unsigned take_byte(chunk_reader *r)
{
    const unsigned char *b = take(r, 1);
    return b ? *b : 0;
}

static size_t take_size(chunk_reader *r)
{
    size_t x = 0;
    for (int i = 0; i < 10; i++) {
        unsigned b = take_byte(r);
        x = (x << 7) | (b & 0x7f);
        if (b & 0x80) return x;
        if (r->bad) return 0;
    }
    r->bad = true;
    return 0;
}

static const char *take_string(chunk_reader *r, size_t *len)
{
    size_t n = take_size(r);
    *len = n ? n - 1 : 0;
    return n ? (const char *)take(r, n - 1) : NULL;
}

typedef struct upvalue_write {
    bool found;
    int line;
    char name[64];
} upvalue_write;

/* Reads one function; persistent[] says which of its parent's upvalues
 * outlive a call (all of them for the function itself). Records the first
 * SETUPVAL of a persistent upvalue in w. */
static void scan_function(chunk_reader *r, const bool *parent_persistent, int nparent, bool root, upvalue_write *w,
                          int depth)
{
    if (depth > 250) {
        r->bad = true;
        return;
    }
    size_t len;
    take_string(r, &len); /* source */
    int linedefined = (int)take_size(r);
    take_size(r); /* lastlinedefined */
    take(r, 3);   /* numparams, is_vararg, maxstacksize */
    size_t ncode = take_size(r);
    if (ncode > (size_t)(r->end - r->p) / 4) r->bad = true;
    const unsigned char *code = take(r, ncode * 4);
    size_t nk = take_size(r);
    for (size_t i = 0; i < nk && !r->bad; i++) {
        unsigned tt = take_byte(r);
        if (tt == 3 || tt == 19) take(r, 8);                /* integer, float */
        else if (tt == 4 || tt == 20) take_string(r, &len); /* short, long string */
        else if (tt != 0 && tt != 1 && tt != 17) r->bad = true;
    }
    size_t nup = take_size(r);
    if (nup > 255) r->bad = true;
    bool persistent[256] = {false};
    for (size_t i = 0; i < nup && !r->bad; i++) {
        unsigned instack = take_byte(r), idx = take_byte(r);
        take_byte(r); /* kind */
        persistent[i] = root || (!instack && (int)idx < nparent && parent_persistent[idx]);
    }
    size_t nprotos = take_size(r);
    for (size_t i = 0; i < nprotos && !r->bad; i++) scan_function(r, persistent, (int)nup, false, w, depth + 1);
    size_t nline = take_size(r);
    const unsigned char *lineinfo = take(r, nline);
    size_t nabs = take_size(r);
    if (nabs > (size_t)(r->end - r->p)) r->bad = true;
    size_t *abs_pc = r->bad ? NULL : malloc((nabs + 1) * sizeof *abs_pc);
    int *abs_line = r->bad ? NULL : malloc((nabs + 1) * sizeof *abs_line);
    if (!r->bad && (!abs_pc || !abs_line)) r->bad = true;
    for (size_t i = 0; i < nabs && !r->bad; i++) {
        abs_pc[i] = take_size(r);
        abs_line[i] = (int)take_size(r);
    }
    size_t nloc = take_size(r);
    for (size_t i = 0; i < nloc && !r->bad; i++) {
        take_string(r, &len);
        take_size(r);
        take_size(r);
    }
    size_t nnames = take_size(r);
    const char *names[256] = {NULL};
    size_t name_len[256] = {0};
    for (size_t i = 0; i < nnames && !r->bad; i++) {
        const char *s = take_string(r, &len);
        if (i < 256) names[i] = s, name_len[i] = len;
    }
    if (!r->bad && !w->found) {
        int line = linedefined;
        size_t next_abs = 0;
        for (size_t pc = 0; pc < ncode; pc++) {
            if (next_abs < nabs && abs_pc[next_abs] == pc) line = abs_line[next_abs++];
            else if (pc < nline) line += (signed char)lineinfo[pc];
            uint32_t ins = (uint32_t)code[pc * 4] | (uint32_t)code[pc * 4 + 1] << 8 | (uint32_t)code[pc * 4 + 2] << 16 |
                           (uint32_t)code[pc * 4 + 3] << 24;
            unsigned b = (ins >> 16) & 0xff;
            if ((ins & 0x7f) == OP_SETUPVAL && b < nup && persistent[b]) {
                w->found = true;
                w->line = line;
                snprintf(w->name, sizeof w->name, "%.*s", names[b] ? (int)(name_len[b] < 60 ? name_len[b] : 60) : 1,
                         names[b] ? names[b] : "?");
                break;
            }
        }
    }
    free(abs_pc);
    free(abs_line);
}

typedef struct dump_buffer {
    unsigned char *data;
    size_t len, cap;
    bool failed;
} dump_buffer;

static int dump_write(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    dump_buffer *d = ud;
    if (d->len + sz > d->cap) {
        size_t cap = (d->len + sz) * 2;
        unsigned char *n = realloc(d->data, cap);
        if (!n) {
            d->failed = true;
            return 1;
        }
        d->data = n;
        d->cap = cap;
    }
    memcpy(d->data + d->len, p, sz);
    d->len += sz;
    return 0;
}

/* Raises an error when the Lua function on the stack top assigns one of its
 * upvalues, or a nested function does. */
static void check_upvalue_writes(lua_State *L, const char *path)
{
    dump_buffer d = {0};
    lua_dump(L, dump_write, &d, 0);
    if (d.failed) {
        free(d.data);
        luaL_error(L, "not enough memory");
    }
    chunk_reader r = {d.data, d.data + d.len, false};
    static const unsigned char head[] = {0x1b, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1a, '\n', 4, 8, 8};
    const unsigned char *h = take(&r, sizeof head);
    if (!h || memcmp(h, head, sizeof head) != 0) r.bad = true;
    take(&r, 16); /* LUAC_INT, LUAC_NUM */
    take_byte(&r);
    upvalue_write w = {0};
    scan_function(&r, NULL, 0, true, &w, 0);
    size_t size = d.len;
    free(d.data);
    charge(L, 1 + (double)size / 64);
    if (r.bad) luaL_error(L, "%s: cannot read a function of the script back (not Lua 5.4?)", path);
    if (w.found)
        luaL_error(L, "%s:%d: this function assigns '%s', a variable made when the script loaded: it would carry over "
                      "from game to game and into the bots' trial moves; keep game state in carc.state",
                   path, w.line, w.name);
}

/* Visits what the value on the stack top reaches (breadth-first, each value
 * once), collecting the tables to freeze in list; pops the value. */
static void reach(lua_State *L, int seen, int list, const char *path)
{
    lua_newtable(L);
    int queue = lua_gettop(L);
    lua_pushvalue(L, -2);
    lua_rawseti(L, queue, 1);
    lua_Integer head = 1, tail = 1, listed = (lua_Integer)lua_rawlen(L, list);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &KNOWN);
    int known = lua_gettop(L);
    while (head <= tail) {
        lua_rawgeti(L, queue, head);
        lua_pushnil(L);
        lua_rawseti(L, queue, head++);
        int v = lua_gettop(L);
        int t = lua_type(L, v);
        bool visit = t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD;
        if (visit) {
            lua_pushvalue(L, v);
            visit = lua_rawget(L, seen) == LUA_TNIL;
            lua_pop(L, 1);
        }
        if (!visit) {
            lua_pop(L, 1);
            continue;
        }
        charge(L, 1);
        lua_pushvalue(L, v);
        lua_pushboolean(L, 1);
        lua_rawset(L, seen);
/* Only what can hold state is queued: a table of a million numbers costs
 * a scan, not a million queue entries. */
#define ENQUEUE(idx)                                                                                            \
    do {                                                                                                        \
        int type_ = lua_type(L, (idx));                                                                         \
        if (type_ == LUA_TTABLE || type_ == LUA_TFUNCTION || type_ == LUA_TTHREAD) {                            \
            lua_pushvalue(L, (idx));                                                                            \
            lua_rawseti(L, queue, ++tail);                                                                      \
        }                                                                                                       \
    } while (0)
        if (t == LUA_TTHREAD) {
            luaL_error(L, "%s: a coroutine made when the script loaded is kept for later calls: it would carry its "
                          "state from game to game; make coroutines inside the functions that use them", path);
        } else if (t == LUA_TFUNCTION) {
            lua_pushvalue(L, v);
            bool ours = lua_rawget(L, known) != LUA_TNIL;
            lua_pop(L, 1);
            if (lua_iscfunction(L, v)) {
                if (!ours && lua_getupvalue(L, v, 1))
                    luaL_error(L, "%s: an iterator made when the script loaded (string.gmatch, pairs) is kept for "
                                  "later calls: it would carry its position from game to game; make it inside the "
                                  "functions that use it", path);
            } else if (!ours) {
                lua_pushvalue(L, v);
                check_upvalue_writes(L, path);
                lua_pop(L, 1);
                for (int i = 1; lua_getupvalue(L, v, i); i++) {
                    ENQUEUE(-1);
                    lua_pop(L, 1);
                }
            }
        } else if (push_contents(L, v)) { /* already frozen: the globals */
            int c = lua_gettop(L);
            lua_pushnil(L);
            while (lua_next(L, c)) {
                ENQUEUE(-2);
                ENQUEUE(-1);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
            lua_pushnil(L);
            while (lua_next(L, v)) {
                ENQUEUE(-2);
                ENQUEUE(-1);
                lua_pop(L, 1);
            }
            if (lua_getmetatable(L, v)) {
                ENQUEUE(-1);
                lua_pop(L, 1);
            }
            lua_pushvalue(L, v);
            lua_rawseti(L, list, ++listed);
        }
#undef ENQUEUE
        lua_pop(L, 1);
    }
    lua_pop(L, 3); /* known, queue, the value */
}

void lua_determinism_freeze(lua_State *L, int env, const char *path)
{
    env = lua_absindex(L, env);
    freeze_globals(L, env);
    lua_newtable(L);
    int seen = lua_gettop(L);
    lua_newtable(L);
    int list = lua_gettop(L);
    lua_pushvalue(L, env);
    reach(L, seen, list, path);
    /* The registered functions: kept in the registry. */
    lua_pushnil(L);
    while (lua_next(L, LUA_REGISTRYINDEX)) {
        if (lua_type(L, -1) == LUA_TFUNCTION) reach(L, seen, list, path);
        else lua_pop(L, 1);
    }
    /* Every table's contents moved first, then the metatables made: a
     * frozen table's new metatable copies its old one's contents. */
    lua_Integer n = (lua_Integer)lua_rawlen(L, list);
    lua_createtable(L, (int)(n < 1 << 26 ? n : 0), 0);
    int olds = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        if (!lua_getmetatable(L, -1)) lua_pushboolean(L, 0);
        lua_rawseti(L, olds, i);
        move_contents(L, -1);
        charge(L, 1 + (double)lua_rawlen(L, -1) / 8);
        lua_pop(L, 2);
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        lua_rawgeti(L, olds, i);
        set_frozen_metatable(L, -2, -1);
        lua_pop(L, 2);
    }
    lua_pop(L, 3);
}

void lua_determinism_lazy_table(lua_State *L, int mt, lua_CFunction fill)
{
    mt = lua_absindex(L, mt);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LAZY);
    lua_pushvalue(L, mt);
    lua_pushcfunction(L, fill);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}
