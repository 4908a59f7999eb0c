/*
 * core.h - the kernel's internal data structures and functions: private to
 * kernel/ (make check-layers). Not installed; plugins see only carc.h and
 * carc_plugin.h; host/ and formats/ see kernel_host.h, which this includes.
 *
 * Layout of a game (all of it plain data, so a game is cloned by copying):
 *   rules   - immutable, shared: tile types, registries, options, phases,
 *             handlers. One per loaded variant (and per thread).
 *   game    - the pile, the placed tiles, a position hash of cells (placed
 *             tiles and frontier), the frontier with the edge each side
 *             requires, segment nodes joined by union-find into features,
 *             the figures, the turn's progress, pending decisions, the log of
 *             awards, plugin state.
 */
#ifndef CARC_CORE_H
#define CARC_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "carc.h"
#include "carc_plugin.h"
#include "kernel_host.h"
#include "rng.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Decisions asked in one turn (final scoring counts as part of the last):
 * the rules ask a few dozen at most; a phase asking for ever fills records
 * no reader accepts (docs/security.md). */
#define MAX_DECISIONS_PER_TURN 256
/* Cells a look-ahead copy notes as changed before it copies them all
 * again (a placement changes at most 6). */
#define CELL_JOURNAL 64
/* Figures a game holds at most: a feature's occupant count (16 bits) and
 * the figure table stay within it. */
#define MAX_FIGURES 65535
/* Tiles a player holds outside the pile at most (give_tile). */
#define MAX_HELD 16
/* What the kernel keeps on plugins' and scripts' behalf is bounded like
 * their own memory (docs/security.md): awards (landed, or waiting in a
 * batch) per turn and per game, and options a plugin poses in one
 * decision (carc_api.ask, carc_api.offer). The rules need a few hundred
 * awards a game and a few hundred options at most; a plugin past a bound
 * stops the game with a message that names it. */
#define MAX_PLUGIN_AWARDS_TURN 4096
#define MAX_PLUGIN_AWARDS_GAME 65536
#define MAX_PLUGIN_OPTIONS 1000
/* Options every plugin together offers to one decision: each offers at most
 * MAX_PLUGIN_OPTIONS in a row, and a composition of many modules (the Ark's
 * walks beside the Tower's floors) can pass 1000 together. */
#define MAX_DECISION_OFFERS 16384

#define GAME_CTX(game, own, usr) {(game), (own), (usr), (struct carc_rules *)(game)->rules}

/* Calls of one phase in a row (see carc_advance). */
#define PHASE_MAX_CALLS 100000


/* The base game's option codes (owner 0). */
enum { BASE_OPT_PLACE = 1, BASE_OPT_DEPLOY, BASE_OPT_PASS, BASE_OPT_ORDER, BASE_OPT_PLACE_HELD, BASE_OPT_DRAW };

/* The owner of an option vetoed during action-filter (dropped afterwards). */
#define OPTION_VETOED 0xffff

/* ---- game state ------------------------------------------------------------ */

typedef struct placed {
    int16_t x, y;
    uint8_t rot;
    uint8_t ring;          /* tiles among the 8 surrounding spaces */
    uint8_t cross;         /* tiles among the 4 orthogonal neighbours */
    uint16_t type;
    int32_t node0;         /* first segment node */
    int32_t nb[4];         /* neighbour tile index per side, or -1 */
    int32_t figs_on;       /* the first figure standing on the tile (on a
                              segment or on the tile), or -1; the rest follow
                              by figure.next_on_tile in id order */
} placed;

typedef struct cell {
    uint32_t key;          /* the position (board.c's cell_key); 0: a free slot */
    int32_t tile;          /* placed tile, or -1 while on the frontier */
    int32_t fidx;          /* index in the frontier while tile == -1 */
} cell;

typedef struct frontier_pos {
    int16_t x, y;
    uint32_t req;          /* required edge class per side (byte per side) */
    uint32_t mask;         /* 0xff in bytes of sides with a neighbour */
} frontier_pos;

enum { NODE_COMPLETE = 1, NODE_SCORED = 2 };

