/* kernel_host.h - what a host of the kernel may use: the plugin loader and
 * the Lua host (host/), the readers of variant and tile-set files
 * (formats/). Not installed (plugins see carc.h and carc_plugin.h); the rest
 * of the kernel's internals (core.h) are private to kernel/, which
 * `make check-layers` enforces.
 *
 * A host sees the rules object whole (struct carc_rules: variant files and
 * tile sets fill it, the loader adds plugin slots to it) through the
 * registration functions below, the context a plugin's functions receive
 * (struct carc_ctx), the plugin slot, and of a game (carc_game, opaque
 * here) only what game_host_view and game_error_buffer give. carc_api
 * itself is in api.h. */
#ifndef CARC_KERNEL_HOST_H
#define CARC_KERNEL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "carc.h"
#include "carc_plugin.h"

#define MAX_SEGS 16
#define MAX_SEG_MARKS 6
#define MAX_KINDS 16
#define MAX_MARKS 32
#define MAX_TILE_MARKS 32
#define MAX_FIGKINDS 16
#define MAX_REASONS 32
#define MAX_SETS 16
#define MAX_TILE_TYPES 1024  /* tile types of all sets together */
#define MAX_TILES 10000      /* tiles of a game: pile and start tile */
#define MAX_OPTIONS 96
#define MAX_PHASES 32
#define MAX_PLUGINS 16
#define MAX_HANDLERS 64
#define NAME_LEN 32

/* ---- registries ---------------------------------------------------------- */

typedef struct kind_def {
    char name[NAME_LEN];
    enum carc_completion completion;
    bool line;          /* an edge letter names the middle port (roads) */
    bool deployable;    /* followers may stand on it */
    bool kernel_scored; /* scored by the kernel's base rules */
    char letter;        /* edge letter in tile sets, or 0 */
    /* Tile sets' NAME:L:wild: an edge of this kind fits every edge and
     * closes the feature facing it (it joins nothing): the abbey's. */
    bool wild;
    int owner;          /* 0 kernel, else plugin slot + 1; -1 declared only */
} kind_def;

typedef struct figkind_def {
    char name[NAME_LEN];
    bool follower;      /* occupies a feature and counts for majority */
    bool boxed_when_scored; /* leaves the game after its feature scores */
    bool boxed_when_removed; /* ... and whenever it leaves the board (ARK-15) */
    bool deployable;    /* the kernel offers deploying it (with follower) */
    int strength;       /* weight in majorities (1 for version-1 kinds) */
    uint32_t stands_on; /* bit per feature kind it may be deployed to */
    int per_player;     /* initial supply per player (0: neutral or none) */
    /* The supply per player in a game of n players when by_players[n] >= 0
     * (set_supply_by_players); any_by_players: some n has one. */
    int8_t by_players[CARC_MAX_PLAYERS + 1];
    bool any_by_players;
    int owner;
} figkind_def;

typedef struct seg_def {
    uint8_t kind;
    uint16_t ports;        /* 12-bit mask, unrotated */
    uint16_t borders;      /* fields: bitmask of segment indices of cities */
    uint8_t nmarks;
    uint8_t mark[MAX_SEG_MARKS];
    uint8_t mark_count[MAX_SEG_MARKS];
} seg_def;

typedef struct tile_type {
    char id[NAME_LEN];
    int set;               /* index into rules->sets */
    int count;             /* copies in the pile (after overrides) */
    int base_count;        /* count in the tile-set file */
    int nsegs;
    seg_def segs[MAX_SEGS];
    uint32_t tile_marks;   /* bitmask of tile-mark ids */
    char edges[5];         /* NESW letters as written */
    int line;              /* line of its section in the set file */
    int image;
    /* derived */
    int8_t seg_at[4][CARC_PORTS]; /* [rotation][board port] -> segment */
    uint32_t sig[4];       /* [rotation] packed edge classes, byte per side */
    /* [rotation] 0 in the bytes of wild sides (they fit every edge), 0xff
     * in the others; wild_sides: some side is wild (else all 0xffffffff). */
    uint32_t keep[4];
    bool wild_sides;
    uint8_t nports[MAX_SEGS]; /* ports of each segment */
    /* Segments (bit per segment) whose kind completes with the tile's ring
     * of 8 neighbours, with its 4 orthogonal neighbours, when its ports
     * close: what a placement checks without looking up the kinds. */
    uint16_t ring_segs, cross_segs, ports_segs;
    /* The segments each segment touches (tile sets' `touches`): kept apart
     * from segs, which placements read, so as not to widen them. */
    uint16_t touches[MAX_SEGS];
} tile_type;

