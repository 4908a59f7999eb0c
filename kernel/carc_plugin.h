/*
 * carc_plugin.h - the types every carc plugin, script host and tool shares.
 *
 * A carc game is driven by PHASES (turn-start, draw, place, action, score,
 * turn-end; then game-end and the final-scoring phases). Phases raise EVENTS;
 * handlers registered for an event run in registration order (kernel first,
 * then plugins in the order the variant loads them). A phase that needs a
 * player's choice poses a DECISION: a list of OPTIONS, each owned by whoever
 * offered it (OWNER 0 the base game, or a plugin), who applies it when it is
 * chosen. Every change of score is an AWARD (carc_award; the rules call it a
 * scoring event) that handlers may change before it lands and react to
 * after. A SEAT is a player's place at the table (0 first); a figure
 * belongs to a seat, an option or a kind to an owner. A variant's settings
 * (farm-scoring=...) are VARIANT OPTIONS: define_option_*, option().
 *
 * The order of all of this in a turn is documented in docs/plugin-guide.md.
 */
#ifndef CARC_PLUGIN_H
#define CARC_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define CARC_MAX_PLAYERS 6

/* The 12 ports of a tile, clockwise from the north-west corner. */
enum carc_port {
    CARC_Nw, CARC_N, CARC_Ne, CARC_En, CARC_E, CARC_Es,
    CARC_Se, CARC_S, CARC_Sw, CARC_Ws, CARC_W, CARC_Wn,
    CARC_PORTS
};

/* Board directions; y grows to the south. */
enum carc_dir { CARC_DIR_N, CARC_DIR_E, CARC_DIR_S, CARC_DIR_W };

/* Built-in feature kinds, mark and reasons (plugins define more by name). */
enum { CARC_KIND_ROAD, CARC_KIND_CITY, CARC_KIND_FIELD, CARC_KIND_CLOISTER };
enum { CARC_REASON_ROAD, CARC_REASON_CITY, CARC_REASON_CLOISTER, CARC_REASON_FARM };
enum { CARC_FIG_FOLLOWER = 0 };

/* How a feature kind completes. */
enum carc_completion {
    CARC_COMPLETE_PORTS,  /* no open port left (roads, cities) */
    CARC_COMPLETE_RING,   /* the 8 surrounding spaces hold tiles (cloister) */
    CARC_COMPLETE_CROSS,  /* the 4 orthogonal neighbours hold tiles (temple) */
    CARC_COMPLETE_NEVER   /* never during the game (fields) */
};

typedef struct carc_game carc_game;

/*
 * One option of a decision. `owner` is 0 for the kernel, or the plugin's
 * slot + 1. `code` and `arg` belong to the owner. `tile` and `seg` name the
 * place on the board the option's text refers to with `kind@port`
 * (tile = board tile index, or -1), so the kernel can match any name of the
 * segment when reading a record.
 */
typedef struct carc_option {
    uint16_t owner;
    uint16_t code;
    int32_t tile;
    int32_t seg;
    int32_t arg[3];
} carc_option;

/* One award of points (the rules' scoring event). feature = feature id or -1. */
typedef struct carc_award {
    int32_t player;
    int32_t points;
    int32_t reason;
    int32_t feature;
    int32_t step;   /* the scoring step it belongs to (numbered per game) */
    int32_t flags;  /* CARC_AWARD_* */
} carc_award;

enum { CARC_AWARD_UNROBBABLE = 1, CARC_AWARD_FINAL = 2, CARC_AWARD_BONUS = 4 };

/* Events, in the order a turn raises them (docs/plugin-guide.md). */
enum carc_event_type {
    CARC_EV_GAME_START,        /* once, before the first turn */
    CARC_EV_TURN_START,        /* turn-start phase */
    CARC_EV_TILE_DRAWN,        /* tile = type; set value to CARC_DRAW_* */
    CARC_EV_TILE_PLACED,       /* tile = index of the placed tile */
    CARC_EV_ACTION_OFFER,      /* add options to the action decision */
    CARC_EV_ACTION_FILTER,     /* veto options of the action decision */
    CARC_EV_OPTION_CHOSEN,     /* option = the option just applied */
    CARC_EV_FEATURE_COMPLETED, /* feature completed by this turn's tile */
    CARC_EV_FEATURE_VALUE,     /* value = points (mutable); flags 1 = complete */
    CARC_EV_FEATURE_SCORED,    /* the feature's awards are in the batch */
    CARC_EV_SCORE_BEFORE,      /* award is about to land (mutable) */
    CARC_EV_SCORE_AFTER,       /* award landed */
    CARC_EV_SCORE,             /* plugins score their own kinds (after the kernel's) */
    CARC_EV_SCORE_STEP_END,    /* a scoring step's awards have all landed */
    CARC_EV_FIGURE_REMOVED,    /* figure left the board; flags = CARC_GONE_* */
    CARC_EV_TURN_END,
    CARC_EV_GAME_END,          /* before final scoring */
    CARC_EV_FINAL_SCORE,       /* after the kernel's final scoring */
    /* API version 2 (numbered after the version-1 events, which keep theirs) */
    CARC_EV_FEATURE_MAJORITY,  /* a feature's majority is about to be counted:
                                  majority_strength / set_majority_strength */
    CARC_EV_AWARD_ORDER,       /* player has several awards left in this step:
                                  set value to 1 if their order matters (they choose) */
    /* API version 4 */
    CARC_EV_PLACE_OFFER,       /* the placement decision is built: offer_placements
                                  of held tiles, offer; tile = the drawn type, or -1
                                  with flags CARC_PLACE_BEFORE_DRAW */
    CARC_EV_PLACE_FILTER,      /* veto placement options (placement_of says which);
                                  flags CARC_PLACE_PROBE: the kernel only asks
                                  whether tile type `tile` can be placed */
    /* API version 6 */
    CARC_EV_FIGURE_CAPTURED,   /* figure went into a player's hand (figure_capture):
                                  player = the holder, tile and feature where it
                                  stood (-1 off a tile, off a segment), value = kind */
    CARC_EV_FIGURE_FREED,      /* a held figure left the hand (figure_free): player =
                                  who held it, value = kind, flags = CARC_GONE_RETURNED
                                  (to its owner's supply) or CARC_GONE_BOX */
    CARC_EV_COUNT
};

