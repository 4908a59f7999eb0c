/* variant.c - variant INI files (docs/variants.md): tile sets, count
 * overrides, plugins, scripts, options, and includes. */
#include <ini.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "inireader.h"
#include "plugin.h"

#ifndef CARC_DATADIR
#define CARC_DATADIR "."
#endif

const char *carc_data_dir(void)
{
    const char *d = getenv("CARC_DATA");
    return d && *d ? d : CARC_DATADIR;
}

#define MAX_ITEMS 64

typedef struct spec_item {
    char key[96];
    char value[256];
    char file[512];
    int line;
} spec_item;

typedef struct variant_spec {
    char name[NAME_LEN];
    char title[160];
    char path[512];
    int min_players, max_players;
    spec_item sets[MAX_SETS]; int nsets;
    spec_item counts[MAX_ITEMS]; int ncounts;
    spec_item plugins[MAX_PLUGINS]; int nplugins;
    spec_item scripts[MAX_PLUGINS]; int nscripts;
    spec_item options[MAX_ITEMS]; int noptions;
    int depth;
} variant_spec;

typedef struct v_ctx {
    variant_spec *v;
    ini_reader_state rd;
    char dir[512];
    char *err;
    size_t errn;
    bool include_failed;
} v_ctx;

#define VFAIL(c, ...) return (ini_reader_fail(&(c)->rd, __VA_ARGS__), 0)

static void dir_of(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash) *slash = 0;
    else snprintf(out, n, ".");
}

static bool is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 4 && strcmp(s + n - 4, ".ini") == 0);
}

/* A name resolves under the data directory; a path is relative to the
 * file that names it. */
static void resolve(const char *name, const char *base_dir, const char *sub, const char *ext,
                    char *out, size_t n)
{
    if (name[0] == '/') snprintf(out, n, "%s", name);
    else if (is_path(name) || (ext[0] && strstr(name, ext))) snprintf(out, n, "%s/%s", base_dir, name);
    else snprintf(out, n, "%s/%s/%s%s", carc_data_dir(), sub, name, ext);
}

static int load_spec(variant_spec *v, const char *path, char *err, size_t errn);

static int item(v_ctx *c, spec_item *arr, int *n, int max, const char *key, const char *value)
{
    if (*n >= max) VFAIL(c, "too many entries (at most %d)", max);
    spec_item *it = &arr[(*n)++];
    snprintf(it->key, sizeof it->key, "%s", key);
    snprintf(it->value, sizeof it->value, "%s", value);
    snprintf(it->file, sizeof it->file, "%s", c->rd.path);
    it->line = c->rd.cur_line;
    return 1;
}

/* A list key ("sets = base robbers") replaces what an included file said. */
static int list(v_ctx *c, spec_item *arr, int *n, int max, const char *value)
{
    *n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    for (char *save = NULL, *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save))
        if (!item(c, arr, n, max, t, t)) return 0;
    return 1;
}

