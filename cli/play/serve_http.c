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
#include "serve_registry.h"
#include "serve_state.h"
#include "serve_watch.h"

struct serve_daemon {
    struct MHD_Daemon *mhd;
    serve_config cfg;
    int port;
    serve_access *access;
    serve_watch *watch;
};

/* One request: its body as it arrives, up to its limit. */
typedef struct request {
    char *body;
    size_t len, cap, limit;
    bool too_big;
    bool headers_in;      /* the handler has seen the headers */
} request;

typedef struct reply {
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

/* The reply of a game's state. */
static void reply_state(reply *r, int status, const serve_session *s)
{
    json_t *j = serve_state_json(s);
    if (!j) reply_error(r, 500, "out of memory");
    else reply_json(r, status, j);
}

json_t *serve_open_game(serve_session *s, const char *id, bool new_file, char *err, size_t errn, int *status)
{
    if (id) snprintf(s->id, sizeof s->id, "%s", id);
    else registry_new_id(s->id, sizeof s->id);
    /* The state first: a game the page could not be shown is neither saved
     * nor served. */
    json_t *state = serve_state_json(s);
    *status = 500;
    if (!state) snprintf(err, errn, "out of memory");
    else if (session_save(s, err, errn) < 0) {
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
    if (!state) reply_error(r, status, "%s", err);
    else reply_json(r, 201, state);
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

/* POST /api/games/ID/ACTION with the session taken. */
static void game_action(reply *r, serve_session *s, const char *action, const request *q)
{
    char err[4096] = "";
    int status = 400, rc;
    long long serial = 0, option = 0;
    json_t *j = NULL;
    if (strcmp(action, "undo") != 0) {
        if (!(j = parse_body(r, q))) return;
        if (!int_field(r, j, "serial", 0, 1 << 30, &serial)) goto out;
    }
    if (strcmp(action, "choose") == 0) {
        if (!int_field(r, j, "option", -(1LL << 31), (1LL << 31) - 1, &option)) goto out;
        rc = session_choose(s, (int)serial, (int)option, err, sizeof err, &status);
    } else if (strcmp(action, "step") == 0) {
        rc = session_bot_step(s, (int)serial, err, sizeof err, &status);
    } else if (strcmp(action, "undo") == 0) {
        rc = session_undo(s, err, sizeof err, &status);
    } else {
        reply_error(r, 404, "no action '%.40s' (choose, step, undo)", action);
        goto out;
    }
    if (rc < 0) reply_error(r, status, "%s", err);
    else reply_state(r, 200, s);
out:
    json_decref(j);
}

static void record_download(reply *r, const serve_session *s)
{
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

/* /api/games/ID[/ACTION] */
static void game_route(reply *r, const char *rest, bool post, const request *q)
{
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    char id[24];
    if (!id_ok(rest, n)) {
        reply_error(r, 404, "no game '%.40s' (a game's id is 16 hex digits)", rest);
        return;
    }
    memcpy(id, rest, n);
    id[n] = 0;
    serve_session *s = registry_take(id);
    if (!s) {
        reply_error(r, 404, "no game '%s' on this server (it may have ended with the server; load its record)", id);
        return;
    }
    const char *action = slash ? slash + 1 : "";
    if (!post && !*action) reply_state(r, 200, s);
    else if (!post && strcmp(action, "record") == 0) record_download(r, s);
    else if (post && *action) game_action(r, s, action, q);
    else reply_error(r, 405, "%s /api/games/ID/%.40s is not a request of the API", post ? "POST" : "GET", action);
    registry_give(s);
}

static void route(reply *r, const serve_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                  const request *q)
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
    if (get && strcmp(api, "variants") == 0) list_variants(r);
    else if (get && strcmp(api, "variant") == 0)
        describe_variant(r, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "name"));
    else if (get && strcmp(api, "agents") == 0) list_agents(r);
    else if (post && strcmp(api, "games") == 0) new_game(r, cfg, q);
    else if (post && strcmp(api, "load") == 0) load_game(r, cfg, q);
    else if (strncmp(api, "games/", 6) == 0) game_route(r, api + 6, post, q);
    else reply_error(r, 404, "no %s %.80s in the API (docs/serve.md)", method, url);
}

/* The connection's deadlines (serve_watch.h). */
static watch_conn *conn_watch(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* Who may ask (serve_access.h): the Host names this server, and a request
 * of the API holds a key when the server asks for one. A refusal, or NULL. */
static const char *refusal(const serve_daemon *d, struct MHD_Connection *c, const char *url)
{
    if (!access_host_ok(d->access, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"), d->port))
        return "this server answers requests addressed to its own names only (localhost, its address; more with "
               "carc serve --allow-host NAME): a page of another site cannot drive it";
    if (strncmp(url, "/api/", 5) != 0) return NULL;
    char name[40];
    access_cookie_name(name, sizeof name, d->port);
    serve_caller who = access_caller(d->access, MHD_lookup_connection_value(c, MHD_COOKIE_KIND, name),
                                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"));
    if (who.scope == ACCESS_NOTHING)
        return "this server asks for its key: open the address carc serve printed when it started (it ends in "
               "?key=...), or send the header Authorization: Bearer KEY";
    return NULL;
}

static enum MHD_Result send_reply(const serve_daemon *d, struct MHD_Connection *c, reply *r)
{
    watch_enter(d->watch, conn_watch(c), WATCH_REPLY);
    struct MHD_Response *resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", r->type);
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
    else route(&r, d, c, url, method, q);
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
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
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
    MHD_stop_daemon(d->mhd); /* every connection closed: the watch goes after */
    daemon_free(d);
}
