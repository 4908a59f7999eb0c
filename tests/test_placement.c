/* test_placement.c - the placement decision opened to plugins (API version
 * 4), with the test plugin tests/plugins/placing: place-filter's vetoes
 * reach no player (no option west of x = 0, none of base:C), a tile with no
 * placement left after them follows unplaceable-tile (BASE-6), a held tile
 * placed instead of drawing (`place SET:ID X,Y rROT`, `draw-tile`), a tile
 * the plugin places itself, and records of all of it replaying. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "core.h"
#include "game_checks.h"
#include "helpers.h"
#include "play.h"

#define PLACING_HEADER "carcassonne-record 1\nvariant tests/variants/test-placing.ini\nseed 5\nplayer Red random\nplayer Blue random\n---\n"

/* Answers the pending draw or decision (the agent of the seat deciding)
 * and writes its record line. */
static void answer_and_record(carc_game *g, int st, agent **agents, carc_record_writer *w)
{
    char text[512];
    if (st == CARC_NEED_DRAW) {
        assert_int_equal(carc_draw(g, -1), 0);
        carc_draw_text(g, carc_last_drawn(g), text, sizeof text);
    } else {
        agent *a = agents[carc_decision_player(g)];
        int k = a->choose(a, g);
        carc_option_text(g, k, text, sizeof text);
        assert_int_equal(carc_choose(g, k), 0);
    }
    carc_writer_line(w, text);
}

typedef struct placing_state {
    int before_draw, after_draw, probes, vetoed, placed_held, placed_by_plugin, extra_tile;
    int type_b, type_c, type_u;
} placing_state;

static const placing_state *placing_of(const carc_game *g)
{
    for (int i = 0; i < g->rules->nplugins; i++)
        if (strcmp(g->rules->plugins[i]->name, "placing") == 0)
            return (const placing_state *)(g->pstate + g->rules->plugins[i]->state_off);
    fail_msg("no placing plugin");
    return NULL;
}

