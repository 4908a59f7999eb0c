/* serve_store.h - the games of carc serve in SQLite (docs/serve.md, "Games
 * that are never lost"): each game with its rules, seats (names, who plays
 * them, their secrets) and every record line. A move is acknowledged only
 * once store_save has committed it; at start every game in progress is
 * played again from its lines. One database per server, one connection,
 * used under a lock (every call below may come from any thread). */
#ifndef CARC_SERVE_STORE_H
#define CARC_SERVE_STORE_H
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "serve_session.h"

/* Opens (or makes) the database at path, its folder made when missing.
 * full_sync: each commit waits for the disk (survives a power cut; else a
 * killed process loses nothing, serve_store.c). 0; -1 with err (a file that
 * is not a carc database, no room, no right). */
int store_open(const char *path, bool full_sync, char *err, size_t errn);
/* Closes the database (at exit; no-op when none is open). */
void store_close(void);
/* Whether a database is open: without one games live in memory only. */
bool store_enabled(void);

/* Commits the game: its row and seats the first time, then the lines added
 * (or taken back) since the last save, its scores and stand-ins, in one
 * transaction. 0 once committed; -1 with err (nothing of it stored). The
 * caller holds the session's lock. */
int store_save(serve_session *s, char *err, size_t errn);
/* The game with this id played again from its stored lines, with its
 * secrets; NULL when there is none (err "") or it cannot be played (err). */
serve_session *store_load(const char *id, char *err, size_t errn);
/* The ids of the games in progress, oldest first, into ids[max][24].
 * The count, or -1 with err. */
int store_active_ids(char (*ids)[24], int max, char *err, size_t errn);
/* The number of games in progress; -1 on error. */
int store_count_active(void);
/* {"games": [{id, title, variant, created, updated, finished, seats:
 * [{name, agent, standin, score}]}]} newest first, at most `max`; NULL when
 * out of memory or the database fails (err). */
json_t *store_lobby(int max, char *err, size_t errn);

/* The default path: $XDG_DATA_HOME/carc/carc.db, else ~/.local/share/carc/carc.db. */
void store_default_path(char *buf, size_t n);
#endif
