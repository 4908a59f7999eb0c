/* serve_session.c - one game of carc serve (serve_session.h): moves by the
 * page or a bot, draws by the seeded pile, the record saved after each, the
 * log of moves and awards, and undo by replaying the record less its last
 * lines. */
#include "serve_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "game_log.h"
#include "json_io.h"
#include "record_header.h"

bool session_is_human(const serve_session *s, int seat)
{
    return seat >= 0 && seat < s->nplayers && strcmp(s->agents[seat], "human") == 0 && !s->standin[seat][0];
}

int session_serial(const serve_session *s) { return s->nlines; }

/* Room kept in a record's limit for its header (variant, seed, players,
 * options: a few hundred bytes in practice). */
#define SESSION_HEADER_ROOM 65536

/* Adds a record line. -1 when memory is out; -2 when the record would
 * pass what a reader accepts (CARC_RECORD_MAX_*): the game stops there,
 * with the message in s->failed, and its record stays the one saved
 * before, which replays. */
static int add_line(serve_session *s, const char *text, int seat)
{
    size_t len = strlen(text) + 1;
    if (s->nlines >= CARC_RECORD_MAX_LINES || s->line_bytes + len > s->max_line_bytes) {
        snprintf(s->failed, sizeof s->failed,
                 "the record would pass what a reader accepts (%d lines, %d bytes): the game stops here",
                 CARC_RECORD_MAX_LINES, CARC_RECORD_MAX_BYTES);
        return -2;
    }
    if (s->nlines == s->cap) {
        int cap = s->cap ? 2 * s->cap : 256;
        char **l = realloc(s->lines, (size_t)cap * sizeof *l);
        if (!l) return -1;
        s->lines = l;
        int *w = realloc(s->line_seat, (size_t)cap * sizeof *w);
        if (!w) return -1;
        s->line_seat = w;
        s->cap = cap;
    }
    char *t = strdup(text);
    if (!t) return -1;
    s->lines[s->nlines] = t;
    s->line_seat[s->nlines++] = seat;
    s->line_bytes += len;
    return 0;
}

static void log_entry(serve_session *s, const char *kind, int seat, const char *text)
{
    json_array_append_new(s->log, json_pack("{s:s, s:i, s:i, s:i, s:o}", "kind", kind, "seat", seat, "turn",
                                            carc_turn_number(s->g), "serial", s->nlines, "text", json_text(text)));
}

/* The awards since event `from`, into the log. */
static void log_awards(serve_session *s, int from)
{
    for (int i = from; i < carc_awards(s->g); i++) {
        const carc_award *a = carc_award_at(s->g, i);
        char text[256];
        log_award_text(s->g, i, text, sizeof text);
        json_array_append_new(
            s->log, json_pack("{s:s, s:i, s:i, s:i, s:i, s:o, s:b, s:o}", "kind", "award", "seat", a->player, "turn",
                              carc_turn_number(s->g), "serial", s->nlines, "points", a->points, "reason",
                              json_text(carc_reason_name(s->rules, a->reason)), "final",
                              (a->flags & CARC_AWARD_FINAL) != 0, "text", json_text(text)));
    }
}

/* The record as it stands: header, then every line. */
static int build_writer(const serve_session *s, carc_record_writer *w)
{
    const char *names[CARC_MAX_PLAYERS], *agents[CARC_MAX_PLAYERS], *opts[SESSION_MAX_OPTIONS];
    for (int p = 0; p < s->nplayers; p++) names[p] = s->names[p], agents[p] = s->agents[p];
    for (int i = 0; i < s->noptions; i++) opts[i] = s->options[i];
    int rc = carc_writer_begin(w, s->variant, s->seed, s->nplayers, names, agents, opts, s->noptions);
    for (int i = 0; i < s->nlines && rc == 0; i++) rc = carc_writer_line(w, s->lines[i]);
    return rc;
}

