/* serve_http.c - carc serve's HTTP requests (serve_http.h): routing, bounded
 * bodies, JSON in and out, the page's files. */
#include "serve_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "json_io.h"
#include "serve_access.h"
#include "serve_events.h"
#include "serve_registry.h"
#include "serve_docs.h"
#include "serve_seats.h"
#include "serve_state.h"
#include "serve_store.h"
#include "serve_watch.h"

struct serve_daemon {
    struct MHD_Daemon *mhd;
    serve_config cfg;
    int port;
    serve_access *access;
    serve_watch *watch;
    bool stopping;        /* its live streams end (serve_events.h) */
};

static const char *const no_key =
    "this server asks for its key: open the address carc serve printed when it started (it ends in "
    "?key=...), or send the header Authorization: Bearer KEY; a game's own link opens that game";

static const char *const links_only =
    "this game is open to its links only: open the link you were given (it ends in #game=ID&key=...), or "
    "the server's own address with its key";

/* One request: its body as it arrives, up to its limit. */
typedef struct request {
    char *body;
    size_t len, cap, limit;
    bool too_big;
    bool headers_in;      /* the handler has seen the headers */
} request;

typedef struct reply {
    struct MHD_Response *custom; /* a response made by the route (a live stream), sent as it is */
    int status;
    char *body;           /* malloc'd */
    size_t len;
    const char *type;
    char disposition[160];
    char location[160];   /* a redirect's target */
    char cookie[160];     /* Set-Cookie */
} reply;

static void reply_json(reply *r, int status, json_t *j)
{
    r->status = status;
    r->type = "application/json";
    r->body = j ? json_dumps(j, JSON_COMPACT) : NULL;
    if (!r->body) {
        r->status = 500;
        r->body = strdup("{\"error\":\"out of memory\"}");
    }
    r->len = r->body ? strlen(r->body) : 0;
    json_decref(j);
}

static void reply_error(reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply_error(reply *r, int status, const char *fmt, ...)
{
    char msg[1024] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    reply_json(r, status, json_pack("{s:o}", "error", json_text(msg))); /* messages quote files' text */
}

/* ---- the page's files ------------------------------------------------------------ */

static const char *content_type(const char *name)
{
    static const char *const types[][2] = {{".html", "text/html; charset=utf-8"},
                                           {".js", "text/javascript; charset=utf-8"},
                                           {".css", "text/css; charset=utf-8"},
                                           {".png", "image/png"},
                                           {".svg", "image/svg+xml"},
                                           {".ico", "image/x-icon"}};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcmp(dot, types[i][0]) == 0) return types[i][1];
    return NULL;
}

/* The page's address with ?key=KEY: the key becomes a cookie and the page
 * is opened again without it, so it stays out of the address bar, the
 * history and any link. The cookie goes to this server's pages only
 * (SameSite=Strict: a request another site makes carries none). */
static bool key_in_address(reply *r, const serve_daemon *d, const char *url, const char *key)
{
    if (!key) return false;
    if (!access_key_known(d->access, key)) {
        reply_error(r, 403, "that is not this server's key: open the address carc serve printed when it started");
        return true;
    }
    char name[40];
    access_cookie_name(name, sizeof name, d->port);
    snprintf(r->cookie, sizeof r->cookie, "%s=%s; Path=/; HttpOnly; SameSite=Strict", name, key);
    snprintf(r->location, sizeof r->location, "%.100s", url);
    r->status = 303;
    r->type = "text/plain; charset=utf-8";
    r->body = strdup("");
    r->len = 0;
    return true;
}

/* A file of the web folder by its plain name: letters, digits, '-', '_' and
 * one '.' before a known extension; no folder, no "..", no hidden file. */
static void static_file(reply *r, const serve_config *cfg, const char *url)
{
    const char *name = strcmp(url, "/") == 0 ? "index.html" : url + 1;
    size_t n = strlen(name), dots = 0;
    bool ok = n > 0 && n < 64 && name[0] != '.';
    for (size_t i = 0; ok && i < n; i++) {
        char c = name[i];
        dots += c == '.';
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
             c == '.';
    }
    const char *type = ok && dots == 1 ? content_type(name) : NULL;
    if (!type) {
        reply_error(r, 400, "'%.80s' is not a file of the page (plain names only: no folders, no '..')", url);
        return;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", cfg->web_dir, name);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > 16 * 1024 * 1024) {
        if (fd >= 0) close(fd);
        reply_error(r, 404, "no file '%s' in the page's folder", name);
        return;
    }
    r->body = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (r->body && got < (size_t)st.st_size) {
        ssize_t k = read(fd, r->body + got, (size_t)st.st_size - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    close(fd);
    if (!r->body || got != (size_t)st.st_size) {
        free(r->body);
        r->body = NULL;
        reply_error(r, 500, "cannot read %s", name);
        return;
    }
    r->status = 200;
    r->len = got;
    r->type = type;
}

/* ---- JSON requests ------------------------------------------------------------------- */

static json_t *parse_body(reply *r, const request *q)
{
    json_error_t e;
    json_t *j = json_loadb(q->body ? q->body : "", q->len, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        reply_error(r, 400, "the body is not JSON: line %d column %d: %s", e.line, e.column, e.text);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        reply_error(r, 400, "the body must be a JSON object");
        return NULL;
    }
    return j;
}

/* An integer field; false with a 400 when it is missing or not one. */
static bool int_field(reply *r, json_t *o, const char *key, long long min, long long max, long long *out)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        reply_error(r, 400, "\"%s\" must be a whole number from %lld to %lld", key, min, max);
        return false;
    }
    *out = json_integer_value(v);
    return true;
}

