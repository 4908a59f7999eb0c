/* lua_carc_table.c - the carc table: the API for scripts, each function a
 * carc_api call with its arguments checked (docs/lua-guide.md). */
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "lua_host_internal.h"

/* The function at idx, and the carc.state key at wait_idx it waits for
 * (none or nil: it waits for nothing). */
static lua_fn *new_fn(lua_State *L, int idx, int wait_idx)
{
    luaL_checktype(L, idx, LUA_TFUNCTION);
    char wait[24] = "";
    if (!lua_isnoneornil(L, wait_idx)) script_state_key(L, wait_idx, wait); /* a bad key is refused as carc.state refuses it */
    lua_host *h = host_of(L);
    lua_fn *fn = lua_newuserdatauv(L, sizeof *fn, 0); /* owned by the Lua state */
    fn->h = h;
    memcpy(fn->wait_key, wait, sizeof wait);
    fn->wait_hash = wait[0] ? script_state_hash(wait) : 0;
    lua_pushvalue(L, idx);
    fn->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_ref(L, LUA_REGISTRYINDEX); /* keep the userdata alive with the state */
    return fn;
}

static int l_on(lua_State *L)
{
    CTX(L);
    const char *name = luaL_checkstring(L, 1);
    int ev = carc_event_by_name(name);
    if (ev < 0) return luaL_error(L, "unknown event '%s'", name);
    lua_fn *fn = new_fn(L, 2, 3);
    return script_checked(L, ctx, API->on(ctx, ev, script_handler, fn)), 0;
}

static int l_add_phase(lua_State *L)
{
    CTX(L);
    const char *name = luaL_checkstring(L, 1), *where = luaL_checkstring(L, 2), *anchor = luaL_checkstring(L, 3);
    lua_fn *fn = new_fn(L, 4, 5);
    return script_checked(L, ctx, API->add_phase(ctx, name, where, anchor, script_phase, fn)), 0;
}

/* carc.phase_needs_tile_mark(name, tile_mark): carc_api.phase_needs_tile_mark. */
static int l_phase_needs_tile_mark(lua_State *L)
{
    CTX(L);
    const char *name = luaL_checkstring(L, 1);
    lua_Integer mark = luaL_checkinteger(L, 2);
    int m = mark < 0 || mark > INT_MAX ? -1 : (int)mark;
    return script_checked(L, ctx, API->phase_needs_tile_mark(ctx, name, m)), 0;
}

static int completion_of(lua_State *L, const char *s)
{
    if (strcmp(s, "ports") == 0) return CARC_COMPLETE_PORTS;
    if (strcmp(s, "ring") == 0) return CARC_COMPLETE_RING;
    if (strcmp(s, "cross") == 0) return CARC_COMPLETE_CROSS;
    if (strcmp(s, "never") == 0) return CARC_COMPLETE_NEVER;
    return luaL_error(L, "completion is 'ports', 'ring', 'cross' or 'never'");
}

static bool opt_flag(lua_State *L, int idx, const char *name)
{
    if (!lua_istable(L, idx)) return false;
    lua_getfield(L, idx, name);
    bool b = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return b;
}

static int l_define_kind(lua_State *L)
{
    CTX(L);
    int flags = (opt_flag(L, 3, "deployable") ? CARC_KIND_DEPLOYABLE : 0) | (opt_flag(L, 3, "line") ? CARC_KIND_LINE : 0) |
                (opt_flag(L, 3, "kernel_scored") ? CARC_KIND_KERNEL_SCORED : 0);
    lua_pushinteger(L, script_checked(L, ctx, API->define_kind(ctx, luaL_checkstring(L, 1), completion_of(L, luaL_checkstring(L, 2)), flags)));
    return 1;
}

/* carc.define_figure(name, per_player [, {follower=, deployable=, strength=,
 * stands_on={"road", ...} or "road city", boxed_when_scored=,
 * boxed_when_removed=, strength_zero=}]) */
