/* serve_registry.h - the games carc serve holds, by id. A game is taken
 * (its lock held) for one request at a time and given back; when the table
 * is full the game idle longest is let go (its record stays on disk). */
#ifndef CARC_SERVE_REGISTRY_H
#define CARC_SERVE_REGISTRY_H
#include "serve_session.h"

#define REGISTRY_MAX_GAMES 256

/* Gives the session a fresh random id and adds it. 0, or -1 when every
 * game is in use (err set). */
int registry_add(serve_session *s, char *err, size_t errn);
/* Adds s unless a game of its id is there already (two requests loaded it
 * from the database at once; s is then freed). The game, locked; NULL with
 * err when every game is in use (s freed). */
serve_session *registry_take_or_add(serve_session *s, char *err, size_t errn);
/* The game with this id, locked; NULL when there is none. */
serve_session *registry_take(const char *id);
/* Unlocks a game taken. */
void registry_give(serve_session *s);
/* A new file name for a game's record in dir: dir/carc-ID.rec. */
void registry_save_path(char *buf, size_t n, const char *dir, const char *id);
/* A fresh id (16 hex digits). */
void registry_new_id(char *buf, size_t n);
/* Frees every game (at exit). */
void registry_clear(void);
#endif
