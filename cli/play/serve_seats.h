/* serve_seats.h - who may do what in one game of carc serve (docs/serve.md,
 * "Playing with friends"). A game made on the server has a secret per
 * person's seat, one for its host and one for its spectators, each 128
 * bits from the system's random source (getrandom), written as 32 hex
 * digits. A request for the game gives one (the header X-Carc-Key, or the
 * game's cookie set by POST /api/games/ID/claim); it is compared with every
 * secret of the game in constant time. What it opens:
 *  - a seat's secret: that seat's moves, its undo and reveal votes, reading;
 *  - the host's: handing an absent seat to a bot and back, ending the game,
 *    reading, and the links of every seat;
 *  - the spectators': reading only.
 * The server's own caller (a loopback server's page, or the server's key)
 * is the host of every game. Secrets are never logged and never written
 * in a record (they live in the game's database row, mode 0600). */
#ifndef CARC_SERVE_SEATS_H
#define CARC_SERVE_SEATS_H
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "serve_session.h"

typedef enum seat_role {
    ROLE_NONE = 0,
    ROLE_SPECTATOR,
    ROLE_SEAT,      /* with the seat's number */
    ROLE_HOST,
} seat_role;

typedef struct game_caller {
    seat_role role;
    int seat;       /* ROLE_SEAT: which */
} game_caller;

/* Gives each person's seat, the host and the spectators a fresh secret.
 * 0; -1 with err when the system gives no random bytes. */
int seats_make_secrets(serve_session *s, char *err, size_t errn);
/* Who holds `given` (NULL: nobody). server_caller: the request holds the
 * server's own access (serve_access.h), which hosts every game. */
game_caller seats_caller(const serve_session *s, const char *given, bool server_caller);
/* The cookie that carries a game's secret for the page: "carc_game_ID". */
void seats_cookie_name(char *buf, size_t n, const char *id);
/* {"host", "spectator", "seats": [{"seat", "name", "link"} for each person's
 * seat]} as page addresses relative to the server ("/#game=ID&key=..."):
 * the host's to share. NULL when out of memory. */
json_t *seats_links(const serve_session *s);
#endif
