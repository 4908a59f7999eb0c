/* lua_determinism.h - a script's games depend on the game alone.
 *
 * One Lua state serves every game a thread plays, the real game and the
 * bots' trial moves alike, and Lua itself varies from run to run: string
 * hashes are seeded from the clock and addresses, so `pairs` and `next`
 * visit keys in a different order each run; `tostring` of a table prints
 * its address; `table.sort` picks random pivots past 100 elements, so equal
 * elements land in a different order; weak tables lose entries when the
 * collector happens to run. This module closes each way in:
 *
 *  - State kept between calls. Once the script's top level has run,
 *    lua_determinism_freeze makes every table the script's functions and
 *    globals can reach read-only (reads work as before; a write is an error
 *    naming the line), refuses a function that assigns a variable of the
 *    top level ("local count = 0 ... count = count + 1" in a handler), a
 *    coroutine or a `gmatch` iterator kept from load time. What a game must
 *    remember goes in carc.state, which every game and clone has its own.
 *  - Order. `pairs` and `next` visit keys in a fixed order: numbers
 *    ascending, then strings in byte order, then false, true; keys that are
 *    tables or functions have no fixed order and are an error there.
 *    `table.sort` of over 100 elements is a stable merge sort.
 *  - Addresses. `tostring` (and `print`, `string.format("%s")`) of a table,
 *    function or coroutine without `__tostring` gives its type ("table"),
 *    or its `__name`; `string.format("%p")` is refused.
 *  - The collector. `setmetatable` refuses `__gc` (finalizers run with hooks
 *    off, out of reach of the limits) and `__mode` (weak tables).
 *
 * Every function here raises Lua errors: call it under protection. */
#ifndef CARC_LUA_DETERMINISM_H
#define CARC_LUA_DETERMINISM_H
#include <stddef.h>

#include <lua.h>

#include "lua_guard.h"

/* Replaces next, pairs, rawget, rawset, rawlen, tostring, setmetatable,
 * string.format and table.sort in the environment table at env. Call it
 * before lua_guard_install, which charges format and sort by their size. */
void lua_determinism_install(lua_State *L, int env, lua_guard_charge_fn charge);

/* Remembers every function env reaches now as the sandbox's own: they keep
 * no state between calls. Call once the environment is complete and before
 * any script code runs. */
void lua_determinism_mark_known(lua_State *L, int env);

/* Called when the top level of the script at path (for messages) has run:
 * makes the globals at env read-only (a global assignment is an error), then
 * freezes everything reachable from them and from the functions in the
 * registry (the registered handlers), as described above. Raises an error
 * naming path and line when the script keeps state it may not keep. The
 * work is charged through the charge function given to install. */
void lua_determinism_freeze(lua_State *L, int env, const char *path);

/* Tables with metatable mt are filled on first read (their __index):
 * next, pairs, rawget, rawset and rawlen call fill(t) first, which must
 * give t every field it would show. Call after install. */
void lua_determinism_lazy_table(lua_State *L, int mt, lua_CFunction fill);

/* tostring without addresses: pushes the string for the value at idx
 * (running its __tostring, under the caller's limits) and returns it; the
 * pointer lives as long as the pushed value. */
const char *lua_determinism_tostring(lua_State *L, int idx, size_t *len);
#endif
