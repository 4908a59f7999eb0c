/* lua_host.c - runs Lua scripts through the same API as C plugins. */
#include "lua_host.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "api.h"
#include "core.h"
#include "lua_guard.h"
#include "lua_determinism.h"
#include "plugin.h"
#include "regular_file.h"
#include "term_text.h"

#define API (&carc_api_v1)
#define STR_(x) #x
#define STR(x) STR_(x)

/* carc.state: the entries in use are e[0 .. n-1] and every byte after
 * them is zero, so the kernel copies a game's store up to its used length
 * (state_used) and a copy is still equal byte for byte. */
typedef struct kv_entry {
    char key[24];
    uint32_t hash;  /* kv_hash(key): compared before the key */
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

static lua_host *host_of(lua_State *L);

/* The interned name: one read of the registry's array part. */
static void push_key(lua_State *L, int k) { lua_rawgeti(L, LUA_REGISTRYINDEX, host_of(L)->key_ref[k]); }

/* t[k] = v for the table on the stack top. */
static void set_int(lua_State *L, int k, lua_Integer v)
{
    push_key(L, k);
    lua_pushinteger(L, v);
    lua_rawset(L, -3);
}

/* t[k] = the value on the stack top (popped), for the table below it. */
static void set_top(lua_State *L, int k)
{
    push_key(L, k);
    lua_insert(L, -2);
    lua_rawset(L, -3);
}

/* The host lives in the state's extra space, which every thread (coroutine)
 * copies from the main one when it is created: no lookup on each call. The
 * low bit marks a coroutine a limit stopped (see stop()). */
#define THREAD_STOPPED ((uintptr_t)1)

static uintptr_t extra_of(lua_State *L)
{
    uintptr_t v;
    memcpy(&v, lua_getextraspace(L), sizeof v);
    return v;
}

static lua_host *host_of(lua_State *L) { return (lua_host *)(extra_of(L) & ~THREAD_STOPPED); }

static void mark_stopped(lua_State *L)
{
    uintptr_t v = extra_of(L) | THREAD_STOPPED;
    memcpy(lua_getextraspace(L), &v, sizeof v);
}

/* ---- limits ------------------------------------------------------------------------ */

static void block_unlink(alloc_block *b)
{
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

static void block_link(lua_host *h, alloc_block *b)
{
    b->prev = &h->blocks;
    b->next = h->blocks.next;
    h->blocks.next->prev = b;
    h->blocks.next = b;
}

/* Whether a new block is an object charged LUA_HOST_ALLOC_OBJECT: for a new
 * object Lua passes its type tag as osize (0 for a block of no object):
 * tables, functions, userdata and coroutines; not strings. */
static bool charged_object(size_t tag)
{
    int type = (int)(tag & 0x0F);
    return tag != 0 && type >= LUA_TTABLE && type <= LUA_TTHREAD;
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lua_host *h = ud;
    size_t old = ptr ? osize : 0;
    alloc_block *b = ptr ? (alloc_block *)ptr - 1 : NULL;
    if (nsize == 0) {
        if (b) {
            block_unlink(b);
            free(b);
        }
        h->mem_used -= old;
        return NULL;
    }
    if (nsize > old && h->mem_used + (nsize - old) > h->mem_limit) return NULL; /* Lua raises "not enough memory" */
    if (b) block_unlink(b); /* realloc may move it */
    alloc_block *nb = realloc(b, sizeof *nb + nsize);
    if (!nb) {
        if (b) block_link(h, b); /* a failed realloc leaves the block as it was */
        return NULL;
    }
    block_link(h, nb);
    h->mem_used = h->mem_used - old + nsize;
    /* Allocating is work the instruction count does not see (one
     * instruction can copy megabytes or make a table): a block is filled at
     * about 0.05 ns a byte and an instruction takes about 3.4 ns with the
     * hook set, so a block of 1 KiB or more is charged one instruction per
     * 64 bytes; making a table, function, userdata or coroutine and
     * collecting it later takes about 30 ns: LUA_HOST_ALLOC_OBJECT more.
     * Short strings are not charged as objects and blocks under 1 KiB not
     * by their bytes: whether Lua allocates them depends on what it already
     * holds (it interns short strings), which would make the budget depend
     * on earlier games. The next hook notices. */
    if (nsize > old && !h->uncharged) {
        size_t grew = nsize - old;
        if (grew >= LUA_HOST_ALLOC_MIN) h->budget -= (long)(grew / LUA_HOST_ALLOC_BYTES);
        if (!ptr && charged_object(osize)) h->budget -= LUA_HOST_ALLOC_OBJECT;
    }
    return nb + 1;
}

/* Frees the blocks lua_close left. */
static void free_lost_blocks(lua_host *h)
{
    while (h->blocks.next != &h->blocks) {
        alloc_block *b = h->blocks.next;
        block_unlink(b);
        free(b);
    }
}

#define NS_PER_S INT64_C(1000000000)

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* A few nanoseconds (no system call), to the millisecond or so: read on
 * every call. The thread's CPU clock costs a system call: read only by calls
 * long enough to meet a hook. */
static int64_t coarse_now(void) { return clock_ns(CLOCK_MONOTONIC_COARSE); }

static const char *stop_reason(int why)
{
    switch (why) {
    case STOP_BUDGET: return "instruction budget exceeded (" STR(LUA_HOST_BUDGET) " instructions per call): an endless loop?";
    case STOP_TIME: return "time limit exceeded (" STR(LUA_HOST_SECONDS) " s of CPU per call): an endless loop?";
    default: return "output limit exceeded (" STR(LUA_HOST_PRINT_CALL) " bytes per call, " STR(LUA_HOST_PRINT_GAME)
                    " per game)";
    }
}

static void count_hook(lua_State *L, lua_Debug *ar);

/* Stops the call: from now on every instruction of every thread fails, so
 * pcall cannot go on, and xpcall's message handlers are skipped (this error
 * is raised in a hook, where Lua runs a handler with hooks off, out of reach
 * of every limit). A coroutine that dies of it dies inside the hook, with
 * hooks off for good: it is marked, and coroutine.close does not run its
 * __close handlers. */
static int stop(lua_State *L, lua_host *h, int why)
{
    if (!h->stopped) h->stopped = why;
    if (L != h->L) {
        mark_stopped(L);
        lua_sethook(h->L, count_hook, LUA_MASKCOUNT, 1);
    }
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    return luaL_error(L, "%s", stop_reason(h->stopped));
}

/* The CPU deadline counts from the call's start: the first reading puts it
 * where it would be had the whole time since the start been CPU time. */
static void check_time(lua_State *L, lua_host *h)
{
    int64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (h->cpu_deadline == 0) h->cpu_deadline = cpu + LUA_HOST_SECONDS * NS_PER_S - (coarse_now() - h->started);
    if (cpu > h->cpu_deadline) stop(L, h, STOP_TIME);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_host *h = host_of(L);
    h->budget -= lua_gethookcount(L);
    if (h->stopped || h->budget < 0) stop(L, h, STOP_BUDGET);
    check_time(L, h);
}

/* Charges work (in instructions) to the running call; stops it when it is
 * over a limit. lua_guard's charge for the work of library functions. */
static void charge(lua_State *L, double work)
{
    lua_host *h = host_of(L);
    if (work >= (double)h->budget) h->budget = -1;
    else h->budget -= (long)work;
    if (h->stopped || h->budget < 0) stop(L, h, STOP_BUDGET);
    if (work >= 4096) check_time(L, h);
}

/* A coroutine's hook counts its own instructions; those it ran since its
 * last hook are uncounted when it yields or ends. Each resume pays for them
 * in advance, so a tree of short coroutines is charged like a loop. */
#define HOOK_EVERY 1000   /* main thread: instructions between two hooks */
#define CO_HOOK_EVERY 100 /* a coroutine's, also what one resume costs */

static void set_hook(lua_State *L, int every) { lua_sethook(L, count_hook, LUA_MASKCOUNT, every); }

/* coroutine.create with the budget hook on the new thread: hooks are per thread. */
static int sandbox_cocreate(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *NL = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, NL, 1);
    set_hook(NL, CO_HOOK_EVERY);
    return 1;
}

/* Upvalue 1: the library's own function. */
static int call_upvalue(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int sandbox_coresume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    charge(L, CO_HOOK_EVERY);
    set_hook(co, CO_HOOK_EVERY);
    return call_upvalue(L);
}

static int sandbox_coclose(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    if (extra_of(co) & THREAD_STOPPED) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "the coroutine was stopped by a limit; its __close handlers are not run");
        return 2;
    }
    return call_upvalue(L);
}

