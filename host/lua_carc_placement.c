/* lua_carc_placement.c - the carc table's functions of plugin API version 4
 * (docs/lua-guide.md, "Where a tile may go" and "A tile of the player's
 * own"): placements of the decision being built, held tiles, tiles placed
 * by the script, tile types by name, the pile, the segments a tile says
 * touch, supplies by number of players, the majority without scoring. Each
 * is a carc_api call with its arguments checked; a refusal stops the game
 * with the API's message and the script's line (script_checked). */
#include <lauxlib.h>
#include <lua.h>

#include "lua_host_internal.h"

static int arg(lua_State *L, int i) { return (int)luaL_checkinteger(L, i); }

/* carc.placement_of(i): the tile type, x, y and rotation (0 to 3) that
 * option i of the decision being built places, or nothing for an option
 * that is no kernel placement. */
static int l_placement_of(lua_State *L)
{
    CTX(L);
    int type, x, y, rot;
    if (API->placement_of(ctx, API->offered_at(ctx, arg(L, 1)), &type, &x, &y, &rot) < 0) return 0;
    lua_pushinteger(L, type);
    lua_pushinteger(L, x);
    lua_pushinteger(L, y);
    lua_pushinteger(L, rot);
    return 4;
}

static int l_offer_placements(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->offer_placements(ctx, arg(L, 1))));
    return 1;
}

static int l_reserve_tiles(lua_State *L)
{
    CTX(L);
    return script_checked(L, ctx, API->reserve_tiles(ctx, arg(L, 1))), 0;
}

static int l_give_tile(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->give_tile(ctx, arg(L, 1), arg(L, 2))));
    return 1;
}

/* carc.take_tile(seat, type): true, or false when the seat holds none. */
static int l_take_tile(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->take_tile(ctx, arg(L, 1), arg(L, 2)) == 0);
    return 1;
}

static int l_held_tiles(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, API->held_tiles(ctx, arg(L, 1)));
    return 1;
}

/* carc.held_tile(seat, i): the type of the i-th tile (from 0) the seat
 * holds, or nothing. */
static int l_held_tile(lua_State *L)
{
    CTX(L);
    int t = API->held_tile(ctx, arg(L, 1), arg(L, 2));
    if (t < 0) return 0;
    lua_pushinteger(L, t);
    return 1;
}

static int l_can_place(lua_State *L)
{
    CTX(L);
    lua_pushboolean(L, API->can_place(ctx, arg(L, 1), arg(L, 2), arg(L, 3), arg(L, 4)) == 1);
    return 1;
}

static int l_place_tile(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->place_tile(ctx, arg(L, 1), arg(L, 2), arg(L, 3), arg(L, 4))));
    return 1;
}

static int l_tile_rotation(lua_State *L)
{
    CTX(L);
    int r = API->tile_rotation(ctx, arg(L, 1));
    if (r < 0) return 0;
    lua_pushinteger(L, r);
    return 1;
}

static int l_segment_touches(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, script_checked(L, ctx, API->segment_touches(ctx, arg(L, 1), arg(L, 2))));
    return 1;
}

/* carc.corner_feature(tile, corner, kind): the feature of that kind (an id
 * or a kind name) the four tiles around the corner share there, or nil
 * (plugin API version 5). */
static int l_corner_feature(lua_State *L)
{
    CTX(L);
    int tile = arg(L, 1), corner = arg(L, 2);
    int kind = lua_type(L, 3) == LUA_TSTRING ? API->kind(ctx, lua_tostring(L, 3)) : arg(L, 3);
    if (tile < 0 || tile >= API->tiles(ctx) || corner < 0 || corner >= CARC_CORNERS)
        return luaL_error(L, "corner_feature: a placed tile and a corner 0..3 (carc.CORNER_NW ... CORNER_SW)");
    int f = API->corner_feature(ctx, tile, corner, kind);
    if (f < 0) return 0; /* no such feature there */
    lua_pushinteger(L, f);
    return 1;
}