/* A variant by name as the page may ask for it: a shipped variant or a
 * composition of modules, never a path. */
static bool variant_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 200 || s[0] == '/' || s[0] == '.' || strstr(s, "..") || strstr(s, "//")) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_+/.", c)))
            return false;
    }
    return true;
}

static void list_variants(reply *r)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    char *names[256];
    int n = variant_names(dir, names, 256);
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        char err[512] = "";
        carc_rules *rules = carc_variant_load(names[i], NULL, 0, err, sizeof err);
        if (rules)
            json_array_append_new(a, json_pack("{s:o, s:o}", "name", json_text(names[i]), "title",
                                               json_text(carc_rules_title(rules))));
        carc_rules_free(rules);
        free(names[i]);
    }
    reply_json(r, 200, json_pack("{s:o}", "variants", a));
}

static void describe_variant(reply *r, const char *name)
{
    if (!name || !variant_name_ok(name)) {
        reply_error(r, 400, "give ?name= a variant's name (letters, digits, - _ + / .; not a path)");
        return;
    }
    char err[2048] = "";
    int status = 400;
    json_t *j = serve_variant_json(name, err, sizeof err, &status);
    if (!j) reply_error(r, status, "%s", err);
    else reply_json(r, 200, j);
}

static void list_agents(reply *r) { reply_json(r, 200, serve_agents_json()); }

/* The persons' seats (agent "human", a bot standing in or not), as a bit set. */
static unsigned person_seats(const serve_session *s)
{
    unsigned m = 0;
    for (int p = 0; p < s->nplayers; p++)
        if (strcmp(s->agents[p], "human") == 0) m |= 1u << p;
    return m;
}

/* The persons present: their seats with no bot standing in. */
static unsigned voters(const serve_session *s)
{
    unsigned m = 0;
    for (int p = 0; p < s->nplayers; p++)
        if (session_is_human(s, p)) m |= 1u << p;
    return m;
}

/* Whether the seed and the record may be shown to this caller: once the
 * game is over; while it is played, to a game of at most one person, or to
 * the host once every person present agreed (POST reveal). */
static bool future_shown(const serve_session *s, game_caller who)
{
    if (carc_is_finished(s->g) || s->failed[0]) return true;
    unsigned persons = person_seats(s);
    if ((persons & (persons - 1)) == 0) return who.role == ROLE_HOST || who.role == ROLE_SEAT;
    return who.role == ROLE_HOST && (s->reveal_votes & voters(s)) == voters(s);
}

static json_t *votes_json(unsigned votes, const serve_session *s)
{
    json_t *a = json_array();
    for (int p = 0; p < s->nplayers; p++)
        if (votes & (1u << p)) json_array_append_new(a, json_integer(p));
    return a;
}

/* A game's state as the caller may see it: nothing of the future (the
 * seed) while the game is played, the record's file to the host only, the
 * links to share to the host only; `you` says who the caller is. */
static void reply_game_state(reply *r, int status, const serve_session *s, game_caller who)
{
    json_t *j = serve_state_json(s);
    if (!j) {
        reply_error(r, 500, "out of memory");
        return;
    }
    if (!future_shown(s, who)) json_object_del(j, "seed");
    if (who.role != ROLE_HOST) json_object_del(j, "save");
    static const char *const roles[] = {"none", "spectator", "seat", "host"};
    json_t *you = json_pack("{s:s}", "role", roles[who.role]);
    if (who.role == ROLE_SEAT) json_object_set_new(you, "seat", json_integer(who.seat));
    json_object_set_new(j, "you", you);
    if (who.role == ROLE_HOST) json_object_set_new(j, "links", seats_links(s));
    json_t *players = json_object_get(j, "players");
    for (int p = 0; p < s->nplayers; p++) {
        json_t *pl = json_array_get(players, (size_t)p);
        json_object_set_new(pl, "person", json_boolean(strcmp(s->agents[p], "human") == 0));
        json_object_set_new(pl, "standin", json_text(s->standin[p]));
    }
    json_object_set_new(j, "undo_votes",
                        votes_json(s->undo_serial == s->nlines ? s->undo_votes : 0, s));
    json_object_set_new(j, "reveal_votes", votes_json(s->reveal_votes, s));
    json_object_set_new(j, "generation", json_integer(s->generation));
    reply_json(r, status, j);
}

static int max_games; /* games in progress a server holds (serve_config.max_games; 0: no limit) */

json_t *serve_open_game(serve_session *s, const char *id, bool new_file, char *err, size_t errn, int *status)
{
    if (id) snprintf(s->id, sizeof s->id, "%s", id);
    else registry_new_id(s->id, sizeof s->id);
    /* The state first: a game the page could not be shown is neither saved
     * nor served. */
    json_t *state = serve_state_json(s);
    *status = 500;
    int active = store_count_active();
    if (!state) snprintf(err, errn, "out of memory");
    else if (max_games > 0 && active >= max_games) {
        snprintf(err, errn,
                 "this server holds %d games in progress, its limit (carc serve --max-games): finish or end one "
                 "first",
                 active);
        *status = 503;
        json_decref(state);
        state = NULL;
    } else if (seats_make_secrets(s, err, errn) < 0 || session_save(s, err, errn) < 0 ||
               store_save(s, err, errn) < 0) {
        json_decref(state);
        state = NULL;
    } else if (registry_add(s, err, errn) < 0) {
        if (new_file) unlink(s->save); /* a record resumed stays */
        json_decref(state);
        state = NULL;
        *status = 503;
    }
    if (!state) session_free(s);
    return state;
}

