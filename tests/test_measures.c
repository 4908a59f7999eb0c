/* test_measures.c - the measures of docs/measures.md on games built by hand
 * with values computed by hand: a game's trace (lead changes, the turn the
 * winner led from for good, turns the winner was behind, options and
 * choices), each per-game measure, the skill gap with seats rotated, the
 * winner-changed share against unrelated games, restricted play, and the
 * sweep: its axes, and every point on the baseline's seeds with the
 * baseline played once. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"

#include "agents.h"
#include "game_trace.h"
#include "measures.h"
#include "report.h"
#include "study.h"
#include "sweep.h"

/* Feeds the snapshots after turns 0..n-2 and the final one (turn n-1). */
static void feed(game_trace *t, const int (*scores)[3], int n, int players)
{
    game_trace_begin(t);
    for (int k = 0; k < n - 1; k++) game_trace_scores(t, k, scores[k], players);
    game_trace_finish(t, n - 1, scores[n - 1], players);
}

/* Two players; the lead goes 0, 1, (tie), 0, 1: three changes; the winner
 * (seat 2) leads alone only in the final snapshot: led from turn 5; it was
 * behind after turns 1 and 4. */
static void test_trace_lead_changes(void **state)
{
    (void)state;
    const int s[][3] = {{0, 0}, {3, 0}, {3, 5}, {5, 5}, {9, 5}, {9, 12}};
    game_trace t;
    feed(&t, s, 6, 2);
    assert_int_equal(t.snapshots, 6);
    assert_int_equal(t.lead_changes, 3);
    assert_int_equal(t.led_from, 5);
    assert_int_equal(t.winner_behind, 2);
}

/* The winner leads from turn 1 on: no change, led from 1, never behind. */
static void test_trace_wire_to_wire(void **state)
{
    (void)state;
    const int s[][3] = {{0, 0}, {0, 2}, {1, 4}, {10, 20}};
    game_trace t;
    feed(&t, s, 4, 2);
    assert_int_equal(t.lead_changes, 0);
    assert_int_equal(t.led_from, 1);
    assert_int_equal(t.winner_behind, 0);
}

/* A tie for the win: decided only at the end (led_from = the last turn);
 * winner_behind is the tied winner's least time behind (seat 1: 0, seat
 * 2: 1). A tie in between breaks the streak: in the three-player game the
 * winner (seat 3) led after turn 1, was tied after turn 2, and led again
 * from turn 3. */
static void test_trace_ties(void **state)
{
    (void)state;
    const int tie[][3] = {{0, 0}, {2, 0}, {2, 2}};
    game_trace t;
    feed(&t, tie, 3, 2);
    assert_int_equal(t.led_from, 2);
    assert_int_equal(t.lead_changes, 0);
    assert_int_equal(t.winner_behind, 0);
    const int three[][3] = {{0, 0, 0}, {1, 0, 4}, {4, 0, 4}, {4, 2, 8}, {6, 2, 9}};
    feed(&t, three, 5, 3);
    assert_int_equal(t.led_from, 3);
    assert_int_equal(t.lead_changes, 0);  /* seat 3 led, a tie, seat 3 again */
    assert_int_equal(t.winner_behind, 0); /* tied at the top after turn 2: not behind */
}

static void test_trace_decisions(void **state)
{
    (void)state;
    game_trace t;
    game_trace_begin(&t);
    game_trace_decision(&t, 1);
    game_trace_decision(&t, 16);
    game_trace_decision(&t, 3);
    assert_int_equal(t.decisions, 3);
    assert_int_equal(t.choice_decisions, 2);
    assert_int_equal((int)t.options, 20);
    /* what a game line carries reads back */
    game_trace u;
    game_trace_begin(&u);
    for (int i = 0; i < GAME_TRACE_FIELDS; i++)
        assert_true(game_trace_set_field(&u, game_trace_field_name(i), game_trace_field(&t, i)));
    assert_false(game_trace_set_field(&u, "no-such-field", 1));
    assert_int_equal(u.options, 20);
    assert_int_equal(u.choice_decisions, 2);
}

static void two_player_study(study *s, bool rotate)
{
    study_init(s);
    s->nplayers = s->nagents = 2;
    snprintf(s->agents[0], sizeof s->agents[0], "greedy");
    snprintf(s->agents[1], sizeof s->agents[1], "random");
    s->rotate = rotate;
}