typedef struct tile_set {
    char name[NAME_LEN];
    char title[128];
    char path[512];
    /* The pile as data ([set] pile, last, start): the set's tiles are drawn
     * before every other set's (pile = first); last_type, one of them, comes
     * last among them (-1: none); start_type is the game's start tile
     * (-1: the first set's tile marked start). */
    bool pile_first;
    int last_type, start_type;
} tile_set;

typedef enum opt_type { OPT_INT, OPT_ENUM } opt_type;

typedef struct option_def {
    char key[64];          /* full key: "farm-scoring" or "fairy.score-bonus" */
    opt_type type;
    int value;             /* int value or enum index */
    int def;
    int min, max;          /* OPT_INT bounds */
    int nvalues;
    char values[8][NAME_LEN];
    int owner;
    char help[160];
} option_def;

struct carc_ctx;
typedef int (*handler_fn)(struct carc_ctx *ctx, struct carc_event *ev);
typedef int (*phase_fn)(struct carc_ctx *ctx, int call);

typedef struct handler_ref {
    handler_fn fn;
    int owner;             /* 0 kernel, else plugin slot + 1 */
    void *user;
} handler_ref;

typedef struct phase_def {
    char name[NAME_LEN];
    phase_fn fn;
    int owner;
    void *user;
    /* Tile marks: the phase runs only on turns whose tile bears one of
     * them, and is skipped uncalled on the others (0: every turn). */
    uint32_t needs_tile_marks;
} phase_def;

/* Kernel option values, resolved once from the option table. */
enum farm_scoring { FARM_PER_FARM, FARM_NONE, FARM_PER_CITY_ONCE, FARM_CITY_MAJORITY };

typedef struct kernel_opts {
    int farm_scoring;
    bool small_city;
    bool incomplete_score;
    bool unplaceable_reshuffle;
    int followers;
} kernel_opts;

/* A loaded plugin or script. */
typedef struct plugin_slot {
    char name[NAME_LEN];
    char path[512];
    void *dl;                  /* dlopen handle, NULL for scripts */
    bool is_script;            /* a Lua script (host/lua_host.c): code from a stranger, sandboxed */
    void *user;                /* the plugin's own pointer (the Lua host's state) */
    int (*apply)(struct carc_ctx *ctx, const carc_option *opt, int player);
    int (*format)(struct carc_ctx *ctx, const carc_option *opt, char *buf, size_t n);
    int (*game_init)(struct carc_ctx *ctx);
    void (*unload)(void *user);
    /* A C plugin's own data in these rules (set_plugin_data), freed with
     * free_data when the rules are; rules_ready runs once they are complete
     * (set_rules_ready). */
    void *data;
    void (*free_data)(void *data);
    int (*rules_ready)(struct carc_ctx *ctx);
    size_t state_off, state_size;
    /* The bytes of a state block in use (a script's carc.state), past which
     * the block is all zero; NULL: the whole block. A look-ahead copy copies
     * only those (game_copy). */
    size_t (*state_used)(const unsigned char *block);
} plugin_slot;

/* What a handler or phase receives. */
struct carc_ctx {
    carc_game *g;              /* NULL while a plugin registers (init) */
    int owner;                 /* 0 kernel, else plugin slot + 1 */
    void *user;
    struct carc_rules *rules;
};

struct carc_rules {
    char name[256];                  /* a variant's name, or a composition "base+robbers" */
    char title[512];
    char path[512];
    char *shown;                     /* the resolved composition (carc variant show); owned */
    char *sources;                   /* every file read, one absolute path a line; owned */
    char modules[1024];              /* its modules in load order, separated by spaces */
    int min_players, max_players;

    kind_def kinds[MAX_KINDS];       int nkinds;
    char marks[MAX_MARKS][NAME_LEN]; int nmarks;
    char tmarks[MAX_TILE_MARKS][NAME_LEN]; int ntmarks;
    figkind_def figkinds[MAX_FIGKINDS]; int nfigkinds;
    char reasons[MAX_REASONS][NAME_LEN]; int nreasons;
    option_def opts[MAX_OPTIONS];    int nopts;

