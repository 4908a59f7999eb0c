/* serve_driver.c - plays many games at once against a running `carc
 * serve` through its JSON API, as people would: each game has two
 * people's seats, each seat moving with its own secret link. Used by
 * tests/serve_kill_test.sh (the server killed with SIGKILL while the games
 * are played, and started again) and bench/serve_load.sh (time per move).
 *
 *   serve_driver --port P --games N [--moves M] [--seconds S] [--streams]
 *                [--acks FILE] [--records DIR] [--seed K]
 *
 * Every move the server acknowledges (200) is written to --acks as
 * "ID INDEX TEXT": the record line INDEX of game ID must be TEXT. A request
 * that finds no server (it was killed) is tried again until the server is
 * back (60 s at most); the game then goes on from the state the server
 * gives. After M moves of a game (or S seconds) its host ends it at the
 * next turn's start. At the
 * end each game's record is fetched into --records/ID.rec and every
 * acknowledged move is checked in it; the scores the server showed are
 * written to --records/ID.scores. --streams opens the live stream of each
 * seat (two pages per game) and reads it all along. Prints the moves made,
 * the median and 99th percentile time per move, and exits 1 on any move
 * lost. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port, ngames = 50, max_moves = 30, seconds_limit = 0, seed0 = 1;
static bool streams;
static const char *acks_path, *records_dir;
static FILE *acks;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static double *latencies;
static size_t nlat, caplat;
static int lost, failures;
static double started;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0) return fd;
    if (fd >= 0) close(fd);
    return -1;
}

/* One exchange; status 0 when the server could not be reached or the
 * connection broke (then nothing is known of the request's fate). */
static int exchange(const char *method, const char *path, const char *key, const char *json, char **body)
{
    *body = NULL;
    int fd = dial();
    if (fd < 0) return 0;
    char *req = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&req, &n);
    fprintf(f, "%s %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n", method, path, port);
    if (key) fprintf(f, "X-Carc-Key: %s\r\n", key);
    if (json) fprintf(f, "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(json), json);
    else fprintf(f, "\r\n");
    fclose(f);
    bool sent = true;
    for (size_t off = 0; off < n && sent;) {
        ssize_t k = send(fd, req + off, n - off, MSG_NOSIGNAL);
        if (k <= 0) sent = false;
        else off += (size_t)k;
    }
    free(req);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (ssize_t k; sent && buf && (k = recv(fd, buf + len, cap - len - 1, 0)) > 0;) {
        len += (size_t)k;
        if (cap - len < 4096) buf = realloc(buf, cap *= 2);
    }
    close(fd);
    if (!buf) return 0;
    buf[len] = 0;
    int status = 0;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    char *b = strstr(buf, "\r\n\r\n");
    if (!b) status = 0; /* cut off: the server died while answering */
    else *body = strdup(b + 4);
    free(buf);
    return status;
}

/* The exchange, tried again while the server is away (60 s at most). */
static int insist(const char *method, const char *path, const char *key, const char *json, char **body)
{
    for (int tries = 0; tries < 600; tries++) {
        int st = exchange(method, path, key, json, body);
        if (st) return st;
        free(*body);
        usleep(100 * 1000);
    }
    return 0;
}

typedef struct game {
    pthread_t t;
    int index;
    char id[24], host[40], seat[2][40];
    int moves;
    json_t *last;          /* the last state seen */
    char scores[64];
} game;

static json_t *parse(const char *body) { return body ? json_loads(body, 0, NULL) : NULL; }

/* Whether the state is at a turn's first decision (its last line a draw):
 * the host ends the game there, so no move of a turn half played is
 * taken back by the end (records.md: `end` goes between two turns). */
static bool turn_begins(json_t *s)
{
    json_t *log = json_object_get(s, "log");
    for (size_t i = json_array_size(log); i-- > 0;) {
        const char *kind = json_string_value(json_object_get(json_array_get(log, i), "kind"));
        if (strcmp(kind, "draw") == 0) return true;
        if (strcmp(kind, "move") == 0) return false;
    }
    return true;
}

static const char *secret_in(const char *link) { return strstr(link, "&key=") + 5; }