enum { CARC_DRAW_KEEP, CARC_DRAW_SET_ASIDE, CARC_DRAW_PUT_BACK };
/* place-offer and place-filter flags (API version 4). */
enum { CARC_PLACE_BEFORE_DRAW = 1, CARC_PLACE_PROBE = 2 };
/* tile-placed flags (API version 4): how the tile came (0: the drawn tile). */
enum { CARC_PLACED_HELD = 1, CARC_PLACED_BY_PLUGIN = 2 };
enum { CARC_GONE_SCORED, CARC_GONE_RETURNED, CARC_GONE_BOX };

typedef struct carc_event {
    int type;
    int player;
    int tile;
    int feature;
    int figure;
    int value;
    int flags;
    carc_award *award;
    const carc_option *option;
} carc_event;


/* ---- the plugin ABI --------------------------------------------------------

A C plugin is a shared object exporting one function:

    int carc_plugin_entry(const carc_api *api, carc_plugin_desc *desc);

It fills `desc` and returns 0; it must not call the API there. `api` is the
same for every rules object of the process, so a static variable may keep
it; nothing else of a plugin may live in statics: one process may load the
plugin into several rules objects at once (carc serve holds one per game),
each with its own ids (see set_plugin_data). The kernel checks
desc->api_version, then calls desc->init(ctx) once per rules object, the
only place where the plugin may register handlers, phases, kinds, figures,
marks, reasons, options, its state and its data. If init returns non-zero
everything it registered is undone (its data freed) and the object
unloaded.

Every later call receives a carc_ctx*: the rules, the game (none in init
and rules_ready) and the plugin it is for.

VERSIONS. The carc_api struct only grows at its end: each version adds
members after the last ones and never moves or removes any, and each
growth raises CARC_API_VERSION. Each member's version is the section it
stands in, and each member added after version 1 says it: (v2), (v3).
    1  on ... user_data
    2  define_figure_kind ... feature_borders; the events FEATURE_MAJORITY
       and AWARD_ORDER
    3  figure_next_on_tile, offer_walks, phase_needs_tile_mark,
       offer_figures, award_figures_on (added while the kernel still said
       version 2: a kernel saying 2 may or may not have them);
       set_plugin_data, plugin_data, set_rules_ready
    4  placement_of ... feature_majority; the events PLACE_OFFER and
       PLACE_FILTER; the figure flag STRENGTH_ZERO
    5  corner_feature; figures at a tile corner (CARC_AT_CORNER)
    6  figure_capture, figure_free, held_figures; the place CARC_AT_HELD;
       the events FIGURE_CAPTURED and FIGURE_FREED
    7  offer_figure_walks: walks the kernel applies (CARC_SEG_WALK)
A kernel refuses a plugin whose desc->api_version is above its own, so a
plugin that sets CARC_API_VERSION may call every member of this header. A
plugin that also wants to load into older kernels sets the oldest version
it needs and tests each newer member with CARC_API_HAS(api, member) before
calling it (api->version alone cannot tell for the members of version 3:
see above).

Adding version N (placement hooks, say): raise CARC_API_VERSION to N; put
the new members at the struct's end under a line "API version N", each
with its comment marked (vN); add them to the list above, to the kernel's
table in api.c (whose static assertions pin where each earlier version
ends: add one for version N - 1) and to docs/plugin-guide.md (section 3,
Versions; section 7 marks each function "(version N)"). New events go
before CARC_EV_COUNT, numbered after the existing ones, with their version
in a comment. */

#define CARC_API_VERSION 7