/* A new game's reply: 201 and its state, or the reason it cannot be played. */
static void add_game(reply *r, serve_session *s, const char *id)
{
    char err[1024] = "";
    int status = 500;
    json_t *state = serve_open_game(s, id, true, err, sizeof err, &status);
    if (!state) {
        reply_error(r, status, "%s", err);
        return;
    }
    /* the creator is the host: the state as the host sees it, and the links to share */
    json_decref(state);
    serve_session *g = registry_take(id);
    if (!g) reply_error(r, 500, "the new game is gone");
    else {
        reply_game_state(r, 201, g, (game_caller){ROLE_HOST, -1});
        registry_give(g);
    }
}

static void new_game(reply *r, const serve_config *cfg, const request *q)
{
    json_t *j = parse_body(r, q);
    if (!j) return;
    session_setup su = {0};
    char overrides[SESSION_MAX_OPTIONS][200];
    json_t *variant = json_object_get(j, "variant"), *seats = json_object_get(j, "seats"),
           *options = json_object_get(j, "options");
    if (!json_is_string(variant) || !variant_name_ok(json_string_value(variant))) {
        reply_error(r, 400, "\"variant\" must be a variant's name (letters, digits, - _ + / .; not a path)");
        goto out;
    }
    su.variant = json_string_value(variant);
    if (!json_is_array(seats) || json_array_size(seats) < 1 || json_array_size(seats) > CARC_MAX_PLAYERS) {
        reply_error(r, 400, "\"seats\" must be a list of 1 to %d seats", CARC_MAX_PLAYERS);
        goto out;
    }
    su.nplayers = (int)json_array_size(seats);
    for (int p = 0; p < su.nplayers; p++) {
        json_t *seat = json_array_get(seats, (size_t)p), *name = json_object_get(seat, "name"),
               *agent = json_object_get(seat, "agent");
        if (!json_is_string(name) || !json_is_string(agent)) {
            reply_error(r, 400, "seat %d must be {\"name\": text, \"agent\": \"human\" or a bot}", p + 1);
            goto out;
        }
        su.names[p] = json_string_value(name);
        su.agents[p] = json_string_value(agent);
    }
    if (options && !json_is_object(options)) {
        reply_error(r, 400, "\"options\" must be an object of option: value");
        goto out;
    }
    const char *key;
    json_t *val;
    json_object_foreach(options, key, val) {
        if (su.noptions == SESSION_MAX_OPTIONS) {
            reply_error(r, 400, "at most %d options", SESSION_MAX_OPTIONS);
            goto out;
        }
        if (json_is_string(val))
            snprintf(overrides[su.noptions], sizeof overrides[0], "%.80s=%.100s", key, json_string_value(val));
        else if (json_is_integer(val))
            snprintf(overrides[su.noptions], sizeof overrides[0], "%.80s=%lld", key, (long long)json_integer_value(val));
        else {
            reply_error(r, 400, "option '%.80s' must be a text or a whole number", key);
            goto out;
        }
        if (strchr(key, '=')) {
            reply_error(r, 400, "option '%.80s': a key has no '='", key);
            goto out;
        }
        su.options[su.noptions] = overrides[su.noptions];
        su.noptions++;
    }
    long long seed = 0;
    if (json_object_get(j, "seed")) {
        if (!int_field(r, j, "seed", 0, (long long)9007199254740991LL, &seed)) goto out;
        su.seed = (uint64_t)seed;
    } else su.seed = clock_seed();
    char id[24], path[1200], err[4096] = "";
    registry_new_id(id, sizeof id);
    registry_save_path(path, sizeof path, cfg->save_dir, id);
    serve_session *s = session_new(&su, path, err, sizeof err);
    if (!s) {
        reply_error(r, 400, "%s", err);
        goto out;
    }
    add_game(r, s, id);
out:
    json_decref(j);
}

static void load_game(reply *r, const serve_config *cfg, const request *q)
{
    json_t *j = parse_body(r, q), *rec;
    if (!j) return;
    if (!json_is_string(rec = json_object_get(j, "record"))) {
        reply_error(r, 400, "\"record\" must be the text of a game record");
    } else {
        char id[24], path[1200], err[8192] = "";
        registry_new_id(id, sizeof id);
        registry_save_path(path, sizeof path, cfg->save_dir, id);
        serve_session *s = session_from_record("the loaded record", json_string_value(rec), json_string_length(rec),
                                               path, err, sizeof err);
        if (!s) reply_error(r, 400, "%s", err);
        else add_game(r, s, id);
    }
    json_decref(j);
}

/* After a change the game is committed before it is acknowledged: a move
 * the database refused is not answered 200 (the game stops here; the
 * server, started again, goes on from the last move stored). Then its
 * pages are woken. */
static int commit_change(serve_session *s, char *err, size_t errn, int *status)
{
    if (store_save(s, err, errn) < 0) {
        snprintf(s->failed, sizeof s->failed, "%s", err);
        *status = 500;
        return -1;
    }
    events_changed(s->id, s->nlines, s->generation);
    return 0;
}

static const char *const role_names[] = {"nobody", "a spectator", "a seat", "the host"};

/* POST undo: with one person present it is done; with several, each
 * person asks, and the move is taken back when all have asked for the
 * same position (a move in between starts the count again). */
