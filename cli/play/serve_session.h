/* serve_session.h - one game of carc serve: its rules, the game, its seats
 * (a human at the page, or a bot), its record (saved after every move) and
 * its log. Every change goes through here, one at a time under the
 * session's lock (the caller holds it); the page only picks options. */
#ifndef CARC_SERVE_SESSION_H
#define CARC_SERVE_SESSION_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "carc.h"
#include "record.h"
#include "seat_moves.h"

#define SESSION_MAX_OPTIONS 32
#define SESSION_MAX_WEIGHTS_NAME 40
#define SESSION_SECRET_CHARS 32 /* a seat's, the host's, the spectators' secret: 128 random bits in hex */

typedef struct serve_session {
    char id[24];
    pthread_mutex_t lock;
    int refs;                 /* holders (the registry's lock guards it) */
    uint64_t used;            /* when last used, for evicting idle games */

    char variant[512];
    uint64_t seed;
    int nplayers;
    char names[CARC_MAX_PLAYERS][32];
    char agents[CARC_MAX_PLAYERS][64];   /* "human" or a bot's spec */
    int noptions;
    char options[SESSION_MAX_OPTIONS][160];

    carc_rules *rules;
    carc_game *g;
    char **lines;             /* the record's moves and draws */
    int *line_seat;           /* who chose each line; -1 for a draw */
    int nlines, cap;
    size_t line_bytes;        /* the lines' bytes in the record, newlines included */
    size_t max_line_bytes;    /* what they may take: a reader's limit less room for the header */
    int last_tile;            /* index of the tile laid last, -1 */
    seat_moves moves;         /* each seat's last tile and figure */
    json_t *log;              /* the game's story, one object per entry */
    char save[1024];          /* the record's file */
    char failed[512];         /* why the game stopped, "" while it runs */

    /* Who may do what (serve_seats.h): a secret per human seat, the host's
     * and the spectators'; never in a record, never logged. "" for a bot's
     * seat. */
    char seat_secret[CARC_MAX_PLAYERS][SESSION_SECRET_CHARS + 1];
    char host_secret[SESSION_SECRET_CHARS + 1];
    char spectator_secret[SESSION_SECRET_CHARS + 1];
    char standin[CARC_MAX_PLAYERS][64]; /* the bot the host put in an absent person's seat, "" */
    unsigned undo_votes;      /* human seats asking to take back the move at undo_serial */
    int undo_serial;
    unsigned reveal_votes;    /* human seats agreeing that the host may see the seed during play */
    int stored;               /* lines committed to the database (serve_store.h); -1: not in it */
    unsigned generation;      /* counts takebacks: a page that saw lines since taken back starts over */
} serve_session;

/* What a new game is made of. */
typedef struct session_setup {
    const char *variant;
    uint64_t seed;
    int nplayers;
    const char *names[CARC_MAX_PLAYERS];
    const char *agents[CARC_MAX_PLAYERS];
    int noptions;
    const char *options[SESSION_MAX_OPTIONS];
} session_setup;

/* A new game that will save to save_path (session_save; nothing is written
 * yet). NULL with err (the setup is checked: names, agents, options, player
 * count). */
serve_session *session_new(const session_setup *su, const char *save_path, char *err, size_t errn);
/* A game from a record's text, played to where the record stops; it saves
 * to save_path (session_save; nothing is written yet). NULL with err. */
serve_session *session_from_record(const char *name, const char *text, size_t len, const char *save_path,
                                   char *err, size_t errn);
void session_free(serve_session *s);
/* Writes the record to the game's file (carc_writer_save). 0; -1 with err. */
int session_save(serve_session *s, char *err, size_t errn);

struct agent;
/* A bot of the server's own list (docs/serve.md): random, greedy and mcts
 * with their settings; weights only by name, eval=NAME playing
 * DATA/weights/NAME.ini (carc_data_dir), never a file the spec names. NULL
 * with err for any other spec. */
struct agent *session_agent(const char *spec, uint64_t seed, int seat, char *err, size_t errn);
/* Whether spec is a bot of the server's list (session_agent), err when not. */
bool session_agent_ok(const char *spec, int seat, char *err, size_t errn);
/* Whether seat p is played at the page (a person's seat with no bot standing in). */
bool session_is_human(const serve_session *s, int seat);
/* The number of record lines so far: it names the pending decision, so a
 * move sent for a decision already answered is refused. */
int session_serial(const serve_session *s);

/* Answers the pending decision with option k for a human seat. 0; -1 with
 * err and *status (an HTTP status: 409 when it is not a human's turn or not
 * this decision, 400 for an option out of range). */
int session_choose(serve_session *s, int serial, int k, char *err, size_t errn, int *status);
/* The bot whose turn it is makes its move. Same returns as session_choose. */
int session_bot_step(serve_session *s, int serial, char *err, size_t errn, int *status);
/* The host ends the game after the last whole turn (a record's `end`
 * line: final scoring with tiles left). Same returns. */
int session_end(serve_session *s, char *err, size_t errn, int *status);
/* Takes back the last move made at the page and everything after it (the
 * record replayed less those lines); a finished game's moves stand (409).
 * Same returns. */
int session_undo(serve_session *s, char *err, size_t errn, int *status);
/* The record's text as saved (the caller frees it). */
char *session_record_text(const serve_session *s, size_t *len);
#endif
