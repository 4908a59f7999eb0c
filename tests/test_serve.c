/* test_serve.c - carc serve's HTTP API from a test client: 50 games played
 * at once through it, each record replaying to the scores the server
 * showed; hostile requests (malformed JSON, unknown ids, options out of
 * range, stale moves, oversized bodies, path tricks, foreign Host headers)
 * each get a 4xx with a message while the server keeps serving and no game
 * changes; undo; loading a record. The server runs in this process on a
 * free loopback port. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "agents.h"
#include "helpers.h"
#include "json_io.h"
#include "serve_http.h"
#include "serve_registry.h"
#include "serve_store.h"
#include "temp_files.h"

static int port;
static char save_dir[1100];

typedef struct response {
    int status;
    char *body;
    size_t len;
    char head[2048]; /* the status line and headers */
} response;

/* One HTTP/1.0 exchange on a fresh connection; the raw request is built by
 * the caller (so tests can send what no browser would). */
static response raw_exchange(const char *req, size_t reqlen)
{
    response r = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0) close(fd);
        return r;
    }
    for (size_t off = 0; off < reqlen;) {
        ssize_t n = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
        if (n <= 0) break; /* the server may answer before reading it all */
        off += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (ssize_t n; buf && (n = recv(fd, buf + len, cap - len - 1, 0)) > 0;) {
        len += (size_t)n;
        if (cap - len < 4096) buf = realloc(buf, cap *= 2);
    }
    close(fd);
    if (!buf) return r;
    buf[len] = 0;
    sscanf(buf, "HTTP/1.%*d %d", &r.status);
    char *body = strstr(buf, "\r\n\r\n");
    snprintf(r.head, sizeof r.head, "%.*s", body ? (int)(body - buf) : 0, buf);
    r.body = strdup(body ? body + 4 : "");
    r.len = strlen(r.body);
    free(buf);
    return r;
}

/* The seats' secrets of the games the test made (from the links in each
 * new game's answer): a move is made with its seat's own. */
#define KNOWN_GAMES 512
static struct known_game {
    char id[24];
    char secret[CARC_MAX_PLAYERS][40];
} known[KNOWN_GAMES];
static int nknown;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember_links(json_t *st)
{
    json_t *links = json_object_get(st, "links"), *seats = json_object_get(links, "seats"), *one;
    size_t i;
    if (!links) return;
    pthread_mutex_lock(&known_lock);
    for (int g = 0; g < nknown; g++)
        if (strcmp(known[g].id, json_string_value(json_object_get(st, "id"))) == 0) {
            pthread_mutex_unlock(&known_lock);
            return;
        }
    assert_true(nknown < KNOWN_GAMES);
    struct known_game *k = &known[nknown++];
    snprintf(k->id, sizeof k->id, "%s", json_string_value(json_object_get(st, "id")));
    json_array_foreach(seats, i, one) {
        const char *link = json_string_value(json_object_get(one, "link")), *key = strstr(link, "&key=");
        int seat = (int)json_integer_value(json_object_get(one, "seat"));
        assert_non_null(key);
        snprintf(k->secret[seat], sizeof k->secret[seat], "%s", key + 5);
    }
    pthread_mutex_unlock(&known_lock);
}

/* The secret of a person's seat of a game the test made; "" when unknown. */
static const char *seat_secret(const char *id, int seat)
{
    const char *s = "";
    pthread_mutex_lock(&known_lock);
    for (int i = 0; i < nknown; i++)
        if (strcmp(known[i].id, id) == 0) s = known[i].secret[seat];
    pthread_mutex_unlock(&known_lock);
    return s;
}

/* The first person's seat of the state's game. */
static int person_seat(json_t *st)
{
    json_t *players = json_object_get(st, "players"), *p;
    size_t i;
    json_array_foreach(players, i, p) if (json_is_true(json_object_get(p, "person"))) return (int)i;
    return -1;
}

/* A request holding a game's secret (X-Carc-Key), or none (NULL). */
static response http_key(const char *method, const char *path, const char *json, const char *key)
{
    char *req = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&req, &n);
    fprintf(f, "%s %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n", method, path, port);
    if (key) fprintf(f, "X-Carc-Key: %s\r\n", key);
    if (json) fprintf(f, "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(json), json);
    else fprintf(f, "\r\n");
    fclose(f);
    response r = raw_exchange(req, n);
    free(req);
    if (r.status == 201) {
        json_error_t e;
        json_t *j = json_loads(r.body, 0, &e);
        remember_links(j);
        json_decref(j);
    }
    return r;
}

/* A request as the seat of the game of path /api/games/ID/... */
static response http_seat(const char *method, const char *path, const char *json, int seat)
{
    char id[24];
    snprintf(id, sizeof id, "%.16s", path + strlen("/api/games/"));
    return http_key(method, path, json, seat_secret(id, seat));
}

static response http(const char *method, const char *path, const char *json)
{
    return http_key(method, path, json, NULL);
}

static json_t *body_json(const response *r)
{
    json_error_t e;
    return json_loads(r->body ? r->body : "", 0, &e);
}

/* A 4xx whose body is {"error": "..."} holding the phrase. */
static void assert_refused(response r, int status, const char *phrase)
{
    if (r.status != status || !r.body || !strstr(r.body, "\"error\"") || !strstr(r.body, phrase))
        fprintf(stderr, "expected %d with '%s', got %d: %s\n", status, phrase, r.status, r.body ? r.body : "");
    assert_int_equal(r.status, status);
    assert_non_null(strstr(r.body, "\"error\""));
    assert_non_null(strstr(r.body, phrase));
    free(r.body);
}

static char *new_game_body(const char *variant, const char *agent0, const char *agent1, int seed)
{
    char *s = malloc(512);
    snprintf(s, 512,
             "{\"variant\": \"%s\", \"seed\": %d, \"seats\": [{\"name\": \"Ann\", \"agent\": \"%s\"}, "
             "{\"name\": \"Bob\", \"agent\": \"%s\"}]}",
             variant, seed, agent0, agent1);
    return s;
}

/* Starts a game; returns its state (the caller decrefs). */
static json_t *start_game(const char *variant, const char *agent0, const char *agent1, int seed)
{
    char *body = new_game_body(variant, agent0, agent1, seed);
    response r = http("POST", "/api/games", body);
    free(body);
    if (r.status != 201) fprintf(stderr, "new game: %d %s\n", r.status, r.body);
    assert_int_equal(r.status, 201);
    json_t *j = body_json(&r);
    free(r.body);
    assert_non_null(j);
    remember_links(j); /* the host's state holds the links */
    return j;
}

static const char *game_id(json_t *st) { return json_string_value(json_object_get(st, "id")); }
static int serial_of(json_t *st) { return (int)json_integer_value(json_object_get(st, "serial")); }

/* The record's file of a game, which the host's state holds (a seat's does
 * not); in a static buffer per call site's use. */
static const char *save_of(json_t *st)
{
    static __thread char buf[1200];
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s", game_id(st));
    response r = http("GET", path, NULL);
    json_t *j = body_json(&r);
    free(r.body);
    const char *save = json_string_value(json_object_get(j, "save"));
    assert_non_null(save);
    snprintf(buf, sizeof buf, "%s", save);
    json_decref(j);
    return buf;
}

/* One move: the human seat picks option k, or the bot steps. The new state. */
static json_t *move(json_t *st, int k, int *status)
{
    char path[128], body[128];
    json_t *d = json_object_get(st, "decision");
    bool human = json_is_true(json_object_get(d, "human"));
    snprintf(path, sizeof path, "/api/games/%s/%s", game_id(st), human ? "choose" : "step");
    if (human) snprintf(body, sizeof body, "{\"serial\": %d, \"option\": %d}", serial_of(st), k);
    else snprintf(body, sizeof body, "{\"serial\": %d}", serial_of(st));
    int seat = (int)json_integer_value(json_object_get(d, "seat"));
    response r = http_seat("POST", path, body, human ? seat : person_seat(st));
    *status = r.status;
    json_t *j = r.status == 200 ? body_json(&r) : NULL;
    if (r.status != 200) fprintf(stderr, "%s: %d %s\n", path, r.status, r.body);
    free(r.body);
    return j;
}

/* Plays up to `moves` moves (or to the end) with options picked from a
 * seeded stream. */
static json_t *play_on(json_t *st, unsigned seed, int moves)
{
    for (int guard = 0; guard < moves && !json_is_true(json_object_get(st, "finished")); guard++) {
        json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
        seed = seed * 1103515245u + 12345u;
        int status, k = (int)((seed >> 8) % (unsigned)json_array_size(opts));
        json_t *next = move(st, k, &status);
        json_decref(st);
        if (!next) return NULL;
        st = next;
    }
    return st;
}

static json_t *play_out(json_t *st, unsigned seed) { return play_on(st, seed, 5000); }

/* The scores of the state, and of the replay of its saved record. */
static void assert_record_replays_to(json_t *st)
{
    const char *save = save_of(st);
    char err[8192];
    carc_record rec;
    assert_int_equal(carc_record_load(save, &rec, err, sizeof err), 0);
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    assert_non_null(rules);
    carc_game *g = NULL;
    assert_int_equal(carc_replay(&rec, rules, &g, err, sizeof err), 0);
    assert_int_equal(carc_is_finished(g), json_is_true(json_object_get(st, "finished")));
    json_t *players = json_object_get(st, "players");
    for (int p = 0; p < carc_players(g); p++)
        assert_int_equal(carc_score(g, p), json_integer_value(json_object_get(json_array_get(players, (size_t)p), "score")));
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
}

typedef struct worker {
    pthread_t t;
    int seed, moves;
    json_t *final;
} worker;

static void *play_one(void *arg)
{
    worker *w = arg;
    char *body = new_game_body("base", "human", "random", w->seed);
    response r = http("POST", "/api/games", body);
    free(body);
    json_t *st = r.status == 201 ? body_json(&r) : NULL;
    free(r.body);
    w->final = st ? play_on(st, (unsigned)w->seed, w->moves) : NULL;
    return NULL;
}

/* 50 games at once through the API: ten played to their end, the others
 * 40 moves in; each saved record replays to what the server showed. */