/* xpcall's message handler, guarded: after a limit stopped the call the
 * error comes from a hook, where the handler would run with hooks off. */
static int guarded_msgh(lua_State *L)
{
    if (host_of(L)->stopped) return 1; /* the error, unchanged */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sandbox_xpcall(lua_State *L)
{
    luaL_checkany(L, 2);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_msgh, 1);
    lua_replace(L, 2);
    return call_upvalue(L);
}

/* ---- calling into the script --------------------------------------------------------- */

static int traceback(lua_State *L)
{
    size_t n = 0;
    const char *msg = lua_tolstring(L, 1, &n);
    if (!msg) {
        msg = "(error object is not a string)";
    } else if (n > 900) { /* the message carc keeps is shorter: no need to copy megabytes */
        lua_pushlstring(L, msg, 900);
        lua_pushliteral(L, "...");
        lua_concat(L, 2);
        msg = lua_tostring(L, -1);
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

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

static int run_body(lua_State *L)
{
    host_call *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref);
    return c->body(L, c);
}

/* Starts the budget of an outermost call, and the turn's account. */
static void begin_call(lua_host *h, carc_ctx *ctx)
{
    h->budget = LUA_HOST_BUDGET;
    h->started = coarse_now();
    h->cpu_deadline = 0;
    h->stopped = STOP_NONE;
    h->printed = 0;
    set_hook(h->L, HOOK_EVERY);
    const carc_game *g = ctx->g;
    if (g && (g->serial != h->turn_game || g->turn.number != h->turn_number || g->in_end != h->turn_end)) {
        h->turn_game = g->serial;
        h->turn_number = g->turn.number;
        h->turn_end = g->in_end;
        h->turn_used = 0;
        h->turn_ns = 0;
    }
}

/* After an outermost call: what it used, against the per-call time (for a
 * call too short to meet a hook) and the turn's totals (a phase that keeps
 * running again gets a fresh budget each time, not a fresh turn). */
static const char *end_call(lua_host *h, carc_ctx *ctx)
{
    int64_t took = coarse_now() - h->started;
    if (h->budget < 0) return stop_reason(STOP_BUDGET); /* charged past it after the last hook */
    if (took > LUA_HOST_SECONDS * NS_PER_S &&
        (h->cpu_deadline == 0 || clock_ns(CLOCK_THREAD_CPUTIME_ID) > h->cpu_deadline))
        return stop_reason(STOP_TIME);
    if (!ctx->g) return NULL;
    h->turn_used += LUA_HOST_BUDGET - (h->budget < 0 ? 0 : h->budget);
    h->turn_ns += took;
    if (h->turn_used > LUA_HOST_TURN_BUDGET)
        return "instruction budget exceeded (" STR(LUA_HOST_TURN_BUDGET) " instructions per turn): a phase that runs again for ever?";
    if (h->turn_ns > LUA_HOST_TURN_SECONDS * NS_PER_S)
        return "time limit exceeded (" STR(LUA_HOST_TURN_SECONDS) " s per turn): a phase that runs again for ever?";
    return NULL;
}

/* The main thread's first slot holds the message handler (traceback) from
 * the state's making on: a call from outside the script, made with nothing
 * else on that stack, uses it there instead of pushing it each time. */
#define TRACEBACK_SLOT 1

/* Whether a call made with the stack top at base comes from outside the
 * script: then the main thread's stack holds only the traceback, and Lua's
 * LUA_MINSTACK (20) free slots there need no lua_checkstack. */
static bool outermost(const lua_host *h, int base) { return !h->cur && base == TRACEBACK_SLOT; }

/* The index of the traceback for a call made with the stack top at base:
 * its slot for an outermost call, else pushed now. */
static int push_traceback(lua_host *h, int base)
{
    if (outermost(h, base)) return TRACEBACK_SLOT;
    lua_pushcfunction(h->L, traceback);
    return base + 1;
}

/* Calls the function below the nargs arguments on the stack top under the
 * call's limits, with the traceback at msgh, keeping nresults results. 0,
 * or -1 with the error given to the game and the stack back at base. */
static int limited_pcall(lua_host *h, carc_ctx *ctx, int nargs, int nresults, int base, int msgh)
{
    lua_State *L = h->L;
    carc_ctx *prev = h->cur;
    h->cur = ctx;
    if (!prev) begin_call(h, ctx); /* a nested call (a handler raised by this script's own call) shares the budget */
    int depth = h->depth++;
    int rc = lua_pcall(L, nargs, nresults, msgh);
    h->depth = depth;
    h->cur = prev;
    const char *over = !prev && rc == LUA_OK ? end_call(h, ctx) : NULL;
    if (rc != LUA_OK || over) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", over ? over : lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
        lua_settop(L, base);
        api_error(ctx, msg);
        return -1;
    }
    return 0;
}

static int protected_call(lua_host *h, host_call *c)
{
    lua_State *L = h->L;
    int base = lua_gettop(L);
    if (!outermost(h, base) && !lua_checkstack(L, 3)) return api_error(c->ctx, "not enough memory"), -1;
    int msgh = push_traceback(h, base);
    lua_pushcfunction(L, run_body);
    lua_pushlightuserdata(L, c);
    if (limited_pcall(h, c->ctx, 1, 0, base, msgh) < 0) return -1;
    lua_settop(L, base);
    return 0;
}

static lua_host *ctx_host(lua_State *L, carc_ctx **ctx)
{
    lua_host *h = host_of(L);
    if (!h->cur) luaL_error(L, "carc is not available here");
    *ctx = h->cur;
    return h;
}

#define CTX(L) carc_ctx *ctx; ctx_host(L, &ctx)

/* An API call that failed stops the script with the API's message. A
 * refusal stops the game: its failure stays, so a script that catches the
 * error (pcall) plays no further. The message gets the script's place. */