static int undo_vote(serve_session *s, game_caller who, bool *done, char *err, size_t errn, int *status)
{
    *done = false;
    *status = 403;
    if (who.role != ROLE_SEAT || !session_is_human(s, who.seat)) {
        snprintf(err, errn, "undo is asked from a person's seat (its own link), not by %s", role_names[who.role]);
        return -1;
    }
    if (s->undo_serial != s->nlines) s->undo_votes = 0;
    s->undo_serial = s->nlines;
    s->undo_votes |= 1u << who.seat;
    if ((s->undo_votes & voters(s)) != voters(s)) return 0;
    s->undo_votes = 0;
    *done = true;
    return session_undo(s, err, errn, status);
}

/* POST seat {"seat", "agent"}: the host hands a person's seat to a bot of
 * the server's list, or back to the person ("human"). */
static int seat_change(reply *r, serve_session *s, json_t *j, char *err, size_t errn, int *status)
{
    long long seat;
    json_t *agent_v = json_object_get(j, "agent");
    *status = 400;
    if (!int_field(r, j, "seat", 0, s->nplayers - 1, &seat)) return -2;
    if (!json_is_string(agent_v)) {
        snprintf(err, errn, "\"agent\" must be \"human\" (the person takes the seat back) or a bot");
        return -1;
    }
    if (strcmp(s->agents[seat], "human") != 0) {
        snprintf(err, errn, "seat %lld is a bot's (%s), not a person's", seat + 1, s->agents[seat]);
        return -1;
    }
    const char *spec = json_string_value(agent_v);
    if (strcmp(spec, "human") == 0) {
        s->standin[seat][0] = 0;
        return 0;
    }
    if (!session_agent_ok(spec, (int)seat, err, errn)) return -1;
    snprintf(s->standin[seat], sizeof s->standin[seat], "%s", spec);
    return 0;
}

/* POST /api/games/ID/ACTION with the session taken. */
static void game_action(reply *r, serve_session *s, const char *action, const request *q, game_caller who)
{
    char err[4096] = "";
    int status = 400, rc = 0;
    long long serial = 0, option = 0;
    json_t *j = NULL;
    bool needs_serial = strcmp(action, "choose") == 0 || strcmp(action, "step") == 0;
    if (!needs_serial && q->len == 0) j = json_object(); /* undo, reveal, end: no body needed */
    else if (!(j = parse_body(r, q))) return;
    if (needs_serial && !int_field(r, j, "serial", 0, 1 << 30, &serial)) goto out;
    if (who.role == ROLE_SPECTATOR) {
        reply_error(r, 403, "a spectator's link reads the game and moves nothing");
        goto out;
    }
    if (strcmp(action, "choose") == 0) {
        if (!int_field(r, j, "option", -(1LL << 31), (1LL << 31) - 1, &option)) goto out;
        int seat = carc_is_finished(s->g) ? -1 : carc_decision_player(s->g);
        if (who.role != ROLE_SEAT) {
            reply_error(r, 403, "a move is made with its seat's own link (the host's moves no seat)");
            goto out;
        }
        if (seat >= 0 && seat != who.seat && session_is_human(s, seat) && (int)serial == s->nlines) {
            reply_error(r, 403, "this link is %s's seat; the move is %s's", s->names[who.seat], s->names[seat]);
            goto out;
        }
        if (seat >= 0 && seat != who.seat && (int)serial == s->nlines && !session_is_human(s, seat)) {
            reply_error(r, 409, "it is %s's turn, a bot (%s)", s->names[seat],
                        s->standin[seat][0] ? s->standin[seat] : s->agents[seat]);
            goto out;
        }
        rc = session_choose(s, (int)serial, (int)option, err, sizeof err, &status);
    } else if (strcmp(action, "step") == 0) {
        rc = session_bot_step(s, (int)serial, err, sizeof err, &status);
    } else if (strcmp(action, "undo") == 0) {
        bool done;
        rc = undo_vote(s, who, &done, err, sizeof err, &status);
        if (rc == 0 && !done) {
            reply_game_state(r, 202, s, who); /* waiting for the others */
            events_changed(s->id, s->nlines, s->generation);
            goto out;
        }
    } else if (strcmp(action, "reveal") == 0) {
        if (who.role != ROLE_SEAT) {
            reply_error(r, 403, "the seed is revealed when every person agrees, each from their own seat's link");
            goto out;
        }
        s->reveal_votes |= 1u << who.seat;
        events_changed(s->id, s->nlines, s->generation);
        reply_game_state(r, 200, s, who);
        goto out;
    } else if (strcmp(action, "seat") == 0 || strcmp(action, "end") == 0) {
        if (who.role != ROLE_HOST) {
            reply_error(r, 403, "only the host (the host's link) may %s",
                        action[0] == 's' ? "hand a seat to a bot or back" : "end the game");
            goto out;
        }
        if (action[0] == 's') {
            rc = seat_change(r, s, j, err, sizeof err, &status);
            if (rc == -2) goto out;
        } else rc = session_end(s, err, sizeof err, &status);
    } else {
        reply_error(r, 404, "no action '%.40s' (choose, step, undo, reveal, seat, end, claim)", action);
        goto out;
    }
    if (rc == 0) rc = commit_change(s, err, sizeof err, &status);
    if (rc < 0) reply_error(r, status, "%s", err);
    else reply_game_state(r, 200, s, who);
out:
    json_decref(j);
}

/* GET /api/docs/NAME: a module's rules page as Markdown text (the page
 * shows it as text: no HTML from the file is ever run). */