static void test_fifty_games_at_once(void **state)
{
    (void)state;
    enum { N = 50 };
    static worker w[N];
    for (int i = 0; i < N; i++) {
        w[i].seed = 1000 + i;
        w[i].moves = i % 5 ? 40 : 5000;
        assert_int_equal(pthread_create(&w[i].t, NULL, play_one, &w[i]), 0);
    }
    for (int i = 0; i < N; i++) pthread_join(w[i].t, NULL);
    for (int i = 0; i < N; i++) {
        assert_non_null(w[i].final);
        if (w[i].moves == 5000) assert_true(json_is_true(json_object_get(w[i].final, "finished")));
        for (int j = 0; j < i; j++) assert_string_not_equal(game_id(w[i].final), game_id(w[j].final));
        assert_record_replays_to(w[i].final);
    }
    for (int i = 0; i < N; i++) json_decref(w[i].final);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Every hostile request is refused with a message; the game it aimed at
 * and its record are as they were, and the server goes on serving. */
static void test_hostile_requests(void **state)
{
    (void)state;
    json_t *st = start_game("base", "human", "greedy", 7);
    char path[160], choose[160];
    snprintf(path, sizeof path, "/api/games/%s", game_id(st));
    snprintf(choose, sizeof choose, "/api/games/%s/choose", game_id(st));
    const char *save = save_of(st);
    char *before = read_file(save);
    int nopts = (int)json_array_size(json_object_get(json_object_get(st, "decision"), "options"));
    char body[160];

    /* malformed and ill-typed JSON */
    assert_refused(http("POST", choose, "{\"serial\": 1, \"option\": "), 400, "not JSON");
    assert_refused(http("POST", choose, "[1, 2]"), 400, "JSON object");
    assert_refused(http("POST", choose, "{\"serial\": \"1\", \"option\": 0}"), 400, "\\\"serial\\\"");
    assert_refused(http("POST", choose, "{\"serial\": 1, \"serial\": 1, \"option\": 0}"), 400, "not JSON");
    assert_refused(http("POST", "/api/games", "{\"variant\": \"../../etc/passwd\", \"seats\": []}"), 400, "not a path");
    assert_refused(http("POST", "/api/games", "{\"variant\": \"base\", \"seats\": 3}"), 400, "seats");
    assert_refused(http("POST", "/api/games",
                        "{\"variant\": \"base\", \"seats\": [{\"name\": \"A\", \"agent\": \"skynet\"}, "
                        "{\"name\": \"B\", \"agent\": \"human\"}]}"),
                   400, "unknown agent");
    assert_refused(http("POST", "/api/games",
                        "{\"variant\": \"base\", \"options\": {\"farm-scoring\": \"bogus\"}, \"seats\": [{\"name\": "
                        "\"A\", \"agent\": \"human\"}, {\"name\": \"B\", \"agent\": \"human\"}]}"),
                   400, "bogus");
    assert_refused(http("POST", "/api/games",
                        "{\"variant\": \"base\", \"seats\": [{\"name\": \"A B\", \"agent\": \"human\"}, {\"name\": "
                        "\"C\", \"agent\": \"human\"}]}"),
                   400, "one word");
    assert_refused(http("POST", "/api/load", "{\"record\": \"carcassonne-record 1\\nvariant base\\n\"}"), 400,
                   "the loaded record");
    /* `end` while the turn's action is pending (records.md: between two turns) */
    assert_refused(http("POST", "/api/load",
                        "{\"record\": \"carcassonne-record 1\\nvariant base\\nseed 1\\nplayer Red human\\n"
                        "player Blue human\\n---\\ndraw base:E\\nplace 0,-1 r180\\nend\\n\"}"),
                   400, "between two turns");
    /* unknown ids, out-of-range options, stale and misplaced moves */
    assert_refused(http("GET", "/api/games/0123456789abcdef", NULL), 404, "no game");
    assert_refused(http("GET", "/api/games/..%2f..%2fetc", NULL), 404, "no game");
    assert_refused(http("POST", "/api/games/0123456789abcdef/choose", "{\"serial\": 1, \"option\": 0}"), 404,
                   "no game");
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": %d}", serial_of(st), nopts);
    assert_refused(http_seat("POST", choose, body, 0), 400, "out of range");
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": -1}", serial_of(st));
    assert_refused(http_seat("POST", choose, body, 0), 400, "out of range");
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": 99999999999}", serial_of(st));
    assert_refused(http_seat("POST", choose, body, 0), 400, "\\\"option\\\"");
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": 0}", serial_of(st) + 5);
    assert_refused(http_seat("POST", choose, body, 0), 409, "decision");
    snprintf(path, sizeof path, "/api/games/%s/step", game_id(st));
    snprintf(body, sizeof body, "{\"serial\": %d}", serial_of(st));
    assert_refused(http("POST", path, body), 409, "at the page");
    snprintf(path, sizeof path, "/api/games/%s/frobnicate", game_id(st));
    assert_refused(http("POST", path, body), 404, "no action");
    /* oversized bodies, with and without a Content-Length saying so */
    size_t big = SERVE_MAX_JSON_BODY + 10;
    char *huge = malloc(big + 512);
    int h = snprintf(huge, 512, "POST %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                                "Content-Length: %zu\r\n\r\n",
                     choose, port, big);
    memset(huge + h, ' ', big);
    assert_refused(raw_exchange(huge, (size_t)h + big), 413, "larger than");
    h = snprintf(huge, 512, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n%zx\r\n",
                 choose, port, big);
    memset(huge + h, ' ', big);
    memcpy(huge + h + big, "\r\n0\r\n\r\n", 7);
    assert_refused(raw_exchange(huge, (size_t)h + big + 7), 413, "larger than");
    free(huge);
    /* path tricks on the page's files */
    static const char *const tricks[] = {"/../Makefile", "/%2e%2e/Makefile", "/..%2fMakefile", "/web/../Makefile",
                                         "/.hidden.js", "//etc/passwd", "/carc.js/..",
                                         "/carc.sh", "/%2fetc%2fpasswd"};
    for (size_t i = 0; i < sizeof tricks / sizeof *tricks; i++) {
        response r = http("GET", tricks[i], NULL);
        if (r.status < 400 || r.status > 499) fprintf(stderr, "%s: %d\n", tricks[i], r.status);
        assert_true(r.status >= 400 && r.status <= 499);
        assert_non_null(strstr(r.body, "\"error\""));
        free(r.body);
    }
    assert_refused(http("GET", "/nosuchfile.js", NULL), 404, "no file");
    /* requests no page of ours sends */
    response r = raw_exchange("POST /api/games HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                              "Content-Length: 2\r\n\r\n{}",
                              strlen("POST /api/games HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                                     "Content-Length: 2\r\n\r\n{}"));
    assert_refused(r, 415, "application/json");
    const char *rebind = "GET /api/variants HTTP/1.0\r\nHost: evil.example:80\r\n\r\n";
    assert_refused(raw_exchange(rebind, strlen(rebind)), 403, "its own names");
    assert_refused(http("PUT", "/api/games", NULL), 405, "GET and POST");
    assert_refused(http("GET", "/api/nothing", NULL), 404, "no GET");

    /* nothing changed: the same state, the same record; the server serves */
    snprintf(path, sizeof path, "/api/games/%s", game_id(st));
    r = http("GET", path, NULL);
    assert_int_equal(r.status, 200);
    json_t *again = body_json(&r);
    free(r.body);
    assert_int_equal(serial_of(again), serial_of(st));
    char *after = read_file(save);
    assert_string_equal(before, after);
    free(before);
    free(after);
    r = http("GET", "/", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "carc.js"));
    free(r.body);
    json_t *end = play_out(again, 3);
    assert_non_null(end);
    assert_record_replays_to(end);
    json_decref(end);
    json_decref(st);
}

/* Undo takes back the page's last move and the bot's after it: the state is
 * the one before that move, and so is the record. */
static void test_undo(void **state)
{
    (void)state;
    json_t *st = start_game("base", "human", "greedy", 11), *s0 = NULL;
    int status;
    /* two of the human's decisions, then the bot's whole turn */
    for (int i = 0; i < 6 && !s0; i++) {
        json_t *next = move(st, 0, &status);
        assert_non_null(next);
        json_decref(st);
        st = next;
        json_t *d = json_object_get(st, "decision");
        if (json_is_true(json_object_get(d, "human")) && strcmp(json_string_value(json_object_get(d, "label")), "place") == 0 &&
            json_integer_value(json_object_get(st, "turn")) == 3)
            s0 = json_incref(st);
    }
    assert_non_null(s0);
    /* the human places and deploys (or passes); the bot plays its turn */
    json_t *next = move(st, 1, &status);
    json_decref(st);
    st = next;
    next = move(st, 0, &status);
    json_decref(st);
    st = next;
    while (!json_is_true(json_object_get(json_object_get(st, "decision"), "human"))) {
        next = move(st, 0, &status);
        json_decref(st);
        st = next;
    }
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s/undo", game_id(st));
    response r = http_seat("POST", path, "{}", person_seat(st));
    assert_int_equal(r.status, 200);
    json_t *u = body_json(&r);
    free(r.body);
    /* the human's last move was the deploy (or pass) of turn 3 */
    assert_int_equal(serial_of(u), serial_of(s0) + 1);
    r = http_seat("POST", path, "{}", person_seat(st));
    assert_int_equal(r.status, 200);
    json_t *u2 = body_json(&r);
    free(r.body);
    assert_int_equal(serial_of(u2), serial_of(s0));
    char *a = json_dumps(json_object_get(u2, "decision"), JSON_SORT_KEYS),
         *b = json_dumps(json_object_get(s0, "decision"), JSON_SORT_KEYS);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_record_replays_to(u2);
    json_decref(u);
    json_decref(u2);
    json_decref(s0);
    json_decref(st);
    /* a game with no move at the page has nothing to undo */
    st = start_game("base", "greedy", "human", 12);
    snprintf(path, sizeof path, "/api/games/%s/undo", game_id(st));
    assert_refused(http_seat("POST", path, "{}", person_seat(st)), 409, "no move");
    json_decref(st);
}

