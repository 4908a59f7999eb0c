/* test_river.c - The River (scripts/river.lua, tiles/river.ini; rules
 * RIVER-1 to RIVER-5, docs/river.md).
 *
 * - The tile set is the published one: 12 tiles, the spring and the lake
 *   once each, every tile with a river (RIVER-1).
 * - Seeded random games of `river`, of `base+river` with every other shipped
 *   module and of base+river+inns-cathedrals, with the kernel's checks after
 *   every move and the river's (river_checks.h: continuity, no U-turn, no
 *   follower on the river, the spring first and the lake last) after every
 *   move; each game's record replays to the same final state.
 * - Greedy games of `river` with the same river checks.
 *
 * CARC_RIVER_GAMES sets the random games of `river` (default 150; each
 * composition with another module plays a tenth of them), CARC_GREEDY_GAMES
 * the greedy games of each of the two variants (default 4); `make
 * test-expansions` plays 1000 random and 100 greedy games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "expansion_games.h"
#include "helpers.h"
#include "river_checks.h"

/* make test's share stays a few seconds; make test-expansions plays the full counts. */
static int random_count(void) { return expansion_count("CARC_RIVER_GAMES", 150); }
static int greedy_games(void) { return expansion_count("CARC_GREEDY_GAMES", 4); }

/* RIVER-1: the published 12 tiles. */
static void test_tile_set(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("river");
    static const published_tile published[] = {
        {"A", 1}, {"B", 1}, {"C", 1}, {"D", 2}, {"E", 1}, {"G", 2}, {"H", 1}, {"I", 1}, {"K", 1}, {"L", 1},
    };
    int total = 0;
    for (int t = 0; t < carc_tile_types(r); t++)
        if (river_tile(r, t)) total += carc_tile_count(r, t);
    assert_int_equal(total, 12);
    check_published_tiles(r, "river", published, sizeof published / sizeof published[0]);
    carc_rules_free(r);
}

typedef struct river_stats {
    int rivers_done, lakes;
} river_stats;

static void check_move(const carc_game *g, void *user, bool final)
{
    int rivers = check_river_board(g, carc_rules_name(carc_game_rules(g)));
    if (final) {
        river_stats *s = user;
        if (rivers == 12) s->rivers_done++;
        int lake = carc_tile_type_find(carc_game_rules(g), "river:L");
        for (int i = 0; i < carc_tiles_placed(g); i++) {
            int x, y, rot, type;
            carc_tile_at_index(g, i, &x, &y, &rot, &type);
            if (type == lake) s->lakes++;
        }
    }
}

static void random_games(const char *variant, int games)
{
    carc_rules *r = expansion_load(variant);
    int lo = carc_rules_min_players(r), hi = carc_rules_max_players(r);
    river_stats s = {0, 0};
    for (int i = 0; i < games; i++) play_checked_game(r, lo + i % (hi - lo + 1), (uint64_t)i + 1, NULL, 0, check_move, &s);
    /* The checks had rivers to check: nearly every river is laid whole. */
    printf("  %s: %d of %d random games laid the whole river\n", variant, s.rivers_done, games);
    if (s.rivers_done < games * 9 / 10) fail_msg("%s: only %d of %d games laid the whole river", variant, s.rivers_done, games);
    assert_true(s.lakes >= s.rivers_done);
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    random_games("river", random_count());
}

static void test_with_every_module(void **state)
{
    (void)state;
    char name[256];
    for (int m = 0; m < N_SHIPPED_MODULES; m++) {
        snprintf(name, sizeof name, "base+river+%s", SHIPPED_MODULES[m]);
        random_games(name, random_count() / 10 > 0 ? random_count() / 10 : 1);
    }
}

/* A river tile every placement of which is vetoed (the river wound back
 * against itself) follows unplaceable-tile: the river may end short,
 * rarely; greedy games lay it whole nine times in ten at least. */
static void count_whole_river(const carc_game *g, void *user, bool final)
{
    int laid = check_river_board(g, carc_rules_name(carc_game_rules(g)));
    if (final) *(int *)user += laid == 12;
}

static void test_greedy_games(void **state)
{
    (void)state;
    const char *variants[] = {"river", "base+river+inns-cathedrals"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        carc_rules *r = expansion_load(variants[v]);
        int whole = 0;
        for (int seed = 1; seed <= greedy_games(); seed++)
            play_checked(r, 2 + seed % 3, (uint64_t)seed,
                         &(checked_play){.agent = "greedy", .check = count_whole_river, .user = &whole});
        printf("  %s: %d of %d greedy games laid the whole river\n", variants[v], whole, greedy_games());
        if (whole < greedy_games() * 9 / 10) fail_msg("%s: only %d of %d greedy games laid the whole river", variants[v], whole, greedy_games());
        carc_rules_free(r);
    }
}

/* Clones go on like their originals (the river's state is in the game). */
static void test_clones(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("river");
    for (int seed = 1; seed <= 20; seed++) check_clone_continues(r, 2 + seed % 5, (uint64_t)seed, 3 + seed % 12);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_with_every_module),
        cmocka_unit_test(test_greedy_games),
        cmocka_unit_test(test_clones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