static int l_define_figure(lua_State *L)
{
    CTX(L);
    int flags = (opt_flag(L, 3, "follower") ? CARC_FIGURE_FOLLOWER : 0) |
                (opt_flag(L, 3, "boxed_when_scored") ? CARC_FIGURE_BOXED_WHEN_SCORED : 0) |
                (opt_flag(L, 3, "deployable") ? CARC_FIGURE_DEPLOYABLE : 0) |
                (opt_flag(L, 3, "boxed_when_removed") ? CARC_FIGURE_BOXED_WHEN_REMOVED : 0) |
                (opt_flag(L, 3, "strength_zero") ? CARC_FIGURE_STRENGTH_ZERO : 0);
    carc_figure_kind_def def = {luaL_checkstring(L, 1), (int)luaL_checkinteger(L, 2), flags, 1, NULL};
    char kinds[256] = "";
    if (lua_istable(L, 3)) {
        lua_getfield(L, 3, "strength");
        if (!lua_isnil(L, -1)) {
            int isnum;
            lua_Integer v = lua_tointegerx(L, -1, &isnum);
            if (!isnum) return luaL_error(L, "define_figure: strength must be an integer");
            def.strength = v < 0 || v > 99 ? -1 : (int)v;
        }
        lua_pop(L, 1);
        lua_getfield(L, 3, "stands_on");
        if (lua_type(L, -1) == LUA_TSTRING) {
            snprintf(kinds, sizeof kinds, "%s", lua_tostring(L, -1));
        } else if (lua_istable(L, -1)) {
            lua_Integer n = luaL_len(L, -1);
            for (lua_Integer i = 1; i <= n && i <= 16; i++) {
                lua_geti(L, -1, i);
                const char *k = lua_tostring(L, -1);
                if (!k) return luaL_error(L, "define_figure: stands_on lists feature kind names");
                size_t used = strlen(kinds);
                snprintf(kinds + used, sizeof kinds - used, "%s%s", used ? " " : "", k);
                lua_pop(L, 1);
            }
        } else if (!lua_isnil(L, -1)) {
            return luaL_error(L, "define_figure: stands_on is a list of feature kind names");
        }
        lua_pop(L, 1);
        def.stands_on = kinds;
    }
    lua_pushinteger(L, script_checked(L, ctx, API->define_figure_kind(ctx, &def)));
    return 1;
}

#define NAME_FN(lname, call)                                                   \
    static int lname(lua_State *L)                                             \
    {                                                                          \
        CTX(L);                                                                \
        lua_pushinteger(L, script_checked(L, ctx, API->call(ctx, luaL_checkstring(L, 1)))); \
        return 1;                                                              \
    }
NAME_FN(l_define_mark, define_mark)
NAME_FN(l_define_tile_mark, define_tile_mark)
NAME_FN(l_define_reason, define_reason)

#define LOOKUP_FN(lname, call)                                                 \
    static int lname(lua_State *L)                                             \
    {                                                                          \
        CTX(L);                                                                \
        lua_pushinteger(L, API->call(ctx, luaL_checkstring(L, 1)));            \
        return 1;                                                              \
    }
LOOKUP_FN(l_kind, kind)
LOOKUP_FN(l_mark, mark)
LOOKUP_FN(l_tile_mark, tile_mark)
LOOKUP_FN(l_figure_kind, figure_kind)
LOOKUP_FN(l_reason, reason)

/* carc.option(key): in a game, the answer kept for the key's text if it is
 * there (api_option compares the key with every option of the variant,
 * about 1,200 instructions in all-expansions). */
static int l_option(lua_State *L)
{
    CTX(L);
    size_t len;
    const char *key = luaL_checklstring(L, 1, &len);
    option_memo *m = &host_of(L)->options[((uintptr_t)key >> 4) % OPTION_MEMO];
    if (ctx->g && len > 0 && m->len == len && memcmp(m->text, key, len) == 0) {
        lua_pushinteger(L, m->value);
        return 1;
    }
    int value = API->option(ctx, key);
    if (ctx->g && len > 0 && len < sizeof m->text) {
        m->len = len;
        memcpy(m->text, key, len);
        m->value = value;
    }
    lua_pushinteger(L, value);
    return 1;
}

static int l_option_int(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->define_option_int(ctx, luaL_checkstring(L, 1), (int)luaL_checkinteger(L, 2),
                                                                (int)luaL_checkinteger(L, 3), (int)luaL_checkinteger(L, 4),
                                                                luaL_optstring(L, 5, ""))));
    return 1;
}

static int l_option_enum(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->define_option_enum(ctx, luaL_checkstring(L, 1), luaL_checkstring(L, 2),
                                                                 luaL_optstring(L, 3, ""))));
    return 1;
}

static int set_ref(lua_State *L, int *ref)
{
    lua_host *h = host_of(L);
    if (h->closed) return luaL_error(L, "registration is only allowed while the script loads");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, 1);
    *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}
static int l_format(lua_State *L) { return set_ref(L, &host_of(L)->format_ref); }
static int l_apply(lua_State *L) { return set_ref(L, &host_of(L)->apply_ref); }
static int l_game_init(lua_State *L) { return set_ref(L, &host_of(L)->init_ref); }

