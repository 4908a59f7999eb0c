/* scenario.c - checks a scenario record's "#!" directives (scenario.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "record.h"
#include "regular_file.h"
#include "scenario.h"

#define MAX_EXPECT_EVENTS 1024

typedef struct expect {
    char rules[256];
    int nscores;
    char score_name[CARC_MAX_PLAYERS][32];
    int score[CARC_MAX_PLAYERS];
    int nsupply;
    char supply_name[CARC_MAX_PLAYERS * 4][32];
    char supply_kind[CARC_MAX_PLAYERS * 4][32];
    int supply[CARC_MAX_PLAYERS * 4];
    int nheld;                          /* expect-held: figures a player holds */
    char held_name[CARC_MAX_PLAYERS * 4][32];
    char held_kind[CARC_MAX_PLAYERS * 4][32];
    int held[CARC_MAX_PLAYERS * 4];
    int nevents;
    char ev_name[MAX_EXPECT_EVENTS][32];
    char ev_reason[MAX_EXPECT_EVENTS][32];
    int ev_points[MAX_EXPECT_EVENTS];
    int event_count; /* -1 any */
    int finished;   /* -1 either */
    int error_line; /* 0 none */
    char error_text[512]; /* what the stop's message must contain ("" anything) */
} expect;

/* A whole number; false if s is not one. */
static int whole(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < -1000000 || v > 1000000) return 0;
    *out = (int)v;
    return 1;
}

/* Reads the directives; 0, or -1 with "path:line: ..." in msg. */
static int parse_expect(const char *path, expect *e, char *msg, size_t msgn)
{
    memset(e, 0, sizeof *e);
    e->finished = -1;
    e->event_count = -1;
    /* A FIFO or a device is refused, never waited on. */
    FILE *f = regular_file_open(path, "record", CARC_RECORD_MAX_BYTES, NULL, msg, msgn);
    if (!f) return -1;
    char line[1024];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line + strspn(line, " \t");
        if (strncmp(s, "#!", 2) != 0) continue;
        s += 2;
        s[strcspn(s, "\r\n")] = 0;
        char key[64], a[32], b[32], c[32], extra[2];
        int n = sscanf(s, "%63s %31s %31s %31s %1s", key, a, b, c, extra);
        int v = 0, w = 0;
        if (n >= 2 && strcmp(key, "rule") == 0) {
            const char *ids = s + strspn(s, " \t") + 4;
            ids += strspn(ids, " \t");
            size_t used = strlen(e->rules);
            snprintf(e->rules + used, sizeof e->rules - used, "%s%s", used ? " " : "", ids);
        } else if (n == 3 && strcmp(key, "expect") == 0 && whole(b, &v)) {
            if (e->nscores == CARC_MAX_PLAYERS) goto too_many;
            snprintf(e->score_name[e->nscores], 32, "%s", a);
            e->score[e->nscores++] = v;
        } else if ((n == 3 || n == 4) && strcmp(key, "expect-supply") == 0 && whole(b, &v)) {
            if (e->nsupply == CARC_MAX_PLAYERS * 4) goto too_many;
            snprintf(e->supply_name[e->nsupply], 32, "%s", a);
            snprintf(e->supply_kind[e->nsupply], 32, "%s", n == 4 ? c : "follower");
            e->supply[e->nsupply++] = v;
        } else if ((n == 3 || n == 4) && strcmp(key, "expect-held") == 0 && whole(b, &v) && v >= 0) {
            if (e->nheld == CARC_MAX_PLAYERS * 4) goto too_many;
            snprintf(e->held_name[e->nheld], 32, "%s", a);
            snprintf(e->held_kind[e->nheld], 32, "%s", n == 4 ? c : "follower");
            e->held[e->nheld++] = v;
        } else if (n == 4 && strcmp(key, "expect-event") == 0 && whole(c, &w)) {
            if (e->nevents == MAX_EXPECT_EVENTS) goto too_many;
            snprintf(e->ev_name[e->nevents], 32, "%s", a);
            snprintf(e->ev_reason[e->nevents], 32, "%s", b);
            e->ev_points[e->nevents++] = w;
        } else if (n == 2 && strcmp(key, "expect-event-count") == 0 && whole(a, &v) && v >= 0) {
            e->event_count = v;
        } else if (n == 2 && strcmp(key, "expect-finished") == 0 && (!strcmp(a, "yes") || !strcmp(a, "no"))) {
            e->finished = strcmp(a, "yes") == 0;
        } else if (n >= 2 && strcmp(key, "expect-error") == 0 && whole(a, &v) && v > 0) {
            /* expect-error LINE [MESSAGE]: the rest of the line, trimmed, is
             * a part of the message the replay must stop with. */
            e->error_line = v;
            const char *rest = s + strspn(s, " \t");
            rest += strcspn(rest, " \t");        /* past the key */
            rest += strspn(rest, " \t");
            rest += strcspn(rest, " \t");        /* past LINE */
            rest += strspn(rest, " \t");
            size_t len = strlen(rest);
            while (len && (rest[len - 1] == ' ' || rest[len - 1] == '\t')) len--;
            if (len >= sizeof e->error_text) {
                snprintf(msg, msgn, "%s:%d: the expected message is longer than %zu characters", path, lineno,
                         sizeof e->error_text - 1);
                rc = -1;
                continue;
            }
            memcpy(e->error_text, rest, len);
            e->error_text[len] = 0;
        } else {
            snprintf(msg, msgn,
                     "%s:%d: '#!%s' is not a directive (expected rule IDS, expect NAME SCORE, expect-supply NAME N [KIND], "
                     "expect-held NAME N [KIND], "
                     "expect-event NAME REASON POINTS, expect-event-count N, expect-finished yes|no or expect-error LINE [MESSAGE])",
                     path, lineno, s);
            rc = -1;
        }
        continue;
    too_many:
        snprintf(msg, msgn, "%s:%d: too many directives of this kind", path, lineno);
        rc = -1;
    }
    fclose(f);
    if (rc) return rc;
    if (!e->rules[0]) {
        snprintf(msg, msgn, "%s: no '#! rule' line: a scenario cites the rules it tests", path);
        return -1;
    }
    if (!e->error_line && !e->nscores) {
        snprintf(msg, msgn, "%s: expects nothing (no '#! expect' line)", path);
        return -1;
    }
    return 0;
}

