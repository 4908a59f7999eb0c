/*
 * compose.h - modules and their composition (docs/variants.md, "Combining
 * expansions").
 *
 * Every variant file is a module: the tile sets, C plugins, Lua scripts,
 * tile counts and option values it names itself, a title, a player range,
 * and the modules it includes. A variant is a module and everything it
 * includes; "base+robbers+fairy" on the command line is a module that only
 * includes. Composing only ever adds: a module's includes come first, then
 * its own lists; an item brought twice loads once; `without` takes a module
 * or an item out explicitly. Two modules that disagree (the same option set
 * to two values, two different plugins of one name, one tile-set name for
 * two files) are an error naming both, unless a module including both
 * settles it.
 *
 * Everything here is internal to libcarc's formats (variant.c builds rules from a
 * resolved composition).
 */
#ifndef CARC_COMPOSE_H
#define CARC_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "inireader.h"

#define COMP_MAX_MODULES 64
#define COMP_MAX_INCLUDES 16
#define COMP_MAX_ITEMS 4096       /* lines of one module that are items */
#define COMP_MAX_OPTIONS 128      /* [options] keys of one module */
#define COMP_NAME_LEN 256         /* a variant's name: "base+robbers+fairy" */
#define COMP_TITLE_LEN 512
/* A composition "a+b+c" is the variant's name, a line `name = ...` of the
 * variant file `variant show` writes: at most this many characters. */
#define COMP_SPEC_MAX (INI_LINE_MAX_CHARS - 7)
/* A title made by joining the modules' is cut to fit `title = ...`. */
#define COMP_TITLE_FIT (INI_LINE_MAX_CHARS - 8)

typedef enum item_kind {
    IT_SET,            /* [tiles] sets: value is the resolved path */
    IT_COUNT,          /* [tiles] SET:ID = COUNT: key "set:id", value the count */
    IT_PLUGIN,         /* [plugins] load: value is a name, or a resolved path */
    IT_SCRIPT,         /* [plugins] scripts: value is the resolved path */
    IT_OPTION,         /* [options] key = value */
    IT_WITHOUT_MODULE, /* [variant] without = MODULE */
    IT_WITHOUT_SET,    /* [tiles] without = SET */
    IT_WITHOUT_PLUGIN, /* [plugins] without = PLUGIN-OR-SCRIPT */
} item_kind;

typedef struct spec_item {
    item_kind kind;
    char key[96];        /* as written: the option key, "set:id", a list entry */
    char value[512];     /* option value, count, or a name or path (as joined, for messages) */
    char abs[512];       /* a set's, script's or plugin file's absolute path: its identity */
    char file[512];      /* where it was written */
    int line;
    int module;          /* index of the module that wrote it */
} spec_item;

typedef struct module {
    char name[COMP_NAME_LEN];  /* its `name`, else its file's stem */
    char ref[512];             /* how to name it from any directory */
    char path[512];            /* the file, absolute ("" for a command-line composition) */
    char shown[512];           /* the file as named (for messages) */
    char title[COMP_TITLE_LEN];
    bool named, titled;
    int min_players, max_players; /* 0: not said */
    int inc[COMP_MAX_INCLUDES];
    int inc_line[COMP_MAX_INCLUDES];
    int ninc;
    spec_item *items;
    int nitems, cap;
    int empty_list_line;       /* an empty `sets =`, `load =` or `scripts =` */
    /* What it needs of a composition ([variant] requires, after, conflicts):
     * to come first among the modules that bring tile sets, the modules
     * that must come before it, those it cannot be combined with (names
     * separated by spaces), each with its line (0: not said). */
    bool requires_first;
    int requires_line, after_line, conflicts_line;
    char after[256], conflicts[256];
    int state;                 /* 0 new, 1 being read, 2 read */
} module;

typedef struct composition {
    module *mods;
    int nmods;
    int top;
    /* resolved */
    bool removed[COMP_MAX_MODULES];
    int order[COMP_MAX_MODULES];   /* active modules, includes before includers */
    int norder;
    const spec_item **list;        /* sets, plugins and scripts in load order */
    int nlist;
    const spec_item **values;      /* options and counts in force (provenance) */
    int nvalues;
    char name[COMP_NAME_LEN];
    char title[COMP_TITLE_LEN];
    int min_players, max_players;
} composition;

/* Reads the variant named by name_or_path (a shipped name, a file, or a
 * composition "a+b+c") and every module it includes, then resolves it.
 * The overrides ("key=value") settle option disagreements between modules.
 * -1 with a message naming the file and line. */
int comp_load(composition *c, const char *name_or_path, const char *const *overrides, int noverrides,
              char *err, size_t errn);
void comp_free(composition *c);

/* The module's display name (its reference when shipped: "house/road-closer"). */
const char *comp_module_label(const composition *c, int m);
/* How an item is written so that it resolves from any directory: a shipped
 * set or script by name, anything else by absolute path. */
void comp_item_ref(const spec_item *it, char *out, size_t n);
/* The name a plugin or script item loads as ("fairy" for .../fairy.lua). */
void comp_item_name(const spec_item *it, char *out, size_t n);
/* Where a module file of the data directory is, for a name: "house/x" ->
 * DATA/variants/house/x.ini. */
void comp_shipped_path(const char *name, char *out, size_t n);
#endif
