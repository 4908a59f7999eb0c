/* test_property.c - thousands of seeded random games with invariants checked
 * after every move: followers conserved (BASE-2, BASE-19), no feature scored
 * twice, scores never decrease, and every record replays to the same final
 * state; clones and look-ahead copies go on as the original. CARC_TEST_GAMES sets the number of games (default 2000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "helpers.h"

static int games_to_play(void)
{
    const char *s = getenv("CARC_TEST_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 2000;
}

static void test_random_games_invariants(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(rules);
    int games = games_to_play();
    scored_once *scored = malloc(sizeof *scored);
    for (int i = 0; i < games; i++) {
        int n = 2 + i % 5;
        uint64_t seed = (uint64_t)i + 1;
        const char *names[] = {"A", "B", "C", "D", "E", "F"}, *agents[] = {"random", "random", "random", "random", "random", "random"};
        carc_game *g = carc_game_new(rules, n, names, seed, err, sizeof err);
        assert_non_null(g);
        agent *ag[CARC_MAX_PLAYERS];
        for (int p = 0; p < n; p++) ag[p] = agent_create("random", seed, p, err, sizeof err);
        carc_record_writer w;
        carc_writer_begin(&w, "base", seed, n, names, agents, NULL, 0);
        int prev[CARC_MAX_PLAYERS] = {0}, nlog = 0;
        scored->n = 0;
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            assert_int_not_equal(st, CARC_FAILED);
            answer_and_record(g, st, ag, &w);
            check_game_invariants(g, 7, prev, scored, &nlog);
        }
        check_game_invariants(g, 7, prev, scored, &nlog);
        check_record_replays(&w, rules, g, "property");
        carc_writer_free(&w);
        for (int p = 0; p < n; p++) agent_free(ag[p]);
        carc_game_free(g);
    }
    free(scored);
    carc_rules_free(rules);
}

/* One seed decides the whole game: the same seed twice, the same game. */
static void test_same_seed_same_game(void **state)
{
    (void)state;
    char err[512];
    carc_rules *rules = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(rules);
    carc_game *g[2];
    for (int k = 0; k < 2; k++) {
        g[k] = carc_game_new(rules, 3, NULL, 77, err, sizeof err);
        agent *ag[3];
        for (int p = 0; p < 3; p++) ag[p] = agent_create("greedy", 77, p, err, sizeof err);
        for (int st; (st = carc_advance(g[k])) != CARC_FINISHED;) {
            assert_int_not_equal(st, CARC_FAILED);
            if (st == CARC_NEED_DRAW) carc_draw(g[k], -1);
            else carc_choose(g[k], ag[carc_decision_player(g[k])]->choose(ag[carc_decision_player(g[k])], g[k]));
        }
        for (int p = 0; p < 3; p++) agent_free(ag[p]);
    }
    same_final_state(g[0], g[1]);
    carc_game_free(g[0]);
    carc_game_free(g[1]);
    carc_rules_free(rules);
}

/* A clone continues exactly as the original. */
static void test_clone_continues_identically(void **state)
{
    (void)state;
    char err[512];
    carc_rules *rules = carc_variant_load("base", NULL, 0, err, sizeof err);
    for (uint64_t seed = 1; seed <= 10; seed++) check_clone_continues(rules, 2, seed, 40);
    carc_rules_free(rules);
}

/* A look-ahead try (carc_game_try into a reused scratch game) is the same
 * game as a clone answering the same option, in the base game and with
 * every expansion (scripts' state, decisions of several plugins). */
static void test_try_matches_clone(void **state)
{
    (void)state;
    const char *variants[] = {"base", "all-expansions", "traders-builders"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        char err[8192];
        carc_rules *rules = carc_variant_load(variants[v], NULL, 0, err, sizeof err);
        if (!rules) fail_msg("%s", err);
        for (uint64_t seed = 1; seed <= 2; seed++) check_try_matches_clone(rules, 2 + (int)seed % 2, seed, 9);
        carc_rules_free(rules);
    }
}

int main(void)
{
    /* Every game here checks itself after every move (kernel/check.c). */
    setenv("CARC_CHECK", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_invariants),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_clone_continues_identically),
        cmocka_unit_test(test_try_matches_clone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