/* Game queries: integers in, integers out. */
#define INT0(lname, call) \
    static int lname(lua_State *L) { CTX(L); lua_pushinteger(L, API->call(ctx)); return 1; }
#define INT1(lname, call) \
    static int lname(lua_State *L) { CTX(L); lua_pushinteger(L, API->call(ctx, (int)luaL_checkinteger(L, 1))); return 1; }
#define INT2(lname, call) \
    static int lname(lua_State *L) { CTX(L); lua_pushinteger(L, API->call(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2))); return 1; }
#define INT3(lname, call) \
    static int lname(lua_State *L) { CTX(L); lua_pushinteger(L, API->call(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3))); return 1; }

INT0(l_players, players)
INT0(l_active_player, active_player)
INT0(l_turn, turn)
INT1(l_score, score)
INT2(l_supply, supply)
INT0(l_tiles, tiles)
INT2(l_tile_at, tile_at)
INT1(l_tile_type, tile_type)

static int l_type_has_mark(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->type_has_mark(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2)) == 1);
    return 1;
}

INT0(l_placed_tile, placed_tile)
INT0(l_drawn_type, drawn_type)
INT0(l_pile_left, pile_left)
INT0(l_return_set_aside, return_set_aside)
INT1(l_segments, segments)
INT2(l_segment_kind, segment_kind)
INT2(l_segment_at_port, segment_at_port)
INT3(l_segment_marks, segment_marks)
INT2(l_feature, feature)
INT1(l_feature_kind, feature_kind)
INT1(l_feature_tiles, feature_tiles)
INT2(l_feature_marks, feature_marks)
INT2(l_feature_followers, feature_followers)
INT1(l_feature_open, feature_open)
INT0(l_figures, figures)
INT0(l_offered, offered)
INT0(l_forbid_pass, forbid_pass)
INT0(l_step_begin, step_begin)
INT0(l_step_end, step_end)
INT0(l_batch_begin, batch_begin)
INT0(l_batch_count, batch_count)

static int l_feature_complete(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->feature_complete(ctx, (int)luaL_checkinteger(L, 1)) == 1);
    return 1;
}

static int l_feature_scored(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->feature_scored(ctx, (int)luaL_checkinteger(L, 1)) == 1);
    return 1;
}

static int l_player_name(lua_State *L)
{
    CTX(L);
    lua_pushstring(L, API->player_name(ctx, (int)luaL_checkinteger(L, 1)));
    return 1;
}

static int l_fail(lua_State *L)
{
    return luaL_error(L, "%s", luaL_checkstring(L, 1));
}

static int l_tile_pos(lua_State *L)
{
    CTX(L);
    int x, y, rot = API->tile_pos(ctx, (int)luaL_checkinteger(L, 1), &x, &y);
    if (rot < 0) return 0;
    lua_pushinteger(L, x);
    lua_pushinteger(L, y);
    lua_pushinteger(L, rot);
    return 3;
}

static int l_segment_name(lua_State *L)
{
    CTX(L);
    char buf[64];
    if (API->segment_name(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), buf, sizeof buf) < 0) return 0;
    lua_pushstring(L, buf);
    return 1;
}

static int l_segment_by_name(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, API->segment_by_name(ctx, (int)luaL_checkinteger(L, 1), luaL_checkstring(L, 2)));
    return 1;
}

static int l_feature_segments(lua_State *L)
{
    CTX(L);
    int f = (int)luaL_checkinteger(L, 1);
    int n = API->feature_segments(ctx, f, NULL, NULL, 0);
    if (n < 0) return 0;
    int *t = lua_newuserdatauv(L, ((size_t)n * 2 + 1) * sizeof *t, 0); /* freed by Lua, whatever fails below */
    API->feature_segments(ctx, f, t, t + n, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, t[i]);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, t[n + i]);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_figure(lua_State *L)
{
    CTX(L);
    carc_figure_info fi;
    if (API->figure(ctx, (int)luaL_checkinteger(L, 1), &fi) <= 0) return 0;
    lua_createtable(L, 0, 6);
    set_int(L, K_kind, fi.kind);
    set_int(L, K_owner, fi.owner);
    set_int(L, K_where, fi.where);
    set_int(L, K_tile, fi.tile);
    set_int(L, K_seg, fi.seg);
    set_int(L, K_space, fi.space);
    return 1;
}

/* carc.figure_fields(id) -> kind, owner, where, tile, seg, space: what
 * carc.figure(id) holds, as values (no table); nothing for no figure. */
static int push_figure_fields(lua_State *L, const carc_figure_info *fi)
{
    lua_pushinteger(L, fi->kind);
    lua_pushinteger(L, fi->owner);
    lua_pushinteger(L, fi->where);
    lua_pushinteger(L, fi->tile);
    lua_pushinteger(L, fi->seg);
    lua_pushinteger(L, fi->space);
    return 6;
}