typedef struct node {
    int32_t parent;
    int32_t next;          /* circular list of the feature's members */
    uint16_t tile;         /* MAX_TILES fits */
    uint8_t seg;
    uint8_t kind;
    /* valid at roots */
    uint8_t flags;
    uint16_t occupants;    /* follower figures on the feature (MAX_FIGURES fits) */
    int32_t open;          /* open ports */
    int32_t size;          /* members */
} node;
_Static_assert(MAX_TILES <= UINT16_MAX && MAX_FIGURES <= UINT16_MAX, "node fields too narrow");


typedef struct figure {
    uint8_t where;
    uint8_t kind;
    int8_t seat;           /* whose it is, or -1 for a neutral figure */
    int32_t tile;
    int32_t seg;           /* segment on the tile (CARC_AT_SEGMENT) */
    int32_t space;         /* score-track space (CARC_AT_TRACK), or the seat
                              holding it (CARC_AT_HELD) */
    int32_t next_on_tile;  /* the next figure (by id) on the same tile, or -1 */
} figure;

typedef struct decision {
    int player;
    int owner;             /* who posed it */
    int first, n;          /* range in game->opts */
    char label[NAME_LEN];
} decision;

typedef struct turn_state {
    int number;            /* turns started */
    int active;            /* seat */
    int drawn;             /* tile type drawn, -1 */
    int placed;            /* tile index placed this turn, -1 */
    bool action_forbid_pass; /* a plugin made the action compulsory */
    bool extra_next;       /* the active player plays again next (extra_turn) */
    bool extra;            /* this turn is such an extra turn */
    bool draw_offered;     /* place-offer was raised before this turn's draw */
    /* Features completed by the placement: the port features of the new
     * tile and the ring and cross features of it and its 8 neighbours, so
     * at most 9 tiles' segments. */
    int completed[9 * MAX_SEGS];
    int ncompleted;
    int asked;             /* decisions posed this turn (MAX_DECISIONS_PER_TURN) */
} turn_state;

/* What a kernel-applied walk does (offer_figure_walks): which figure walks,
 * who is paid on the tiles it enters, for whom it was offered. */
typedef struct walk_rule {
    int32_t figure;
    uint32_t kinds;         /* figure kinds paid (0: every kind) */
    int32_t points;         /* 0: no award */
    int32_t reason;
    uint16_t owner;         /* the plugin that offered the walks */
} walk_rule;

struct carc_game {
    const struct carc_rules *rules;
    int nplayers;
    char names[CARC_MAX_PLAYERS][NAME_LEN];
    uint64_t seed;
    int32_t score[CARC_MAX_PLAYERS];
    int32_t supply[CARC_MAX_PLAYERS][MAX_FIGKINDS];

    carc_rng pile_rng;
    carc_rng plugin_rng;     /* what plugins and scripts draw from */

    int16_t *pile;          int npile;
    int16_t *aside;         int naside;   /* set aside by plugins */

    placed *tiles;          int ntiles;
    cell *cells;            int cell_mask;
    frontier_pos *front;    int nfront;
    node *nodes;            int nnodes;
    /* The feature's mark counts, rules->nmarks of them a node, valid at
     * roots (added up when features join, like open ports and sizes), so a
     * rule asking for a feature's sheep or pennants walks nothing. A count
     * stops at UINT16_MAX, where feat_mark_count walks the feature. */
    uint16_t *node_marks;
    figure *figs;           int nfigs, cap_figs;

    /* the phase machine */
    bool in_end;            /* running the end phases */
    int phase;              /* index in the current phase list */
    int phase_calls;         /* calls of the current phase so far */
    bool finished;
    bool need_draw;         /* the draw phase waits for a chance choice */
    int forced_draw;        /* type chosen by the driver, -1 */
    bool stop_requested;    /* `end` line: end after this turn */
    char error[512];
    bool failed;
    bool check;             /* check mode: recompute and compare after every move */

    turn_state turn;

    decision dq[8];         int ndq;
    bool building;          /* the action decision's options are being collected */
    bool filtering;         /* ... and plugins may veto them */
    bool build_place;       /* ... (the placement decision's, not the action's) */
    int build_first;
    int offer_owner, offer_run; /* who offered last, and how many in a row */
    /* The rules of the pending decisions' kernel-applied walks (a walk
     * option's arg[2] indexes them); emptied when an action decision is
     * built while none is pending. */
    walk_rule walk_rules[CARC_MAX_WALK_RULES];
    int nwalk_rules;
    carc_option *opts;      int nopts, cap_opts;