static void *play(void *arg)
{
    game *g = arg;
    char body[256], path[128], *reply = NULL;
    snprintf(body, sizeof body,
             "{\"variant\": \"base\", \"seed\": %d, \"seats\": [{\"name\": \"A%d\", \"agent\": \"human\"}, "
             "{\"name\": \"B%d\", \"agent\": \"human\"}]}",
             seed0 + g->index, g->index, g->index);
    int st = insist("POST", "/api/games", NULL, body, &reply);
    json_t *s = parse(reply);
    free(reply);
    if (st != 201 || !s) {
        fprintf(stderr, "serve_driver: game %d: new game: %d\n", g->index, st);
        pthread_mutex_lock(&out_lock);
        failures++;
        pthread_mutex_unlock(&out_lock);
        return NULL;
    }
    json_t *links = json_object_get(s, "links");
    snprintf(g->id, sizeof g->id, "%s", json_string_value(json_object_get(s, "id")));
    snprintf(g->host, sizeof g->host, "%s", secret_in(json_string_value(json_object_get(links, "host"))));
    for (int p = 0; p < 2; p++)
        snprintf(g->seat[p], sizeof g->seat[p], "%s",
                 secret_in(json_string_value(json_object_get(json_array_get(json_object_get(links, "seats"), (size_t)p), "link"))));
    unsigned rng = (unsigned)(seed0 * 7919 + g->index);
    while (!json_is_true(json_object_get(s, "finished"))) {
        if ((g->moves >= max_moves || (seconds_limit && now() - started > seconds_limit)) && turn_begins(s)) {
            snprintf(path, sizeof path, "/api/games/%s/end", g->id);
            st = insist("POST", path, g->host, "{}", &reply);
        } else {
            json_t *d = json_object_get(s, "decision"), *opts = json_object_get(d, "options");
            int seat = (int)json_integer_value(json_object_get(d, "seat"));
            rng = rng * 1103515245u + 12345u;
            int k = (int)((rng >> 8) % (unsigned)json_array_size(opts)), serial = (int)json_integer_value(json_object_get(s, "serial"));
            char text[256];
            snprintf(text, sizeof text, "%s", json_string_value(json_object_get(json_array_get(opts, (size_t)k), "text")));
            snprintf(path, sizeof path, "/api/games/%s/choose", g->id);
            snprintf(body, sizeof body, "{\"serial\": %d, \"option\": %d}", serial, k);
            double t0 = now();
            st = exchange("POST", path, g->seat[seat], body, &reply);
            double dt = now() - t0;
            if (st == 200) {
                g->moves++;
                pthread_mutex_lock(&out_lock);
                if (acks) {
                    fprintf(acks, "%s %d %s\n", g->id, serial, text);
                    fflush(acks);
                }
                if (nlat == caplat) latencies = realloc(latencies, (caplat = caplat ? 2 * caplat : 4096) * sizeof *latencies);
                latencies[nlat++] = dt;
                pthread_mutex_unlock(&out_lock);
            }
        }
        json_t *next = st == 200 ? parse(reply) : NULL;
        free(reply);
        reply = NULL;
        if (!next) { /* the server went away, or the move was stale: the state as the server has it */
            if (st != 0 && st != 409) {
                fprintf(stderr, "serve_driver: game %s: %d\n", g->id, st);
                pthread_mutex_lock(&out_lock);
                failures++;
                pthread_mutex_unlock(&out_lock);
                break;
            }
            snprintf(path, sizeof path, "/api/games/%s", g->id);
            st = insist("GET", path, g->seat[0], NULL, &reply);
            next = st == 200 ? parse(reply) : NULL;
            free(reply);
            reply = NULL;
            if (!next) {
                fprintf(stderr, "serve_driver: game %s is gone after a restart (%d)\n", g->id, st);
                pthread_mutex_lock(&out_lock);
                failures++;
                pthread_mutex_unlock(&out_lock);
                break;
            }
        }
        json_decref(s);
        s = next;
    }
    size_t i;
    json_t *p;
    char *w = g->scores;
    json_array_foreach(json_object_get(s, "players"), i, p)
        w += snprintf(w, 16, "%s%lld", i ? " " : "", (long long)json_integer_value(json_object_get(p, "score")));
    g->last = s;
    return NULL;
}

