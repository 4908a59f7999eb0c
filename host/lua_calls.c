/* lua_calls.c - every call from carc into a script: the trampolines carc_api
 * calls (handlers, phases, format, apply, game_init) and the top level, each
 * a protected call under the call's limits (lua_limits.c) with a traceback,
 * and the check of what the script's own calls into carc returned. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "lua_host_internal.h"

int script_traceback(lua_State *L)
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

static int run_body(lua_State *L)
{
    host_call *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref);
    return c->body(L, c);
}

/* Whether a call made with the stack top at base comes from outside the
 * script: then the main thread's stack holds only the traceback, and Lua's
 * LUA_MINSTACK (20) free slots there need no lua_checkstack. */
static bool outermost(const lua_host *h, int base) { return !h->cur && base == TRACEBACK_SLOT; }

/* The index of the traceback for a call made with the stack top at base:
 * its slot for an outermost call, else pushed now. */
static int push_traceback(lua_host *h, int base)
{
    if (outermost(h, base)) return TRACEBACK_SLOT;
    lua_pushcfunction(h->L, script_traceback);
    return base + 1;
}

int script_call(lua_host *h, host_call *c)
{
    lua_State *L = h->L;
    int base = lua_gettop(L);
    if (!outermost(h, base) && !lua_checkstack(L, 3)) return api_error(c->ctx, "not enough memory"), -1;
    int msgh = push_traceback(h, base);
    lua_pushcfunction(L, run_body);
    lua_pushlightuserdata(L, c);
    if (script_limited_pcall(h, c->ctx, 1, 0, base, msgh) < 0) return -1;
    lua_settop(L, base);
    return 0;
}

/* An API call that failed stops the script with the API's message. A
 * refusal stops the game: its failure stays, so a script that catches the
 * error (pcall) plays no further. The message gets the script's place. */
int script_checked(lua_State *L, carc_ctx *ctx, int rc)
{
    if (rc < 0) {
        char m[512];
        size_t errn = 0;
        char *game_error = ctx->g ? game_error_buffer(ctx->g, &errn) : NULL;
        const char *src = ctx->g ? game_error : ctx->rules->reg_error;
        snprintf(m, sizeof m, "%s", src && *src ? src : "carc call failed");
        char where[300] = "";
        lua_Debug ar; /* the script's line that made the call, through pcall and other C functions */
        for (int level = 1; level < 32 && lua_getstack(L, level, &ar); level++)
            if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
                snprintf(where, sizeof where, "%s:%d: ", ar.short_src, ar.currentline);
                break;
            }
        if (ctx->g && game_failed(ctx->g) && *where) {
            /* "NAME: refusal" becomes "NAME: file:line: refusal" */
            const char *rest = strstr(m, ": ");
            size_t head = rest ? (size_t)(rest - m) + 2 : 0;
            snprintf(game_error, errn, "%.*s%s%s", (int)head, m, where, m + head);
        } else if (!ctx->g && *where) {
            snprintf(ctx->rules->reg_error, sizeof ctx->rules->reg_error, "%s%s", where, m);
        }
        return luaL_error(L, "%s", m);
    }
    return rc;
}

/* Whether the handler or phase is to be called: one that waits for a
 * carc.state key is called only while the key holds a value in this game
 * (a lookup here instead of a call into Lua that would return at once). */
static bool has_work(const lua_fn *fn, carc_ctx *ctx)
{
    if (!fn->wait_key[0] || !ctx->g) return true;
    const kv_store *s = API->state(ctx);
    return !s || script_state_find(s, fn->wait_key, fn->wait_hash) >= 0;
}

/* A handler's call past the lent tables' depth, or the first at a depth
 * (whose table is made here, under protection: the heap may be full). */
static int handler_body(lua_State *L, host_call *c)
{
    lua_host *h = host_of(L);
    int d = h->depth - 1;
    script_push_event(L, h, d, c->ev, c->ctx->owner); /* 2, kept to read back what the handler changed; 1 is the handler */
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 1, 0);
    char err[128];
    if (!script_read_back_event(L, 2, d >= 0 && d < LUA_HOST_LENT_DEPTH ? h->lent[d].shown : ~0u, c->ev, err, sizeof err))
        return luaL_error(L, "%s", err);
    return 0;
}

/* The event: a table lent for this call and filled as it is read (no table
 * built per event, nothing set that the handler does not read;
 * docs/lua-guide.md). Once the table of this depth exists, preparing it
 * cannot fail (it is emptied, nothing is allocated), so the handler itself
 * is the protected call. */
int script_handler(carc_ctx *ctx, carc_event *ev)
{
    lua_fn *fn = ctx->user;
    if (!has_work(fn, ctx)) return 0;
    lua_host *h = fn->h;
    lua_State *L = h->L;
    int d = h->depth, base = lua_gettop(L);
    if (d >= LUA_HOST_LENT_DEPTH || h->lent[d].ev == LUA_NOREF || (!outermost(h, base) && !lua_checkstack(L, 4))) {
        host_call c = {.body = handler_body, .ctx = ctx, .ref = fn->ref, .ev = ev};
        return script_call(h, &c);
    }
    int msgh = push_traceback(h, base);
    script_push_event(L, h, d, ev, ctx->owner);
    int event = msgh + 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn->ref);
    lua_pushvalue(L, event);
    if (script_limited_pcall(h, ctx, 1, 0, base, msgh) < 0) return -1;
    char err[128];
    bool ok = script_read_back_event(L, event, h->lent[d].shown, ev, err, sizeof err);
    lua_settop(L, base);
    if (!ok) return api_error(ctx, err), -1;
    return 0;
}

/* A phase step: the function is the protected call (nothing it is given or
 * returns needs building or can fail). */
int script_phase(carc_ctx *ctx, int step)
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
    if (script_limited_pcall(h, ctx, 1, 1, base, msgh) < 0) return -1;
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
    script_lend_option(L, c->opt);
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

int script_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n)
{
    lua_host *h = ctx->user;
    if (h->format_ref == LUA_NOREF) return -1;
    host_call c = {.body = format_body, .ctx = ctx, .ref = h->format_ref, .opt = opt, .buf = buf, .n = n};
    return script_call(h, &c);
}

static int apply_body(lua_State *L, host_call *c)
{
    script_lend_option(L, c->opt);
    lua_pushinteger(L, c->arg);
    lua_call(L, 2, 0);
    return 0;
}

int script_apply(carc_ctx *ctx, const carc_option *opt, int player)
{
    lua_host *h = ctx->user;
    if (h->apply_ref == LUA_NOREF) return api_error(ctx, "the script offered an option but set no carc.apply");
    host_call c = {.body = apply_body, .ctx = ctx, .ref = h->apply_ref, .opt = opt, .arg = player};
    return script_call(h, &c);
}

static int init_body(lua_State *L, host_call *c)
{
    (void)c;
    lua_call(L, 0, 0);
    return 0;
}

int script_game_init(carc_ctx *ctx)
{
    lua_host *h = ctx->user;
    h->turn_game = 0; /* a new game: its turns start afresh */
    if (h->init_ref == LUA_NOREF) return 0;
    host_call c = {.body = init_body, .ctx = ctx, .ref = h->init_ref};
    return script_call(h, &c);
}