    carc_award *log;        int nlog, cap_log;
    int log_from;           /* awards before log[0]: a look-ahead copy keeps
                               only its own (carc_game_copy_into) */
    int score_step;

    /* batch of awards being collected (scoring step) */
    carc_award *batch;      int nbatch, cap_batch;

    /* A committed batch landing one award at a time; it waits while the
     * player whose awards come next chooses their order (ROB-15). */
    carc_award *landing;    int nlanding, cap_landing, landing_pos;
    bool landing_paused;    /* an `order` decision is pending */
    bool landing_chosen;    /* the award at landing_pos was chosen: land it */
    bool batch_is_view;     /* award-order: the batch shows one player's awards left (read-only) */

    /* the feature-majority event being raised: each player's strength */
    int majority[CARC_MAX_PLAYERS];
    bool in_majority;

    unsigned char *pstate;  /* plugin state blobs, rules->state_size bytes */
    /* The sizes the fixed arrays were made with (from the rules): a copy
     * into another game's memory checks them (carc_game_copy_into). */
    int made_max_tiles;
    size_t made_state_size;
    /* A look-ahead copy restores only the cells that differ (the cells are
     * a hash table, the largest array, copied whole otherwise). `serial`
     * names this game's contents (new when it is made, cloned or copied
     * into; a script's per-turn budget is kept by it, so each of a bot's
     * tries has its own). A game's cells change only when it places a tile or is copied
     * into. With ncell_journal >= 0 (a copy), the cells are those of the
     * game cells_base when it had cells_base_tiles tiles, except at the
     * indices in cell_journal (the source's own journal, then every cell
     * board_place changed since); -1 (a game made or cloned, or a journal
     * that grew too long): the cells are the game's own. */
    uint64_t serial;
    /* The real decision a copy was made for (carc_game_clone, carc_game_copy_into,
     * carc_game_try): 0 for a game of its own; else the serial of the game
     * that was copied first and how many options it had answered then
     * (`answered`). A script's work on every copy made for one decision is
     * charged to one account (host/lua_limits.c); trials_spent is set when
     * that account ran out. */
    /* The award count when the turn plugin_award_room last saw began. */
    int award_turn, award_turn_first;
    bool award_turn_end;
    uint64_t trial_of;
    uint64_t trial_at;
    uint64_t answered;
    bool trials_spent;
    /* Scripts' handlers are not called (carc_game_mute_scripts). */
    bool scripts_muted;
    uint64_t cells_base;
    int cells_base_tiles;
    int ncell_journal;
    int32_t cell_journal[CELL_JOURNAL];

    /* The shapes of option texts already formatted in this game, for the
     * check of each posed decision (decision.c); the game's own, never
     * shared with a clone or a copy. NULL until the first check. */
    struct shape_memo *shape_memo;
    /* board_epoch names the board's features as they are (a hash of the
     * placements so far: epoch_mix; a copy carries its source's).
     * field_cities keeps, per field root, how many completed cities border
     * it (-1: not yet counted) for the features of field_cities_epoch: the
     * bots' judgement asks it of every farm for each move they weigh, and
     * most moves place no tile. The game's own, like shape_memo. */
    uint64_t board_epoch;
    /* Names the nodes' contents (nodes, node_marks) and the followers on
     * them as they are: a hash of every change so far (nodes_changed),
     * other than the union-find's path halving (which keeps every feature
     * as it is), from a number new to each game made. Games that made the
     * same changes from the same nodes (a bot's tries of moves that leave
     * the features alike) share it; a copy carries its source's (game_copy
     * then leaves equal nodes where they are). Two different contents
     * share an epoch only by a collision of 64-bit hashes. */
    uint64_t nodes_epoch;
    /* carc_estimate_final's answer for the nodes of estimate_epoch (0:
     * none), kept when no plugin changes feature values: then it depends
     * on the nodes (features, their followers, completion) and the placed
     * tiles alone, which change only with nodes_epoch. Copied with the
     * nodes_epoch it belongs to (or, in game_copy, dst's own kept when made
     * for those nodes). */
    uint64_t estimate_epoch;
    int estimate[CARC_MAX_PLAYERS];
    int16_t *field_cities;
    uint64_t field_cities_epoch;

