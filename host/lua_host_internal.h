/* lua_host_internal.h - what the files of the Lua host share (not for
 * other files): one script's host (lua_host), its handlers (lua_fn), the
 * field names of the tables it lends, and each file's functions the others
 * call. The host's files, one purpose each:
 *
 *   lua_host.c       a script loaded as a plugin: its state made, its top
 *                    level run, its registration closed
 *   lua_sandbox.c    the environment a script sees (the safe libraries,
 *                    math.random from the game, print) and the state's set-up
 *   lua_carc_table.c the carc table: the API for scripts
 *   lua_carc_state.c carc.state: a key-value store inside the game
 *   lua_calls.c      every call from carc into the script (handlers, phases,
 *                    format, apply, game_init, the top level), under its limits
 *   lua_lent.c       the tables lent to a call and refilled for the next: the
 *                    event (filled as it is read), its award and option
 *   lua_limits.c     the limits: memory, the instruction budget (per call and
 *                    per turn), the CPU-time backstop, coroutines' hooks
 *   lua_guard.c      costly library functions charged to the budget
 *   lua_determinism.c a script's games depending on the game alone
 *   lua_wrapper.c    a wrapper calling the library function it replaces */
#ifndef CARC_LUA_HOST_INTERNAL_H
#define CARC_LUA_HOST_INTERNAL_H
#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "kernel_host.h"
#include "lua_host.h"
#include "plugin.h"

#define API (&carc_api_v1)
#define STR_(x) #x
#define STR(x) STR_(x)

/* carc.state: the entries in use are e[0 .. n-1] and every byte after
 * them is zero, so the kernel copies a game's store up to its used length
 * (state_used) and a copy is still equal byte for byte. */
typedef struct kv_entry {
    char key[24];
    uint32_t hash;  /* script_state_hash(key): compared before the key */
    uint8_t type;   /* LUA_TBOOLEAN, LUA_TNUMBER (int or float), LUA_TSTRING */
    uint8_t is_int;
    uint8_t unused[2];
    union {
        int64_t i;
        double d;
        char s[32];
    } v;
} kv_entry;

typedef struct kv_store {
    uint64_t printed; /* bytes print wrote in this game: clones and replays carry it */
    uint32_t n;       /* entries in use */
    uint32_t unused;
    kv_entry e[LUA_STATE_ENTRIES];
} kv_store;

/* What stopped the running call. */
enum { STOP_NONE, STOP_BUDGET, STOP_TIME, STOP_OUTPUT };

/* Every block the script's state allocates is on a list: what Lua itself
 * fails to free (Lua 5.4.4 loses luaL_Buffer boxes when a message handler
 * fails inside another failing one) is freed with the state. */
typedef struct alloc_block {
    struct alloc_block *prev, *next;
} alloc_block;

_Static_assert(sizeof(alloc_block) == 16, "blocks keep malloc's 16-byte alignment");

/* carc.option's answer for one key during games (OPTION_MEMO of them, by
 * the key string's address). */
#define OPTION_MEMO 8
typedef struct option_memo {
    size_t len;             /* 0: empty */
    char text[40];          /* the key's bytes (longer keys are not kept) */
    int value;
} option_memo;

typedef struct lua_host {
    lua_State *L;
    alloc_block blocks;     /* the list's head: every block the state holds */
    plugin_slot *ps;
    carc_ctx *cur;          /* the context of the call running now */
    size_t mem_used, mem_limit;
    long budget;            /* instructions left in this call */
    bool uncharged;         /* carc is making what it keeps from call to call: not the call's work */
    int64_t started;        /* coarse monotonic clock when the call started (ns) */
    int64_t cpu_deadline;   /* thread CPU time at which the call is stopped (ns); 0: not read yet */
    int stopped;            /* STOP_*: a limit stopped this call; every instruction now fails */
    size_t printed;         /* bytes print wrote in this call */
    /* The turn the last calls belonged to, and what they used in it. */
    uint64_t turn_game;     /* the game's serial: a bot's every try is a game of its own */
    int turn_number;
    bool turn_end;
    long turn_used;
    int64_t turn_ns;
    /* The account of the copies a bot makes to try moves for one real
     * decision (game_host_view's trial_of and trial_at): what all of them
     * used together, against the turn's limits. */
    uint64_t trial_of, trial_at;
    long trial_used;
    int64_t trial_ns;
    bool trial_spent;
    int format_ref, apply_ref, init_ref;
    bool closed;            /* registration is over */
    /* The field names, interned once (registry references): a field is set
     * by an array read instead of hashing its name again. */
    int key_ref[24];
    /* The same names' text, where the state keeps it: Lua interns short
     * strings (up to 40 bytes; the names are shorter), so a string with a
     * name's text is that very string, and an event key is found by
     * comparing pointers. */
    const char *key_text[24];
    /* Options read in games: the rules are frozen once a game runs, so a
     * key's value is looked up among the variant's options once. */
    option_memo options[OPTION_MEMO];
    int type_ref[CARC_EV_COUNT]; /* the event names */
    /* Tables lent to the script for one call and refilled for the next: the
     * event, its award and option, the option of format and apply. One set
     * per nesting depth (a handler can raise an event of its own script). */
    int depth;              /* calls into the script running now */
    struct {
        int ev, award, option;
        /* The event table is filled on first read of each field: the event
         * of the call at this depth, the owner its option's `mine` compares
         * with, and the fields the table holds (read or written) this call. */
        const carc_event *src;
        int owner;
        uint32_t shown;
        const void *ev_table; /* the event table itself (lua_topointer), to know it again */
    } lent[LUA_HOST_LENT_DEPTH];
} lua_host;