static void rules_page(reply *r, const char *name)
{
    char err[512];
    int status;
    size_t len;
    char *text = serve_doc_text(name, &len, err, sizeof err, &status);
    if (!text) {
        reply_error(r, status, "%s", err);
        return;
    }
    r->status = 200;
    r->body = text;
    r->len = len;
    r->type = "text/markdown; charset=utf-8";
}

static void record_download(reply *r, const serve_session *s, game_caller who)
{
    if (!future_shown(s, who)) {
        reply_error(r, 403,
                    "the record holds the seed, which decides the tiles still to come: it is given when the game "
                    "is over, or to the host once every person agreed (POST /api/games/ID/reveal)");
        return;
    }
    size_t len;
    char *text = session_record_text(s, &len);
    if (!text) {
        reply_error(r, 500, "out of memory");
        return;
    }
    r->status = 200;
    r->body = text;
    r->len = len;
    r->type = "text/plain; charset=utf-8";
    snprintf(r->disposition, sizeof r->disposition, "attachment; filename=\"carc-%s.rec\"", s->id);
}

static bool id_ok(const char *id, size_t n)
{
    if (n != 16) return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789abcdef", id[i])) return false;
    return true;
}

/* The game with this id, locked: in memory, or played again from the
 * database (a game let go, or one of before a restart). NULL when none. */
static serve_session *take_game(const char *id, char *err, size_t errn)
{
    serve_session *s = registry_take(id);
    if (s || !store_enabled()) return s;
    s = store_load(id, err, errn);
    if (!s) return NULL;
    return registry_take_or_add(s, err, errn);
}

/* The secret a request gives for game id: X-Carc-Key, else the game's
 * cookie. NULL when none. */
static const char *game_secret(struct MHD_Connection *c, const char *id)
{
    const char *k = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Carc-Key");
    if (k) return k;
    char name[48];
    seats_cookie_name(name, sizeof name, id);
    return MHD_lookup_connection_value(c, MHD_COOKIE_KIND, name);
}

/* POST claim: the page opened from a link keeps its secret as the game's
 * cookie (HttpOnly, this server's pages only), so its live stream, which
 * sends no header of its own, carries it too. */
static void claim(reply *r, const serve_session *s, game_caller who, const char *secret)
{
    if (who.role == ROLE_NONE || !secret) {
        reply_error(r, 403, "that is not a link of this game");
        return;
    }
    char name[48];
    seats_cookie_name(name, sizeof name, s->id);
    snprintf(r->cookie, sizeof r->cookie, "%s=%.40s; Path=/api/games/%s; HttpOnly; SameSite=Strict", name, secret,
             s->id);
    reply_game_state(r, 200, s, who);
}

/* ---- live streams (serve_events.h) ------------------------------------------------------ */

/* One page following a game: what it saw last, and the bytes of the
 * event being sent. */
typedef struct stream {
    const bool *stopping; /* the server's */
    char id[24];
    char address[64];
    bool server_caller;
    char secret[SESSION_SECRET_CHARS + 1];
    int serial;               /* the record lines the page has seen (its Last-Event-ID) */
    unsigned generation;
    bool started;
    double deadline;          /* it ends then: the page reconnects with its Last-Event-ID */
    char *out;                /* an event not yet taken by the connection */
    size_t off, len;
} stream;

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The event for what the page has not seen: the log's entries since its
 * serial (all of them after a takeback it missed), the new serial as the
 * event's id. 0; -1 when the game is gone or the secret no longer opens it. */
static int stream_event(stream *st)
{
    char err[512] = "";
    serve_session *s = take_game(st->id, err, sizeof err);
    if (!s) return -1;
    game_caller who = seats_caller(s, st->secret[0] ? st->secret : NULL, st->server_caller);
    if (who.role == ROLE_NONE) {
        registry_give(s);
        return -1;
    }
    bool restart = st->started && st->generation != s->generation;
    if (st->serial > s->nlines) restart = true; /* lines the page saw were taken back */
    int since = restart ? -1 : st->serial;
    json_t *entries = json_array();
    for (size_t i = 0; i < json_array_size(s->log); i++) {
        json_t *e = json_array_get(s->log, i);
        if (json_integer_value(json_object_get(e, "serial")) > since) json_array_append(entries, e);
    }
    int seat = carc_is_finished(s->g) ? -1 : carc_decision_player(s->g);
    json_t *j = json_pack("{s:i, s:i, s:b, s:b, s:i, s:o, s:o}", "serial", s->nlines, "generation", s->generation,
                          "restart", restart, "finished", carc_is_finished(s->g), "seat", seat, "undo_votes",
                          votes_json(s->undo_serial == s->nlines ? s->undo_votes : 0, s), "entries", entries);
    st->serial = s->nlines;
    st->generation = s->generation;
    st->started = true;
    registry_give(s);
    char *data = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!data) return -1;
    free(st->out);
    st->out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&st->out, &n);
    if (!f) {
        free(data);
        return -1;
    }
    fprintf(f, "id: %d\nevent: game\ndata: %s\n\n", st->serial, data);
    fclose(f);
    free(data);
    st->off = 0;
    st->len = n;
    return st->out ? 0 : -1;
}