    uint32_t stamp;         /* for visited marks */
    uint32_t *tile_stamp;   /* per placed tile */

    /* Tiles each player holds outside the pile (give_tile): tile types. */
    int16_t held[CARC_MAX_PLAYERS][MAX_HELD];
    uint8_t nheld[CARC_MAX_PLAYERS];
};

/* ---- internal functions ------------------------------------------------------ */

/* The epoch after `change` (core.h: board_epoch, nodes_epoch): splitmix64's
 * finalizer over the epoch before, then over it with the change. */
static inline uint64_t epoch_mix(uint64_t epoch, uint64_t change)
{
    uint64_t z = epoch + 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 2; round++) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        if (round == 0) z ^= change;
    }
    return z;
}

/* What changed the nodes (the top byte of a change). */
enum { NODES_PLACED = 1, NODES_FOLLOWER_IN, NODES_FOLLOWER_OUT, NODES_SCORED, NODES_COMPLETE };

static inline void nodes_changed(carc_game *g, int what, uint64_t detail)
{
    g->nodes_epoch = epoch_mix(g->nodes_epoch, (uint64_t)what << 56 | (detail & 0xffffffffffffffull));
}

/* A follower of `kind` and `seat` came into or left the feature `root`. */
static inline void nodes_follower(carc_game *g, bool in, int root, int seat, int kind)
{
    nodes_changed(g, in ? NODES_FOLLOWER_IN : NODES_FOLLOWER_OUT,
                  ((uint64_t)(uint32_t)root & 0xffffffu) | (uint64_t)(uint8_t)seat << 24 | (uint64_t)(uint8_t)kind << 32);
}

/* ports.c */
/* The port of the neighbouring tile that touches port p. Ports run clockwise,
 * so a facing edge runs the other way: Nw meets Sw, N meets S, Ne meets Se.
 * (Inline: a placement asks it for every port it joins.) */
static inline int port_opposite(int p)
{
    int side = p / 3, off = p % 3;
    return ((side + 2) % 4) * 3 + (2 - off);
}
int port_side(int p);                    /* 0..3 */
int port_rotate(int p, int rot);         /* tile port -> board port */
int dir_parse(const char *s);
const char *dir_name(int d);
void dir_delta(int d, int *dx, int *dy);

/* rules.c */
int rules_reason(const struct carc_rules *r, const char *name);
int rules_figkind(const struct carc_rules *r, const char *name);
int rules_define_kind(struct carc_rules *r, const char *name, enum carc_completion completion, int flags,
                      int owner);
int rules_add_reason(struct carc_rules *r, const char *name);
/* A figure kind (define_figure_kind); its id, or -1 with why in err. */
int rules_define_figkind(struct carc_rules *r, const carc_figure_kind_def *def, int owner, char *err, size_t errn);
int rules_phase_find(const phase_def *list, int n, const char *name);
void rules_phase_insert(phase_def *list, int *n, int at, const char *name, phase_fn fn, int owner, void *user);
int rules_define_enum(struct carc_rules *r, const char *key, const char *values,
                      const char *help, int owner);
int rules_define_int(struct carc_rules *r, const char *key, int def, int min, int max,
                     const char *help, int owner);
option_def *rules_option(struct carc_rules *r, const char *key);
int edge_class_intern(struct carc_rules *r, int a, int b, int c);

/* base.c: the base game's kinds, options, phases and owner-0 slot */

/* check.c */
bool check_mode_on(void);                /* CARC_CHECK is set */

/* engine.c: the game object, the phase machine, events, the pile */
void check_move_now(carc_game *g);
/* The self-check after a move, in check mode only (one flag test when off). */
static inline void check_move(carc_game *g)
{
    if (g->check) check_move_now(g);
}
plugin_slot *owner_slot(const carc_game *g, int owner);
/* Makes dst a copy of src in dst's memory (carc_game_copy_into), without
 * the award log; with without_pending, also without the pending decision
 * and its options (carc_game_try answers it). -1, dst unchanged, when out
 * of memory or the rules differ. */