static carc_rules *load(const char *variant, const char *const *ov, int nov)
{
    char err[1024];
    carc_rules *r = carc_variant_load(variant, ov, nov, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

/* Every option of every decision a random game poses: a placement never
 * lies west of x = 0 nor is a base:C, and the board never shows one. */
static void check_options_filtered(const carc_game *g, int type_c)
{
    for (int i = 0; i < carc_option_count(g); i++) {
        int type, x, y, rot;
        if (carc_option_placement(g, i, &type, &x, &y, &rot) < 0) continue;
        assert_true(x >= 0);
        assert_int_not_equal(type, type_c);
        char text[128];
        carc_option_text(g, i, text, sizeof text);
        assert_true(strncmp(text, "place ", 6) == 0);
    }
}

static void play_placing_games(const char *const *ov, int nov, int games)
{
    carc_rules *r = load("tests/variants/test-placing.ini", ov, nov);
    char err[1024];
    for (int i = 0; i < games; i++) {
        int n = 2 + i % 4;
        uint64_t seed = (uint64_t)i + 100;
        const char *names[] = {"A", "B", "C", "D", "E", "F"};
        const char *agents[] = {"random", "random", "random", "random", "random", "random"};
        carc_game *g = carc_game_new(r, n, names, seed, err, sizeof err);
        if (!g) fail_msg("%s", err);
        int type_c = placing_of(g)->type_c, type_b = placing_of(g)->type_b;
        agent *ag[CARC_MAX_PLAYERS];
        for (int p = 0; p < n; p++) ag[p] = agent_create("random", seed, p, err, sizeof err);
        carc_record_writer w;
        carc_writer_begin(&w, "tests/variants/test-placing.ini", seed, n, names, agents, ov, nov);
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
            if (st == CARC_NEED_CHOICE) check_options_filtered(g, type_c);
            answer_and_record(g, st, ag, &w);
        }
        int held_placed = 0;
        for (int t = 1; t < carc_tiles_placed(g); t++) {
            int x, y, rot, type;
            carc_tile_at_index(g, t, &x, &y, &rot, &type);
            assert_true(x >= 0);                /* the filter's rule */
            assert_int_not_equal(type, type_c); /* never placeable */
        }
        for (int p = 0; p < n; p++) held_placed += 1 - carc_held_tiles(g, p);
        const placing_state *s = placing_of(g);
        assert_int_equal(s->placed_held, held_placed);
        assert_true(s->vetoed > 0);
        (void)type_b;
        check_record_replays(&w, r, g, "placing");
        carc_writer_free(&w);
        for (int p = 0; p < n; p++) agent_free(ag[p]);
        carc_game_free(g);
    }
    carc_rules_free(r);
}

static void test_vetoed_placements_reach_no_player(void **state)
{
    (void)state;
    play_placing_games(NULL, 0, 60);
}

/* unplaceable-tile=reshuffle with vetoes: a vetoed tile goes back, and the
 * game ends when no tile left in the pile has a placement the filter leaves
 * (BASE-6 as the option says). */
static void test_vetoed_tiles_reshuffled(void **state)
{
    (void)state;
    const char *ov[] = {"unplaceable-tile=reshuffle"};
    play_placing_games(ov, 1, 30);
}

/* The base:C drawn first has no placement left after the vetoes: it is
 * discarded (BASE-6), its draw line followed directly by the next. */
static void test_all_vetoed_is_unplaceable(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(PLACING_HEADER "draw-tile\ndraw base:C\ndraw base:U\nplace 1,0 r0\npass\n", &r);
    assert_int_equal(carc_tiles_placed(g), 2);
    assert_int_equal(carc_pile_left(g), 71 - 2);
    assert_true(placing_of(g)->probes >= 2); /* each drawn tile asked */
    carc_game_free(g);
    carc_rules_free(r);
}

/* Before the draw the player may place the cloister they hold: the turn
 * draws nothing (the pile keeps its 71 tiles), the hand is empty, and the
 * text names the tile. */
static void test_held_tile_instead_of_drawing(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = load("tests/variants/test-placing.ini", NULL, 0);
    carc_game *g = carc_game_new(r, 2, NULL, 5, err, sizeof err);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_string_equal(carc_decision_label(g), "place");
    int n = carc_option_count(g), draw = -1, held = -1;
    for (int i = 0; i < n; i++) {
        char t[128];
        carc_option_text(g, i, t, sizeof t);
        if (strcmp(t, "draw-tile") == 0) draw = i;
        if (strcmp(t, "place base:B 0,1 r90") == 0) held = i;
        int type;
        if (carc_option_placement(g, i, &type, NULL, NULL, NULL) == 0) assert_int_equal(type, placing_of(g)->type_b);
    }
    assert_int_equal(draw, n - 1); /* draw-tile comes last */
    assert_true(held >= 0);
    /* The cloister's fields fit only south of the start tile (CRFR), in
     * four rotations. */
    assert_int_equal(n, 4 + 1);
    assert_int_equal(carc_held_tiles(g, 0), 1);
    assert_int_equal(carc_held_tile(g, 0, 0), placing_of(g)->type_b);
    assert_int_equal(carc_held_tile(g, 0, 1), -1);
    assert_int_equal(carc_held_tile(g, carc_players(g), 0), -1); /* no such seat */
    assert_int_equal(carc_choose(g, held), 0);
    assert_int_equal(carc_held_tiles(g, 0), 0);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_string_equal(carc_decision_label(g), "action");
    assert_int_equal(carc_pile_left(g), 71);
    int x, y, rot, type;
    carc_tile_at_index(g, 1, &x, &y, &rot, &type);
    assert_true(x == 0 && y == 1 && rot == 1 && type == placing_of(g)->type_b);
    assert_int_equal(placing_of(g)->placed_held, 1);
    carc_game_free(g);
    carc_rules_free(r);

    /* The same as a record, and on: Blue draws, Red has no tile to offer
     * and draws without being asked. */
    g = replay_text(PLACING_HEADER "place base:B 0,1 r90\ndeploy follower cloister@inner\n"
                                   "draw-tile\ndraw base:E\nplace 0,-1 r180\npass\n"
                                   "draw base:U\nplace 1,0 r0\npass\n", &r);
    assert_int_equal(carc_tiles_placed(g), 4);
    assert_int_equal(carc_pile_left(g), 71 - 2);
    assert_int_equal(carc_held_tiles(g, 0), 0);
    assert_int_equal(carc_held_tiles(g, 1), 1);
    assert_int_equal(carc_supply(g, 0, "follower"), 6);
    carc_game_free(g);
    carc_rules_free(r);
}

/* Turn 4: the plugin takes a base:U from the pile and places it itself:
 * two tiles that turn, the pile one shorter, tile-placed says so. */
static void test_plugin_places_a_tile(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(PLACING_HEADER "draw-tile\ndraw base:E\nplace 0,-1 r180\npass\n"
                                              "draw-tile\ndraw base:U\nplace 1,0 r0\npass\n"
                                              "draw-tile\ndraw base:U\nplace 2,0 r0\npass\n"
                                              "draw-tile\ndraw base:U\nplace 3,0 r0\npass\n",
                               &r);
    const placing_state *s = placing_of(g);
    assert_int_equal(s->placed_by_plugin, 1);
    assert_int_equal(carc_tiles_placed(g), 6);
    assert_int_equal(s->extra_tile, 5);
    int x, y, rot, type;
    carc_tile_at_index(g, 5, &x, &y, &rot, &type);
    assert_int_equal(type, s->type_u);
    assert_true(x >= 0);
    assert_int_equal(carc_pile_left(g), 71 - 5);
    carc_game_free(g);
    carc_rules_free(r);
}

/* The base game poses its placements as before: no pre-draw decision,
 * kernel place options name the drawn type. */
static void test_base_unchanged(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = load("base", NULL, 0);
    carc_game *g = carc_game_new(r, 2, NULL, 5, err, sizeof err);
    assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
    assert_int_equal(carc_draw(g, carc_tile_type_find(r, "base:U")), 0);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    int type, x, y, rot;
    assert_int_equal(carc_option_placement(g, 0, &type, &x, &y, &rot), 0);
    assert_int_equal(type, carc_tile_type_find(r, "base:U"));
    char t[64];
    carc_option_text(g, 0, t, sizeof t);
    char expect[64];
    snprintf(expect, sizeof expect, "place %d,%d r%d", x, y, rot * 90);
    assert_string_equal(t, expect);
    carc_game_free(g);
    carc_rules_free(r);
}

/* The same filter as a script: place-filter, carc.offered_at (a = x),
 * carc.veto. No option and no tile west of x = 0; records replay. */
static void test_script_filter(void **state)
{
    (void)state;
    carc_rules *r = load("tests/variants/test-placing-lua.ini", NULL, 0);
    char err[1024];
    for (int i = 0; i < 10; i++) {
        uint64_t seed = (uint64_t)i + 7;
        const char *names[] = {"A", "B"}, *agents[] = {"random", "random"};
        carc_game *g = carc_game_new(r, 2, names, seed, err, sizeof err);
        if (!g) fail_msg("%s", err);
        agent *ag[2] = {agent_create("random", seed, 0, err, sizeof err), agent_create("random", seed, 1, err, sizeof err)};
        carc_record_writer w;
        carc_writer_begin(&w, "tests/variants/test-placing-lua.ini", seed, 2, names, agents, NULL, 0);
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
            if (st == CARC_NEED_CHOICE) check_options_filtered(g, -1);
            answer_and_record(g, st, ag, &w);
        }
        for (int t = 1; t < carc_tiles_placed(g); t++) {
            int x, y, rot, type;
            carc_tile_at_index(g, t, &x, &y, &rot, &type);
            assert_true(x >= 0);
        }
        check_record_replays(&w, r, g, "placing-lua");
        carc_writer_free(&w);
        agent_free(ag[0]);
        agent_free(ag[1]);
        carc_game_free(g);
    }
    carc_rules_free(r);
}

