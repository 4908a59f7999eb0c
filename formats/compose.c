/* compose.c - reads variant files as modules and resolves a composition:
 * which modules are in it, the sets, plugins and scripts in load order, the
 * option values and tile counts in force, with where each came from
 * (compose.h, docs/variants.md). */
#include "compose.h"

#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "carc.h"
#include "inireader.h"

#define CARC_MAX_PLAYERS_SAID 6

typedef struct read_ctx {
    composition *c;
    int m;                 /* the module being read */
    ini_reader_state rd;
    char dir[512];
    char *err;
    size_t errn;
    int depth;
    bool include_failed;
} read_ctx;

#define RFAIL(r, ...) return (ini_reader_fail(&(r)->rd, __VA_ARGS__), 0)

static void dir_of(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash == out) out[1] = 0;
    else if (slash) *slash = 0;
    else snprintf(out, n, ".");
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

static bool exists(const char *path) { return access(path, R_OK) == 0; }

/* An absolute, normalised path when the file exists; else absolute as
 * joined (the error comes when it is opened). */
static void absolute(const char *path, char *out, size_t n)
{
    char buf[PATH_MAX];
    if (realpath(path, buf)) {
        snprintf(out, n, "%s", buf);
    } else if (path[0] == '/') {
        snprintf(out, n, "%s", path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, ".");
        snprintf(out, n, "%s/%s", cwd, path);
    }
}

/* A name resolves under the data directory (DATA/sub/NAME.ext); a value with
 * a '/' or ending in ext is a path relative to base_dir. */
static void join(const char *value, const char *base_dir, const char *sub, const char *ext, char *out, size_t n)
{
    if (value[0] == '/') snprintf(out, n, "%s", value);
    else if (strchr(value, '/') || ends_with(value, ext)) snprintf(out, n, "%s/%s", base_dir, value);
    else snprintf(out, n, "%s/%s/%s%s", carc_data_dir(), sub, value, ext);
}

static void resolve(const char *value, const char *base_dir, const char *sub, const char *ext, char *out, size_t n)
{
    char joined[1200];
    join(value, base_dir, sub, ext, joined, sizeof joined);
    absolute(joined, out, n);
}

void comp_shipped_path(const char *name, char *out, size_t n)
{
    char joined[1200];
    snprintf(joined, sizeof joined, "%s/variants/%s%s", carc_data_dir(), name, ends_with(name, ".ini") ? "" : ".ini");
    absolute(joined, out, n);
}

/* The data directory's sub/ folder, absolute, with a trailing '/'. */
static void data_sub(const char *sub, char *out, size_t n)
{
    char d[1100];
    snprintf(d, sizeof d, "%s/%s", carc_data_dir(), sub);
    absolute(d, out, n - 1);
    size_t l = strlen(out);
    if (l + 1 < n && (l == 0 || out[l - 1] != '/')) snprintf(out + l, n - l, "/");
}

/* DATA/sub/NAME.ext -> NAME (one folder down allowed for variants); else the path. */
static void ref_of(const char *path, const char *sub, const char *ext, bool nested, char *out, size_t n)
{
    char base[1200];
    data_sub(sub, base, sizeof base);
    size_t bl = strlen(base);
    if (strncmp(path, base, bl) == 0 && ends_with(path, ext)) {
        const char *rest = path + bl;
        size_t rl = strlen(rest) - strlen(ext);
        const char *slash = memchr(rest, '/', rl);
        bool ok = rl > 0 && (!slash || (nested && !memchr(slash + 1, '/', rl - (size_t)(slash + 1 - rest))));
        if (ok) {
            snprintf(out, n, "%.*s", (int)rl, rest);
            /* A name must resolve back to the same file. */
            char back[1200];
            if (strcmp(sub, "variants") == 0) comp_shipped_path(out, back, sizeof back);
            else resolve(out, ".", sub, ext, back, sizeof back);
            if (strcmp(back, path) == 0) return;
        }
    }
    snprintf(out, n, "%s", path);
}

static void stem(const char *path, const char *ext, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t l = strlen(b);
    if (ends_with(b, ext)) l -= strlen(ext);
    snprintf(out, n, "%.*s", (int)l, b);
}

void comp_item_ref(const spec_item *it, char *out, size_t n)
{
    if (it->kind == IT_SET) ref_of(it->abs, "tiles", ".ini", false, out, n);
    else if (it->kind == IT_SCRIPT) ref_of(it->abs, "scripts", ".lua", false, out, n);
    else snprintf(out, n, "%s", it->abs[0] ? it->abs : it->value);
}