char *session_record_text(const serve_session *s, size_t *len)
{
    carc_record_writer w;
    if (build_writer(s, &w) < 0) {
        carc_writer_free(&w);
        return NULL;
    }
    char *text = w.buf; /* handed over; the rest of the writer freed */
    *len = w.len;
    w.buf = NULL;
    carc_writer_free(&w);
    return text;
}

int session_save(serve_session *s, char *err, size_t errn)
{
    carc_record_writer w;
    int rc = build_writer(s, &w);
    if (rc < 0) snprintf(err, errn, "%s: %s", s->save, w.error[0] ? w.error : "out of memory");
    else rc = carc_writer_save(&w, s->save, err, errn);
    carc_writer_free(&w);
    return rc;
}

/* Plays option k (its record line first), logs it and its awards. */
static int apply(serve_session *s, int k, char *err, size_t errn)
{
    char text[CARC_OPTION_TEXT_MAX + 1];
    int seat = carc_decision_player(s->g), tiles = carc_tiles_placed(s->g), events = carc_awards(s->g);
    if (carc_option_record_text(s->g, k, text, sizeof text) < 0) {
        snprintf(err, errn, "the option '%s' reads like another option of this decision, so the record could not "
                            "replay it",
                 text);
        return -1;
    }
    seat_figures *before = seat_moves_before(s->g);
    if (carc_choose(s->g, k) < 0) {
        free(before);
        snprintf(err, errn, "%s", carc_game_error(s->g));
        return -1;
    }
    seat_moves_after(&s->moves, s->g, before, seat, tiles, s->nlines);
    int added = add_line(s, text, seat);
    if (added < 0) {
        snprintf(err, errn, "%s", added == -2 ? s->failed : "out of memory");
        return -1;
    }
    log_entry(s, "move", seat, text);
    if (carc_tiles_placed(s->g) > tiles) s->last_tile = tiles;
    log_awards(s, events);
    return 0;
}

/* Runs the game to the next choice or its end, drawing from the pile (each
 * draw a record line). */
static int settle(serve_session *s, char *err, size_t errn)
{
    for (;;) {
        int events = carc_awards(s->g);
        int st = carc_advance(s->g);
        log_awards(s, events);
        if (st == CARC_NEED_CHOICE || st == CARC_FINISHED) return 0;
        if (st == CARC_FAILED || carc_draw(s->g, -1) < 0) {
            snprintf(s->failed, sizeof s->failed, "%s", carc_game_error(s->g));
            snprintf(err, errn, "the game stopped: %s", s->failed);
            return -1;
        }
        char text[512];
        carc_draw_text(s->g, carc_last_drawn(s->g), text, sizeof text);
        int added = add_line(s, text, -1);
        if (added < 0) {
            snprintf(err, errn, "%s", added == -2 ? s->failed : "out of memory");
            return -1;
        }
        log_entry(s, "draw", carc_active_player(s->g), text);
    }
}

/* A fresh game of the session's rules, with the given lines played as a
 * replay plays them (`end`, named draws, seeded draws where the lines leave
 * them out, every other line matched to an option). */