static int where_of(lua_State *L, int idx);

static int l_figure_fields(lua_State *L)
{
    CTX(L);
    carc_figure_info fi;
    if (API->figure(ctx, (int)luaL_checkinteger(L, 1), &fi) <= 0) return 0;
    return push_figure_fields(L, &fi);
}

/* The iterator of carc.each_figure: the filter is the loop's invariant
 * state, an integer (owner + 2) * 8 + where, 0 parts matching anything. */
#define EACH_ANY_OWNER (-2)
static int each_figure_next(lua_State *L)
{
    CTX(L);
    lua_Integer filter = luaL_checkinteger(L, 1);
    int where = (int)(filter % 8), owner = filter / 8 == 0 ? EACH_ANY_OWNER : (int)(filter / 8) - 2;
    int n = API->figures(ctx), start = (int)luaL_checkinteger(L, 2) + 1;
    for (int id = start < 0 ? 0 : start; id < n; id++) {
        carc_figure_info fi;
        int w = API->figure(ctx, id, &fi);
        if (w <= 0 || (where && w != where) || (owner != EACH_ANY_OWNER && fi.owner != owner)) continue;
        script_charge(L, (id - start) / 8.0); /* the figures skipped: work no instruction counts */
        lua_pushinteger(L, id);
        return 1 + push_figure_fields(L, &fi);
    }
    script_charge(L, (n - start) / 8.0);
    return 0;
}

/* for id, kind, owner, where, tile, seg, space in carc.each_figure([owner [, where]]):
 * the figures on the board (where != AT_NONE), of one owner (-1: neutral)
 * and one place kind if given, in id order. Builds nothing. */
static int l_each_figure(lua_State *L)
{
    lua_Integer owner = luaL_optinteger(L, 1, EACH_ANY_OWNER);
    luaL_argcheck(L, owner >= -1 || owner == EACH_ANY_OWNER, 1, "owner is a player, -1 (neutral) or nil (anyone)");
    luaL_argcheck(L, owner < 1000000, 1, "no such player");
    int where = lua_isnoneornil(L, 2) ? 0 : where_of(L, 2);
    lua_pushcfunction(L, each_figure_next);
    lua_pushinteger(L, owner == EACH_ANY_OWNER ? where : (owner + 2) * 8 + where);
    lua_pushinteger(L, -1);
    return 3;
}

/* The iterator of carc.each_figure_on: the tile is the invariant state;
 * the kernel's per-tile index walks only the figures standing there. */
static int each_figure_on_next(lua_State *L)
{
    CTX(L);
    lua_Integer tile = luaL_checkinteger(L, 1), after = luaL_checkinteger(L, 2);
    if (!ctx->g) return API->figures(ctx), 0; /* reports the call needs a game */
    if (tile < 0 || tile >= API->tiles(ctx)) return 0;
    int id = API->figure_next_on_tile(ctx, (int)tile, after < INT_MIN ? INT_MIN : after > INT_MAX ? INT_MAX : (int)after);
    carc_figure_info fi;
    if (id < 0 || API->figure(ctx, id, &fi) <= 0) return 0;
    lua_pushinteger(L, id);
    return 1 + push_figure_fields(L, &fi);
}

/* for id, kind, owner, where, tile, seg, space in carc.each_figure_on(tile):
 * the figures standing on the tile (on its segments or on the tile itself),
 * in id order. Builds nothing. */
static int l_each_figure_on(lua_State *L)
{
    luaL_checkinteger(L, 1);
    lua_pushcfunction(L, each_figure_on_next);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, -1);
    return 3;
}

/* A place kind: "segment", "tile", "track", "corner", "held", or
 * carc.AT_SEGMENT, AT_TILE, AT_TRACK, AT_CORNER, AT_HELD (the numbers
 * carc.figure() returns in `where`; the API refuses to place or move a
 * figure into a hand). */
static int where_of(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer w = lua_tointeger(L, idx);
        if (w == CARC_AT_SEGMENT || w == CARC_AT_TILE || w == CARC_AT_TRACK || w == CARC_AT_CORNER || w == CARC_AT_HELD)
            return (int)w;
        return luaL_error(L, "where is carc.AT_SEGMENT, AT_TILE, AT_TRACK, AT_CORNER or AT_HELD (or 'segment', 'tile', "
                             "'track', 'corner', 'held')");
    }
    const char *s = luaL_checkstring(L, idx);
    if (strcmp(s, "segment") == 0) return CARC_AT_SEGMENT;
    if (strcmp(s, "tile") == 0) return CARC_AT_TILE;
    if (strcmp(s, "track") == 0) return CARC_AT_TRACK;
    if (strcmp(s, "corner") == 0) return CARC_AT_CORNER;
    if (strcmp(s, "held") == 0) return CARC_AT_HELD;
    return luaL_error(L, "where is 'segment', 'tile', 'track', 'corner' or 'held'");
}

