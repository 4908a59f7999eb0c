/* test_board.c - legal placements counted by hand on fixed boards (perft),
 * BASE-5 (edges must match, any rotation, all four rotations distinct);
 * perft three decisions deep, counted by hand on a small case and by two
 * routes through the game tree that share no code of the walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "helpers.h"
#include "rng.h"
#include "play.h"

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

/* ---- perft three decisions deep ------------------------------------------- */

/* Leaves of the decision tree `depth` decisions below g. A draw is not a
 * decision: the next tile comes from `script` (types by name, one per draw
 * in order, NULL past its end: the seeded pile), the same in every branch.
 * Walked with a clone per option and carc_choose. */
typedef struct perft_script {
    const char *const *tiles;
    int ntiles;
} perft_script;

/* Answers draws until a decision is pending (from the script at draw number
 * *drawn, or the seeded pile); the status carc_advance ends on. */
static int advance_drawing(carc_game *g, const perft_script *s, int *drawn)
{
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) {
        int type = -1;
        if (*drawn < s->ntiles) {
            type = carc_tile_type_find(carc_game_rules(g), s->tiles[*drawn]);
            assert_true(type >= 0);
        }
        (*drawn)++;
        assert_int_equal(carc_draw(g, type), 0);
    }
    if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
    return st;
}

static long perft_by_clone(carc_game *g, int depth, const perft_script *s, int drawn)
{
    if (advance_drawing(g, s, &drawn) == CARC_FINISHED) return 1;
    if (depth == 0) return 1;
    int n = carc_option_count(g);
    if (depth == 1) return n;
    long total = 0;
    for (int o = 0; o < n; o++) {
        carc_game *c = carc_game_clone(g);
        assert_non_null(c);
        assert_int_equal(carc_choose(c, o), 0);
        total += perft_by_clone(c, depth - 1, s, drawn);
        carc_game_free(c);
    }
    return total;
}

/* The same count by another route: each option tried on a look-ahead copy
 * kept per level (carc_game_try, as the bots search), and a tile's last
 * placement decision counted by carc_count_placements instead of its
 * options. scratch[] holds one game per level. */
static long perft_by_try(carc_game *g, int depth, const perft_script *s, int drawn, carc_game **scratch)
{
    if (advance_drawing(g, s, &drawn) == CARC_FINISHED) return 1;
    if (depth == 0) return 1;
    if (depth == 1 && strcmp(carc_decision_label(g), "place") == 0)
        return carc_count_placements(g, carc_last_drawn(g));
    long total = 0;
    for (int o = 0, n = carc_option_count(g); o < n; o++) {
        assert_int_equal(carc_game_try(scratch[0], g, o), 0);
        total += perft_by_try(scratch[0], depth - 1, s, drawn, scratch + 1);
    }
    return total;
}

/* perft 1..3 of g by both routes: they agree and equal want[0..2]. */
static void check_perft(const carc_game *g, const perft_script *s, const long want[3])
{
    for (int depth = 1; depth <= 3; depth++) {
        carc_game *a = carc_game_clone(g), *b = carc_game_clone(g), *scratch[3];
        for (int i = 0; i < 3; i++) scratch[i] = carc_game_clone(g);
        long by_clone = perft_by_clone(a, depth, s, 0), by_try = perft_by_try(b, depth, s, 0, scratch);
        if (by_clone != by_try || by_clone != want[depth - 1])
            fail_msg("perft %d: %ld by clone, %ld by try, %ld expected", depth, by_clone, by_try, want[depth - 1]);
        for (int i = 0; i < 3; i++) carc_game_free(scratch[i]);
        carc_game_free(a);
        carc_game_free(b);
    }
}

/* By hand (BASE-5; BASE-7 and BASE-8: a follower on a segment of the placed
 * tile whose feature holds none, or none): on the start tile D (city N, road E-W, fields), B (FFFF, a
 * cloister) fits only south of D: 0,1 in 4 rotations. Its follower choice:
 * the cloister, the field (joined to D's free southern field) or none: 3.
 * The next B fits where only field edges meet: 1,1, -1,1 and 0,2, 4
 * rotations each: 12 whatever the first B's rotation. 4, 12, 144. */
static void test_perft3_cloisters_by_hand(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER, &r);
    const char *tiles[] = {"base:B", "base:B"};
    perft_script s = {tiles, 2};
    check_perft(g, &s, (const long[]){4, 12, 144});
    carc_game_free(g);
    carc_rules_free(r);
}

/* By hand: X (RRRR, a crossroads ending four roads) on the start tile fits
 * east or west of D in every rotation: 8. Its follower choice: the road
 * toward D (free), each of the three other roads, the four field corners
 * (the two facing D join D's free fields) or none: 9. The next tile C
 * (CCCC) fits only north of D: 4 placements, the crossroads touching no
 * city. 8, 72, 288. */
static void test_perft3_crossroads_by_hand(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(HEADER, &r);
    const char *tiles[] = {"base:X", "base:C"};
    perft_script s = {tiles, 2};
    check_perft(g, &s, (const long[]){8, 72, 288});
    carc_game_free(g);
    carc_rules_free(r);
}

/* Positions from seeded games (the seeded pile drawing): the two routes
 * agree, and the counts, stored here, do not change. */
static void perft_of_seeded_position(const char *variant, uint64_t seed, int decisions, const long want[3])
{
    char err[8192];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int k = 0;
    carc_game *g = play_game(r, &(play_spec){.players = 3, .seed = seed, .pick = play_pick_stride, .pick_state = &k,
                                             .max_decisions = decisions});
    assert_false(carc_is_finished(g));
    perft_script none = {NULL, 0};
    check_perft(g, &none, want);
    carc_game_free(g);
    carc_rules_free(r);
}