/* The stream's bytes, as the connection asks for them. Blocks (each
 * connection has its own thread) until the game changes, a keep-alive is
 * due, or the stream's time is over. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    stream *st = cls;
    (void)pos;
    while (st->off == st->len) {
        double left = st->deadline - mono_now();
        if (left <= 0) return MHD_CONTENT_READER_END_OF_STREAM;
        if (!st->started) {
            if (stream_event(st) < 0) return MHD_CONTENT_READER_END_WITH_ERROR;
            continue;
        }
        int serial = st->serial;
        unsigned gen = st->generation;
        int rc = events_wait(st->id, &serial, &gen, left < SERVE_KEEPALIVE_SECONDS ? left : SERVE_KEEPALIVE_SECONDS,
                             st->stopping);
        if (rc < 0) return MHD_CONTENT_READER_END_OF_STREAM;
        if (rc == 0) { /* a comment keeps proxies and the idle timeout from closing a quiet stream */
            free(st->out);
            st->out = strdup(": keep-alive\n\n");
            st->off = 0;
            st->len = st->out ? strlen(st->out) : 0;
            if (!st->out) return MHD_CONTENT_READER_END_WITH_ERROR;
        } else if (stream_event(st) < 0) return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = st->len - st->off < max ? st->len - st->off : max;
    memcpy(buf, st->out + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    stream *st = cls;
    events_close(st->address);
    free(st->out);
    explicit_bzero(st->secret, sizeof st->secret);
    free(st);
}

/* The client's address, as text, for the limits per address. */
static void client_address(struct MHD_Connection *c, char *buf, size_t n)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(buf, n, "?");
    if (!i || !i->client_addr) return;
    if (i->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)i->client_addr)->sin_addr, buf, (socklen_t)n);
    else if (i->client_addr->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)i->client_addr)->sin6_addr, buf, (socklen_t)n);
}

/* GET /api/games/ID/events: the game's changes as server-sent events, from
 * the Last-Event-ID the page gives (a reconnect) or from now. */
static void live_stream(reply *r, const serve_daemon *d, struct MHD_Connection *c, const char *id,
                        bool server_caller)
{
    char err[512] = "";
    serve_session *s = take_game(id, err, sizeof err);
    if (!s) {
        if (server_caller) reply_error(r, 404, "no game '%s' on this server", id);
        else reply_error(r, 403, "%s", links_only);
        return;
    }
    const char *secret = game_secret(c, id);
    game_caller who = seats_caller(s, secret, server_caller);
    int serial = s->nlines;
    registry_give(s);
    if (who.role == ROLE_NONE) {
        reply_error(r, 403, "%s", links_only);
        return;
    }
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (last) {
        char *end;
        long v = strtol(last, &end, 10);
        if (end == last || *end || v < 0 || v > (1 << 30)) {
            reply_error(r, 400, "Last-Event-ID must be an event's id (a number of record lines)");
            return;
        }
        serial = (int)v;
    }
    stream *st = calloc(1, sizeof *st);
    if (!st) {
        reply_error(r, 500, "out of memory");
        return;
    }
    client_address(c, st->address, sizeof st->address);
    int total = d->cfg.max_streams ? d->cfg.max_streams : SERVE_MAX_STREAMS;
    int per = d->cfg.streams_per_address ? d->cfg.streams_per_address : SERVE_MAX_STREAMS_PER_ADDRESS;
    if (!events_open(st->address, total, per)) {
        free(st);
        reply_error(r, 503,
                    "too many live pages: at most %d in all and %d from one address (close a tab; the page "
                    "still plays, reloading by hand)",
                    total, per);
        return;
    }
    st->stopping = &d->stopping;
    snprintf(st->id, sizeof st->id, "%s", id);
    snprintf(st->secret, sizeof st->secret, "%s", secret && strlen(secret) <= SESSION_SECRET_CHARS ? secret : "");
    st->server_caller = server_caller;
    st->serial = serial;
    st->deadline = mono_now() + (d->cfg.stream_seconds > 0 ? d->cfg.stream_seconds : SERVE_STREAM_SECONDS);
    r->custom = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
    if (!r->custom) {
        stream_free(st);
        reply_error(r, 500, "out of memory");
        return;
    }
    MHD_add_response_header(r->custom, "Content-Type", "text/event-stream");
    MHD_add_response_header(r->custom, "X-Accel-Buffering", "no"); /* a proxy passes each event on at once */
    r->status = 200;
}

/* /api/games/ID[/ACTION]. server_caller: the request holds the server's
 * access, which hosts every game. */
static void game_route(reply *r, const serve_daemon *d, struct MHD_Connection *c, const char *rest, bool post,
                       const request *q, bool server_caller)
{
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    char id[24], err[2048] = "";
    if (!id_ok(rest, n)) {
        reply_error(r, 404, "no game '%.40s' (a game's id is 16 hex digits)", rest);
        return;
    }
    memcpy(id, rest, n);
    id[n] = 0;
    const char *action = slash ? slash + 1 : "";
    if (!post && strcmp(action, "events") == 0) {
        live_stream(r, d, c, id, server_caller);
        return;
    }
    serve_session *s = take_game(id, err, sizeof err);
    if (!s && !server_caller) /* which games exist is the server's own business */
        reply_error(r, 403, "%s", links_only);
    else if (!s && err[0]) reply_error(r, 500, "the game %s cannot be played again from the database: %s", id, err);
    else if (!s) reply_error(r, 404, "no game '%s' on this server", id);
    if (!s) return;
    const char *secret = game_secret(c, id);
    game_caller who = seats_caller(s, secret, server_caller);
    if (who.role == ROLE_NONE)
        reply_error(r, 403, "%s", links_only);
    else if (!post && !*action) reply_game_state(r, 200, s, who);
    else if (!post && strcmp(action, "record") == 0) record_download(r, s, who);
    else if (!post && strcmp(action, "tiles") == 0) reply_json(r, 200, serve_tiles_left_json(s));
    else if (post && strcmp(action, "claim") == 0) claim(r, s, who, secret);
    else if (post && *action) game_action(r, s, action, q, who);
    else reply_error(r, 405, "%s /api/games/ID/%.40s is not a request of the API", post ? "POST" : "GET", action);
    registry_give(s);
}

