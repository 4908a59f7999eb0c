/* query.c - the public read-only queries of carc.h: a game's players,
 * scores, pending decision, awards, board, figures, segments and
 * features, and the rules' registries and tile types (for programs that draw
 * a game: carc render, the terminal board). Nothing here changes a game or
 * the rules. */
#include <string.h>

#include "core.h"

/* The one checking rule of every query here: an index out of range (a seat,
 * a placed tile, a segment, a port, a feature, a figure, an award, an
 * option, a tile type, a kind, a mark, a reason) gives -1, NULL for a
 * pointer, "?" for a name or "" for a label, 0 for a count of marks; never a
 * read outside the game. The game or rules pointer itself must be valid. */

static bool seat_ok(const carc_game *g, int seat) { return seat >= 0 && seat < g->nplayers; }
static bool tile_ok(const carc_game *g, int tile) { return tile >= 0 && tile < g->ntiles; }
static bool seg_ok(const carc_game *g, int tile, int seg)
{
    return tile_ok(g, tile) && seg >= 0 && seg < g->rules->types[g->tiles[tile].type].nsegs;
}
static bool type_ok(const carc_rules *r, int type) { return type >= 0 && type < r->ntypes; }

/* ---- a game ---------------------------------------------------------------------- */

const carc_rules *carc_game_rules(const carc_game *g) { return g->rules; }
const char *carc_game_error(const carc_game *g) { return g->error; }
int carc_players(const carc_game *g) { return g->nplayers; }
const char *carc_player_name(const carc_game *g, int seat) { return seat_ok(g, seat) ? g->names[seat] : "?"; }
int carc_score(const carc_game *g, int seat) { return seat_ok(g, seat) ? g->score[seat] : -1; }
int carc_turn_number(const carc_game *g) { return g->turn.number; }
int carc_active_player(const carc_game *g) { return g->turn.active; }
int carc_pile_left(const carc_game *g) { return g->npile; }
int carc_last_drawn(const carc_game *g) { return g->turn.drawn; }
int carc_is_finished(const carc_game *g) { return g->finished; }

int carc_supply(const carc_game *g, int seat, const char *figure_kind)
{
    int k = figure_kind ? rules_figkind(g->rules, figure_kind) : -1;
    return k < 0 || !seat_ok(g, seat) ? -1 : g->supply[seat][k];
}

/* ---- the pending decision ------------------------------------------------------------ */

int carc_decision_player(const carc_game *g) { return g->ndq ? g->dq[0].player : -1; }
const char *carc_decision_label(const carc_game *g) { return g->ndq ? g->dq[0].label : ""; }
int carc_option_count(const carc_game *g) { return g->ndq ? g->dq[0].n : 0; }

const carc_option *carc_option_at(const carc_game *g, int i)
{
    return g->ndq && i >= 0 && i < g->dq[0].n ? &g->opts[g->dq[0].first + i] : NULL;
}

uint64_t carc_option_effect(const carc_game *g, int i)
{
    const carc_option *o = carc_option_at(g, i);
    /* A handler of option-chosen sees the option itself, so two options
     * that change the game alike may still lead it apart. */
    if (!o || g->rules->nhandlers[CARC_EV_OPTION_CHOSEN]) return 0;
    return tile_walk_effect(g, o);
}

/* ---- awards ------------------------------------------------------------------------- */

int carc_awards(const carc_game *g) { return g->log_from + g->nlog; }
const carc_award *carc_award_at(const carc_game *g, int i)
{
    i -= g->log_from; /* a look-ahead copy keeps only its own awards */
    return i >= 0 && i < g->nlog ? &g->log[i] : NULL;
}
int carc_events(const carc_game *g) { return carc_awards(g); }
const carc_award *carc_event_at(const carc_game *g, int i) { return carc_award_at(g, i); }

const char *carc_reason_name(const carc_rules *r, int reason)
{
    return reason >= 0 && reason < r->nreasons ? r->reasons[reason] : "?";
}

/* ---- the board ------------------------------------------------------------------------ */

int carc_tiles_placed(const carc_game *g) { return g->ntiles; }

int carc_tile_at_index(const carc_game *g, int i, int *x, int *y, int *rot, int *type)
{
    if (!tile_ok(g, i)) return -1;
    const placed *p = &g->tiles[i];
    if (x) *x = p->x;
    if (y) *y = p->y;
    if (rot) *rot = p->rot;
    if (type) *type = p->type;
    return 0;
}

int carc_tile_index_at(const carc_game *g, int x, int y) { return board_tile_at(g, x, y); }
int carc_count_placements(const carc_game *g, int type)
{
    return type_ok(g->rules, type) ? board_count_placements(g, type) : -1;
}

/* ---- figures ---------------------------------------------------------------------------- */

int carc_figures(const carc_game *g) { return g->nfigs; }

int carc_figure(const carc_game *g, int f, int *kind, int *seat, int *where, int *tile, int *seg,
                int *space)
{
    if (f < 0 || f >= g->nfigs) return -1;
    const figure *fg = &g->figs[f];
    if (kind) *kind = fg->kind;
    if (seat) *seat = fg->seat;
    if (where) *where = fg->where;
    if (tile) *tile = fg->tile;
    if (seg) *seg = fg->seg;
    if (space) *space = fg->space;
    return 0;
}

const char *carc_figure_kind_name(const carc_rules *r, int kind)
{
    return kind >= 0 && kind < r->nfigkinds ? r->figkinds[kind].name : "?";
}

