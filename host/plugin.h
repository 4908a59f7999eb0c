/* plugin.h - loading C plugins (dlopen) and Lua scripts into rules. */
#ifndef CARC_PLUGIN_LOADER_H
#define CARC_PLUGIN_LOADER_H
#include <stddef.h>
struct carc_rules;
/* Loads a C plugin by name from the plugin path. */
int plugin_load(struct carc_rules *r, const char *name, char *err, size_t errn);
/* Loads a variant's `load` entry: a name, or a path (relative to base_dir)
 * only when carc_allow_plugin_paths is on. */
int plugin_load_entry(struct carc_rules *r, const char *entry, const char *base_dir, char *err, size_t errn);
/* Loads a Lua script. */
int script_load(struct carc_rules *r, const char *path, char *err, size_t errn);
/* After the rules are finished: lay out plugin state. */
int plugins_ready(struct carc_rules *r, char *err, size_t errn);
void plugins_unload(struct carc_rules *r);
struct plugin_slot;
struct carc_ctx;
/* Runs a plugin's init with registration open; undoes it all on failure. */
int plugin_register(struct carc_rules *r, struct plugin_slot *ps, int (*init)(struct carc_ctx *),
                    char *err, size_t errn);
#endif