/* A record loaded through the API plays on from where it stopped. */
static void test_load_record(void **state)
{
    (void)state;
    json_t *st = start_game("all-expansions", "human", "greedy", 21);
    int status;
    for (int i = 0; i < 12; i++) {
        json_t *next = move(st, i % 2, &status);
        assert_non_null(next);
        json_decref(st);
        st = next;
    }
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s/record", game_id(st));
    response r = http("GET", path, NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "carcassonne-record 1"));
    json_t *req = json_pack("{s:s}", "record", r.body);
    free(r.body);
    char *body = json_dumps(req, 0);
    json_decref(req);
    r = http("POST", "/api/load", body);
    free(body);
    assert_int_equal(r.status, 201);
    json_t *loaded = body_json(&r);
    free(r.body);
    assert_string_not_equal(game_id(loaded), game_id(st));
    assert_int_equal(serial_of(loaded), serial_of(st));
    char *a = json_dumps(json_object_get(loaded, "decision"), JSON_SORT_KEYS),
         *b = json_dumps(json_object_get(st, "decision"), JSON_SORT_KEYS);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_t *end = play_on(loaded, 5, 60);
    assert_non_null(end);
    assert_record_replays_to(end);
    json_decref(end);
    json_decref(st);
}

/* Every option of every decision of an all-expansions game has a place on
 * the board but pass, the choices with none (whom to rob) and the options of
 * scripts that name none (the Ark's walks): found without running a script
 * (the kernel's by their fields, a script's by the tile or track space it
 * names, a C plugin's on a copy whose scripts are muted). */
static void test_every_option_has_a_place(void **state)
{
    (void)state;
    json_t *st = start_game("all-expansions", "human", "human", 33);
    int placed = 0, figures = 0, loose = 0, princess = 0, robber = 0;
    unsigned seed = 9;
    while (!json_is_true(json_object_get(st, "finished"))) {
        json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
        for (size_t i = 0; i < json_array_size(opts); i++) {
            json_t *o = json_array_get(opts, i);
            const char *text = json_string_value(json_object_get(o, "text"));
            const char *kind = json_string_value(json_object_get(json_object_get(o, "target"), "kind"));
            if (strncmp(text, "place ", 6) == 0) assert_string_equal(kind, "place"), placed++;
            /* The Ark's options are a script's: where one names its tile it
             * is shown there; a walk names none (the server runs no script
             * to find where it leads) and is offered beside the board. */
            else if (strncmp(text, "ark", 3) == 0)
                assert_true(strcmp(kind, "figure") == 0 || strcmp(kind, "none") == 0);
            else if (strncmp(text, "deploy ", 7) == 0 || strncmp(text, "dragon ", 7) == 0 ||
                     strncmp(text, "fairy ", 6) == 0) {
                if (strcmp(kind, "figure") != 0) fprintf(stderr, "'%s' has no place (%s)\n", text, kind);
                assert_string_equal(kind, "figure");
                figures++;
            } else if (strncmp(text, "portal ", 7) == 0) assert_string_equal(kind, "figure");
            else if (strncmp(text, "princess ", 9) == 0) assert_string_equal(kind, "remove"), princess++;
            else if (strncmp(text, "robber ", 7) == 0) assert_string_equal(kind, "track"), robber++;
            else if (strcmp(text, "pass") == 0) assert_string_equal(kind, "none"), loose++;
        }
        seed = seed * 1103515245u + 12345u;
        int status;
        json_t *next = move(st, (int)((seed >> 8) % json_array_size(opts)), &status);
        assert_non_null(next);
        json_decref(st);
        st = next;
    }
    assert_true(placed > 100 && figures > 50 && loose > 5 && princess > 0 && robber > 0);
    json_decref(st);
}

/* Abbey & Mayor's barn stands at a tile corner (CARC_AT_CORNER): its
 * option is a figure target at the corner's point, named by the corner;
 * the board's SVG draws a standing barn at a corner. */
static void test_corner_targets(void **state)
{
    (void)state;
    json_t *st = start_game("abbey-mayor", "human", "human", 5);
    int barns = 0;
    unsigned seed = 3;
    while (!json_is_true(json_object_get(st, "finished"))) {
        json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
        int pick = -1;
        for (size_t i = 0; i < json_array_size(opts); i++) {
            json_t *o = json_array_get(opts, i), *t = json_object_get(o, "target");
            const char *text = json_string_value(json_object_get(o, "text"));
            if (strncmp(text, "deploy barn corner@", 19) != 0) continue;
            assert_string_equal(json_string_value(json_object_get(t, "kind")), "figure");
            assert_string_equal(json_string_value(json_object_get(t, "corner")), text + 19);
            assert_string_equal(json_string_value(json_object_get(t, "figure")), "barn");
            barns++;
            pick = (int)i;
        }
        seed = seed * 1103515245u + 12345u;
        int status;
        json_t *next = move(st, pick >= 0 ? pick : (int)((seed >> 8) % json_array_size(opts)), &status);
        assert_non_null(next);
        json_decref(st);
        st = next;
    }
    assert_true(barns > 0);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(st, "board"), "svg")), "data-where=\"corner\""));
    json_decref(st);
}

/* A composition of modules plays like a variant, and its record replays. */
static void test_composition(void **state)
{
    (void)state;
    json_t *st = start_game("base+robbers+fairy", "human", "greedy", 41);
    assert_non_null(strstr(json_string_value(json_object_get(st, "title")), "Robbers"));
    json_t *end = play_on(st, 7, 60);
    assert_non_null(end);
    assert_record_replays_to(end);
    json_decref(end);
}

static json_t *get_state(const char *id)
{
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s", id);
    response r = http("GET", path, NULL);
    if (r.status != 200) fprintf(stderr, "GET %s: %d %s\n", path, r.status, r.body);
    assert_int_equal(r.status, 200);
    json_t *j = body_json(&r);
    free(r.body);
    assert_non_null(j);
    remember_links(j); /* the host's state holds the links */
    return j;
}

/* Text that is not UTF-8 is shown as text (Latin-1 read as Latin-1): a
 * variant's title, a script's label and option texts, a record's player
 * name; no 500, no error buffer left unset (docs/security.md). */
static void test_text_not_utf8(void **state)
{
    (void)state;
    response r = http("GET", "/api/variant?name=tests/variants/latin1.ini", NULL);
    if (r.status != 200) fprintf(stderr, "variant: %d %s\n", r.status, r.body);
    assert_int_equal(r.status, 200);
    json_t *v = body_json(&r);
    free(r.body);
    assert_string_equal(json_string_value(json_object_get(v, "title")), "Caf\xc3\xa9 Carcassonne");
    json_decref(v);

    json_t *st = start_game("tests/variants/latin1.ini", "human", "human", 5);
    json_t *d = json_object_get(st, "decision");
    assert_string_equal(json_string_value(json_object_get(d, "label")), "caf\xc3\xa9");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(d, "options"), 0), "text")),
                        "caf\xc3\xa9-1");
    char id[24];
    snprintf(id, sizeof id, "%s", game_id(st));
    json_t *end = play_on(st, 3, 30);
    assert_non_null(end);
    json_decref(end);
    json_t *again = get_state(id);
    assert_record_replays_to(again);
    json_decref(again);

    /* a record whose first player is named in Latin-1, as serve --resume
     * opens it */
    const char *rec = "carcassonne-record 1\nvariant base\nseed 3\nplayer Jos\xe9 human\nplayer Bob greedy\n---\n";
    char err[1024] = "", path[1200];
    int status = 0;
    registry_save_path(path, sizeof path, save_dir, "latin1");
    serve_session *s = session_from_record("latin1.rec", rec, strlen(rec), path, err, sizeof err);
    if (!s) fprintf(stderr, "%s\n", err);
    assert_non_null(s);
    json_t *opened = serve_open_game(s, NULL, true, err, sizeof err, &status);
    assert_non_null(opened);
    json_t *seat0 = json_array_get(json_object_get(opened, "players"), 0);
    assert_string_equal(json_string_value(json_object_get(seat0, "name")), "Jos\xc3\xa9");
    snprintf(id, sizeof id, "%s", game_id(opened));
    json_decref(opened);
    json_t *shown = get_state(id);
    json_t *played = play_on(shown, 8, 6);
    assert_non_null(played);
    json_decref(played);
}

/* A seat's bot comes from the server's own list, and its weights by name
 * from the data directory: no file a client names is opened, and nothing
 * of one comes back (docs/security.md). */
static void test_agents_from_the_list(void **state)
{
    (void)state;
    static const char *const refused[] = {"greedy:eval=/etc/passwd", "greedy:eval=weights/base.ini",
                                          "mcts:100it:eval=../weights/base", "greedy:eval=/dev/zero",
                                          "greedy:eval=.hidden", "random:eval=base", "greedy:trained:bogus"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *body = new_game_body("base", "human", refused[i], 1);
        response r = http("POST", "/api/games", body);
        free(body);
        if (r.status != 400) fprintf(stderr, "%s: %d %s\n", refused[i], r.status, r.body);
        assert_int_equal(r.status, 400);
        assert_non_null(strstr(r.body, "\"error\""));
        assert_null(strstr(r.body, "root")); /* no line of /etc/passwd */
        assert_null(strstr(r.body, "cannot open"));
        assert_null(strstr(r.body, "section"));
        free(r.body);
    }
    /* a shipped weights file by its name plays */
    json_t *st = start_game("base", "human", "greedy:eval=base", 2);
    json_t *end = play_on(st, 4, 10);
    assert_non_null(end);
    assert_record_replays_to(end);
    json_decref(end);
    st = start_game("base", "mcts:50it:trained", "greedy:trained", 2);
    json_decref(st);
}

/* Undo after the game ended is refused: the record of a finished game
 * stays as it is. */