static int checked(lua_State *L, carc_ctx *ctx, int rc)
{
    if (rc < 0) {
        char m[512];
        const char *src = ctx->g ? ctx->g->error : ctx->rules->reg_error;
        snprintf(m, sizeof m, "%s", src && *src ? src : "carc call failed");
        char where[300] = "";
        lua_Debug ar; /* the script's line that made the call, through pcall and other C functions */
        for (int level = 1; level < 32 && lua_getstack(L, level, &ar); level++)
            if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
                snprintf(where, sizeof where, "%s:%d: ", ar.short_src, ar.currentline);
                break;
            }
        if (ctx->g && ctx->g->failed && *where) {
            /* "NAME: refusal" becomes "NAME: file:line: refusal" */
            const char *rest = strstr(m, ": ");
            size_t head = rest ? (size_t)(rest - m) + 2 : 0;
            snprintf(ctx->g->error, sizeof ctx->g->error, "%.*s%s%s", (int)head, m, where, m + head);
        } else if (!ctx->g && *where) {
            snprintf(ctx->rules->reg_error, sizeof ctx->rules->reg_error, "%s%s", where, m);
        }
        return luaL_error(L, "%s", m);
    }
    return rc;
}

/* ---- options as tables: {code=, tile=, seg=, a=, b=, c=} ------------------------------------ */

/* Pushes the table lent at *ref (made on first use with the metatable the
 * registry holds under meta, then kept in the registry), or a fresh one past
 * the reuse depth (ref NULL). Setting fields of a table that has them
 * already allocates nothing. */
static void push_lent(lua_State *L, int *ref, int fields, const char *meta)
{
    if (ref && *ref != LUA_NOREF && *ref != LUA_REFNIL) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, *ref);
        if (lua_istable(L, -1)) return;
        lua_pop(L, 1);
    }
    lua_host *h = host_of(L);
    /* A table kept is made by the first call that needs it: not that call's work. */
    bool was = h->uncharged;
    h->uncharged = ref != NULL;
    lua_createtable(L, 0, fields);
    if (ref) {
        /* Kept from call to call: only carc's own fields can be set. */
        lua_getfield(L, LUA_REGISTRYINDEX, meta);
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    h->uncharged = was;
}

/* __newindex of the tables lent from call to call: a field of the script's
 * own there would be seen by its next call, in another game or in a bot's
 * trial move. carc's fields (nil for this call) can be set. */
static int lent_newindex(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int i = 0; k && i < NKEYS; i++) {
        if (strcmp(k, key_names[i]) == 0) {
            lua_settop(L, 3);
            lua_rawset(L, 1);
            return 0;
        }
    }
    luaL_where(L, 1);
    lua_pushfstring(L, "the table carc gives this call has no field '%s' (it is given again to later calls): "
                       "keep game state in carc.state",
                    k ? k : luaL_typename(L, 2));
    lua_concat(L, 2);
    return lua_error(L);
}

/* The lent tables of the call running now, NULL past the reuse depth. */
#define LENT(h, field) ((h)->depth >= 1 && (h)->depth <= LUA_HOST_LENT_DEPTH ? &(h)->lent[(h)->depth - 1].field : NULL)

/* Fills the option table on the stack top. */
static void fill_option(lua_State *L, const carc_option *o)
{
    set_int(L, K_code, o->code);
    set_int(L, K_tile, o->tile);
    set_int(L, K_seg, o->seg);
    set_int(L, K_a, o->arg[0]);
    set_int(L, K_b, o->arg[1]);
    set_int(L, K_c, o->arg[2]);
    lua_pushboolean(L, o->owner == 0);
    set_top(L, K_kernel);
}

/* A fresh option table: the script may keep it (offered_at). */
static void push_option(lua_State *L, const carc_option *o)
{
    lua_createtable(L, 0, 7);
    fill_option(L, o);
}

/* The option table lent for this call (format, apply, ev.option). */
static void lend_option(lua_State *L, const carc_option *o)
{
    push_lent(L, LENT(host_of(L), option), 8, "carc.lent");
    fill_option(L, o);
    lua_pushnil(L); /* set again by a handler's event: not left from an earlier call */
    set_top(L, K_mine);
}

/* t[key] as an int, def when absent; raw read: a value carc reads back does
 * not run script code. */
static int field_int(lua_State *L, int idx, int key, int def)
{
    idx = lua_absindex(L, idx);
    push_key(L, key);
    if (lua_istable(L, idx)) lua_rawget(L, idx);
    else lua_gettable(L, idx);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum && !lua_isnil(L, -1)) luaL_error(L, "field '%s' must be an integer", key_names[key]);
    if (isnum && (v < INT_MIN || v > INT_MAX)) luaL_error(L, "field '%s' is out of range", key_names[key]);
    lua_pop(L, 1);
    return isnum ? (int)v : def;
}

static int event_fill(lua_State *L);

static carc_option read_option(lua_State *L, int idx)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    idx = lua_absindex(L, idx);
    /* An event table lent to a handler is filled as it is read: whole
     * before the raw reads (carc.offer(ev) carries the event's tile). */
    if (lua_getmetatable(L, idx)) {
        lua_getfield(L, LUA_REGISTRYINDEX, "carc.lent.event");
        bool lazy = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (lazy) {
            lua_pushcfunction(L, event_fill);
            lua_pushvalue(L, idx);
            lua_call(L, 1, 0);
        }
    }
    carc_option o;
    memset(&o, 0, sizeof o);
    o.code = (uint16_t)field_int(L, idx, K_code, 0);
    o.tile = field_int(L, idx, K_tile, -1);
    o.seg = field_int(L, idx, K_seg, -1);
    o.arg[0] = field_int(L, idx, K_a, 0);
    o.arg[1] = field_int(L, idx, K_b, 0);
    o.arg[2] = field_int(L, idx, K_c, 0);
    return o;
}

static void fill_award(lua_State *L, const carc_award *a)
{
    set_int(L, K_player, a->player);
    set_int(L, K_points, a->points);
    set_int(L, K_reason, a->reason);
    set_int(L, K_feature, a->feature);
    set_int(L, K_step, a->step);
    set_int(L, K_flags, a->flags);
}

static void push_award(lua_State *L, const carc_award *a)
{
    lua_createtable(L, 0, 6);
    fill_award(L, a);
}

/* ---- the trampolines: kernel -> script -------------------------------------------------- */

/* The event's fields, in the order of KEYS. */
#define EVENT_KEY(k) ((k) >= K_type && (k) <= K_option)

/* Pushes field k of the event; award and option: the tables lent at depth
 * d, filled now (new ones when d is -1, past the reuse depth). */
static void push_event_field(lua_State *L, lua_host *h, const carc_event *ev, int owner, int d, int k)
{
    switch (k) {
    case K_type:
        if (ev->type >= 0 && ev->type < CARC_EV_COUNT) lua_rawgeti(L, LUA_REGISTRYINDEX, h->type_ref[ev->type]);
        else lua_pushstring(L, carc_event_name(ev->type));
        break;
    case K_player: lua_pushinteger(L, ev->player); break;
    case K_tile: lua_pushinteger(L, ev->tile); break;
    case K_feature: lua_pushinteger(L, ev->feature); break;
    case K_figure: lua_pushinteger(L, ev->figure); break;
    case K_value: lua_pushinteger(L, ev->value); break;
    case K_flags: lua_pushinteger(L, ev->flags); break;
    case K_award:
        if (ev->award) {
            push_lent(L, d >= 0 ? &h->lent[d].award : NULL, 6, "carc.lent");
            fill_award(L, ev->award);
        } else {
            lua_pushnil(L);
        }
        break;
    case K_option:
        if (ev->option) {
            push_lent(L, d >= 0 ? &h->lent[d].option : NULL, 8, "carc.lent");
            fill_option(L, ev->option);
            lua_pushboolean(L, ev->option->owner == owner);
            set_top(L, K_mine);
        } else {
            lua_pushnil(L);
        }
        break;
    default: lua_pushnil(L);
    }
}