void comp_item_name(const spec_item *it, char *out, size_t n)
{
    if (it->kind == IT_SCRIPT) stem(it->value, ".lua", out, n);
    else if (it->kind == IT_PLUGIN && (strchr(it->value, '/') || ends_with(it->value, ".so"))) stem(it->value, ".so", out, n);
    else if (it->kind == IT_SET) stem(it->value, ".ini", out, n);
    else snprintf(out, n, "%s", it->value);
}

const char *comp_module_label(const composition *c, int m)
{
    const module *md = &c->mods[m];
    return md->path[0] && md->ref[0] != '/' ? md->ref : md->name;
}

/* ---- reading modules ------------------------------------------------------------ */

static int add_item(composition *c, int m, item_kind kind, const char *key, const char *value, const char *abs,
                    const char *file, int line)
{
    module *md = &c->mods[m];
    if (md->nitems >= COMP_MAX_ITEMS) return -1;
    if (md->nitems == md->cap) {
        int nc = md->cap ? md->cap * 2 : 16;
        spec_item *ni = realloc(md->items, (size_t)nc * sizeof *ni);
        if (!ni) return -1;
        md->items = ni;
        md->cap = nc;
    }
    spec_item *it = &md->items[md->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    snprintf(it->key, sizeof it->key, "%s", key);
    snprintf(it->value, sizeof it->value, "%s", value);
    snprintf(it->abs, sizeof it->abs, "%s", abs ? abs : "");
    snprintf(it->file, sizeof it->file, "%s", file);
    it->line = line;
    it->module = m;
    return 0;
}

static int load_module(composition *c, const char *path, int depth, char *err, size_t errn);

/* "no variant named 'robers' (did you mean `robbers`? ...)" */
static void unknown_variant(const char *name, char *err, size_t errn)
{
    char **names, hint[300] = "";
    int n = carc_variant_names(&names);
    carc_suggest(name, (const char *const *)names, n, hint, sizeof hint);
    carc_variant_names_free(names, n);
    snprintf(err, errn, "no variant or module named '%s'%s%s%s (`carc variants` lists them all)", name,
             hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "");
}

/* An include: a name under DATA/variants, or a path relative to the file
 * (then, failing that, a name with a folder: "house/road-closer"). */
static int include_path(const char *value, const char *dir, char *out, size_t n, char *err, size_t errn)
{
    bool pathlike = value[0] == '/' || strchr(value, '/') || ends_with(value, ".ini");
    if (pathlike) {
        join(value, dir, "variants", ".ini", out, n);
        if (exists(out) || value[0] == '/' || value[0] == '.' || ends_with(value, ".ini")) return 0;
    }
    snprintf(out, n, "%s/variants/%s.ini", carc_data_dir(), value);
    if (exists(out)) return 0;
    unknown_variant(value, err, errn);
    return -1;
}

static int list_key(read_ctx *r, item_kind kind, const char *sub, const char *ext, const char *value)
{
    composition *c = r->c;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", value);
    bool any = false;
    for (char *save = NULL, *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
        char joined[1200], abs[1200] = "";
        any = true;
        if (kind == IT_PLUGIN) {
            snprintf(joined, sizeof joined, "%s", t);
            if (strchr(t, '/') || ends_with(t, ".so")) {
                char j[1300];
                if (t[0] == '/') snprintf(j, sizeof j, "%s", t);
                else snprintf(j, sizeof j, "%s/%s", r->dir, t);
                absolute(j, abs, sizeof abs);
            }
        } else if (kind == IT_SET || kind == IT_SCRIPT) {
            join(t, r->dir, sub, ext, joined, sizeof joined);
            absolute(joined, abs, sizeof abs);
        } else {
            snprintf(joined, sizeof joined, "%s", t);
        }
        if (add_item(c, r->m, kind, t, joined, abs[0] ? abs : NULL, r->rd.path, r->rd.cur_line) < 0)
            RFAIL(r, "too many entries (at most %d)", COMP_MAX_ITEMS);
    }
    if (!any && (kind == IT_SET || kind == IT_PLUGIN || kind == IT_SCRIPT) && !c->mods[r->m].empty_list_line)
        c->mods[r->m].empty_list_line = r->rd.cur_line;
    return 1;
}

static int on_include(read_ctx *r, const char *value)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", value);
    for (char *save = NULL, *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
        if (r->depth >= 8) RFAIL(r, "includes nested deeper than 8 (a loop?)");
        char path[1200];
        if (include_path(t, r->dir, path, sizeof path, r->err, r->errn) < 0) {
            r->include_failed = true;
            RFAIL(r, "in the included variant '%s'", t);
        }
        int idx = load_module(r->c, path, r->depth + 1, r->err, r->errn);
        if (idx < 0) {
            r->include_failed = true;
            RFAIL(r, "in the included variant '%s'", t);
        }
        module *md = &r->c->mods[r->m];
        bool dup = false;
        for (int i = 0; i < md->ninc; i++) dup |= md->inc[i] == idx;
        if (dup) continue; /* named twice: once is enough */
        if (md->ninc >= COMP_MAX_INCLUDES) RFAIL(r, "too many includes (at most %d)", COMP_MAX_INCLUDES);
        md->inc_line[md->ninc] = r->rd.cur_line;
        md->inc[md->ninc++] = idx;
    }
    return 1;
}

