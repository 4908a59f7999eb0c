/*
 * test_scenarios.c - replays every record under tests/scenarios/ and checks
 * what its "#!" lines expect (docs/records.md):
 *
 *   #! rule BASE-16              the rule(s) the scenario tests (required)
 *   #! expect NAME SCORE         the player's final score
 *   #! expect-supply NAME N      followers in the player's supply at the end
 *   #! expect-event NAME REASON POINTS   the next scoring event, in order
 *   #! expect-finished yes|no    whether the game is over (default: either)
 *   #! expect-error LINE         replay must stop at this line of the file
 *
 * With expect-event lines, the events must be exactly those, in that order.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "carc.h"
#include "record.h"

#define MAX_SCENARIOS 512

typedef struct expect {
    char rules[256];
    int nscores;
    char score_name[CARC_MAX_PLAYERS][32];
    int score[CARC_MAX_PLAYERS];
    int nsupply;
    char supply_name[CARC_MAX_PLAYERS][32];
    int supply[CARC_MAX_PLAYERS];
    int nevents;
    char ev_name[256][32];
    char ev_reason[256][32];
    int ev_points[256];
    int finished;   /* -1 either */
    int error_line; /* 0 none */
} expect;

static char scenario_paths[MAX_SCENARIOS][512];

static void parse_expect(const char *path, expect *e)
{
    memset(e, 0, sizeof *e);
    e->finished = -1;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *s = line + strspn(line, " \t");
        if (strncmp(s, "#!", 2) != 0) continue;
        s += 2;
        char key[64], a[32], b[32], c[32];
        int n = sscanf(s, "%63s %31s %31s %31s", key, a, b, c);
        if (n >= 2 && strcmp(key, "rule") == 0) {
            strncat(e->rules, s + strspn(s, " \t") + 4, sizeof e->rules - strlen(e->rules) - 1);
        } else if (n == 3 && strcmp(key, "expect") == 0) {
            snprintf(e->score_name[e->nscores], 32, "%s", a);
            e->score[e->nscores++] = atoi(b);
        } else if (n == 3 && strcmp(key, "expect-supply") == 0) {
            snprintf(e->supply_name[e->nsupply], 32, "%s", a);
            e->supply[e->nsupply++] = atoi(b);
        } else if (n == 4 && strcmp(key, "expect-event") == 0 && e->nevents < 256) {
            snprintf(e->ev_name[e->nevents], 32, "%s", a);
            snprintf(e->ev_reason[e->nevents], 32, "%s", b);
            e->ev_points[e->nevents++] = atoi(c);
        } else if (n == 2 && strcmp(key, "expect-finished") == 0) {
            e->finished = strcmp(a, "yes") == 0;
        } else if (n == 2 && strcmp(key, "expect-error") == 0) {
            e->error_line = atoi(a);
        } else {
            fail_msg("%s: unknown directive '#!%s'", path, s);
        }
    }
    fclose(f);
    if (!e->rules[0]) fail_msg("%s: no '#! rule' line: a scenario cites the rules it tests", path);
    if (!e->error_line && !e->nscores) fail_msg("%s: expects nothing (no '#! expect')", path);
}

static int seat_of(const carc_game *g, const char *name)
{
    for (int p = 0; p < carc_players(g); p++)
        if (strcmp(carc_player_name(g, p), name) == 0) return p;
    return -1;
}

static void run_scenario(void **state)
{
    const char *path = *state;
    expect e;
    parse_expect(path, &e);
    char err[8192];
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        if (e.error_line) {
            char want[600];
            snprintf(want, sizeof want, "%s:%d:", path, e.error_line);
            if (strncmp(err, want, strlen(want)) == 0) return;
        }
        fail_msg("%s", err);
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    carc_game *g = NULL;
    int rc = carc_replay(&rec, rules, &g, err, sizeof err);
    if (e.error_line) {
        char want[600];
        snprintf(want, sizeof want, "%s:%d:", path, e.error_line);
        if (rc == 0) fail_msg("%s: replay succeeded but line %d should have stopped it", path, e.error_line);
        if (strncmp(err, want, strlen(want)) != 0) fail_msg("%s: stopped elsewhere: %s", path, err);
    } else {
        if (rc < 0) fail_msg("%s", err);
        for (int i = 0; i < e.nscores; i++) {
            int p = seat_of(g, e.score_name[i]);
            if (p < 0) fail_msg("%s: no player %s", path, e.score_name[i]);
            if (carc_score(g, p) != e.score[i])
                fail_msg("%s: %s scored %d, expected %d", path, e.score_name[i], carc_score(g, p), e.score[i]);
        }
        for (int i = 0; i < e.nsupply; i++) {
            int p = seat_of(g, e.supply_name[i]);
            if (p < 0) fail_msg("%s: no player %s", path, e.supply_name[i]);
            int s = carc_supply(g, p, "follower");
            if (s != e.supply[i]) fail_msg("%s: %s has %d in supply, expected %d", path, e.supply_name[i], s, e.supply[i]);
        }
        if (e.finished >= 0 && carc_is_finished(g) != e.finished)
            fail_msg("%s: finished is %d, expected %d", path, carc_is_finished(g), e.finished);
        if (e.nevents) {
            int n = carc_awards(g);
            for (int i = 0; i < n || i < e.nevents; i++) {
                if (i >= n) fail_msg("%s: event %d missing: %s %s %d", path, i + 1, e.ev_name[i], e.ev_reason[i], e.ev_points[i]);
                const carc_award *a = carc_award_at(g, i);
                const char *name = carc_player_name(g, a->player), *reason = carc_reason_name(rules, a->reason);
                if (i >= e.nevents) fail_msg("%s: unexpected event %d: %s %s %d", path, i + 1, name, reason, a->points);
                if (strcmp(name, e.ev_name[i]) || strcmp(reason, e.ev_reason[i]) || a->points != e.ev_points[i])
                    fail_msg("%s: event %d is %s %s %d, expected %s %s %d", path, i + 1, name, reason, a->points,
                             e.ev_name[i], e.ev_reason[i], e.ev_points[i]);
            }
        }
    }
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
}

static int cmp(const void *a, const void *b) { return strcmp(a, b); }

int main(void)
{
    const char *dir = "tests/scenarios";
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "test_scenarios: cannot open %s (run from the project root)\n", dir);
        return 1;
    }
    int n = 0;
    for (struct dirent *ent; (ent = readdir(d)) && n < MAX_SCENARIOS;) {
        size_t l = strlen(ent->d_name);
        if (l > 4 && strcmp(ent->d_name + l - 4, ".rec") == 0)
            snprintf(scenario_paths[n++], sizeof scenario_paths[0], "%s/%s", dir, ent->d_name);
    }
    closedir(d);
    qsort(scenario_paths, (size_t)n, sizeof scenario_paths[0], cmp);
    if (n == 0) {
        fprintf(stderr, "test_scenarios: no scenario in %s\n", dir);
        return 1;
    }
    struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
    for (int i = 0; i < n; i++) {
        tests[i].name = scenario_paths[i] + strlen(dir) + 1;
        tests[i].test_func = run_scenario;
        tests[i].initial_state = scenario_paths[i];
    }
    int rc = _cmocka_run_group_tests("scenarios", tests, (size_t)n, NULL, NULL);
    free(tests);
    return rc;
}