static int seat_of(const carc_game *g, const char *name)
{
    for (int p = 0; p < carc_players(g); p++)
        if (strcmp(carc_player_name(g, p), name) == 0) return p;
    return -1;
}

/* The game's end against the directives; 0 or -1 with msg. */
static int check_game(const char *path, const expect *e, const carc_rules *rules, const carc_game *g, char *msg,
                      size_t msgn)
{
    for (int i = 0; i < e->nscores; i++) {
        int p = seat_of(g, e->score_name[i]);
        if (p < 0) return snprintf(msg, msgn, "%s: no player %s", path, e->score_name[i]), -1;
        if (carc_score(g, p) != e->score[i])
            return snprintf(msg, msgn, "%s: %s scored %d, expected %d", path, e->score_name[i], carc_score(g, p),
                            e->score[i]),
                   -1;
    }
    for (int i = 0; i < e->nsupply; i++) {
        int p = seat_of(g, e->supply_name[i]);
        if (p < 0) return snprintf(msg, msgn, "%s: no player %s", path, e->supply_name[i]), -1;
        int s = carc_supply(g, p, e->supply_kind[i]);
        if (s < 0) return snprintf(msg, msgn, "%s: no figure kind %s", path, e->supply_kind[i]), -1;
        if (s != e->supply[i])
            return snprintf(msg, msgn, "%s: %s has %d %s in supply, expected %d", path, e->supply_name[i], s,
                            e->supply_kind[i], e->supply[i]),
                   -1;
    }
    for (int i = 0; i < e->nheld; i++) {
        int p = seat_of(g, e->held_name[i]);
        if (p < 0) return snprintf(msg, msgn, "%s: no player %s", path, e->held_name[i]), -1;
        int k = -1, n = 0;
        for (int j = 0; j < carc_figure_kinds(rules); j++)
            if (strcmp(carc_figure_kind_name(rules, j), e->held_kind[i]) == 0) k = j;
        if (k < 0) return snprintf(msg, msgn, "%s: no figure kind %s", path, e->held_kind[i]), -1;
        for (int f = 0; f < carc_figures(g); f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == CARC_AT_HELD && space == p &&
                kind == k)
                n++;
        }
        if (n != e->held[i])
            return snprintf(msg, msgn, "%s: %s holds %d %s, expected %d", path, e->held_name[i], n, e->held_kind[i],
                            e->held[i]),
                   -1;
    }
    if (e->finished >= 0 && carc_is_finished(g) != e->finished)
        return snprintf(msg, msgn, "%s: finished is %s, expected %s", path, carc_is_finished(g) ? "yes" : "no",
                        e->finished ? "yes" : "no"),
               -1;
    int n = carc_events(g);
    if (e->event_count >= 0 && n != e->event_count)
        return snprintf(msg, msgn, "%s: %d scoring events, expected %d", path, n, e->event_count), -1;
    if (!e->nevents) return 0;
    for (int i = 0; i < n || i < e->nevents; i++) {
        if (i >= n)
            return snprintf(msg, msgn, "%s: event %d missing: %s %s %d", path, i + 1, e->ev_name[i], e->ev_reason[i],
                            e->ev_points[i]),
                   -1;
        const carc_award *a = carc_event_at(g, i);
        const char *name = carc_player_name(g, a->player), *reason = carc_reason_name(rules, a->reason);
        if (i >= e->nevents)
            return snprintf(msg, msgn, "%s: unexpected event %d: %s %s %d", path, i + 1, name, reason, a->points), -1;
        if (strcmp(name, e->ev_name[i]) || strcmp(reason, e->ev_reason[i]) || a->points != e->ev_points[i])
            return snprintf(msg, msgn, "%s: event %d is %s %s %d, expected %s %s %d", path, i + 1, name, reason,
                            a->points, e->ev_name[i], e->ev_reason[i], e->ev_points[i]),
                   -1;
    }
    return 0;
}

