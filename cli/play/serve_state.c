/* serve_state.c - a game's state as JSON for the page (serve_state.h). */
#include "serve_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agents.h"
#include "game_log.h"
#include "held_json.h"
#include "json_io.h"
#include "option_preview.h"
#include "option_targets.h"
#include "render.h"
#include "serve_docs.h"
#include "view.h"

/* Runs a drawing into a string: a new JSON string, or NULL. */
typedef void (*draw_fn)(FILE *out, const void *a, const void *b);
static json_t *drawn_string(draw_fn fn, const void *a, const void *b)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fn(f, a, b);
    fclose(f);
    (void)len;
    json_t *j = buf ? json_text(buf) : NULL; /* names and titles in it may be in any encoding */
    free(buf);
    return j;
}

typedef struct board_pic {
    const view *v;
    const svg_layout *l;
    int last_tile;
} board_pic;

static void draw_board(FILE *out, const void *a, const void *b)
{
    const board_pic *p = a;
    (void)b;
    svg_open(out, p->l, 0);
    svg_coords(out, p->l);
    svg_tiles(out, p->l, p->v);
    if (p->last_tile >= 0 && p->last_tile < p->v->ntiles) {
        const view_tile *t = &p->v->tiles[p->last_tile];
        fprintf(out, "<rect class=\"last-tile\" data-x=\"%d\" data-y=\"%d\" x=\"%g\" y=\"%g\" width=\"%g\" "
                     "height=\"%g\" fill=\"none\" stroke=\"#ff00c8\" stroke-width=\"3\"/>\n",
                t->x, t->y, p->l->board_x + (t->x - p->l->minx) * p->l->tile + 1.5,
                p->l->board_y + (t->y - p->l->miny) * p->l->tile + 1.5, p->l->tile - 3, p->l->tile - 3);
    }
    svg_figures(out, p->l, p->v);
    svg_legend(out, p->l, p->v);
    svg_track(out, p->l);
    svg_markers(out, p->l, p->v);
    svg_close(out);
}

static void draw_tile_alone(FILE *out, const void *a, const void *b)
{
    (void)b;
    svg_tile(out, a, 0);
}

/* The drawn tile in its four turns, each in tile units (0..100). */
static json_t *drawn_json(const carc_game *g)
{
    int type = carc_last_drawn(g);
    if (type < 0 || carc_is_finished(g)) return json_null();
    const carc_rules *r = carc_game_rules(g);
    json_t *turns = json_array();
    for (int rot = 0; rot < 4; rot++) {
        view v;
        if (view_of_tile_type(&v, r, type, rot) < 0) continue;
        json_array_append_new(turns, drawn_string(draw_tile_alone, &v, NULL));
        view_free(&v);
    }
    char name[160];
    snprintf(name, sizeof name, "%s:%s", carc_tile_set_of(r, type), carc_tile_id(r, type));
    return json_pack("{s:o, s:o}", "type", json_text(name), "svg", turns);
}

static double px_of(const svg_layout *l, int x) { return l->board_x + (x - l->minx) * l->tile; }
static double py_of(const svg_layout *l, int y) { return l->board_y + (y - l->miny) * l->tile; }

typedef struct figure_pic {
    const char *kind;
    int owner;
} figure_pic;

static void draw_figure(FILE *out, const void *a, const void *b)
{
    const figure_pic *f = a;
    (void)b;
    icon_figure(out, f->kind, f->owner, 0, 0, 1);
}

/* The figure's picture centred on (0, 0) in board units (the board draws
 * its figures this way), in its owner's colour; kinds nobody drew get a
 * meeple with their initial (svg_icons.c). */
static json_t *figure_icon(const char *kind, int owner)
{
    figure_pic f = {kind, owner};
    return drawn_string(draw_figure, &f, NULL);
}

/* The feature and the points of a preview (option_preview.h). */
static void preview_json(json_t *j, const option_preview *p, const carc_game *g)
{
    if (p->segs) {
        json_t *segs = json_array();
        for (int i = 0; i < p->nsegs; i++) {
            int x = 0, y = 0, rot, type;
            carc_tile_at_index(g, p->segs[i].tile, &x, &y, &rot, &type);
            json_array_append_new(segs, json_pack("{s:i, s:i, s:i, s:i}", "tile", p->segs[i].tile, "seg",
                                                  p->segs[i].seg, "x", x, "y", y));
        }
        json_object_set_new(j, "feature", json_pack("{s:o, s:b, s:o}", "kind", json_text(p->feature_kind), "complete",
                                                    p->feature_complete, "segs", segs));
    }
    if (p->has_points) {
        json_t *pts = json_array();
        for (int q = 0; q < carc_players(g); q++) json_array_append_new(pts, json_integer(p->points[q]));
        json_object_set_new(j, "points", pts);
        if (p->scripts_muted) json_object_set_new(j, "points_without_scripts", json_true());
    }
}

