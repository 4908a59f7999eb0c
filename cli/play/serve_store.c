/* serve_store.c - the games of carc serve in SQLite (serve_store.h).
 *
 * The journal is a write-ahead log. With synchronous=NORMAL (the default)
 * a commit has written the move into the log through the system before it
 * returns, without waiting for the disk: the process killed at any moment
 * (kill -9, a crash) loses no acknowledged move, since the system still
 * writes what it was given; the machine losing power may lose the moves
 * of the last moments (the log is made durable at each checkpoint). FULL
 * (--db-sync full) waits for the disk at every commit, so a power cut
 * loses nothing either, at one disk flush per move (about 12 ms on the
 * test machine, all games' moves one after another). */
#include "serve_store.h"

#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "json_io.h"

static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3 *db;

/* Version 1 of the layout; user_version tells a carc database from another. */
#define STORE_VERSION 1
static const char *const schema =
    "CREATE TABLE IF NOT EXISTS games ("
    "  id TEXT PRIMARY KEY, variant TEXT NOT NULL, title TEXT NOT NULL, seed INTEGER NOT NULL,"
    "  options TEXT NOT NULL, record_path TEXT NOT NULL, host_secret TEXT NOT NULL,"
    "  spectator_secret TEXT NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL,"
    "  finished INTEGER NOT NULL DEFAULT 0, failed TEXT NOT NULL DEFAULT '', moves INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats ("
    "  game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, name TEXT NOT NULL, agent TEXT NOT NULL,"
    "  secret TEXT NOT NULL, standin TEXT NOT NULL DEFAULT '', score INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (game, seat)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS moves ("
    "  game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, line TEXT NOT NULL, seat INTEGER NOT NULL,"
    "  PRIMARY KEY (game, n)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS games_finished ON games(finished, created);";

bool store_enabled(void) { return db != NULL; }

void store_default_path(char *buf, size_t n)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') snprintf(buf, n, "%s/carc/carc.db", xdg);
    else snprintf(buf, n, "%s/.local/share/carc/carc.db", home && *home ? home : ".");
}

/* Makes the folders of path's parent (mode 0700: the secrets are in it). */
static int make_parents(const char *path, char *err, size_t errn)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
            snprintf(err, errn, "cannot make the folder %s for the database: %s", dir, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    return 0;
}

static int exec(const char *sql, char *err, size_t errn)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errn, "the database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int store_open(const char *path, bool full_sync, char *err, size_t errn)
{
    if (make_parents(path, err, errn) < 0) return -1;
    sqlite3 *h = NULL;
    /* one connection, its calls serialized by store_lock */
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        snprintf(err, errn, "cannot open the database %s: %s", path, h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close(h);
        return -1;
    }
    chmod(path, 0600); /* it holds the seats' secrets */
    db = h;
    sqlite3_busy_timeout(db, 5000);
    int version = -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    int tables = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    char e[512] = "";
    if (version < 0 || tables < 0) {
        snprintf(err, errn, "%s is not an SQLite database: %s", path, sqlite3_errmsg(db));
    } else if (version != STORE_VERSION && tables > 0) {
        snprintf(err, errn, "%s is not a carc database (user_version %d, this carc writes %d)", path, version,
                 STORE_VERSION);
    } else if (exec(full_sync ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                              : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
                    e, sizeof e) < 0 ||
               exec(schema, e, sizeof e) < 0 || exec("PRAGMA user_version=1", e, sizeof e) < 0) {
        snprintf(err, errn, "%s: %s", path, e);
    } else return 0;
    sqlite3_close(db);
    db = NULL;
    return -1;
}

void store_close(void)
{
    pthread_mutex_lock(&store_lock);
    sqlite3_close(db);
    db = NULL;
    pthread_mutex_unlock(&store_lock);
}

/* A statement run once with its parameters bound by the format:
 * 's' text, 'i' int, 'I' int64. SQLITE_DONE or SQLITE_ROW for success. */
static int run(const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; rc == SQLITE_OK && fmt[i]; i++) {
        if (fmt[i] == 's') rc = sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
        else if (fmt[i] == 'i') rc = sqlite3_bind_int(st, i + 1, va_arg(ap, int));
        else rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
    }
    va_end(ap);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc;
}

static int insert_game(const serve_session *s, long long now)
{
    char options[SESSION_MAX_OPTIONS * 162] = "";
    for (int i = 0; i < s->noptions; i++) {
        strcat(options, s->options[i]);
        strcat(options, "\n");
    }
    if (run("INSERT INTO games (id, variant, title, seed, options, record_path, host_secret, spectator_secret, "
            "created, updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
            "sssIssssII", s->id, s->variant, carc_rules_title(s->rules), (long long)s->seed, options, s->save,
            s->host_secret, s->spectator_secret, now, now) != SQLITE_DONE)
        return -1;
    for (int p = 0; p < s->nplayers; p++)
        if (run("INSERT INTO seats (game, seat, name, agent, secret) VALUES (?,?,?,?,?)", "sisss", s->id, p,
                s->names[p], s->agents[p], s->seat_secret[p]) != SQLITE_DONE)
            return -1;
    return 0;
}

