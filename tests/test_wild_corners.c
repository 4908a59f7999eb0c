/* test_wild_corners.c - two kernel pieces of plugin API version 5, with
 * the test set tests/tiles/test-wild.ini and the test plugin wildcorner
 * (tests/variants/test-wild.ini):
 *
 * - Wild edges (tile sets' `kinds = NAME:L:wild`, the abbey's): a tile
 *   with wild edges fits every frontier position in every rotation, a
 *   wild side asks nothing of a tile placed beside it, and a wild edge
 *   closes the feature facing it (a road closed by wild edges at both ends
 *   is complete and scored: tests/scenarios/test-wild-closes.rec).
 * - Figures at a corner (CARC_AT_CORNER, corner_feature): the plugin
 *   stands a neutral post wherever four fields meet at a corner of a placed
 *   tile; every post is checked against the board (four tiles around its
 *   point, each with a field on both its ports there), and at the end of a
 *   game every such point has its post.
 *
 * The same from a script (tests/scripts/wall-kind.lua: carc.corner_feature,
 * carc.AT_CORNER). Random games run with the kernel's self-check after every move (the
 * frontier and the feature graph recomputed, wild edges included) and
 * replay from their records to the same state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "game_checks.h"
#include "expansion_games.h"
#include "helpers.h"
#include "abbey_mayor_checks.h"

static const char *variant = "tests/variants/test-wild.ini";

static carc_rules *load(void)
{
    char err[8192];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

/* The wild tile fits the four spaces around the start tile in all four
 * turns, whatever the start tile's edges are (a city, roads, a field). */
static void test_wild_fits_anywhere(void **state)
{
    (void)state;
    carc_rules *r = load();
    char err[512];
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    if (!g) fail_msg("%s", err);
    assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
    assert_int_equal(carc_draw(g, carc_tile_type_find(r, "test-wild:P")), 0);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_int_equal(carc_option_count(g), 16);
    /* Placed north of the start tile's city: the city is closed there. */
    int k = carc_option_match(g, "place 0,-1 r0");
    assert_true(k >= 0);
    assert_int_equal(carc_choose(g, k), 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Every post stands where four fields meet, and every corner point where
 * four fields meet has one post. */
static void check_posts(const carc_game *g, void *user, bool final)
{
    (void)user;
    const carc_rules *r = carc_game_rules(g);
    int posts = 0;
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space, x, y, rot, type;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == CARC_AT_NONE) continue;
        if (strcmp(carc_figure_kind_name(r, kind), "post") != 0) continue;
        posts++;
        assert_int_equal(where, CARC_AT_CORNER);
        assert_int_equal(owner, -1);
        assert_true(space >= 0 && space < CARC_CORNERS);
        carc_tile_at_index(g, tile, &x, &y, &rot, &type);
        int px = x + (space == 1 || space == 2), py = y + (space == 2 || space == 3);
        static const int ax[4] = {0, -1, -1, 0}, ay[4] = {0, 0, -1, -1};
        for (int c = 0; c < 4; c++) {
            int t = carc_tile_index_at(g, px + ax[c], py + ay[c]);
            if (t < 0 || !corner_is_field(g, t, c)) fail_msg("a post at %d,%d corner %d where four fields do not meet", x, y, space);
        }
    }
    if (!final) return;
    /* Count the points where four fields meet: each tile's NW corner. */
    int points = 0;
    for (int i = 0; i < carc_tiles_placed(g); i++) {
        int x, y, rot, type;
        carc_tile_at_index(g, i, &x, &y, &rot, &type);
        static const int ax[4] = {0, -1, -1, 0}, ay[4] = {0, 0, -1, -1};
        bool all = true;
        for (int c = 0; c < 4 && all; c++) {
            int t = carc_tile_index_at(g, x + ax[c], y + ay[c]);
            all = t >= 0 && corner_is_field(g, t, c);
        }
        points += all;
    }
    assert_int_equal(posts, points);
}

static void test_random_games(void **state)
{
    (void)state;
    carc_rules *r = load();
    for (int i = 0; i < 40; i++) play_checked_game(r, 2 + i % 4, (uint64_t)i + 1, NULL, 0, check_posts, NULL);
    carc_rules_free(r);
}

/* The same with the kind and the posts from a script (carc.corner_feature,
 * carc.AT_CORNER: tests/scripts/wall-kind.lua). */
static void test_random_games_lua(void **state)
{
    (void)state;
    variant = "tests/variants/test-wild-lua.ini";
    carc_rules *r = load();
    for (int i = 0; i < 20; i++) play_checked_game(r, 2 + i % 4, (uint64_t)i + 1, NULL, 0, check_posts, NULL);
    carc_rules_free(r);
    variant = "tests/variants/test-wild.ini";
}

static void test_clones(void **state)
{
    (void)state;
    carc_rules *r = load();
    for (int seed = 1; seed <= 10; seed++) check_clone_continues(r, 2 + seed % 3, (uint64_t)seed, 10 + seed * 5);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wild_fits_anywhere),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_games_lua),
        cmocka_unit_test(test_clones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
