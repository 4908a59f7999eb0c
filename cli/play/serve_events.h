/* serve_events.h - the live side of carc serve: every change of a game
 * (a move, a bot's move, an award, a takeback, the end) wakes the pages
 * following it (server-sent events, GET /api/games/ID/events). A channel
 * per game holds its number of record lines (the event id) and its count
 * of takebacks; a page's stream waits on it. */
#ifndef CARC_SERVE_EVENTS_H
#define CARC_SERVE_EVENTS_H
#include <stdbool.h>

/* The game changed: it now has `serial` record lines and `generation`
 * takebacks. Wakes its streams. */
void events_changed(const char *id, int serial, unsigned generation);
/* Waits at most `seconds` for the game to differ from (serial,
 * generation). 1 when it does (the new values in *serial, *generation),
 * 0 when the time ran out, -1 when *stop is set (its server stops). */
int events_wait(const char *id, int *serial, unsigned *generation, double seconds, const bool *stop);
/* Sets *stop where events_wait reads it, and wakes every stream. */
void events_stop(bool *stop);
/* A stream may open: fewer than max_total open, fewer than max_per_address
 * from this address. true and counted (events_close gives it back), or
 * false. */
bool events_open(const char *address, int max_total, int max_per_address);
void events_close(const char *address);
#endif
