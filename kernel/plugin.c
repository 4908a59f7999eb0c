/* plugin.c - placeholder until the plugin loader lands. */
#include <stdio.h>
#include "core.h"
#include "plugin.h"

int plugin_load(struct carc_rules *r, const char *name, char *err, size_t errn)
{
    (void)r;
    snprintf(err, errn, "no plugin named '%s'", name);
    return -1;
}

int script_load(struct carc_rules *r, const char *path, char *err, size_t errn)
{
    (void)r;
    snprintf(err, errn, "%s: scripts are not supported yet", path);
    return -1;
}

int plugins_ready(struct carc_rules *r, char *err, size_t errn)
{
    (void)r; (void)err; (void)errn;
    return 0;
}

void plugins_unload(struct carc_rules *r) { (void)r; }