/* The depth whose event table is at idx, or -1 (a call that has ended). */
static int lent_event_depth(lua_State *L, lua_host *h, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE) return -1;
    const void *t = lua_topointer(L, idx); /* the registry keeps each lent table alive: its address is its own */
    for (int d = (h->depth < LUA_HOST_LENT_DEPTH ? h->depth : LUA_HOST_LENT_DEPTH) - 1; d >= 0; d--)
        if (h->lent[d].src && h->lent[d].ev_table == t) return d;
    return -1;
}

/* The event key named by the string at idx, or -1. */
static int event_key(lua_State *L, int idx)
{
    const char *k = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
    const lua_host *h = host_of(L);
    for (int i = K_type; k && i <= K_option; i++)
        if (k == h->key_text[i]) return i; /* interned: the same text is the same string */
    return -1;
}

/* __index of a lent event table: a field read first in this call is put in
 * the table (then read like any field); one set to nil stays nil. */
static int event_index(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1), k = event_key(L, 2);
    if (d < 0 || k < 0 || (h->lent[d].shown >> k & 1u)) {
        lua_pushnil(L);
        return 1;
    }
    h->lent[d].shown |= 1u << k;
    push_event_field(L, h, h->lent[d].src, h->lent[d].owner, d, k);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    return 1;
}

/* __newindex of a lent event table: carc's fields only (lent_newindex). */
static int event_newindex(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1), k = event_key(L, 2);
    if (d >= 0 && k >= 0) h->lent[d].shown |= 1u << k;
    return lent_newindex(L);
}

/* Fills every field not yet in the table (raw access and iteration see the
 * whole event). */
static int event_fill(lua_State *L)
{
    lua_host *h = host_of(L);
    int d = lent_event_depth(L, h, 1);
    for (int k = K_type; d >= 0 && k <= K_option; k++) {
        if (h->lent[d].shown >> k & 1u) continue;
        h->lent[d].shown |= 1u << k;
        push_key(L, k);
        push_event_field(L, h, h->lent[d].src, h->lent[d].owner, d, k);
        lua_rawset(L, 1);
    }
    return 0;
}

/* Pushes the event table for this call: past the reuse depth a new one,
 * filled; else the table lent at this depth, emptied of the fields the last
 * call there saw, filled as the handler reads it. */
static void push_event(lua_State *L, lua_host *h, int d, const carc_event *ev, int owner)
{
    if (d < 0 || d >= LUA_HOST_LENT_DEPTH) {
        lua_createtable(L, 0, 10);
        for (int k = K_type; k <= K_option; k++) {
            push_event_field(L, h, ev, owner, -1, k);
            set_top(L, k);
        }
        return;
    }
    if (h->lent[d].ev == LUA_NOREF) {
        push_lent(L, &h->lent[d].ev, 10, "carc.lent.event");
        h->lent[d].ev_table = lua_topointer(L, -1);
    } else {
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->lent[d].ev);
        /* Only a field that holds a value is set to nil: that changes its
         * slot in place (allocates nothing, cannot fail). */
        for (int k = K_type; h->lent[d].shown && k <= K_option; k++) {
            if (!(h->lent[d].shown >> k & 1u)) continue;
            push_key(L, k);
            if (lua_rawget(L, -2) == LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
            push_key(L, k);
            lua_pushnil(L);
            lua_rawset(L, -3);
        }
    }
    h->lent[d].src = ev;
    h->lent[d].owner = owner;
    h->lent[d].shown = 0;
}

/* t[key] of the table at idx (raw) into *out, def when nil; false when it
 * is not an integer in range, with why in err. Raises no error. */
static bool read_back_int(lua_State *L, int idx, int key, int def, int *out, char *err, size_t errn)
{
    push_key(L, key);
    lua_rawget(L, idx < 0 ? idx - 1 : idx);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    bool nil = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!isnum && !nil) snprintf(err, errn, "field '%s' must be an integer", key_names[key]);
    else if (isnum && (v < INT_MIN || v > INT_MAX)) snprintf(err, errn, "field '%s' is out of range", key_names[key]);
    else {
        *out = isnum ? (int)v : def;
        return true;
    }
    return false;
}

/* What the handler changed, from the event table at idx: ev.value and
 * ev.award's points and reason, raw reads of the fields it touched (read
 * or wrote; one it did not is not in a lent table, so it keeps its value).
 * Written only once all are read: a bad field changes nothing. */
static bool read_back_event(lua_State *L, int idx, uint32_t touched, carc_event *ev, char *err, size_t errn)
{
    if (!(touched & (1u << K_value | 1u << K_award))) return true; /* most handlers: nothing to read */
    idx = lua_absindex(L, idx);
    int value = ev->value, points = ev->award ? ev->award->points : 0, reason = ev->award ? ev->award->reason : 0;
    if ((touched >> K_value & 1u) && !read_back_int(L, idx, K_value, ev->value, &value, err, errn)) return false;
    if (ev->award && (touched >> K_award & 1u)) {
        push_key(L, K_award);
        bool ok = true;
        if (lua_rawget(L, idx) == LUA_TTABLE)
            ok = read_back_int(L, -1, K_points, points, &points, err, errn) &&
                 read_back_int(L, -1, K_reason, reason, &reason, err, errn); /* relabel */
        lua_pop(L, 1);
        if (!ok) return false;
    }
    ev->value = value;
    if (ev->award) {
        ev->award->points = points;
        ev->award->reason = reason;
    }
    return true;
}

static int kv_find(const kv_store *s, const char *key, uint32_t hash);

/* Whether the handler or phase is to be called: one that waits for a
 * carc.state key is called only while the key holds a value in this game
 * (a lookup here instead of a call into Lua that would return at once). */
static bool has_work(const lua_fn *fn, carc_ctx *ctx)
{
    if (!fn->wait_key[0] || !ctx->g) return true;
    const kv_store *s = API->state(ctx);
    return !s || kv_find(s, fn->wait_key, fn->wait_hash) >= 0;
}

/* A handler's call past the lent tables' depth, or the first at a depth
 * (whose table is made here, under protection: the heap may be full). */
static int handler_body(lua_State *L, host_call *c)
{
    lua_host *h = host_of(L);
    int d = h->depth - 1;
    push_event(L, h, d, c->ev, c->ctx->owner); /* 2, kept to read back what the handler changed; 1 is the handler */
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 1, 0);
    char err[128];
    if (!read_back_event(L, 2, d >= 0 && d < LUA_HOST_LENT_DEPTH ? h->lent[d].shown : ~0u, c->ev, err, sizeof err))
        return luaL_error(L, "%s", err);
    return 0;
}

/* The event: a table lent for this call and filled as it is read (no table
 * built per event, nothing set that the handler does not read;
 * docs/lua-guide.md). Once the table of this depth exists, preparing it
 * cannot fail (it is emptied, nothing is allocated), so the handler itself
 * is the protected call. */
static int lua_handler(carc_ctx *ctx, carc_event *ev)
{
    lua_fn *fn = ctx->user;
    if (!has_work(fn, ctx)) return 0;
    lua_host *h = fn->h;
    lua_State *L = h->L;
    int d = h->depth, base = lua_gettop(L);
    if (d >= LUA_HOST_LENT_DEPTH || h->lent[d].ev == LUA_NOREF || (!outermost(h, base) && !lua_checkstack(L, 4))) {
        host_call c = {.body = handler_body, .ctx = ctx, .ref = fn->ref, .ev = ev};
        return protected_call(h, &c);
    }
    int msgh = push_traceback(h, base);
    push_event(L, h, d, ev, ctx->owner);
    int event = msgh + 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn->ref);
    lua_pushvalue(L, event);
    if (limited_pcall(h, ctx, 1, 0, base, msgh) < 0) return -1;
    char err[128];
    bool ok = read_back_event(L, event, h->lent[d].shown, ev, err, sizeof err);
    lua_settop(L, base);
    if (!ok) return api_error(ctx, err), -1;
    return 0;
}

