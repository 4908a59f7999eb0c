/* cmd_new.c - carc new plugin|script NAME: a starter expansion in a new
 * directory NAME/ that builds and passes `carc test` as generated.
 *
 * Both starters implement one small rule (whoever places the tile that
 * completes a city scores NAME.points-per-tile per tile of it) with a variant
 * that loads it and a scenario record with a hand-computed score, so a fan
 * starts from something that runs and changes it step by step. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "carc.h"
#include "commands.h"

static const char *const plugin_c =
    "/* @NAME@: a carc plugin (docs/plugin-guide.md). The rule: whoever places\n"
    " * the tile that completes a city scores @NAME@.points-per-tile (default 1)\n"
    " * per tile of that city, on top of the city's normal scoring. */\n"
    "#include <stdlib.h>\n"
    "\n"
    "#include \"carc_plugin.h\"\n"
    "\n"
    "/* The same for every rules object: the one thing a static may keep. */\n"
    "static const carc_api *api;\n"
    "\n"
    "/* The plugin's data in one rules object (a process may load several, each\n"
    " * numbering its ids its own way): ids and option values, the same in every\n"
    " * game of those rules. What changes during a game goes in set_state. */\n"
    "typedef struct my_data {\n"
    "    int reason, city, points_per_tile;\n"
    "} my_data;\n"
    "\n"
    "/* A feature completed by this turn's tile: ev->player placed it. */\n"
    "static int on_completed(carc_ctx *ctx, carc_event *ev)\n"
    "{\n"
    "    const my_data *d = api->plugin_data(ctx);\n"
    "    if (api->feature_kind(ctx, ev->feature) != d->city) return 0;\n"
    "    int points = api->feature_tiles(ctx, ev->feature) * d->points_per_tile;\n"
    "    return points > 0 ? api->award(ctx, ev->player, points, d->reason, ev->feature, 0) : 0;\n"
    "}\n"
    "\n"
    "/* The rules are complete: every module loaded, every option set. */\n"
    "static int rules_ready(carc_ctx *ctx)\n"
    "{\n"
    "    my_data *d = api->plugin_data(ctx);\n"
    "    d->points_per_tile = api->option(ctx, \"points-per-tile\");\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "/* Registration: the plugin's data, options, reasons, handlers. Nothing else\n"
    " * may register. */\n"
    "static int init(carc_ctx *ctx)\n"
    "{\n"
    "    my_data *d = calloc(1, sizeof *d);\n"
    "    if (!d || api->set_plugin_data(ctx, d, free) < 0) { /* freed by carc from here on */\n"
    "        free(d);\n"
    "        return -1;\n"
    "    }\n"
    "    if (api->define_option_int(ctx, \"points-per-tile\", 1, 0, 10, \"points per tile for completing a city\") < 0)\n"
    "        return -1;\n"
    "    d->reason = api->define_reason(ctx, \"@NAME@\");\n"
    "    d->city = api->kind(ctx, \"city\");\n"
    "    if (d->reason < 0 || d->city < 0 || api->set_rules_ready(ctx, rules_ready) < 0) return -1;\n"
    "    return api->on(ctx, CARC_EV_FEATURE_COMPLETED, on_completed, NULL);\n"
    "}\n"
    "\n"
    "int carc_plugin_entry(const carc_api *a, carc_plugin_desc *desc)\n"
    "{\n"
    "    api = a;\n"
    "    desc->api_version = CARC_API_VERSION;\n"
    "    desc->name = \"@NAME@\"; /* the name the variant loads it by */\n"
    "    desc->version = \"0.1\";\n"
    "    desc->description = \"whoever completes a city scores a point per tile of it\";\n"
    "    desc->init = init;\n"
    "    return 0;\n"
    "}\n";

