/* lua_sandbox.c - what a script sees: the safe parts of base, coroutine,
 * table, string, math and utf8 (no io, os, package, debug, require, dofile,
 * binary chunks), coroutines under the budget, math.random from the game's
 * generator, print to the standard error under the output caps, the carc
 * table; the library functions made deterministic (lua_determinism.c) and
 * charged (lua_guard.c). script_sandbox_setup builds it in a fresh state. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <string.h>

#include "lua_determinism.h"
#include "lua_guard.h"
#include "lua_host_internal.h"
#include "term_text.h"

/* math.random from the game's generator, with Lua's own argument rules. */
static int l_random(lua_State *L)
{
    CTX(L);
    if (!ctx->g) return luaL_error(L, "math.random needs a game (not at load time)");
    lua_Integer lo = 1, hi;
    switch (lua_gettop(L)) {
    case 0: {
        uint32_t a = API->random(ctx, 1u << 26), b = API->random(ctx, 1u << 27);
        lua_pushnumber(L, (a * 134217728.0 + b) / 9007199254740992.0);
        return 1;
    }
    case 1: hi = luaL_checkinteger(L, 1); break;
    default: lo = luaL_checkinteger(L, 1); hi = luaL_checkinteger(L, 2); break;
    }
    /* The width in unsigned arithmetic: hi - lo overflows for the widest intervals. */
    lua_Unsigned width = (lua_Unsigned)hi - (lua_Unsigned)lo;
    luaL_argcheck(L, lo <= hi && width < 0xffffffffu, 1, "interval is empty or too large");
    lua_pushinteger(L, lo + (lua_Integer)API->random(ctx, (uint32_t)(width + 1)));
    return 1;
}

static int l_randomseed(lua_State *L)
{
    return luaL_error(L, "math.randomseed is not available: the game's seed decides every draw");
}

/* print: to the standard error, control characters escaped, charged
 * like the strings it writes, and capped per call and per game. */
static int l_print(lua_State *L)
{
    lua_host *h = host_of(L);
    kv_store *s = h->cur && h->cur->g ? API->state(h->cur) : NULL;
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addchar(&b, '[');
    luaL_addstring(&b, h->ps->name);
    luaL_addchar(&b, ']');
    for (int i = 1; i <= n; i++) {
        size_t len;
        luaL_addchar(&b, ' ');
        lua_determinism_tostring(L, i, &len); /* __tostring runs under the call's limits */
        script_charge(L, 1 + (double)len / 16);
        if (h->printed + luaL_bufflen(&b) + len > LUA_HOST_PRINT_CALL ||
            (s && s->printed + luaL_bufflen(&b) + len > LUA_HOST_PRINT_GAME))
            script_stop(L, h, STOP_OUTPUT);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t len;
    const char *line = lua_tolstring(L, -1, &len);
    h->printed += len;
    if (s) s->printed += len;
    term_write(stderr, line, len);
    return 0;
}


/* Copies the named fields of a library into a fresh table in env. */
static void copy_lib(lua_State *L, int env, const char *lib, const char *const *names)
{
    lua_getglobal(L, lib);
    int src = lua_gettop(L);
    lua_newtable(L);
    for (const char *const *n = names; *n; n++) {
        lua_getfield(L, src, *n);
        lua_setfield(L, -2, *n);
    }
    lua_setfield(L, env, lib);
    lua_pop(L, 1);
}

static const char *const base_safe[] = {"assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
                                        "tostring", "type", "xpcall", "rawequal", "rawget", "rawset", "rawlen",
                                        "setmetatable", "getmetatable", "_VERSION", NULL};
static const char *const co_safe[] = {"isyieldable", "resume", "running", "status", "yield", "close", NULL};
static const char *const table_safe[] = {"concat", "insert", "move", "pack", "remove", "sort", "unpack", NULL};
static const char *const string_safe[] = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower",
                                          "match", "rep", "reverse", "sub", "upper", "pack", "packsize", "unpack", NULL};
