/* lua_host.h - Lua 5.4 scripts as plugins (docs/lua-guide.md).
 *
 * Each script gets its own lua_State in the rules, a sandboxed environment
 * (safe parts of base, coroutine, table, string, math, utf8; no io, os,
 * package, debug, require, dofile, binary chunks), an instruction budget per
 * call (also inside coroutines) and a memory cap. Its game state lives in the
 * game as a small key-value store (carc.state), so games clone and replay. */
#ifndef CARC_LUA_HOST_H
#define CARC_LUA_HOST_H
#include <stddef.h>

#define LUA_HOST_BUDGET 2000000      /* VM instructions per call into a script */
#define LUA_HOST_MEMORY (32u << 20)  /* bytes per script */
#define LUA_STATE_ENTRIES 64         /* carc.state entries per script */

struct carc_rules;
struct plugin_slot;

/* Loads the script at ps->path, runs its top level (its registration). */
int lua_host_load(struct carc_rules *r, struct plugin_slot *ps, char *err, size_t errn);
#endif