int game_copy(carc_game *dst, const carc_game *src, bool without_pending);
/* A serial never given before (carc_game's serial). */
uint64_t game_serial_new(void);
/* Marks dst, just made a copy of src, as trying moves for src's decision. */
void game_mark_trial(carc_game *dst, const carc_game *src);
void game_fail(carc_game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Raises event ev: its handlers in order; -1 when one failed the game. */
int dispatch_to_handlers(carc_game *g, int ev, struct carc_event *e);
/* The same, inline for the common case of an event nobody listens to (most
 * of them in most variants: a turn raises a dozen). */
static inline int dispatch(carc_game *g, int ev, struct carc_event *e)
{
    return g->rules->nhandlers[ev] ? dispatch_to_handlers(g, ev, e) : 0;
}
int pile_return_aside(carc_game *g);

/* board.c */
int board_place(carc_game *g, int type, int x, int y, int rot);
int board_tile_at(const carc_game *g, int x, int y);
int board_frontier_index(const carc_game *g, int x, int y); /* -1 if not on it */
bool board_fits(const carc_game *g, int type, int fidx, int rot);
int board_count_placements(const carc_game *g, int type);
/* Writes an option for every legal placement of tile type `type`, frontier
 * position by position, rotation by rotation: a copy of `proto` with arg =
 * x, y, rotation. `out` has room for 4 options a frontier position (all
 * four are written; those past the end returned are scratch). Returns
 * the end of the options written. */
carc_option *board_list_placements(const carc_game *g, int type, const carc_option *proto, carc_option *out);
/* The rotations in which a tile type whose packed edges are sig[0..3] fits
 * frontier position f: bit r for rotation r. The four masked compares in
 * one vector where there is SSE2 (every x86-64): listing the placements
 * asks this for every frontier position every turn. */
static inline unsigned board_fit_rotations(const uint32_t sig[4], const frontier_pos *f)
{
#ifdef __SSE2__
    __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)sig), _mm_set1_epi32((int)f->req));
    x = _mm_and_si128(x, _mm_set1_epi32((int)f->mask));
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, _mm_setzero_si128())));
#else
    unsigned fits = 0;
    for (int r = 0; r < 4; r++) fits |= (unsigned)(((sig[r] ^ f->req) & f->mask) == 0) << r;
    return fits;
#endif
}
/* The rotations in which tile type tt fits frontier position f (bit r for
 * rotation r): its wild sides (tile sets' NAME:L:wild) fit every edge. */
static inline unsigned board_type_fits(const tile_type *tt, const frontier_pos *f)
{
    if (!tt->wild_sides) return board_fit_rotations(tt->sig, f);
    unsigned fits = 0;
    for (int r = 0; r < 4; r++) fits |= (unsigned)(((tt->sig[r] ^ f->req) & f->mask & tt->keep[r]) == 0) << r;
    return fits;
}
bool board_any_placement(const carc_game *g, int type);

/* placement.c: the placement decision opened to plugins (place-offer,
 * place-filter), held tiles, tiles placed by plugins */
/* At most how many features placing tile type `type` at x,y can complete
 * (what the turn's list of completed features must have room for). */
int placement_completions_bound(const carc_game *g, int type, int x, int y);
/* Applies the kernel's `place SET:ID ...` (a held tile) and `draw-tile`. */
int placement_apply(carc_game *g, const carc_option *opt, int player);
/* Whether tile type `type` has a legal placement that place-filter leaves. */
bool placement_possible(carc_game *g, int type);
/* After the kernel listed the drawn tile's placements from `first`: raises
 * place-offer (before_draw: the turn has drawn nothing yet) and
 * place-filter, drops the vetoed. -1 if the game failed. */
int placement_build(carc_game *g, int first, int type, bool before_draw);
/* The tiles not yet on the board that the game accounts for (pile, set
 * aside, held, the drawn tile not placed): with the placed ones at most
 * rules->max_tiles. */
int tiles_outstanding(const carc_game *g);
/* One tile of `type` out of seat's hand: 0, or -1 if the seat holds none. */
int held_take(carc_game *g, int seat, int type);
/* Writes an option's placement (a kernel `place` option): 0, or -1 for
 * another option. */
