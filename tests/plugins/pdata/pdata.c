/* pdata: a plugin's own data per rules object (API version 3). It counts,
 * in globals test_plugins.c reads through its own dlopen of this file, how
 * often its data is made, freed and made ready, and stops (init or
 * rules_ready refused, the game failed) where the kernel breaks the
 * contract. At game start it awards seat 0 the points of its option
 * pdata.points, read in rules_ready into the data of its own rules. */
#include <stdlib.h>

#include "carc_plugin.h"

static const carc_api *api;

/* Read by the test (the same object: dlopen counts references). */
int pdata_made, pdata_freed, pdata_ready;

enum { MAGIC = 0x5eed };

typedef struct pdata {
    int magic, reason, points;
} pdata;

static void free_data(void *p)
{
    pdata_freed++;
    free(p);
}

static int on_game_start(carc_ctx *ctx, carc_event *ev)
{
    (void)ev;
    const pdata *d = api->plugin_data(ctx);
    if (!d || d->magic != MAGIC) return api->fail(ctx, "no data of these rules in a handler");
    return api->award(ctx, 0, d->points, d->reason, -1, 0);
}

static int rules_ready(carc_ctx *ctx)
{
    pdata *d = api->plugin_data(ctx);
    if (!d || d->magic != MAGIC) return api->fail(ctx, "no data of these rules in rules_ready");
    if (api->define_reason(ctx, "pdata-late") >= 0) return api->fail(ctx, "registered in rules_ready");
    d->points = api->option(ctx, "points");
    pdata_ready++;
    if (api->option(ctx, "refuse") == 1) return api->fail(ctx, "refused as asked");
    return 0;
}

static int init(carc_ctx *ctx)
{
    if (api->plugin_data(ctx) != NULL) return -1; /* none before it is set */
    pdata *d = calloc(1, sizeof *d);
    if (!d) return -1;
    d->magic = MAGIC;
    pdata_made++;
    if (api->set_plugin_data(ctx, d, free_data) < 0) {
        free(d);
        return -1;
    }
    if (api->set_plugin_data(ctx, d, free_data) == 0 || api->plugin_data(ctx) != d) return -1; /* set once */
    if (getenv("PDATA_FAIL_INIT")) return -1; /* the kernel frees the data */
    d->reason = api->define_reason(ctx, "pdata");
    if (d->reason < 0 || api->set_rules_ready(ctx, rules_ready) < 0 ||
        api->define_option_int(ctx, "points", 1, 0, 10, "points to seat 0 at game start") < 0 ||
        api->define_option_int(ctx, "refuse", 0, 0, 1, "1: rules_ready refuses the rules") < 0)
        return -1;
    return api->on(ctx, CARC_EV_GAME_START, on_game_start, NULL);
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    api = a;
    desc->api_version = CARC_API_VERSION;
    desc->name = "pdata";
    desc->version = "1";
    desc->description = "its own data per rules object";
    desc->init = init;
    return 0;
}
