/* variant.c - builds rules from a variant: its composition resolved
 * (compose.c), then the plugins, scripts and tile sets loaded, counts and
 * options set; and the resolved composition as text (carc variant show). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compose.h"
#include "kernel_host.h"
#include "plugin.h"
#include "tileset.h"

#ifndef CARC_DATADIR
#define CARC_DATADIR "."
#endif

const char *carc_data_dir(void)
{
    const char *d = getenv("CARC_DATA");
    return d && *d ? d : CARC_DATADIR;
}

static struct carc_rules *rules_alloc(void)
{
    struct carc_rules *r = calloc(1, sizeof *r);
    if (r) rules_init_builtins(r);
    return r;
}

/* "file:line (module M): message" */
static int at(const composition *c, char *err, size_t errn, const spec_item *it, const char *msg)
{
    char m[1200];
    snprintf(m, sizeof m, "%s", msg);
    if (it->module != c->top)
        snprintf(err, errn, "%s:%d (module %s): %s", it->file, it->line, comp_module_label(c, it->module), m);
    else
        snprintf(err, errn, "%s:%d: %s", it->file, it->line, m);
    return -1;
}

/* The item that brought the plugin or script of this name. */
static const spec_item *item_named(const composition *c, const char *name)
{
    for (int i = 0; i < c->nlist; i++) {
        char n[256];
        comp_item_name(c->list[i], n, sizeof n);
        if (c->list[i]->kind != IT_SET && strcmp(n, name) == 0) return c->list[i];
    }
    return NULL;
}

/* A second plugin defined a name the first one owns: name both, with the
 * modules that brought them. */
static int clash(const composition *c, struct carc_rules *r, char *err, size_t errn)
{
    char msg[1400];
    snprintf(msg, sizeof msg, "%s", r->conflict);
    const char *both = strstr(r->conflict, "defined by both ");
    if (both) {
        char a[64] = "", b[64] = "";
        if (sscanf(both + 16, "%63s and %63s", a, b) == 2) {
            const spec_item *ia = item_named(c, a), *ib = item_named(c, b);
            if (ia && ib) {
                size_t u = strlen(msg);
                snprintf(msg + u, sizeof msg - u,
                         " (%s from module %s, %s:%d; %s from module %s, %s:%d): one name with two meanings, so "
                         "these two cannot be combined",
                         a, comp_module_label(c, ia->module), ia->file, ia->line, b, comp_module_label(c, ib->module),
                         ib->file, ib->line);
            }
        }
    }
    snprintf(err, errn, "%s", msg);
    return -1;
}

/* How to add the module or script that would bring `prefix` (the part of an
 * option key before its dot); 0 when nothing shipped has that name. */
static int how_to_add(const char *prefix, const char *variant, char *out, size_t n)
{
    char path[1200];
    comp_shipped_path(prefix, path, sizeof path);
    if (access(path, R_OK) == 0) {
        snprintf(out, n, "add it with `--variant %s+%s` (or `include = %s` in a variant file)", variant, prefix,
                 prefix);
        return 1;
    }
    snprintf(path, sizeof path, "%s/scripts/%s.lua", carc_data_dir(), prefix);
    if (access(path, R_OK) == 0) {
        snprintf(out, n, "add it with `scripts = %s` in the [plugins] of a variant file", prefix);
        return 1;
    }
    return 0;
}