/* GET /api/lobby: the games of the database, in progress and finished. */
static void lobby(reply *r)
{
    char err[512] = "";
    json_t *j = store_lobby(SERVE_LOBBY_GAMES, err, sizeof err);
    if (!j) reply_error(r, 500, "%s", err[0] ? err : "out of memory");
    else {
        json_object_set_new(j, "stored", json_boolean(store_enabled()));
        reply_json(r, 200, j);
    }
}

/* Whether the url is a game's (/api/games/ID...): a game's link opens it
 * without the server's key. */
static bool game_url(const char *url) { return strncmp(url, "/api/games/", 11) == 0 && strlen(url) >= 27; }

static void route(reply *r, const serve_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                  const request *q, bool server_caller)
{
    const serve_config *cfg = &d->cfg;
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0, post = strcmp(method, "POST") == 0;
    if (!get && !post) {
        reply_error(r, 405, "%.20s is not used here (GET and POST)", method);
        return;
    }
    if (post) { /* JSON only: a form on another site cannot post it */
        const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
        if (!ct || strncmp(ct, "application/json", 16) != 0) {
            reply_error(r, 415, "POST bodies are JSON (Content-Type: application/json)");
            return;
        }
    }
    if (strncmp(url, "/api/", 5) != 0) {
        if (get && key_in_address(r, d, url, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "key"))) return;
        if (get) static_file(r, cfg, url);
        else reply_error(r, 405, "POST goes to /api/...");
        return;
    }
    const char *api = url + 5;
    if (!server_caller && !game_url(url)) {
        reply_error(r, 403, "%s", no_key);
        return;
    }
    if (get && strcmp(api, "variants") == 0) list_variants(r);
    else if (get && strcmp(api, "variant") == 0)
        describe_variant(r, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "name"));
    else if (get && strcmp(api, "agents") == 0) list_agents(r);
    else if (get && strncmp(api, "docs/", 5) == 0) rules_page(r, api + 5);
    else if (get && strcmp(api, "lobby") == 0) lobby(r);
    else if (post && strcmp(api, "games") == 0) new_game(r, cfg, q);
    else if (post && strcmp(api, "load") == 0) load_game(r, cfg, q);
    else if (strncmp(api, "games/", 6) == 0) game_route(r, d, c, api + 6, post, q, server_caller);
    else reply_error(r, 404, "no %s %.80s in the API (docs/serve.md)", method, url);
}

/* The connection's deadlines (serve_watch.h). */
static watch_conn *conn_watch(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}


/* Whether the request holds the server's own access (serve_access.h): a
 * loopback server's caller, or the server's key. */
