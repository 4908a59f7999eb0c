/* serve_watch.c - the deadlines of carc serve's connections (serve_watch.h). */
#include "serve_watch.h"

#include <jansson.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct watch_conn {
    watch_conn *prev, *next;
    int fd;
    watch_phase phase;
    double since;
    bool closed; /* shut down by the watch: nothing more to do */
};

struct serve_watch {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stopping;
    watch_deadlines d;
    watch_conn *head;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Ends a connection over its deadline: a 408 saying which, when nothing of
 * a reply was sent yet, then shutdown (its thread sees the end of the
 * stream and closes it; the socket stays the server's to close). */
static void end_connection(watch_conn *c, const watch_deadlines *d)
{
    if (c->phase == WATCH_HEADERS || c->phase == WATCH_BODY) {
        char text[200];
        snprintf(text, sizeof text, "the request's %s took longer than %g s: the connection is closed (docs/security.md)",
                 c->phase == WATCH_HEADERS ? "headers" : "body", c->phase == WATCH_HEADERS ? d->headers : d->body);
        json_t *j = json_pack("{s:s}", "error", text);
        char *msg = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        if (!msg) { /* out of memory: no reply, the connection still ends */
            shutdown(c->fd, SHUT_RDWR);
            c->closed = true;
            return;
        }
        int n = (int)strlen(msg);
        char head[256];
        int h = snprintf(head, sizeof head,
                         "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
                         "Content-Length: %d\r\n\r\n",
                         n);
        /* best effort, never blocking: a client that reads nothing gets nothing */
        if (send(c->fd, head, (size_t)h, MSG_DONTWAIT | MSG_NOSIGNAL) == h)
            (void)!send(c->fd, msg, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
        free(msg);
    }
    shutdown(c->fd, SHUT_RDWR);
    c->closed = true;
}

static void *watch_main(void *arg)
{
    serve_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stopping) {
        double t = now();
        for (watch_conn *c = w->head; c; c = c->next) {
            double limit = c->phase == WATCH_IDLE || c->phase == WATCH_HEADERS ? w->d.headers
                           : c->phase == WATCH_BODY  ? w->d.body
                           : c->phase == WATCH_REPLY ? w->d.reply
                                                     : 0;
            if (!c->closed && limit > 0 && t - c->since > limit) end_connection(c, &w->d);
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000 * 1000; /* deadlines are kept to a fifth of a second */
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&w->wake, &w->lock, &until);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

serve_watch *watch_start(const watch_deadlines *d, char *err, size_t errn)
{
    serve_watch *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    w->d = *d;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    int rc = pthread_create(&w->thread, NULL, watch_main, w);
    if (rc != 0) {
        snprintf(err, errn, "cannot start the thread that keeps the connections' deadlines (%s)", strerror(rc));
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void watch_stop(serve_watch *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

watch_conn *watch_open(serve_watch *w, int fd)
{
    watch_conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->fd = fd;
    c->phase = WATCH_IDLE;
    c->since = now();
    pthread_mutex_lock(&w->lock);
    c->next = w->head;
    if (w->head) w->head->prev = c;
    w->head = c;
    pthread_mutex_unlock(&w->lock);
    return c;
}

void watch_close(serve_watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    if (c->prev) c->prev->next = c->next;
    else if (w->head == c) w->head = c->next;
    if (c->next) c->next->prev = c->prev;
    pthread_mutex_unlock(&w->lock);
    free(c);
}

void watch_enter(serve_watch *w, watch_conn *c, watch_phase p)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    c->phase = p;
    c->since = now();
    pthread_mutex_unlock(&w->lock);
}

void watch_request_begun(serve_watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    if (c->phase == WATCH_IDLE) c->phase = WATCH_HEADERS;
    pthread_mutex_unlock(&w->lock);
}