/* An option that did not set: say why, with the closest names. */
static void option_error(const struct carc_rules *r, const char *key, const char *value, const char *msg,
                         const char *variant, char *out, size_t n)
{
    const option_def *o = rules_option_c(r, key);
    char hint[300] = "";
    if (o && o->type == OPT_ENUM) {
        const char *vals[8];
        for (int i = 0; i < o->nvalues; i++) vals[i] = o->values[i];
        carc_suggest(value, vals, o->nvalues, hint, sizeof hint);
        snprintf(out, n, "%s%s%s%s", msg, hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "");
        return;
    }
    if (o) {
        snprintf(out, n, "%s", msg);
        return;
    }
    const char *dot = strchr(key, '.');
    if (dot) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(dot - key), key);
        bool loaded = false;
        for (int i = 0; i < r->nplugins; i++) loaded |= strcmp(r->plugins[i]->name, prefix) == 0;
        char how[600];
        if (!loaded && how_to_add(prefix, variant, how, sizeof how)) {
            snprintf(out, n, "option '%s': %s is not in this variant; %s", key, prefix, how);
            return;
        }
    }
    const char *keys[MAX_OPTIONS];
    for (int i = 0; i < r->nopts; i++) keys[i] = r->opts[i].key;
    carc_suggest(key, keys, r->nopts, hint, sizeof hint);
    snprintf(out, n, "unknown option '%s'%s%s%s (`carc variant show %s` lists every option of the variant)", key,
             hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "", variant);
}

static void tileset_twice(const struct carc_rules *r, const spec_item *it, char *msg, size_t n)
{
    for (int k = 0; k < r->nsets; k++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "'%s'", r->sets[k].name);
        if (!strstr(msg, quoted)) continue;
        size_t u = strlen(msg);
        snprintf(msg + u, n - u, ": %s and %s are two files for one tile set, so its tile ids (%s:...) would mean two tiles",
                 r->sets[k].path, it->value, r->sets[k].name);
        return;
    }
}

static int load_items(struct carc_rules *r, const composition *c, char *err, size_t errn)
{
    char msg[1200], dir[512];
    for (int pass = 0; pass < 3; pass++) { /* C plugins, then scripts, then tile sets */
        item_kind want = pass == 0 ? IT_PLUGIN : pass == 1 ? IT_SCRIPT : IT_SET;
        for (int i = 0; i < c->nlist; i++) {
            const spec_item *it = c->list[i];
            if (it->kind != want) continue;
            int rc;
            if (want == IT_PLUGIN) {
                snprintf(dir, sizeof dir, "%s", it->file);
                char *slash = strrchr(dir, '/');
                if (slash) *slash = 0;
                rc = plugin_load_entry(r, it->value, dir, msg, sizeof msg);
            } else if (want == IT_SCRIPT) {
                rc = script_load(r, it->value, msg, sizeof msg);
            } else {
                rc = tileset_load(r, it->value, msg, sizeof msg);
                if (rc < 0 && strstr(msg, "loaded twice")) tileset_twice(r, it, msg, sizeof msg);
            }
            /* A name another plugin defined first: both named, whatever the
             * refused call's own message and traceback said. */
            if (r->conflict[0]) return clash(c, r, err, errn);
            if (rc < 0) return at(c, err, errn, it, msg);
        }
    }
    return 0;
}

static int set_values(struct carc_rules *r, const composition *c, char *err, size_t errn)
{
    char msg[1200];
    for (int i = 0; i < c->nvalues; i++) {
        const spec_item *it = c->values[i];
        if (it->kind != IT_COUNT) continue;
        char set[NAME_LEN];
        const char *colon = strchr(it->key, ':');
        snprintf(set, sizeof set, "%.*s", (int)(colon - it->key), it->key);
        int t = rules_type(r, set, colon + 1);
        if (t < 0) {
            snprintf(msg, sizeof msg, "no tile %s in the variant's tile sets", it->key);
            return at(c, err, errn, it, msg);
        }
        char *end;
        long n = strtol(it->value, &end, 10);
        if (!*it->value || *end || n < 0 || n > 10000) {
            snprintf(msg, sizeof msg, "tile count expects a whole number from 0 to 10000, not '%s'", it->value);
            return at(c, err, errn, it, msg);
        }
        r->types[t].count = (int)n;
    }
    for (int i = 0; i < c->nvalues; i++) {
        const spec_item *it = c->values[i];
        if (it->kind != IT_OPTION) continue;
        if (rules_set_option(r, it->key, it->value, msg, sizeof msg) < 0) {
            char full[1400];
            option_error(r, it->key, it->value, msg, c->name, full, sizeof full);
            return at(c, err, errn, it, full);
        }
    }
    return 0;
}