static const char *const plugin_make =
    "# Builds @NAME@.so against the installed carc's plugin header (pkg-config\n"
    "# carc) and runs the scenario tests with the carc on the PATH.\n"
    "#   make          the plugin\n"
    "#   make test     the plugin, then carc test tests (CARC_PLUGIN_PATH is this directory)\n"
    "# Another carc: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig make CARC=PREFIX/bin/carc\n"
    "CARC ?= carc\n"
    "PKG_CONFIG ?= pkg-config\n"
    "CARC_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags carc 2>/dev/null)\n"
    "CC ?= cc\n"
    "CFLAGS ?= -std=c11 -O2 -g -Wall -Wextra -Werror\n"
    "\n"
    "@NAME@.so: @NAME@.c\n"
    "\t@[ -n \"$(CARC_CFLAGS)\" ] || { echo \"$(PKG_CONFIG) does not know carc: install it, or set PKG_CONFIG_PATH to the directory of its carc.pc\" >&2; exit 1; }\n"
    "\t$(CC) $(CFLAGS) -shared -fPIC $(CARC_CFLAGS) -o $@ $<\n"
    "\n"
    "test: @NAME@.so\n"
    "\tCARC_PLUGIN_PATH='$(CURDIR)' $(CARC) test tests\n"
    "\n"
    "clean:\n"
    "\trm -f @NAME@.so\n"
    "\n"
    ".PHONY: test clean\n";

static const char *const script_lua =
    "-- @NAME@.lua: a carc script (docs/lua-guide.md). The rule: whoever places the\n"
    "-- tile that completes a city scores @NAME@.points-per-tile (default 1) per\n"
    "-- tile of that city, on top of the city's normal scoring.\n"
    "carc.option_int(\"points-per-tile\", 1, 0, 10, \"points per tile for completing a city\")\n"
    "local REASON = carc.define_reason(\"@NAME@\")\n"
    "local CITY = carc.kind(\"city\")\n"
    "\n"
    "-- A feature completed by this turn's tile: ev.player placed it.\n"
    "carc.on(\"feature-completed\", function(ev)\n"
    "  if carc.feature_kind(ev.feature) == CITY then\n"
    "    local points = carc.feature_tiles(ev.feature) * carc.option(\"points-per-tile\")\n"
    "    if points > 0 then carc.award(ev.player, points, REASON, ev.feature) end\n"
    "  end\n"
    "end)\n";

static const char *const variant_ini =
    "# The base game with @NAME@ (carc variant show ./@NAME@.ini).\n"
    "[variant]\n"
    "include = base\n"
    "name = @NAME@\n"
    "title = Base game; completing a city pays the closer 1 point per tile\n"
    "\n"
    "[plugins]\n"
    "@LOAD@\n";

static const char *const scenario_rec =
    "carcassonne-record 1\n"
    "variant ../@NAME@.ini\n"
    "seed 1\n"
    "player Red random\n"
    "player Blue random\n"
    "---\n"
    "#! rule BASE-10 BASE-16\n"
    "#! expect Red 6\n"
    "#! expect Blue 0\n"
    "#! expect-event Red @NAME@ 2\n"
    "#! expect-event Red city 4\n"
    "# The start tile D has a city on its north edge. Red puts an E (one city\n"
    "# edge) north of it, turned so that its city faces south: the two-tile\n"
    "# city is complete. Red stands a follower in it first, so Red scores the\n"
    "# city (2 tiles x 2 = 4) and, as the player who completed it, 2 x 1 more\n"
    "# from @NAME@ (awarded the moment the city completes, before the city's\n"
    "# own scoring). Change the rule, then these numbers, then run carc test.\n"
    "draw base:E\n"
    "place 0,-1 r180\n"
    "deploy follower city@S\n"
    "end\n";

