/* serve_http.h - the HTTP side of carc serve, on libmicrohttpd: the JSON
 * API of the games and the page's files from the web folder (docs/serve.md).
 * Requests are hostile: bodies are bounded, JSON is checked field by field,
 * static names are plain file names; every refusal is a 4xx with a JSON
 * {"error": "..."} that says why. */
#ifndef CARC_SERVE_HTTP_H
#define CARC_SERVE_HTTP_H
#include <stdbool.h>
#include <stddef.h>

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
#endif