static int on_line(void *user, const char *section, const char *name, const char *value)
{
    read_ctx *r = user;
    composition *c = r->c;
    module *md = &c->mods[r->m];
    const char *file = r->rd.path;
    int line = r->rd.cur_line;
    if (strcmp(section, "variant") == 0) {
        if (strcmp(name, "name") == 0) {
            if (!*value || strlen(value) >= COMP_NAME_LEN) RFAIL(r, "bad variant name '%s'", value);
            snprintf(md->name, sizeof md->name, "%s", value);
            md->named = true;
        } else if (strcmp(name, "title") == 0 || strcmp(name, "description") == 0) {
            snprintf(md->title, sizeof md->title, "%s", value);
            md->titled = true;
        } else if (strcmp(name, "players") == 0) {
            int a, b;
            char tail;
            if (sscanf(value, "%d-%d%c", &a, &b, &tail) == 2 && a >= 1 && b >= a && b <= CARC_MAX_PLAYERS_SAID) {
                md->min_players = a;
                md->max_players = b;
            } else if (sscanf(value, "%d%c", &a, &tail) == 1 && a >= 1 && a <= CARC_MAX_PLAYERS_SAID) {
                md->min_players = md->max_players = a;
            } else {
                RFAIL(r, "players expects a range like 2-6 (at most %d), not '%s'", CARC_MAX_PLAYERS_SAID, value);
            }
        } else if (strcmp(name, "include") == 0) {
            return on_include(r, value);
        } else if (strcmp(name, "without") == 0) {
            return list_key(r, IT_WITHOUT_MODULE, "", "", value);
        } else if (strcmp(name, "requires") == 0) {
            if (strcmp(value, "first") != 0)
                RFAIL(r, "requires expects 'first' (the module's tile sets come before every other's), not '%s'", value);
            md->requires_first = true;
            md->requires_line = line;
        } else if (strcmp(name, "after") == 0 || strcmp(name, "conflicts") == 0) {
            bool after = strcmp(name, "after") == 0;
            char *dst = after ? md->after : md->conflicts;
            if (!*value || strlen(value) >= sizeof md->after) RFAIL(r, "%s expects module names, at most 255 characters", name);
            snprintf(dst, sizeof md->after, "%s", value);
            *(after ? &md->after_line : &md->conflicts_line) = line;
        } else {
            RFAIL(r, "unknown key '%s' in [variant] (expected name, title, players, include, without, requires, after, "
                     "conflicts)", name);
        }
    } else if (strcmp(section, "tiles") == 0) {
        if (strcmp(name, "sets") == 0) return list_key(r, IT_SET, "tiles", ".ini", value);
        if (strcmp(name, "without") == 0) return list_key(r, IT_WITHOUT_SET, "", "", value);
        /* "base:D = 3" reaches us as name "base", value "D = 3": the INI
         * reader also takes ':' as a separator. Put the key back together. */
        const char *eq = strchr(value, '=');
        if (!eq) RFAIL(r, "unknown key '%s' in [tiles] (expected sets, without, or SET:ID = COUNT)", name);
        char key[96];
        int idlen = (int)(eq - value);
        while (idlen > 0 && (value[idlen - 1] == ' ' || value[idlen - 1] == '\t')) idlen--;
        const char *cnt = eq + 1;
        while (*cnt == ' ' || *cnt == '\t') cnt++;
        if (idlen == 0 || snprintf(key, sizeof key, "%s:%.*s", name, idlen, value) >= (int)sizeof key)
            RFAIL(r, "expected SET:ID = COUNT in [tiles]");
        for (int i = 0; i < md->nitems; i++)
            if (md->items[i].kind == IT_COUNT && strcmp(md->items[i].key, key) == 0) {
                snprintf(md->items[i].value, sizeof md->items[i].value, "%s", cnt);
                md->items[i].line = line;
                return 1;
            }
        if (add_item(c, r->m, IT_COUNT, key, cnt, NULL, file, line) < 0) RFAIL(r, "too many entries");
    } else if (strcmp(section, "plugins") == 0) {
        if (strcmp(name, "load") == 0) return list_key(r, IT_PLUGIN, "plugins", ".so", value);
        if (strcmp(name, "scripts") == 0) return list_key(r, IT_SCRIPT, "scripts", ".lua", value);
        if (strcmp(name, "without") == 0) return list_key(r, IT_WITHOUT_PLUGIN, "", "", value);
        RFAIL(r, "unknown key '%s' in [plugins] (expected load, scripts, without)", name);
    } else if (strcmp(section, "options") == 0) {
        for (int i = 0; i < md->nitems; i++)
            if (md->items[i].kind == IT_OPTION && strcmp(md->items[i].key, name) == 0) {
                snprintf(md->items[i].value, sizeof md->items[i].value, "%s", value); /* the later line wins */
                md->items[i].line = line;
                return 1;
            }
        int nopt = 0;
        for (int i = 0; i < md->nitems; i++) nopt += md->items[i].kind == IT_OPTION;
        if (nopt >= COMP_MAX_OPTIONS || add_item(c, r->m, IT_OPTION, name, value, NULL, file, line) < 0)
            RFAIL(r, "too many entries (at most %d)", COMP_MAX_OPTIONS);
    } else {
        RFAIL(r, "unknown section [%s] (expected [variant], [tiles], [plugins], [options])", section);
    }
    return 1;
}

