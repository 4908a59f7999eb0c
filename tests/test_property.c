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
    move_invariants *v = malloc(sizeof *v);
    for (int i = 0; i < games; i++) {
        *v = (move_invariants){.per_player = 7};
        carc_game *g = play_game(rules, &(play_spec){.players = 2 + i % 5, .seed = (uint64_t)i + 1, .variant = "base",
                                                     .moved = check_invariants_moved, .user = v});
        assert_true(carc_is_finished(g));
        carc_game_free(g);
    }
    free(v);
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
    for (int k = 0; k < 2; k++) g[k] = play_game(rules, &(play_spec){.players = 3, .seed = 77, .agent = "greedy"});
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

/* Greedy's pattern: every option of a decision tried in turn on one
 * scratch game copied from the same source, with no play between the
 * tries, so a copy finds the nodes of the last try's source and leaves
 * them (game_copy, nodes_epoch) and the farms' kept city counts stay
 * (field_cities). Each try is checked (kernel/check.c recounts every
 * feature's open ports and occupants) and is the same game as a clone
 * answering that option, with the same estimate of the final scores;
 * likewise one level deeper, on a second scratch copied from the first. */
static void try_each_option(const carc_game *src, carc_game *scratch, carc_game *deeper, int depth)
{
    char msg[400];
    for (int o = 0; o < carc_option_count(src); o++) {
        carc_game *c = carc_game_clone(src);
        assert_non_null(c);
        assert_int_equal(carc_choose(c, o), 0);
        assert_int_equal(carc_game_try(scratch, src, o), 0);
        int sc = carc_advance(c), ss = carc_advance(scratch);
        assert_int_equal(sc, ss);
        same_state_but_log(c, scratch);
        if (carc_game_check(scratch, msg, sizeof msg) < 0) fail_msg("try %d: %s", o, msg);
        int ec[CARC_MAX_PLAYERS] = {0}, es[CARC_MAX_PLAYERS] = {0};
        carc_estimate_final(c, ec);
        carc_estimate_final(scratch, es);
        assert_memory_equal(ec, es, sizeof ec);
        if (depth > 0 && ss == CARC_NEED_CHOICE) try_each_option(scratch, deeper, NULL, depth - 1);
        carc_game_free(c);
    }
}

static void test_reused_scratch_matches_clone(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("all-expansions", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    carc_game *g = carc_game_new(rules, 2, NULL, 3, err, sizeof err);
    if (!g) fail_msg("%s", err);
    carc_game *scratch = carc_game_clone(g), *deeper = carc_game_clone(g);
    carc_rng rng;
    carc_rng_seed(&rng, 3, 1);
    for (int d = 0;; d++) {
        int st = carc_advance(g);
        if (st == CARC_FINISHED) break;
        if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            continue;
        }
        if (d % 7 == 0) try_each_option(g, scratch, deeper, 1);
        carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
    }
    carc_game_free(scratch);
    carc_game_free(deeper);
    carc_game_free(g);
    carc_rules_free(rules);
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
        cmocka_unit_test(test_reused_scratch_matches_clone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
