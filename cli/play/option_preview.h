/* option_preview.h - what the page shows when a player points at an
 * option, before choosing it: the feature the option's figure would join
 * (every segment of it on the board, from the kernel's feature graph) and
 * the points the move would score at once (the option tried on a copy of
 * the game that runs no script and knows no future: its pile and random
 * draws reseeded, stopped before the next draw or decision). */
#ifndef CARC_OPTION_PREVIEW_H
#define CARC_OPTION_PREVIEW_H
#include <stdbool.h>

#include "carc.h"
#include "option_targets.h"

typedef struct preview_seg {
    int tile, seg;
} preview_seg;

typedef struct option_preview {
    /* The feature at the target's segment: its kind's name and members
     * (segs is malloc'ed, freed by option_preview_free; NULL when the
     * option acts on no segment of a placed tile). */
    const char *feature_kind;  /* the rules' string */
    bool feature_complete;
    int nsegs;
    preview_seg *segs;
    /* The points each seat would be awarded by this move before the next
     * tile is drawn or anyone decides again (final scoring left out); for a
     * tile's place, with no figure put on it. has_points 0 when the move
     * was not tried (a script's option: no stranger's code runs to draw
     * a page). */
    bool has_points;
    bool scripts_muted;        /* the rules load scripts: their awards are not in it */
    int points[CARC_MAX_PLAYERS];
} option_preview;

/* The preview of option k of g's pending decision, whose target t
 * option_target_of found (g is unchanged). scratch is a game of the same
 * rules (carc_game_clone of g) the move is tried on, reused from one
 * option to the next; NULL: no points. 0, or -1 out of memory. */
int option_preview_of(const carc_game *g, int k, const option_target *t, carc_game *scratch, option_preview *p);
void option_preview_free(option_preview *p);
#endif