static void test_undo_after_the_end(void **state)
{
    (void)state;
    json_t *end = play_out(start_game("base", "human", "greedy", 51), 9);
    assert_non_null(end);
    assert_true(json_is_true(json_object_get(end, "finished")));
    const char *save = save_of(end);
    char *before = read_file(save), path[160];
    snprintf(path, sizeof path, "/api/games/%s/undo", game_id(end));
    assert_refused(http_seat("POST", path, "{}", person_seat(end)), 409, "over");
    char *after = read_file(save);
    assert_string_equal(before, after);
    json_t *again = get_state(game_id(end));
    assert_true(json_is_true(json_object_get(again, "finished")));
    assert_int_equal(serial_of(again), serial_of(end));
    free(before);
    free(after);
    json_decref(again);
    json_decref(end);
}

/* No page of another site may frame ours: every response says so, the
 * page's files, the API's answers and its refusals alike. */
static void test_not_framed(void **state)
{
    (void)state;
    static const char *const paths[] = {"/", "/carc.js", "/api/variants", "/api/nothing", "/../x"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        response r = http("GET", paths[i], NULL);
        if (!strstr(r.head, "frame-ancestors 'none'") || !strstr(r.head, "X-Frame-Options: DENY"))
            fprintf(stderr, "%s:\n%s\n", paths[i], r.head);
        assert_non_null(strstr(r.head, "frame-ancestors 'none'"));
        assert_non_null(strstr(r.head, "X-Frame-Options: DENY"));
        free(r.body);
    }
    const char *rebind = "GET /api/variants HTTP/1.0\r\nHost: evil.example\r\n\r\n";
    response r = raw_exchange(rebind, strlen(rebind));
    assert_non_null(strstr(r.head, "X-Frame-Options: DENY"));
    free(r.body);
}

/* A second server of the test, on its own free loopback port; `port`
 * points at it until the test puts the first one back. */
static serve_daemon *second_server(serve_config *cfg, int *saved_port)
{
    static char web[1200];
    snprintf(web, sizeof web, "%s/web", carc_data_dir());
    cfg->listen = "127.0.0.1";
    cfg->web_dir = web;
    cfg->save_dir = save_dir;
    char err[512] = "";
    *saved_port = port;
    serve_daemon *d = serve_start(cfg, &port, err, sizeof err);
    if (!d) fprintf(stderr, "%s\n", err);
    assert_non_null(d);
    return d;
}

static response get_with(const char *path, const char *host, const char *extra)
{
    char req[1024];
    snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: %s\r\n%s\r\n", path, host, extra);
    return raw_exchange(req, strlen(req));
}

/* Who may use the server: the Host must name it (loopback names, its
 * address, names allowed) in every mode, and a server that asks for a key
 * answers its API to the key only, given by the cookie the page's address
 * sets or by a bearer header. */
static void test_host_and_key(void **state)
{
    (void)state;
    static const char *const allowed[] = {"carc.example"};
    const char *key = "00112233445566778899aabbccddeeff";
    serve_config cfg = {.needs_key = true, .key = key, .allow_hosts = allowed, .nallow_hosts = 1};
    int first;
    serve_daemon *d = second_server(&cfg, &first);
    char host[64], cookie[128], bearer[128];
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    snprintf(cookie, sizeof cookie, "Cookie: carc_key_%d=%s\r\n", port, key);
    snprintf(bearer, sizeof bearer, "Authorization: Bearer %s\r\n", key);

    /* no key, a wrong one, one a letter short: refused */
    assert_refused(get_with("/api/variants", host, ""), 403, "key");
    assert_refused(get_with("/api/variants", host, "Authorization: Bearer 00112233445566778899aabbccddeef0\r\n"),
                   403, "key");
    assert_refused(get_with("/api/variants", host, "Authorization: Bearer 00112233445566778899aabbccddeef\r\n"),
                   403, "key");
    assert_refused(get_with("/api/games/0123456789abcdef", host, ""), 403, "key");
    /* the key by header or by cookie */
    response r = get_with("/api/variants", host, bearer);
    assert_int_equal(r.status, 200);
    free(r.body);
    r = get_with("/api/variants", host, cookie);
    assert_int_equal(r.status, 200);
    free(r.body);
    /* the page's address with the key sets the cookie and opens the page
     * without it; a wrong key in it is refused */
    char path[128];
    snprintf(path, sizeof path, "/?key=%s", key);
    r = get_with(path, host, "");
    assert_int_equal(r.status, 303);
    char expect[128];
    snprintf(expect, sizeof expect, "Set-Cookie: carc_key_%d=%s; Path=/; HttpOnly; SameSite=Strict", port, key);
    assert_non_null(strstr(r.head, expect));
    assert_non_null(strstr(r.head, "Location: /\r"));
    free(r.body);
    assert_refused(get_with("/?key=ffffffffffffffffffffffffffffffff", host, ""), 403, "not this server's key");
    r = get_with("/", host, ""); /* the page itself is no secret */
    assert_int_equal(r.status, 200);
    free(r.body);
    /* names: a rebinding name is refused even with the key; an allowed
     * name and localhost pass; a port not ours is refused */
    assert_refused(get_with("/api/variants", "evil.example", bearer), 403, "its own names");
    assert_refused(get_with("/", "evil.example", ""), 403, "its own names");
    assert_refused(get_with("/api/variants", "127.0.0.1.evil.example", bearer), 403, "its own names");
    snprintf(host, sizeof host, "carc.example:%d", port);
    r = get_with("/api/variants", host, bearer);
    assert_int_equal(r.status, 200);
    free(r.body);
    r = get_with("/api/variants", "LOCALHOST", bearer);
    assert_int_equal(r.status, 200);
    free(r.body);
    snprintf(host, sizeof host, "carc.example:%d", port + 1);
    assert_refused(get_with("/api/variants", host, bearer), 403, "its own names");
    serve_stop(d);
    port = first;

    /* a loopback server asks for no key, but checks the names as well */
    serve_config local = {0};
    d = second_server(&local, &first);
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    r = get_with("/api/variants", host, "");
    assert_int_equal(r.status, 200);
    free(r.body);
    assert_refused(get_with("/api/variants", "evil.example", ""), 403, "its own names");
    assert_refused(get_with("/?key=00112233445566778899aabbccddeeff", host, ""), 403, "not this server's key");
    serve_stop(d);
    port = first;
}

/* A connection from `source` (a loopback address) to the server. */
static int connect_from(const char *source)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in from = {0}, to = {0};
    from.sin_family = to.sin_family = AF_INET;
    inet_pton(AF_INET, source, &from.sin_addr);
    to.sin_port = htons((uint16_t)port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&from, sizeof from) < 0 ||
        connect(fd, (struct sockaddr *)&to, sizeof to) < 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sends the first `fast` bytes of `req` at once, then the rest a byte at a
 * time, 0.1 s apart (never idle long enough for the idle timeout), until
 * the server answers or closes, or 6 s pass. What came back (status 0 when
 * nothing), and in *took the seconds it took. */