/* A phase step: the function is the protected call (nothing it is given or
 * returns needs building or can fail). */
static int lua_phase(carc_ctx *ctx, int step)
{
    lua_fn *fn = ctx->user;
    if (!has_work(fn, ctx)) return CARC_PHASE_DONE;
    lua_host *h = fn->h;
    lua_State *L = h->L;
    int base = lua_gettop(L);
    if (!outermost(h, base) && !lua_checkstack(L, 3)) return api_error(ctx, "not enough memory"), -1;
    int msgh = push_traceback(h, base);
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn->ref);
    lua_pushinteger(L, step);
    if (limited_pcall(h, ctx, 1, 1, base, msgh) < 0) return -1;
    int result = CARC_PHASE_DONE;
    if (lua_type(L, -1) == LUA_TSTRING) { /* a string as it is: nothing converted */
        const char *s = lua_tostring(L, -1);
        result = strcmp(s, "again") == 0 ? CARC_PHASE_AGAIN : strcmp(s, "end-game") == 0 ? CARC_PHASE_END_GAME : CARC_PHASE_DONE;
    }
    lua_settop(L, base);
    return result;
}

static int format_body(lua_State *L, host_call *c)
{
    lend_option(L, c->opt);
    lua_call(L, 1, 1);
    size_t len;
    const char *s = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER ? lua_tolstring(L, -1, &len) : NULL;
    if (!s) s = "?", len = 1;
    if (c->n == 0) len = 0;
    else if (len > c->n - 1) len = c->n - 1;
    for (size_t i = 0; i < len; i++) c->buf[i] = s[i] ? s[i] : '?'; /* a NUL would cut the text short */
    if (c->n) c->buf[len] = 0;
    return 0;
}

static int lua_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    lua_host *h = ctx->user;
    if (h->format_ref == LUA_NOREF) return -1;
    host_call c = {.body = format_body, .ctx = ctx, .ref = h->format_ref, .opt = opt, .buf = buf, .n = n};
    return protected_call(h, &c);
}

static int apply_body(lua_State *L, host_call *c)
{
    lend_option(L, c->opt);
    lua_pushinteger(L, c->arg);
    lua_call(L, 2, 0);
    return 0;
}

static int lua_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    lua_host *h = ctx->user;
    if (h->apply_ref == LUA_NOREF) return api_error(ctx, "the script offered an option but set no carc.apply");
    host_call c = {.body = apply_body, .ctx = ctx, .ref = h->apply_ref, .opt = opt, .arg = player};
    return protected_call(h, &c);
}

static int init_body(lua_State *L, host_call *c)
{
    (void)c;
    lua_call(L, 0, 0);
    return 0;
}

static int lua_game_init(carc_ctx *ctx)
{
    lua_host *h = ctx->user;
    h->turn_game = 0; /* a new game: its turns start afresh */
    if (h->init_ref == LUA_NOREF) return 0;
    host_call c = {.body = init_body, .ctx = ctx, .ref = h->init_ref};
    return protected_call(h, &c);
}

/* ---- carc.state: a key-value store inside the game ---------------------------------------- */

static kv_store *kv(lua_State *L)
{
    CTX(L);
    if (!ctx->g) luaL_error(L, "carc.state belongs to a game: use it in handlers, not at load time");
    return API->state(ctx);
}

static void kv_key(lua_State *L, int idx, char *out)
{
    if (lua_type(L, idx) == LUA_TNUMBER && lua_isinteger(L, idx)) {
        snprintf(out, 24, "#%lld", (long long)lua_tointeger(L, idx));
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len == 0 || len > 23) luaL_error(L, "carc.state keys are 1 to 23 characters");
        if (s[0] == '#') luaL_error(L, "carc.state keys do not start with '#' (integer keys are stored that way)");
        memcpy(out, s, len + 1);
    } else {
        luaL_error(L, "carc.state keys are strings or integers");
    }
}

/* The store keeps its entries in use first (a deleted one takes the last
 * one's place), each with its key's hash: a lookup compares the hashes of
 * the few entries a script keeps. The same operations give the same
 * layout, so the state stays deterministic. */
static uint32_t kv_hash_n(const char *key, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 16777619u;
    return h;
}

static uint32_t kv_hash(const char *key) { return kv_hash_n(key, strlen(key)); }

/* The entry holding the key of len bytes (no NUL among them), or -1. */
static int kv_find_n(const kv_store *s, const char *key, size_t len, uint32_t hash)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->e[i].hash == hash && memcmp(s->e[i].key, key, len) == 0 && s->e[i].key[len] == 0) return (int)i;
    return -1;
}

static int kv_find(const kv_store *s, const char *key, uint32_t hash) { return kv_find_n(s, key, strlen(key), hash); }

/* The bytes of a store in use (the kernel's copies stop there). */
static size_t kv_used(const unsigned char *block)
{
    const kv_store *s = (const kv_store *)(const void *)block;
    uint32_t n = s->n < LUA_STATE_ENTRIES ? s->n : LUA_STATE_ENTRIES;
    return offsetof(kv_store, e) + n * sizeof(kv_entry);
}

static int kv_index(lua_State *L)
{
    kv_store *s = kv(L);
    size_t len = 0;
    const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    int i;
    if (name && len >= 1 && len <= 23 && name[0] != '#' && !memchr(name, 0, len)) {
        i = kv_find_n(s, name, len, kv_hash_n(name, len)); /* a read compares the key where it is */
    } else {
        char key[24] = {0};
        kv_key(L, 2, key); /* integer keys, and the errors */
        i = kv_find(s, key, kv_hash(key));
    }
    if (i < 0) {
        lua_pushnil(L);
        return 1;
    }
    const kv_entry *e = &s->e[i];
    if (e->type == LUA_TBOOLEAN) lua_pushboolean(L, (int)e->v.i);
    else if (e->type == LUA_TSTRING) lua_pushstring(L, e->v.s);
    else if (e->is_int) lua_pushinteger(L, e->v.i);
    else lua_pushnumber(L, e->v.d);
    return 1;
}

static int kv_newindex(lua_State *L)
{
    kv_store *s = kv(L);
    char key[24] = {0}; /* whole buffer defined: the state is compared and copied byte for byte */
    kv_key(L, 2, key);
    int t = lua_type(L, 3);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TNUMBER && t != LUA_TSTRING)
        return luaL_error(L, "carc.state holds numbers, booleans and strings (not %s)", lua_typename(L, t));
    uint32_t hash = kv_hash(key);
    int slot = kv_find(s, key, hash);
    if (t == LUA_TNIL) {
        if (slot >= 0) {
            uint32_t last = s->n - 1;
            if ((uint32_t)slot != last) s->e[slot] = s->e[last];
            memset(&s->e[last], 0, sizeof s->e[last]);
            s->n = last;
        }
        return 0;
    }
    if (slot < 0) {
        if (s->n >= LUA_STATE_ENTRIES) return luaL_error(L, "carc.state is full (%d entries)", LUA_STATE_ENTRIES);
        slot = (int)s->n;
    }
    kv_entry e = {0};
    memcpy(e.key, key, sizeof e.key);
    e.hash = hash;
    e.type = (uint8_t)t;
    if (t == LUA_TBOOLEAN) {
        e.v.i = lua_toboolean(L, 3);
    } else if (t == LUA_TSTRING) {
        size_t len;
        const char *v = lua_tolstring(L, 3, &len);
        if (len > 31) return luaL_error(L, "carc.state strings are at most 31 bytes");
        memcpy(e.v.s, v, len + 1);
    } else if (lua_isinteger(L, 3)) {
        e.is_int = 1;
        e.v.i = lua_tointeger(L, 3);
    } else {
        e.v.d = lua_tonumber(L, 3);
    }
    s->e[slot] = e;
    if ((uint32_t)slot == s->n) s->n++;
    return 0;
}

