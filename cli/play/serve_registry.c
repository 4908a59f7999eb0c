/* serve_registry.c - the table of games (serve_registry.h). */
#include "serve_registry.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static serve_session *games[REGISTRY_MAX_GAMES];
static uint64_t clock_tick;

void registry_new_id(char *buf, size_t n)
{
    unsigned char r[8];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) { /* no entropy: time and address */
        uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)(uintptr_t)buf << 16) ^ ++clock_tick;
        memcpy(r, &t, sizeof r);
    }
    snprintf(buf, n, "%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
}

void registry_save_path(char *buf, size_t n, const char *dir, const char *id)
{
    snprintf(buf, n, "%s/carc-%s.rec", dir, id);
}

int registry_add(serve_session *s, char *err, size_t errn)
{
    if (!s->id[0]) registry_new_id(s->id, sizeof s->id);
    pthread_mutex_lock(&table_lock);
    int slot = -1;
    for (int i = 0; i < REGISTRY_MAX_GAMES && slot < 0; i++)
        if (!games[i]) slot = i;
    if (slot < 0) { /* the game idle longest goes; its record is on disk */
        for (int i = 0; i < REGISTRY_MAX_GAMES; i++)
            if (games[i]->refs == 0 && (slot < 0 || games[i]->used < games[slot]->used)) slot = i;
        if (slot >= 0) {
            session_free(games[slot]);
            games[slot] = NULL;
        }
    }
    if (slot >= 0) {
        s->used = ++clock_tick;
        games[slot] = s;
    }
    pthread_mutex_unlock(&table_lock);
    if (slot < 0) snprintf(err, errn, "all %d games are in use; try again", REGISTRY_MAX_GAMES);
    return slot < 0 ? -1 : 0;
}

serve_session *registry_take_or_add(serve_session *s, char *err, size_t errn)
{
    pthread_mutex_lock(&table_lock);
    serve_session *there = NULL;
    for (int i = 0; i < REGISTRY_MAX_GAMES && !there; i++)
        if (games[i] && strcmp(games[i]->id, s->id) == 0) there = games[i];
    pthread_mutex_unlock(&table_lock);
    if (there) {
        char id[24];
        snprintf(id, sizeof id, "%s", s->id);
        session_free(s);
        return registry_take(id);
    }
    char id[24];
    snprintf(id, sizeof id, "%s", s->id);
    if (registry_add(s, err, errn) < 0) {
        session_free(s);
        return NULL;
    }
    return registry_take(id);
}

serve_session *registry_take(const char *id)
{
    serve_session *s = NULL;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < REGISTRY_MAX_GAMES && !s; i++)
        if (games[i] && strcmp(games[i]->id, id) == 0) s = games[i];
    if (s) {
        s->refs++;
        s->used = ++clock_tick;
    }
    pthread_mutex_unlock(&table_lock);
    if (s) pthread_mutex_lock(&s->lock);
    return s;
}

void registry_give(serve_session *s)
{
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&table_lock);
    s->refs--;
    pthread_mutex_unlock(&table_lock);
}

void registry_clear(void)
{
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < REGISTRY_MAX_GAMES; i++) {
        session_free(games[i]);
        games[i] = NULL;
    }
    pthread_mutex_unlock(&table_lock);
}
