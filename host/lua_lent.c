/* lua_lent.c - the tables carc gives a script's call: options and awards,
 * and the event, lent from call to call (one set per nesting depth, kept in
 * the registry, refilled for the next call: a call builds no table) and
 * guarded so the script cannot keep its own fields there; the event table
 * is filled as the handler reads it, and what the handler changed is read
 * back. */
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "lua_host_internal.h"

/* ---- options and awards as tables: {code=, tile=, seg=, a=, b=, c=} ---- */

/* Pushes the table lent at *ref (made on first use with the metatable the
 * registry holds under meta, then kept in the registry), or a fresh one past
 * the reuse depth (ref NULL). Setting fields of a table that has them
 * already allocates nothing. */
static void push_lent(lua_State *L, int *ref, int fields, const char *meta)
{
    if (ref && *ref != LUA_NOREF && *ref != LUA_REFNIL) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, *ref);
        if (lua_istable(L, -1)) return;
        lua_pop(L, 1);
    }
    lua_host *h = host_of(L);
    /* A table kept is made by the first call that needs it: not that call's work. */
    bool was = h->uncharged;
    h->uncharged = ref != NULL;
    lua_createtable(L, 0, fields);
    if (ref) {
        /* Kept from call to call: only carc's own fields can be set. */
        lua_getfield(L, LUA_REGISTRYINDEX, meta);
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    h->uncharged = was;
}

/* __newindex of the tables lent from call to call: a field of the script's
 * own there would be seen by its next call, in another game or in a bot's
 * trial move. carc's fields (nil for this call) can be set. */
int script_lent_newindex(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int i = 0; k && i < NKEYS; i++) {
        if (strcmp(k, key_names[i]) == 0) {
            lua_settop(L, 3);
            lua_rawset(L, 1);
            return 0;
        }
    }
    luaL_where(L, 1);
    lua_pushfstring(L, "the table carc gives this call has no field '%s' (it is given again to later calls): "
                       "keep game state in carc.state",
                    k ? k : luaL_typename(L, 2));
    lua_concat(L, 2);
    return lua_error(L);
}

/* The lent tables of the call running now, NULL past the reuse depth. */
#define LENT(h, field) ((h)->depth >= 1 && (h)->depth <= LUA_HOST_LENT_DEPTH ? &(h)->lent[(h)->depth - 1].field : NULL)

/* Fills the option table on the stack top. */
static void fill_option(lua_State *L, const carc_option *o)
{
    set_int(L, K_code, o->code);
    set_int(L, K_tile, o->tile);
    set_int(L, K_seg, o->seg);
    set_int(L, K_a, o->arg[0]);
    set_int(L, K_b, o->arg[1]);
    set_int(L, K_c, o->arg[2]);
    lua_pushboolean(L, o->owner == 0);
    set_top(L, K_kernel);
}

/* A fresh option table: the script may keep it (offered_at). */
void script_push_option(lua_State *L, const carc_option *o)
{
    lua_createtable(L, 0, 7);
    fill_option(L, o);
}

/* The option table lent for this call (format, apply, ev.option). */
void script_lend_option(lua_State *L, const carc_option *o)
{
    push_lent(L, LENT(host_of(L), option), 8, "carc.lent");
    fill_option(L, o);
    lua_pushnil(L); /* set again by a handler's event: not left from an earlier call */
    set_top(L, K_mine);
}

/* t[key] as an int, def when absent; raw read: a value carc reads back does
 * not run script code. */
static int field_int(lua_State *L, int idx, int key, int def)
{
    idx = lua_absindex(L, idx);
    push_key(L, key);
    if (lua_istable(L, idx)) lua_rawget(L, idx);
    else lua_gettable(L, idx);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum && !lua_isnil(L, -1)) luaL_error(L, "field '%s' must be an integer", key_names[key]);
    if (isnum && (v < INT_MIN || v > INT_MAX)) luaL_error(L, "field '%s' is out of range", key_names[key]);
    lua_pop(L, 1);
    return isnum ? (int)v : def;
}