/* A handler or phase: which function of which script, and the carc.state
 * key it waits for (empty: none). */
typedef struct lua_fn {
    lua_host *h;
    int ref;
    char wait_key[24];      /* as the store keeps it (an integer key as "#N") */
    uint32_t wait_hash;
} lua_fn;

/* Field names of the tables carc builds and reads. */
#define KEYS(X) X(type) X(player) X(tile) X(feature) X(figure) X(value) X(flags) X(award) X(option) \
    X(mine) X(code) X(seg) X(a) X(b) X(c) X(kernel) X(points) X(reason) X(step) X(kind) X(owner) \
    X(where) X(space)
#define KEY_ENUM(n) K_##n,
#define KEY_NAME(n) #n,
enum { KEYS(KEY_ENUM) NKEYS };
static const char *const key_names[NKEYS] = {KEYS(KEY_NAME)};

_Static_assert(NKEYS <= 24, "lua_host.key_ref holds every key");

/* One call into the script: body runs under the call's protection and
 * limits, so every value it builds or reads back is safe to touch (an error
 * or a full heap there is the script's failure, not carc's abort). */
typedef struct host_call host_call;
struct host_call {
    int (*body)(lua_State *L, host_call *c);
    carc_ctx *ctx;
    int ref;            /* the script function */
    carc_event *ev;
    const carc_option *opt;
    int arg;            /* the player of apply */
    char *buf;          /* format's text */
    size_t n;
    int result;
};

/* A coroutine's hook counts its own instructions; those it ran since its
 * last hook are uncounted when it yields or ends. Each resume pays for them
 * in advance, so a tree of short coroutines is charged like a loop. */
#define HOOK_EVERY 1000   /* main thread: instructions between two hooks */
#define CO_HOOK_EVERY 100 /* a coroutine's, also what one resume costs */

/* The main thread's first slot holds the message handler (traceback) from
 * the state's making on: a call from outside the script, made with nothing
 * else on that stack, uses it there instead of pushing it each time. */
#define TRACEBACK_SLOT 1

static inline lua_host *host_of(lua_State *L);

/* The interned name: one read of the registry's array part. */
static inline void push_key(lua_State *L, int k) { lua_rawgeti(L, LUA_REGISTRYINDEX, host_of(L)->key_ref[k]); }

/* t[k] = v for the table on the stack top. */
static inline void set_int(lua_State *L, int k, lua_Integer v)
{
    push_key(L, k);
    lua_pushinteger(L, v);
    lua_rawset(L, -3);
}

/* t[k] = the value on the stack top (popped), for the table below it. */
static inline void set_top(lua_State *L, int k)
{
    push_key(L, k);
    lua_insert(L, -2);
    lua_rawset(L, -3);
}

/* The host lives in the state's extra space, which every thread (coroutine)
 * copies from the main one when it is created: no lookup on each call. The
 * low bit marks a coroutine a limit stopped (see script_stop). */
#define THREAD_STOPPED ((uintptr_t)1)

static inline uintptr_t extra_of(lua_State *L)
{
    uintptr_t v;
    memcpy(&v, lua_getextraspace(L), sizeof v);
    return v;
}

static inline lua_host *host_of(lua_State *L) { return (lua_host *)(extra_of(L) & ~THREAD_STOPPED); }

static inline void mark_stopped(lua_State *L)
{
    uintptr_t v = extra_of(L) | THREAD_STOPPED;
    memcpy(lua_getextraspace(L), &v, sizeof v);
}

#define NS_PER_S INT64_C(1000000000)

static inline int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* A few nanoseconds (no system call), to the millisecond or so: read on
 * every call. The thread's CPU clock costs a system call: read only by calls
 * long enough to meet a hook. */
static inline int64_t coarse_now(void) { return clock_ns(CLOCK_MONOTONIC_COARSE); }

/* The host of the call running now, its context in *ctx; raises an error
 * outside a call (a function kept and called from elsewhere). */