/* Whether the kernel running the plugin has carc_api member `member`. */
#define CARC_API_HAS(api, member) \
    ((api)->size >= offsetof(carc_api, member) + sizeof((api)->member))

typedef struct carc_ctx carc_ctx;

/* Phase results. */
enum { CARC_PHASE_DONE = 0, CARC_PHASE_AGAIN = 1, CARC_PHASE_END_GAME = 2 };

/* Figure flags (define_figure, define_figure_kind).
 *   FOLLOWER           it occupies the feature it stands on and counts in its
 *                      majority with the kind's strength; the dragon, the
 *                      princess, the fairy and the Ark act on it
 *   BOXED_WHEN_SCORED  it leaves the game when its feature is scored
 *   DEPLOYABLE         (with FOLLOWER) the kernel offers deploying it from the
 *                      supply on the placed tile (`deploy NAME kind@port`) and
 *                      through deploy_elsewhere (the magic portal)
 *   BOXED_WHEN_REMOVED it leaves the game whenever it leaves the board
 *                      unscored too (eaten, sent home): used once (ARK-15) */
enum {
    CARC_FIGURE_FOLLOWER = 1,
    CARC_FIGURE_BOXED_WHEN_SCORED = 2,
    CARC_FIGURE_DEPLOYABLE = 4,
    CARC_FIGURE_BOXED_WHEN_REMOVED = 8,
    /* API version 4: (with FOLLOWER) it weighs 0 in every majority, whatever
     * `strength` says (which keeps meaning 1 when 0, for version-2 plugins):
     * it occupies its feature, but wins it only if a feature-majority
     * handler gives it strength (the mayor in a city without pennants). */
    CARC_FIGURE_STRENGTH_ZERO = 16
};
/* Kind flags (define_kind). */
enum { CARC_KIND_DEPLOYABLE = 1, CARC_KIND_LINE = 2, CARC_KIND_KERNEL_SCORED = 4 };
/* Where a figure stands. CARC_AT_CORNER (API version 5): at a corner of a
 * placed tile, the point where four tiles meet (the barn): the figure's
 * `tile` is the tile and its `space` the corner (enum carc_corner). */
/* CARC_AT_HELD (API version 6): in a player's hand, off the board (a
 * prisoner of the Tower): its `space` is the seat holding it, its tile and
 * segment -1. Only figure_capture puts a figure there and only figure_free
 * takes it out. */
enum { CARC_AT_NONE, CARC_AT_SEGMENT, CARC_AT_TILE, CARC_AT_TRACK, CARC_AT_CORNER, CARC_AT_HELD };
/* A tile's corners in board directions (after rotation), clockwise from
 * the north-west; records name them corner@NW, corner@NE, corner@SE and
 * corner@SW (docs/records.md). */
enum carc_corner { CARC_CORNER_NW, CARC_CORNER_NE, CARC_CORNER_SE, CARC_CORNER_SW, CARC_CORNERS };

typedef int (*carc_handler_fn)(carc_ctx *ctx, carc_event *ev);
/* A phase: call is how many times it has run in a row (0 the first time). */
typedef int (*carc_phase_fn)(carc_ctx *ctx, int call);
typedef int (*carc_apply_fn)(carc_ctx *ctx, const carc_option *opt, int player);
typedef int (*carc_format_fn)(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n);
typedef int (*carc_game_init_fn)(carc_ctx *ctx);

typedef struct carc_plugin_desc {
    uint32_t api_version;     /* CARC_API_VERSION the plugin was built with */
    const char *name;         /* must equal the name the variant loads it by */
    const char *version;
    const char *description;
    int (*init)(carc_ctx *ctx);
} carc_plugin_desc;

/* A figure: its kind, the seat it belongs to (-1 for a neutral figure),
 * where it stands (CARC_AT_*), the tile, segment or score-track space
 * (CARC_AT_TRACK), or the seat holding it (`space`, CARC_AT_HELD). */
typedef struct carc_figure_info {
    int kind;
    union {
        int seat;
        int owner; /* deprecated: the old name of seat */
    };
    int where, tile, seg, space;
} carc_figure_info;

/* A figure kind (define_figure_kind, API version 2). The strings are copied. */
typedef struct carc_figure_kind_def {
    const char *name;      /* lower-case; the record's `deploy NAME ...` */
    int per_player;        /* supply per player at the start (0: none, or neutral) */
    int flags;             /* CARC_FIGURE_* */
    int strength;          /* weight in every majority (1 to 99); 0 means 1 (a
                              strength of 0: CARC_FIGURE_STRENGTH_ZERO, version 4) */
    const char *stands_on; /* feature kinds it may be deployed to, separated by
                              spaces or commas ("road city"); NULL or "": every
                              deployable kind (CARC_KIND_DEPLOYABLE) */
} carc_figure_kind_def;