static response trickle(const char *req, size_t fast, double *took)
{
    response r = {0};
    int fd = connect_from("127.0.0.1");
    assert_true(fd >= 0);
    struct timeval tv = {0, 100 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    double t0 = seconds_now();
    char buf[4096];
    size_t len = 0, sent = 0, n = strlen(req);
    bool over = false;
    while (sent < fast) {
        ssize_t k = send(fd, req + sent, fast - sent, MSG_NOSIGNAL);
        assert_true(k > 0);
        sent += (size_t)k;
    }
    while (!over && seconds_now() - t0 < 6) {
        if (sent < n && send(fd, req + sent, 1, MSG_NOSIGNAL) == 1) sent++;
        ssize_t k = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        if (k > 0) len += (size_t)k;
        else if (k == 0) over = true;
    }
    *took = seconds_now() - t0;
    close(fd);
    buf[len] = 0;
    sscanf(buf, "HTTP/1.%*d %d", &r.status);
    char *body = strstr(buf, "\r\n\r\n");
    r.body = strdup(body ? body + 4 : "");
    return r;
}

/* Slow clients hold no one out: 200 connections from one address that send
 * nothing leave room for others (at most `per_address` of them are taken),
 * and a request whose headers or body trickle in is answered 408 and closed
 * at its deadline. */
static void test_slow_clients(void **state)
{
    (void)state;
    serve_config cfg = {.header_seconds = 1, .body_seconds = 1, .per_address = 16};
    int first;
    serve_daemon *d = second_server(&cfg, &first);
    enum { SLOW = 200 };
    int fds[SLOW], held = 0;
    for (int i = 0; i < SLOW; i++) {
        fds[i] = connect_from("127.0.0.2");
        if (fds[i] >= 0) send(fds[i], "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", 34, MSG_NOSIGNAL);
    }
    /* another address is served at once */
    double t0 = seconds_now();
    response r = http("GET", "/api/variants", NULL);
    assert_int_equal(r.status, 200);
    assert_true(seconds_now() - t0 < 1);
    free(r.body);
    /* of the 200, at most 16 were kept; the others were closed */
    for (int i = 0; i < SLOW; i++) {
        char c;
        struct timeval tv = {0, 1000};
        if (fds[i] < 0) continue;
        setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        if (recv(fds[i], &c, 1, 0) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) held++; /* still open */
    }
    if (held > 16) fprintf(stderr, "%d slow connections from one address held\n", held);
    assert_true(held <= 16);
    for (int i = 0; i < SLOW; i++)
        if (fds[i] >= 0) close(fds[i]);
    /* headers a byte at a time after the request's first line: 408 at
     * about the deadline */
    double took;
    char req[256];
    snprintf(req, sizeof req, "GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: %s\r\n\r\n", port,
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    r = trickle(req, (size_t)(strstr(req, "\r\n") + 2 - req), &took); /* the first line at once */
    if (r.status != 408) fprintf(stderr, "slow headers: %d after %.1f s: %s\n", r.status, took, r.body);
    assert_int_equal(r.status, 408);
    assert_non_null(strstr(r.body, "headers took longer than 1 s"));
    assert_true(took < 3);
    free(r.body);
    /* a body a byte at a time: the same */
    snprintf(req, sizeof req,
             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
             "Content-Length: 100\r\n\r\n{\"variant\": \"base\", \"seats\": [{\"name\": \"A\", \"agent\": \"human\"}, "
             "{\"name\": \"B\", \"agent\": \"human\"}]}     ",
             port);
    r = trickle(req, (size_t)(strstr(req, "\r\n\r\n") + 4 - req), &took);
    if (r.status != 408) fprintf(stderr, "slow body: %d after %.1f s: %s\n", r.status, took, r.body);
    assert_int_equal(r.status, 408);
    assert_non_null(strstr(r.body, "body took longer than 1 s"));
    assert_true(took < 3);
    free(r.body);
    /* a connection that never begins a request is closed at the same
     * deadline, without a word (a browser keeps such connections for later) */
    r = trickle("", 0, &took);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.body, "");
    assert_true(took > 0.9 && took < 3);
    free(r.body);
    /* the server serves on */
    r = http("GET", "/api/variants", NULL);
    assert_int_equal(r.status, 200);
    free(r.body);
    serve_stop(d);
    port = first;
}

static bool finished(json_t *st) { return json_is_true(json_object_get(st, "finished")); }

/* Whether the state's score breakdown has points of `reason`. */
static bool has_reason(json_t *st, const char *reason)
{
    json_t *reasons = json_object_get(json_object_get(st, "breakdown"), "reasons");
    for (size_t i = 0; i < json_array_size(reasons); i++) {
        const char *name = json_string_value(json_array_get(reasons, i));
        if (name && strcmp(name, reason) == 0) return true;
    }
    return false;
}

/* Two games of different compositions at once, each with its own rules
 * object in this process: road-closer's reason has another id in each
 * (inns-cathedrals defines two reasons before it). Played move by move in
 * turn, both reach their end with road-closer points, and replay to the
 * scores the server showed. */
static void test_compositions_side_by_side(void **state)
{
    (void)state;
    json_t *a = start_game("house/road-closer", "human", "human", 51);
    json_t *b = start_game("inns-cathedrals+house/road-closer", "human", "human", 52);
    unsigned sa = 3, sb = 4;
    while (!finished(a) || !finished(b)) {
        if (!finished(a)) assert_non_null(a = play_on(a, sa++, 1));
        if (!finished(b)) assert_non_null(b = play_on(b, sb++, 1));
    }
    json_t *both[] = {a, b};
    for (int i = 0; i < 2; i++) {
        assert_string_equal(json_string_value(json_object_get(both[i], "failed")), "");
        if (!has_reason(both[i], "road-closer")) fail_msg("game %d: no road-closer points", i);
        assert_record_replays_to(both[i]);
        json_decref(both[i]);
    }
}

/* GET /api/agents is the list of agent kinds the command knows (agents.h),
 * in its order, and every kind it offers makes an agent, with each example
 * setting it gives. */
static void test_agents_are_the_commands_list(void **state)
{
    (void)state;
    response r = http("GET", "/api/agents", NULL);
    assert_int_equal(r.status, 200);
    json_t *j = body_json(&r);
    free(r.body);
    json_t *list = json_object_get(j, "agents");
    assert_int_equal((int)json_array_size(list), agent_nkinds);
    for (int k = 0; k < agent_nkinds; k++) {
        json_t *one = json_array_get(list, (size_t)k);
        const char *name = json_string_value(json_object_get(one, "name"));
        assert_non_null(name);
        assert_string_equal(name, agent_kinds[k].name);
        assert_non_null(json_string_value(json_object_get(one, "help")));
        char err[512];
        agent *a = agent_create(name, 1, 0, err, sizeof err);
        assert_non_null(a);
        agent_free(a);
        const char *settings = json_string_value(json_object_get(one, "settings"));
        if (!settings) continue;
        char copy[256];
        snprintf(copy, sizeof copy, "%s", settings);
        for (char *save = NULL, *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            if (t[0] == '(') continue; /* "(default)" */
            char spec[300];
            snprintf(spec, sizeof spec, "%s:%s", name, t);
            a = agent_create(spec, 1, 0, err, sizeof err);
            if (!a) fail_msg("GET /api/agents offers %s: %s", spec, err);
            agent_free(a);
        }
    }
    json_decref(j);
}

/* The one conversion of text to valid UTF-8 (json_io.h): valid text
 * unchanged; each byte of anything else (Latin-1, overlong forms,
 * surrogates, code points past U+10FFFF, cut sequences) read as Latin-1
 * from 0xA0, else as U+FFFD. */
static void test_text_utf8_conversion(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"plain ASCII", "plain ASCII"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1"},
        {"Jos\xe9", "Jos\xc3\xa9"},
        {"\xff\xa0", "\xc3\xbf\xc2\xa0"},
        {"a\x80" "b\x9f", "a\xef\xbf\xbd" "b\xef\xbf\xbd"},
        {"\xc0\xaf", "\xc3\x80\xc2\xaf"},                            /* overlong '/' */
        {"\xed\xa0\x80", "\xc3\xad\xc2\xa0\xef\xbf\xbd"},           /* a surrogate */
        {"\xf4\x90\x80\x80", "\xc3\xb4\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* past U+10FFFF */
        {"cut \xe2\x82", "cut \xc3\xa2\xef\xbf\xbd"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = text_utf8(cases[i][0]);
        assert_non_null(out);
        assert_string_equal(out, cases[i][1]);
        json_t *j = json_text(cases[i][0]); /* jansson takes it: it is valid UTF-8 */
        assert_non_null(j);
        assert_string_equal(json_string_value(j), cases[i][1]);
        json_decref(j);
        free(out);
    }
    json_t *j = json_text(NULL);
    assert_string_equal(json_string_value(j), "");
    json_decref(j);
}

/* A game whose record would pass what a reader accepts stops before it,
 * with the message; the move is refused, no later move is taken, and the
 * record saved is the one before, which replays (the limit lowered here to
 * reach it in a few moves: the server's is CARC_RECORD_MAX_BYTES). */
static void test_record_limit_stops_the_game(void **state)
{
    (void)state;
    session_setup su = {.variant = "base", .seed = 4, .nplayers = 2, .names = {"A", "B"}, .agents = {"human", "human"}};
    char err[2048] = "", path[1200];
    registry_save_path(path, sizeof path, save_dir, "limit");
    serve_session *s = session_new(&su, path, err, sizeof err);
    if (!s) fail_msg("%s", err);
    int status = 0;
    json_t *opened = serve_open_game(s, NULL, true, err, sizeof err, &status); /* the registry's now */
    assert_non_null(opened);
    json_decref(opened);
    s->max_line_bytes = s->line_bytes + 120;
    int moves = 0, rc = 0;
    while (rc == 0 && moves < 100) {
        rc = session_choose(s, session_serial(s), 0, err, sizeof err, &status);
        if (rc == 0) moves++;
    }
    assert_int_equal(rc, -1);
    assert_true(moves > 0 && moves < 100);
    assert_non_null(strstr(err, "would pass what a reader accepts"));
    assert_non_null(strstr(s->failed, "would pass what a reader accepts"));
    assert_true(s->line_bytes <= s->max_line_bytes);
    int lines = s->nlines;
    assert_int_equal(session_choose(s, session_serial(s), 0, err, sizeof err, &status), -1);
    assert_int_equal(status, 409);
    /* the saved record holds every line the session kept, and replays */
    carc_record rec;
    assert_int_equal(carc_record_load(path, &rec, err, sizeof err), 0);
    assert_int_equal(rec.nlines, lines);
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    assert_non_null(rules);
    carc_game *g = NULL;
    assert_int_equal(carc_replay(&rec, rules, &g, err, sizeof err), 0);
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
}

/* The game a state's saved record replays to (the caller frees it and rec). */
static carc_game *replayed(json_t *st, carc_record *rec, carc_rules **rules)
{
    char err[8192];
    assert_int_equal(carc_record_load(save_of(st), rec, err, sizeof err), 0);
    *rules = carc_record_rules(rec, err, sizeof err);
    assert_non_null(*rules);
    carc_game *g = NULL;
    assert_int_equal(carc_replay(rec, *rules, &g, err, sizeof err), 0);
    return g;
}

/* Each option's feature is every segment of the kernel's feature at the
 * option's segment (each of the feature's kind), on the game the record
 * replays to. */
static int check_features(json_t *st)
{
    json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
    int checked = 0;
    carc_record rec;
    carc_rules *rules = NULL;
    carc_game *g = NULL;
    for (size_t i = 0; i < json_array_size(opts); i++) {
        json_t *t = json_object_get(json_array_get(opts, i), "target"), *f = json_object_get(t, "feature");
        int seg = (int)json_integer_value(json_object_get(t, "seg"));
        const char *kind = json_string_value(json_object_get(t, "kind"));
        if (!f) {
            /* a figure on a segment of a placed tile always has one */
            assert_false(strcmp(kind, "figure") == 0 && seg >= 0 && json_object_get(t, "figure"));
            continue;
        }
        if (!g) g = replayed(st, &rec, &rules);
        int tile = carc_tile_index_at(g, (int)json_integer_value(json_object_get(t, "x")),
                                      (int)json_integer_value(json_object_get(t, "y")));
        assert_true(tile >= 0);
        int root = carc_feature_of(g, tile, seg);
        json_t *segs = json_object_get(f, "segs");
        size_t k = 0;
        bool has_target = false;
        for (int ti = 0; ti < carc_tiles_placed(g); ti++)
            for (int si = 0; si < carc_segment_count(g, ti); si++) {
                if (carc_feature_of(g, ti, si) != root) continue;
                json_t *one = json_array_get(segs, k++);
                assert_non_null(one);
                assert_int_equal(json_integer_value(json_object_get(one, "tile")), ti);
                assert_int_equal(json_integer_value(json_object_get(one, "seg")), si);
                assert_string_equal(carc_kind_name(rules, carc_segment_kind(g, ti, si)),
                                    json_string_value(json_object_get(f, "kind")));
                has_target |= ti == tile && si == seg;
            }
        assert_int_equal(k, json_array_size(segs));
        assert_true(has_target);
        assert_int_equal(json_is_true(json_object_get(f, "complete")), carc_feature_complete(g, root) == 1);
        checked++;
    }
    if (g) {
        carc_game_free(g);
        carc_rules_free(rules);
        carc_record_free(&rec);
    }
    return checked;
}

static int option_points(json_t *st, int k, int seat)
{
    json_t *o = json_array_get(json_object_get(json_object_get(st, "decision"), "options"), (size_t)k);
    json_t *pts = json_object_get(json_object_get(o, "target"), "points");
    if (!pts) fprintf(stderr, "'%s' has no points\n", json_string_value(json_object_get(o, "text")));
    assert_non_null(pts); /* every option of a game with no script is tried */
    return (int)json_integer_value(json_array_get(pts, (size_t)seat));
}

static int score_of(json_t *st, int seat)
{
    return (int)json_integer_value(json_object_get(json_array_get(json_object_get(st, "players"), (size_t)seat), "score"));
}

static int pass_option(json_t *st)
{
    json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
    for (size_t i = 0; i < json_array_size(opts); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(opts, i), "text")), "pass") == 0) return (int)i;
    return -1;
}