static void test_perft3_seeded_positions(void **state)
{
    (void)state;
    perft_of_seeded_position("base", 5, 15, (const long[]){3, 30, 132});
    perft_of_seeded_position("inns-cathedrals", 8, 20, (const long[]){13, 85, 1768});
    perft_of_seeded_position("all-expansions", 3, 25, (const long[]){5, 85, 808});
}

/* A kind with its own edge letter (tests/tiles/test-river.ini: kinds =
 * river:V): edges match by the kinds of their ports, so a river edge fits
 * only a river edge. Below the spring (its river leaves south) no base tile
 * fits, and a straight river fits there only upright (r0, r180). */
static void test_river_edges_fit_only_river(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("tests/variants/test-river.ini", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int type_r = carc_tile_type_find(r, "test-river:R");
    assert_true(type_r >= 0);
    for (int t = 0; t < carc_tile_types(r); t++) {
        if (strcmp(carc_tile_set_of(r, t), "base") != 0) continue;
        assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
        carc_game *c = carc_game_clone(g);
        assert_int_equal(carc_draw(c, t), 0);
        if (carc_advance(c) == CARC_NEED_DRAW) { /* no placement at all: discarded (a CCCC) */
            carc_game_free(c);
            continue;
        }
        for (int i = 0; i < carc_option_count(c); i++) {
            int x, y;
            assert_int_equal(carc_option_placement(c, i, NULL, &x, &y, NULL), 0);
            assert_false(x == 0 && y == 1); /* never against the river */
        }
        carc_game_free(c);
    }
    assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
    assert_int_equal(carc_draw(g, type_r), 0);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    int below = 0;
    for (int i = 0; i < carc_option_count(g); i++) {
        int x, y, rot;
        carc_option_placement(g, i, NULL, &x, &y, &rot);
        if (x == 0 && y == 1) {
            assert_true(rot == 0 || rot == 2);
            below++;
        } else if (y == -1) {
            /* North, east and west of the spring only turned so that a
             * field side faces the spring's field edge. */
            assert_true(rot == 1 || rot == 3);
        } else {
            assert_true(y == 0 && (x == 1 || x == -1) && (rot == 0 || rot == 2));
        }
    }
    assert_int_equal(below, 2);
    /* touches: the spring's river (segment 0) and its field (1) touch; the
     * straight river's segments touch nothing (no touches line). */
    int spring = carc_tile_type_find(r, "test-river:S");
    assert_int_equal(carc_type_segment_touches(r, spring, 0), 1u << 1);
    assert_int_equal(carc_type_segment_touches(r, spring, 1), 1u << 0);
    assert_int_equal(carc_type_segment_touches(r, type_r, 0), 0);
    carc_game_free(g);
    carc_rules_free(r);
}

/* The pile as data (tests/tiles/test-river-pile.ini: pile = first, last = L,
 * start = S), loaded after the base set: the spring starts, the river's 7
 * tiles are the first 7 drawn and the lake the 7th, in every seeded game;
 * a record that draws otherwise stops with the reason. */
static void test_pile_order_and_start(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("tests/variants/test-river-after.ini", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int lake = carc_tile_type_find(r, "test-river-pile:L");
    for (uint64_t seed = 1; seed <= 20; seed++) {
        carc_game *g = carc_game_new(r, 2, NULL, seed, err, sizeof err);
        assert_non_null(g);
        int x, y, rot, type;
        carc_tile_at_index(g, 0, &x, &y, &rot, &type);
        assert_string_equal(carc_tile_id(r, type), "S");
        assert_string_equal(carc_tile_set_of(r, type), "test-river-pile");
        carc_rng rng;
        carc_rng_seed(&rng, seed, 9);
        int draws = 0;
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
            if (st == CARC_NEED_DRAW) {
                assert_int_equal(carc_draw(g, -1), 0);
                int t = carc_last_drawn(g);
                draws++;
                assert_int_equal(strcmp(carc_tile_set_of(r, t), "test-river-pile") == 0, draws <= 7);
                assert_int_equal(t == lake, draws == 7);
            } else {
                carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
            }
        }
        carc_game_free(g);
    }
    carc_rules_free(r);

    const char *head = "carcassonne-record 1\nvariant tests/variants/test-river-after.ini\nseed 1\n"
                       "player Red random\nplayer Blue random\n---\n";
    static const struct {
        const char *lines, *why;
    } bad[] = {
        {"draw base:U\n", "base:U cannot be drawn now: the tiles of a set drawn first (pile = first) come before it"},
        {"draw test-river-pile:L\n", "test-river-pile:L cannot be drawn now: it comes last of the tiles drawn first"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, bad[i].lines);
        carc_record rec;
        assert_int_equal(carc_record_parse("order", text, strlen(text), &rec, err, sizeof err), 0);
        carc_rules *rr = carc_record_rules(&rec, err, sizeof err);
        assert_non_null(rr);
        carc_game *g = NULL;
        assert_int_equal(carc_replay(&rec, rr, &g, err, sizeof err), -1);
        if (!strstr(err, bad[i].why)) fail_msg("expected '%s' in: %s", bad[i].why, err);
        assert_non_null(strstr(err, "order:7:"));
        carc_game_free(g);
        carc_rules_free(rr);
        carc_record_free(&rec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start_tile_all_types),
        cmocka_unit_test(test_perft_two_tiles),
        cmocka_unit_test(test_perft_corner_cell),
        cmocka_unit_test(test_place_options_match_count),
        cmocka_unit_test(test_perft3_cloisters_by_hand),
        cmocka_unit_test(test_perft3_crossroads_by_hand),
        cmocka_unit_test(test_perft3_seeded_positions),
        cmocka_unit_test(test_river_edges_fit_only_river),
        cmocka_unit_test(test_pile_order_and_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