static const char *const readme_plugin =
    "# @NAME@\n\n"
    "A carc plugin made with `carc new plugin @NAME@`.\n\n"
    "    make test                                   # build @NAME@.so, run tests/*.rec\n"
    "    CARC_PLUGIN_PATH=$PWD carc sim --variant ./@NAME@.ini --games 1000\n\n"
    "`@NAME@.c` is the rule, `@NAME@.ini` the variant that loads it, `tests/@NAME@.rec`\n"
    "a scenario record with its expected scores (docs/records.md).\n";

static const char *const readme_script =
    "# @NAME@\n\n"
    "A carc script made with `carc new script @NAME@`.\n\n"
    "    carc test tests                             # run tests/*.rec\n"
    "    carc sim --variant ./@NAME@.ini --games 1000\n\n"
    "`@NAME@.lua` is the rule, `@NAME@.ini` the variant that loads it, `tests/@NAME@.rec`\n"
    "a scenario record with its expected scores (docs/records.md).\n";

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 24 || s[0] < 'a' || s[0] > 'z') return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_')) return 0;
    return 1;
}

/* Writes tmpl with @NAME@, @CARC@, @CFLAGS@, @LOAD@ replaced into dir/file. */
static int write_file(const char *dir, const char *file, const char *tmpl, const char *const *keys,
                      const char *const *vals, int nkeys)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wx");
    if (!f) {
        fprintf(stderr, "carc new: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (const char *p = tmpl; *p;) {
        int done = 0;
        for (int k = 0; k < nkeys && !done; k++) {
            size_t kl = strlen(keys[k]);
            if (strncmp(p, keys[k], kl) == 0) {
                fputs(vals[k], f);
                p += kl;
                done = 1;
            }
        }
        if (!done) fputc(*p++, f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "carc new: cannot write %s\n", path);
        return -1;
    }
    printf("  %s\n", path);
    return 0;
}

/* s as one word of a shell command written in a Makefile: single-quoted
 * for the shell (a path with a space stays one word), '$' doubled and '#'
 * escaped for make. -1 if it does not fit or holds a line break. */
static int make_shell_word(const char *s, char *out, size_t n)
{
    size_t u = 0;
    int rc = 0;
#define PUT(str)                                                                   \
    do {                                                                           \
        const char *p_ = (str);                                                    \
        size_t l_ = strlen(p_);                                                    \
        if (u + l_ + 1 > n) rc = -1;                                               \
        else memcpy(out + u, p_, l_ + 1), u += l_;                                 \
    } while (0)
    PUT("'");
    for (; *s && rc == 0; s++) {
        char one[2] = {*s, 0};
        if (*s == '\n' || *s == '\r') rc = -1;
        else if (*s == '\'') PUT("'\\''");
        else if (*s == '$') PUT("$$");
        else if (*s == '#') PUT("\\#");
        else PUT(one);
    }
    PUT("'");
#undef PUT
    return rc;
}

/* The directory holding carc_plugin.h: the source tree's kernel/ for a carc
 * built there, PREFIX/include/carc for an installed one. */
static void header_dir(char *out, size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/kernel/carc_plugin.h", carc_data_dir());
    if (access(path, R_OK) == 0) {
        snprintf(out, n, "%s/kernel", carc_data_dir());
        return;
    }
    snprintf(path, sizeof path, "%s/../../include/carc", carc_data_dir());
    char real[PATH_MAX];
    snprintf(out, n, "%s", realpath(path, real) ? real : path);
}