static int save_moves(const serve_session *s)
{
    if (run("DELETE FROM moves WHERE game = ? AND n >= ?", "si", s->id, s->stored) != SQLITE_DONE) return -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "INSERT INTO moves (game, n, line, seat) VALUES (?,?,?,?)", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    int rc = SQLITE_DONE;
    for (int i = s->stored; i < s->nlines && rc == SQLITE_DONE; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, s->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, s->lines[i], -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, s->line_seat[i]);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_save(serve_session *s, char *err, size_t errn)
{
    if (!db) return 0;
    pthread_mutex_lock(&store_lock);
    long long now = (long long)time(NULL);
    bool fresh = s->stored < 0;
    int stored = s->stored;
    if (fresh) s->stored = 0;
    int rc = exec("BEGIN IMMEDIATE", err, errn);
    if (rc == 0 && fresh && insert_game(s, now) < 0) rc = -1;
    if (rc == 0 && save_moves(s) < 0) rc = -1;
    if (rc == 0 && run("UPDATE games SET updated = ?, finished = ?, failed = ?, moves = ? WHERE id = ?", "Iisis",
                       now, carc_is_finished(s->g) ? 1 : 0, s->failed, s->nlines, s->id) != SQLITE_DONE)
        rc = -1;
    for (int p = 0; rc == 0 && p < s->nplayers; p++)
        if (run("UPDATE seats SET standin = ?, score = ? WHERE game = ? AND seat = ?", "sisi", s->standin[p],
                carc_score(s->g, p), s->id, p) != SQLITE_DONE)
            rc = -1;
    if (rc == 0 && exec("COMMIT", err, errn) < 0) rc = -1;
    if (rc < 0) {
        if (!err[0] || strncmp(err, "the database", 12) != 0)
            snprintf(err, errn, "the database refused the move: %s", sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        s->stored = stored;
    } else s->stored = s->nlines;
    pthread_mutex_unlock(&store_lock);
    return rc;
}

static const char *column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

/* The record of a stored game (the caller frees the writer) and its secrets
 * into s (a scratch session). 1 found, 0 none, -1 error. */
static int read_game(const char *id, carc_record_writer *w, serve_session *s)
{
    sqlite3_stmt *g = NULL, *seats = NULL, *moves = NULL;
    int found = -1;
    memset(w, 0, sizeof *w);
    if (sqlite3_prepare_v2(db, "SELECT variant, seed, options, record_path, host_secret, spectator_secret FROM games "
                               "WHERE id = ?",
                           -1, &g, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT seat, name, agent, secret, standin FROM seats WHERE game = ? ORDER BY seat",
                           -1, &seats, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT line FROM moves WHERE game = ? ORDER BY n", -1, &moves, NULL) != SQLITE_OK)
        goto out;
    sqlite3_bind_text(g, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(g);
    if (rc != SQLITE_ROW) {
        found = rc == SQLITE_DONE ? 0 : -1;
        goto out;
    }
    snprintf(s->variant, sizeof s->variant, "%s", column_text(g, 0));
    s->seed = (uint64_t)sqlite3_column_int64(g, 1);
    char opts[SESSION_MAX_OPTIONS * 162];
    snprintf(opts, sizeof opts, "%s", column_text(g, 2));
    s->noptions = 0;
    for (char *save = NULL, *t = strtok_r(opts, "\n", &save); t && s->noptions < SESSION_MAX_OPTIONS;
         t = strtok_r(NULL, "\n", &save))
        snprintf(s->options[s->noptions++], sizeof s->options[0], "%s", t);
    snprintf(s->save, sizeof s->save, "%s", column_text(g, 3));
    snprintf(s->host_secret, sizeof s->host_secret, "%s", column_text(g, 4));
    snprintf(s->spectator_secret, sizeof s->spectator_secret, "%s", column_text(g, 5));
    sqlite3_bind_text(seats, 1, id, -1, SQLITE_STATIC);
    s->nplayers = 0;
    while ((rc = sqlite3_step(seats)) == SQLITE_ROW && s->nplayers < CARC_MAX_PLAYERS) {
        int p = s->nplayers++;
        snprintf(s->names[p], sizeof s->names[p], "%s", column_text(seats, 1));
        snprintf(s->agents[p], sizeof s->agents[p], "%s", column_text(seats, 2));
        snprintf(s->seat_secret[p], sizeof s->seat_secret[p], "%s", column_text(seats, 3));
        snprintf(s->standin[p], sizeof s->standin[p], "%s", column_text(seats, 4));
    }
    const char *names[CARC_MAX_PLAYERS], *agents[CARC_MAX_PLAYERS], *options[SESSION_MAX_OPTIONS];
    for (int p = 0; p < s->nplayers; p++) names[p] = s->names[p], agents[p] = s->agents[p];
    for (int i = 0; i < s->noptions; i++) options[i] = s->options[i];
    if (carc_writer_begin(w, s->variant, s->seed, s->nplayers, names, agents, options, s->noptions) < 0) goto out;
    sqlite3_bind_text(moves, 1, id, -1, SQLITE_STATIC);
    s->stored = 0;
    while ((rc = sqlite3_step(moves)) == SQLITE_ROW) {
        if (carc_writer_line(w, column_text(moves, 0)) < 0) goto out;
        s->stored++;
    }
    found = rc == SQLITE_DONE ? 1 : -1;
out:
    sqlite3_finalize(g);
    sqlite3_finalize(seats);
    sqlite3_finalize(moves);
    return found;
}

serve_session *store_load(const char *id, char *err, size_t errn)
{
    err[0] = 0;
    if (!db) return NULL;
    serve_session *scratch = calloc(1, sizeof *scratch);
    if (!scratch) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    carc_record_writer w;
    pthread_mutex_lock(&store_lock);
    int found = read_game(id, &w, scratch);
    if (found < 0) snprintf(err, errn, "the database: %s", w.error[0] ? w.error : sqlite3_errmsg(db));
    pthread_mutex_unlock(&store_lock);
    serve_session *s = NULL;
    if (found == 1) {
        char name[64];
        snprintf(name, sizeof name, "the stored game %s", id);
        s = session_from_record(name, w.buf, w.len, scratch->save, err, errn);
    }
    carc_writer_free(&w);
    if (s) {
        snprintf(s->id, sizeof s->id, "%s", id);
        memcpy(s->seat_secret, scratch->seat_secret, sizeof s->seat_secret);
        memcpy(s->standin, scratch->standin, sizeof s->standin);
        memcpy(s->host_secret, scratch->host_secret, sizeof s->host_secret);
        memcpy(s->spectator_secret, scratch->spectator_secret, sizeof s->spectator_secret);
        /* the lines in the database; a replay that settled further has more, saved with the next move */
        s->stored = scratch->stored < s->nlines ? scratch->stored : s->nlines;
    }
    explicit_bzero(scratch, sizeof *scratch);
    free(scratch);
    return s;
}

int store_active_ids(char (*ids)[24], int max, char *err, size_t errn)
{
    if (!db) return 0;
    pthread_mutex_lock(&store_lock);
    sqlite3_stmt *st = NULL;
    int n = 0, rc = sqlite3_prepare_v2(db, "SELECT id FROM games WHERE finished = 0 AND failed = '' ORDER BY created",
                                       -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        snprintf(ids[n++], 24, "%s", column_text(st, 0));
    if (rc == SQLITE_ROW) rc = SQLITE_DONE;
    if (rc != SQLITE_DONE && rc != SQLITE_OK) {
        snprintf(err, errn, "the database: %s", sqlite3_errmsg(db));
        n = -1;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&store_lock);
    return n;
}

int store_count_active(void)
{
    if (!db) return 0;
    pthread_mutex_lock(&store_lock);
    sqlite3_stmt *st = NULL;
    int n = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM games WHERE finished = 0 AND failed = ''", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&store_lock);
    return n;
}

json_t *store_lobby(int max, char *err, size_t errn)
{
    json_t *games = json_array();
    if (!db || !games) return games ? json_pack("{s:o}", "games", games) : NULL;
    pthread_mutex_lock(&store_lock);
    sqlite3_stmt *g = NULL, *seats = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT id, title, variant, created, updated, finished, failed, moves FROM games "
                                    "ORDER BY updated DESC, id LIMIT ?",
                                -1, &g, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "SELECT name, agent, standin, score FROM seats WHERE game = ? ORDER BY seat", -1,
                                &seats, NULL);
    if (rc == SQLITE_OK) sqlite3_bind_int(g, 1, max);
    while (rc == SQLITE_OK && sqlite3_step(g) == SQLITE_ROW) {
        json_t *list = json_array();
        sqlite3_reset(seats);
        sqlite3_bind_text(seats, 1, column_text(g, 0), -1, SQLITE_TRANSIENT);
        while (sqlite3_step(seats) == SQLITE_ROW)
            json_array_append_new(list, json_pack("{s:o, s:o, s:o, s:i}", "name", json_text(column_text(seats, 0)),
                                                  "agent", json_text(column_text(seats, 1)), "standin",
                                                  json_text(column_text(seats, 2)), "score",
                                                  sqlite3_column_int(seats, 3)));
        json_array_append_new(
            games, json_pack("{s:s, s:o, s:o, s:I, s:I, s:b, s:o, s:i, s:o}", "id", column_text(g, 0), "title",
                             json_text(column_text(g, 1)), "variant", json_text(column_text(g, 2)), "created",
                             (json_int_t)sqlite3_column_int64(g, 3), "updated",
                             (json_int_t)sqlite3_column_int64(g, 4), "finished", sqlite3_column_int(g, 5) != 0,
                             "failed", json_text(column_text(g, 6)), "serial", sqlite3_column_int(g, 7), "seats",
                             list));
    }
    if (rc != SQLITE_OK) snprintf(err, errn, "the database: %s", sqlite3_errmsg(db));
    sqlite3_finalize(g);
    sqlite3_finalize(seats);
    pthread_mutex_unlock(&store_lock);
    if (rc != SQLITE_OK) {
        json_decref(games);
        return NULL;
    }
    return json_pack("{s:o}", "games", games);
}