/* The points an option's preview shows are the points the move scores when
 * it is made: a figure's (deploy, pass, the dragon, the princess) at once,
 * a tile's place with "pass" after it; the features it lights are the
 * kernel's. Two people play the whole game through the API. */
static void preview_game(const char *variant, int seed, int moves, int *nonzero, int *features)
{
    json_t *st = start_game(variant, "human", "human", seed);
    unsigned r = (unsigned)seed;
    for (int m = 0; m < moves && !json_is_true(json_object_get(st, "finished")); m++) {
        *features += check_features(st);
        json_t *opts = json_object_get(json_object_get(st, "decision"), "options");
        r = r * 1103515245u + 12345u;
        int k = (int)((r >> 8) % json_array_size(opts)), status;
        /* half the time, a move that shows points when there is one */
        for (size_t i = 0; (r & 0x200) && i < json_array_size(opts); i++) {
            json_t *pts = json_object_get(json_object_get(json_array_get(opts, i), "target"), "points");
            for (size_t p = 0; p < json_array_size(pts); p++)
                if (json_integer_value(json_array_get(pts, p)) != 0) k = (int)i;
        }
        const char *text = json_string_value(json_object_get(json_array_get(opts, (size_t)k), "text"));
        bool place = strncmp(text, "place ", 6) == 0;
        int seat = (int)json_integer_value(json_object_get(json_object_get(st, "decision"), "seat"));
        int want[CARC_MAX_PLAYERS], before[CARC_MAX_PLAYERS], np = (int)json_array_size(json_object_get(st, "players"));
        for (int p = 0; p < np; p++) want[p] = option_points(st, k, p), before[p] = score_of(st, p);
        json_t *next = move(st, k, &status);
        assert_non_null(next);
        json_decref(st);
        st = next;
        bool same_turn = !json_is_true(json_object_get(st, "finished")) &&
                         json_integer_value(json_object_get(json_object_get(st, "decision"), "seat")) == seat;
        if (place) {
            /* the preview of a place is the tile's with no figure on it;
             * every other turn the figure is chosen as the rest are */
            int pass = same_turn && (r & 0x100) ? pass_option(st) : -1;
            if (pass < 0) continue;
            next = move(st, pass, &status);
            assert_non_null(next);
            json_decref(st);
            st = next;
        }
        if (json_is_true(json_object_get(st, "finished"))) break; /* final scoring is no move's */
        for (int p = 0; p < np; p++) {
            if (score_of(st, p) - before[p] != want[p])
                fprintf(stderr, "%s seed %d: '%s' previewed %d for seat %d, scored %d\n", variant, seed, text, want[p], p,
                        score_of(st, p) - before[p]);
            assert_int_equal(score_of(st, p) - before[p], want[p]);
            *nonzero += want[p] != 0;
        }
    }
    json_decref(st);
}

static void test_previews_are_what_moves_score(void **state)
{
    (void)state;
    int nonzero = 0, features = 0;
    preview_game("base", 61, 1000, &nonzero, &features);
    preview_game("inns-cathedrals", 62, 100, &nonzero, &features);
    preview_game("prophet", 63, 100, &nonzero, &features);
    fprintf(stderr, "previews: %d moves scored what they showed, %d features\n", nonzero, features);
    assert_true(nonzero >= 10);
    assert_true(features >= 50);
}

/* The figure on offer is drawn in the deciding seat's colour; a script's
 * options that put its one figure kind somewhere (the fairy, the robber)
 * name it; a script's options are not tried (no points). */
static void test_figures_on_offer(void **state)
{
    (void)state;
    json_t *st = start_game("all-expansions", "human", "human", 64);
    int followers = 0, fairies = 0, robbers = 0;
    for (int guard = 0; guard < 400 && !json_is_true(json_object_get(st, "finished")); guard++) {
        json_t *d = json_object_get(st, "decision"), *opts = json_object_get(d, "options");
        const char *colour = json_string_value(json_object_get(
            json_array_get(json_object_get(st, "players"), (size_t)json_integer_value(json_object_get(d, "seat"))), "colour"));
        for (size_t i = 0; i < json_array_size(opts); i++) {
            json_t *t = json_object_get(json_array_get(opts, i), "target");
            const char *text = json_string_value(json_object_get(json_array_get(opts, i), "text"));
            const char *fig = json_string_value(json_object_get(t, "figure")), *icon = json_string_value(json_object_get(t, "icon"));
            if (strncmp(text, "deploy follower ", 16) == 0) {
                assert_string_equal(fig, "follower");
                assert_non_null(icon);
                assert_non_null(strstr(icon, colour));
                assert_non_null(strstr(icon, "<path"));
                followers++;
            } else if (strncmp(text, "fairy ", 6) == 0) {
                assert_string_equal(fig, "fairy");
                assert_non_null(icon);
                assert_null(json_object_get(t, "points")); /* a script's option: not tried */
                fairies++;
            } else if (strncmp(text, "robber ", 7) == 0) {
                assert_string_equal(fig, "robber");
                assert_non_null(strstr(icon, colour));
                robbers++;
            }
            if (strncmp(text, "place ", 6) == 0) assert_null(json_object_get(t, "icon"));
        }
        st = play_on(st, (unsigned)guard + 5, 1);
        assert_non_null(st);
    }
    json_decref(st);
    assert_true(followers > 20 && fairies > 0 && robbers > 0);
}

/* Each seat's last move: the bot's last tile is where its last `place`
 * line put it; its figure, when its last turn put one, stands there. */
static void test_last_moves(void **state)
{
    (void)state;
    json_t *st = start_game("base", "human", "greedy", 65);
    int checked = 0, figures = 0;
    for (int guard = 0; guard < 60 && !json_is_true(json_object_get(st, "finished")); guard++) {
        st = play_on(st, (unsigned)guard + 1, 1);
        assert_non_null(st);
        json_t *log = json_object_get(st, "log"), *last = json_array_get(json_object_get(st, "last_moves"), 1);
        const char *place = NULL, *after = NULL;
        for (size_t i = 0; i < json_array_size(log); i++) {
            json_t *e = json_array_get(log, i);
            if (strcmp(json_string_value(json_object_get(e, "kind")), "move") != 0 ||
                json_integer_value(json_object_get(e, "seat")) != 1)
                continue;
            const char *text = json_string_value(json_object_get(e, "text"));
            if (strncmp(text, "place ", 6) == 0) place = text, after = NULL;
            else after = text;
        }
        json_t *tile = json_object_get(last, "tile");
        if (!place) {
            assert_null(tile);
            continue;
        }
        int x, y;
        const char *at = strchr(place, ','); /* "place [SET:ID ]X,Y rROT" */
        assert_non_null(at);
        while (at > place && at[-1] != ' ') at--;
        assert_int_equal(sscanf(at, "%d,%d", &x, &y), 2);
        assert_non_null(tile);
        assert_int_equal(json_integer_value(json_object_get(tile, "x")), x);
        assert_int_equal(json_integer_value(json_object_get(tile, "y")), y);
        json_t *fig = json_object_get(last, "figure");
        if (after && strncmp(after, "deploy ", 7) == 0 && fig) figures++;
        if (after && strcmp(after, "pass") == 0) assert_null(fig);
        checked++;
    }
    json_decref(st);
    assert_true(checked > 20 && figures > 0);
}

/* The tiles left by type: the set's counts less the tiles on the board and
 * the drawn one, adding up to the pile; the rules pages of the modules. */
static void test_tiles_left_and_rules_pages(void **state)
{
    (void)state;
    json_t *st = start_game("base+robbers+fairy", "human", "greedy", 66);
    st = play_on(st, 3, 12);
    assert_non_null(st);
    char path[160], err[512];
    snprintf(path, sizeof path, "/api/games/%s/tiles", game_id(st));
    response r = http("GET", path, NULL);
    assert_int_equal(r.status, 200);
    json_t *tiles = body_json(&r);
    free(r.body);
    carc_record rec;
    carc_rules *rules;
    carc_game *g = replayed(st, &rec, &rules);
    int on_board[512] = {0}, total = 0;
    for (int i = 0; i < carc_tiles_placed(g); i++) {
        int x, y, rot, type;
        carc_tile_at_index(g, i, &x, &y, &rot, &type);
        on_board[type]++;
    }
    if (carc_last_drawn(g) >= 0 && !carc_is_finished(g)) on_board[carc_last_drawn(g)]++;
    json_t *types = json_object_get(tiles, "types");
    size_t k = 0;
    for (int type = 0; type < carc_tile_types(rules); type++) {
        int left = carc_tile_count(rules, type) - on_board[type];
        if (left <= 0) continue;
        json_t *one = json_array_get(types, k++);
        char name[160];
        snprintf(name, sizeof name, "%s:%s", carc_tile_set_of(rules, type), carc_tile_id(rules, type));
        assert_string_equal(json_string_value(json_object_get(one, "type")), name);
        assert_int_equal(json_integer_value(json_object_get(one, "left")), left);
        assert_non_null(strstr(json_string_value(json_object_get(one, "svg")), "<path"));
        total += left;
    }
    assert_int_equal(k, json_array_size(types));
    assert_int_equal(total, json_integer_value(json_object_get(tiles, "pile_left")));
    assert_int_equal(total, carc_pile_left(g));
    /* counts only: nothing of the pile's order (the seed's next draws) */
    assert_null(json_object_get(tiles, "pile"));
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    json_decref(tiles);

    json_t *mods = json_object_get(st, "modules");
    assert_int_equal(json_array_size(mods), 3);
    const char *names[] = {"base", "robbers", "fairy"};
    for (size_t i = 0; i < 3; i++) {
        json_t *m = json_array_get(mods, i);
        assert_string_equal(json_string_value(json_object_get(m, "name")), names[i]);
        snprintf(path, sizeof path, "%s/docs/%s.md", carc_data_dir(), names[i]);
        assert_int_equal(json_is_true(json_object_get(m, "doc")), access(path, R_OK) == 0);
    }
    r = http("GET", "/api/docs/robbers", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "text/markdown"));
    assert_int_equal(strncmp(r.body, "# The Robbers", 13), 0);
    free(r.body);
    assert_refused(http("GET", "/api/docs/..%2Fweb%2Findex", NULL), 400, "not the name of a rules page");
    assert_refused(http("GET", "/api/docs/../README", NULL), 400, "rules page");
    assert_refused(http("GET", "/api/docs/Robbers", NULL), 400, "not the name of a rules page");
    assert_refused(http("GET", "/api/docs/no-such-module", NULL), 404, "no rules page");
    (void)err;
    json_decref(st);
}