static int v_handler(void *user, const char *section, const char *name, const char *value)
{
    v_ctx *c = user;
    variant_spec *v = c->v;
    if (strcmp(section, "variant") == 0) {
        if (strcmp(name, "name") == 0) {
            if (!*value || strlen(value) >= NAME_LEN) VFAIL(c, "bad variant name '%s'", value);
            snprintf(v->name, sizeof v->name, "%s", value);
        } else if (strcmp(name, "title") == 0 || strcmp(name, "description") == 0) {
            snprintf(v->title, sizeof v->title, "%s", value);
        } else if (strcmp(name, "players") == 0) {
            int a, b;
            char tail;
            if (sscanf(value, "%d-%d%c", &a, &b, &tail) == 2 && a >= 1 && b >= a && b <= CARC_MAX_PLAYERS) {
                v->min_players = a;
                v->max_players = b;
            } else if (sscanf(value, "%d%c", &a, &tail) == 1 && a >= 1 && a <= CARC_MAX_PLAYERS) {
                v->min_players = v->max_players = a;
            } else {
                VFAIL(c, "players expects a range like 2-6 (at most %d), not '%s'", CARC_MAX_PLAYERS, value);
            }
        } else if (strcmp(name, "include") == 0) {
            if (v->depth >= 8) VFAIL(c, "includes nested deeper than 8 (a loop?)");
            char path[512];
            resolve(value, c->dir, "variants", ".ini", path, sizeof path);
            v->depth++;
            int rc = load_spec(v, path, c->err, c->errn);
            v->depth--;
            if (rc < 0) {
                c->include_failed = true;
                VFAIL(c, "in the included variant '%s'", value);
            }
        } else {
            VFAIL(c, "unknown key '%s' in [variant] (expected name, title, players, include)", name);
        }
    } else if (strcmp(section, "tiles") == 0) {
        if (strcmp(name, "sets") == 0) return list(c, v->sets, &v->nsets, MAX_SETS, value);
        /* "base:D = 3" reaches us as name "base", value "D = 3": the INI
         * reader also takes ':' as a separator. Put the key back together. */
        const char *eq = strchr(value, '=');
        if (!eq) VFAIL(c, "unknown key '%s' in [tiles] (expected sets, or SET:ID = COUNT)", name);
        char key[96], count[64];
        int idlen = (int)(eq - value);
        while (idlen > 0 && (value[idlen - 1] == ' ' || value[idlen - 1] == '\t')) idlen--;
        const char *cnt = eq + 1;
        while (*cnt == ' ' || *cnt == '\t') cnt++;
        if (idlen == 0 || snprintf(key, sizeof key, "%s:%.*s", name, idlen, value) >= (int)sizeof key)
            VFAIL(c, "expected SET:ID = COUNT in [tiles]");
        snprintf(count, sizeof count, "%s", cnt);
        return item(c, v->counts, &v->ncounts, MAX_ITEMS, key, count);
    } else if (strcmp(section, "plugins") == 0) {
        if (strcmp(name, "load") == 0) return list(c, v->plugins, &v->nplugins, MAX_PLUGINS, value);
        if (strcmp(name, "scripts") == 0) return list(c, v->scripts, &v->nscripts, MAX_PLUGINS, value);
        VFAIL(c, "unknown key '%s' in [plugins] (expected load, scripts)", name);
    } else if (strcmp(section, "options") == 0) {
        for (int i = 0; i < v->noptions; i++)
            if (strcmp(v->options[i].key, name) == 0) { /* a later file overrides */
                snprintf(v->options[i].value, sizeof v->options[i].value, "%s", value);
                snprintf(v->options[i].file, sizeof v->options[i].file, "%s", c->rd.path);
                v->options[i].line = c->rd.cur_line;
                return 1;
            }
        return item(c, v->options, &v->noptions, MAX_ITEMS, name, value);
    } else {
        VFAIL(c, "unknown section [%s] (expected [variant], [tiles], [plugins], [options])", section);
    }
    return 1;
}

static int load_spec(variant_spec *v, const char *path, char *err, size_t errn)
{
    v_ctx c;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.err = err;
    c.errn = errn;
    dir_of(path, c.dir, sizeof c.dir);
    if (ini_reader_open(&c.rd, path, err, errn) < 0) return -1;
    int rc = ini_parse_stream(ini_reader_next, &c.rd, v_handler, &c);
    if (c.include_failed) {
        /* err already names the included file and its line; add ours. */
        char inner[1024];
        snprintf(inner, sizeof inner, "%s", err);
        ini_reader_close(&c.rd, rc, err, errn);
        size_t used = strlen(err);
        snprintf(err + used, errn > used ? errn - used : 0, ": %s", inner);
        return -1;
    }
    return ini_reader_close(&c.rd, rc, err, errn);
}

static struct carc_rules *rules_alloc(void)
{
    struct carc_rules *r = calloc(1, sizeof *r);
    if (r) rules_init_builtins(r);
    return r;
}

static int at(char *err, size_t errn, const spec_item *it, const char *msg)
{
    char m[600];
    snprintf(m, sizeof m, "%s", msg);
    snprintf(err, errn, "%s:%d: %s", it->file, it->line, m);
    return -1;
}