/* carc.figure_place(kind, owner, where, tile, seg, space, from_supply) */
static int l_figure_place(lua_State *L)
{
    CTX(L);
    int f = API->figure_place(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), where_of(L, 3),
                              (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, -1), (int)luaL_optinteger(L, 6, 0),
                              lua_toboolean(L, 7));
    lua_pushinteger(L, script_checked(L, ctx, f));
    return 1;
}

static int l_figure_move(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->figure_move(ctx, (int)luaL_checkinteger(L, 1), where_of(L, 2), (int)luaL_optinteger(L, 3, -1),
                                     (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, 0)));
    return 0;
}

static int l_figure_remove(lua_State *L)
{
    CTX(L);
    const char *how = luaL_optstring(L, 2, "supply");
    int h = strcmp(how, "box") == 0 ? CARC_GONE_BOX : CARC_GONE_RETURNED;
    script_checked(L, ctx, API->figure_remove(ctx, (int)luaL_checkinteger(L, 1), h));
    return 0;
}

/* carc.offer({code=, tile=, seg=, a=, b=, c=}) or, building nothing,
 * carc.offer(code, tile, seg, a, b, c) (absent: tile and seg -1, the rest 0). */
static int l_offer(lua_State *L)
{
    CTX(L);
    carc_option o;
    if (lua_type(L, 1) == LUA_TNUMBER) {
        memset(&o, 0, sizeof o);
        lua_Integer code = luaL_checkinteger(L, 1);
        luaL_argcheck(L, code >= 0 && code <= UINT16_MAX, 1, "option code out of range");
        o.code = (uint16_t)code;
        o.tile = (int)luaL_optinteger(L, 2, -1);
        o.seg = (int)luaL_optinteger(L, 3, -1);
        for (int i = 0; i < 3; i++) o.arg[i] = (int)luaL_optinteger(L, 4 + i, 0);
    } else {
        o = script_read_option(L, 1);
    }
    script_checked(L, ctx, API->offer(ctx, &o));
    return 0;
}

/* n = carc.offer_walks(start, max_steps, code [, tile [, seg]]): one option
 * {code, tile, seg, a = the steps (2 bits each, N E S W), b = their number}
 * per walk over the placed tiles from tile start (carc_api.offer_walks). */
static int l_offer_walks(lua_State *L)
{
    CTX(L);
    int start = (int)luaL_checkinteger(L, 1), steps = (int)luaL_checkinteger(L, 2);
    lua_Integer code = luaL_checkinteger(L, 3);
    luaL_argcheck(L, code >= 0 && code <= UINT16_MAX, 3, "option code out of range");
    carc_option o = {.code = (uint16_t)code, .tile = (int)luaL_optinteger(L, 4, -1), .seg = (int)luaL_optinteger(L, 5, -1)};
    int n = script_checked(L, ctx, API->offer_walks(ctx, start, steps, &o));
    script_charge(L, n); /* a walk offered here is about one instruction's work */
    lua_pushinteger(L, n);
    return 1;
}

/* n = carc.offer_figure_walks(figure, max_steps, code, kinds, points,
 * reason): the walks of a figure on a tile, applied by carc itself
 * (carc_api.offer_figure_walks; the script's apply is not called for them). */
static int l_offer_figure_walks(lua_State *L)
{
    CTX(L);
    int figure_id = (int)luaL_checkinteger(L, 1), steps = (int)luaL_checkinteger(L, 2);
    lua_Integer code = luaL_checkinteger(L, 3), kinds = luaL_checkinteger(L, 4), points = luaL_checkinteger(L, 5);
    luaL_argcheck(L, code >= 0 && code <= UINT16_MAX, 3, "option code out of range");
    luaL_argcheck(L, kinds >= 0 && kinds <= UINT32_MAX, 4, "kinds is a mask of figure kinds");
    luaL_argcheck(L, points >= -1000000 && points <= 1000000, 5, "points out of range");
    carc_option o = {.code = (uint16_t)code};
    int n = script_checked(L, ctx, API->offer_figure_walks(ctx, figure_id, steps, &o, (uint32_t)kinds, (int)points,
                                                           (int)luaL_checkinteger(L, 6)));
    script_charge(L, n); /* a walk offered here is about one instruction's work */
    lua_pushinteger(L, n);
    return 1;
}

