/* option_targets.h - where on the board each option of the pending
 * decision acts, found by trying it on a copy of the game: the tile it lays
 * (place), the figure it puts or moves onto a segment, a tile or a score
 * track space, or the figure it takes off the board. Every expansion's
 * options are found this way, with nothing known about the expansion, so
 * an interface can offer them on the board; an option that changes nothing
 * on the board (pass, whom to rob) has no place and is offered by its text. */
#ifndef CARC_OPTION_TARGETS_H
#define CARC_OPTION_TARGETS_H
#include "carc.h"

enum target_kind {
    TARGET_NONE,     /* nowhere on the board */
    TARGET_PLACE,    /* a tile laid at x, y turned rot quarter turns */
    TARGET_FIGURE,   /* a figure put or moved onto tile/seg (seg -1: the tile) */
    TARGET_REMOVE,   /* a figure taken off tile/seg */
    TARGET_TRACK     /* a figure put or moved onto score-track space `space` */
};

typedef struct option_target {
    enum target_kind kind;
    int x, y, rot;           /* the tile's board position (PLACE, FIGURE, REMOVE) */
    int tile, seg;           /* the placed tile's index and segment; -1 */
    int space;               /* TRACK */
    int corner;              /* a figure at a tile corner (FIGURE, REMOVE): enum carc_corner, else -1 */
    double ax, ay;           /* where on the tile, in tile units (0..100) */
    const char *figure;      /* the figure kind's name (the rules' string) */
    int owner;               /* the figure's owner, -1 neutral */
} option_target;

/* The target of option k of the pending decision of g (g is unchanged). 0,
 * or -1 when the game could not be copied or the option not tried. */
int option_target_of(const carc_game *g, int k, option_target *t);
#endif