static int build(struct carc_rules *r, const variant_spec *v, const char *const *overrides, int nover,
                 char *err, size_t errn)
{
    char msg[600], path[512], dir[512];
    snprintf(r->name, sizeof r->name, "%s", v->name);
    snprintf(r->title, sizeof r->title, "%s", v->title);
    snprintf(r->path, sizeof r->path, "%s", v->path);
    if (v->min_players) {
        r->min_players = v->min_players;
        r->max_players = v->max_players;
    }
    for (int i = 0; i < v->nplugins; i++) {
        dir_of(v->plugins[i].file, dir, sizeof dir);
        if (plugin_load_entry(r, v->plugins[i].value, dir, msg, sizeof msg) < 0)
            return at(err, errn, &v->plugins[i], msg);
    }
    for (int i = 0; i < v->nscripts; i++) {
        dir_of(v->scripts[i].file, dir, sizeof dir);
        resolve(v->scripts[i].value, dir, "scripts", ".lua", path, sizeof path);
        if (script_load(r, path, msg, sizeof msg) < 0) return at(err, errn, &v->scripts[i], msg);
    }
    for (int i = 0; i < v->nsets; i++) {
        dir_of(v->sets[i].file, dir, sizeof dir);
        resolve(v->sets[i].value, dir, "tiles", ".ini", path, sizeof path);
        if (tileset_load(r, path, msg, sizeof msg) < 0) return at(err, errn, &v->sets[i], msg);
    }
    for (int i = 0; i < v->ncounts; i++) {
        const spec_item *it = &v->counts[i];
        char set[NAME_LEN];
        const char *colon = strchr(it->key, ':');
        snprintf(set, sizeof set, "%.*s", (int)(colon - it->key), it->key);
        int t = rules_type(r, set, colon + 1);
        if (t < 0) {
            snprintf(msg, sizeof msg, "no tile %s in the variant's tile sets", it->key);
            return at(err, errn, it, msg);
        }
        char *end;
        long n = strtol(it->value, &end, 10);
        if (!*it->value || *end || n < 0 || n > 10000) {
            snprintf(msg, sizeof msg, "tile count expects a whole number from 0 to 10000, not '%s'", it->value);
            return at(err, errn, it, msg);
        }
        r->types[t].count = (int)n;
    }
    for (int i = 0; i < v->noptions; i++)
        if (rules_set_option(r, v->options[i].key, v->options[i].value, msg, sizeof msg) < 0)
            return at(err, errn, &v->options[i], msg);
    for (int i = 0; i < nover; i++) {
        char key[128];
        const char *eq = strchr(overrides[i], '=');
        if (!eq || eq == overrides[i] || (size_t)(eq - overrides[i]) >= sizeof key) {
            snprintf(err, errn, "option override '%s' is not KEY=VALUE", overrides[i]);
            return -1;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - overrides[i]), overrides[i]);
        if (rules_set_option(r, key, eq + 1, msg, sizeof msg) < 0) {
            snprintf(err, errn, "%s", msg);
            return -1;
        }
    }
    if (rules_finish(r, msg, sizeof msg) < 0) {
        snprintf(err, errn, "%s", msg);
        return -1;
    }
    return plugins_ready(r, err, errn);
}

static carc_rules *variant_load_locked(const char *name_or_path, const char *const *overrides, int noverrides,
                                       char *err, size_t errn);

/* Loading runs plugins' init functions, which set their static API pointer
 * and ids: the same values every time, but threads (sim --jobs) must not
 * write them at once. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

carc_rules *carc_variant_load(const char *name_or_path, const char *const *overrides, int noverrides,
                              char *err, size_t errn)
{
    pthread_mutex_lock(&load_lock);
    carc_rules *r = variant_load_locked(name_or_path, overrides, noverrides, err, errn);
    pthread_mutex_unlock(&load_lock);
    return r;
}

static carc_rules *variant_load_locked(const char *name_or_path, const char *const *overrides, int noverrides,
                                       char *err, size_t errn)
{
    variant_spec *v = calloc(1, sizeof *v);
    struct carc_rules *r = rules_alloc();
    if (!v || !r) {
        free(v);
        free(r);
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    /* A file that exists is taken as given; otherwise a name under the data
     * directory's variants/ ("base", "house/road-closer"). */
    size_t nl = strlen(name_or_path);
    if (access(name_or_path, R_OK) == 0 && nl > 4 && strcmp(name_or_path + nl - 4, ".ini") == 0)
        snprintf(v->path, sizeof v->path, "%s", name_or_path);
    else
        snprintf(v->path, sizeof v->path, "%s/variants/%s%s", carc_data_dir(), name_or_path,
                 nl > 4 && strcmp(name_or_path + nl - 4, ".ini") == 0 ? "" : ".ini");
    if (load_spec(v, v->path, err, errn) < 0 || build(r, v, overrides, noverrides, err, errn) < 0) {
        free(v);
        carc_rules_free(r);
        return NULL;
    }
    if (!r->name[0]) snprintf(r->name, sizeof r->name, "%s", name_or_path);
    free(v);
    return r;
}

carc_rules *carc_rules_from_tileset(const char *path, char *err, size_t errn)
{
    struct carc_rules *r = rules_alloc();
    if (!r) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    if (tileset_load(r, path, err, errn) < 0) {
        carc_rules_free(r);
        return NULL;
    }
    /* Kinds a set declares need a plugin to play; for checking, accept them. */
    for (int i = 0; i < r->nkinds; i++)
        if (r->kinds[i].owner < 0) r->kinds[i].owner = 0;
    snprintf(r->name, sizeof r->name, "%s", r->sets[0].name);
    r->allow_no_start = true;
    if (rules_finish(r, err, errn) < 0) {
        carc_rules_free(r);
        return NULL;
    }
    return r;
}

void carc_rules_free(carc_rules *r)
{
    if (!r) return;
    plugins_unload(r);
    free(r->types);
    free(r);
}