/* n = carc.offer_figures(owner, where, kinds, code [, except]): one option
 * per figure (carc_api.offer_figures). */
static int l_offer_figures(lua_State *L)
{
    CTX(L);
    lua_Integer owner = luaL_checkinteger(L, 1);
    luaL_argcheck(L, owner >= -1 && owner < 1000000, 1, "owner is a player or -1 (neutral)");
    int where = where_of(L, 2);
    lua_Integer kinds = luaL_checkinteger(L, 3), code = luaL_checkinteger(L, 4), except = luaL_optinteger(L, 5, -1);
    luaL_argcheck(L, kinds >= 0 && kinds <= UINT32_MAX, 3, "kinds is a bit mask of figure kinds (0: every kind)");
    luaL_argcheck(L, code >= 0 && code <= UINT16_MAX, 4, "option code out of range");
    carc_option o = {.code = (uint16_t)code, .tile = -1, .seg = -1};
    int n = script_checked(L, ctx, API->offer_figures(ctx, (int)owner, where, (uint32_t)kinds,
                                               except < -1 || except > INT_MAX ? -1 : (int)except, &o));
    script_charge(L, API->figures(ctx) / 8.0 + n); /* the figures looked at, as carc.each_figure charges them */
    lua_pushinteger(L, n);
    return 1;
}

static int l_offered_at(lua_State *L)
{
    CTX(L);
    const carc_option *o = API->offered_at(ctx, (int)luaL_checkinteger(L, 1));
    if (!o) return 0;
    script_push_option(L, o);
    return 1;
}

static int l_veto(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->veto(ctx, (int)luaL_checkinteger(L, 1)));
    return 0;
}

/* carc.ask(player, label, {option, option, ...}) */
static int l_ask(lua_State *L)
{
    CTX(L);
    int player = (int)luaL_checkinteger(L, 1);
    const char *label = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 3);
    if (n < 0 || n > 1000) return luaL_error(L, "ask: 0 to 1000 options (what a person can choose from)");
    /* Lua memory: charged to the script, freed whatever error the reading raises. */
    carc_option *opts = lua_newuserdatauv(L, ((size_t)n + 1) * sizeof *opts, 0);
    memset(opts, 0, ((size_t)n + 1) * sizeof *opts);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 3, i);
        if (!lua_istable(L, -1)) return luaL_error(L, "ask: option %d is not a table", (int)i);
        opts[i - 1] = script_read_option(L, lua_gettop(L));
        /* `track = space`: the option puts a figure on that space of the
         * score track (where carc serve shows it). */
        if (lua_getfield(L, -1, "track") == LUA_TNUMBER && opts[i - 1].tile < 0) {
            opts[i - 1].tile = CARC_OPTION_TRACK;
            opts[i - 1].seg = (int)lua_tointeger(L, -1);
        }
        lua_pop(L, 2);
    }
    script_checked(L, ctx, API->ask(ctx, player, label, opts, (int)n));
    return 0;
}

static int l_award(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->award(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3),
                               (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, 0)));
    return 0;
}

/* n = carc.award_figures_on(tile, where, kinds, points, reason): a point
 * award per figure there (carc_api.award_figures_on). */
static int l_award_figures_on(lua_State *L)
{
    CTX(L);
    lua_Integer tile = luaL_checkinteger(L, 1);
    int where = where_of(L, 2);
    lua_Integer kinds = luaL_checkinteger(L, 3), points = luaL_checkinteger(L, 4), reason = luaL_checkinteger(L, 5);
    luaL_argcheck(L, kinds >= 0 && kinds <= UINT32_MAX, 3, "kinds is a bit mask of figure kinds (0: every kind)");
    luaL_argcheck(L, points >= INT_MIN && points <= INT_MAX, 4, "points out of range");
    int n = script_checked(L, ctx, API->award_figures_on(ctx, tile < -1 || tile > INT_MAX ? -1 : (int)tile, where,
                                                  (uint32_t)kinds, (int)points,
                                                  reason < -1 || reason > INT_MAX ? -1 : (int)reason));
    script_charge(L, n); /* the awards' own handlers are charged as they run */
    lua_pushinteger(L, n);
    return 1;
}

static int l_batch_add(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->batch_add(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3),
                                   (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, 0)));
    return 0;
}

static int l_batch_commit(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->batch_commit(ctx, (int)luaL_optinteger(L, 1, 0)));
    return 0;
}