int placement_of_option(const carc_game *g, const carc_option *o, int *type, int *x, int *y, int *rot);

/* features.c */
/* The feature (its root node) of node n. Inline: a placement asks it for
 * every port it joins and every segment of the tile. */
static inline int feat_find(carc_game *g, int n)
{
    node *nodes = g->nodes;
    while (nodes[n].parent != n) {
        nodes[n].parent = nodes[nodes[n].parent].parent; /* path halving */
        n = nodes[n].parent;
    }
    return n;
}
int feat_root_c(const carc_game *g, int n);
/* Makes the features of roots a and b one (nothing when they are one). */
void feat_join(carc_game *g, int a, int b);
int feat_node(const carc_game *g, int tile, int seg);
int feat_distinct_tiles(carc_game *g, int root);
int feat_mark_count(carc_game *g, int root, int mark);
/* The marks counted over the feature's member segments (the self-check's
 * reference, and feat_mark_count past what a kept count holds). */
int feat_mark_walk(const carc_game *g, int root, int mark);
/* Node n's mark counts from its segment s (a new node, its own feature). */
void feat_marks_init(carc_game *g, int n, const seg_def *s);
bool feat_is_complete(const carc_game *g, int root);
void feat_followers(const carc_game *g, int root, int counts[CARC_MAX_PLAYERS]);
int feat_segments(const carc_game *g, int root, int *tiles, int *segs, int max);
/* The sum of each player's follower strengths on the feature. */
void feat_strengths(const carc_game *g, int root, int strength[CARC_MAX_PLAYERS]);
/* The segment of the feature on its earliest-placed tile (names it in texts). */
int feat_first_segment(const carc_game *g, int root, int *tile, int *seg);
/* A list of ints that starts in its own array and grows on the heap. */
typedef struct int_list {
    int *v;
    int n, cap;
    bool oom;              /* a push found no memory */
    int local[64];
} int_list;
void int_list_init(int_list *l);
void int_list_push(int_list *l, int x);
void int_list_free(int_list *l);
void feat_bordering_cities(carc_game *g, int field_root, int_list *cities);

/* segments.c */
int seg_at_port(const carc_game *g, int tile, int port);
int seg_canonical_port(const carc_game *g, int tile, int seg); /* -1 inner */
int seg_name(const carc_game *g, int tile, int seg, char *buf, size_t n);
int seg_by_name(const carc_game *g, int tile, const char *kindport);
int seg_mark_count(const carc_game *g, int tile, int seg, int mark);

/* figures.c */
int fig_add(carc_game *g, int kind, int seat, int where, int tile, int seg, int space);
int fig_place(carc_game *g, int kind, int seat, int where, int tile, int seg, int space, bool from_supply);
int fig_place_segment(carc_game *g, int kind, int seat, int tile, int seg);
void fig_move(carc_game *g, int f, int where, int tile, int seg, int space);
void fig_remove(carc_game *g, int f, bool to_supply);
int fig_remove_event(carc_game *g, int f, int how, int feature);
int fig_feature(carc_game *g, int f);
int fig_capture(carc_game *g, int f, int holder);
int fig_free(carc_game *g, int f, int how);
void fig_on_feature(const carc_game *g, int root, int_list *figs);
/* The first figure standing on a placed tile (on one of its segments or on
 * the tile) with an id above `after`, or -1: the tile's index, so a walk is
 * as long as the figures there, not the figure table. */
int fig_next_on_tile(const carc_game *g, int tile, int after);
void fig_return_followers(carc_game *g, int root);
/* Where a removed figure goes: CARC_GONE_BOX for a kind boxed when removed
 * (ARK-15) whatever `how` asked, else how. */
int fig_removal(const carc_game *g, int f, int how);
/* Offers the kernel's deploys of every deployable follower kind player has
 * in supply on tile's segments; elsewhere = not the placed tile (complete
 * features excluded). Returns the options offered, -1 on failure. */
int offer_deploys_on(carc_game *g, int player, int tile, bool elsewhere);
int fig_kind_stands_on(const struct carc_rules *r, int kind, int feature_kind);
/* The feature of kind `kind` that all four tiles around corner `corner`
 * (enum carc_corner) of placed tile `tile` hold on both their ports at
 * that point, or -1 (carc_api.corner_feature). */