typedef struct carc_api {
    uint32_t version;         /* CARC_API_VERSION of the kernel */
    uint32_t size;            /* sizeof(carc_api) of the kernel */

    /* -- registration (init only); each returns an id >= 0 or -1 -- */
    int (*on)(carc_ctx *ctx, int event, carc_handler_fn fn, void *user);
    /* where: "before" or "after" an existing phase (turn or end phases). */
    int (*add_phase)(carc_ctx *ctx, const char *name, const char *where, const char *anchor,
                     carc_phase_fn fn, void *user);
    int (*define_kind)(carc_ctx *ctx, const char *name, int completion, int flags);
    int (*define_figure)(carc_ctx *ctx, const char *name, int per_player, int flags);
    int (*define_mark)(carc_ctx *ctx, const char *name);
    int (*define_tile_mark)(carc_ctx *ctx, const char *name);
    int (*define_reason)(carc_ctx *ctx, const char *name);
    /* Options are named "<plugin>.<key>"; values: default first. */
    int (*define_option_int)(carc_ctx *ctx, const char *key, int def, int min, int max, const char *help);
    int (*define_option_enum)(carc_ctx *ctx, const char *key, const char *values, const char *help);
    int (*set_state)(carc_ctx *ctx, size_t size, carc_game_init_fn game_init);
    int (*set_option_fns)(carc_ctx *ctx, carc_format_fn format, carc_apply_fn apply);

    /* -- names to ids (any time); -1 if unknown -- */
    int (*kind)(carc_ctx *ctx, const char *name);
    int (*mark)(carc_ctx *ctx, const char *name);
    int (*tile_mark)(carc_ctx *ctx, const char *name);
    int (*figure_kind)(carc_ctx *ctx, const char *name);
    int (*reason)(carc_ctx *ctx, const char *name);
    /* An option's value (enum: index of the value): "key" of this plugin or
     * any full key ("farm-scoring"). -1 if there is none. */
    int (*option)(carc_ctx *ctx, const char *key);

    /* -- the game -- */
    void *(*state)(carc_ctx *ctx);
    int (*players)(carc_ctx *ctx);
    int (*active_player)(carc_ctx *ctx);
    int (*turn)(carc_ctx *ctx);
    int (*score)(carc_ctx *ctx, int player);
    const char *(*player_name)(carc_ctx *ctx, int player);
    int (*supply)(carc_ctx *ctx, int player, int figure_kind);
    uint32_t (*random)(carc_ctx *ctx, uint32_t bound);  /* the game's plugin stream */
    int (*fail)(carc_ctx *ctx, const char *message);     /* stops the game; returns -1 */

    /* -- tiles -- */
    int (*tiles)(carc_ctx *ctx);                         /* placed tiles */
    int (*tile_at)(carc_ctx *ctx, int x, int y);         /* tile index or -1 */
    int (*tile_pos)(carc_ctx *ctx, int tile, int *x, int *y);
    int (*tile_type)(carc_ctx *ctx, int tile);
    int (*type_has_mark)(carc_ctx *ctx, int type, int tile_mark);
    int (*placed_tile)(carc_ctx *ctx);                   /* this turn's, or -1 */
    int (*drawn_type)(carc_ctx *ctx);                    /* this turn's, or -1 */
    int (*pile_left)(carc_ctx *ctx);
    /* Puts every set-aside tile back into the pile (PD-5). */
    int (*return_set_aside)(carc_ctx *ctx);
    int (*segments)(carc_ctx *ctx, int tile);
    int (*segment_kind)(carc_ctx *ctx, int tile, int seg);
    int (*segment_at_port)(carc_ctx *ctx, int tile, int port);
    int (*segment_marks)(carc_ctx *ctx, int tile, int seg, int mark);
    int (*segment_name)(carc_ctx *ctx, int tile, int seg, char *buf, size_t n);
    int (*segment_by_name)(carc_ctx *ctx, int tile, const char *kind_at_port);

    /* -- features -- */
    int (*feature)(carc_ctx *ctx, int tile, int seg);    /* feature id */
    int (*feature_kind)(carc_ctx *ctx, int feature);
    int (*feature_complete)(carc_ctx *ctx, int feature);
    int (*feature_scored)(carc_ctx *ctx, int feature);
    int (*feature_tiles)(carc_ctx *ctx, int feature);    /* distinct tiles */
    int (*feature_marks)(carc_ctx *ctx, int feature, int mark);
    int (*feature_followers)(carc_ctx *ctx, int feature, int player);
    int (*feature_open)(carc_ctx *ctx, int feature);
    /* The feature's segments: up to max (tile, seg) pairs; returns the count. */
    int (*feature_segments)(carc_ctx *ctx, int feature, int *tiles, int *segs, int max);

    /* -- figures -- */
    int (*figures)(carc_ctx *ctx);                       /* slots */
    int (*figure)(carc_ctx *ctx, int f, carc_figure_info *out);
    /* Stands a figure: from its owner's supply when from_supply. Returns its id. */
    int (*figure_place)(carc_ctx *ctx, int kind, int seat, int where, int tile, int seg, int space,
                        int from_supply);
    int (*figure_move)(carc_ctx *ctx, int f, int where, int tile, int seg, int space);
    /* how: CARC_GONE_RETURNED (to the supply) or CARC_GONE_BOX. */
    int (*figure_remove)(carc_ctx *ctx, int f, int how);

    /* -- decisions -- */
    int (*offer)(carc_ctx *ctx, const carc_option *opt);   /* during action-offer */
    int (*offered)(carc_ctx *ctx);                         /* options offered so far */
    const carc_option *(*offered_at)(carc_ctx *ctx, int i);
    int (*veto)(carc_ctx *ctx, int i);                     /* during action-filter */
    int (*forbid_pass)(carc_ctx *ctx);                     /* the action is compulsory */
    int (*ask)(carc_ctx *ctx, int player, const char *label, const carc_option *opts, int n);

    /* -- scoring -- */
    int (*award)(carc_ctx *ctx, int player, int points, int reason, int feature, int flags);
    int (*step_begin)(carc_ctx *ctx);
    int (*step_end)(carc_ctx *ctx);
    int (*batch_begin)(carc_ctx *ctx);
    int (*batch_add)(carc_ctx *ctx, int player, int points, int reason, int feature, int flags);
    int (*batch_commit)(carc_ctx *ctx, int first_player);
    int (*batch_count)(carc_ctx *ctx);
    carc_award *(*batch_at)(carc_ctx *ctx, int i);
    /* Majority scoring of a feature into the batch, as the kernel does it,
     * and the feature marked scored. On a field (a farm) it pays what
     * farm-scoring=per-farm pays, whatever the farm-scoring option: 3
     * points a completed city the field borders (after feature-value), to
     * the players with the greatest strength. With farm-scoring=per-farm
     * the final farm scoring then skips the field; with none it is worth 0
     * and awards nothing; with per-city-once and city-majority the final
     * scoring, which scores cities, counts the field's followers for its
     * cities again (take them off, return_followers, to count them once). */
    int (*score_feature)(carc_ctx *ctx, int feature, int final);
    int (*return_followers)(carc_ctx *ctx, int feature);

    /* The `user` pointer given to on() or add_phase() for the handler or
     * phase running now (NULL elsewhere). */
    void *(*user_data)(carc_ctx *ctx);

    /* ---- API version 2 -------------------------------------------------- */

    /* -- figures as data -- */
    /* A figure kind with its flags, strength and the kinds it stands on (init
     * only). define_figure(name, n, flags) is define_figure_kind with
     * strength 1 on every deployable kind. Returns the kind's id or -1. */
    int (*define_figure_kind)(carc_ctx *ctx, const carc_figure_kind_def *def); /* (v2) */
    int (*figure_kind_flags)(carc_ctx *ctx, int kind);     /* (v2) CARC_FIGURE_*, -1 unknown */
    int (*figure_kind_strength)(carc_ctx *ctx, int kind);  /* (v2) -1 unknown */
    /* 1 if the kind may be deployed to segments of feature_kind, 0 if not, -1 unknown. */
    int (*figure_kind_stands_on)(carc_ctx *ctx, int kind, int feature_kind); /* (v2) */
    /* The kind's name (the rules' own string, valid while they are loaded). */
    const char *(*figure_kind_name)(carc_ctx *ctx, int kind); /* (v2) */
    /* The sum of the strengths of player's followers on the feature. */
    int (*feature_strength)(carc_ctx *ctx, int feature, int player); /* (v2) */
    /* During action-offer: the kernel's deploys of every deployable follower
     * kind the active player has in supply on a tile other than the placed
     * one (`deploy NAME kind@port at x,y`; the magic portal), on features
     * neither occupied nor complete. Returns how many were offered. */
    int (*deploy_elsewhere)(carc_ctx *ctx, int tile); /* (v2) */

    /* -- decisions -- */
    /* Who offered an option of the decision being built or answered: "kernel"
     * or the plugin's or script's name (valid while the rules are loaded). */
    const char *(*option_owner)(carc_ctx *ctx, const carc_option *opt); /* (v2) */
    /* The option's record text, as `carc play` shows it; -1 on error. */
    int (*option_text)(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n); /* (v2) */

    /* -- scoring -- */
    /* Takes award i out of the batch being collected (feature-scored, score,
     * award-order): it never lands and is never logged. */
    int (*batch_withdraw)(carc_ctx *ctx, int i); /* (v2) */
    /* During feature-majority: a player's strength in the feature being
     * counted (the sum of their followers' strengths), and changing it.
     * The players with the greatest strength above 0 win. */
    int (*majority_strength)(carc_ctx *ctx, int player); /* (v2) */
    int (*set_majority_strength)(carc_ctx *ctx, int player, int strength); /* (v2) */

    /* -- turns -- */
    /* The active player takes one more turn right after this one (the
     * builder). Not chained: refused (-1) during such an extra turn, and
     * asked twice in one turn it is one extra turn. */
    int (*extra_turn)(carc_ctx *ctx); /* (v2) */
    /* 1 during such an extra turn, else 0. */
    int (*in_extra_turn)(carc_ctx *ctx); /* (v2) */

    /* -- features -- */
    /* The distinct city features a field borders (the tile sets' `borders`):
     * up to max ids into cities; returns how many there are, -1 for a
     * feature that is not a field. */
    int (*feature_borders)(carc_ctx *ctx, int field, int *cities, int max); /* (v2) */

    /* ---- API version 3 (the first five were added while the kernel still
     * said version 2: test them with CARC_API_HAS on older kernels) ---- */

    /* -- figures on a tile -- */
    /* The first figure standing on placed tile `tile` (on one of its
     * segments or on the tile itself) with an id above `after` (-1: the
     * first), or -1 when there is none: the kernel keeps each tile's
     * figures, so a walk costs the figures there, not the figure table.
     * -1 and an error for a tile that is not placed. */
    int (*figure_next_on_tile)(carc_ctx *ctx, int tile, int after); /* (v3) */

    /* -- decisions -- */
    /* During action-offer: one option per walk from placed tile `start` of
     * 1 to max_steps steps (at most CARC_MAX_WALK_STEPS), each step to an
     * orthogonally adjacent placed tile, never entering a tile the walk has
     * visited (the start included), in depth-first order N E S W. Each is
     * `opt` (copied; its tile and seg as given) with arg[0] = the steps'
     * directions (enum carc_dir), 2 bits each, the first step lowest, arg[1]
     * = the number of steps, arg[2] = 0. Returns how many were offered (0
     * when no tile borders the start), -1 on error. */
    int (*offer_walks)(carc_ctx *ctx, int start, int max_steps, const carc_option *opt); /* (v3) */

    /* -- registration (init only) -- */
    /* The turn phase `phase`, added by this plugin, runs only on turns whose
     * tile (the one placed this turn, else the one drawn) bears tile mark
     * `tile_mark`, or one of the marks of several such calls; on other
     * turns, and before the tile is drawn, the kernel moves past it without
     * calling it, as if it had returned CARC_PHASE_DONE at once. The test
     * is made before the phase's first call of the turn: once called, it
     * runs until it is done. A phase that would return at once on most
     * turns costs nothing there. 0, or -1 and an error (not during init, no
     * turn phase of that name, another plugin's phase, no such tile mark). */
    int (*phase_needs_tile_mark)(carc_ctx *ctx, const char *phase, int tile_mark); /* (v3) */

    /* -- decisions -- */
    /* During action-offer: one option per figure of `owner` (a seat, or -1
     * for neutral figures) standing `where` (CARC_AT_SEGMENT, _TILE or
     * _TRACK) whose kind k has bit k set in `kinds` (0: every kind), in id
     * order, skipping figure `except` (-1: none). Each is `opt` (copied)
     * with the figure's tile (-1 on the track), its segment (-1 off a
     * segment) and arg[0] = its id; arg[1] and arg[2] as given. Returns how
     * many were offered, -1 on error. A figure that goes next to one of the
     * player's (the fairy) offers its moves with one call. */
    int (*offer_figures)(carc_ctx *ctx, int owner, int where, uint32_t kinds, int except, const carc_option *opt); /* (v3) */

    /* -- scoring -- */
    /* Each figure a player owns standing `where` (CARC_AT_SEGMENT or
     * CARC_AT_TILE) on placed tile `tile` whose kind k has bit k set in
     * `kinds` (0: every kind) scores `points` for its owner with `reason`:
     * one award each (no feature, no flags), in id order, as award() would
     * make them; the tile's figures are looked at again after each award,
     * which handlers may have moved. Returns how many awards landed, -1 on
     * error. The Ark's point per follower on each tile it enters is one call
     * a tile. */
    int (*award_figures_on)(carc_ctx *ctx, int tile, int where, uint32_t kinds, int points, int reason); /* (v3) */

    /* -- the plugin's own data in these rules -- */
    /* Keeps `data` as this plugin's pointer in the rules being loaded
     * (init only, once): the ids it looked up, tables it built, whatever
     * belongs to these rules rather than to one game. Every later call for
     * these rules finds it with plugin_data. free_data (may be NULL) is
     * called with it when the rules are freed, or when init fails after
     * this call. The rules' games may run in several threads at once
     * (carc sim --jobs, carc serve), all reading the data: write it only in
     * init and rules_ready; what changes during a game belongs in
     * set_state. 0, or -1 and an error. */
    int (*set_plugin_data)(carc_ctx *ctx, void *data, void (*free_data)(void *data)); /* (v3) */
    /* This plugin's pointer in the rules the call is for (init, rules_ready,
     * handlers, phases, option functions, game_init), or NULL if it set
     * none. Valid until the rules are freed. */
    void *(*plugin_data)(carc_ctx *ctx); /* (v3) */
    /* ready(ctx) runs once the rules are complete (init only, once): every
     * plugin, script and tile set loaded, every option set. The names that
     * modules loaded later define (tile sets' marks, a script's figure kind)
     * are known there, and the options keep their values from then on:
     * look them up into the plugin's data. No game exists yet and nothing
     * may be registered. ready returns 0, or non-zero to refuse the rules
     * (with fail() or any refused call's error as the reason). */
    int (*set_rules_ready)(carc_ctx *ctx, int (*ready)(carc_ctx *ctx)); /* (v3) */

    /* ---- API version 4: placement, held tiles, tile types, the pile.
     * Present when api->version >= 4 (docs/plugin-guide.md, "Placement").
     *
     * The placement decision (`place`) is built like the action decision:
     * the kernel lists the drawn tile's legal placements (`place X,Y rROT`),
     * raises place-offer (plugins offer placements of held tiles, or their
     * own options) and place-filter (plugins veto), then poses what is
     * left; neither event is raised when nobody registered for it. A drawn
     * tile whose every placement is vetoed is unplaceable: it follows the
     * `unplaceable-tile` option (discarded, or back into the pile). Before
     * the draw, when some plugin registered for place-offer, the kernel
     * raises it with tile -1 and flags CARC_PLACE_BEFORE_DRAW: placements
     * offered then are posed with `draw-tile` as the decision `place`, and
     * choosing one skips the turn's draw. A held tile placed instead of the
     * drawn one sends the drawn one back into the pile. ------------------ */

    /* -- placement -- */
    /* The tile type, position and rotation (0..3, clockwise quarter
     * turns) a kernel `place` option places: 0, or -1 for any other option
     * (a pointer may be NULL). For place-filter: offered_at(i) and this. */
    int (*placement_of)(carc_ctx *ctx, const carc_option *opt, int *type, int *x, int *y, int *rot);
    /* During place-offer: offers every legal placement of a tile type the
     * active player holds (`place SET:ID X,Y rROT`, owner the kernel; the
     * held tile is placed when one is chosen). Once a type a decision.
     * Returns how many, or -1 and an error. */
    int (*offer_placements)(carc_ctx *ctx, int type);
    /* During init: the game may hold n more tiles than its pile and start
     * tile (tiles given to players or placed by plugins). */
    int (*reserve_tiles)(carc_ctx *ctx, int n);
    /* A tile of `type` into seat's hand, outside the pile (from what
     * reserve_tiles reserved, or a tile the plugin took from the pile):
     * returns how many the seat holds, or -1 and an error (no room, 16
     * held already). Nothing is recorded: a plugin gives from the game's
     * state alone, so a replay gives the same. */
    int (*give_tile)(carc_ctx *ctx, int seat, int type);
    /* One tile of `type` out of seat's hand (to place it with place_tile,
     * or gone): 0, or -1 when the seat holds none. */
    int (*take_tile)(carc_ctx *ctx, int seat, int type);
    /* How many tiles seat holds, and the type of the i-th (in the order
     * given); -1 when out of range. */
    int (*held_tiles)(carc_ctx *ctx, int seat);
    int (*held_tile)(carc_ctx *ctx, int seat, int i);
    /* 1 if tile `type` at rotation rot fits the open space x,y (its edges
     * match every neighbour's), 0 if not, -1 for a bad type or rotation. */
    int (*can_place)(carc_ctx *ctx, int type, int x, int y, int rot);
    /* Places a tile itself (not while a decision is built): it must fit
     * (can_place) and the game must have room for it (a tile taken from
     * the pile or a hand with pile_take or take_tile, or reserve_tiles).
     * Raises tile-placed with flags CARC_PLACED_BY_PLUGIN; the features it
     * completes are scored by this turn's score phase if that has not run
     * yet. Returns the new tile's index, or -1 and an error. */
    int (*place_tile)(carc_ctx *ctx, int type, int x, int y, int rot);
    /* A placed tile's rotation (0..3, clockwise quarter turns), -1 if none. */
    int (*tile_rotation)(carc_ctx *ctx, int tile);

    /* The segments of placed tile `tile` that segment `seg` touches (the
     * tile set's `touches` lines: a road ending at a city, a cloister or a
     * junction): bit i for segment i; 0 when the set says none; -1 and an
     * error for a bad tile or segment. */
    int (*segment_touches)(carc_ctx *ctx, int tile, int seg);

    /* -- tile types (any time) -- */
    int (*tile_types)(carc_ctx *ctx);
    /* The type named "set:id" (`river:C`), or -1. */
    int (*tile_type_find)(carc_ctx *ctx, const char *set_colon_id);
    /* The name "set:id" of a type into buf (like snprintf), -1 if none. */
    int (*tile_type_name)(carc_ctx *ctx, int type, char *buf, size_t n);

    /* -- figures -- */
    /* During init: in a game of `players` players (1 to 6), each player's
     * supply of figure kind `kind` (one this plugin defined) starts at
     * `count` (0 to 99) instead of its per_player (the Tower's floors).
     * Once per player count. 0, or -1 and an error. */
    int (*set_supply_by_players)(carc_ctx *ctx, int kind, int players, int count);

    /* -- scoring -- */
    /* The majority of a feature as scoring would count it, without scoring:
     * each player's strength (the sum of their followers' strengths) after
     * feature-majority, which is raised (with flags = final), into
     * strengths[CARC_MAX_PLAYERS] when not NULL. Returns the greatest
     * strength: the players with it win the feature when it is above 0.
     * Nothing is marked scored. -1 and an error for a bad feature. */
    int (*feature_majority)(carc_ctx *ctx, int feature, int final, int *strengths);

    /* -- the pile -- */
    /* One tile of `type` out of the pile: 0, or -1 when none is left. */
    int (*pile_take)(carc_ctx *ctx, int type);
    /* How many tiles of `type` are in the pile. */
    int (*pile_count)(carc_ctx *ctx, int type);

    /* ---- API version 5: tile corners ------------------------------------ */

    /* The feature at corner `corner` (enum carc_corner) of placed tile
     * `tile` when the four tiles around that point are all placed and each
     * has a segment of kind `kind` on both of its ports at the point (so
     * the four are one feature: four fields meeting at a corner, where a
     * barn stands); -1 otherwise (a tile missing, another kind there), and
     * -1 with an error for a bad tile or corner. A figure stands at a
     * corner with figure_place(..., CARC_AT_CORNER, tile, -1, corner, ...)
     * and moves there with figure_move: the tile must be placed, the
     * corner 0..3; the kernel keeps such a figure on its tile's list
     * (figure_next_on_tile) and counts it in no feature's majority. */
    int (*corner_feature)(carc_ctx *ctx, int tile, int corner, int kind); /* (v5) */

    /* ---- API version 6: figures held by a player. A figure in a player's
     * hand (CARC_AT_HELD) is off the board and out of its owner's supply:
     * a prisoner. figure() reports the holding seat in `space`;
     * figure_place, figure_move and figure_remove refuse that place. ---- */

    /* Figure f, standing on the board (on a segment, a tile or the track)
     * and belonging to a seat, goes into `holder`'s hand (any seat, its
     * owner's too); a follower leaves its feature. Raises figure-captured.
     * 0, or -1 and an error. (v6) */
    int (*figure_capture)(carc_ctx *ctx, int f, int holder);
    /* Held figure f leaves the hand: back to its owner's supply (how =
     * CARC_GONE_RETURNED) or out of the game (CARC_GONE_BOX). Raises
     * figure-freed. 0, or -1 and an error. (v6) */
    int (*figure_free)(carc_ctx *ctx, int f, int how);
    /* How many figures `holder` holds that belong to seat `owner` (-1:
     * anyone's) and are of kind `kind` (-1: any kind); -1 and an error for
     * a bad seat or kind. (v6) */
    int (*held_figures)(carc_ctx *ctx, int holder, int owner, int kind);

    /* ---- API version 7: walks the kernel applies. ---- */

    /* During action-offer: the walks of figure `figure` (standing on a
     * placed tile, CARC_AT_TILE) that offer_walks would offer from its
     * tile, in the same order, each `opt` with arg[0] and arg[1] as there,
     * tile -1, seg CARC_SEG_WALK and arg[2] the kernel's (which walk rule).
     * A chosen walk is applied by the kernel, not by the plugin's apply:
     * one scoring step (step_begin); on each tile entered, in path order,
     * `points` to each figure standing on a segment there that belongs to
     * a seat and whose kind is in the mask `award_kinds` (0: every kind),
     * in id order, reason `reason` (award_figures_on); no award at all when
     * points is 0; then the figure moves to the last tile (figure_move,
     * CARC_AT_TILE); step_end. option-chosen follows as for any option,
     * and the plugin's format still writes the option's text. Because the
     * kernel knows what such a walk does, bots weigh once the walks whose
     * effect is the same (the same last tile, the same awards in the same
     * order: carc_option_effect). At most CARC_MAX_WALK_RULES different
     * (figure, award_kinds, points, reason) in one decision. Returns how
     * many were offered, -1 on error. (v7) */
    int (*offer_figure_walks)(carc_ctx *ctx, int figure, int max_steps, const carc_option *opt, uint32_t award_kinds,
                              int points, int reason);
} carc_api;

/* The segment of an option offer_figure_walks made (API version 7); no
 * other option may carry it. */
#define CARC_SEG_WALK (-4096)
/* How many walk rules (figure, kinds, points, reason) one decision holds. */
#define CARC_MAX_WALK_RULES 8

/* The longest walk offer_walks offers: 8 steps are at most 5,916 walks. */
#define CARC_MAX_WALK_STEPS 8

/* Every plugin defines its entry point with exactly this prototype. */
int carc_plugin_entry(const carc_api *api, carc_plugin_desc *desc);

/* The entry point's type and name. */
typedef int (*carc_plugin_entry_fn)(const carc_api *api, carc_plugin_desc *desc);
#define CARC_PLUGIN_ENTRY "carc_plugin_entry"

#endif