static int new_module(composition *c, char *err, size_t errn)
{
    if (c->nmods >= COMP_MAX_MODULES) {
        snprintf(err, errn, "more than %d modules in one variant", COMP_MAX_MODULES);
        return -1;
    }
    memset(&c->mods[c->nmods], 0, sizeof c->mods[0]);
    return c->nmods++;
}

/* Reads one module file once; a file reached again is the same module. */
static int load_module(composition *c, const char *shown, int depth, char *err, size_t errn)
{
    char path[512];
    absolute(shown, path, sizeof path);
    for (int i = 0; i < c->nmods; i++)
        if (c->mods[i].path[0] && strcmp(c->mods[i].path, path) == 0) {
            if (c->mods[i].state == 1) {
                snprintf(err, errn, "%s: includes itself (an include loop)", shown);
                return -1;
            }
            return i;
        }
    int m = new_module(c, err, errn);
    if (m < 0) return -1;
    module *md = &c->mods[m];
    snprintf(md->path, sizeof md->path, "%s", path);
    snprintf(md->shown, sizeof md->shown, "%s", shown);
    ref_of(path, "variants", ".ini", true, md->ref, sizeof md->ref);
    stem(path, ".ini", md->name, sizeof md->name);
    md->state = 1;
    read_ctx r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.m = m;
    r.err = err;
    r.errn = errn;
    r.depth = depth;
    dir_of(shown, r.dir, sizeof r.dir);
    if (ini_reader_open(&r.rd, shown, err, errn) < 0) return -1;
    int rc = ini_parse_stream(ini_reader_next, &r.rd, on_line, &r);
    if (r.include_failed) {
        /* err names the included file and its line; add ours in front. */
        char inner[1024];
        snprintf(inner, sizeof inner, "%s", err);
        ini_reader_close(&r.rd, rc, err, errn);
        size_t used = strlen(err);
        snprintf(err + used, errn > used ? errn - used : 0, ": %s", inner);
        return -1;
    }
    if (ini_reader_close(&r.rd, rc, err, errn) < 0) return -1;
    md = &c->mods[m];
    if (md->empty_list_line && md->ninc > 0) {
        snprintf(err, errn,
                 "%s:%d: an empty list takes nothing out: sets, load and scripts add to what the included "
                 "variants bring; to take something out, write `without = NAME` in [tiles] or [plugins] "
                 "(or `without = MODULE` in [variant])",
                 shown, md->empty_list_line);
        return -1;
    }
    md->state = 2;
    return m;
}

/* ---- resolving ----------------------------------------------------------------------- */

static void reach(const composition *c, int m, bool *seen)
{
    if (seen[m]) return;
    seen[m] = true;
    for (int i = 0; i < c->mods[m].ninc; i++) reach(c, c->mods[m].inc[i], seen);
}

static void order_active(composition *c, int m, bool *seen)
{
    if (seen[m] || c->removed[m]) return;
    seen[m] = true;
    for (int i = 0; i < c->mods[m].ninc; i++) order_active(c, c->mods[m].inc[i], seen);
    c->order[c->norder++] = m;
}

