/* badabi: claims a plugin API version from the future; carc must refuse it. */
#include "carc_plugin.h"

static int init(carc_ctx *ctx)
{
    (void)ctx;
    return 0;
}

int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)
{
    (void)a;
    desc->api_version = 999;
    desc->name = "badabi";
    desc->version = "1";
    desc->description = "built for an API this carc does not have";
    desc->init = init;
    return 0;
}
