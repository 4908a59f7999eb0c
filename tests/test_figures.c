/* test_figures.c - figures as data (plugin API version 2): a large follower
 * of strength 2 defined by a C plugin (tests/plugins/large) wins 2 against 1
 * on a cloister (the records tests/scenarios/large-*.rec show the road, the
 * city, every farm mode, the portal, the dragon and the princess with the
 * Lua twin); the kernel, the portal and the princess offer it exactly once;
 * and a plugin built against the version-1 header still loads and plays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "game_checks.h"
#include "helpers.h"

#define LARGE_HEADER(opts)                                                                              \
    "carcassonne-record 1\nvariant tests/variants/test-large-c.ini\nseed 1\nplayer Red random\n" \
    "player Blue random\n" opts "---\n"

/* How many options of the pending decision read exactly `text`, and how
 * many start with `prefix`. */
static int count_options(const carc_game *g, const char *text, const char *prefix, int *with_prefix)
{
    int same = 0, pre = 0;
    for (int i = 0; i < carc_option_count(g); i++) {
        char buf[256];
        carc_option_text(g, i, buf, sizeof buf);
        same += strcmp(buf, text) == 0;
        pre += strncmp(buf, prefix, strlen(prefix)) == 0;
    }
    if (with_prefix) *with_prefix = pre;
    return same;
}

/* The game's decision is pending after the record's lines. */
static carc_game *at_decision(const char *text, carc_rules **r)
{
    carc_game *g = replay_text(text, r);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    return g;
}

/* BASE-18 with strengths: on a cloister (the fixture adds Blue's follower
 * next to Red's large one), the incomplete cloister's 2 points go to Red
 * alone: 2 against 1. */
static void test_large_follower_wins_a_cloister(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(LARGE_HEADER("option large.guest=yes\n")
                               "draw base:B\nplace 0,1 r0\ndeploy large-follower cloister@inner\nend\n",
                               &r);
    assert_true(carc_is_finished(g));
    assert_int_equal(carc_score(g, 0), 2); /* 1 + 1 tile around it */
    assert_int_equal(carc_score(g, 1), 0);
    assert_int_equal(carc_supply(g, 1, "follower"), 6); /* Blue's follower stood there */
    carc_game_free(g);
    carc_rules_free(r);
}

/* The kernel offers the large follower on the placed tile once per segment,
 * beside the follower. */
static void test_large_follower_offered_once_on_the_placed_tile(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = at_decision(LARGE_HEADER("") "draw base:F\nplace 0,-1 r90\n", &r);
    int large, follower;
    assert_int_equal(count_options(g, "deploy large-follower city@N", "deploy large-follower", &large), 1);
    assert_int_equal(count_options(g, "deploy follower city@N", "deploy follower", &follower), 1);
    assert_int_equal(large, 3); /* the city and the two fields of F */
    assert_int_equal(follower, 3);
    carc_game_free(g);
    carc_rules_free(r);
}