static bool module_matches(const composition *c, int m, const char *name)
{
    const module *md = &c->mods[m];
    char st[256];
    stem(md->path, ".ini", st, sizeof st);
    return strcmp(md->name, name) == 0 || strcmp(md->ref, name) == 0 || strcmp(st, name) == 0 ||
           strcmp(md->path, name) == 0;
}

/* `[variant] without = MODULE`, from any module of the variant: that module
 * and what only it brought are out. */
static int apply_module_withouts(composition *c, char *err, size_t errn)
{
    bool seen[COMP_MAX_MODULES] = {false};
    reach(c, c->top, seen);
    for (int m = 0; m < c->nmods; m++) {
        if (!seen[m]) continue;
        for (int i = 0; i < c->mods[m].nitems; i++) {
            const spec_item *it = &c->mods[m].items[i];
            if (it->kind != IT_WITHOUT_MODULE) continue;
            bool found = false;
            for (int k = 0; k < c->nmods; k++)
                if (seen[k] && k != c->top && module_matches(c, k, it->key)) {
                    c->removed[k] = true;
                    found = true;
                }
            if (!found) {
                const char *names[COMP_MAX_MODULES];
                int n = 0;
                char list[1200] = "", hint[300] = "";
                for (int k = 0; k < c->nmods; k++)
                    if (seen[k] && k != c->top) {
                        names[n++] = comp_module_label(c, k);
                        size_t u = strlen(list);
                        snprintf(list + u, sizeof list - u, "%s%s", u ? ", " : "", comp_module_label(c, k));
                    }
                carc_suggest(it->key, names, n, hint, sizeof hint);
                char what[1600];
                snprintf(what, sizeof what, "%s%s%s", hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "");
                snprintf(err, errn, "%s:%d: without = %s: no module of that name in this variant%s (its modules: %s)",
                         it->file, it->line, it->key, what, list[0] ? list : "none");
                return -1;
            }
        }
    }
    return 0;
}

static bool list_kind(item_kind k) { return k == IT_SET || k == IT_PLUGIN || k == IT_SCRIPT; }

static int push(const spec_item ***arr, int *n, const spec_item *it)
{
    const spec_item **na = realloc(*arr, (size_t)(*n + 1) * sizeof *na);
    if (!na) return -1;
    na[(*n)++] = it;
    *arr = na;
    return 0;
}

static const char *kind_word(item_kind k)
{
    return k == IT_SET ? "tile set" : k == IT_PLUGIN ? "C plugin" : "script";
}

/* The sets, plugins and scripts of the active modules in load order, each
 * once; then the item withouts. */
static int build_list(composition *c, char *err, size_t errn)
{
    for (int o = 0; o < c->norder; o++) {
        const module *md = &c->mods[c->order[o]];
        for (int i = 0; i < md->nitems; i++) {
            const spec_item *it = &md->items[i];
            if (!list_kind(it->kind)) continue;
            bool dup = false;
            char name[256];
            comp_item_name(it, name, sizeof name);
            for (int k = 0; k < c->nlist && !dup; k++) {
                const spec_item *o2 = c->list[k];
                bool plug = it->kind != IT_SET && o2->kind != IT_SET;
                if (o2->kind == it->kind && strcmp(o2->abs[0] ? o2->abs : o2->value, it->abs[0] ? it->abs : it->value) == 0) {
                    dup = true;
                } else if (plug) {
                    char oname[256];
                    comp_item_name(o2, oname, sizeof oname);
                    if (strcmp(oname, name) == 0) {
                        char msg[1800];
                        snprintf(msg, sizeof msg,
                                 "'%s' is brought twice, as two different things: the %s %s (module %s, %s:%d) and "
                                 "the %s %s (module %s); one name is one plugin (its options, reasons and figures "
                                 "would clash): take one out with `without = %s` or leave one module out",
                                 name, kind_word(o2->kind), o2->value, comp_module_label(c, o2->module), o2->file,
                                 o2->line, kind_word(it->kind), it->value, comp_module_label(c, it->module), name);
                        snprintf(err, errn, "%s:%d: %s", it->file, it->line, msg);
                        return -1;
                    }
                }
            }
            if (!dup && push(&c->list, &c->nlist, it) < 0) goto oom;
        }
    }
    for (int o = 0; o < c->norder; o++) {
        const module *md = &c->mods[c->order[o]];
        for (int i = 0; i < md->nitems; i++) {
            const spec_item *it = &md->items[i];
            if (it->kind != IT_WITHOUT_SET && it->kind != IT_WITHOUT_PLUGIN) continue;
            bool found = false;
            const char *names[256];
            char namebuf[256][64];
            int nn = 0;
            for (int k = 0; k < c->nlist; k++) {
                const spec_item *li = c->list[k];
                if ((li->kind == IT_SET) != (it->kind == IT_WITHOUT_SET)) continue;
                char name[256];
                comp_item_name(li, name, sizeof name);
                if (strcmp(name, it->key) == 0 || strcmp(li->key, it->key) == 0 || strcmp(li->value, it->key) == 0) {
                    memmove(&c->list[k], &c->list[k + 1], (size_t)(c->nlist - k - 1) * sizeof *c->list);
                    c->nlist--;
                    k--;
                    found = true;
                } else if (nn < 256) {
                    snprintf(namebuf[nn], sizeof namebuf[nn], "%s", name);
                    names[nn] = namebuf[nn];
                    nn++;
                }
            }
            if (!found) {
                char hint[300] = "";
                carc_suggest(it->key, names, nn, hint, sizeof hint);
                snprintf(err, errn, "%s:%d: without = %s: the variant has no such %s%s%s%s", it->file, it->line,
                         it->key, it->kind == IT_WITHOUT_SET ? "tile set" : "plugin or script",
                         hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "");
                return -1;
            }
        }
    }
    return 0;
oom:
    snprintf(err, errn, "out of memory");
    return -1;
}

