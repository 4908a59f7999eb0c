/*
 * carc.h - the carc library: load a variant, run games, read and write
 * records. This is what the carc command, the bots and the tests use.
 *
 * A game runs as a loop:
 *
 *     for (;;) {
 *         int st = carc_advance(g);
 *         if (st == CARC_NEED_DRAW) carc_draw(g, -1);          // the pile decides
 *         else if (st == CARC_NEED_CHOICE) carc_choose(g, pick(g));
 *         else break;                                          // finished or failed
 *     }
 *
 * Every function that can fail returns a negative number and writes a message
 * into the caller's buffer (err, errn), or into the game (carc_game_error).
 *
 * The queries (query.c) follow one rule: an index out of range (a seat, a
 * placed tile, a segment, a port, a feature, a figure, an award, an option,
 * a tile type, a kind, a mark, a reason) gives -1, NULL for a pointer, "?"
 * for a name or "" for a label, 0 for a count of marks; an out-pointer may
 * be NULL. The game and rules pointers themselves must be valid.
 *
 * Pointer lifetimes: a name of the rules (a kind, mark, reason, figure kind,
 * tile id, the variant's name) lives as long as the rules. A pointer into a
 * game (carc_game_error, carc_player_name, carc_decision_label,
 * carc_option_at, carc_award_at) points into arrays the game grows and
 * rewrites: it is valid until the game next changes (carc_advance,
 * carc_draw, carc_choose, carc_end_now) or is freed. Copy what you keep.
 */
#ifndef CARC_H
#define CARC_H

#include <stddef.h>
#include <stdint.h>

#include "carc_plugin.h"

/* The version of carc (reports and shard lines carry it). */
#define CARC_VERSION "0.1.0"

typedef struct carc_rules carc_rules;

/* ---- variants and rules --------------------------------------------------- */

/* The directory holding tiles/, variants/, scripts/ and plugins/
 * ($CARC_DATA if set, else the build's data directory). */
const char *carc_data_dir(void);

/* Loads a variant by name (variants/NAME.ini), by path, or as a composition
 * of modules "base+robbers+fairy" (each a name or a path), applies the
 * option overrides ("key=value" strings) and finishes the rules. NULL on
 * error; a name that is not known gets the closest known names. */
carc_rules *carc_variant_load(const char *name_or_path, const char *const *overrides,
                              int noverrides, char *err, size_t errn);
/* The same variant named so that it loads from any directory: a variant
 * file (or a file in a composition) by its absolute path, names as given.
 * Records store this. 0, or -1 when it does not fit in n bytes (out is
 * then cut: do not use it). */
int carc_variant_reference(const char *name_or_path, char *out, size_t n);
/* The names of the shipped variants (DATA/variants/NAME.ini and one folder
 * down, "house/road-closer"), sorted; every one is also a module. The
 * caller frees them with carc_variant_names_free. */
int carc_variant_names(char ***names);
void carc_variant_names_free(char **names, int n);
/* The closest of n candidate names to word, as "`a`" or "`a` or `b`" into
 * out (nothing when none is close); the number of names written. */
int carc_suggest(const char *word, const char *const *cands, int n, char *out, size_t outn);
/* Whether a variant may load a C plugin from a path it gives ("load =
 * ./my-rule.so") instead of by name from the plugin path ($CARC_PLUGIN_PATH,
 * the install directory, the data directory's plugins/). Off by default: a C
 * plugin is native code, run with the user's rights, and a variant file from
 * elsewhere must not choose which to run. The carc command turns it on for
 * --allow-plugin-paths. Set it before loading rules; every later
 * carc_variant_load, in any thread, reads it. Lua scripts are sandboxed and
 * may always be given by path. */
void carc_allow_plugin_paths(int allow);
int carc_plugin_paths_allowed(void);
/* Rules with one tile set and no plugin (carc tiles check, tests). */
carc_rules *carc_rules_from_tileset(const char *path, char *err, size_t errn);
void carc_rules_free(carc_rules *r);
const char *carc_rules_name(const carc_rules *r);
const char *carc_rules_title(const carc_rules *r);
/* Totals of the loaded tile sets: tiles per kind of segment, marks, tile
 * marks, the start tile (carc tiles check). */
void carc_tileset_summary(const carc_rules *r, void *file);
/* How many Lua scripts the rules load (sandboxed code from anywhere: a
 * server does not run it to draw a page, option_targets.h). */
int carc_rules_scripts(const carc_rules *r);
/* Whether the plugin of that name is a Lua script. */
int carc_rules_plugin_is_script(const carc_rules *r, const char *name);
int carc_rules_min_players(const carc_rules *r);
int carc_rules_max_players(const carc_rules *r);
/* Prints the resolved composition (carc variant show): a variant file that
 * loads from any directory, with where each part came from in comments. */