/* ---- seats that belong to people, live pages, the database ----------------------------- */

/* The secrets in a new game's links: host, spectator, and seat p's. */
typedef struct game_links {
    char id[24], host[40], spectator[40], seat[CARC_MAX_PLAYERS][40];
} game_links;

static void links_of(json_t *st, game_links *l)
{
    memset(l, 0, sizeof *l);
    json_t *links = json_object_get(st, "links"), *one;
    assert_non_null(links);
    snprintf(l->id, sizeof l->id, "%s", game_id(st));
    snprintf(l->host, sizeof l->host, "%s", strstr(json_string_value(json_object_get(links, "host")), "&key=") + 5);
    snprintf(l->spectator, sizeof l->spectator, "%s",
             strstr(json_string_value(json_object_get(links, "spectator")), "&key=") + 5);
    size_t i;
    json_array_foreach(json_object_get(links, "seats"), i, one) {
        int p = (int)json_integer_value(json_object_get(one, "seat"));
        snprintf(l->seat[p], sizeof l->seat[p], "%s", strstr(json_string_value(json_object_get(one, "link")), "&key=") + 5);
        assert_int_equal((int)strlen(l->seat[p]), 32); /* 128 bits in hex */
    }
}

/* Nothing of the future in a response while the game is played: no seed,
 * no pile order. */
static void assert_no_future(const response *r)
{
    if (r->body && (strstr(r->body, "\"seed\"") || strstr(r->body, "seed ") || strstr(r->body, "\"pile\"")))
        fprintf(stderr, "the future in a response: %.300s\n", r->body);
    assert_null(strstr(r->body ? r->body : "", "\"seed\""));
    assert_null(strstr(r->body ? r->body : "", "seed "));
    assert_null(strstr(r->body ? r->body : "", "\"pile\""));
}

/* The state after a request by key; NULL unless 200 (status in *status). */
static json_t *act(const char *id, const char *action, const char *body, const char *key, int *status)
{
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s%s%s", id, *action ? "/" : "", action);
    response r = http_key(body ? "POST" : "GET", path, body, key);
    if (strcmp(action, "end") != 0) assert_no_future(&r);
    *status = r.status;
    json_t *j = r.status == 200 || r.status == 202 ? body_json(&r) : NULL;
    if (!j && r.status != 403 && r.status != 409 && r.status != 400) fprintf(stderr, "%s: %d %s\n", path, r.status, r.body);
    free(r.body);
    return j;
}

/* Plays the pending decision: the person whose seat it is with their own
 * secret (option k), or a bot stepped by a person. The new state. */
static json_t *seat_move(json_t *st, const game_links *l, int k)
{
    json_t *d = json_object_get(st, "decision");
    int seat = (int)json_integer_value(json_object_get(d, "seat")), status;
    char body[96];
    if (json_is_true(json_object_get(d, "human"))) {
        snprintf(body, sizeof body, "{\"serial\": %d, \"option\": %d}", serial_of(st),
                 k % (int)json_array_size(json_object_get(d, "options")));
        json_t *next = act(l->id, "choose", body, l->seat[seat], &status);
        assert_int_equal(status, 200);
        return next;
    }
    snprintf(body, sizeof body, "{\"serial\": %d}", serial_of(st));
    json_t *next = act(l->id, "step", body, l->seat[0], &status);
    assert_int_equal(status, 200);
    return next;
}

/* Two people and a bot, each person with their own link (rule of
 * docs/serve.md "Playing with friends"): a seat's secret moves that seat
 * only; the spectators' and the host's move none; nothing of the future
 * in any response while the game is played; undo when both people ask;
 * the host hands an absent seat to a bot and back, and ends the game; the
 * seed and the record are shown at the end and replay to the scores. */
static void test_seats_belong_to_people(void **state)
{
    (void)state;
    response r = http("POST", "/api/games",
                      "{\"variant\": \"base+robbers+fairy\", \"seed\": 77, \"seats\": [{\"name\": \"Ann\", \"agent\": "
                      "\"human\"}, {\"name\": \"Bob\", \"agent\": \"human\"}, {\"name\": \"Cy\", \"agent\": "
                      "\"greedy\"}]}");
    assert_int_equal(r.status, 201);
    assert_no_future(&r);
    json_t *st = body_json(&r);
    free(r.body);
    game_links l;
    links_of(st, &l);
    assert_string_equal(l.seat[2], ""); /* a bot's seat has no link */
    assert_string_not_equal(l.seat[0], l.seat[1]);
    assert_int_equal((int)json_integer_value(json_object_get(json_object_get(st, "decision"), "seat")), 0);
    int status;
    char body[96];
    /* the other seat's secret, the spectators', the host's, a made-up one: refused */
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": 0}", serial_of(st));
    json_t *no = act(l.id, "choose", body, l.seat[1], &status);
    assert_null(no);
    assert_int_equal(status, 403);
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s/choose", l.id);
    assert_refused(http_key("POST", path, body, l.seat[1]), 403, "Ann");
    assert_refused(http_key("POST", path, body, l.spectator), 403, "spectator");
    assert_refused(http_key("POST", path, body, l.host), 403, "seat's own link");
    /* the spectator reads */
    json_t *seen = act(l.id, "", NULL, l.spectator, &status);
    assert_int_equal(status, 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(seen, "you"), "role")), "spectator");
    assert_null(json_object_get(seen, "links"));
    json_decref(seen);
    /* the record holds the seed: not while two people play */
    snprintf(path, sizeof path, "/api/games/%s/record", l.id);
    assert_refused(http_key("GET", path, NULL, l.seat[0]), 403, "seed");
    assert_refused(http_key("GET", path, NULL, l.host), 403, "seed");
    /* a few turns, each by its own seat */
    for (int i = 0; i < 12; i++) {
        json_t *next = seat_move(st, &l, i);
        json_decref(st);
        st = next;
    }
    /* undo: Ann asks, it waits for Bob; Bob asks, it is done */
    int before = serial_of(st);
    json_t *u = act(l.id, "undo", "{}", l.seat[0], &status);
    assert_int_equal(status, 202);
    assert_int_equal(serial_of(u), before);
    assert_int_equal((int)json_array_size(json_object_get(u, "undo_votes")), 1);
    json_decref(u);
    assert_null(act(l.id, "undo", "{}", l.spectator, &status));
    assert_int_equal(status, 403);
    u = act(l.id, "undo", "{}", l.seat[1], &status);
    assert_int_equal(status, 200);
    assert_true(serial_of(u) < before);
    json_decref(st);
    st = u;
    /* the host hands Bob's seat to a bot: it plays there; Bob's secret no longer moves */
    assert_null(act(l.id, "seat", "{\"seat\": 1, \"agent\": \"greedy\"}", l.seat[0], &status));
    assert_int_equal(status, 403);
    json_t *h = act(l.id, "seat", "{\"seat\": 1, \"agent\": \"greedy\"}", l.host, &status);
    assert_int_equal(status, 200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(h, "players"), 1), "standin")),
                        "greedy");
    json_decref(h);
    assert_null(act(l.id, "seat", "{\"seat\": 2, \"agent\": \"random\"}", l.host, &status)); /* a bot's seat */
    assert_int_equal(status, 400);
    json_decref(st);
    st = act(l.id, "", NULL, l.seat[0], &status);
    for (int guard = 0; guard < 40; guard++) { /* on to Bob's seat, played by the bot */
        json_t *d = json_object_get(st, "decision");
        if (json_integer_value(json_object_get(d, "seat")) == 1) break;
        json_t *next = seat_move(st, &l, guard);
        json_decref(st);
        st = next;
    }
    json_t *d = json_object_get(st, "decision");
    assert_int_equal((int)json_integer_value(json_object_get(d, "seat")), 1);
    assert_false(json_is_true(json_object_get(d, "human")));
    snprintf(body, sizeof body, "{\"serial\": %d, \"option\": 0}", serial_of(st));
    assert_null(act(l.id, "choose", body, l.seat[1], &status));
    assert_int_equal(status, 409);
    json_t *next = seat_move(st, &l, 0); /* the bot moves for Bob */
    json_decref(st);
    st = next;
    json_decref(act(l.id, "seat", "{\"seat\": 1, \"agent\": \"human\"}", l.host, &status));
    assert_int_equal(status, 200);
    /* both agree the host may see the seed: then the record */
    json_decref(act(l.id, "reveal", "{}", l.seat[0], &status));
    assert_refused(http_key("GET", path, NULL, l.host), 403, "seed");
    json_decref(act(l.id, "reveal", "{}", l.seat[1], &status));
    r = http_key("GET", path, NULL, l.host);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "seed 77"));
    free(r.body);
    assert_refused(http_key("GET", path, NULL, l.seat[1]), 403, "seed"); /* the host's alone */
    /* the host ends the game: final scoring; the seed and record for all */
    assert_null(act(l.id, "end", "{}", l.seat[1], &status));
    assert_int_equal(status, 403);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%s/end", l.id);
    r = http_key("POST", path, "{}", l.host);
    assert_int_equal(r.status, 200);
    st = body_json(&r);
    free(r.body);
    assert_true(json_is_true(json_object_get(st, "finished")));
    snprintf(path, sizeof path, "/api/games/%s", l.id);
    r = http_key("GET", path, NULL, l.seat[1]);
    json_t *last = body_json(&r);
    free(r.body);
    assert_int_equal(json_integer_value(json_object_get(last, "seed")), 77);
    json_decref(last);
    snprintf(path, sizeof path, "/api/games/%s/record", l.id);
    r = http_key("GET", path, NULL, l.spectator);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\nend\n"));
    assert_null(strstr(r.body, l.seat[0])); /* no secret in a record */
    assert_null(strstr(r.body, l.host));
    free(r.body);
    assert_record_replays_to(st);
    json_decref(st);
}