static const measure_ref *find(const measure_ref *m, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(m[i].key, key) == 0) return &m[i];
    return NULL;
}

/* Every per-game measure on one hand-built game. */
static void test_measure_values(void **state)
{
    (void)state;
    static study s;
    two_player_study(&s, true);
    study_reason(&s, "road");
    study_reason(&s, "farm");
    study_game g = {.index = 1, .turns = 40};
    /* game 1, seats rotated: seat 1 plays agent 1 (random), seat 2 agent 0 (greedy) */
    g.agent[0] = 1;
    g.agent[1] = 0;
    g.score[0] = 30;
    g.score[1] = 48;
    g.points[1] = 12;
    g.trace = (game_trace){.snapshots = 41, .lead_changes = 3, .led_from = 25, .winner_behind = 10, .decisions = 80,
                           .choice_decisions = 60, .options = 1000};
    measure_ref m[MEASURES_MAX];
    int n = measures_all(&s, m, MEASURES_MAX);
    struct {
        const char *key;
        double want;
    } cases[] = {
        {"spread", 18},           {"margin", 18},         {"relative-margin", 18.0 / 48}, {"first-win", 0},
        {"seat-win:2", 1},        {"length", 40},         {"skill-gap", 1},                {"lead-changes", 3},
        {"led-from", 25},         {"winner-behind", 10.0 / 41}, {"options", 1000.0 / 80},  {"choices", 60.0 / 40},
        {"points:farm", 12},      {"points:road", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const measure_ref *r = find(m, n, cases[i].key);
        if (!r) fail_msg("no measure %s", cases[i].key);
        assert_float_equal(measure_value(&s, &g, r), cases[i].want, 1e-12);
    }
    /* a tie: each seat half a win; the skill gap too */
    g.score[0] = 48;
    assert_float_equal(measure_value(&s, &g, find(m, n, "skill-gap")), 0.5, 1e-12);
    assert_float_equal(measure_value(&s, &g, find(m, n, "first-win")), 0.5, 1e-12);
    assert_float_equal(measure_value(&s, &g, find(m, n, "relative-margin")), 0, 1e-12);
}

/* The skill gap exists only with seats rotated; a seat's win share past the
 * first only with three players or more (with two it is 1 - the first's). */
static void test_which_measures(void **state)
{
    (void)state;
    static study s;
    measure_ref m[MEASURES_MAX];
    two_player_study(&s, false);
    int n = measures_of(&s, m, MEASURES_MAX);
    assert_null(find(m, n, "skill-gap"));
    assert_null(find(m, n, "seat-win:2"));
    assert_non_null(find(m, n, "lead-changes"));
    two_player_study(&s, true);
    n = measures_of(&s, m, MEASURES_MAX);
    assert_non_null(find(m, n, "skill-gap"));
    s.nplayers = s.nagents = 3;
    snprintf(s.agents[2], sizeof s.agents[2], "random");
    n = measures_of(&s, m, MEASURES_MAX);
    assert_non_null(find(m, n, "seat-win:3"));
    assert_string_equal(find(m, n, "seat-win:3")->unit, "share");
}

/* Winner changed: A's winners 1,1,2,2 and B's 1,2,2,2 (game by game): one
 * pair changed. Unrelated (A's k against B's k + 1): 1-2, 1-2, 2-2, 2-1:
 * three differ. */
static void test_winner_change_unrelated(void **state)
{
    (void)state;
    static study a, b;
    two_player_study(&a, false);
    two_player_study(&b, false);
    const int wa[] = {0, 0, 1, 1}, wb[] = {0, 1, 1, 1};
    study_game ga[4], gb[4];
    memset(ga, 0, sizeof ga);
    memset(gb, 0, sizeof gb);
    for (int i = 0; i < 4; i++) {
        ga[i].index = gb[i].index = i;
        ga[i].score[wa[i]] = 10;
        gb[i].score[wb[i]] = 10;
    }
    a.results = ga;
    b.results = gb;
    a.nresults = b.nresults = 4;
    winner_change w = compare_winner_change(&a, &b);
    assert_int_equal(w.games, 4);
    assert_int_equal(w.changed, 1);
    assert_int_equal(w.unrelated_changed, 3);
    a.results = b.results = NULL;
}

/* Plays a base game with option 0 answered everywhere, until a decision
 * offers a figure on a field; there no-farmers forbids exactly those. */
static void test_restricted_agent(void **state)
{
    (void)state;
    char err[512] = "";
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(r);
    const char *names[2] = {"A", "B"};
    carc_game *g = carc_game_new(r, 2, names, 7, err, sizeof err);
    assert_non_null(g);
    agent *plain = agent_create("greedy", 7, 0, err, sizeof err), *nofarm = agent_create("greedy:no-farmers", 7, 0, err, sizeof err);
    agent *nofig = agent_create("random:no-figure=follower", 7, 0, err, sizeof err);
    assert_non_null(plain);
    assert_non_null(nofarm);
    assert_non_null(nofig);
    agent *search = agent_create("mcts:no-farmers", 7, 0, err, sizeof err);
    assert_non_null(search);
    assert_null(agent_create("human:no-farmers", 7, 0, err, sizeof err));
    assert_null(agent_create("greedy:no-figure=", 7, 0, err, sizeof err));
    int checked = 0;
    for (int steps = 0; steps < 2000 && checked < 5; steps++) {
        int st = carc_advance(g);
        if (st == CARC_FINISHED) break;
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            continue;
        }
        int n = carc_option_count(g), fields = 0, deploys = 0;
        char text[CARC_OPTION_TEXT_MAX + 1];
        for (int i = 0; i < n; i++) {
            carc_option_text(g, i, text, sizeof text);
            bool field = strncmp(text, "deploy ", 7) == 0 && strstr(text, " field@");
            bool deploy = strncmp(text, "deploy follower ", 16) == 0;
            fields += field;
            deploys += deploy;
            assert_true(agent_allows(plain, g, i));
            assert_int_equal(agent_allows(nofarm, g, i), !field);
            assert_int_equal(agent_allows(search, g, i), !field);
            assert_int_equal(agent_allows(nofig, g, i), !deploy);
        }
        if (fields) checked++;
        assert_int_equal(carc_choose(g, 0), 0);
    }
    assert_true(checked >= 1);
    agent_free(plain);
    agent_free(nofarm);
    agent_free(nofig);
    agent_free(search);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Counts seat 0's deploys (seen[0]) and those on a field (seen[1]). */
static void count_seat_0_deploys(carc_game *g, int option, const char *text, void *user)
{
    (void)option;
    int *seen = user;
    if (carc_decision_player(g) != 0 || strncmp(text, "deploy ", 7) != 0) return;
    seen[0]++;
    seen[1] += strstr(text, " field@") != NULL;
}

/* Seat 0's deploys by `spec` against random over two base games. */
static void search_deploys(const carc_rules *r, const char *spec, int seen[2])
{
    for (int seed = 1; seed <= 2; seed++) {
        const char *seats[2] = {spec, "random"};
        carc_game *g = play_game(r, &(play_spec){.seed = (uint64_t)seed, .seat_agents = seats,
                                                 .choosing = count_seat_0_deploys, .user = seen});
        assert_true(carc_is_finished(g));
        carc_game_free(g);
    }
}

/* Restricted play with the search: over whole games its seat never puts a
 * follower on a field (its tree and playouts plan without farmers), while
 * the same search unrestricted does on the same seeds. */
static void test_restricted_search(void **state)
{
    (void)state;
    char err[512] = "";
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(r);
    int restricted[2] = {0, 0}, free_play[2] = {0, 0};
    search_deploys(r, "mcts:60it:no-farmers", restricted);
    search_deploys(r, "mcts:60it", free_play);
    assert_true(restricted[0] > 5);
    assert_int_equal(restricted[1], 0);
    assert_true(free_play[1] > 0);
    carc_rules_free(r);
}

static void test_trace_of_a_study(void **state)
{
    (void)state;
    static study s;
    study_init(&s);
    snprintf(s.variant, sizeof s.variant, "base");
    s.games = 3;
    s.seed = 5;
    s.nplayers = s.nagents = 2;
    snprintf(s.agents[0], sizeof s.agents[0], "random");
    snprintf(s.agents[1], sizeof s.agents[1], "random");
    assert_int_equal(study_run(&s), 0);
    for (int i = 0; i < s.nresults; i++) {
        const study_game *g = &s.results[i];
        assert_int_equal(g->trace.snapshots, g->turns + 1);
        assert_true(g->trace.decisions >= g->turns);        /* a placement a turn at least */
        assert_true(g->trace.choice_decisions <= g->trace.decisions);
        assert_true(g->trace.led_from >= 0 && g->trace.led_from <= g->turns);
        assert_true(g->trace.options >= g->trace.decisions);
    }
    study_free(&s);
}

static void test_sweep_axes(void **state)
{
    (void)state;
    sweep_axis ax;
    char err[512];
    assert_int_equal(sweep_axis_parse("road-closer.points-per-tile=0..4", &ax, err, sizeof err), 0);
    assert_string_equal(ax.key, "road-closer.points-per-tile");
    assert_int_equal(ax.nvalues, 5);
    assert_string_equal(ax.values[4], "4");
    assert_int_equal(sweep_axis_parse("k=0..10:2", &ax, err, sizeof err), 0);
    assert_int_equal(ax.nvalues, 6);
    assert_string_equal(ax.values[5], "10");
    assert_int_equal(sweep_axis_parse("farm-scoring=none,per-city-once", &ax, err, sizeof err), 0);
    assert_int_equal(ax.nvalues, 2);
    assert_string_equal(ax.values[1], "per-city-once");
    const char *bad[] = {"k=4..0", "k=", "=1", "k=a,a", "k=0..4:0", "k=0..1000", "k", "k=1..2x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(sweep_axis_parse(bad[i], &ax, err, sizeof err), -1);
}

/* Two points and a baseline of 20 games: 60 games played, not 80 (the
 * baseline once); every point's game i has the baseline's seed; the point
 * equal to the baseline's rules (farm-scoring=per-farm, the default) gives
 * the very same games (every difference 0); Holm's family is every row. */
static void test_sweep_shares_seeds(void **state)
{
    (void)state;
    static sweep sw;
    memset(&sw, 0, sizeof sw);
    study_init(&sw.base);
    snprintf(sw.base.variant, sizeof sw.base.variant, "base");
    sw.base.games = 20;
    sw.base.seed = 11;
    sw.base.nplayers = sw.base.nagents = 2;
    snprintf(sw.base.agents[0], sizeof sw.base.agents[0], "random");
    snprintf(sw.base.agents[1], sizeof sw.base.agents[1], "random");
    char err[512];
    assert_int_equal(sweep_axis_parse("farm-scoring=per-farm,none", &sw.axes[0], err, sizeof err), 0);
    sw.naxes = 1;
    assert_int_equal(sweep_plan(&sw, "base"), 0);
    assert_int_equal(sw.npoints, 2);
    assert_int_equal(sweep_run(&sw), 0);
    assert_int_equal(sweep_games_played(&sw), 60);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 20; i++) assert_true(sw.points[k].results[i].seed == sw.base.results[i].seed);
    compare_settings cs;
    compare_settings_default(&cs);
    compare_row *rows = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *rows);
    int *point = calloc((size_t)SWEEP_MAX_POINTS * COMPARE_MAX_ROWS, sizeof *point);
    assert_non_null(rows);
    assert_non_null(point);
    int n = sweep_rows(&sw, &cs, rows, point), farm_none = -1;
    assert_true(n > 10);
    for (int i = 0; i < n; i++) {
        if (point[i] == 0) assert_float_equal(rows[i].diff, 0, 0);
        if (point[i] == 1 && strcmp(rows[i].key, "points:farm") == 0) farm_none = i;
    }
    assert_true(farm_none >= 0);
    assert_float_equal(rows[farm_none].b, 0, 0);
    assert_true(rows[farm_none].diff < 0);
    /* Holm over the whole sweep: the smallest p-value is tested at 5% / n */
    int best = 0;
    for (int i = 1; i < n; i++)
        if (rows[i].p < rows[best].p) best = i;
    assert_float_equal(rows[best].p_holm, fmin(1, n * rows[best].p), 1e-9);
    free(rows);
    free(point);
    sweep_free(&sw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_lead_changes),     cmocka_unit_test(test_trace_wire_to_wire),
        cmocka_unit_test(test_trace_ties),             cmocka_unit_test(test_trace_decisions),
        cmocka_unit_test(test_measure_values),         cmocka_unit_test(test_which_measures),
        cmocka_unit_test(test_winner_change_unrelated), cmocka_unit_test(test_restricted_agent),
        cmocka_unit_test(test_restricted_search),
        cmocka_unit_test(test_trace_of_a_study),       cmocka_unit_test(test_sweep_axes),
        cmocka_unit_test(test_sweep_shares_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