void carc_rules_describe(const carc_rules *r, void *file);
/* The modules of the variant in load order, separated by spaces ("base
 * robbers fairy"); the string lives as long as the rules. */
const char *carc_rules_modules(const carc_rules *r);
/* Every file the rules were read from, each once, as absolute paths ending
 * in a newline: the variant files as they were read, the tile sets, then the C
 * plugins and Lua scripts ("" for rules from one tile set). Studies hash
 * them, so that a report says which version of each was played. The string
 * lives as long as the rules. */
const char *carc_rules_sources(const carc_rules *r);
/* The options: how many, the key of option i, whether its value is the
 * default (its value: carc_rules_option). */
int carc_rules_options(const carc_rules *r);
const char *carc_rules_option_key(const carc_rules *r, int i);
int carc_rules_option_is_default(const carc_rules *r, int i);
/* The text value of an option, or NULL if there is no such option. */
const char *carc_rules_option(const carc_rules *r, const char *key, char *buf, size_t n);

/* Tile types of the rules: count, and "set:id" names. */
int carc_tile_types(const carc_rules *r);
const char *carc_tile_set_of(const carc_rules *r, int type);
const char *carc_tile_id(const carc_rules *r, int type);
int carc_tile_type_find(const carc_rules *r, const char *set_colon_id);
int carc_tile_count(const carc_rules *r, int type);

/* ---- games ---------------------------------------------------------------- */

enum carc_status { CARC_NEED_DRAW, CARC_NEED_CHOICE, CARC_FINISHED, CARC_FAILED };

carc_game *carc_game_new(const carc_rules *r, int nplayers, const char *const *names,
                         uint64_t seed, char *err, size_t errn);
carc_game *carc_game_clone(const carc_game *g);
/* Look-ahead for bots, in memory kept from one try to the next: dst (from
 * carc_game_clone or carc_game_new of the same rules) becomes a copy of src
 * for playing ahead, reusing dst's arrays, without the award log (no rule
 * reads it): carc_awards(dst) still counts every award, but
 * carc_award_at(dst, i) is NULL for the awards made before the copy.
 * Returns 0, or -1 (dst unchanged) when the rules differ or memory is out. */
int carc_game_copy_into(carc_game *dst, const carc_game *src);
/* carc_game_copy_into, then option `index` of src's pending decision
 * answered on dst (as carc_choose would on a clone of src), without copying
 * that decision's options: how bots try a move. Returns carc_choose's
 * result (0, or -1 with dst failed), or -2 when the copy could not be made
 * (dst unchanged). */
int carc_game_try(carc_game *dst, const carc_game *src, int index);
/* Gives the game new generators for what no player knows: the order of the
 * pile and plugins' random draws. A search agent calls it on its clones so
 * that it samples futures instead of seeing the real one. */
void carc_game_reseed_hidden(carc_game *g, uint64_t seed);
/* Whether g, a copy made to try moves (carc_game_clone, carc_game_copy_into,
 * carc_game_try), stopped because the scripts' account for the decision it
 * was made for is spent: every copy made for one real decision shares one
 * account per script, with the limits of a turn (docs/security.md), so a
 * bot trying many moves cannot multiply them. A bot then stops trying and
 * chooses cheaply. Always 0 for a game of its own. */
int carc_game_trials_spent(const carc_game *g);
/* Stops calling scripts' handlers on g: for a copy made only to see what a
 * C plugin's option does on the board (carc serve's markers), which must
 * run no code from a stranger. The copy no longer plays as the game would. */
void carc_game_mute_scripts(carc_game *g);
/* option.tile of a script's option that puts a figure on the score track,
 * its space in option.seg (carc.ask's `track` key): where carc serve shows it. */
#define CARC_OPTION_TRACK (-2)
void carc_game_free(carc_game *g);

/* Runs the game until someone must decide, the game is over, or it failed. */
int carc_advance(carc_game *g);
/* Answers a chance decision: a tile type, or -1 for the seeded pile. */
int carc_draw(carc_game *g, int type);
/* Answers the pending decision with its option number. */
int carc_choose(carc_game *g, int index);
/* Ends the game before the next turn (record line `end`). */
int carc_end_now(carc_game *g);

const carc_rules *carc_game_rules(const carc_game *g);
const char *carc_game_error(const carc_game *g);
int carc_players(const carc_game *g);
const char *carc_player_name(const carc_game *g, int seat);
int carc_score(const carc_game *g, int seat);
int carc_supply(const carc_game *g, int seat, const char *figure_kind);
int carc_turn_number(const carc_game *g);
int carc_active_player(const carc_game *g);
int carc_pile_left(const carc_game *g);
/* How many tiles of a type are still to come: in the pile or set aside by a
 * plugin (not the drawn tile, not held ones). Counts only, never the order
 * (what a player may count at the table); -1 for a type out of range. */
