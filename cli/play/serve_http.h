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

#define SERVE_MAX_JSON_BODY (64 * 1024)
#define SERVE_MAX_RECORD_BODY (4 * 1024 * 1024)

typedef struct serve_config {
    const char *listen;      /* the address to bind: "127.0.0.1" unless --listen */
    int port;                /* 0: any free port */
    const char *web_dir;     /* the page's files */
    const char *save_dir;    /* where new games' records go */
    bool loopback_only;      /* no --listen: refuse Host headers naming another host */
} serve_config;

typedef struct serve_daemon serve_daemon;

/* Starts serving on its own threads. NULL with err. *port receives the port. */
serve_daemon *serve_start(const serve_config *cfg, int *port, char *err, size_t errn);
void serve_stop(serve_daemon *d);

struct serve_session;
/* Opens a game made by session_new or session_from_record: gives it the id
 * (a fresh one when id is NULL), builds its state, saves its record and adds
 * it to the games served, in this order, so a game whose state cannot be
 * built is neither saved nor served. The state (the caller decrefs it), or
 * NULL with err and *status (500, or 503 when every game is in use); the
 * session is the registry's, or freed on failure. */
json_t *serve_open_game(struct serve_session *s, const char *id, char *err, size_t errn, int *status);
#endif
