/* test_tower.c - The Tower (scripts/tower.lua, tiles/tower.ini; rules
 * TOWER-1 to TOWER-7, docs/tower.md).
 *
 * - The tile set is the published one: 18 tiles, every one with a tower
 *   foundation; the floors per player by the number of players (TOWER-1).
 * - Seeded random games of `tower`, of `base+tower` with every other shipped
 *   module, of base+river+tower+inns-cathedrals and of
 *   base+river+abbey-mayor+tower+inns-cathedrals, with the kernel's
 *   checks and the tower's (tower_checks.h) after every move; each game's
 *   record replays to the same final state. The games must capture,
 *   exchange and ransom, or the checks would have checked nothing.
 * - Greedy games of `tower`, of base+river+tower+inns-cathedrals and of
 *   base+river+abbey-mayor+tower+inns-cathedrals with the same checks; MCTS
 *   games of `tower`.
 *
 * CARC_TOWER_GAMES sets the random games of `tower` (default 100; each
 * composition with another module plays a tenth of them), CARC_GREEDY_GAMES
 * the greedy games of each of the two variants (default 3); `make
 * test-expansions` plays 1000 random and 100 greedy games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "expansion_games.h"
#include "helpers.h"
#include "tower_checks.h"

static int random_count(void) { return expansion_count("CARC_TOWER_GAMES", 100); }
static int greedy_games(void) { return expansion_count("CARC_GREEDY_GAMES", 3); }

/* The published 18 tiles, each with a foundation; TOWER-1's floors. */
static void test_tile_set_and_floors(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("tower");
    static const published_tile published[] = {
        {"A", 2}, {"B", 1}, {"C", 1}, {"D", 1}, {"E", 1}, {"F", 1}, {"G", 1}, {"H", 1}, {"I", 1},
        {"J", 1}, {"K", 1}, {"L", 1}, {"M", 1}, {"N", 1}, {"O", 1}, {"P", 1}, {"Q", 1},
    };
    int mark = -1, total = 0, marked = 0;
    for (int m = 0; m < carc_tile_marks(r); m++)
        if (strcmp(carc_tile_mark_name(r, m), "tower") == 0) mark = m;
    assert_true(mark >= 0);
    for (int t = 0; t < carc_tile_types(r); t++) {
        if (strcmp(carc_tile_set_of(r, t), "tower") != 0) continue;
        total += carc_tile_count(r, t);
        marked += carc_type_has_mark(r, t, mark) ? carc_tile_count(r, t) : 0;
    }
    assert_int_equal(total, 18);
    assert_int_equal(marked, 18);
    check_published_tiles(r, "tower", published, sizeof published / sizeof published[0]);
    char err[256];
    for (int players = 2; players <= 6; players++) {
        carc_game *g = carc_game_new(r, players, NULL, 1, err, sizeof err);
        if (!g) fail_msg("%s", err);
        for (int p = 0; p < players; p++) assert_int_equal(carc_supply(g, p, "floor"), TOWER_FLOORS[players]);
        carc_game_free(g);
    }
    carc_rules_free(r);
}

static void check_move(const carc_game *g, void *user, bool final)
{
    (void)final;
    check_tower_move(g, user, carc_rules_name(carc_game_rules(g)));
}

static void random_games(const char *variant, int games, bool must_act)
{
    carc_rules *r = expansion_load(variant);
    int lo = carc_rules_min_players(r), hi = carc_rules_max_players(r);
    int captures = 0, ransoms = 0, floors = 0, tops = 0;
    for (int i = 0; i < games; i++) {
        tower_watch *w = calloc(1, sizeof *w);
        play_checked_game(r, lo + i % (hi - lo + 1), (uint64_t)i + 1, NULL, 0, check_move, w);
        captures += w->captures, ransoms += w->ransoms, floors += w->floors_placed, tops += w->tops;
        free(w);
    }
    printf("  %s: %d games, %d floors, %d towers topped, %d captures, %d ransoms\n", variant, games, floors, tops, captures,
           ransoms);
    /* The checks had something to check. */
    if (must_act && (floors == 0 || tops == 0 || captures == 0 || ransoms == 0))
        fail_msg("%s: the games built, topped, captured or ransomed nothing", variant);
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    random_games("tower", random_count(), true);
}

static void test_with_every_module(void **state)
{
    (void)state;
    char name[256];
    int games = random_count() / 10 > 0 ? random_count() / 10 : 1;
    for (int m = 0; m < N_SHIPPED_MODULES; m++) {
        snprintf(name, sizeof name, "base+tower+%s", SHIPPED_MODULES[m]);
        random_games(name, games, false);
    }
    random_games("base+river+tower+inns-cathedrals", games, false);
    random_games("base+river+abbey-mayor+tower+inns-cathedrals", games, false);
}

static void check_tower(const carc_game *g, void *user, bool final)
{
    (void)final;
    check_tower_move(g, user, carc_rules_name(carc_game_rules(g)));
}

static void bot_games(const char *variant, const char *agent_spec, int games)
{
    carc_rules *r = expansion_load(variant);
    int floors = 0;
    for (int seed = 1; seed <= games; seed++) {
        tower_watch *w = calloc(1, sizeof *w); /* it follows one game's figures */
        play_checked(r, 2 + seed % 3, (uint64_t)seed, &(checked_play){.agent = agent_spec, .check = check_tower, .user = w});
        floors += w->floors_placed;
        free(w);
    }
    printf("  %s, %s: %d games, %d floors built\n", variant, agent_spec, games, floors);
    carc_rules_free(r);
}

static void test_greedy_games(void **state)
{
    (void)state;
    bot_games("tower", "greedy", greedy_games());
    bot_games("base+river+tower+inns-cathedrals", "greedy", greedy_games());
    bot_games("base+river+abbey-mayor+tower+inns-cathedrals", "greedy", greedy_games());
}

static void test_mcts_games(void **state)
{
    (void)state;
    bot_games("tower", "mcts:30it", 1);
}

/* Clones go on like their originals (the tower's state is in the game). */
static void test_clones(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("tower");
    for (int seed = 1; seed <= 20; seed++) check_clone_continues(r, 2 + seed % 5, (uint64_t)seed, 10 + seed * 3);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set_and_floors),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_with_every_module),
        cmocka_unit_test(test_greedy_games),
        cmocka_unit_test(test_mcts_games),
        cmocka_unit_test(test_clones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