static json_t *target_json(const option_target *t, const svg_layout *l)
{
    static const char *const kinds[] = {"none", "place", "figure", "remove", "track"};
    json_t *j = json_pack("{s:s}", "kind", kinds[t->kind]);
    double s = l->tile / TILE_UNITS, x = 0, y = 0;
    switch (t->kind) {
    case TARGET_NONE: return j;
    case TARGET_PLACE:
        json_object_set_new(j, "size", json_real(l->tile));
        x = px_of(l, t->x);
        y = py_of(l, t->y);
        json_object_set_new(j, "rot", json_integer(t->rot));
        break;
    case TARGET_TRACK:
        svg_track_space_centre(l, t->space, &x, &y);
        json_object_set_new(j, "space", json_integer(t->space));
        break;
    case TARGET_FIGURE:
    case TARGET_REMOVE:
        x = px_of(l, t->x) + t->ax * s;
        y = py_of(l, t->y) + t->ay * s;
        json_object_set_new(j, "seg", json_integer(t->seg));
        if (t->corner >= 0) json_object_set_new(j, "corner", json_text(view_corner_name(t->corner)));
        break;
    }
    if (t->kind != TARGET_TRACK) {
        json_object_set_new(j, "x", json_integer(t->x));
        json_object_set_new(j, "y", json_integer(t->y));
    }
    if (t->figure) json_object_set_new(j, "figure", json_text(t->figure));
    if (t->figure && t->kind != TARGET_PLACE) {
        json_object_set_new(j, "owner", json_integer(t->owner));
        json_object_set_new(j, "icon", figure_icon(t->figure, t->owner));
    }
    json_object_set_new(j, "px", json_real(x));
    json_object_set_new(j, "py", json_real(y));
    return j;
}

static json_t *decision_json(const serve_session *s, const svg_layout *l)
{
    const carc_game *g = s->g;
    if (carc_is_finished(g) || s->failed[0]) return json_null();
    int seat = carc_decision_player(g), n = carc_option_count(g);
    json_t *opts = json_array();
    /* The previews are for a person at the page; a bot's options are not shown. */
    bool human = session_is_human(s, seat);
    carc_game *scratch = human ? carc_game_clone(g) : NULL;
    for (int i = 0; i < n; i++) {
        char text[256];
        option_target t;
        carc_option_text(g, i, text, sizeof text);
        if (option_target_of(g, i, &t) < 0) t.kind = TARGET_NONE;
        json_t *tj = target_json(&t, l);
        option_preview p;
        if (human && option_preview_of(g, i, &t, scratch, &p) == 0) {
            preview_json(tj, &p, g);
            option_preview_free(&p);
        }
        json_array_append_new(opts, json_pack("{s:i, s:o, s:o}", "i", i, "text", json_text(text), "target", tj));
    }
    carc_game_free(scratch);
    return json_pack("{s:i, s:o, s:b, s:o}", "seat", seat, "label", json_text(carc_decision_label(g)), "human",
                     session_is_human(s, seat), "options", opts);
}

static json_t *breakdown_json(const carc_game *g)
{
    log_breakdown b;
    log_breakdown_of(g, &b);
    json_t *reasons = json_array(), *rows = json_array();
    for (int k = 0; k < b.nreasons; k++)
        json_array_append_new(reasons, json_text(carc_reason_name(carc_game_rules(g), b.reasons[k])));
    for (int p = 0; p < carc_players(g); p++) {
        json_t *pts = json_array();
        for (int k = 0; k < b.nreasons; k++) json_array_append_new(pts, json_integer(b.points[p][k]));
        json_array_append_new(rows, json_pack("{s:i, s:o, s:o, s:i, s:i}", "seat", p, "name", json_text(carc_player_name(g, p)),
                                              "points", pts, "awarded", b.total[p], "score", carc_score(g, p)));
    }
    return json_pack("{s:o, s:o}", "reasons", reasons, "rows", rows);
}