const char *carc_rules_name(const carc_rules *r) { return r->name; }
int carc_rules_min_players(const carc_rules *r) { return r->min_players; }
int carc_rules_max_players(const carc_rules *r) { return r->max_players; }
int carc_tile_types(const carc_rules *r) { return r->ntypes; }
const char *carc_tile_set_of(const carc_rules *r, int type) { return r->sets[r->types[type].set].name; }
const char *carc_tile_id(const carc_rules *r, int type) { return r->types[type].id; }
int carc_tile_count(const carc_rules *r, int type) { return r->types[type].count; }

int carc_tile_type_find(const carc_rules *r, const char *set_colon_id)
{
    const char *colon = strchr(set_colon_id, ':');
    if (!colon || colon == set_colon_id || colon - set_colon_id >= NAME_LEN) return -1;
    char set[NAME_LEN];
    snprintf(set, sizeof set, "%.*s", (int)(colon - set_colon_id), set_colon_id);
    return rules_type(r, set, colon + 1);
}

const char *carc_rules_option(const carc_rules *r, const char *key, char *buf, size_t n)
{
    const option_def *o = rules_option_c(r, key);
    if (!o) return NULL;
    if (o->type == OPT_INT) snprintf(buf, n, "%d", o->value);
    else snprintf(buf, n, "%s", o->values[o->value]);
    return buf;
}

void carc_rules_describe(const carc_rules *r, void *file)
{
    FILE *f = file;
    fprintf(f, "[variant]\nname = %s\n", r->name);
    if (r->title[0]) fprintf(f, "title = %s\n", r->title);
    fprintf(f, "players = %d-%d\n\n[tiles]\nsets =", r->min_players, r->max_players);
    for (int i = 0; i < r->nsets; i++) fprintf(f, " %s", r->sets[i].name);
    fprintf(f, "\n# %d tiles: the start tile %s:%s and a pile of %d\n", r->max_tiles,
            r->sets[r->types[r->start_type].set].name, r->types[r->start_type].id, r->pile_size);
    for (int i = 0; i < r->ntypes; i++)
        if (r->types[i].count != r->types[i].base_count)
            fprintf(f, "%s:%s = %d\n", r->sets[r->types[i].set].name, r->types[i].id, r->types[i].count);
    fprintf(f, "\n[plugins]\nload =");
    for (int i = 0; i < r->nplugins; i++)
        if (r->plugins[i]->dl || !strstr(r->plugins[i]->path, ".lua")) fprintf(f, " %s", r->plugins[i]->name);
    fprintf(f, "\nscripts =");
    for (int i = 0; i < r->nplugins; i++)
        if (strstr(r->plugins[i]->path, ".lua")) fprintf(f, " %s", r->plugins[i]->path);
    fprintf(f, "\n\n[options]\n");
    for (int i = 0; i < r->nopts; i++) {
        const option_def *o = &r->opts[i];
        if (o->type == OPT_INT) fprintf(f, "%s = %d\n", o->key, o->value);
        else fprintf(f, "%s = %s\n", o->key, o->values[o->value]);
    }
}

const char *carc_rules_title(const carc_rules *r) { return r->title[0] ? r->title : r->name; }

void carc_tileset_summary(const carc_rules *r, void *file)
{
    FILE *f = file;
    int kind_tiles[MAX_KINDS] = {0}, marks[MAX_MARKS] = {0}, tmarks[MAX_TILE_MARKS] = {0};
    for (int i = 0; i < r->ntypes; i++) {
        const tile_type *t = &r->types[i];
        bool seen[MAX_KINDS] = {false};
        for (int s = 0; s < t->nsegs; s++) {
            const seg_def *sd = &t->segs[s];
            seen[sd->kind] = true;
            for (int m = 0; m < sd->nmarks; m++) marks[sd->mark[m]] += sd->mark_count[m] * t->count;
        }
        for (int k = 0; k < r->nkinds; k++) kind_tiles[k] += seen[k] ? t->count : 0;
        for (int m = 0; m < r->ntmarks; m++)
            if (t->tile_marks & (1u << m)) tmarks[m] += t->count;
    }
    fprintf(f, "  tiles with a segment of each kind:");
    for (int k = 0; k < r->nkinds; k++) fprintf(f, " %s %d", r->kinds[k].name, kind_tiles[k]);
    fprintf(f, "\n  marks (every copy counted):");
    for (int m = 0; m < r->nmarks; m++) fprintf(f, " %s %d", r->marks[m], marks[m]);
    fprintf(f, "\n  tile marks:");
    for (int m = 0; m < r->ntmarks; m++) fprintf(f, " %s %d", r->tmarks[m], tmarks[m]);
    const tile_type *st = &r->types[r->start_type];
    fprintf(f, "\n  start tile: %s:%s%s\n", r->sets[st->set].name, st->id,
            r->start_assumed ? " (none is marked start; a variant must start from another set)" : "");
}