carc_option script_read_option(lua_State *L, int idx)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    idx = lua_absindex(L, idx);
    /* An event table lent to a handler is filled as it is read: whole
     * before the raw reads (carc.offer(ev) carries the event's tile). */
    if (lua_getmetatable(L, idx)) {
        lua_getfield(L, LUA_REGISTRYINDEX, "carc.lent.event");
        bool lazy = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (lazy) {
            lua_pushcfunction(L, script_event_fill);
            lua_pushvalue(L, idx);
            lua_call(L, 1, 0);
        }
    }
    carc_option o;
    memset(&o, 0, sizeof o);
    o.code = (uint16_t)field_int(L, idx, K_code, 0);
    o.tile = field_int(L, idx, K_tile, -1);
    o.seg = field_int(L, idx, K_seg, -1);
    o.arg[0] = field_int(L, idx, K_a, 0);
    o.arg[1] = field_int(L, idx, K_b, 0);
    o.arg[2] = field_int(L, idx, K_c, 0);
    return o;
}

static void fill_award(lua_State *L, const carc_award *a)
{
    set_int(L, K_player, a->player);
    set_int(L, K_points, a->points);
    set_int(L, K_reason, a->reason);
    set_int(L, K_feature, a->feature);
    set_int(L, K_step, a->step);
    set_int(L, K_flags, a->flags);
}

void script_push_award(lua_State *L, const carc_award *a)
{
    lua_createtable(L, 0, 6);
    fill_award(L, a);
}

/* ---- the event table: filled as it is read ---- */

/* The event's fields, in the order of KEYS. */
#define EVENT_KEY(k) ((k) >= K_type && (k) <= K_option)

/* Pushes field k of the event; award and option: the tables lent at depth
 * d, filled now (new ones when d is -1, past the reuse depth). */
static void push_event_field(lua_State *L, lua_host *h, const carc_event *ev, int owner, int d, int k)
{
    switch (k) {
    case K_type:
        if (ev->type >= 0 && ev->type < CARC_EV_COUNT) lua_rawgeti(L, LUA_REGISTRYINDEX, h->type_ref[ev->type]);
        else lua_pushstring(L, carc_event_name(ev->type));
        break;
    case K_player: lua_pushinteger(L, ev->player); break;
    case K_tile: lua_pushinteger(L, ev->tile); break;
    case K_feature: lua_pushinteger(L, ev->feature); break;
    case K_figure: lua_pushinteger(L, ev->figure); break;
    case K_value: lua_pushinteger(L, ev->value); break;
    case K_flags: lua_pushinteger(L, ev->flags); break;
    case K_award:
        if (ev->award) {
            push_lent(L, d >= 0 ? &h->lent[d].award : NULL, 6, "carc.lent");
            fill_award(L, ev->award);
        } else {
            lua_pushnil(L);
        }
        break;
    case K_option:
        if (ev->option) {
            push_lent(L, d >= 0 ? &h->lent[d].option : NULL, 8, "carc.lent");
            fill_option(L, ev->option);
            lua_pushboolean(L, ev->option->owner == owner);
            set_top(L, K_mine);
        } else {
            lua_pushnil(L);
        }
        break;
    default: lua_pushnil(L);
    }
}

/* The depth whose event table is at idx, or -1 (a call that has ended). */
static int lent_event_depth(lua_State *L, lua_host *h, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE) return -1;
    const void *t = lua_topointer(L, idx); /* the registry keeps each lent table alive: its address is its own */
    for (int d = (h->depth < LUA_HOST_LENT_DEPTH ? h->depth : LUA_HOST_LENT_DEPTH) - 1; d >= 0; d--)
        if (h->lent[d].src && h->lent[d].ev_table == t) return d;
    return -1;
}

/* The event key named by the string at idx, or -1. */
static int event_key(lua_State *L, int idx)
{
    const char *k = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
    const lua_host *h = host_of(L);
    for (int i = K_type; k && i <= K_option; i++)
        if (k == h->key_text[i]) return i; /* interned: the same text is the same string */
    return -1;
}

/* __index of a lent event table: a field read first in this call is put in
 * the table (then read like any field); one set to nil stays nil. */
int script_event_index(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1), k = event_key(L, 2);
    if (d < 0 || k < 0 || (h->lent[d].shown >> k & 1u)) {
        lua_pushnil(L);
        return 1;
    }
    h->lent[d].shown |= 1u << k;
    push_event_field(L, h, h->lent[d].src, h->lent[d].owner, d, k);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    return 1;
}