static json_t *players_json(const serve_session *s)
{
    json_t *a = json_array();
    for (int p = 0; p < s->nplayers; p++)
        json_array_append_new(a, json_pack("{s:i, s:o, s:o, s:b, s:s, s:s, s:i, s:i, s:o*}", "seat", p, "name",
                                           json_text(s->names[p]), "agent", json_text(s->agents[p]), "human", session_is_human(s, p),
                                           "colour", view_seat_colour(p), "colour_name", view_seat_colour_name(p),
                                           "score", carc_score(s->g, p), "followers",
                                           carc_supply(s->g, p, "follower"), "held", held_figures_json(s->g, p)));
    return a;
}

/* Where a figure on the board stands, in the board's pixels: 0, or -1
 * when it stands on no tile. */
static int figure_px(const carc_game *g, const svg_layout *l, int f, const char **kind, double *x, double *y)
{
    int k, seat, where, tile, seg, space;
    if (carc_figure(g, f, &k, &seat, &where, &tile, &seg, &space) < 0 ||
        (where != CARC_AT_SEGMENT && where != CARC_AT_TILE && where != CARC_AT_CORNER))
        return -1;
    view_tile vt;
    if (view_tile_of_game(&vt, g, tile) < 0) return -1;
    double ax = TILE_UNITS / 2, ay = TILE_UNITS / 2;
    if (where == CARC_AT_SEGMENT) svg_seg_anchor(&vt, seg, &ax, &ay);
    if (where == CARC_AT_CORNER) svg_corner_anchor(space, &ax, &ay);
    *kind = carc_figure_kind_name(carc_game_rules(g), k);
    *x = px_of(l, vt.x) + ax * l->tile / TILE_UNITS;
    *y = py_of(l, vt.y) + ay * l->tile / TILE_UNITS;
    return 0;
}

/* Each seat's last tile and figure (seat_moves.h), for the page to mark. */
static json_t *last_moves_json(const serve_session *s, const svg_layout *l)
{
    json_t *a = json_array();
    for (int p = 0; p < s->nplayers; p++) {
        const seat_moves *m = &s->moves;
        json_t *one = json_pack("{s:i, s:i}", "seat", p, "line", m->line[p]);
        int x, y, rot, type;
        if (m->tile[p] >= 0 && carc_tile_at_index(s->g, m->tile[p], &x, &y, &rot, &type) == 0)
            json_object_set_new(one, "tile", json_pack("{s:i, s:i, s:f, s:f, s:f}", "x", x, "y", y, "px", px_of(l, x),
                                                       "py", py_of(l, y), "size", l->tile));
        const char *kind;
        double fx, fy;
        int f = seat_moves_figure(m, s->g, p);
        if (f >= 0 && figure_px(s->g, l, f, &kind, &fx, &fy) == 0)
            json_object_set_new(one, "figure", json_pack("{s:o, s:f, s:f}", "kind", json_text(kind), "px", fx, "py", fy));
        json_array_append_new(a, one);
    }
    return a;
}

/* The modules of the game's rules, each with whether docs/MODULE.md (its
 * rules page, GET /api/docs/MODULE) is there. */
static json_t *modules_json(const carc_rules *r)
{
    json_t *a = json_array();
    const char *m = carc_rules_modules(r);
    while (m && *m) {
        size_t n = strcspn(m, " ");
        char name[128];
        if (n > 0 && n < sizeof name) {
            memcpy(name, m, n);
            name[n] = 0;
            char path[1200];
            struct stat st;
            snprintf(path, sizeof path, "%s/docs/%s.md", carc_data_dir(), name);
            bool doc = serve_doc_name_ok(name) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
            json_array_append_new(a, json_pack("{s:o, s:b}", "name", json_text(name), "doc", doc));
        }
        m += n;
        m += strspn(m, " ");
    }
    return a;
}