/* Held tiles from a script (tests/scripts/abbey-like.lua): each player's
 * cloister, placed instead of drawing, offered only in a hole (a tile on
 * each side) because the script's place-filter vetoes the rest. Every held
 * placement offered in 60 random games is in a hole, some are chosen, and
 * the records replay. */
static void test_script_held_tiles(void **state)
{
    (void)state;
    carc_rules *r = load("tests/variants/test-abbey-like.ini", NULL, 0);
    char err[1024];
    int chosen = 0, offered = 0;
    for (int i = 0; i < 60; i++) {
        uint64_t seed = (uint64_t)i + 11;
        const char *names[] = {"A", "B", "C"}, *agents[] = {"random", "random", "random"};
        carc_game *g = carc_game_new(r, 3, names, seed, err, sizeof err);
        if (!g) fail_msg("%s", err);
        agent *ag[3];
        for (int p = 0; p < 3; p++) ag[p] = agent_create("random", seed, p, err, sizeof err);
        carc_record_writer w;
        carc_writer_begin(&w, "tests/variants/test-abbey-like.ini", seed, 3, names, agents, NULL, 0);
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
            if (st == CARC_NEED_CHOICE && strcmp(carc_decision_label(g), "place") == 0 && carc_last_drawn(g) < 0 &&
                carc_option_count(g) > 1) {
                /* Before the draw: held placements, then draw-tile. */
                for (int k = 0; k < carc_option_count(g); k++) {
                    int x, y;
                    char t[64];
                    carc_option_text(g, k, t, sizeof t);
                    if (carc_option_placement(g, k, NULL, &x, &y, NULL) < 0) {
                        assert_string_equal(t, "draw-tile");
                        continue;
                    }
                    offered++;
                    assert_true(strncmp(t, "place base:B ", 13) == 0);
                    assert_true(carc_tile_index_at(g, x, y - 1) >= 0 && carc_tile_index_at(g, x + 1, y) >= 0 &&
                                carc_tile_index_at(g, x, y + 1) >= 0 && carc_tile_index_at(g, x - 1, y) >= 0);
                }
                int before = carc_held_tiles(g, carc_decision_player(g));
                int who = carc_decision_player(g);
                answer_and_record(g, st, ag, &w);
                chosen += carc_held_tiles(g, who) < before;
                continue;
            }
            answer_and_record(g, st, ag, &w);
        }
        check_record_replays(&w, r, g, "abbey-like");
        carc_writer_free(&w);
        for (int p = 0; p < 3; p++) agent_free(ag[p]);
        carc_game_free(g);
    }
    assert_true(offered > 0);
    assert_true(chosen > 0);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vetoed_placements_reach_no_player),
        cmocka_unit_test(test_vetoed_tiles_reshuffled),
        cmocka_unit_test(test_all_vetoed_is_unplaceable),
        cmocka_unit_test(test_held_tile_instead_of_drawing),
        cmocka_unit_test(test_plugin_places_a_tile),
        cmocka_unit_test(test_base_unchanged),
        cmocka_unit_test(test_script_filter),
        cmocka_unit_test(test_script_held_tiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
