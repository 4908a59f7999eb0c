/* lua_wrapper.h - a C function the sandbox puts in place of a library
 * function (lua_guard.c, lua_determinism.c, the budget's coroutine and
 * xpcall in lua_limits.c) keeps the original as its upvalue 1 and, once it
 * has done its part, calls it. */
#ifndef CARC_LUA_WRAPPER_H
#define CARC_LUA_WRAPPER_H
#include <lua.h>

/* Calls upvalue 1 of the running C closure with the arguments on the stack
 * and returns all of its results (a lua_CFunction's return value). */
int lua_wrapper_call_original(lua_State *L);
#endif
