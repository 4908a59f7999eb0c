/* lua_wrapper.c - the one call of the original library function
 * (lua_wrapper.h). */
#include "lua_wrapper.h"

int lua_wrapper_call_original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}