json_t *serve_state_json(const serve_session *s)
{
    view v;
    if (view_of_game(&v, s->g) < 0) return NULL;
    /* One ring of empty squares around the tiles: where the next tile may go. */
    v.minx--, v.miny--, v.maxx++, v.maxy++;
    svg_layout l;
    svg_layout_of(&l, &v);
    board_pic pic = {&v, &l, s->last_tile};
    json_t *board = json_pack("{s:o, s:f, s:f}", "svg", drawn_string(draw_board, &pic, NULL), "width", l.width,
                              "height", l.height);
    json_t *last = json_null();
    if (s->last_tile >= 0 && s->last_tile < v.ntiles)
        last = json_pack("{s:i, s:i}", "x", v.tiles[s->last_tile].x, "y", v.tiles[s->last_tile].y);
    json_t *j = json_pack("{s:s, s:o, s:o, s:I, s:i, s:o, s:b, s:o, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:O, s:o}",
                          "id", s->id, "variant", json_text(s->variant), "title", json_text(carc_rules_title(s->rules)),
                          "seed", (json_int_t)s->seed, "serial", session_serial(s), "save", json_text(s->save),
                          "finished", carc_is_finished(s->g), "failed", json_text(s->failed), "turn", carc_turn_number(s->g), "pile_left",
                          carc_pile_left(s->g), "players", players_json(s), "board", board, "last_tile", last,
                          "drawn", drawn_json(s->g), "decision", decision_json(s, &l), "log", s->log, "breakdown",
                          breakdown_json(s->g));
    if (j) {
        json_object_set_new(j, "last_moves", last_moves_json(s, &l));
        json_object_set_new(j, "modules", modules_json(s->rules));
    }
    view_free(&v);
    return j;
}

json_t *serve_tiles_left_json(const serve_session *s)
{
    const carc_rules *r = s->rules;
    json_t *types = json_array();
    for (int type = 0; type < carc_tile_types(r); type++) {
        int left = carc_tiles_left_of_type(s->g, type);
        if (left <= 0) continue;
        view v;
        if (view_of_tile_type(&v, r, type, 0) < 0) continue;
        char name[160];
        snprintf(name, sizeof name, "%s:%s", carc_tile_set_of(r, type), carc_tile_id(r, type));
        json_array_append_new(types, json_pack("{s:o, s:i, s:i, s:o}", "type", json_text(name), "left", left, "of",
                                               carc_tile_count(r, type), "svg", drawn_string(draw_tile_alone, &v, NULL)));
        view_free(&v);
    }
    return json_pack("{s:i, s:o}", "pile_left", carc_pile_left(s->g), "types", types);
}

json_t *serve_agents_json(void)
{
    json_t *list = json_array();
    for (int k = 0; list && k < agent_nkinds; k++) {
        const agent_kind *ak = &agent_kinds[k];
        json_t *one = json_pack("{s:s,s:s}", "name", ak->name, "help", ak->summary);
        if (one && ak->settings) json_object_set_new(one, "settings", json_string(ak->settings));
        if (json_array_append_new(list, one) < 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list ? json_pack("{s:o}", "agents", list) : NULL;
}

json_t *serve_variant_json(const char *name, char *err, size_t errn, int *status)
{
    *status = 400;
    carc_rules *r = carc_variant_load(name, NULL, 0, err, errn);
    if (!r) return NULL;
    json_t *opts = json_array();
    for (int i = 0; i < carc_rules_option_count(r); i++) {
        carc_option_info o;
        if (carc_rules_option_info(r, i, &o) < 0) continue;
        json_t *j = json_pack("{s:o, s:o, s:s}", "key", json_text(o.key), "help", json_text(o.help), "type",
                              o.is_int ? "int" : "enum");
        if (o.is_int) {
            json_object_set_new(j, "value", json_integer(o.value));
            json_object_set_new(j, "min", json_integer(o.min));
            json_object_set_new(j, "max", json_integer(o.max));
        } else {
            json_t *vals = json_array();
            for (int k = 0; k < o.nvalues; k++) json_array_append_new(vals, json_text(o.values[k]));
            json_object_set_new(j, "values", vals);
            json_object_set_new(j, "value", json_text(o.value >= 0 && o.value < o.nvalues ? o.values[o.value] : ""));
        }
        json_array_append_new(opts, j);
    }
    json_t *j = json_pack("{s:o, s:o, s:i, s:i, s:o}", "name", json_text(name), "title",
                          json_text(carc_rules_title(r)), "min_players", carc_rules_min_players(r), "max_players",
                          carc_rules_max_players(r), "options", opts);
    carc_rules_free(r);
    if (!j) { /* every text above is made valid UTF-8: only memory can fail */
        *status = 500;
        snprintf(err, errn, "out of memory");
    }
    return j;
}