/* __newindex of a lent event table: carc's fields only (script_lent_newindex). */
int script_event_newindex(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1), k = event_key(L, 2);
    if (d >= 0 && k >= 0) h->lent[d].shown |= 1u << k;
    return script_lent_newindex(L);
}

/* Fills every field not yet in the table (raw access and iteration see the
 * whole event). */
int script_event_fill(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1);
    for (int k = K_type; d >= 0 && k <= K_option; k++) {
        if (h->lent[d].shown >> k & 1u) continue;
        h->lent[d].shown |= 1u << k;
        push_key(L, k);
        push_event_field(L, h, h->lent[d].src, h->lent[d].owner, d, k);
        lua_rawset(L, 1);
    }
    return 0;
}

/* Pushes the event table for this call: past the reuse depth a new one,
 * filled; else the table lent at this depth, emptied of the fields the last
 * call there saw, filled as the handler reads it. */
void script_push_event(lua_State *L, lua_host *h, int d, const carc_event *ev, int owner)
{
    if (d < 0 || d >= LUA_HOST_LENT_DEPTH) {
        lua_createtable(L, 0, 10);
        for (int k = K_type; k <= K_option; k++) {
            push_event_field(L, h, ev, owner, -1, k);
            set_top(L, k);
        }
        return;
    }
    if (h->lent[d].ev == LUA_NOREF) {
        push_lent(L, &h->lent[d].ev, 10, "carc.lent.event");
        h->lent[d].ev_table = lua_topointer(L, -1);
    } else {
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->lent[d].ev);
        /* Only a field that holds a value is set to nil: that changes its
         * slot in place (allocates nothing, cannot fail). */
        for (int k = K_type; h->lent[d].shown && k <= K_option; k++) {
            if (!(h->lent[d].shown >> k & 1u)) continue;
            push_key(L, k);
            if (lua_rawget(L, -2) == LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
            push_key(L, k);
            lua_pushnil(L);
            lua_rawset(L, -3);
        }
    }
    h->lent[d].src = ev;
    h->lent[d].owner = owner;
    h->lent[d].shown = 0;
}

/* t[key] of the table at idx (raw) into *out, def when nil; false when it
 * is not an integer in range, with why in err. Raises no error. */
static bool read_back_int(lua_State *L, int idx, int key, int def, int *out, char *err, size_t errn)
{
    push_key(L, key);
    lua_rawget(L, idx < 0 ? idx - 1 : idx);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    bool nil = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!isnum && !nil) snprintf(err, errn, "field '%s' must be an integer", key_names[key]);
    else if (isnum && (v < INT_MIN || v > INT_MAX)) snprintf(err, errn, "field '%s' is out of range", key_names[key]);
    else {
        *out = isnum ? (int)v : def;
        return true;
    }
    return false;
}

/* What the handler changed, from the event table at idx: ev.value and
 * ev.award's points and reason, raw reads of the fields it touched (read
 * or wrote; one it did not is not in a lent table, so it keeps its value).
 * Written only once all are read: a bad field changes nothing. */
bool script_read_back_event(lua_State *L, int idx, uint32_t touched, carc_event *ev, char *err, size_t errn)
{
    if (!(touched & (1u << K_value | 1u << K_award))) return true; /* most handlers: nothing to read */
    idx = lua_absindex(L, idx);
    int value = ev->value, points = ev->award ? ev->award->points : 0, reason = ev->award ? ev->award->reason : 0;
    if ((touched >> K_value & 1u) && !read_back_int(L, idx, K_value, ev->value, &value, err, errn)) return false;
    if (ev->award && (touched >> K_award & 1u)) {
        push_key(L, K_award);
        bool ok = true;
        if (lua_rawget(L, idx) == LUA_TTABLE)
            ok = read_back_int(L, -1, K_points, points, &points, err, errn) &&
                 read_back_int(L, -1, K_reason, reason, &reason, err, errn); /* relabel */
        lua_pop(L, 1);
        if (!ok) return false;
    }
    ev->value = value;
    if (ev->award) {
        ev->award->points = points;
        ev->award->reason = reason;
    }
    return true;
}
