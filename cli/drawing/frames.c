/* frames.c - a record replayed turn by turn (frames.h). The lines are played
 * by the same steps as carc_replay (carc_record_advance, carc_record_step:
 * `end`, named draws, seeded draws where the record leaves them out, every
 * other line matched to an option); a frame is taken between two steps. */
#include "frames.h"

#include <stdio.h>
#include <string.h>

typedef struct stepper {
    const carc_record *rec;
    carc_game *g;
    int line;         /* the next record line */
    frame_info fi;    /* the frame being built */
    frame_fn fn;
    void *user;
} stepper;

/* Hands the game as it is now to the callback as frame fi.frame. */
static int emit(stepper *s, int last)
{
    s->fi.end_line = s->line;
    s->fi.end_award = carc_awards(s->g);
    s->fi.last = last;
    int stop = s->fn(s->user, s->g, &s->fi);
    s->fi.frame++;
    s->fi.first_line = s->line;
    s->fi.first_award = s->fi.end_award;
    return stop;
}

int frames_replay(const carc_record *rec, const carc_rules *rules, frame_fn fn, void *user, char *err,
                  size_t errn)
{
    const char *names[CARC_MAX_PLAYERS];
    for (int i = 0; i < rec->nplayers; i++) names[i] = rec->names[i];
    stepper s = {rec, NULL, 0, {0, -1, 0, 0, 0, 0, 0}, fn, user};
    char msg[512] = "";
    s.g = carc_game_new(rules, rec->nplayers, names, rec->seed, msg, sizeof msg);
    if (!s.g) {
        snprintf(err, errn, "%s: %s", rec->path, msg);
        return -1;
    }
    int rc = 0;
    for (;;) {
        int st = carc_record_advance(s.g, rec, &s.line);
        if (st == CARC_FINISHED || st == CARC_FAILED) {
            rc = carc_record_step(s.g, st, rec, &s.line, err, errn) < 0 ? -1 : 0;
            if (rc == 0) emit(&s, 1);
            break;
        }
        /* A new turn has asked its first question: the turns before it are
         * done. With no line left, the last of them ends the record. */
        int stop = 0, more = s.line < rec->nlines;
        while (!stop && s.fi.frame < carc_turn_number(s.g)) {
            int last = !more && s.fi.frame + 1 >= carc_turn_number(s.g);
            stop = emit(&s, last) || last;
        }
        if (stop) break;
        s.fi.active = carc_active_player(s.g);
        int played = carc_record_step(s.g, st, rec, &s.line, err, errn);
        if (played < 0) {
            rc = -1;
            break;
        }
        if (played == CARC_RECORD_STOPPED) { /* a game in progress, stopped within a turn */
            emit(&s, 1);
            break;
        }
    }
    carc_game_free(s.g);
    return rc;
}
