/* lua_limits.c - a script's limits: the memory cap (every block on a list,
 * freed with the state), the instruction budget per call and per turn (a
 * count hook, also in coroutines; allocations charged), the CPU-time
 * backstop per call, and the stop that makes every later instruction of the
 * call fail (lua_host.h has the numbers). */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_host_internal.h"
#include "lua_wrapper.h"

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

void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
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
void script_free_lost_blocks(lua_host *h)
{
    while (h->blocks.next != &h->blocks) {
        alloc_block *b = h->blocks.next;
        block_unlink(b);
        free(b);
    }
}

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
int script_stop(lua_State *L, lua_host *h, int why)
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
    if (cpu > h->cpu_deadline) script_stop(L, h, STOP_TIME);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_host *h = host_of(L);
    h->budget -= lua_gethookcount(L);
    if (h->stopped || h->budget < 0) script_stop(L, h, STOP_BUDGET);
    check_time(L, h);
}

/* Charges work (in instructions) to the running call; stops it when it is
 * over a limit. lua_guard's charge for the work of library functions. */
void script_charge(lua_State *L, double work)
{
    lua_host *h = host_of(L);
    if (work >= (double)h->budget) h->budget = -1;
    else h->budget -= (long)work;
    if (h->stopped || h->budget < 0) script_stop(L, h, STOP_BUDGET);
    if (work >= 4096) check_time(L, h);
}

void script_set_hook(lua_State *L, int every) { lua_sethook(L, count_hook, LUA_MASKCOUNT, every); }

/* coroutine.create with the budget hook on the new thread: hooks are per thread. */
int script_coroutine_create(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *NL = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, NL, 1);
    script_set_hook(NL, CO_HOOK_EVERY);
    return 1;
}

int script_coroutine_resume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    script_charge(L, CO_HOOK_EVERY);
    script_set_hook(co, CO_HOOK_EVERY);
    return lua_wrapper_call_original(L);
}

int script_coroutine_close(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    if (extra_of(co) & THREAD_STOPPED) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "the coroutine was stopped by a limit; its __close handlers are not run");
        return 2;
    }
    return lua_wrapper_call_original(L);
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

int script_xpcall(lua_State *L)
{
    luaL_checkany(L, 2);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_msgh, 1);
    lua_replace(L, 2);
    return lua_wrapper_call_original(L);
}

#define TRIALS_SPENT_BUDGET                                                                              \
    "trial moves: instruction budget exceeded (" STR(LUA_HOST_TURN_BUDGET) " instructions for all the copies " \
    "a bot made for one decision)"
#define TRIALS_SPENT_TIME                                                                                \
    "trial moves: time limit exceeded (" STR(LUA_HOST_TURN_SECONDS) " s for all the copies a bot made for " \
    "one decision)"

/* Starts the budget of an outermost call, and the account it is charged to:
 * the turn's for a game of its own, the decision's for a bot's copy. NULL,
 * or why the call may not run at all (the decision's account is spent). */
static const char *call_begin(lua_host *h, carc_ctx *ctx)
{
    h->budget = LUA_HOST_BUDGET;
    h->started = coarse_now();
    h->cpu_deadline = 0;
    h->stopped = STOP_NONE;
    h->printed = 0;
    script_set_hook(h->L, HOOK_EVERY);
    if (!ctx->g) return NULL;
    game_host_view at = game_host_view_of(ctx->g);
    if (at.trial_of) {
        if (at.trial_of != h->trial_of || at.trial_at != h->trial_at) {
            h->trial_of = at.trial_of;
            h->trial_at = at.trial_at;
            h->trial_used = 0;
            h->trial_ns = 0;
            h->trial_spent = false;
        }
        return h->trial_spent ? TRIALS_SPENT_BUDGET : NULL;
    }
    if (at.serial != h->turn_game || at.turn != h->turn_number || at.in_end != h->turn_end) {
        h->turn_game = at.serial;
        h->turn_number = at.turn;
        h->turn_end = at.in_end;
        h->turn_used = 0;
        h->turn_ns = 0;
    }
    return NULL;
}

/* After an outermost call: what it used, against the per-call time (for a
 * call too short to meet a hook) and its account's totals (a phase that
 * keeps running again gets a fresh budget each time, not a fresh turn; a
 * bot's copies share one account per decision, not one each). */
static const char *call_end(lua_host *h, carc_ctx *ctx)
{
    int64_t took = coarse_now() - h->started;
    long used = LUA_HOST_BUDGET - (h->budget < 0 ? 0 : h->budget);
    bool trial = ctx->g && game_host_view_of(ctx->g).trial_of;
    if (trial) {
        /* Charged even when the call failed: a copy whose every call dies
         * at the per-call limit must still spend the decision's account. */
        h->trial_used += used;
        h->trial_ns += took;
        if (h->trial_used > LUA_HOST_TURN_BUDGET || h->trial_ns > LUA_HOST_TURN_SECONDS * NS_PER_S)
            h->trial_spent = true;
    }
    if (h->budget < 0) return stop_reason(STOP_BUDGET); /* charged past it after the last hook */
    if (took > LUA_HOST_SECONDS * NS_PER_S &&
        (h->cpu_deadline == 0 || clock_ns(CLOCK_THREAD_CPUTIME_ID) > h->cpu_deadline))
        return stop_reason(STOP_TIME);
    if (!ctx->g) return NULL;
    if (trial) {
        if (!h->trial_spent) return NULL;
        return h->trial_used > LUA_HOST_TURN_BUDGET ? TRIALS_SPENT_BUDGET : TRIALS_SPENT_TIME;
    }
    h->turn_used += used;
    h->turn_ns += took;
    if (h->turn_used > LUA_HOST_TURN_BUDGET)
        return "instruction budget exceeded (" STR(LUA_HOST_TURN_BUDGET) " instructions per turn): a phase that runs again for ever?";
    if (h->turn_ns > LUA_HOST_TURN_SECONDS * NS_PER_S)
        return "time limit exceeded (" STR(LUA_HOST_TURN_SECONDS) " s per turn): a phase that runs again for ever?";
    return NULL;
}

/* Calls the function below the nargs arguments on the stack top under the
 * call's limits, with the traceback at msgh, keeping nresults results. 0,
 * or -1 with the error given to the game and the stack back at base. */
int script_limited_pcall(lua_host *h, carc_ctx *ctx, int nargs, int nresults, int base, int msgh)
{
    lua_State *L = h->L;
    carc_ctx *prev = h->cur;
    h->cur = ctx;
    /* A nested call (a handler raised by this script's own call) shares the budget. */
    const char *over = prev ? NULL : call_begin(h, ctx);
    int rc = LUA_OK;
    if (!over) {
        int depth = h->depth++;
        rc = lua_pcall(L, nargs, nresults, msgh);
        h->depth = depth;
        if (!prev) {
            const char *end = call_end(h, ctx);
            if (rc == LUA_OK) over = end;
        }
    }
    h->cur = prev;
    if (over && h->trial_spent && ctx->g && game_host_view_of(ctx->g).trial_of) game_mark_trials_spent(ctx->g);
    if (rc != LUA_OK || over) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", over ? over : lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
        lua_settop(L, base);
        api_error(ctx, msg);
        return -1;
    }
    return 0;
}