static int replay(serve_session *s, char *const *lines, int n, char *err, size_t errn)
{
    const char *names[CARC_MAX_PLAYERS];
    for (int p = 0; p < s->nplayers; p++) names[p] = s->names[p];
    carc_game_free(s->g);
    s->g = carc_game_new(s->rules, s->nplayers, names, s->seed, err, errn);
    if (!s->g) return -1;
    json_array_clear(s->log);
    s->last_tile = -1;
    seat_moves_clear(&s->moves);
    s->failed[0] = 0;
    s->nlines = 0;
    s->line_bytes = 0;
    for (int i = 0; i < n; i++) {
        const char *l = lines[i];
        if (strcmp(l, "end") == 0) {
            /* Between two turns (records.md): the rest of the turn asks
             * nothing and the game ends. */
            carc_end_now(s->g);
            int events = carc_awards(s->g), st = carc_advance(s->g);
            log_awards(s, events);
            if (st != CARC_FINISHED) {
                snprintf(err, errn, "line %d 'end': %s", i + 1,
                         st == CARC_FAILED ? carc_game_error(s->g)
                                           : "a decision of the turn is pending; `end` goes between two turns");
                return -1;
            }
            if (add_line(s, l, -1) < 0) goto oom;
            continue;
        }
        int events = carc_awards(s->g), st = carc_advance(s->g);
        log_awards(s, events);
        if (st == CARC_FINISHED || st == CARC_FAILED) {
            snprintf(err, errn, "line %d '%.80s': the game %s before it", i + 1, l,
                     st == CARC_FINISHED ? "ended" : "stopped");
            return -1;
        }
        if (st == CARC_NEED_DRAW) {
            int type = strncmp(l, "draw ", 5) == 0 ? carc_tile_type_find(s->rules, l + 5 + strspn(l + 5, " ")) : -1;
            if (strncmp(l, "draw ", 5) != 0) { /* a record that leaves draws out */
                i--;
                type = -1;
            } else if (type < 0) {
                snprintf(err, errn, "line %d: no tile '%.80s' in these rules", i + 1, l + 5);
                return -1;
            }
            if (carc_draw(s->g, type) < 0) {
                snprintf(err, errn, "line %d '%.80s': %s", i + 1, l, carc_game_error(s->g));
                return -1;
            }
            char text[512];
            carc_draw_text(s->g, carc_last_drawn(s->g), text, sizeof text);
            if (add_line(s, text, -1) < 0) goto oom;
            log_entry(s, "draw", carc_active_player(s->g), text);
            continue;
        }
        int k = carc_option_match(s->g, l);
        if (k < 0) {
            snprintf(err, errn, "line %d: '%.80s' is not a legal option here", i + 1, l);
            return -1;
        }
        if (apply(s, k, err, errn) < 0) return -1;
    }
    return 0;
oom:
    snprintf(err, errn, "out of memory");
    return -1;
}

static serve_session *session_alloc(void)
{
    serve_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->log = json_array();
    s->last_tile = -1;
    seat_moves_clear(&s->moves);
    s->max_line_bytes = CARC_RECORD_MAX_BYTES - SESSION_HEADER_ROOM;
    s->stored = -1;
    if (!s->log || pthread_mutex_init(&s->lock, NULL) != 0) {
        json_decref(s->log);
        free(s);
        return NULL;
    }
    return s;
}

void session_free(serve_session *s)
{
    if (!s) return;
    for (int i = 0; i < s->nlines; i++) free(s->lines[i]);
    free(s->lines);
    free(s->line_seat);
    json_decref(s->log);
    carc_game_free(s->g);
    carc_rules_free(s->rules);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static bool weights_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > SESSION_MAX_WEIGHTS_NAME || s[0] == '-') return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-' || s[i] == '_'))
            return false;
    return true;
}

agent *session_agent(const char *spec, uint64_t seed, int seat, char *err, size_t errn)
{
    static const char *const list = "random, greedy[:trained|:eval=NAME], mcts[:200ms|2s|5000it][:trained|:eval=NAME]";
    char base[64], weights[64] = "";
    if (strlen(spec) >= sizeof base) {
        snprintf(err, errn, "unknown agent '%.40s...' (this server plays %s)", spec, list);
        return NULL;
    }
    snprintf(base, sizeof base, "%s", spec);
    /* eval=NAME goes last, as agent_create reads it; it is taken off here
     * and loaded from the data directory's weights, never from a path */
    char *eval = strstr(base, ":eval=");
    if (eval) {
        snprintf(weights, sizeof weights, "%s", eval + 6);
        *eval = 0;
        if (!weights_name_ok(weights)) {
            snprintf(err, errn,
                     "agent '%s': this server takes weights by name only: eval=NAME plays the weights "
                     "weights/NAME.ini of carc's data directory (NAME: letters, digits, '-', '_')",
                     spec);
            return NULL;
        }
    }
    size_t kind = strcspn(base, ":");
    bool listed = (kind == 6 && strncmp(base, "random", 6) == 0 && !eval) ||
                  (kind == 6 && strncmp(base, "greedy", 6) == 0) || (kind == 4 && strncmp(base, "mcts", 4) == 0);
    if (!listed || strstr(base, "eval=")) {
        snprintf(err, errn, "unknown agent '%s' (this server plays %s)", spec, list);
        return NULL;
    }
    agent *a = agent_create(base, seed, seat, err, errn);
    if (!a || !eval) return a;
    char path[1200];
    snprintf(path, sizeof path, "%s/weights/%s.ini", carc_data_dir(), weights);
    char e[512] = "";
    a->eval = malloc(sizeof *a->eval);
    if (!a->eval) snprintf(err, errn, "out of memory");
    else if (evaluator_load(a->eval, path, e, sizeof e) < 0)
        snprintf(err, errn, "agent '%s': no weights '%s' among carc's (weights/%s.ini: %s)", spec, weights, weights,
                 e);
    else return a;
    agent_free(a);
    return NULL;
}