static int run(const cli_args *a)
{
    const char *kind = a->operands[0];
    if (strcmp(kind, "plugin") != 0 && strcmp(kind, "script") != 0) {
        fprintf(stderr, "carc new: '%s': a plugin or a script?\n", kind);
        cli_usage_line(&command_new, stderr);
        return 2;
    }
    const char *name = a->operands[1];
    if (!valid_name(name)) {
        fprintf(stderr, "carc new: '%s' is not a name: 1 to 24 lower-case letters, digits, '-' or '_', "
                        "starting with a letter\n", name);
        return 2;
    }
    int plugin = strcmp(kind, "plugin") == 0;
    if (mkdir(name, 0777) < 0) {
        fprintf(stderr, "carc new: cannot create the directory %s: %s\n", name, strerror(errno));
        return 1;
    }
    char tests[PATH_MAX], carc[PATH_MAX], cflags[3 * PATH_MAX + 16], hdr[PATH_MAX], load[128], file[64];
    snprintf(tests, sizeof tests, "%s/tests", name);
    if (mkdir(tests, 0777) < 0) {
        fprintf(stderr, "carc new: cannot create the directory %s: %s\n", tests, strerror(errno));
        return 1;
    }
    ssize_t l = readlink("/proc/self/exe", carc, sizeof carc - 1);
    snprintf(carc + (l > 0 ? l : 0), sizeof carc - (size_t)(l > 0 ? l : 0), "%s", l > 0 ? "" : "carc");
    header_dir(hdr, sizeof hdr);
    /* The Makefile names carc and the header's folder as shell words: a
     * path with a space, a quote, '$' or '#' stays whole. */
    char carc_word[3 * PATH_MAX + 3], hdr_word[3 * PATH_MAX + 3];
    if (plugin && (make_shell_word(carc, carc_word, sizeof carc_word) < 0 ||
                   make_shell_word(hdr, hdr_word, sizeof hdr_word) < 0)) {
        fprintf(stderr, "carc new: carc's path or its header folder holds a line break: a Makefile cannot name it\n");
        return 1;
    }
    snprintf(cflags, sizeof cflags, "-I%s", plugin ? hdr_word : hdr);
    if (plugin) snprintf(load, sizeof load, "load = %s", name);
    else snprintf(load, sizeof load, "scripts = %s.lua", name);
    const char *keys[] = {"@NAME@", "@CARC@", "@CFLAGS@", "@LOAD@"};
    const char *vals[] = {name, plugin ? carc_word : carc, cflags, load};
    printf("carc new: %s %s\n", kind, name);
    int rc = 0;
    snprintf(file, sizeof file, "%s.%s", name, plugin ? "c" : "lua");
    rc |= write_file(name, file, plugin ? plugin_c : script_lua, keys, vals, 4);
    if (plugin) rc |= write_file(name, "Makefile", plugin_make, keys, vals, 4);
    snprintf(file, sizeof file, "%s.ini", name);
    rc |= write_file(name, file, variant_ini, keys, vals, 4);
    snprintf(file, sizeof file, "%s.rec", name);
    rc |= write_file(tests, file, scenario_rec, keys, vals, 4);
    rc |= write_file(name, "README.md", plugin ? readme_plugin : readme_script, keys, vals, 4);
    if (rc) return 1;
    if (plugin) printf("next: cd %s && make test\n", name);
    else printf("next: cd %s && %s test tests\n", name, carc);
    return 0;
}

const cli_command command_new = {
    .name = "new",
    .operands = "plugin|script NAME",
    .min_operands = 2,
    .max_operands = 2,
    .summary = "a starter C plugin or Lua script that builds and passes 'carc test'",
    .about = "carc new plugin NAME: a C plugin in NAME/ (NAME.c, Makefile, variant, scenario test)\n"
             "carc new script NAME: a Lua script in NAME/ (NAME.lua, variant, scenario test)\n\n"
             "Writes a starter expansion into a new directory NAME/: a rule that works\n"
             "(whoever completes a city scores NAME.points-per-tile per tile of it), a variant\n"
             "NAME.ini that loads it on top of the base game, and tests/NAME.rec, a scenario\n"
             "record with its expected scores. As generated it builds and passes:\n\n"
             "  cd NAME && make test           (plugin: builds NAME.so, then carc test)\n"
             "  cd NAME && carc test tests     (script)\n\n"
             "NAME: 1 to 24 lower-case letters, digits, '-' or '_', starting with a letter.\n"
             "docs/plugin-guide.md and docs/lua-guide.md explain every part.\n",
    .run = run,
};
