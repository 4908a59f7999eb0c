/* lua_host.h - Lua 5.4 scripts as plugins (docs/lua-guide.md).
 *
 * Each script gets its own lua_State in the rules, a sandboxed environment
 * (safe parts of base, coroutine, table, string, math, utf8; no io, os,
 * package, debug, require, dofile, binary chunks), an instruction budget per
 * call and per turn (also inside coroutines; allocations and costly library
 * functions are charged to it, host/lua_guard.h), a CPU-time backstop per
 * call, a memory cap, and a cap on what print writes (docs/security.md
 * says what holds and how it is tested). Its game state lives in the
 * game as a small key-value store (carc.state), so games clone and replay. */
#ifndef CARC_LUA_HOST_H
#define CARC_LUA_HOST_H
#include <stddef.h>

#define LUA_HOST_BUDGET 2000000      /* VM instructions per call into a script */
#define LUA_HOST_MEMORY (32u << 20)  /* bytes per script */
#define LUA_HOST_ALLOC_BYTES 64      /* bytes allocated (and filled) that cost one instruction of the budget */
#define LUA_HOST_ALLOC_MIN 1024      /* blocks from this size up are charged by their bytes */
#define LUA_HOST_ALLOC_OBJECT 8      /* instructions charged for each table, function, userdata or coroutine made */
#define LUA_HOST_SECONDS 2           /* CPU seconds per call, a backstop the budget should never reach */
#define LUA_HOST_TURN_BUDGET 20000000 /* instructions per turn, all of a script's calls together */
#define LUA_HOST_TURN_SECONDS 10     /* seconds per turn, all of a script's calls together */
#define LUA_HOST_PRINT_CALL 65536    /* bytes print may write per call */
#define LUA_HOST_PRINT_GAME 1048576  /* bytes print may write per game */
#define LUA_HOST_SCRIPT_BYTES 4194304 /* size of a script file */
#define LUA_STATE_ENTRIES 64         /* carc.state entries per script */
#define LUA_HOST_LENT_DEPTH 8        /* nesting depth up to which event tables are reused */

struct carc_rules;
struct plugin_slot;

/* Loads the script at ps->path, runs its top level (its registration). */
int lua_host_load(struct carc_rules *r, struct plugin_slot *ps, char *err, size_t errn);
#endif
