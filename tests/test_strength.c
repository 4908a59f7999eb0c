/* test_strength.c - API version 4's figure and majority gaps, with the test
 * plugin tests/plugins/strength: a supply that depends on the number of
 * players, a follower declared with strength 0 (it occupies, wins nothing
 * unless a handler gives it strength: BASE-18's majority), and the majority
 * asked without scoring (feature_majority). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core.h"
#include "helpers.h"

#define HEADER "carcassonne-record 1\nvariant tests/variants/test-strength.ini\nseed 5\nplayer Red random\nplayer Blue random\n---\n"

typedef struct strength_state {
    int probes, best, strengths[CARC_MAX_PLAYERS];
} strength_state;

static const strength_state *state_of(const carc_game *g)
{
    for (int i = 0; i < g->rules->nplugins; i++)
        if (strcmp(g->rules->plugins[i]->name, "strength") == 0)
            return (const strength_state *)(g->pstate + g->rules->plugins[i]->state_off);
    fail_msg("no strength plugin");
    return NULL;
}

/* Floors: 10, 9, 7, 6, 5 each for 2 to 6 players; followers stay 7. */
static void test_supply_by_players(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = carc_variant_load("tests/variants/test-strength.ini", NULL, 0, err, sizeof err);
    assert_non_null(r);
    static const int floors[] = {0, 0, 10, 9, 7, 6, 5};
    for (int n = 2; n <= 6; n++) {
        carc_game *g = carc_game_new(r, n, NULL, 1, err, sizeof err);
        assert_non_null(g);
        for (int p = 0; p < n; p++) {
            assert_int_equal(carc_supply(g, p, "floor"), floors[n]);
            assert_int_equal(carc_supply(g, p, "follower"), 7);
            assert_int_equal(carc_supply(g, p, "mayor"), 1);
        }
        carc_game_free(g);
    }
    carc_rules_free(r);
}

/* Red's mayor on a city without pennants (strength 0) holds it but wins
 * nothing: the completed 2-tile city scores for nobody, the mayor comes
 * back. The probe asked the majority first: 0 for everyone, and asking
 * scored nothing. */
static void test_strength_zero_wins_nothing(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER "draw base:E\nplace 0,1 r180\ndeploy mayor city@S\n"
                                      "draw base:E\nplace 0,2 r0\npass\nend\n", &r);
    assert_int_equal(carc_score(g, 0), 0);
    assert_int_equal(carc_score(g, 1), 0);
    assert_int_equal(carc_supply(g, 0, "mayor"), 1);
    const strength_state *s = state_of(g);
    assert_int_equal(s->probes, 2);
    carc_game_free(g);
    carc_rules_free(r);

    /* The same city left open after turn 1: the probe saw Red's mayor at
     * strength 0, and nothing was scored or marked. */
    g = replay_text(HEADER "draw base:E\nplace 0,1 r180\ndeploy mayor city@S\n", &r);
    s = state_of(g);
    assert_int_equal(s->probes, 1);
    assert_int_equal(s->best, 0);
    assert_int_equal(s->strengths[0], 0);
    assert_int_equal(carc_awards(g), 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* With a pennant the handler gives the mayor strength 1: Red wins the
 * incomplete city at the end, 2 tiles + 1 pennant = 3 (BASE-21). */
static void test_strength_from_handler(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER "draw base:E\nplace 0,1 r180\ndeploy mayor city@S\n"
                                      "draw base:M\nplace 0,2 r0\npass\nend\n", &r);
    const strength_state *s = state_of(g);
    assert_int_equal(s->best, 1);
    assert_int_equal(s->strengths[0], 1);
    assert_int_equal(s->strengths[1], 0);
    assert_int_equal(carc_score(g, 0), 3);
    assert_int_equal(carc_score(g, 1), 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* The Lua twin (tests/scripts/strength.lua, carc.set_supply_by_players,
 * strength_zero, carc.feature_majority): the same supplies and scores. */
static void test_script_twin(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = carc_variant_load("tests/variants/test-strength-lua.ini", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    static const int floors[] = {0, 0, 10, 9, 7, 6, 5};
    for (int n = 2; n <= 6; n++) {
        carc_game *g = carc_game_new(r, n, NULL, 1, err, sizeof err);
        assert_non_null(g);
        assert_int_equal(carc_supply(g, n - 1, "floor"), floors[n]);
        assert_int_equal(carc_supply(g, 0, "mayor"), 1);
        carc_game_free(g);
    }
    carc_rules_free(r);
    static const struct {
        const char *tile;
        int red;
    } cases[] = {{"E", 0}, {"M", 3}};
    for (size_t i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "carcassonne-record 1\nvariant tests/variants/test-strength-lua.ini\nseed 5\nplayer Red random\n"
                 "player Blue random\n---\ndraw base:E\nplace 0,1 r180\ndeploy mayor city@S\ndraw base:%s\n"
                 "place 0,2 r0\npass\nend\n",
                 cases[i].tile);
        carc_game *g = replay_text(text, &r);
        assert_int_equal(carc_score(g, 0), cases[i].red);
        assert_int_equal(carc_score(g, 1), 0);
        carc_game_free(g);
        carc_rules_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_supply_by_players),
        cmocka_unit_test(test_strength_zero_wins_nothing),
        cmocka_unit_test(test_strength_from_handler),
        cmocka_unit_test(test_script_twin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