static int build(struct carc_rules *r, const composition *c, const char *const *overrides, int nover, char *err,
                 size_t errn)
{
    char msg[1200];
    snprintf(r->name, sizeof r->name, "%s", c->name);
    snprintf(r->title, sizeof r->title, "%s", c->title);
    snprintf(r->path, sizeof r->path, "%s", c->mods[c->top].shown);
    if (c->min_players) {
        r->min_players = c->min_players;
        r->max_players = c->max_players;
    }
    for (int o = 0; o < c->norder; o++) {
        if (c->order[o] == c->top && !c->mods[c->top].path[0]) continue; /* a command-line composition */
        size_t u = strlen(r->modules);
        snprintf(r->modules + u, sizeof r->modules - u, "%s%s", u ? " " : "", comp_module_label(c, c->order[o]));
    }
    if (load_items(r, c, err, errn) < 0 || set_values(r, c, err, errn) < 0) return -1;
    for (int i = 0; i < nover; i++) {
        char key[128];
        const char *eq = strchr(overrides[i], '=');
        if (!eq || eq == overrides[i] || (size_t)(eq - overrides[i]) >= sizeof key) {
            snprintf(err, errn, "option override '%s' is not KEY=VALUE", overrides[i]);
            return -1;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - overrides[i]), overrides[i]);
        if (rules_set_option(r, key, eq + 1, msg, sizeof msg) < 0) {
            option_error(r, key, eq + 1, msg, c->name, err, errn);
            return -1;
        }
    }
    if (rules_finish(r, msg, sizeof msg) < 0) {
        snprintf(err, errn, "%s", msg);
        return -1;
    }
    return plugins_ready(r, err, errn);
}

/* ---- the resolved composition as a variant file (carc variant show) ------------------ */

#define GIVEN "# given on the command line or in the record"

static void source_line(FILE *f, const composition *c, const spec_item *it, char *last, size_t lastn)
{
    char src[1200];
    if (!it) snprintf(src, sizeof src, "# default");
    else if (it->module == c->top) snprintf(src, sizeof src, "# from this variant");
    else snprintf(src, sizeof src, "# from %s (%s:%d)", comp_module_label(c, it->module), c->mods[it->module].path, it->line);
    if (strcmp(src, last) != 0) fprintf(f, "%s\n", src);
    snprintf(last, lastn, "%s", src);
}

static const spec_item *value_source(const composition *c, item_kind kind, const char *key)
{
    for (int i = 0; i < c->nvalues; i++)
        if (c->values[i]->kind == kind && strcmp(c->values[i]->key, key) == 0) return c->values[i];
    return NULL;
}

static void show_withouts(FILE *f, const composition *c, item_kind kind)
{
    const module *top = &c->mods[c->top];
    for (int i = 0; i < top->nitems; i++)
        if (top->items[i].kind == kind) fprintf(f, "without = %s\n", top->items[i].key);
}

static void describe_modules(FILE *f, const struct carc_rules *r, const composition *c)
{
    const module *top = &c->mods[c->top];
    fprintf(f, "# %s as carc resolved it: its modules, and where each tile set, plugin,\n"
               "# script and option value comes from. This text loads as a variant file\n"
               "# from any directory.\n",
            r->name);
    fprintf(f, "[variant]\nname = %s\n", r->name);
    if (r->title[0]) fprintf(f, "title = %s\n", r->title);
    fprintf(f, "players = %d-%d\n", r->min_players, r->max_players);
    if (top->ninc) {
        /* one line, or one line each where they would not fit in one */
        size_t len = strlen("include =");
        for (int i = 0; i < top->ninc; i++) len += 1 + strlen(c->mods[top->inc[i]].ref);
        fprintf(f, "include =");
        for (int i = 0; i < top->ninc; i++)
            fprintf(f, "%s%s", i && len > INI_LINE_MAX_CHARS ? "\ninclude = " : " ", c->mods[top->inc[i]].ref);
        fprintf(f, "\n");
    }
    show_withouts(f, c, IT_WITHOUT_MODULE);
    if (c->norder > 1) {
        fprintf(f, "# modules, in the order they load:\n");
        for (int o = 0; o < c->norder; o++) {
            int m = c->order[o];
            if (m != c->top) fprintf(f, "#   %s (%s)\n", comp_module_label(c, m), c->mods[m].path);
        }
    }
}