/* Option values and tile counts of module m: its includes' (two includes
 * that disagree are a conflict, unless m settles it), then its own. */
typedef struct value_entry {
    const spec_item *it;
    const spec_item *other;   /* a disagreeing include's, unsettled */
} value_entry;

typedef struct value_map {
    value_entry *e;
    int n;
} value_map;

static value_entry *find_value(value_map *vm, const spec_item *it)
{
    for (int i = 0; i < vm->n; i++)
        if (vm->e[i].it->kind == it->kind && strcmp(vm->e[i].it->key, it->key) == 0) return &vm->e[i];
    return NULL;
}

static int add_value(value_map *vm, const spec_item *it, const spec_item *other)
{
    value_entry *ne = realloc(vm->e, (size_t)(vm->n + 1) * sizeof *ne);
    if (!ne) return -1;
    vm->e = ne;
    vm->e[vm->n++] = (value_entry){it, other};
    return 0;
}

static int resolve_values(const composition *c, int m, value_map *out)
{
    out->e = NULL;
    out->n = 0;
    const module *md = &c->mods[m];
    for (int i = 0; i < md->ninc; i++) {
        int sub = md->inc[i];
        if (c->removed[sub]) continue;
        value_map vm;
        if (resolve_values(c, sub, &vm) < 0) return -1;
        for (int k = 0; k < vm.n; k++) {
            value_entry *have = find_value(out, vm.e[k].it);
            if (!have) {
                if (add_value(out, vm.e[k].it, vm.e[k].other) < 0) return -1;
            } else if (strcmp(have->it->value, vm.e[k].it->value) != 0 && !have->other) {
                have->other = vm.e[k].it;
            }
        }
        free(vm.e);
    }
    for (int i = 0; i < md->nitems; i++) {
        const spec_item *it = &md->items[i];
        if (it->kind != IT_OPTION && it->kind != IT_COUNT) continue;
        value_entry *have = find_value(out, it);
        if (!have) {
            if (add_value(out, it, NULL) < 0) return -1;
        } else {
            /* The same value keeps its first source: "where it came from" is
             * who made it what it is. */
            if (strcmp(have->it->value, it->value) != 0) have->it = it;
            have->other = NULL;
        }
    }
    return 0;
}

static void resolve_players(const composition *c, int m, int *lo, int *hi, int *lo_from, int *hi_from)
{
    const module *md = &c->mods[m];
    if (md->min_players) {
        *lo = md->min_players;
        *hi = md->max_players;
        *lo_from = *hi_from = m;
        return;
    }
    for (int i = 0; i < md->ninc; i++) {
        int sub = md->inc[i];
        if (c->removed[sub]) continue;
        int a = 0, b = 0, fa = -1, fb = -1;
        resolve_players(c, sub, &a, &b, &fa, &fb);
        if (!a) continue;
        if (!*lo || a > *lo) {
            *lo = a;
            *lo_from = fa;
        }
        if (!*hi || b < *hi) {
            *hi = b;
            *hi_from = fb;
        }
    }
}

/* The position in c->order of the active module named `name`, or -1. */
static int active_position(const composition *c, const char *name)
{
    for (int o = 0; o < c->norder; o++)
        if (module_matches(c, c->order[o], name)) return o;
    return -1;
}

