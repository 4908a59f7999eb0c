/* lua_carc_held.c - the carc table's functions of plugin API version 6
 * (docs/lua-guide.md, "Figures held by a player"): a figure captured into a
 * player's hand, freed from it, and the count of what a player holds. Each
 * is a carc_api call with its arguments checked; a refusal stops the game
 * with the API's message and the script's line (script_checked). */
#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#include "lua_host_internal.h"

static int arg(lua_State *L, int i) { return (int)luaL_checkinteger(L, i); }

/* carc.figure_capture(f, holder) */
static int l_figure_capture(lua_State *L)
{
    CTX(L);
    return script_checked(L, ctx, API->figure_capture(ctx, arg(L, 1), arg(L, 2))), 0;
}

/* carc.figure_free(f [, how]): how "supply" (the default) or "box". */
static int l_figure_free(lua_State *L)
{
    CTX(L);
    const char *how = luaL_optstring(L, 2, "supply");
    if (strcmp(how, "supply") != 0 && strcmp(how, "box") != 0) return luaL_error(L, "figure_free: how is 'supply' or 'box'");
    int h = strcmp(how, "box") == 0 ? CARC_GONE_BOX : CARC_GONE_RETURNED;
    return script_checked(L, ctx, API->figure_free(ctx, arg(L, 1), h)), 0;
}

/* carc.held_figures(holder [, owner [, kind]]) */
static int l_held_figures(lua_State *L)
{
    CTX(L);
    int n = API->held_figures(ctx, arg(L, 1), (int)luaL_optinteger(L, 2, -1), (int)luaL_optinteger(L, 3, -1));
    lua_pushinteger(L, script_checked(L, ctx, n));
    return 1;
}

static const luaL_Reg held_funcs[] = {
    {"figure_capture", l_figure_capture}, {"figure_free", l_figure_free}, {"held_figures", l_held_figures}, {NULL, NULL}};

void script_add_held_funcs(lua_State *L)
{
    luaL_setfuncs(L, held_funcs, 0);
    lua_pushinteger(L, CARC_AT_HELD);
    lua_setfield(L, -2, "AT_HELD");
}
