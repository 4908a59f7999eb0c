/* lua_carc_state.c - carc.state: a script's game state, a small key-value
 * store inside the game (carc_api.state), so games clone, copy and replay
 * with it; keys of 1 to 23 characters or integers, values numbers, booleans
 * and strings of up to 31 bytes. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "lua_host_internal.h"

static kv_store *kv(lua_State *L)
{
    CTX(L);
    if (!ctx->g) luaL_error(L, "carc.state belongs to a game: use it in handlers, not at load time");
    return API->state(ctx);
}

void script_state_key(lua_State *L, int idx, char *out)
{
    if (lua_type(L, idx) == LUA_TNUMBER && lua_isinteger(L, idx)) {
        snprintf(out, 24, "#%lld", (long long)lua_tointeger(L, idx));
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len == 0 || len > 23) luaL_error(L, "carc.state keys are 1 to 23 characters");
        if (s[0] == '#') luaL_error(L, "carc.state keys do not start with '#' (integer keys are stored that way)");
        memcpy(out, s, len + 1);
    } else {
        luaL_error(L, "carc.state keys are strings or integers");
    }
}

/* The store keeps its entries in use first (a deleted one takes the last
 * one's place), each with its key's hash: a lookup compares the hashes of
 * the few entries a script keeps. The same operations give the same
 * layout, so the state stays deterministic. */
static uint32_t kv_hash_n(const char *key, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 16777619u;
    return h;
}

uint32_t script_state_hash(const char *key) { return kv_hash_n(key, strlen(key)); }

/* The entry holding the key of len bytes (no NUL among them), or -1. */
static int kv_find_n(const kv_store *s, const char *key, size_t len, uint32_t hash)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->e[i].hash == hash && memcmp(s->e[i].key, key, len) == 0 && s->e[i].key[len] == 0) return (int)i;
    return -1;
}

int script_state_find(const kv_store *s, const char *key, uint32_t hash) { return kv_find_n(s, key, strlen(key), hash); }

/* The bytes of a store in use (the kernel's copies stop there). */
size_t script_state_used(const unsigned char *block)
{
    const kv_store *s = (const kv_store *)(const void *)block;
    uint32_t n = s->n < LUA_STATE_ENTRIES ? s->n : LUA_STATE_ENTRIES;
    return offsetof(kv_store, e) + n * sizeof(kv_entry);
}

int script_state_index(lua_State *L)
{
    kv_store *s = kv(L);
    size_t len = 0;
    const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    int i;
    if (name && len >= 1 && len <= 23 && name[0] != '#' && !memchr(name, 0, len)) {
        i = kv_find_n(s, name, len, kv_hash_n(name, len)); /* a read compares the key where it is */
    } else {
        char key[24] = {0};
        script_state_key(L, 2, key); /* integer keys, and the errors */
        i = script_state_find(s, key, script_state_hash(key));
    }
    if (i < 0) {
        lua_pushnil(L);
        return 1;
    }
    const kv_entry *e = &s->e[i];
    if (e->type == LUA_TBOOLEAN) lua_pushboolean(L, (int)e->v.i);
    else if (e->type == LUA_TSTRING) lua_pushstring(L, e->v.s);
    else if (e->is_int) lua_pushinteger(L, e->v.i);
    else lua_pushnumber(L, e->v.d);
    return 1;
}

int script_state_newindex(lua_State *L)
{
    kv_store *s = kv(L);
    char key[24] = {0}; /* whole buffer defined: the state is compared and copied byte for byte */
    script_state_key(L, 2, key);
    int t = lua_type(L, 3);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TNUMBER && t != LUA_TSTRING)
        return luaL_error(L, "carc.state holds numbers, booleans and strings (not %s)", lua_typename(L, t));
    uint32_t hash = script_state_hash(key);
    int slot = script_state_find(s, key, hash);
    if (t == LUA_TNIL) {
        if (slot >= 0) {
            uint32_t last = s->n - 1;
            if ((uint32_t)slot != last) s->e[slot] = s->e[last];
            memset(&s->e[last], 0, sizeof s->e[last]);
            s->n = last;
        }
        return 0;
    }
    if (slot < 0) {
        if (s->n >= LUA_STATE_ENTRIES) return luaL_error(L, "carc.state is full (%d entries)", LUA_STATE_ENTRIES);
        slot = (int)s->n;
    }
    kv_entry e = {0};
    memcpy(e.key, key, sizeof e.key);
    e.hash = hash;
    e.type = (uint8_t)t;
    if (t == LUA_TBOOLEAN) {
        e.v.i = lua_toboolean(L, 3);
    } else if (t == LUA_TSTRING) {
        size_t len;
        const char *v = lua_tolstring(L, 3, &len);
        if (len > 31) return luaL_error(L, "carc.state strings are at most 31 bytes");
        memcpy(e.v.s, v, len + 1);
    } else if (lua_isinteger(L, 3)) {
        e.is_int = 1;
        e.v.i = lua_tointeger(L, 3);
    } else {
        e.v.d = lua_tonumber(L, 3);
    }
    s->e[slot] = e;
    if ((uint32_t)slot == s->n) s->n++;
    return 0;
}