int carc_tiles_left_of_type(const carc_game *g, int type)
{
    if (type < 0 || type >= g->rules->ntypes) return -1;
    int n = 0;
    for (int i = 0; i < g->npile; i++) n += g->pile[i] == type;
    for (int i = 0; i < g->naside; i++) n += g->aside[i] == type;
    return n;
}

const char *carc_figure_kind_definer(const carc_rules *r, int kind, int *per_player)
{
    if (kind < 0 || kind >= r->nfigkinds) return NULL;
    int owner = r->figkinds[kind].owner;
    if (owner < 0 || owner > r->nplugins) return NULL;
    if (per_player) *per_player = r->figkinds[kind].per_player;
    return owner == 0 ? r->base.name : r->plugins[owner - 1]->name;
}

/* ---- features ----------------------------------------------------------------------------- */

int carc_feature_of(const carc_game *g, int tile, int seg)
{
    return seg_ok(g, tile, seg) ? feat_root_c(g, g->tiles[tile].node0 + seg) : -1;
}

int carc_feature_complete(const carc_game *g, int feature)
{
    if (feature < 0 || feature >= g->nnodes || g->nodes[feature].parent != feature) return -1;
    return feat_is_complete(g, feature);
}

/* ---- segments of placed tiles ------------------------------------------------------ */

int carc_segment_at_port(const carc_game *g, int tile, int port)
{
    return tile_ok(g, tile) && port >= 0 && port < CARC_PORTS ? seg_at_port(g, tile, port) : -1;
}

int carc_segment_kind(const carc_game *g, int tile, int seg)
{
    return seg_ok(g, tile, seg) ? g->rules->types[g->tiles[tile].type].segs[seg].kind : -1;
}

int carc_segment_canonical_port(const carc_game *g, int tile, int seg)
{
    return seg_ok(g, tile, seg) ? seg_canonical_port(g, tile, seg) : -1;
}

const char *carc_kind_name(const carc_rules *r, int kind) { return kind_name(r, kind); }

int carc_segment_count(const carc_game *g, int tile)
{
    return tile_ok(g, tile) ? g->rules->types[g->tiles[tile].type].nsegs : -1;
}

int carc_segment_name(const carc_game *g, int tile, int seg, char *buf, size_t n)
{
    if (!seg_ok(g, tile, seg) || !buf) return -1;
    return seg_name(g, tile, seg, buf, n);
}

/* ---- the rules' registries and tile types ---------------------------------------- */

int carc_tile_types(const carc_rules *r) { return r->ntypes; }
const char *carc_tile_set_of(const carc_rules *r, int type) { return type_ok(r, type) ? r->sets[r->types[type].set].name : "?"; }
const char *carc_tile_id(const carc_rules *r, int type) { return type_ok(r, type) ? r->types[type].id : "?"; }
int carc_tile_count(const carc_rules *r, int type) { return type_ok(r, type) ? r->types[type].count : -1; }

int carc_kinds(const carc_rules *r) { return r->nkinds; }
int carc_marks(const carc_rules *r) { return r->nmarks; }
int carc_tile_marks(const carc_rules *r) { return r->ntmarks; }
int carc_figure_kinds(const carc_rules *r) { return r->nfigkinds; }

const char *carc_mark_name(const carc_rules *r, int mark)
{
    return mark >= 0 && mark < r->nmarks ? r->marks[mark] : "?";
}

const char *carc_tile_mark_name(const carc_rules *r, int tile_mark)
{
    return tile_mark >= 0 && tile_mark < r->ntmarks ? r->tmarks[tile_mark] : "?";
}

static const seg_def *type_seg(const carc_rules *r, int type, int seg)
{
    if (!type_ok(r, type) || seg < 0 || seg >= r->types[type].nsegs) return NULL;
    return &r->types[type].segs[seg];
}

int carc_type_segments(const carc_rules *r, int type) { return type_ok(r, type) ? r->types[type].nsegs : -1; }

int carc_type_segment_kind(const carc_rules *r, int type, int seg)
{
    const seg_def *sd = type_seg(r, type, seg);
    return sd ? sd->kind : -1;
}

unsigned carc_type_segment_ports(const carc_rules *r, int type, int seg)
{
    const seg_def *sd = type_seg(r, type, seg);
    return sd ? sd->ports : 0u;
}

int carc_type_segment_marks(const carc_rules *r, int type, int seg, int mark)
{
    const seg_def *sd = type_seg(r, type, seg);
    int n = 0;
    for (int i = 0; sd && i < sd->nmarks; i++)
        if (sd->mark[i] == mark) n += sd->mark_count[i];
    return n;
}

int carc_type_has_mark(const carc_rules *r, int type, int tile_mark)
{
    if (!type_ok(r, type) || tile_mark < 0 || tile_mark >= r->ntmarks) return 0;
    return (int)((r->types[type].tile_marks >> tile_mark) & 1u);
}

int carc_segment_marks(const carc_game *g, int tile, int seg, int mark)
{
    if (!tile_ok(g, tile)) return 0;
    return carc_type_segment_marks(g->rules, g->tiles[tile].type, seg, mark);
}

unsigned carc_type_segment_touches(const carc_rules *r, int type, int seg)
{
    if (type < 0 || type >= r->ntypes || seg < 0 || seg >= r->types[type].nsegs) return 0;
    return r->types[type].touches[seg];
}

int carc_rules_scripts(const carc_rules *r)
{
    int n = 0;
    for (int i = 0; i < r->nplugins; i++) n += r->plugins[i]->is_script;
    return n;
}

int carc_rules_plugin_is_script(const carc_rules *r, const char *name)
{
    for (int i = 0; i < r->nplugins; i++)
        if (strcmp(r->plugins[i]->name, name) == 0) return r->plugins[i]->is_script;
    return 0;
}
