/* frames.h - a record replayed turn by turn: the game is handed to a
 * callback after every turn, for pictures of the game as it went. */
#ifndef CARC_FRAMES_H
#define CARC_FRAMES_H
#include <stddef.h>

#include "carc.h"
#include "record.h"

typedef struct frame_info {
    int frame;        /* 0: the start tile alone; n: after turn n */
    int active;       /* the seat whose turn it was, -1 for frame 0 */
    int first_line;   /* the record lines of the frame: [first_line, end_line) */
    int end_line;
    int first_award;  /* its awards: [first_award, end_award) */
    int end_award;
    int last;         /* the last frame: the game's end, or where the record stops */
} frame_info;

/* Returns non-zero to stop the replay after this frame. */
typedef int (*frame_fn)(void *user, const carc_game *g, const frame_info *fi);

/* Replays the record (as carc_replay does) and calls fn after each turn. A
 * frame is taken when the next turn asks its first question, so a turn's
 * scoring is in it; the final scoring is in the last frame. 0, or -1 with err. */
int frames_replay(const carc_record *rec, const carc_rules *rules, frame_fn fn, void *user, char *err,
                  size_t errn);
#endif