/* The live pages: every seat's stream, read and dropped, all in one thread. */
static volatile bool streams_done;
static long events_seen;
static void *follow(void *arg)
{
    game *games = arg;
    int n = 2 * ngames;
    struct pollfd *fds = calloc((size_t)n, sizeof *fds);
    for (int i = 0; i < n; i++) fds[i].fd = -1;
    char buf[65536];
    while (!streams_done) {
        for (int i = 0; i < n; i++) {
            game *g = &games[i / 2];
            if (fds[i].fd >= 0 || !g->id[0]) continue;
            int fd = dial();
            if (fd < 0) continue;
            int len = snprintf(buf, sizeof buf, "GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Carc-Key: %s\r\n\r\n",
                               g->id, port, g->seat[i % 2]);
            if (send(fd, buf, (size_t)len, MSG_NOSIGNAL) != len) {
                close(fd);
                continue;
            }
            fds[i].fd = fd;
            fds[i].events = POLLIN;
        }
        if (poll(fds, (nfds_t)n, 200) <= 0) continue;
        for (int i = 0; i < n; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t k = recv(fds[i].fd, buf, sizeof buf - 1, 0);
            if (k <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                continue;
            }
            buf[k] = 0;
            for (char *q = buf; (q = strstr(q, "\nid: ")); q++) events_seen++;
        }
    }
    for (int i = 0; i < n; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    free(fds);
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Every acknowledged move is its game's record line. */
static int check_acks(game *games)
{
    FILE *f = fopen(acks_path, "r");
    if (!f) return 0;
    char line[512];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char id[24], text[400];
        int index;
        if (sscanf(line, "%23s %d %399[^\n]", id, &index, text) != 3) continue;
        game *g = NULL;
        for (int i = 0; i < ngames && !g; i++)
            if (strcmp(games[i].id, id) == 0) g = &games[i];
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.rec", records_dir, id);
        FILE *r = g ? fopen(path, "r") : NULL;
        char rl[512];
        int at = -1;
        bool found = false;
        while (r && fgets(rl, sizeof rl, r)) {
            rl[strcspn(rl, "\n")] = 0;
            if (at >= 0 && at++ == index) {
                found = strcmp(rl, text) == 0;
                break;
            }
            if (strcmp(rl, "---") == 0) at = 0;
        }
        if (r) fclose(r);
        if (!found) {
            fprintf(stderr, "serve_driver: LOST: game %s line %d '%s' was acknowledged but is not in its record\n", id,
                    index, text);
            lost++;
        }
        checked++;
    }
    fclose(f);
    return checked;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(a, "--port") == 0) port = atoi(v), i++;
        else if (strcmp(a, "--games") == 0) ngames = atoi(v), i++;
        else if (strcmp(a, "--moves") == 0) max_moves = atoi(v), i++;
        else if (strcmp(a, "--seconds") == 0) seconds_limit = atoi(v), i++;
        else if (strcmp(a, "--seed") == 0) seed0 = atoi(v), i++;
        else if (strcmp(a, "--acks") == 0) acks_path = v, i++;
        else if (strcmp(a, "--records") == 0) records_dir = v, i++;
        else if (strcmp(a, "--streams") == 0) streams = true;
        else {
            fprintf(stderr, "serve_driver: unknown argument '%s'\n", a);
            return 2;
        }
    }
    if (!port || ngames < 1) {
        fprintf(stderr, "usage: serve_driver --port P --games N [--moves M] [--seconds S] [--streams] [--acks FILE] [--records DIR]\n");
        return 2;
    }
    if (acks_path && !(acks = fopen(acks_path, "w"))) {
        perror(acks_path);
        return 2;
    }
    game *games = calloc((size_t)ngames, sizeof *games);
    started = now();
    pthread_t follower;
    if (streams) pthread_create(&follower, NULL, follow, games);
    for (int i = 0; i < ngames; i++) {
        games[i].index = i;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 256 * 1024);
        pthread_create(&games[i].t, &at, play, &games[i]);
        pthread_attr_destroy(&at);
    }
    for (int i = 0; i < ngames; i++) pthread_join(games[i].t, NULL);
    double elapsed = now() - started;
    if (streams) {
        streams_done = true;
        pthread_join(follower, NULL);
    }
    if (acks) fclose(acks);
    int checked = 0;
    if (records_dir) {
        for (int i = 0; i < ngames; i++) {
            if (!games[i].id[0]) continue;
            char path[1200], *text = NULL;
            snprintf(path, sizeof path, "/api/games/%s/record", games[i].id);
            int st = insist("GET", path, games[i].seat[0], NULL, &text);
            if (st != 200) {
                fprintf(stderr, "serve_driver: game %s: record: %d %s\n", games[i].id, st, text ? text : "");
                failures++;
            }
            snprintf(path, sizeof path, "%s/%s.rec", records_dir, games[i].id);
            FILE *f = fopen(path, "w");
            if (f && text) fputs(text, f);
            if (f) fclose(f);
            free(text);
            snprintf(path, sizeof path, "%s/%s.scores", records_dir, games[i].id);
            f = fopen(path, "w");
            if (f) fprintf(f, "%s\n", games[i].scores);
            if (f) fclose(f);
        }
        if (acks_path) checked = check_acks(games);
    }
    qsort(latencies, nlat, sizeof *latencies, by_value);
    double median = nlat ? latencies[nlat / 2] : 0, p99 = nlat ? latencies[(size_t)((double)nlat * 0.99)] : 0;
    printf("serve_driver: %d games, %zu moves in %.1f s (%.0f moves/s); per move: median %.1f ms, 99th percentile "
           "%.1f ms; %d acknowledged moves checked, %d lost; %d failures",
           ngames, nlat, elapsed, (double)nlat / elapsed, median * 1000, p99 * 1000, checked, lost, failures);
    if (streams) printf("; %ld live events read", events_seen);
    printf("\n");
    for (int i = 0; i < ngames; i++) json_decref(games[i].last);
    free(games);
    free(latencies);
    return lost || failures ? 1 : 0;
}