/* PD-13: through the portal, once per free segment of other tiles. */
static void test_large_follower_offered_once_through_the_portal(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = at_decision(LARGE_HEADER("") "draw princess-dragon:R\nplace 1,0 r0\n", &r);
    assert_int_equal(count_options(g, "deploy large-follower city@N at 0,0", "", NULL), 1);
    int portal;
    count_options(g, "", "deploy large-follower city@N at", &portal);
    assert_int_equal(portal, 1); /* the start tile's city, on no other tile */
    int k = carc_option_match(g, "deploy large-follower city@N at 0,0");
    assert_true(k >= 0);
    assert_int_equal(carc_choose(g, k), 0);
    assert_int_equal(carc_supply(g, 0, "large-follower"), 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* PD-11: the princess offers one removal for the large follower (one
 * figure, whatever its strength). */
static void test_large_follower_removed_once_by_the_princess(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = at_decision(LARGE_HEADER("") "draw base:F\nplace 0,-1 r90\ndeploy large-follower city@S\n"
                                                "draw princess-dragon:A\nplace 0,-2 r180\n",
                               &r);
    int removals;
    assert_int_equal(count_options(g, "princess 0,-1 city@N", "princess", &removals), 1);
    assert_int_equal(removals, 1);
    assert_int_equal(carc_choose(g, carc_option_match(g, "princess 0,-1 city@N")), 0);
    assert_int_equal(carc_supply(g, 0, "large-follower"), 1);
    carc_game_free(g);
    carc_rules_free(r);
}

/* PD-9: the dragon eats it once; it goes back to the supply. */
static void test_large_follower_eaten_once_by_the_dragon(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(LARGE_HEADER("") "draw base:F\nplace 0,-1 r90\ndeploy large-follower city@S\n"
                                                "draw princess-dragon:X\nplace 1,0 r90\npass\n"
                                                "draw princess-dragon:H\nplace 2,0 r90\npass\ndragon W\ndragon N\n",
                               &r);
    assert_int_equal(carc_supply(g, 0, "large-follower"), 1);
    int removed = 0, kind, owner, where, tile, seg, space;
    for (int f = 0; f < carc_figures(g); f++)
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where && owner == 0) removed++;
    assert_int_equal(removed, 0); /* nothing of Red's is left on the board */
    carc_game_free(g);
    carc_rules_free(r);
}

#define V1_HEADER                                                                                   \
    "carcassonne-record 1\nvariant tests/variants/test-v1compat.ini\nseed 3\nplayer Red random\n" \
    "player Blue random\n---\n"

/* A plugin built against the version-1 header loads and plays: its
 * options, its figure kinds (a version-1 follower kind is not offered by the
 * kernel: version 1 had no deployable kinds), its awards. */
static void test_version_1_plugin_loads_and_plays(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = at_decision(V1_HEADER "draw base:F\nplace 0,-1 r90\n", &r);
    int knights, kernel_knights;
    assert_int_equal(count_options(g, "v1-mark 0,-1", "", NULL), 1);
    assert_int_equal(count_options(g, "v1-knight city@N", "v1-knight", &knights), 1);
    assert_int_equal(knights, 1);
    count_options(g, "", "deploy v1-knight", &kernel_knights);
    assert_int_equal(kernel_knights, 0);
    carc_game_free(g);
    carc_rules_free(r);
    /* The road-closer of turn 2 pays 3 (W, D, W), then the road itself. */
    g = replay_text(V1_HEADER "draw base:W\nplace 1,0 r0\ndeploy follower road@W\n"
                              "draw base:W\nplace -1,0 r0\nv1-mark -1,0\nend\n",
                    &r);
    assert_int_equal(carc_score(g, 1), 3);
    assert_int_equal(carc_score(g, 0), 3);
    carc_game_free(g);
    carc_rules_free(r);
    /* Whole random games. */
    char err[512];
    r = carc_variant_load("tests/variants/test-v1compat.ini", NULL, 0, err, sizeof err);
    assert_non_null(r);
    carc_rng rng;
    carc_rng_seed(&rng, 11, 0);
    for (int i = 0; i < 30; i++) {
        const char *names[] = {"Red", "Blue", "Green"};
        carc_game *gg = carc_game_new(r, 2 + i % 2, names, (uint64_t)i + 1, err, sizeof err);
        assert_non_null(gg);
        play_uniform_to_end(gg, &rng);
        carc_game_free(gg);
    }
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_follower_wins_a_cloister),
        cmocka_unit_test(test_large_follower_offered_once_on_the_placed_tile),
        cmocka_unit_test(test_large_follower_offered_once_through_the_portal),
        cmocka_unit_test(test_large_follower_removed_once_by_the_princess),
        cmocka_unit_test(test_large_follower_eaten_once_by_the_dragon),
        cmocka_unit_test(test_version_1_plugin_loads_and_plays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