/* ---- the carc table: the API for scripts ---------------------------------------------------- */

/* The function at idx, and the carc.state key at wait_idx it waits for
 * (none or nil: it waits for nothing). */
static lua_fn *new_fn(lua_State *L, int idx, int wait_idx)
{
    luaL_checktype(L, idx, LUA_TFUNCTION);
    char wait[24] = "";
    if (!lua_isnoneornil(L, wait_idx)) kv_key(L, wait_idx, wait); /* a bad key is refused as carc.state refuses it */
    lua_host *h = host_of(L);
    lua_fn *fn = lua_newuserdatauv(L, sizeof *fn, 0); /* owned by the Lua state */
    fn->h = h;
    memcpy(fn->wait_key, wait, sizeof wait);
    fn->wait_hash = wait[0] ? kv_hash(wait) : 0;
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
    return checked(L, ctx, API->on(ctx, ev, lua_handler, fn)), 0;
}

static int l_add_phase(lua_State *L)
{
    CTX(L);
    const char *name = luaL_checkstring(L, 1), *where = luaL_checkstring(L, 2), *anchor = luaL_checkstring(L, 3);
    lua_fn *fn = new_fn(L, 4, 5);
    return checked(L, ctx, API->add_phase(ctx, name, where, anchor, lua_phase, fn)), 0;
}

/* carc.phase_needs_tile_mark(name, tile_mark): carc_api.phase_needs_tile_mark. */
static int l_phase_needs_tile_mark(lua_State *L)
{
    CTX(L);
    const char *name = luaL_checkstring(L, 1);
    lua_Integer mark = luaL_checkinteger(L, 2);
    int m = mark < 0 || mark > INT_MAX ? -1 : (int)mark;
    return checked(L, ctx, API->phase_needs_tile_mark(ctx, name, m)), 0;
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
    lua_pushinteger(L, checked(L, ctx, API->define_kind(ctx, luaL_checkstring(L, 1), completion_of(L, luaL_checkstring(L, 2)), flags)));
    return 1;
}

/* carc.define_figure(name, per_player [, {follower=, deployable=, strength=,
 * stands_on={"road", ...} or "road city", boxed_when_scored=,
 * boxed_when_removed=}]) */
static int l_define_figure(lua_State *L)
{
    CTX(L);
    int flags = (opt_flag(L, 3, "follower") ? CARC_FIGURE_FOLLOWER : 0) |
                (opt_flag(L, 3, "boxed_when_scored") ? CARC_FIGURE_BOXED_WHEN_SCORED : 0) |
                (opt_flag(L, 3, "deployable") ? CARC_FIGURE_DEPLOYABLE : 0) |
                (opt_flag(L, 3, "boxed_when_removed") ? CARC_FIGURE_BOXED_WHEN_REMOVED : 0);
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
    lua_pushinteger(L, checked(L, ctx, API->define_figure_kind(ctx, &def)));
    return 1;
}

#define NAME_FN(lname, call)                                                   \
    static int lname(lua_State *L)                                             \
    {                                                                          \
        CTX(L);                                                                \
        lua_pushinteger(L, checked(L, ctx, API->call(ctx, luaL_checkstring(L, 1)))); \
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
    lua_pushinteger(L, checked(L, ctx, API->define_option_int(ctx, luaL_checkstring(L, 1), (int)luaL_checkinteger(L, 2),
                                                                (int)luaL_checkinteger(L, 3), (int)luaL_checkinteger(L, 4),
                                                                luaL_optstring(L, 5, ""))));
    return 1;
}

static int l_option_enum(lua_State *L)
{
    CTX(L);
    lua_pushinteger(L, checked(L, ctx, API->define_option_enum(ctx, luaL_checkstring(L, 1), luaL_checkstring(L, 2),
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
        charge(L, (id - start) / 8.0); /* the figures skipped: work no instruction counts */
        lua_pushinteger(L, id);
        return 1 + push_figure_fields(L, &fi);
    }
    charge(L, (n - start) / 8.0);
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
    if (tile < 0 || tile >= ctx->g->ntiles) return 0;
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

/* A place kind: "segment", "tile", "track", or carc.AT_SEGMENT, AT_TILE,
 * AT_TRACK (the numbers carc.figure() returns in `where`). */
static int where_of(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer w = lua_tointeger(L, idx);
        if (w == CARC_AT_SEGMENT || w == CARC_AT_TILE || w == CARC_AT_TRACK) return (int)w;
        return luaL_error(L, "where is carc.AT_SEGMENT, AT_TILE or AT_TRACK (or 'segment', 'tile', 'track')");
    }
    const char *s = luaL_checkstring(L, idx);
    if (strcmp(s, "segment") == 0) return CARC_AT_SEGMENT;
    if (strcmp(s, "tile") == 0) return CARC_AT_TILE;
    if (strcmp(s, "track") == 0) return CARC_AT_TRACK;
    return luaL_error(L, "where is 'segment', 'tile' or 'track'");
}

/* carc.figure_place(kind, owner, where, tile, seg, space, from_supply) */
static int l_figure_place(lua_State *L)
{
    CTX(L);
    int f = API->figure_place(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), where_of(L, 3),
                              (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, -1), (int)luaL_optinteger(L, 6, 0),
                              lua_toboolean(L, 7));
    lua_pushinteger(L, checked(L, ctx, f));
    return 1;
}

static int l_figure_move(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->figure_move(ctx, (int)luaL_checkinteger(L, 1), where_of(L, 2), (int)luaL_optinteger(L, 3, -1),
                                     (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, 0)));
    return 0;
}

static int l_figure_remove(lua_State *L)
{
    CTX(L);
    const char *how = luaL_optstring(L, 2, "supply");
    int h = strcmp(how, "box") == 0 ? CARC_GONE_BOX : CARC_GONE_RETURNED;
    checked(L, ctx, API->figure_remove(ctx, (int)luaL_checkinteger(L, 1), h));
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
        o = read_option(L, 1);
    }
    checked(L, ctx, API->offer(ctx, &o));
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
    int n = checked(L, ctx, API->offer_walks(ctx, start, steps, &o));
    charge(L, n); /* a walk offered here is about one instruction's work */
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
    int n = checked(L, ctx, API->offer_figures(ctx, (int)owner, where, (uint32_t)kinds,
                                               except < -1 || except > INT_MAX ? -1 : (int)except, &o));
    charge(L, API->figures(ctx) / 8.0 + n); /* the figures looked at, as carc.each_figure charges them */
    lua_pushinteger(L, n);
    return 1;
}

static int l_offered_at(lua_State *L)
{
    CTX(L);
    const carc_option *o = API->offered_at(ctx, (int)luaL_checkinteger(L, 1));
    if (!o) return 0;
    push_option(L, o);
    return 1;
}

