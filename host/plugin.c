/* plugin.c - loads C plugins by name from the plugin path, checks the API
 * version they were built for, runs their init, and undoes everything a
 * failed init registered (docs/plugin-guide.md). */
#include "plugin.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "kernel_host.h"
#include "lua_host.h"

#ifndef CARC_PLUGINDIR
#define CARC_PLUGINDIR "/usr/local/lib/carc/plugins"
#endif

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= NAME_LEN) return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) return false;
    return true;
}

/* The plugin path: $CARC_PLUGIN_PATH (colon-separated), the directory this
 * carc was built or installed with, then the data directory's plugins/. */
static int find_plugin(const char *name, char *out, size_t n, char *searched, size_t sn)
{
    char dirs[2048];
    const char *env = getenv("CARC_PLUGIN_PATH");
    snprintf(dirs, sizeof dirs, "%s%s%s:%s/plugins", env && *env ? env : "", env && *env ? ":" : "", CARC_PLUGINDIR,
             carc_data_dir());
    searched[0] = 0;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, n, "%s/%s.so", d, name);
        if (access(out, R_OK) == 0) return 0;
        size_t used = strlen(searched);
        snprintf(searched + used, sn - used, "%s%s", used ? ", " : "", d);
    }
    return -1;
}

static plugin_slot *new_slot(struct carc_rules *r, const char *name, const char *path, char *err, size_t errn)
{
    if (r->nplugins >= MAX_PLUGINS) {
        snprintf(err, errn, "too many plugins and scripts (at most %d)", MAX_PLUGINS);
        return NULL;
    }
    for (int i = 0; i < r->nplugins; i++)
        if (strcmp(r->plugins[i]->name, name) == 0) {
            snprintf(err, errn, "'%s' is loaded twice", name);
            return NULL;
        }
    plugin_slot *ps = calloc(1, sizeof *ps);
    if (!ps) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    snprintf(ps->name, sizeof ps->name, "%s", name);
    snprintf(ps->path, sizeof ps->path, "%s", path);
    return ps;
}

static void free_plugin_data(plugin_slot *ps)
{
    if (ps->free_data) ps->free_data(ps->data);
    ps->data = NULL;
    ps->free_data = NULL;
}

/* Runs init with registration open; on failure the rules go back to what
 * they were, so the plugin leaves no trace. */
int plugin_register(struct carc_rules *r, plugin_slot *ps, int (*init)(carc_ctx *), char *err, size_t errn)
{
    struct carc_rules *saved = malloc(sizeof *r);
    if (!saved) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    *saved = *r;
    r->plugins[r->nplugins++] = ps;
    r->registering = r->nplugins;
    r->reg_error[0] = 0;
    struct carc_ctx ctx = {NULL, r->nplugins, ps->user, r};
    int rc = init(&ctx);
    r->registering = 0;
    if (rc != 0) {
        snprintf(err, errn, "%s: init failed%s%s", ps->name, r->reg_error[0] ? ": " : "", r->reg_error);
        free_plugin_data(ps);
        ps->rules_ready = NULL;
        /* Back as they were, but for a clash with another plugin's name,
         * which the loader reports naming both (rules_note_conflict). */
        memcpy(saved->conflict, r->conflict, sizeof saved->conflict);
        *r = *saved;
        free(saved);
        return -1;
    }
    free(saved);
    return 0;
}

/* A C plugin is native code: a variant names it and carc finds it on the
 * plugin path. Loading one from a path the variant gives is the user's
 * explicit choice (carc ... --allow-plugin-paths). Set before rules are
 * loaded; read by every later load, in any thread. */
static atomic_int allow_plugin_paths;

void carc_allow_plugin_paths(int allow) { atomic_store(&allow_plugin_paths, allow ? 1 : 0); }
int carc_plugin_paths_allowed(void) { return atomic_load(&allow_plugin_paths); }

static int load_so(struct carc_rules *r, const char *name, const char *path, char *err, size_t errn);

int plugin_load(struct carc_rules *r, const char *name, char *err, size_t errn)
{
    if (!valid_name(name)) {
        snprintf(err, errn, "plugin '%s': a plugin is named (lower-case letters, digits, - and _), never given as a path",
                 name);
        return -1;
    }
    char path[1024], searched[2048];
    if (find_plugin(name, path, sizeof path, searched, sizeof searched) < 0) {
        snprintf(err, errn, "no plugin named '%s' (looked for %s.so in %s)", name, name, searched);
        return -1;
    }
    return load_so(r, name, path, err, errn);
}

static bool is_so_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 3 && strcmp(s + n - 3, ".so") == 0);
}

