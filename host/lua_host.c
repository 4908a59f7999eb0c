/* lua_host.c - runs Lua scripts through the same API as C plugins: a
 * script's state made (its sandbox, lua_sandbox.c), its top level run under
 * the limits (its registration; lua_calls.c), what it made frozen
 * (lua_determinism.c), and the state closed with the rules. The parts are
 * listed in lua_host_internal.h. */
#include "lua_host.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_determinism.h"
#include "lua_host_internal.h"
#include "regular_file.h"

static void host_unload(void *user)
{
    lua_host *h = user;
    if (!h) return;
    if (h->L) lua_close(h->L);
    script_free_lost_blocks(h);
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
    API->set_state(ctx, sizeof(kv_store), script_game_init);
    h->ps->state_used = script_state_used;
    API->set_option_fns(ctx, script_format, script_apply);
    host_call c = {.body = top_level_body, .ctx = ctx, .ref = luaL_ref(L, LUA_REGISTRYINDEX)};
    rc = script_call(h, &c);
    luaL_unref(L, LUA_REGISTRYINDEX, c.ref);
    /* A refused registration stays refused, even if the script caught the error. */
    if (rc < 0 || ctx->rules->reg_error[0]) return -1;
    h->closed = true;
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
    h->L = lua_newstate(script_alloc, h);
    if (!h->L) {
        free(h);
        snprintf(err, errn, "out of memory");
        return -1;
    }
    lua_State *L = h->L;
    memcpy(lua_getextraspace(L), &h, sizeof h);
    h->budget = LUA_HOST_BUDGET;
    h->started = coarse_now();
    script_set_hook(L, HOOK_EVERY);
    lua_pushcfunction(L, script_sandbox_setup);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        snprintf(err, errn, "%s: cannot set up the sandbox: %s", ps->name, lua_tostring(L, -1));
        host_unload(h);
        return -1;
    }
    lua_pushcfunction(L, script_traceback); /* at TRACEBACK_SLOT: the stack is empty */
    ps->user = h;
    ps->is_script = true;
    ps->unload = host_unload;
    if (plugin_register(r, ps, host_init, err, errn) < 0) {
        /* err is "NAME: init failed: path:line: message\ntraceback" */
        ps->user = NULL;
        host_unload(h);
        return -1;
    }
    return 0;
}