/* A connection reading a game's live stream: the events as they come. */
typedef struct live {
    int fd;
    char buf[1 << 16];
    size_t len;
} live;

static void live_open(live *lv, const char *id, const char *key, int last_event)
{
    memset(lv, 0, sizeof *lv);
    lv->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(lv->fd, (struct sockaddr *)&a, sizeof a), 0);
    struct timeval tv = {10, 0};
    setsockopt(lv->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[512], last[64] = "";
    if (last_event >= 0) snprintf(last, sizeof last, "Last-Event-ID: %d\r\n", last_event);
    int n = snprintf(req, sizeof req, "GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Carc-Key: %s\r\n%s\r\n",
                     id, port, key, last);
    assert_int_equal(send(lv->fd, req, (size_t)n, MSG_NOSIGNAL), n);
}

/* Waits (at most 10 s) for an event whose id is at least `id`; its text
 * (in lv->buf, until the next call). */
static const char *live_event(live *lv, int id)
{
    for (;;) {
        char want[32];
        snprintf(want, sizeof want, "\nid: %d\n", id);
        char *hit = NULL;
        for (int k = id; k < id + 400 && !hit; k++) {
            snprintf(want, sizeof want, "id: %d\n", k);
            hit = strstr(lv->buf, want);
        }
        if (hit && strstr(hit, "\n\n")) return hit;
        ssize_t n = recv(lv->fd, lv->buf + lv->len, sizeof lv->buf - lv->len - 1, 0);
        if (n <= 0) {
            fprintf(stderr, "no event %d in: %s\n", id, lv->buf);
            return NULL;
        }
        lv->len += (size_t)n;
        lv->buf[lv->len] = 0;
    }
}

/* Every page sees each move as it happens: an event per change, its id the
 * record's line count, with the log's new entries; a page that reconnects
 * with Last-Event-ID gets what it missed. A stream without the game's
 * secret is refused. */
static void test_live_events(void **state)
{
    (void)state;
    response r = http("POST", "/api/games",
                      "{\"variant\": \"base\", \"seed\": 31, \"seats\": [{\"name\": \"Ann\", \"agent\": \"human\"}, "
                      "{\"name\": \"Bob\", \"agent\": \"human\"}]}");
    assert_int_equal(r.status, 201);
    json_t *st = body_json(&r);
    free(r.body);
    game_links l;
    links_of(st, &l);
    live spectator, ann;
    live_open(&spectator, l.id, l.spectator, -1);
    live_open(&ann, l.id, l.seat[0], -1);
    int first = serial_of(st);
    assert_non_null(live_event(&spectator, first));
    assert_non_null(strstr(spectator.buf, "HTTP/1.1 200"));
    assert_non_null(strstr(spectator.buf, "text/event-stream"));
    assert_non_null(live_event(&ann, first));
    /* Ann places her tile: both pages see the move's line */
    json_t *next = seat_move(st, &l, 0);
    json_decref(st);
    st = next;
    const char *text = json_string_value(json_object_get(json_array_get(json_object_get(st, "log"), 1), "text"));
    assert_non_null(text);
    const char *ev = live_event(&spectator, first + 1);
    assert_non_null(ev);
    assert_non_null(strstr(ev, text));
    assert_non_null(strstr(live_event(&ann, first + 1), text));
    /* the spectator's page sleeps; three moves later it comes back from the last event it saw */
    close(spectator.fd);
    int seen = serial_of(st);
    for (int i = 0; i < 3; i++) {
        next = seat_move(st, &l, i + 1);
        json_decref(st);
        st = next;
    }
    live_open(&spectator, l.id, l.spectator, seen);
    ev = live_event(&spectator, serial_of(st));
    assert_non_null(ev);
    json_t *log = json_object_get(st, "log"), *e;
    size_t i;
    json_array_foreach(log, i, e) /* every entry it missed is in the catch-up */
        if (json_integer_value(json_object_get(e, "serial")) > seen)
            assert_non_null(strstr(spectator.buf, json_string_value(json_object_get(e, "text"))));
    assert_no_future(&(response){.body = spectator.buf});
    close(spectator.fd);
    close(ann.fd);
    /* on a server that asks for its key, a game's link opens that game
     * (its state, its stream) and nothing else; no secret, or a wrong one,
     * opens nothing */
    serve_config cfg = {.needs_key = true, .key = "00112233445566778899aabbccddeeff"};
    int first_port;
    serve_daemon *d = second_server(&cfg, &first_port);
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s/events", l.id);
    assert_refused(http_key("GET", path, NULL, "00000000000000000000000000000000"), 403, "links only");
    assert_refused(http_key("GET", path, NULL, NULL), 403, "links only");
    assert_refused(http_key("GET", path, NULL, l.seat[0] + 1), 403, "links only"); /* a digit short */
    snprintf(path, sizeof path, "/api/games/%s", l.id);
    assert_refused(http_key("GET", path, NULL, NULL), 403, "links only");
    assert_refused(http_key("GET", "/api/games/0123456789abcdef", NULL, l.seat[0]), 403, "links only");
    assert_refused(http_key("GET", "/api/lobby", NULL, l.host), 403, "key");
    response ok = http_key("GET", path, NULL, l.seat[1]);
    assert_int_equal(ok.status, 200);
    free(ok.body);
    live_open(&ann, l.id, l.seat[0], serial_of(st));
    assert_non_null(live_event(&ann, serial_of(st)));
    close(ann.fd);
    serve_stop(d);
    port = first_port;
    json_decref(st);
}

/* A game let go from memory (or of before a restart) is played again from
 * the database: the same position, and it plays on. */
static void test_games_come_back_from_the_database(void **state)
{
    (void)state;
    json_t *st = play_on(start_game("base", "human", "greedy", 64), 5, 9);
    assert_non_null(st);
    char *log = json_dumps(json_object_get(st, "log"), JSON_SORT_KEYS);
    char id[24];
    snprintf(id, sizeof id, "%s", game_id(st));
    registry_clear(); /* every game out of memory, as after a restart */
    json_t *again = get_state(id);
    assert_int_equal(serial_of(again), serial_of(st));
    char *log2 = json_dumps(json_object_get(again, "log"), JSON_SORT_KEYS);
    assert_string_equal(log, log2);
    free(log);
    free(log2);
    json_t *end = play_out(again, 3);
    assert_non_null(end);
    assert_true(json_is_true(json_object_get(end, "finished")));
    assert_record_replays_to(end);
    /* the lobby lists it, finished, with its seats and scores */
    response r = http("GET", "/api/lobby", NULL);
    assert_int_equal(r.status, 200);
    json_t *lobby = body_json(&r);
    free(r.body);
    json_t *g;
    size_t i;
    bool found = false;
    json_array_foreach(json_object_get(lobby, "games"), i, g) {
        if (strcmp(json_string_value(json_object_get(g, "id")), id) != 0) continue;
        found = true;
        assert_true(json_is_true(json_object_get(g, "finished")));
        json_t *seats = json_object_get(g, "seats");
        assert_int_equal((int)json_array_size(seats), 2);
        for (int p = 0; p < 2; p++)
            assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, (size_t)p), "score")),
                             json_integer_value(json_object_get(json_array_get(json_object_get(end, "players"), (size_t)p), "score")));
    }
    assert_true(found);
    json_decref(lobby);
    json_decref(end);
    json_decref(st);
}

int main(void)
{
    test_tmp_subdir(save_dir, sizeof save_dir, "saves");
    char db[1200], dberr[512];
    snprintf(db, sizeof db, "%s/games.db", save_dir);
    if (store_open(db, false, dberr, sizeof dberr) < 0) {
        fprintf(stderr, "%s\n", dberr);
        return 1;
    }
    char web[1200];
    snprintf(web, sizeof web, "%s/web", carc_data_dir());
    serve_config cfg = {.listen = "127.0.0.1", .web_dir = web, .save_dir = save_dir};
    char err[512];
    serve_daemon *d = serve_start(&cfg, &port, err, sizeof err);
    if (!d) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifty_games_at_once),
        cmocka_unit_test(test_hostile_requests),
        cmocka_unit_test(test_undo),
        cmocka_unit_test(test_load_record),
        cmocka_unit_test(test_every_option_has_a_place),
        cmocka_unit_test(test_composition),
        cmocka_unit_test(test_corner_targets),
        cmocka_unit_test(test_text_utf8_conversion),
        cmocka_unit_test(test_text_not_utf8),
        cmocka_unit_test(test_agents_from_the_list),
        cmocka_unit_test(test_undo_after_the_end),
        cmocka_unit_test(test_not_framed),
        cmocka_unit_test(test_host_and_key),
        cmocka_unit_test(test_slow_clients),
        cmocka_unit_test(test_compositions_side_by_side),
        cmocka_unit_test(test_agents_are_the_commands_list),
        cmocka_unit_test(test_record_limit_stops_the_game),
        cmocka_unit_test(test_previews_are_what_moves_score),
        cmocka_unit_test(test_figures_on_offer),
        cmocka_unit_test(test_last_moves),
        cmocka_unit_test(test_tiles_left_and_rules_pages),
        cmocka_unit_test(test_seats_belong_to_people),
        cmocka_unit_test(test_live_events),
        cmocka_unit_test(test_games_come_back_from_the_database),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    serve_stop(d);
    registry_clear();
    store_close();
    return rc; /* the saves go with the temporary folder */
}