static int l_batch_at(lua_State *L)
{
    CTX(L);
    carc_award *a = API->batch_at(ctx, (int)luaL_checkinteger(L, 1));
    if (!a) return 0;
    script_push_award(L, a);
    return 1;
}

/* carc.batch_set_points(i, points): changes an award waiting in the batch. */
static int l_batch_set_points(lua_State *L)
{
    CTX(L);
    carc_award *a = API->batch_at(ctx, (int)luaL_checkinteger(L, 1));
    if (!a) return luaL_error(L, "batch_set_points: no award %d", (int)luaL_checkinteger(L, 1));
    a->points = (int)luaL_checkinteger(L, 2);
    return 0;
}

static int l_score_feature(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->score_feature(ctx, (int)luaL_checkinteger(L, 1), lua_toboolean(L, 2)));
    return 0;
}

static int l_return_followers(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->return_followers(ctx, (int)luaL_checkinteger(L, 1)));
    return 0;
}

/* ---- API version 2 --------------------------------------------------------------------------- */

INT1(l_figure_kind_flags, figure_kind_flags)
INT1(l_figure_kind_strength, figure_kind_strength)
INT2(l_feature_strength, feature_strength)
INT1(l_majority_strength, majority_strength)

static int l_figure_kind_stands_on(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->figure_kind_stands_on(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2)) == 1);
    return 1;
}

static int l_figure_kind_name(lua_State *L)
{
    CTX(L);
    const char *name = API->figure_kind_name(ctx, (int)luaL_checkinteger(L, 1));
    if (!name) return 0;
    lua_pushstring(L, name);
    return 1;
}

static int l_deploy_elsewhere(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->deploy_elsewhere(ctx, (int)luaL_checkinteger(L, 1))));
    return 1;
}

/* carc.option_owner(i), carc.option_text(i): offered option i (from 0, as
 * offered_at and veto) of the action decision being built. */
static int l_option_owner(lua_State *L)
{
    CTX(L);
    const char *owner = API->option_owner(ctx, API->offered_at(ctx, (int)luaL_checkinteger(L, 1)));
    if (!owner) return 0;
    lua_pushstring(L, owner);
    return 1;
}

static int l_option_text(lua_State *L)
{
    CTX(L);
    char buf[1024];
    if (API->option_text(ctx, API->offered_at(ctx, (int)luaL_checkinteger(L, 1)), buf, sizeof buf) < 0) return 0;
    lua_pushstring(L, buf);
    return 1;
}

static int l_batch_withdraw(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->batch_withdraw(ctx, (int)luaL_checkinteger(L, 1)));
    return 0;
}

static int l_set_majority_strength(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->set_majority_strength(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2)));
    return 0;
}

static int l_extra_turn(lua_State *L)
{
    CTX(L);
    script_checked(L, ctx, API->extra_turn(ctx));
    return 0;
}

static int l_in_extra_turn(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->in_extra_turn(ctx) == 1);
    return 1;
}