int carc_tiles_left_of_type(const carc_game *g, int type);
int carc_last_drawn(const carc_game *g);   /* tile type, -1 */
int carc_is_finished(const carc_game *g);

/* The pending decision: who decides, its label ("" when none is pending),
 * its options. carc_option_at points into the game's option array, which
 * grows and is rewritten when a decision is answered: valid until the game
 * next changes. */
int carc_decision_player(const carc_game *g);
const char *carc_decision_label(const carc_game *g);
int carc_option_count(const carc_game *g);
const carc_option *carc_option_at(const carc_game *g, int i);
/* What choosing option i does, as a key: two options of the pending
 * decision with the same key other than 0 leave the game alike (every rule
 * sees the same game after either; only the record's line differs), so a
 * bot weighing every option need try only one of them. 0: not known (an
 * option a plugin applies; today only the walks of offer_figure_walks have
 * a key, and none while a plugin handles option-chosen). */
uint64_t carc_option_effect(const carc_game *g, int i);
/* An option's record text is at most this many bytes (a plugin's or
 * script's longer text is cut there): a buffer of CARC_OPTION_TEXT_MAX + 1
 * holds any. */
#define CARC_OPTION_TEXT_MAX 900
/* Canonical record text of option i (cut at n - 1 bytes, like snprintf). */
int carc_option_text(const carc_game *g, int i, char *buf, size_t n);
/* Option number whose text matches a record line (any name of a segment
 * matches), or -1. */
int carc_option_match(const carc_game *g, const char *line);
/* What option i of the pending decision places, when it is a kernel
 * `place` option (the drawn tile, or a held tile: `place SET:ID X,Y rROT`):
 * its tile type, position and rotation (0..3, clockwise quarter turns);
 * 0, or -1 for another option. Pointers may be NULL. */
int carc_option_placement(const carc_game *g, int i, int *type, int *x, int *y, int *rot);
/* The tiles seat holds outside the pile (a plugin gave them: the abbey):
 * how many, and the type of the i-th; -1 when out of range. */
int carc_held_tiles(const carc_game *g, int seat);
int carc_held_tile(const carc_game *g, int seat, int i);
/* Who offered option i of the pending decision: "kernel" or the plugin's or
 * script's name (valid while the rules are loaded); NULL if there is none. */
const char *carc_option_owner(const carc_game *g, int i);
/* Another option of the pending decision whose text reads like option i's
 * but that does something else (a plugin or script gave two options one
 * text: a record could not tell them apart), or -1 if none. */
int carc_option_duplicate(const carc_game *g, int i);

/* The awards so far (every change of score, in the order they landed):
 * their count, and award i (NULL for the awards before a look-ahead copy:
 * carc_game_copy_into). The pointer is into the game's award log, which
 * grows: it is valid until the game next changes (carc_advance, carc_draw,
 * carc_choose) or is freed; copy the award to keep it. */
int carc_awards(const carc_game *g);
const carc_award *carc_award_at(const carc_game *g, int i);
/* Deprecated: the old names of carc_awards and carc_award_at. */
int carc_events(const carc_game *g);
const carc_award *carc_event_at(const carc_game *g, int i);
const char *carc_reason_name(const carc_rules *r, int reason);

/* The board. */
int carc_tiles_placed(const carc_game *g);
/* Placed tile i (in placement order): 0, or -1 when there is none. */
int carc_tile_at_index(const carc_game *g, int i, int *x, int *y, int *rot, int *type);
int carc_tile_index_at(const carc_game *g, int x, int y);
/* Legal placements of a tile type on the current board (perft). */
int carc_count_placements(const carc_game *g, int type);
/* Figures: count of slots, and one figure's fields (where: CARC_AT_NONE 0,
 * _SEGMENT 1, _TILE 2, _TRACK 3, _HELD 4: in the hand of seat `space`). */
int carc_figures(const carc_game *g);
int carc_figure(const carc_game *g, int f, int *kind, int *seat, int *where, int *tile,
                int *seg, int *space);
const char *carc_figure_kind_name(const carc_rules *r, int kind);
/* Who defined figure kind `kind`: the name carc_option_owner gives its
 * definer ("kernel", a plugin's or a script's), and in *per_player (may be
 * NULL) each player's supply of it at the start (0: a neutral figure).
 * NULL for a kind out of range. Lets an interface draw the figure a
 * plugin's option moves when the plugin defines only one kind. */
const char *carc_figure_kind_definer(const carc_rules *r, int kind, int *per_player);
/* The segment of a placed tile at a board port (0..11), its kind, and the
 * name of a kind. */