static void describe(FILE *f, const struct carc_rules *r, const composition *c, const char *const *overrides,
                     int nover)
{
    char last[1200] = "", ref[1200];
    describe_modules(f, r, c);
    fprintf(f, "\n[tiles]\n# %d tiles: the start tile %s:%s and a pile of %d\n", r->max_tiles,
            r->sets[r->types[r->start_type].set].name, r->types[r->start_type].id, r->pile_size);
    for (int i = 0; i < c->nlist; i++)
        if (c->list[i]->kind == IT_SET) {
            source_line(f, c, c->list[i], last, sizeof last);
            comp_item_ref(c->list[i], ref, sizeof ref);
            fprintf(f, "sets = %s\n", ref);
        }
    show_withouts(f, c, IT_WITHOUT_SET);
    for (int i = 0; i < r->ntypes; i++)
        if (r->types[i].count != r->types[i].base_count) {
            char key[96];
            snprintf(key, sizeof key, "%s:%s", r->sets[r->types[i].set].name, r->types[i].id);
            source_line(f, c, value_source(c, IT_COUNT, key), last, sizeof last);
            fprintf(f, "%s = %d\n", key, r->types[i].count);
        }
    fprintf(f, "\n[plugins]\n");
    last[0] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < c->nlist; i++)
            if (c->list[i]->kind == (pass ? IT_SCRIPT : IT_PLUGIN)) {
                source_line(f, c, c->list[i], last, sizeof last);
                comp_item_ref(c->list[i], ref, sizeof ref);
                fprintf(f, "%s = %s\n", pass ? "scripts" : "load", ref);
            }
    show_withouts(f, c, IT_WITHOUT_PLUGIN);
    fprintf(f, "\n[options]\n");
    last[0] = 0;
    for (int i = 0; i < r->nopts; i++) {
        const option_def *o = &r->opts[i];
        bool given = false;
        for (int k = 0; k < nover && !given; k++) {
            size_t kl = strlen(o->key);
            given = strncmp(overrides[k], o->key, kl) == 0 && overrides[k][kl] == '=';
        }
        if (given) {
            if (strcmp(last, GIVEN) != 0) fprintf(f, "%s\n", GIVEN);
            snprintf(last, sizeof last, "%s", GIVEN);
        } else {
            /* A value the variant itself sets to the default is the default:
             * what this text prints loads back to the same sources. */
            const spec_item *src = value_source(c, IT_OPTION, o->key);
            if (src && src->module == c->top && o->value == o->def) src = NULL;
            source_line(f, c, src, last, sizeof last);
        }
        if (o->type == OPT_INT) fprintf(f, "%s = %d\n", o->key, o->value);
        else fprintf(f, "%s = %s\n", o->key, o->values[o->value]);
    }
}

/* Cuts each comment line longer than a variant file's lines may be (a
 * module's path in "# from ..."), at a character's start, with "...": the
 * text loads back as a variant. */
static void cut_long_comments(char *buf)
{
    char *w = buf;
    for (const char *line = buf; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        size_t keep = n;
        if (n > INI_LINE_MAX_CHARS && line[strspn(line, " \t")] == '#') {
            keep = INI_LINE_MAX_CHARS - 3;
            while (keep > 0 && ((unsigned char)line[keep] & 0xc0) == 0x80) keep--;
        }
        memmove(w, line, keep);
        w += keep;
        if (keep < n) {
            memcpy(w, "...", 3);
            w += 3;
        }
        if (nl) *w++ = '\n';
        line += n + (nl ? 1 : 0);
    }
    *w = 0;
}

