/* serve_events.c - the channels of live games and the count of open
 * streams (serve_events.h). */
#include "serve_events.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EVENT_BUCKETS 256
#define EVENT_ADDRESSES 1024 /* addresses with a stream open, tracked at once */

typedef struct channel {
    char id[24];
    int serial;
    unsigned generation;
    struct channel *next;
} channel;

typedef struct bucket {
    pthread_cond_t cond; /* the changes of any game of the bucket */
    channel *list;
} bucket;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bucket buckets[EVENT_BUCKETS];
static int open_streams;
static struct {
    char address[64];
    int n;
} per_address[EVENT_ADDRESSES];

static void init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    for (int i = 0; i < EVENT_BUCKETS; i++) pthread_cond_init(&buckets[i].cond, &a);
    pthread_condattr_destroy(&a);
}

static bucket *bucket_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (const char *p = id; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    return &buckets[h % EVENT_BUCKETS];
}

/* The game's channel, made when missing (lock held); NULL out of memory. */
static channel *channel_of(bucket *b, const char *id)
{
    for (channel *c = b->list; c; c = c->next)
        if (strcmp(c->id, id) == 0) return c;
    channel *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    snprintf(c->id, sizeof c->id, "%s", id);
    c->serial = -1;
    c->next = b->list;
    b->list = c;
    return c;
}

void events_changed(const char *id, int serial, unsigned generation)
{
    pthread_once(&once, init);
    pthread_mutex_lock(&lock);
    bucket *b = bucket_of(id);
    channel *c = channel_of(b, id);
    if (c) {
        c->serial = serial;
        c->generation = generation;
    }
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&lock);
}

int events_wait(const char *id, int *serial, unsigned *generation, double seconds, const bool *stop)
{
    pthread_once(&once, init);
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)seconds;
    until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&lock);
    bucket *b = bucket_of(id);
    channel *c = channel_of(b, id);
    int rc = 0;
    for (;;) {
        if (*stop) {
            rc = -1;
            break;
        }
        /* a channel not yet told of any change (serial -1) is the game as the stream saw it */
        if (c && c->serial >= 0 && (c->serial != *serial || c->generation != *generation)) {
            *serial = c->serial;
            *generation = c->generation;
            rc = 1;
            break;
        }
        if (pthread_cond_timedwait(&b->cond, &lock, &until) != 0) break;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void events_stop(bool *stop)
{
    pthread_once(&once, init);
    pthread_mutex_lock(&lock);
    *stop = true;
    for (int i = 0; i < EVENT_BUCKETS; i++) pthread_cond_broadcast(&buckets[i].cond);
    pthread_mutex_unlock(&lock);
}

bool events_open(const char *address, int max_total, int max_per_address)
{
    pthread_mutex_lock(&lock);
    bool ok = open_streams < max_total;
    int slot = -1, free_slot = -1;
    for (int i = 0; ok && i < EVENT_ADDRESSES; i++) {
        if (per_address[i].n > 0 && strcmp(per_address[i].address, address) == 0) slot = i;
        else if (per_address[i].n == 0 && free_slot < 0) free_slot = i;
    }
    if (ok && slot < 0) {
        slot = free_slot;
        if (slot >= 0) snprintf(per_address[slot].address, sizeof per_address[slot].address, "%s", address);
    }
    ok = ok && slot >= 0 && per_address[slot].n < max_per_address;
    if (ok) {
        per_address[slot].n++;
        open_streams++;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

void events_close(const char *address)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < EVENT_ADDRESSES; i++)
        if (per_address[i].n > 0 && strcmp(per_address[i].address, address) == 0) {
            per_address[i].n--;
            break;
        }
    open_streams--;
    pthread_mutex_unlock(&lock);
}

