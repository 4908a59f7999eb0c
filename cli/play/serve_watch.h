/* serve_watch.h - the deadlines of carc serve's connections. A client
 * that sends its request slowly (a byte now and then, each in time for the
 * idle timeout) would hold its connection for ever; so each connection is
 * watched by one thread, in phases, and closed when a phase outlasts its
 * deadline: the request's headers (also the wait for the next request on a
 * kept-alive connection), its body, and the sending of the reply. The work
 * between (a bot's move) has none. A connection closed once its request
 * has begun, in the headers or the body, is answered 408 first, with a
 * message saying which deadline; an idle one is closed without a word, as
 * a browser expects of a connection it keeps for later. */
#ifndef CARC_SERVE_WATCH_H
#define CARC_SERVE_WATCH_H
#include <stddef.h>

typedef enum watch_phase {
    WATCH_IDLE,    /* from the connection, or the end of its last request, to the next request's first line */
    WATCH_HEADERS, /* then to the end of its headers: the two together have the headers' deadline */
    WATCH_BODY,    /* the request's body */
    WATCH_WORKING, /* the server answers: no deadline */
    WATCH_REPLY,   /* the reply is being sent */
    WATCH_STREAM,  /* a live stream (serve_events.h): no deadline here; it ends itself after
                      SERVE_STREAM_SECONDS, and the idle timeout closes it when its client reads nothing */
} watch_phase;

typedef struct watch_deadlines {
    double headers, body, reply; /* seconds */
} watch_deadlines;

typedef struct serve_watch serve_watch;
typedef struct watch_conn watch_conn;

/* Starts the watching thread. NULL with err. */
serve_watch *watch_start(const watch_deadlines *d, char *err, size_t errn);
/* Stops the thread and frees w: call it once every connection watched is
 * closed (after MHD_stop_daemon). */
void watch_stop(serve_watch *w);

/* A new connection on socket fd, in WATCH_IDLE; NULL when out of memory
 * (it is then not watched). The caller owns fd and must watch_close the
 * connection before closing fd. */
watch_conn *watch_open(serve_watch *w, int fd);
/* The connection is gone (NULL is ignored). */
void watch_close(serve_watch *w, watch_conn *c);
/* The connection enters a phase; its deadline counts from now. */
void watch_enter(serve_watch *w, watch_conn *c, watch_phase p);
/* A request's first line came in: WATCH_HEADERS, its deadline counting on
 * from when the connection went idle. */
void watch_request_begun(serve_watch *w, watch_conn *c);
#endif