static int l_veto(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->veto(ctx, (int)luaL_checkinteger(L, 1)));
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
    if (n < 0 || n > 10000) return luaL_error(L, "ask: 0 to 10000 options");
    /* Lua memory: charged to the script, freed whatever error the reading raises. */
    carc_option *opts = lua_newuserdatauv(L, ((size_t)n + 1) * sizeof *opts, 0);
    memset(opts, 0, ((size_t)n + 1) * sizeof *opts);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 3, i);
        if (!lua_istable(L, -1)) return luaL_error(L, "ask: option %d is not a table", (int)i);
        opts[i - 1] = read_option(L, lua_gettop(L));
        lua_pop(L, 1);
    }
    checked(L, ctx, API->ask(ctx, player, label, opts, (int)n));
    return 0;
}

static int l_award(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->award(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3),
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
    int n = checked(L, ctx, API->award_figures_on(ctx, tile < -1 || tile > INT_MAX ? -1 : (int)tile, where,
                                                  (uint32_t)kinds, (int)points,
                                                  reason < -1 || reason > INT_MAX ? -1 : (int)reason));
    charge(L, n); /* the awards' own handlers are charged as they run */
    lua_pushinteger(L, n);
    return 1;
}

static int l_batch_add(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->batch_add(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3),
                                   (int)luaL_optinteger(L, 4, -1), (int)luaL_optinteger(L, 5, 0)));
    return 0;
}

static int l_batch_commit(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->batch_commit(ctx, (int)luaL_optinteger(L, 1, 0)));
    return 0;
}

static int l_batch_at(lua_State *L)
{
    CTX(L);
    carc_award *a = API->batch_at(ctx, (int)luaL_checkinteger(L, 1));
    if (!a) return 0;
    push_award(L, a);
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
    checked(L, ctx, API->score_feature(ctx, (int)luaL_checkinteger(L, 1), lua_toboolean(L, 2)));
    return 0;
}

static int l_return_followers(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->return_followers(ctx, (int)luaL_checkinteger(L, 1)));
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
    lua_pushinteger(L, checked(L, ctx, API->deploy_elsewhere(ctx, (int)luaL_checkinteger(L, 1))));
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
    checked(L, ctx, API->batch_withdraw(ctx, (int)luaL_checkinteger(L, 1)));
    return 0;
}

static int l_set_majority_strength(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->set_majority_strength(ctx, (int)luaL_checkinteger(L, 1), (int)luaL_checkinteger(L, 2)));
    return 0;
}