bool session_agent_ok(const char *spec, int seat, char *err, size_t errn)
{
    agent *a = session_agent(spec, 1, seat, err, errn);
    agent_free(a);
    return a != NULL;
}

/* Each seat is "human" or a bot of the server's list. */
static int check_agents(const serve_session *s, char *err, size_t errn)
{
    for (int p = 0; p < s->nplayers; p++) {
        if (session_is_human(s, p)) continue;
        agent *a = session_agent(s->agents[p], s->seed, p, err, errn);
        if (!a) return -1;
        agent_free(a);
    }
    return 0;
}

serve_session *session_new(const session_setup *su, const char *save_path, char *err, size_t errn)
{
    if (su->nplayers < 1 || su->nplayers > CARC_MAX_PLAYERS || su->noptions > SESSION_MAX_OPTIONS) {
        snprintf(err, errn, "a game has 1 to %d seats and at most %d options", CARC_MAX_PLAYERS,
                 SESSION_MAX_OPTIONS);
        return NULL;
    }
    if (!record_header_ok(su->variant, su->names, su->nplayers, su->options, su->noptions, err, errn)) return NULL;
    serve_session *s = session_alloc();
    if (!s) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    snprintf(s->variant, sizeof s->variant, "%s", su->variant);
    snprintf(s->save, sizeof s->save, "%s", save_path);
    s->seed = su->seed;
    s->nplayers = su->nplayers;
    for (int p = 0; p < su->nplayers; p++) {
        snprintf(s->names[p], sizeof s->names[p], "%s", su->names[p]);
        if (strlen(su->agents[p]) >= sizeof s->agents[p]) {
            snprintf(err, errn, "unknown agent '%.64s'", su->agents[p]);
            goto fail;
        }
        snprintf(s->agents[p], sizeof s->agents[p], "%s", su->agents[p]);
    }
    s->noptions = su->noptions;
    for (int i = 0; i < su->noptions; i++) snprintf(s->options[i], sizeof s->options[i], "%s", su->options[i]);
    if (check_agents(s, err, errn) < 0) goto fail;
    s->rules = carc_variant_load(s->variant, su->options, su->noptions, err, errn);
    if (!s->rules) goto fail;
    if (replay(s, NULL, 0, err, errn) < 0 || settle(s, err, errn) < 0) goto fail;
    return s;
fail:
    session_free(s);
    return NULL;
}