/* Whether err is the stop at the expected line ("path:LINE: ...") with the
 * expected message in it (when the directive names one). */
static int stopped_at(const char *path, const expect *e, const char *err)
{
    char want[600];
    snprintf(want, sizeof want, "%s:%d:", path, e->error_line);
    return strncmp(err, want, strlen(want)) == 0 && (!e->error_text[0] || strstr(err, e->error_text));
}

int scenario_check(const char *path, char *rules_out, size_t rulesn, char *msg, size_t msgn)
{
    static _Thread_local expect e; /* large: kept off the stack */
    if (rules_out && rulesn) *rules_out = 0;
    msg[0] = 0;
    if (parse_expect(path, &e, msg, msgn) < 0) return 1;
    if (rules_out && rulesn) snprintf(rules_out, rulesn, "%s", e.rules);
    char err[8192] = "";
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        if (e.error_line && stopped_at(path, &e, err)) return 0;
        snprintf(msg, msgn, "%s", err);
        return 1;
    }
    int rc = 1;
    carc_game *g = NULL;
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    if (!rules) {
        snprintf(msg, msgn, "%s", err);
    } else if (carc_replay(&rec, rules, &g, err, sizeof err) < 0) {
        if (e.error_line && stopped_at(path, &e, err)) rc = 0;
        else if (e.error_line && e.error_text[0])
            snprintf(msg, msgn, "%s: expected a stop at line %d with '%s', got: %s", path, e.error_line, e.error_text, err);
        else if (e.error_line) snprintf(msg, msgn, "%s: stopped elsewhere than line %d: %s", path, e.error_line, err);
        else snprintf(msg, msgn, "%s", err);
    } else if (e.error_line) {
        snprintf(msg, msgn, "%s: replay succeeded but line %d should have stopped it", path, e.error_line);
    } else {
        rc = check_game(path, &e, rules, g, msg, msgn) < 0 ? 1 : 0;
    }
    if (g) carc_game_free(g);
    if (rules) carc_rules_free(rules);
    carc_record_free(&rec);
    return rc;
}
