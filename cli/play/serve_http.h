/* serve_http.h - the HTTP side of carc serve, on libmicrohttpd: the JSON
 * API of the games and the page's files from the web folder (docs/serve.md).
 * Requests are hostile: bodies are bounded, JSON is checked field by field,
 * static names are plain file names; every refusal is a 4xx with a JSON
 * {"error": "..."} that says why. */
#ifndef CARC_SERVE_HTTP_H
#define CARC_SERVE_HTTP_H
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The server's limits (docs/security.md lists them with what happens at each). */
#define SERVE_MAX_JSON_BODY (64 * 1024)           /* a request's JSON body: 413 */
#define SERVE_MAX_RECORD_BODY (4 * 1024 * 1024)   /* POST /api/load's body: 413 */
#define SERVE_MAX_HEADER_BYTES (64 * 1024)        /* a request's line and headers (MHD: 431 or 414) */
#define SERVE_MAX_CONNECTIONS 512                 /* open at once; more are closed when accepted */
#define SERVE_MAX_PER_ADDRESS 64                  /* open at once from one address; more are closed */
#define SERVE_HEADER_SECONDS 10.0                 /* to send a request's headers: 408, closed */
#define SERVE_BODY_SECONDS 30.0                   /* to send its body: 408, closed */
#define SERVE_REPLY_SECONDS 60.0                  /* to take the reply: closed */
#define SERVE_IDLE_SECONDS 30                     /* a connection silent this long is closed */
#define SERVE_MAX_STREAMS 384                     /* live pages open at once (serve_events.h): 503 */
#define SERVE_MAX_STREAMS_PER_ADDRESS 16          /* live pages from one address: 503 */
#define SERVE_STREAM_SECONDS 600.0                /* a live stream ends then; the page reconnects */
#define SERVE_KEEPALIVE_SECONDS 15.0              /* a quiet stream gets a comment this often */
#define SERVE_MAX_GAMES 1000                      /* games in progress in the database: 503 */
#define SERVE_LOBBY_GAMES 500                     /* games the lobby lists, newest first */

typedef struct serve_config {
    const char *listen;      /* the address to bind: "127.0.0.1" unless --listen */
    int port;                /* 0: any free port */
    const char *web_dir;     /* the page's files */
    const char *save_dir;    /* where new games' records go */
    const char *const *allow_hosts; /* more names the Host header may give (--allow-host) */
    int nallow_hosts;
    bool needs_key;          /* the API asks for the server's key (a bind beyond this machine) */
    const char *key;         /* that key as the caller chose it (tests); NULL: a fresh random one */
    /* the limits above, when not 0 (tests shorten them) */
    double header_seconds, body_seconds, reply_seconds, stream_seconds;
    unsigned per_address;
    unsigned max_connections;
    int max_streams, streams_per_address;
    int max_games;           /* games in progress at once (--max-games); 0: SERVE_MAX_GAMES, -1: no limit */
} serve_config;

typedef struct serve_daemon serve_daemon;

/* Starts serving on its own threads. NULL with err. *port receives the port. */
serve_daemon *serve_start(const serve_config *cfg, int *port, char *err, size_t errn);
void serve_stop(serve_daemon *d);
/* The key the API asks for (32 hex digits), or NULL when it asks for none.
 * The address to open is http://HOST:PORT/?key=KEY: the page keeps it as a
 * cookie; a script sends "Authorization: Bearer KEY". */
const char *serve_key(const serve_daemon *d);

struct serve_session;
/* Opens a game made by session_new or session_from_record: gives it the id
 * (a fresh one when id is NULL), builds its state, saves its record and adds
 * it to the games served, in this order, so a game whose state cannot be
 * built is neither saved nor served. new_file: the record's file is the
 * game's own, made here (removed again when the game cannot be served);
 * false for a record resumed. The state (the caller decrefs it), or NULL
 * with err and *status (500, or 503 when every game is in use); the
 * session is the registry's, or freed on failure. */
json_t *serve_open_game(struct serve_session *s, const char *id, bool new_file, char *err, size_t errn,
                        int *status);
#endif