int plugin_load_entry(struct carc_rules *r, const char *entry, const char *base_dir, char *err, size_t errn)
{
    if (!is_so_path(entry)) return plugin_load(r, entry, err, errn);
    if (!carc_plugin_paths_allowed()) {
        snprintf(err, errn,
                 "plugin '%s' is given as a path: C plugins are native code, so a variant names them and carc "
                 "loads them from the plugin path only; to load this file, trust it and pass --allow-plugin-paths",
                 entry);
        return -1;
    }
    char path[1024];
    if (entry[0] == '/') snprintf(path, sizeof path, "%s", entry);
    else snprintf(path, sizeof path, "%s/%s", base_dir, entry);
    if (access(path, R_OK) != 0) {
        snprintf(err, errn, "plugin %s: no such file", path);
        return -1;
    }
    return load_so(r, NULL, path, err, errn);
}

/* Loads the shared object at path; name NULL: the plugin's own name. */
static int load_so(struct carc_rules *r, const char *name, const char *path, char *err, size_t errn)
{
    const char *shown = name ? name : path;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        snprintf(err, errn, "plugin %s: cannot load %s: %s", shown, path, dlerror());
        return -1;
    }
    carc_plugin_entry_fn entry;
    *(void **)&entry = dlsym(dl, CARC_PLUGIN_ENTRY);
    if (!entry) {
        snprintf(err, errn, "plugin %s: %s has no entry point '%s' (see docs/plugin-guide.md)", shown, path,
                 CARC_PLUGIN_ENTRY);
        dlclose(dl);
        return -1;
    }
    carc_plugin_desc desc;
    memset(&desc, 0, sizeof desc);
    if (entry(&carc_api_v1, &desc) != 0 || !desc.init || !desc.name) {
        snprintf(err, errn, "plugin %s: its entry point refused to describe it", shown);
        dlclose(dl);
        return -1;
    }
    if (desc.api_version == 0 || desc.api_version > CARC_API_VERSION) {
        snprintf(err, errn, "plugin %s was built for carc plugin API version %u; this carc has version %u", shown,
                 desc.api_version, CARC_API_VERSION);
        dlclose(dl);
        return -1;
    }
    if (!name && !valid_name(desc.name)) {
        snprintf(err, errn, "plugin file %s calls itself '%s', which is not a plugin name", path, desc.name);
        dlclose(dl);
        return -1;
    }
    if (!name) name = desc.name;
    if (strcmp(desc.name, name) != 0) {
        snprintf(err, errn, "plugin file %s calls itself '%s', not '%s'", path, desc.name, name);
        dlclose(dl);
        return -1;
    }
    plugin_slot *ps = new_slot(r, name, path, err, errn);
    if (!ps) {
        dlclose(dl);
        return -1;
    }
    ps->dl = dl;
    if (plugin_register(r, ps, desc.init, err, errn) < 0) {
        free(ps);
        dlclose(dl);
        return -1;
    }
    return 0;
}

int script_load(struct carc_rules *r, const char *path, char *err, size_t errn)
{
    /* A script's name is its file name without .lua. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[NAME_LEN];
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".lua") == 0) len -= 4;
    if (len == 0 || len >= NAME_LEN) {
        snprintf(err, errn, "%s: bad script name", path);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)len, base);
    plugin_slot *ps = new_slot(r, name, path, err, errn);
    if (!ps) return -1;
    if (lua_host_load(r, ps, err, errn) < 0) {
        free(ps);
        return -1;
    }
    return 0;
}

/* Runs each plugin's rules_ready (in load order), then lays out each
 * plugin's state inside the game's state block. */
int plugins_ready(struct carc_rules *r, char *err, size_t errn)
{
    for (int i = 0; i < r->nplugins; i++) {
        plugin_slot *ps = r->plugins[i];
        if (!ps->rules_ready) continue;
        r->reg_error[0] = 0;
        struct carc_ctx ctx = {NULL, i + 1, ps->user, r};
        if (ps->rules_ready(&ctx) != 0) {
            snprintf(err, errn, "%s: refused the rules%s%s", ps->name, r->reg_error[0] ? ": " : "", r->reg_error);
            return -1;
        }
    }
    size_t off = 0;
    for (int i = 0; i < r->nplugins; i++) {
        plugin_slot *ps = r->plugins[i];
        ps->state_off = off;
        off += (ps->state_size + 15) & ~(size_t)15;
    }
    r->state_size = off;
    return 0;
}

void plugins_unload(struct carc_rules *r)
{
    for (int i = r->nplugins - 1; i >= 0; i--) {
        plugin_slot *ps = r->plugins[i];
        if (ps->unload) ps->unload(ps->user);
        free_plugin_data(ps);
        if (ps->dl) dlclose(ps->dl);
        free(ps);
    }
    r->nplugins = 0;
}