static int l_tile_types(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, API->tile_types(ctx));
    return 1;
}

/* carc.tile_type_find("set:id"): the type, or nothing. */
static int l_tile_type_find(lua_State *L)
{
    CTX(L);
    int t = API->tile_type_find(ctx, luaL_checkstring(L, 1));
    if (t < 0) return 0;
    lua_pushinteger(L, t);
    return 1;
}

/* carc.tile_type_name(type): "set:id", or nothing. */
static int l_tile_type_name(lua_State *L)
{
    CTX(L);
    char buf[2 * 32 + 2];
    if (API->tile_type_name(ctx, arg(L, 1), buf, sizeof buf) < 0) return 0;
    lua_pushstring(L, buf);
    return 1;
}

/* carc.pile_take(type): true, or false when none is left. */
static int l_pile_take(lua_State *L)
{
    CTX(L);
    int type = arg(L, 1);
    if (type < 0 || type >= API->tile_types(ctx)) return script_checked(L, ctx, API->pile_take(ctx, type)); /* refused */
    lua_pushboolean(L, API->pile_take(ctx, type) == 0);
    return 1;
}

static int l_pile_count(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, API->pile_count(ctx, arg(L, 1)));
    return 1;
}

static int l_set_supply_by_players(lua_State *L)
{
    CTX(L);
    return script_checked(L, ctx, API->set_supply_by_players(ctx, arg(L, 1), arg(L, 2), arg(L, 3))), 0;
}

/* carc.feature_majority(f [, final]): the greatest strength, and a list of
 * each seat's strength (seat s at index s + 1); nothing is scored. */
static int l_feature_majority(lua_State *L)
{
    CTX(L);
    int strengths[CARC_MAX_PLAYERS];
    int best = script_checked(L, ctx, API->feature_majority(ctx, arg(L, 1), lua_toboolean(L, 2), strengths));
    int n = API->players(ctx);
    lua_pushinteger(L, best);
    lua_createtable(L, n, 0);
    for (int p = 0; p < n; p++) {
        lua_pushinteger(L, strengths[p]);
        lua_rawseti(L, -2, p + 1);
    }
    return 2;
}

static const luaL_Reg placement_funcs[] = {
    {"placement_of", l_placement_of}, {"offer_placements", l_offer_placements}, {"reserve_tiles", l_reserve_tiles},
    {"give_tile", l_give_tile}, {"take_tile", l_take_tile}, {"held_tiles", l_held_tiles},
    {"held_tile", l_held_tile}, {"can_place", l_can_place}, {"place_tile", l_place_tile},
    {"tile_rotation", l_tile_rotation}, {"segment_touches", l_segment_touches}, {"tile_types", l_tile_types},
    {"tile_type_find", l_tile_type_find}, {"tile_type_name", l_tile_type_name}, {"pile_take", l_pile_take},
    {"pile_count", l_pile_count}, {"set_supply_by_players", l_set_supply_by_players},
    {"feature_majority", l_feature_majority}, {"corner_feature", l_corner_feature}, {NULL, NULL}};

void script_add_placement_funcs(lua_State *L)
{
    luaL_setfuncs(L, placement_funcs, 0);
    static const struct { const char *name; int value; } constants[] = {
        {"PLACE_BEFORE_DRAW", CARC_PLACE_BEFORE_DRAW}, {"PLACE_PROBE", CARC_PLACE_PROBE},
        {"PLACED_HELD", CARC_PLACED_HELD}, {"PLACED_BY_PLUGIN", CARC_PLACED_BY_PLUGIN},
        {"FIGURE_STRENGTH_ZERO", CARC_FIGURE_STRENGTH_ZERO}};
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        lua_pushinteger(L, constants[i].value);
        lua_setfield(L, -2, constants[i].name);
    }
}
