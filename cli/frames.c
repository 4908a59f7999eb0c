/* frames.c - a record replayed turn by turn (frames.h). The lines are played
 * as carc_replay plays them: `end`, named draws, seeded draws where the
 * record leaves them out, every other line matched to an option. */
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
    s->fi.end_event = carc_events(s->g);
    s->fi.last = last;
    int stop = s->fn(s->user, s->g, &s->fi);
    s->fi.frame++;
    s->fi.first_line = s->line;
    s->fi.first_event = s->fi.end_event;
    return stop;
}

/* Plays one record line at a stop. 1 when there was none left, -1 on error. */
static int play_line(stepper *s, int st, char *err, size_t errn)
{
    const carc_record_line *l = s->line < s->rec->nlines ? &s->rec->lines[s->line] : NULL;
    if (st == CARC_NEED_DRAW) {
        if (!l) return 1;
        if (strncmp(l->text, "draw ", 5) != 0) return carc_draw(s->g, -1) < 0 ? -1 : 0;
        const char *name = l->text + 5;
        while (*name == ' ') name++;
        int type = carc_tile_type_find(carc_game_rules(s->g), name);
        s->line++;
        if (type >= 0 && carc_draw(s->g, type) == 0) return 0;
        snprintf(err, errn, "%s:%d: cannot draw '%s'", s->rec->path, l->line, name);
        return -1;
    }
    if (!l) return 1;
    int k = carc_option_match(s->g, l->text);
    s->line++;
    if (k >= 0 && carc_choose(s->g, k) == 0) return 0;
    snprintf(err, errn, "%s:%d: '%s' is not a legal option", s->rec->path, l->line, l->text);
    return -1;
}

int frames_replay(const carc_record *rec, const carc_rules *rules, frame_fn fn, void *user, char *err,
                  size_t errn)
{
    const char *names[CARC_MAX_PLAYERS];
    for (int i = 0; i < rec->nplayers; i++) names[i] = rec->names[i];
    stepper s = {rec, NULL, 0, {0, -1, 0, 0, 0, 0, 0}, fn, user};
    char msg[512];
    s.g = carc_game_new(rules, rec->nplayers, names, rec->seed, msg, sizeof msg);
    if (!s.g) {
        snprintf(err, errn, "%s: %s", rec->path, msg);
        return -1;
    }
    int rc = 0;
    for (;;) {
        if (s.line < rec->nlines && strcmp(rec->lines[s.line].text, "end") == 0) {
            carc_end_now(s.g);
            s.line++;
        }
        int st = carc_advance(s.g);
        if (st == CARC_FAILED) {
            snprintf(err, errn, "%s: the game stopped: %s", rec->path, carc_game_error(s.g));
            rc = -1;
            break;
        }
        if (st == CARC_FINISHED) {
            emit(&s, 1);
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
        int played = play_line(&s, st, err, errn);
        if (played < 0) {
            rc = -1;
            break;
        }
        if (played == 1) { /* a game in progress, stopped within a turn */
            emit(&s, 1);
            break;
        }
    }
    carc_game_free(s.g);
    return rc;
}