serve_session *session_from_record(const char *name, const char *text, size_t len, const char *save_path,
                                   char *err, size_t errn)
{
    carc_record rec;
    if (carc_record_parse(name, text, len, &rec, err, errn) < 0) return NULL;
    serve_session *s = session_alloc();
    char msg[1024] = "";
    if (!s) {
        snprintf(err, errn, "out of memory");
        carc_record_free(&rec);
        return NULL;
    }
    if (carc_record_variant(&rec, s->variant, sizeof s->variant) < 0) /* next to the record (--resume) */
        snprintf(s->variant, sizeof s->variant, "%s", rec.variant);
    snprintf(s->save, sizeof s->save, "%s", save_path);
    s->seed = rec.seed;
    s->nplayers = rec.nplayers;
    for (int p = 0; p < rec.nplayers; p++) {
        snprintf(s->names[p], sizeof s->names[p], "%s", rec.names[p]);
        snprintf(s->agents[p], sizeof s->agents[p], "%s", rec.agents[p]);
    }
    s->noptions = rec.noptions < SESSION_MAX_OPTIONS ? rec.noptions : SESSION_MAX_OPTIONS;
    for (int i = 0; i < s->noptions; i++) snprintf(s->options[i], sizeof s->options[i], "%s", rec.options[i]);
    char **lines = calloc((size_t)(rec.nlines ? rec.nlines : 1), sizeof *lines);
    int rc = lines ? 0 : -1;
    for (int i = 0; i < rec.nlines && lines; i++) lines[i] = rec.lines[i].text;
    if (rc == 0 && check_agents(s, msg, sizeof msg) < 0) rc = -1;
    if (rc == 0 && !(s->rules = carc_record_rules(&rec, msg, sizeof msg))) rc = -1;
    if (rc == 0 && (replay(s, lines, rec.nlines, msg, sizeof msg) < 0 || settle(s, msg, sizeof msg) < 0)) rc = -1;
    if (rc < 0) snprintf(err, errn, "%s: %s", name, lines ? msg : "out of memory");
    free(lines);
    carc_record_free(&rec);
    if (rc < 0) {
        session_free(s);
        return NULL;
    }
    return s;
}

/* The checks every move shares: the game runs, the decision is the one the
 * page saw. */
static int move_ok(serve_session *s, int serial, char *err, size_t errn, int *status)
{
    *status = 409;
    if (s->failed[0]) {
        snprintf(err, errn, "the game stopped: %s", s->failed);
        return -1;
    }
    if (carc_is_finished(s->g)) {
        snprintf(err, errn, "the game is over");
        return -1;
    }
    if (serial != s->nlines) {
        snprintf(err, errn, "that move was for decision %d; the game is at decision %d (reload the state)", serial,
                 s->nlines);
        return -1;
    }
    return 0;
}

static int finish_move(serve_session *s, char *err, size_t errn, int *status)
{
    *status = 500;
    if (settle(s, err, errn) < 0) {
        session_save(s, err + strlen(err), 0); /* keep what was played */
        return -1;
    }
    return session_save(s, err, errn);
}

int session_choose(serve_session *s, int serial, int k, char *err, size_t errn, int *status)
{
    if (move_ok(s, serial, err, errn, status) < 0) return -1;
    int seat = carc_decision_player(s->g);
    if (!session_is_human(s, seat)) {
        snprintf(err, errn, "it is %s's turn, a bot (%s)", s->names[seat], s->agents[seat]);
        return -1;
    }
    int n = carc_option_count(s->g);
    if (k < 0 || k >= n) {
        *status = 400;
        snprintf(err, errn, "option %d is out of range: this decision has options 0 to %d", k, n - 1);
        return -1;
    }
    *status = 500;
    if (apply(s, k, err, errn) < 0) return -1;
    return finish_move(s, err, errn, status);
}

int session_bot_step(serve_session *s, int serial, char *err, size_t errn, int *status)
{
    if (move_ok(s, serial, err, errn, status) < 0) return -1;
    int seat = carc_decision_player(s->g);
    if (session_is_human(s, seat)) {
        snprintf(err, errn, "it is %s's turn, at the page", s->names[seat]);
        return -1;
    }
    *status = 500;
    /* The bot's stream is its seed offset by the moves so far: a game
     * reloaded or undone plays on as deterministically as it began. */
    const char *spec = s->standin[seat][0] ? s->standin[seat] : s->agents[seat];
    agent *a = session_agent(spec, s->seed + (uint64_t)s->nlines, seat, err, errn);
    if (!a) return -1;
    int k = a->choose(a, s->g);
    agent_free(a);
    if (k < 0 || k >= carc_option_count(s->g)) {
        snprintf(err, errn, "the bot %s gave no option", spec);
        return -1;
    }
    if (apply(s, k, err, errn) < 0) return -1;
    return finish_move(s, err, errn, status);
}

