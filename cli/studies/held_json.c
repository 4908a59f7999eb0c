/* held_json.c - the figures a player holds as JSON (held_json.h). */
#include "held_json.h"

#include "json_io.h"

json_t *held_figures_json(const carc_game *g, int holder)
{
    const carc_rules *r = carc_game_rules(g);
    json_t *list = json_array();
    for (int f = 0; list && f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0) continue;
        if (where != CARC_AT_HELD || space != holder || owner < 0) continue;
        json_t *one = json_pack("{s:o,s:i,s:o}", "owner", json_text(carc_player_name(g, owner)), "seat", owner, "kind",
                                json_text(carc_figure_kind_name(r, kind)));
        if (json_array_append_new(list, one) < 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}