    tile_set sets[MAX_SETS];         int nsets;
    tile_type *types;                int ntypes, cap_types;
    int start_type;                  /* type of the start tile */
    bool pile_order;                 /* some set's tiles are drawn first ([set] pile = first) */
    int pile_size;                   /* tiles in the pile (without start) */
    int max_tiles;                   /* pile + start + reserved */
    int reserve_tiles;               /* tiles plugins may add from outside the pile (reserve_tiles) */
    bool place_hooked;               /* some plugin handles place-offer or place-filter */

    /* edge classes: a side's three port kinds, interned */
    uint32_t edge_class_key[255];    int nedge_classes;
    uint8_t edge_class_rev[256];

    phase_def turn_phases[MAX_PHASES]; int nturn_phases;
    phase_def end_phases[MAX_PHASES];  int nend_phases;
    handler_ref handlers[CARC_EV_COUNT][MAX_HANDLERS];
    int nhandlers[CARC_EV_COUNT];

    struct plugin_slot base;         /* owner 0, the base game (base.c) */
    struct plugin_slot *plugins[MAX_PLUGINS]; int nplugins;
    size_t state_size;               /* sum of plugin state blobs */

    kernel_opts k;
    bool frozen;                     /* registration closed */
    char reg_error[256];             /* why a plugin's registration failed */
    bool allow_no_start;             /* checking a set alone: any tile may start */
    bool start_assumed;
    int registering;                 /* plugin slot + 1 during its init */
    /* Who defined each mark, tile mark and reason: 0 the kernel or a tile
     * set, else plugin slot + 1. A second plugin defining one of them is a
     * clash between modules: `conflict` says which (checked by the loader). */
    int mark_owner[MAX_MARKS], tmark_owner[MAX_TILE_MARKS], reason_owner[MAX_REASONS];
    char conflict[256];
};

/* ---- what host/ and formats/ may call -------------------------------------- */

/* ports.c */
const char *port_name(int p);
int port_parse(const char *s);           /* -1 if not a port name */

/* rules.c */
#define RECORD_SAFE_NAME_RULE "1 to 31 letters, digits, '-' and '_'"
bool rules_name_is_record_safe(const char *s);
int rules_kind(const struct carc_rules *r, const char *name);
int rules_mark(const struct carc_rules *r, const char *name);
int rules_tmark(const struct carc_rules *r, const char *name);
int rules_add_kind(struct carc_rules *r, const char *name, int owner);
/* A plugin (the one registering now) defines a name that another plugin,
 * first_owner, defined first: noted in r->conflict for the loader to report
 * with both sources (nothing noted for the kernel's own names). */
void rules_note_conflict(struct carc_rules *r, const char *what, const char *name, int first_owner);
int rules_add_mark(struct carc_rules *r, const char *name);
int rules_add_tmark(struct carc_rules *r, const char *name);
const option_def *rules_option_c(const struct carc_rules *r, const char *key);
int rules_set_option(struct carc_rules *r, const char *key, const char *value,
                     char *err, size_t errn);
int rules_finish(struct carc_rules *r, char *err, size_t errn);
int rules_type(const struct carc_rules *r, const char *set, const char *id);

/* base.c: the base game's kinds, options, phases and owner-0 slot */
void rules_init_builtins(struct carc_rules *r);

/* segments.c */
const char *kind_name(const struct carc_rules *r, int kind);

/* engine.c: what a host reads of a game */
/* Which game and turn a game is at: a script's per-turn budget starts
 * afresh when one of them changes (serial: new when a game is made, cloned
 * or copied into, so each of a bot's tries is a game of its own). */
typedef struct game_host_view {
    uint64_t serial;
    int turn;
    bool in_end;
    /* For a copy made to try moves: the real game's serial and how many
     * options it had answered (its decision): every copy made for that one
     * decision shares a script's account. 0 for a game of its own. */
    uint64_t trial_of, trial_at;
} game_host_view;
game_host_view game_host_view_of(const carc_game *g);
/* Notes that the account of the copies of g's decision is spent
 * (carc_game_trials_spent). */
void game_mark_trials_spent(carc_game *g);
/* The game's failure message (empty while it has not failed) as a buffer
 * of *n bytes a host may rewrite (to add where in a script it failed);
 * lives as long as the game. */
char *game_error_buffer(carc_game *g, size_t *n);
bool game_failed(const carc_game *g);
#endif