static bool brings_sets(const module *md)
{
    for (int i = 0; i < md->nitems; i++)
        if (md->items[i].kind == IT_SET) return true;
    return false;
}

/* What each active module requires of the composition (requires = first,
 * after, conflicts), checked once the modules' order is known. */
static int check_requirements(const composition *c, char *err, size_t errn)
{
    for (int o = 0; o < c->norder; o++) {
        const module *md = &c->mods[c->order[o]];
        if (md->requires_first)
            for (int p = 0; p < o; p++)
                if (brings_sets(&c->mods[c->order[p]])) {
                    snprintf(err, errn,
                             "%s:%d: module %s requires = first (its tile sets before every other's), but %s comes "
                             "before it: these cannot be combined in this order; put %s first (%s+...)",
                             md->shown, md->requires_line, md->name, c->mods[c->order[p]].name, md->name, md->name);
                    return -1;
                }
        char list[256], *save = NULL;
        snprintf(list, sizeof list, "%s", md->after);
        for (char *t = strtok_r(list, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
            int at = active_position(c, t);
            if (at < 0 || at > o) {
                snprintf(err, errn, "%s:%d: module %s needs %s before it (after = %s)%s", md->shown, md->after_line,
                         md->name, t, md->after, at < 0 ? ", which this composition lacks" : ", which comes after it");
                return -1;
            }
        }
        snprintf(list, sizeof list, "%s", md->conflicts);
        save = NULL;
        for (char *t = strtok_r(list, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save))
            if (active_position(c, t) >= 0) {
                snprintf(err, errn, "%s:%d: modules %s and %s cannot be combined (conflicts = %s)", md->shown,
                         md->conflicts_line, md->name, t, md->conflicts);
                return -1;
            }
    }
    return 0;
}

static int resolve_all(composition *c, const char *const *overrides, int noverrides, char *err, size_t errn)
{
    if (apply_module_withouts(c, err, errn) < 0) return -1;
    bool seen[COMP_MAX_MODULES] = {false};
    order_active(c, c->top, seen);
    if (check_requirements(c, err, errn) < 0) return -1;
    if (build_list(c, err, errn) < 0) return -1;
    value_map vm;
    if (resolve_values(c, c->top, &vm) < 0) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    for (int i = 0; i < vm.n; i++) {
        if (!vm.e[i].other) continue;
        const spec_item *a = vm.e[i].other, *b = vm.e[i].it;
        bool settled = false;
        for (int k = 0; k < noverrides && !settled; k++) {
            size_t kl = strlen(b->key);
            settled = strncmp(overrides[k], b->key, kl) == 0 && overrides[k][kl] == '=';
        }
        if (settled) continue;
        bool opt = b->kind == IT_OPTION;
        snprintf(err, errn,
                 "the modules disagree on %s '%s': %s (%s:%d) says '%s', %s (%s:%d) says '%s'; choose one in "
                 "your variant (%s%s = VALUE) or on the command line (--option %s=VALUE)",
                 opt ? "option" : "the count of tile", b->key, comp_module_label(c, a->module), a->file, a->line,
                 a->value, comp_module_label(c, b->module), b->file, b->line, b->value, opt ? "[options] " : "[tiles] ",
                 b->key, b->key);
        free(vm.e);
        return -1;
    }
    for (int i = 0; i < vm.n; i++)
        if (push(&c->values, &c->nvalues, vm.e[i].it) < 0) {
            free(vm.e);
            snprintf(err, errn, "out of memory");
            return -1;
        }
    free(vm.e);
    int lo = 0, hi = 0, lf = -1, hf = -1;
    resolve_players(c, c->top, &lo, &hi, &lf, &hf);
    if (lo && lo > hi) {
        snprintf(err, errn,
                 "%s takes %d to %d players and %s %d to %d: no number of players suits both, so they cannot "
                 "be combined",
                 comp_module_label(c, lf), c->mods[lf].min_players, c->mods[lf].max_players,
                 comp_module_label(c, hf), c->mods[hf].min_players, c->mods[hf].max_players);
        return -1;
    }
    c->min_players = lo;
    c->max_players = hi;
    /* The name and title: the variant's own; with one module, that module's;
     * else the modules' joined with '+'. */
    const module *top = &c->mods[c->top];
    int direct[COMP_MAX_INCLUDES], nd = 0;
    for (int i = 0; i < top->ninc; i++)
        if (!c->removed[top->inc[i]]) direct[nd++] = top->inc[i];
    if (top->named) snprintf(c->name, sizeof c->name, "%s", top->name);
    else if (nd == 1 && top->path[0]) snprintf(c->name, sizeof c->name, "%s", c->mods[direct[0]].name);
    else snprintf(c->name, sizeof c->name, "%s", top->name);
    if (top->titled) {
        snprintf(c->title, sizeof c->title, "%s", top->title);
    } else {
        c->title[0] = 0;
        for (int i = 0; i < nd; i++) {
            /* a module's title: its own, or what it composes */
            const module *dm = &c->mods[direct[i]];
            const char *t = dm->titled ? dm->title : dm->name;
            if (!dm->titled && dm->ninc == 1) t = c->mods[dm->inc[0]].titled ? c->mods[dm->inc[0]].title : t;
            size_t u = strlen(c->title);
            snprintf(c->title + u, sizeof c->title - u, "%s%s", i ? " + " : "", t);
        }
        /* Cut to one line of a variant file, at a character's start. */
        size_t len = strlen(c->title);
        if (len > COMP_TITLE_FIT) {
            size_t cut = COMP_TITLE_FIT - 3;
            while (cut > 0 && ((unsigned char)c->title[cut] & 0xc0) == 0x80) cut--;
            memcpy(c->title + cut, "...", 4);
        }
    }
    return 0;
}

int comp_load(composition *c, const char *name_or_path, const char *const *overrides, int noverrides, char *err,
              size_t errn)
{
    memset(c, 0, sizeof *c);
    c->mods = calloc(COMP_MAX_MODULES, sizeof *c->mods);
    if (!c->mods) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    char path[1200];
    /* A file that exists is taken as given; a composition "a+b+c" is a
     * module that includes a, b and c; otherwise a name under the data
     * directory's variants/ ("base", "house/road-closer"). */
    if (exists(name_or_path) && ends_with(name_or_path, ".ini")) {
        c->top = load_module(c, name_or_path, 0, err, errn);
        return c->top < 0 ? -1 : resolve_all(c, overrides, noverrides, err, errn);
    }
    if (strchr(name_or_path, '+')) {
        size_t len = strlen(name_or_path);
        if (len > COMP_SPEC_MAX) {
            /* never cut: a cut name could end on another module */
            snprintf(err, errn,
                     "the composition '%.40s...' has %zu characters, more than the %d a variant's name may have "
                     "(write a variant file that includes its modules)",
                     name_or_path, len, COMP_SPEC_MAX);
            return -1;
        }
        int m = new_module(c, err, errn);
        if (m < 0) return -1;
        c->top = m;
        snprintf(c->mods[m].name, sizeof c->mods[m].name, "%s", name_or_path);
        c->mods[m].state = 2;
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", name_or_path);
        for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
            if (exists(t) && ends_with(t, ".ini")) {
                snprintf(path, sizeof path, "%s", t);
            } else {
                snprintf(path, sizeof path, "%s/variants/%s.ini", carc_data_dir(), t);
                if (!exists(path)) {
                    unknown_variant(t, err, errn);
                    return -1;
                }
            }
            int idx = load_module(c, path, 1, err, errn);
            if (idx < 0) return -1;
            module *top = &c->mods[m];
            bool dup = false;
            for (int i = 0; i < top->ninc; i++) dup |= top->inc[i] == idx;
            if (dup) continue;
            if (top->ninc >= COMP_MAX_INCLUDES) {
                snprintf(err, errn, "%s: too many modules (at most %d)", name_or_path, COMP_MAX_INCLUDES);
                return -1;
            }
            top->inc[top->ninc++] = idx;
        }
        if (c->mods[m].ninc == 0) {
            snprintf(err, errn, "'%s' names no module", name_or_path);
            return -1;
        }
        return resolve_all(c, overrides, noverrides, err, errn);
    }
    snprintf(path, sizeof path, "%s/variants/%s%s", carc_data_dir(), name_or_path,
             ends_with(name_or_path, ".ini") ? "" : ".ini");
    if (!exists(path)) {
        if (ends_with(name_or_path, ".ini")) snprintf(err, errn, "%s: cannot open (no such file)", name_or_path);
        else unknown_variant(name_or_path, err, errn);
        return -1;
    }
    c->top = load_module(c, path, 0, err, errn);
    return c->top < 0 ? -1 : resolve_all(c, overrides, noverrides, err, errn);
}

void comp_free(composition *c)
{
    if (c->mods)
        for (int i = 0; i < c->nmods; i++) free(c->mods[i].items);
    free(c->mods);
    free(c->list);
    free(c->values);
    memset(c, 0, sizeof *c);
}