static bool holds_server_access(const serve_daemon *d, struct MHD_Connection *c)
{
    char name[40];
    access_cookie_name(name, sizeof name, d->port);
    serve_caller who = access_caller(d->access, MHD_lookup_connection_value(c, MHD_COOKIE_KIND, name),
                                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"));
    return who.scope != ACCESS_NOTHING;
}

/* Who may ask (serve_access.h): the Host names this server, and a request
 * of the API holds the server's key when the server asks for one, or is a
 * game's (its secret is checked there). A refusal, or NULL. */
static const char *refusal(const serve_daemon *d, struct MHD_Connection *c, const char *url)
{
    if (!access_host_ok(d->access, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"), d->port))
        return "this server answers requests addressed to its own names only (localhost, its address; more with "
               "carc serve --allow-host NAME): a page of another site cannot drive it";
    if (strncmp(url, "/api/", 5) != 0 || game_url(url)) return NULL;
    return holds_server_access(d, c) ? NULL : no_key;
}

static enum MHD_Result send_reply(const serve_daemon *d, struct MHD_Connection *c, reply *r)
{
    watch_enter(d->watch, conn_watch(c), r->custom ? WATCH_STREAM : WATCH_REPLY);
    struct MHD_Response *resp =
        r->custom ? r->custom : MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    if (!r->custom) MHD_add_response_header(resp, "Content-Type", r->type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    /* no site may frame the page (a click on it could be a click on ours) */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                            "frame-ancestors 'none'");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    if (r->disposition[0]) MHD_add_response_header(resp, "Content-Disposition", r->disposition);
    if (r->location[0]) MHD_add_response_header(resp, "Location", r->location);
    if (r->cookie[0]) MHD_add_response_header(resp, "Set-Cookie", r->cookie);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **ctx)
{
    serve_daemon *d = cls;
    (void)version;
    request *q = *ctx; /* made when the request's first line came in (request_begun) */
    reply r = {0};
    if (!q) return MHD_NO; /* out of memory: the connection is closed */
    if (!q->headers_in) { /* the headers are in: check them before any body */
        q->headers_in = true;
        q->limit = strcmp(url, "/api/load") == 0 ? SERVE_MAX_RECORD_BODY : SERVE_MAX_JSON_BODY;
        watch_enter(d->watch, conn_watch(c), WATCH_BODY);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        const char *no = refusal(d, c, url);
        if (no) reply_error(&r, 403, "%s", no);
        else if (cl && strtoull(cl, NULL, 10) > q->limit)
            reply_error(&r, 413, "the body is larger than %zu bytes", q->limit);
        else return MHD_YES;
        q->too_big = true; /* answered: the rest of the body is dropped */
        return send_reply(d, c, &r);
    }
    if (*upload_size) {
        if (!q->too_big && q->len + *upload_size <= q->limit) {
            if (q->len + *upload_size + 1 > q->cap) {
                size_t cap = q->cap ? q->cap : 4096;
                while (cap < q->len + *upload_size + 1) cap *= 2;
                char *b = realloc(q->body, cap);
                if (!b) return MHD_NO;
                q->body = b;
                q->cap = cap;
            }
            memcpy(q->body + q->len, upload, *upload_size);
            q->len += *upload_size;
        } else q->too_big = true;
        *upload_size = 0;
        return MHD_YES;
    }
    watch_enter(d->watch, conn_watch(c), WATCH_WORKING);
    if (q->too_big) reply_error(&r, 413, "the body is larger than %zu bytes", q->limit);
    else route(&r, d, c, url, method, q, holds_server_access(d, c));
    return send_reply(d, c, &r);
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_RequestTerminationCode code)
{
    serve_daemon *d = cls;
    (void)code;
    watch_enter(d->watch, conn_watch(c), WATCH_IDLE); /* until the next request */
    request *q = *ctx;
    if (q) free(q->body);
    free(q);
    *ctx = NULL;
}

/* A request's first line is in: its state, and its headers' deadline now
 * answers 408 (serve_watch.h). */
static void *request_begun(void *cls, const char *uri, struct MHD_Connection *c)
{
    serve_daemon *d = cls;
    (void)uri;
    watch_request_begun(d->watch, conn_watch(c));
    return calloc(1, sizeof(request));
}

/* Each connection is watched from its start to its end (serve_watch.h). */
static void connection_event(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode code)
{
    serve_daemon *d = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = i ? watch_open(d->watch, i->connect_fd) : NULL;
    } else {
        watch_close(d->watch, *socket_context);
        *socket_context = NULL;
    }
}

static void daemon_free(serve_daemon *d)
{
    watch_stop(d->watch);
    access_free(d->access);
    free(d);
}

const char *serve_key(const serve_daemon *d) { return access_server_key(d->access); }

serve_daemon *serve_start(const serve_config *cfg, int *port, char *err, size_t errn)
{
    serve_daemon *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    d->cfg = *cfg;
    max_games = cfg->max_games == 0 ? SERVE_MAX_GAMES : cfg->max_games < 0 ? 0 : cfg->max_games;
    d->access = access_new(cfg->listen, cfg->allow_hosts, cfg->nallow_hosts, cfg->needs_key && !cfg->key, err, errn);
    if (!d->access || (cfg->key && access_add_server_key(d->access, cfg->key) < 0)) {
        if (d->access) snprintf(err, errn, "the key must be %d hex digits", ACCESS_KEY_CHARS);
        daemon_free(d);
        return NULL;
    }
    watch_deadlines dl = {cfg->header_seconds > 0 ? cfg->header_seconds : SERVE_HEADER_SECONDS,
                          cfg->body_seconds > 0 ? cfg->body_seconds : SERVE_BODY_SECONDS,
                          cfg->reply_seconds > 0 ? cfg->reply_seconds : SERVE_REPLY_SECONDS};
    if (!(d->watch = watch_start(&dl, err, errn))) {
        daemon_free(d);
        return NULL;
    }
    struct sockaddr_in a4 = {0};
    struct sockaddr_in6 a6 = {0};
    struct sockaddr *sa;
    /* a thread for each connection: a bot's move holds only its own */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    if (inet_pton(AF_INET, cfg->listen, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)cfg->port);
        sa = (struct sockaddr *)&a4;
    } else if (inet_pton(AF_INET6, cfg->listen, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)cfg->port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, errn, "'%s' is not an IPv4 or IPv6 address", cfg->listen);
        daemon_free(d);
        return NULL;
    }
    d->mhd = MHD_start_daemon(flags, (uint16_t)cfg->port, NULL, NULL, handle, d, MHD_OPTION_SOCK_ADDR, sa,
                              MHD_OPTION_CONNECTION_LIMIT,
                              cfg->max_connections ? cfg->max_connections : (unsigned)SERVE_MAX_CONNECTIONS,
                              MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                              cfg->per_address ? cfg->per_address : (unsigned)SERVE_MAX_PER_ADDRESS,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_IDLE_SECONDS,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_MAX_HEADER_BYTES,
                              MHD_OPTION_NOTIFY_COMPLETED, completed, d, MHD_OPTION_NOTIFY_CONNECTION,
                              connection_event, d, MHD_OPTION_URI_LOG_CALLBACK, request_begun, d, MHD_OPTION_END);
    if (!d->mhd) {
        snprintf(err, errn, "cannot listen on %s port %d (%s)", cfg->listen, cfg->port,
                 errno ? strerror(errno) : "in use, or not an address of this machine");
        daemon_free(d);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d->mhd, MHD_DAEMON_INFO_BIND_PORT);
    d->port = info ? info->port : cfg->port;
    *port = d->port;
    return d;
}

void serve_stop(serve_daemon *d)
{
    if (!d) return;
    events_stop(&d->stopping); /* the live streams end, so their threads can */
    MHD_stop_daemon(d->mhd); /* every connection closed: the watch goes after */
    daemon_free(d);
}