static inline lua_host *ctx_host(lua_State *L, carc_ctx **ctx)
{
    lua_host *h = host_of(L);
    if (!h->cur) luaL_error(L, "carc is not available here");
    *ctx = h->cur;
    return h;
}

#define CTX(L) carc_ctx *ctx; ctx_host(L, &ctx)

/* ---- lua_limits.c ---- */
/* The state's allocator (ud: the host): the memory cap and the budget's
 * charge for allocating. */
void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* Frees the blocks lua_close left. */
void script_free_lost_blocks(lua_host *h);
/* Stops the call (why: STOP_*); raises the error, does not return. */
int script_stop(lua_State *L, lua_host *h, int why);
/* Charges work (in instructions) to the running call; stops it when it is
 * over a limit. lua_guard's charge for the work of library functions. */
void script_charge(lua_State *L, double work);
/* The budget's count hook on L, every `every` instructions. */
void script_set_hook(lua_State *L, int every);
/* Calls the function below the nargs arguments on the stack top under the
 * call's limits (an outermost call starts the budget and the turn's
 * account), with the traceback at msgh, keeping nresults results. 0, or -1
 * with the error given to the game and the stack back at base. */
int script_limited_pcall(lua_host *h, carc_ctx *ctx, int nargs, int nresults, int base, int msgh);
/* coroutine.create, coroutine.resume, coroutine.close and xpcall of the
 * sandbox (resume, close and xpcall: upvalue 1, the library's own). */
int script_coroutine_create(lua_State *L);
int script_coroutine_resume(lua_State *L);
int script_coroutine_close(lua_State *L);
int script_xpcall(lua_State *L);

/* ---- lua_calls.c ---- */
/* The message handler: the error with a traceback. */
int script_traceback(lua_State *L);
/* Runs c->body under the call's protection and limits: 0, or -1 with the
 * error given to the game. */
int script_call(lua_host *h, host_call *c);
/* An API call's result rc, or (rc < 0) the script stopped with the API's
 * message and its own line. */
int script_checked(lua_State *L, carc_ctx *ctx, int rc);
/* The trampolines: carc_api's handler, phase, format, apply and game-init
 * functions for a script (user: a lua_fn, or the host for the last three). */
int script_handler(carc_ctx *ctx, carc_event *ev);
int script_phase(carc_ctx *ctx, int step);
int script_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n);
int script_apply(carc_ctx *ctx, const carc_option *opt, int player);
int script_game_init(carc_ctx *ctx);

/* ---- lua_lent.c ---- */
/* A fresh option table ({code=, tile=, seg=, a=, b=, c=, kernel=}): the
 * script may keep it. */
void script_push_option(lua_State *L, const carc_option *o);
/* The option table lent for this call (format, apply). */
void script_lend_option(lua_State *L, const carc_option *o);
/* The option in the table at idx (an event table lent is filled first). */
carc_option script_read_option(lua_State *L, int idx);
/* A fresh award table. */
void script_push_award(lua_State *L, const carc_award *a);
/* Pushes the event table for a call at depth d (lua_lent.c). */
void script_push_event(lua_State *L, lua_host *h, int d, const carc_event *ev, int owner);
/* What the handler changed in the event table at idx, back into ev; false
 * with why in err for a bad field. Raises no error. */
bool script_read_back_event(lua_State *L, int idx, uint32_t touched, carc_event *ev, char *err, size_t errn);
/* The metamethods of the lent tables (registry "carc.lent" and
 * "carc.lent.event"), and the event table's filling. */
int script_lent_newindex(lua_State *L);
int script_event_index(lua_State *L);
int script_event_newindex(lua_State *L);
int script_event_fill(lua_State *L);

/* ---- lua_carc_state.c ---- */
/* The store's key for the value at idx (an integer as "#N"; raises an error
 * for a bad key) into out (24 bytes). */
void script_state_key(lua_State *L, int idx, char *out);
uint32_t script_state_hash(const char *key);
/* The entry holding key, or -1. */
int script_state_find(const kv_store *s, const char *key, uint32_t hash);
/* The bytes of a store in use (plugin_slot.state_used). */
size_t script_state_used(const unsigned char *block);
/* carc.state's __index and __newindex. */
int script_state_index(lua_State *L);
int script_state_newindex(lua_State *L);

/* ---- lua_carc_table.c ---- */
/* Pushes the carc table (functions, constants, carc.state). */
void script_push_carc_table(lua_State *L);

/* ---- lua_carc_placement.c ---- */
/* Adds API version 4's functions and constants to the carc table on the
 * stack top. */
void script_add_placement_funcs(lua_State *L);
void script_add_held_funcs(lua_State *L);

/* ---- lua_sandbox.c ---- */
/* Opens the safe libraries and builds the sandbox in a fresh state, the
 * environment in the registry at "carc.env" (a lua_CFunction: call it
 * protected). */
int script_sandbox_setup(lua_State *L);
#endif