/* carc.feature_borders(field) -> {city feature id, ...} (nil for a non-field) */
static int l_feature_borders(lua_State *L)
{
    CTX(L);
    int cities[256], n = API->feature_borders(ctx, (int)luaL_checkinteger(L, 1), cities, 256);
    if (n < 0) return 0;
    if (n > 256) n = 256;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, cities[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const luaL_Reg carc_funcs[] = {
    {"on", l_on}, {"add_phase", l_add_phase}, {"phase_needs_tile_mark", l_phase_needs_tile_mark}, {"define_kind", l_define_kind}, {"define_figure", l_define_figure},
    {"define_mark", l_define_mark}, {"define_tile_mark", l_define_tile_mark}, {"define_reason", l_define_reason},
    {"option_int", l_option_int}, {"option_enum", l_option_enum}, {"format", l_format}, {"apply", l_apply},
    {"game_init", l_game_init}, {"kind", l_kind}, {"mark", l_mark}, {"tile_mark", l_tile_mark},
    {"figure_kind", l_figure_kind}, {"reason", l_reason}, {"option", l_option}, {"players", l_players},
    {"active_player", l_active_player}, {"turn", l_turn}, {"score", l_score}, {"player_name", l_player_name},
    {"supply", l_supply}, {"fail", l_fail}, {"tiles", l_tiles}, {"tile_at", l_tile_at}, {"tile_pos", l_tile_pos},
    {"tile_type", l_tile_type}, {"type_has_mark", l_type_has_mark}, {"placed_tile", l_placed_tile},
    {"drawn_type", l_drawn_type}, {"pile_left", l_pile_left}, {"return_set_aside", l_return_set_aside},
    {"segments", l_segments}, {"segment_kind", l_segment_kind}, {"segment_at_port", l_segment_at_port},
    {"segment_marks", l_segment_marks}, {"segment_name", l_segment_name}, {"segment_by_name", l_segment_by_name},
    {"feature", l_feature}, {"feature_kind", l_feature_kind}, {"feature_complete", l_feature_complete},
    {"feature_scored", l_feature_scored}, {"feature_tiles", l_feature_tiles}, {"feature_marks", l_feature_marks},
    {"feature_followers", l_feature_followers}, {"feature_open", l_feature_open},
    {"feature_segments", l_feature_segments}, {"figures", l_figures}, {"figure", l_figure},
    {"figure_place", l_figure_place}, {"figure_move", l_figure_move}, {"figure_remove", l_figure_remove},
    {"offer", l_offer}, {"offer_walks", l_offer_walks}, {"offer_figure_walks", l_offer_figure_walks}, {"offer_figures", l_offer_figures}, {"offered", l_offered}, {"offered_at", l_offered_at}, {"veto", l_veto},
    {"forbid_pass", l_forbid_pass}, {"ask", l_ask}, {"award", l_award}, {"award_figures_on", l_award_figures_on}, {"step_begin", l_step_begin},
    {"step_end", l_step_end}, {"batch_begin", l_batch_begin}, {"batch_add", l_batch_add},
    {"batch_commit", l_batch_commit}, {"batch_count", l_batch_count}, {"batch_at", l_batch_at},
    {"batch_set_points", l_batch_set_points}, {"score_feature", l_score_feature},
    {"return_followers", l_return_followers}, {"figure_kind_flags", l_figure_kind_flags},
    {"figure_kind_strength", l_figure_kind_strength}, {"figure_kind_stands_on", l_figure_kind_stands_on},
    {"figure_kind_name", l_figure_kind_name}, {"feature_strength", l_feature_strength},
    {"deploy_elsewhere", l_deploy_elsewhere}, {"option_owner", l_option_owner}, {"option_text", l_option_text},
    {"batch_withdraw", l_batch_withdraw}, {"majority_strength", l_majority_strength},
    {"set_majority_strength", l_set_majority_strength}, {"extra_turn", l_extra_turn},
    {"in_extra_turn", l_in_extra_turn}, {"feature_borders", l_feature_borders}, {NULL, NULL}};

/* Queries that build no table (docs/lua-guide.md, "Writing fast scripts"). */
static const luaL_Reg carc_fast_funcs[] = {
    {"figure_fields", l_figure_fields}, {"each_figure", l_each_figure},
    {"each_figure_on", l_each_figure_on}, {NULL, NULL}};


/* A metatable that the script cannot read or replace (__metatable is its
 * name), with __index and __newindex. */
static void push_state_metatable(lua_State *L)
{
    lua_createtable(L, 0, 3);
    lua_pushcfunction(L, script_state_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, script_state_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushstring(L, "carc.state");
    lua_setfield(L, -2, "__metatable");
}

void script_push_carc_table(lua_State *L)
{
    luaL_newlib(L, carc_funcs);
    luaL_setfuncs(L, carc_fast_funcs, 0);
    script_add_placement_funcs(L);
    script_add_held_funcs(L);
    static const struct { const char *name; int value; } constants[] = {
        {"AT_NONE", CARC_AT_NONE}, {"AT_SEGMENT", CARC_AT_SEGMENT}, {"AT_TILE", CARC_AT_TILE},
        {"AT_TRACK", CARC_AT_TRACK}, {"AT_CORNER", CARC_AT_CORNER}, {"CORNER_NW", CARC_CORNER_NW},
        {"CORNER_NE", CARC_CORNER_NE}, {"CORNER_SE", CARC_CORNER_SE}, {"CORNER_SW", CARC_CORNER_SW},
        {"AWARD_UNROBBABLE", CARC_AWARD_UNROBBABLE},
        {"AWARD_FINAL", CARC_AWARD_FINAL}, {"AWARD_BONUS", CARC_AWARD_BONUS},
        {"FIGURE_FOLLOWER", CARC_FIGURE_FOLLOWER}, {"FIGURE_BOXED_WHEN_SCORED", CARC_FIGURE_BOXED_WHEN_SCORED},
        {"FIGURE_DEPLOYABLE", CARC_FIGURE_DEPLOYABLE}, {"FIGURE_BOXED_WHEN_REMOVED", CARC_FIGURE_BOXED_WHEN_REMOVED}};
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        lua_pushinteger(L, constants[i].value);
        lua_setfield(L, -2, constants[i].name);
    }
    lua_newuserdatauv(L, 1, 0);
    push_state_metatable(L);
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, "state");
}