int carc_segment_at_port(const carc_game *g, int tile, int port);
int carc_segment_kind(const carc_game *g, int tile, int seg);
int carc_segment_count(const carc_game *g, int tile);
int carc_segment_canonical_port(const carc_game *g, int tile, int seg); /* -1 inner */
const char *carc_kind_name(const carc_rules *r, int kind);
/* Segment name "kind@port" (canonical) of a segment of a placed tile. */
int carc_segment_name(const carc_game *g, int tile, int seg, char *buf, size_t n);
/* Feature id of a placed tile's segment; completion; distinct tiles. */
int carc_feature_of(const carc_game *g, int tile, int seg);
int carc_feature_complete(const carc_game *g, int feature);

/* Event names as Lua scripts and the documents write them ("turn-start"). */
const char *carc_event_name(int event);
int carc_event_by_name(const char *name);

/* The self-check: recomputes from the placed tiles and the figures what the
 * kernel keeps up to date move by move (the frontier and the edges it
 * requires, neighbours, ring and cross counts, features with their members,
 * open ports, occupants and completion, figures' places, pending decisions)
 * and compares. 0, or -1 with the first difference in err. With CARC_CHECK=1
 * in the environment when a game is made, the game checks itself this way
 * after every move and fails with the difference as its error. */
int carc_game_check(const carc_game *g, char *err, size_t errn);

/* What each player would score if the game ended now (features they lead,
 * at their final-scoring value, farms included), added to out[seat]. A
 * positional estimate for bots; it changes nothing. */
void carc_estimate_final(carc_game *g, int out[CARC_MAX_PLAYERS]);

/* ---- rule-blind figures of a position, for learned judgement (position.c) -- */

/* How many figures per player carc_position_figures reports for these rules:
 * "score"; for each kind followers may stand on ("city", a plugin's kind...)
 * "held.K" (what the features the player leads would pay now), "whole.K"
 * (what they would pay completed), "open.K" (open ports, or spaces a ring
 * or cross lacks), "led.K" (how many) and "closers.K" (tiles left in the
 * pile that fit the one space a led feature still needs, summed); for each
 * figure kind with a per-player supply "hand.F" and "board.F". The list
 * depends only on the rules, so it names a learned model's inputs. */
int carc_position_figure_count(const carc_rules *r);
/* Writes the name of figure i into buf; negative when i is out of range. */
int carc_position_figure_name(const carc_rules *r, int i, char *buf, size_t n);
/* Fills out[seat * count + i] with figure i of every seat and returns count;
 * -1 (nothing written) when max is smaller than count times the players.
 * A led feature counts for every player tied for its majority. Plugins'
 * feature values are asked for, as at scoring; the game is not changed. */
int carc_position_figures(carc_game *g, double *out, int max);

/* ---- read-only queries for drawing a game (query.c) ------------------------ */

/* Counts and names of the rules' registries: segment kinds, segment marks,
 * tile marks, figure kinds. A name out of range is "?". */
int carc_kinds(const carc_rules *r);
int carc_marks(const carc_rules *r);
const char *carc_mark_name(const carc_rules *r, int mark);
int carc_tile_marks(const carc_rules *r);
const char *carc_tile_mark_name(const carc_rules *r, int tile_mark);
int carc_figure_kinds(const carc_rules *r);

/* A tile type as its file describes it (unrotated, tile ports): its
 * segments, each one's kind, ports (12-bit mask, bit p = port p; 0 for
 * inner) and the count of a mark on it; whether the type has a tile mark.
 * -1 (or 0 for masks and counts) when an index is out of range. */
int carc_type_segments(const carc_rules *r, int type);
int carc_type_segment_kind(const carc_rules *r, int type, int seg);
unsigned carc_type_segment_ports(const carc_rules *r, int type, int seg);
int carc_type_segment_marks(const carc_rules *r, int type, int seg, int mark);
int carc_type_has_mark(const carc_rules *r, int type, int tile_mark);
/* The segments of a tile type that segment seg touches (its set's `touches`
 * lines): bit i for segment i; 0 when out of range or none. */
unsigned carc_type_segment_touches(const carc_rules *r, int type, int seg);

/* The count of a mark on a placed tile's segment. */
int carc_segment_marks(const carc_game *g, int tile, int seg, int mark);

/* ---- the option table (option_table.c) ---------------------------------------- */

/* One option of the rules as the variant and its plugins define it. The
 * strings belong to the rules and live as long as they do. */
typedef struct carc_option_info {
    const char *key;        /* "farm-scoring", "fairy.score-bonus" */
    const char *help;       /* one line; "" when the definer gave none */
    int is_int;             /* 1: a number in [min, max]; 0: one of values */
    int value;              /* the current value (enum: index into values) */
    int def;                /* the default of a number */
    int min, max;
    int nvalues;
    const char *values[8];
} carc_option_info;

int carc_rules_option_count(const carc_rules *r);
/* Option i (0 .. count-1) of the rules. 0, or -1 when out of range. */
int carc_rules_option_info(const carc_rules *r, int i, carc_option_info *out);

#endif