int corner_feature(carc_game *g, int tile, int corner, int kind);

/* scoring.c */
void batch_begin(carc_game *g);
void batch_add(carc_game *g, int player, int points, int reason, int feature, int flags);
/* Takes award i out of the batch being collected; -1 if there is none. */
int batch_withdraw(carc_game *g, int i);
void batch_commit(carc_game *g, int first_seat);
void score_feature_into_batch(carc_game *g, int root, bool final);
int feature_value(carc_game *g, int root, bool complete);
void award_now(carc_game *g, int player, int points, int reason, int feature, int flags);
/* Awards `points` (reason, no feature) to the owner of each figure a player
 * owns standing `where` on placed tile `tile` whose kind is in the mask
 * `kinds` (0: any), one award each, in id order; the tile's figures are
 * looked at again after each award, as handlers may move them
 * (carc_api.award_figures_on). How many awards landed, -1 if the game failed. */
int award_figures_on(carc_game *g, int tile, int where, uint32_t kinds, int points, int reason);
void score_final_features(carc_game *g);
void score_farms(carc_game *g);
/* The batch lands through the landing queue, which may pause for an
 * `order` decision (ROB-15): returns 1 if paused (call batch_land_resume
 * after the answer), 0 when every award has landed. */
int batch_commit_pausable(carc_game *g, int first_seat);
int batch_land_resume(carc_game *g);
/* Applies an `order` option: the award it names lands next. */
int landing_choose(carc_game *g, const carc_option *opt);
int landing_format(const carc_game *g, const carc_option *o, char *buf, size_t n);
/* Raises feature-majority for a feature whose strengths are given (changed
 * in place by handlers) and returns the greatest strength. */
int majority_event(carc_game *g, int root, int strength[CARC_MAX_PLAYERS], bool final);

/* tile_walks.c: offers one copy of `option` per walk of 1 to max_steps
 * steps from placed tile start (carc_api.offer_walks; the caller checks
 * the arguments). Returns how many, -1 when out of memory. */
int offer_tile_walks(carc_game *g, int start, int max_steps, const carc_option *option, int owner);
/* The same walks of figure `figure`, applied by the kernel (tile_walk_apply)
 * (walker_id) under the walk rule made of the other arguments (carc_api.offer_figure_walks). */
int offer_figure_walks(carc_game *g, int walker_id, int max_steps, const carc_option *option, int owner, uint32_t kinds,
                       int points, int reason);
/* Applies a chosen option of offer_figure_walks for the plugin of ctx: 0, or
 * -1 with the game stopped. */
int tile_walk_apply(struct carc_ctx *ctx, const carc_option *opt);
/* The effect key of a walk option (carc_option_effect). */
uint64_t tile_walk_effect(const carc_game *g, const carc_option *opt);
/* figures.c: one option per figure of seat standing where, of a kind in
 * kinds (0: any), but except (carc_api.offer_figures; the caller checks
 * the arguments). Returns how many, -1 when out of memory. */
int offer_figures(carc_game *g, int seat, int where, uint32_t kinds, int except, const carc_option *option, int owner);

/* decision.c */
carc_option *opt_push(carc_game *g);
/* Room for n more options after the last: where they go (the caller fills
 * them and adds them to nopts), or NULL when memory is out (the game failed). */
carc_option *opt_room(carc_game *g, int n);
int decision_pose_built(carc_game *g, int player, int owner, const char *label, int first);
int decision_ask(carc_game *g, int player, int owner, const char *label, const carc_option *opts, int n);
void decision_build_begin(carc_game *g);
/* The same for the placement decision, whose options start at `first`
 * (the kernel's placements of the drawn tile listed already). */
void decision_build_place_begin(carc_game *g, int first);
int decision_offer(carc_game *g, const carc_option *opt, int owner);
int decision_offered(const carc_game *g);
const carc_option *decision_offered_at(const carc_game *g, int i);
void decision_veto(carc_game *g, int i);
void decision_drop_vetoed(carc_game *g);
void decision_build_end(carc_game *g);
int option_format(const carc_game *g, const carc_option *o, char *buf, size_t n);
void shape_memo_free(struct shape_memo *m);

#endif