static char *describe_text(const struct carc_rules *r, const composition *c, const char *const *overrides,
                           int nover)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    describe(f, r, c, overrides, nover);
    fclose(f);
    if (buf) cut_long_comments(buf);
    return buf;
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

/* Every file the rules came from, once each, one a line: the variant files
 * in the order they were read, the tile sets, then the plugins and scripts. NULL when out
 * of memory (carc_rules_sources then answers ""). */
static char *sources_text(const struct carc_rules *r, const composition *c)
{
    const char *paths[COMP_MAX_MODULES + MAX_SETS + MAX_PLUGINS];
    int n = 0;
    for (int i = 0; i < c->nmods; i++)
        if (c->mods[i].path[0]) paths[n++] = c->mods[i].path;
    for (int i = 0; i < r->nsets; i++)
        if (r->sets[i].path[0]) paths[n++] = r->sets[i].path;
    for (int i = 0; i < r->nplugins; i++)
        if (r->plugins[i]->path[0]) paths[n++] = r->plugins[i]->path;
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(paths[i]) + 1;
    char *out = malloc(len);
    if (!out) return NULL;
    out[0] = 0;
    size_t u = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) seen = strcmp(paths[i], paths[j]) == 0;
        if (!seen) u += (size_t)snprintf(out + u, len - u, "%s\n", paths[i]);
    }
    return out;
}

static carc_rules *variant_load_locked(const char *name_or_path, const char *const *overrides, int noverrides,
                                       char *err, size_t errn)
{
    composition *c = calloc(1, sizeof *c);
    struct carc_rules *r = rules_alloc();
    if (!c || !r) {
        free(c);
        free(r);
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    if (comp_load(c, name_or_path, overrides, noverrides, err, errn) < 0 ||
        build(r, c, overrides, noverrides, err, errn) < 0) {
        comp_free(c);
        free(c);
        carc_rules_free(r);
        return NULL;
    }
    r->shown = describe_text(r, c, overrides, noverrides);
    r->sources = sources_text(r, c);
    comp_free(c);
    free(c);
    return r;
}

int carc_variant_reference(const char *name_or_path, char *out, size_t n)
{
    size_t l = strlen(name_or_path);
    char part[PATH_MAX];
    if (access(name_or_path, R_OK) == 0 && l > 4 && strcmp(name_or_path + l - 4, ".ini") == 0) {
        return snprintf(out, n, "%s", realpath(name_or_path, part) ? part : name_or_path) < (int)n ? 0 : -1;
    }
    if (!strchr(name_or_path, '+')) return snprintf(out, n, "%s", name_or_path) < (int)n ? 0 : -1;
    char *buf = strdup(name_or_path);
    if (!buf) return -1;
    if (n) out[0] = 0;
    int rc = 0;
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        size_t tl = strlen(t);
        if (access(t, R_OK) == 0 && tl > 4 && strcmp(t + tl - 4, ".ini") == 0 && realpath(t, part)) t = part;
        size_t u = strlen(out);
        if (snprintf(out + u, n > u ? n - u : 0, "%s%s", u ? "+" : "", t) >= (int)(n > u ? n - u : 0)) rc = -1;
    }
    free(buf);
    return rc;
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
    free(r->shown);
    free(r->sources);
    free(r->types);
    free(r);
}

const char *carc_rules_name(const carc_rules *r) { return r->name; }
int carc_rules_min_players(const carc_rules *r) { return r->min_players; }
int carc_rules_max_players(const carc_rules *r) { return r->max_players; }

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
    if (r->shown) fputs(r->shown, (FILE *)file);
}

const char *carc_rules_modules(const carc_rules *r) { return r->modules; }
const char *carc_rules_sources(const carc_rules *r) { return r->sources ? r->sources : ""; }
int carc_rules_options(const carc_rules *r) { return r->nopts; }
const char *carc_rules_option_key(const carc_rules *r, int i) { return i >= 0 && i < r->nopts ? r->opts[i].key : NULL; }
int carc_rules_option_is_default(const carc_rules *r, int i)
{
    return i < 0 || i >= r->nopts || r->opts[i].value == r->opts[i].def;
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