/* Plays the game again from lines[0..cut) (the session's list taken over
 * by the caller, freed here), then on to the next decision, and saves. */
static int take_back(serve_session *s, char **lines, int n, int cut, char *err, size_t errn)
{
    int rc = replay(s, lines, cut, err, errn);
    if (rc == 0) rc = settle(s, err, errn);
    if (rc == 0) rc = session_save(s, err, errn);
    for (int i = 0; i < n; i++) free(lines[i]);
    free(lines);
    if (s->stored > cut) s->stored = cut;
    s->generation++;
    return rc;
}

int session_undo(serve_session *s, char *err, size_t errn, int *status)
{
    *status = 409;
    if (carc_is_finished(s->g)) { /* its record is final */
        snprintf(err, errn, "the game is over: its moves can no longer be taken back");
        return -1;
    }
    int cut = s->nlines - 1;
    while (cut >= 0 && !session_is_human(s, s->line_seat[cut])) cut--;
    if (cut < 0) {
        snprintf(err, errn, "there is no move made at the page to take back");
        return -1;
    }
    /* Replays the lines before the cut; the list is taken over first, since
     * the replay writes the lines anew. */
    char **lines = s->lines;
    int *seats = s->line_seat, n = s->nlines;
    s->lines = NULL;
    s->line_seat = NULL;
    s->nlines = s->cap = 0;
    s->line_bytes = 0;
    *status = 500;
    int rc = take_back(s, lines, n, cut, err, errn);
    free(seats);
    return rc;
}

int session_end(serve_session *s, char *err, size_t errn, int *status)
{
    *status = 409;
    if (carc_is_finished(s->g)) {
        snprintf(err, errn, "the game is over already");
        return -1;
    }
    /* `end` goes between two turns: before the draw that began the turn
     * being played (its moves so far are taken back), or before an earlier
     * draw when that one cannot end there. */
    for (int cut = s->nlines - 1; cut >= 0; cut--) {
        if (s->line_seat[cut] != -1 || strncmp(s->lines[cut], "draw ", 5) != 0) continue;
        char **lines = malloc((size_t)(cut + 1) * sizeof *lines);
        if (!lines) break;
        for (int i = 0; i < cut; i++) lines[i] = s->lines[i];
        lines[cut] = "end";
        /* a trial on a copy of the lines: the session's own stay until it works */
        char **old = s->lines;
        int *seats = s->line_seat, n = s->nlines, cap = s->cap;
        s->lines = NULL;
        s->line_seat = NULL;
        s->nlines = s->cap = 0;
        s->line_bytes = 0;
        char e[512] = "";
        int rc = replay(s, lines, cut + 1, e, sizeof e);
        free(lines);
        if (rc == 0) {
            for (int i = 0; i < n; i++) free(old[i]);
            free(old);
            free(seats);
            if (s->stored > cut) s->stored = cut;
            s->generation++;
            *status = 500;
            return session_save(s, err, errn);
        }
        for (int i = 0; i < s->nlines; i++) free(s->lines[i]);
        free(s->lines);
        free(s->line_seat);
        s->lines = old;
        s->line_seat = seats;
        s->nlines = n;
        s->cap = cap;
        s->line_bytes = 0;
        for (int i = 0; i < n; i++) s->line_bytes += strlen(old[i]) + 1;
    }
    /* nothing ends it: the game as it was */
    char **lines = s->lines;
    int n = s->nlines;
    int *seats = s->line_seat;
    s->lines = NULL;
    s->line_seat = NULL;
    s->nlines = s->cap = 0;
    s->line_bytes = 0;
    *status = 500;
    if (take_back(s, lines, n, n, err, errn) == 0) snprintf(err, errn, "the game cannot end here");
    free(seats);
    *status = 409;
    return -1;
}