static const char *const math_safe[] = {"abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max",
                                        "maxinteger", "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt",
                                        "tan", "tointeger", "type", "ult", NULL};
static const char *const utf8_safe[] = {"char", "charpattern", "codes", "codepoint", "len", "offset", NULL};

/* t[name] = fn with the old t[name] as its upvalue. */
static void wrap_field(lua_State *L, int t, const char *name, lua_CFunction fn)
{
    t = lua_absindex(L, t);
    lua_getfield(L, t, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, t, name);
}

/* A metatable that the script cannot read or replace (__metatable is its
 * name), with __index (if given) and __newindex. */
static void push_metatable(lua_State *L, lua_CFunction index, lua_CFunction newindex, const char *name)
{
    lua_createtable(L, 0, 3);
    if (index) {
        lua_pushcfunction(L, index);
        lua_setfield(L, -2, "__index");
    }
    lua_pushcfunction(L, newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");
}

/* Builds the sandbox environment on the stack top. */
static void build_env(lua_State *L)
{
    lua_newtable(L);
    int env = lua_gettop(L);
    lua_pushglobaltable(L);
    for (const char *const *n = base_safe; *n; n++) {
        lua_getfield(L, -1, *n);
        lua_setfield(L, env, *n);
    }
    lua_pop(L, 1);
    copy_lib(L, env, "coroutine", co_safe);
    copy_lib(L, env, "table", table_safe);
    copy_lib(L, env, "string", string_safe);
    copy_lib(L, env, "math", math_safe);
    copy_lib(L, env, "utf8", utf8_safe);
    lua_getfield(L, env, "coroutine");
    lua_pushcfunction(L, script_coroutine_create);
    lua_setfield(L, -2, "create");
    wrap_field(L, -1, "resume", script_coroutine_resume);
    wrap_field(L, -1, "close", script_coroutine_close);
    lua_pop(L, 1);
    wrap_field(L, env, "xpcall", script_xpcall);
    lua_getfield(L, env, "math");
    lua_pushcfunction(L, l_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, l_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    lua_pushcfunction(L, l_print);
    lua_setfield(L, env, "print");
    lua_determinism_install(L, env, script_charge);
    lua_guard_install(L, env, script_charge);
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    script_push_carc_table(L);
    lua_setfield(L, env, "carc");
}

/* coroutine.wrap on top of the hooked coroutine.create. */
static const char wrap_src[] =
    "local create, resume = coroutine.create, coroutine.resume\n"
    "coroutine.wrap = function(f)\n"
    "  local co = create(f)\n"
    "  return function(...)\n"
    "    local r = table.pack(resume(co, ...))\n"
    "    if r[1] then return table.unpack(r, 2, r.n) end\n"
    "    error(r[2], 2)\n"
    "  end\n"
    "end\n";

int script_sandbox_setup(lua_State *L)
{
    /* Only the safe libraries are opened at all. */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    lua_settop(L, 0);
    build_env(L);
    if (luaL_loadbufferx(L, wrap_src, sizeof wrap_src - 1, "=wrap", "t") == LUA_OK) {
        lua_pushvalue(L, -2);
        lua_setupvalue(L, -2, 1);
        lua_call(L, 0, 0);
    }
    /* Strings keep their metatable (s:upper()), pointing at the sandbox's copy. */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, -3, "string");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 2);
    lua_determinism_mark_known(L, -1);
    push_metatable(L, NULL, script_lent_newindex, "carc's table");
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.lent");
    push_metatable(L, script_event_index, script_event_newindex, "carc's table");
    lua_determinism_lazy_table(L, -1, script_event_fill);
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.lent.event");
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.env");
    lua_host *h = host_of(L);
    for (int k = 0; k < NKEYS; k++) {
        h->key_text[k] = lua_pushstring(L, key_names[k]);
        h->key_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int t = 0; t < CARC_EV_COUNT; t++) {
        lua_pushstring(L, carc_event_name(t));
        h->type_ref[t] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}