static int l_extra_turn(lua_State *L)
{
    CTX(L);
    checked(L, ctx, API->extra_turn(ctx));
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

/* math.random from the game's generator, with Lua's own argument rules. */
static int l_random(lua_State *L)
{
    CTX(L);
    if (!ctx->g) return luaL_error(L, "math.random needs a game (not at load time)");
    lua_Integer lo = 1, hi;
    switch (lua_gettop(L)) {
    case 0: {
        uint32_t a = API->random(ctx, 1u << 26), b = API->random(ctx, 1u << 27);
        lua_pushnumber(L, (a * 134217728.0 + b) / 9007199254740992.0);
        return 1;
    }
    case 1: hi = luaL_checkinteger(L, 1); break;
    default: lo = luaL_checkinteger(L, 1); hi = luaL_checkinteger(L, 2); break;
    }
    /* The width in unsigned arithmetic: hi - lo overflows for the widest intervals. */
    lua_Unsigned width = (lua_Unsigned)hi - (lua_Unsigned)lo;
    luaL_argcheck(L, lo <= hi && width < 0xffffffffu, 1, "interval is empty or too large");
    lua_pushinteger(L, lo + (lua_Integer)API->random(ctx, (uint32_t)(width + 1)));
    return 1;
}

static int l_randomseed(lua_State *L)
{
    return luaL_error(L, "math.randomseed is not available: the game's seed decides every draw");
}

/* print: to the standard error, control characters escaped, charged
 * like the strings it writes, and capped per call and per game. */
static int l_print(lua_State *L)
{
    lua_host *h = host_of(L);
    kv_store *s = h->cur && h->cur->g ? API->state(h->cur) : NULL;
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addchar(&b, '[');
    luaL_addstring(&b, h->ps->name);
    luaL_addchar(&b, ']');
    for (int i = 1; i <= n; i++) {
        size_t len;
        luaL_addchar(&b, ' ');
        lua_determinism_tostring(L, i, &len); /* __tostring runs under the call's limits */
        charge(L, 1 + (double)len / 16);
        if (h->printed + luaL_bufflen(&b) + len > LUA_HOST_PRINT_CALL ||
            (s && s->printed + luaL_bufflen(&b) + len > LUA_HOST_PRINT_GAME))
            stop(L, h, STOP_OUTPUT);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t len;
    const char *line = lua_tolstring(L, -1, &len);
    h->printed += len;
    if (s) s->printed += len;
    term_write(stderr, line, len);
    return 0;
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
    {"offer", l_offer}, {"offer_walks", l_offer_walks}, {"offer_figures", l_offer_figures}, {"offered", l_offered}, {"offered_at", l_offered_at}, {"veto", l_veto},
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

/* ---- the sandbox ------------------------------------------------------------------------------ */

/* Copies the named fields of a library into a fresh table in env. */
static void copy_lib(lua_State *L, int env, const char *lib, const char *const *names)
{
    lua_getglobal(L, lib);
    int src = lua_gettop(L);
    lua_newtable(L);
    for (const char *const *n = names; *n; n++) {
        lua_getfield(L, src, *n);
        lua_setfield(L, -2, *n);
    }
    lua_setfield(L, env, lib);
    lua_pop(L, 1);
}

static const char *const base_safe[] = {"assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
                                        "tostring", "type", "xpcall", "rawequal", "rawget", "rawset", "rawlen",
                                        "setmetatable", "getmetatable", "_VERSION", NULL};
static const char *const co_safe[] = {"isyieldable", "resume", "running", "status", "yield", "close", NULL};
static const char *const table_safe[] = {"concat", "insert", "move", "pack", "remove", "sort", "unpack", NULL};
static const char *const string_safe[] = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower",
                                          "match", "rep", "reverse", "sub", "upper", "pack", "packsize", "unpack", NULL};
static const char *const math_safe[] = {"abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max",
                                        "maxinteger", "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt",
                                        "tan", "tointeger", "type", "ult", NULL};
static const char *const utf8_safe[] = {"char", "charpattern", "codes", "codepoint", "len", "offset", NULL};

/* t[name] = fn with the old t[name] as its upvalue. */
static void wrap_field(lua_State *L, int t, const char *name, lua_CFunction fn)
{
    t = lua_absindex(L, t);
    lua_getfield(L, t, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, t, name);
}

/* A metatable that the script cannot read or replace (__metatable is its
 * name), with __index (if given) and __newindex. */
static void push_metatable(lua_State *L, lua_CFunction index, lua_CFunction newindex, const char *name)
{
    lua_createtable(L, 0, 3);
    if (index) {
        lua_pushcfunction(L, index);
        lua_setfield(L, -2, "__index");
    }
    lua_pushcfunction(L, newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");
}

/* Builds the sandbox environment on the stack top. */
static void build_env(lua_State *L)
{
    lua_newtable(L);
    int env = lua_gettop(L);
    lua_pushglobaltable(L);
    for (const char *const *n = base_safe; *n; n++) {
        lua_getfield(L, -1, *n);
        lua_setfield(L, env, *n);
    }
    lua_pop(L, 1);
    copy_lib(L, env, "coroutine", co_safe);
    copy_lib(L, env, "table", table_safe);
    copy_lib(L, env, "string", string_safe);
    copy_lib(L, env, "math", math_safe);
    copy_lib(L, env, "utf8", utf8_safe);
    lua_getfield(L, env, "coroutine");
    lua_pushcfunction(L, sandbox_cocreate);
    lua_setfield(L, -2, "create");
    wrap_field(L, -1, "resume", sandbox_coresume);
    wrap_field(L, -1, "close", sandbox_coclose);
    lua_pop(L, 1);
    wrap_field(L, env, "xpcall", sandbox_xpcall);
    lua_getfield(L, env, "math");
    lua_pushcfunction(L, l_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, l_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    lua_pushcfunction(L, l_print);
    lua_setfield(L, env, "print");
    lua_determinism_install(L, env, charge);
    lua_guard_install(L, env, charge);
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    /* carc, and carc.state */
    luaL_newlib(L, carc_funcs);
    luaL_setfuncs(L, carc_fast_funcs, 0);
    static const struct { const char *name; int value; } constants[] = {
        {"AT_NONE", CARC_AT_NONE}, {"AT_SEGMENT", CARC_AT_SEGMENT}, {"AT_TILE", CARC_AT_TILE},
        {"AT_TRACK", CARC_AT_TRACK}, {"AWARD_UNROBBABLE", CARC_AWARD_UNROBBABLE},
        {"AWARD_FINAL", CARC_AWARD_FINAL}, {"AWARD_BONUS", CARC_AWARD_BONUS},
        {"FIGURE_FOLLOWER", CARC_FIGURE_FOLLOWER}, {"FIGURE_BOXED_WHEN_SCORED", CARC_FIGURE_BOXED_WHEN_SCORED},
        {"FIGURE_DEPLOYABLE", CARC_FIGURE_DEPLOYABLE}, {"FIGURE_BOXED_WHEN_REMOVED", CARC_FIGURE_BOXED_WHEN_REMOVED}};
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        lua_pushinteger(L, constants[i].value);
        lua_setfield(L, -2, constants[i].name);
    }
    lua_newuserdatauv(L, 1, 0);
    push_metatable(L, kv_index, kv_newindex, "carc.state");
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, "state");
    lua_setfield(L, env, "carc");
}

/* coroutine.wrap on top of the hooked coroutine.create. */
static const char wrap_src[] =
    "local create, resume = coroutine.create, coroutine.resume\n"
    "coroutine.wrap = function(f)\n"
    "  local co = create(f)\n"
    "  return function(...)\n"
    "    local r = table.pack(resume(co, ...))\n"
    "    if r[1] then return table.unpack(r, 2, r.n) end\n"
    "    error(r[2], 2)\n"
    "  end\n"
    "end\n";

static void host_unload(void *user)
{
    lua_host *h = user;
    if (!h) return;
    if (h->L) lua_close(h->L);
    free_lost_blocks(h);
    free(h);
}

/* The top level, then what it made frozen (lua_determinism.h): both under
 * the call's protection (a script that filled its memory makes the freezing
 * fail, not carc). */
static int top_level_body(lua_State *L, host_call *c)
{
    (void)c;
    lua_call(L, 0, 0);
    lua_getfield(L, LUA_REGISTRYINDEX, "carc.env");
    lua_determinism_freeze(L, -1, host_of(L)->ps->path);
    lua_pop(L, 1);
    return 0;
}

static int host_init(carc_ctx *ctx)
{
    lua_host *h = ctx->user;
    lua_State *L = h->L;
    char err[512];
    size_t len;
    char *src = regular_file_read(h->ps->path, "script", LUA_HOST_SCRIPT_BYTES, &len, err, sizeof err);
    if (!src) return api_error(ctx, err);
    lua_pushfstring(L, "@%s", h->ps->path);
    int rc = luaL_loadbufferx(L, src, len, lua_tostring(L, -1), "t");
    free(src);
    lua_remove(L, -2);
    if (rc != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        api_error(ctx, m ? m : "cannot load");
        lua_pop(L, 1);
        return -1;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, "carc.env");
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    /* Registration happens while the top level runs. */
    API->set_state(ctx, sizeof(kv_store), lua_game_init);
    h->ps->state_used = kv_used;
    API->set_option_fns(ctx, lua_format, lua_apply);
    host_call c = {.body = top_level_body, .ctx = ctx, .ref = luaL_ref(L, LUA_REGISTRYINDEX)};
    rc = protected_call(h, &c);
    luaL_unref(L, LUA_REGISTRYINDEX, c.ref);
    /* A refused registration stays refused, even if the script caught the error. */
    if (rc < 0 || ctx->rules->reg_error[0]) return -1;
    h->closed = true;
    return 0;
}

/* Builds the sandbox in a fresh state (protected: lua_host_load). */
static int setup(lua_State *L)
{
    /* Only the safe libraries are opened at all. */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    lua_settop(L, 0);
    build_env(L);
    if (luaL_loadbufferx(L, wrap_src, sizeof wrap_src - 1, "=wrap", "t") == LUA_OK) {
        lua_pushvalue(L, -2);
        lua_setupvalue(L, -2, 1);
        lua_call(L, 0, 0);
    }
    /* Strings keep their metatable (s:upper()), pointing at the sandbox's copy. */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, -3, "string");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 2);
    lua_determinism_mark_known(L, -1);
    push_metatable(L, NULL, lent_newindex, "carc's table");
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.lent");
    push_metatable(L, event_index, event_newindex, "carc's table");
    lua_determinism_lazy_table(L, -1, event_fill);
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.lent.event");
    lua_setfield(L, LUA_REGISTRYINDEX, "carc.env");
    lua_host *h = host_of(L);
    for (int k = 0; k < NKEYS; k++) {
        h->key_text[k] = lua_pushstring(L, key_names[k]);
        h->key_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int t = 0; t < CARC_EV_COUNT; t++) {
        lua_pushstring(L, carc_event_name(t));
        h->type_ref[t] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

int lua_host_load(struct carc_rules *r, plugin_slot *ps, char *err, size_t errn)
{
    lua_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    h->mem_limit = LUA_HOST_MEMORY;
    h->blocks.prev = h->blocks.next = &h->blocks;
    h->ps = ps;
    h->format_ref = h->apply_ref = h->init_ref = LUA_NOREF;
    for (int d = 0; d < LUA_HOST_LENT_DEPTH; d++) h->lent[d].ev = h->lent[d].award = h->lent[d].option = LUA_NOREF;
    h->L = lua_newstate(limited_alloc, h);
    if (!h->L) {
        free(h);
        snprintf(err, errn, "out of memory");
        return -1;
    }
    lua_State *L = h->L;
    memcpy(lua_getextraspace(L), &h, sizeof h);
    h->budget = LUA_HOST_BUDGET;
    h->started = coarse_now();
    set_hook(L, HOOK_EVERY);
    lua_pushcfunction(L, setup);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        snprintf(err, errn, "%s: cannot set up the sandbox: %s", ps->name, lua_tostring(L, -1));
        host_unload(h);
        return -1;
    }
    lua_pushcfunction(L, traceback); /* at TRACEBACK_SLOT: the stack is empty */
    ps->user = h;
    ps->unload = host_unload;
    if (plugin_register(r, ps, host_init, err, errn) < 0) {
        /* err is "NAME: init failed: path:line: message\ntraceback" */
        ps->user = NULL;
        host_unload(h);
        return -1;
    }
    return 0;
}
