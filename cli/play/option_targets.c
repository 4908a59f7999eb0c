/* option_targets.c - an option's place on the board, found by choosing it on
 * a copy of the game and comparing the board and the figures before and
 * after (option_targets.h). */
#include "option_targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "view.h"

typedef struct fig_place {
    int kind, owner, where, tile, seg, space;
} fig_place;

static fig_place *figures_of(const carc_game *g, int *n)
{
    *n = carc_figures(g);
    fig_place *f = calloc((size_t)(*n ? *n : 1), sizeof *f);
    if (!f) return NULL;
    for (int i = 0; i < *n; i++)
        if (carc_figure(g, i, &f[i].kind, &f[i].owner, &f[i].where, &f[i].tile, &f[i].seg, &f[i].space) < 0)
            f[i].where = CARC_AT_NONE;
    return f;
}

static int same_place(const fig_place *a, const fig_place *b)
{
    if (a->where != b->where) return 0;
    if (a->where == CARC_AT_TRACK || a->where == CARC_AT_HELD) return a->space == b->space;
    if (a->where == CARC_AT_NONE) return 1;
    if (a->where == CARC_AT_CORNER) return a->tile == b->tile && a->space == b->space;
    return a->tile == b->tile && (a->where != CARC_AT_SEGMENT || a->seg == b->seg);
}

/* Where a figure stands: its tile's position and its spot on the tile. */
static void figure_spot(const carc_game *g, const fig_place *f, option_target *t)
{
    t->tile = f->tile;
    t->seg = f->where == CARC_AT_SEGMENT ? f->seg : -1;
    t->space = f->space;
    t->figure = carc_figure_kind_name(carc_game_rules(g), f->kind);
    t->owner = f->owner;
    t->ax = t->ay = TILE_UNITS / 2;
    if (f->where == CARC_AT_TRACK) return;
    view_tile vt;
    if (view_tile_of_game(&vt, g, f->tile) < 0) return;
    t->x = vt.x;
    t->y = vt.y;
    t->rot = vt.rot;
    if (t->seg >= 0) svg_seg_anchor(&vt, t->seg, &t->ax, &t->ay);
    if (f->where == CARC_AT_CORNER) {
        t->corner = f->space;
        svg_corner_anchor(f->space, &t->ax, &t->ay);
    }
}

/* The one figure kind a script defines (the fairy's, the robbers'), which
 * its options that put a figure somewhere move; NULL when it defines none
 * or several (the page then draws a figure of no kind). */
static const char *sole_figure_of(const carc_rules *r, const char *script, int *per_player)
{
    const char *found = NULL;
    for (int kind = 0; kind < carc_figure_kinds(r); kind++) {
        int each = 0;
        const char *by = carc_figure_kind_definer(r, kind, &each);
        if (!by || strcmp(by, script) != 0) continue;
        if (found) return NULL;
        found = carc_figure_kind_name(r, kind);
        *per_player = each;
    }
    return found;
}

int option_target_of(const carc_game *g, int k, option_target *t)
{
    memset(t, 0, sizeof *t);
    t->kind = TARGET_NONE;
    t->tile = t->seg = t->owner = t->corner = -1;
    /* The kernel's own placements (of the drawn tile, or of a held one)
     * say where: no copy needed. */
    if (carc_option_placement(g, k, NULL, &t->x, &t->y, &t->rot) == 0) {
        t->kind = TARGET_PLACE;
        t->tile = carc_tiles_placed(g);
        return 0;
    }
    const carc_option *o = carc_option_at(g, k);
    char text[128];
    /* The kernel's deployments name their tile and segment. */
    if (o && o->owner == 0 && carc_option_text(g, k, text, sizeof text) >= 0 && strncmp(text, "deploy ", 7) == 0) {
        fig_place f = {o->arg[0], carc_decision_player(g), CARC_AT_SEGMENT, o->tile, o->seg, 0};
        figure_spot(g, &f, t);
        t->kind = TARGET_FIGURE;
        return 0;
    }
    if (!o || o->owner == 0) return 0; /* pass, the order of awards: by their text */
    /* A script's code is never run to draw the page (a copy would run its
     * handlers, with work no one asked for): with scripts loaded, an
     * option acts where it names a tile and segment, else it is offered
     * beside the board by its text. */
    const char *owner = carc_option_owner(g, k);
    if (carc_rules_scripts(carc_game_rules(g)) > 0 && owner && carc_rules_plugin_is_script(carc_game_rules(g), owner)) {
        int per_player = 0;
        const char *figure = sole_figure_of(carc_game_rules(g), owner, &per_player);
        if (o->tile == CARC_OPTION_TRACK) {
            t->kind = TARGET_TRACK;
            t->space = o->seg;
            t->owner = carc_decision_player(g);
            t->figure = figure;
            return 0;
        }
        if (o->tile < 0 || o->tile >= carc_tiles_placed(g)) return 0;
        fig_place f = {-1, -1, o->seg >= 0 ? CARC_AT_SEGMENT : CARC_AT_TILE, o->tile, o->seg, 0};
        figure_spot(g, &f, t);
        t->figure = figure;
        t->owner = figure && per_player > 0 ? carc_decision_player(g) : -1;
        t->kind = TARGET_FIGURE;
        return 0;
    }
    /* A C plugin's option (native code the user installed) is tried on a
     * copy whose scripts' handlers are not called. */
    carc_game *c = carc_game_clone(g);
    if (!c) return -1;
    carc_game_mute_scripts(c);
    int nb, na, rc = -1;
    fig_place *before = figures_of(g, &nb), *after = NULL;
    int tiles = carc_tiles_placed(g);
    if (!before || carc_choose(c, k) < 0) goto out;
    rc = 0;
    if (carc_tiles_placed(c) > tiles) {
        int type;
        t->kind = TARGET_PLACE;
        t->tile = tiles;
        carc_tile_at_index(c, tiles, &t->x, &t->y, &t->rot, &type);
        goto out;
    }
    after = figures_of(c, &na);
    if (!after) goto out;
    /* A figure that came onto the board or moved on it comes first; a
     * figure that only left the board (a follower sent home) second. */
    const fig_place *gone = NULL, none = {0, -1, CARC_AT_NONE, -1, -1, 0};
    /* The kernel's count of figure slots shrinks when the last ones leave. */
    for (int i = 0; i < (na > nb ? na : nb); i++) {
        const fig_place *was = i < nb ? &before[i] : NULL, *is = i < na ? &after[i] : &none;
        if (was && same_place(was, is)) continue;
        /* Into a hand (a prisoner) leaves the board like going home. */
        if (is->where == CARC_AT_NONE || is->where == CARC_AT_HELD) {
            if (was && was->where != CARC_AT_HELD && !gone) gone = was;
            continue;
        }
        figure_spot(c, is, t);
        t->kind = is->where == CARC_AT_TRACK ? TARGET_TRACK : TARGET_FIGURE;
        goto out;
    }
    if (gone && gone->where != CARC_AT_TRACK && gone->where != CARC_AT_NONE) {
        figure_spot(g, gone, t);
        t->kind = TARGET_REMOVE;
    }
out:
    free(before);
    free(after);
    carc_game_free(c);
    return rc;
}
