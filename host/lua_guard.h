/* lua_guard.h - the sandbox's library functions whose work the instruction
 * budget does not see.
 *
 * One VM instruction can call a C library function that loops for as long
 * as its arguments say, without allocating: string.rep("", 2^62),
 * table.move over 2^62 empty slots, a backtracking pattern, table.concat of
 * a proxy whose __index yields empty strings. lua_guard_install replaces
 * those functions in the sandbox's tables with wrappers that first charge
 * the work their arguments ask for to the caller's budget (through charge,
 * which raises the budget error when it runs out) and refuse a pattern whose
 * worst case exceeds LUA_GUARD_PATTERN_STEPS. */
#ifndef CARC_LUA_GUARD_H
#define CARC_LUA_GUARD_H
#include <lua.h>

#define LUA_GUARD_PATTERN_STEPS 5e7  /* worst-case steps of one pattern match */
#define LUA_GUARD_STEPS_PER_UNIT 128.0 /* worst-case pattern steps charged as one instruction */
#define LUA_GUARD_GSUB_C_CALL 64     /* charge of each call of a C function given to gsub */
#define LUA_GUARD_GSUB_LUA_CALL 8    /* ... of a Lua function (its instructions are counted too) */

/* Charges work (in VM instructions) to the running call; raises an error
 * (does not return) when the budget or the time is used up. */
typedef void (*lua_guard_charge_fn)(lua_State *L, double work);

/* Wraps the costly functions of the sandbox environment at index env. */
void lua_guard_install(lua_State *L, int env, lua_guard_charge_fn charge);
#endif
