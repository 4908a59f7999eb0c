/*
 * carc_plugin.h - the types every carc plugin, script host and tool shares.
 *
 * A carc game is driven by PHASES (turn-start, draw, place, action, score,
 * turn-end; then game-end and the final-scoring phases). Phases raise EVENTS;
 * handlers registered for an event run in registration order (kernel first,
 * then plugins in the order the variant loads them). A phase that needs a
 * player's choice poses a DECISION: a list of OPTIONS, each owned by whoever
 * offered it (the kernel or a plugin), who applies it when it is chosen.
 * Every award of points is a SCORING EVENT (carc_award) that handlers may
 * change before it lands and react to after.
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

/* One award of points: a scoring event. feature = feature id or -1. */
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
    CARC_EV_COUNT
};

enum { CARC_DRAW_KEEP, CARC_DRAW_SET_ASIDE, CARC_DRAW_PUT_BACK };
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

#endif
