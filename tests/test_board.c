/* test_board.c - legal placements counted by hand on fixed boards (perft),
 * BASE-5 (edges must match, any rotation, all four rotations distinct). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "helpers.h"

static int count_type(const carc_game *g, const char *name)
{
    int t = carc_tile_type_find(carc_game_rules(g), name);
    assert_true(t >= 0);
    return carc_count_placements(g, t);
}

#define HEADER "carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n"

/* BASE-5: on the start tile alone a type has one placement per rotation that
 * puts the letter each open side needs there: 4 + (road edges). */
static void test_perft_start_tile_all_types(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER, &r);
    int total = 0;
    for (int t = 0; t < carc_tile_types(r); t++) total += carc_count_placements(g, t);
    assert_int_equal(total, 123);
    assert_int_equal(count_type(g, "base:C"), 4);  /* CCCC: only north of D */
    assert_int_equal(count_type(g, "base:X"), 8);  /* RRRR: east and west, 4 each */
    assert_int_equal(count_type(g, "base:U"), 6);  /* FRFR: 2 + 2 + 1 + 1 */
    carc_game_free(g);
    carc_rules_free(r);
}

/* D at 0,0; E at 0,-1 turned r180 (its city faces D's). Open cells: 0,-2 S=F;
 * 1,-1 W=F; -1,-1 E=F; 1,0 W=R; -1,0 E=R; 0,1 N=F. */
static void test_perft_two_tiles(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER "draw base:E\nplace 0,-1 r180\npass\n", &r);
    assert_int_equal(count_type(g, "base:U"), 12); /* 4 F-cells x 2 + 2 R-cells x 2 */
    assert_int_equal(count_type(g, "base:C"), 0);
    assert_int_equal(count_type(g, "base:B"), 16);
    assert_int_equal(count_type(g, "base:X"), 8);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Adds U at 1,0: cell 1,-1 now needs W=F and S=F at once. For E (CFFF):
 * 0,-2: 3; -1,-1: 3; -1,0: 0; 0,1: 3; 1,-1: 2 (r0, r90); 2,0: 0; 1,1: 3. */
static void test_perft_corner_cell(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER "draw base:E\nplace 0,-1 r180\npass\ndraw base:U\nplace 1,0 r0\npass\n", &r);
    assert_int_equal(count_type(g, "base:E"), 14);
    carc_game_free(g);
    carc_rules_free(r);
}

/* The place decision offers exactly the counted placements. */
static void test_place_options_match_count(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER "draw base:E\nplace 0,-1 r180\npass\ndraw base:U\n", &r);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_int_equal(carc_option_count(g), 12);
    char t[64];
    carc_option_text(g, 0, t, sizeof t);
    assert_memory_equal(t, "place ", 6);
    carc_game_free(g);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start_tile_all_types),
        cmocka_unit_test(test_perft_two_tiles),
        cmocka_unit_test(test_perft_corner_cell),
        cmocka_unit_test(test_place_options_match_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
