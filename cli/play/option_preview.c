/* option_preview.c - the feature an option's figure would join and the
 * points the option would score, for the page (option_preview.h). */
#include "option_preview.h"

#include <stdlib.h>
#include <string.h>

/* Every segment of the feature that (tile, seg) belongs to, from the
 * kernel's own graph (carc_feature_of names one root per feature). */
static int feature_members(const carc_game *g, int tile, int seg, option_preview *p)
{
    int f = carc_feature_of(g, tile, seg);
    if (f < 0) return 0;
    const carc_rules *r = carc_game_rules(g);
    p->feature_kind = carc_kind_name(r, carc_segment_kind(g, tile, seg));
    p->feature_complete = carc_feature_complete(g, f) == 1;
    int cap = 16;
    p->segs = malloc((size_t)cap * sizeof *p->segs);
    if (!p->segs) return -1;
    for (int i = 0; i < carc_tiles_placed(g); i++)
        for (int s = 0; s < carc_segment_count(g, i); s++) {
            if (carc_feature_of(g, i, s) != f) continue;
            if (p->nsegs == cap) {
                preview_seg *more = realloc(p->segs, (size_t)(cap *= 2) * sizeof *more);
                if (!more) return -1;
                p->segs = more;
            }
            p->segs[p->nsegs++] = (preview_seg){i, s};
        }
    return 0;
}

/* The awards that landed on the copy since it was made, final scoring left
 * out, added up per seat. */
static void sum_awards(const carc_game *c, int from, option_preview *p)
{
    for (int i = from; i < carc_awards(c); i++) {
        const carc_award *a = carc_award_at(c, i);
        if (!a || (a->flags & CARC_AWARD_FINAL) || a->player < 0 || a->player >= CARC_MAX_PLAYERS) continue;
        p->points[a->player] += a->points;
    }
}

/* Option k tried on scratch, a copy of g that runs no script and whose
 * pile and random draws are reseeded (the real order never reaches a
 * page), up to the next draw or decision. A tile's place is followed by
 * "pass" when the same seat is asked next (where to put a figure): the
 * points the tile itself would complete. */
static void try_points(const carc_game *g, int k, carc_game *scratch, option_preview *p)
{
    if (carc_game_copy_into(scratch, g) < 0) return;
    carc_game_mute_scripts(scratch);
    carc_game_reseed_hidden(scratch, 0);
    int from = carc_awards(scratch), seat = carc_decision_player(g);
    bool place = carc_option_placement(g, k, NULL, NULL, NULL, NULL) == 0;
    if (carc_choose(scratch, k) < 0) return;
    int st = carc_advance(scratch);
    if (place && st == CARC_NEED_CHOICE && carc_decision_player(scratch) == seat) {
        char text[CARC_OPTION_TEXT_MAX + 1];
        int pass = -1;
        for (int i = 0; i < carc_option_count(scratch) && pass < 0; i++)
            if (carc_option_text(scratch, i, text, sizeof text) >= 0 && strcmp(text, "pass") == 0) pass = i;
        if (pass < 0 || carc_choose(scratch, pass) < 0) return;
        st = carc_advance(scratch);
    }
    if (st == CARC_FAILED) return;
    sum_awards(scratch, from, p);
    p->has_points = true;
}

int option_preview_of(const carc_game *g, int k, const option_target *t, carc_game *scratch, option_preview *p)
{
    memset(p, 0, sizeof *p);
    const carc_rules *r = carc_game_rules(g);
    p->scripts_muted = carc_rules_scripts(r) > 0;
    if ((t->kind == TARGET_FIGURE || t->kind == TARGET_REMOVE) && t->tile >= 0 && t->tile < carc_tiles_placed(g) &&
        t->seg >= 0 && feature_members(g, t->tile, t->seg, p) < 0)
        return -1;
    const char *owner = carc_option_owner(g, k);
    bool script = owner && carc_rules_plugin_is_script(r, owner);
    if (scratch && !script) try_points(g, k, scratch, p);
    return 0;
}

void option_preview_free(option_preview *p)
{
    free(p->segs);
    p->segs = NULL;
    p->nsegs = 0;
}
