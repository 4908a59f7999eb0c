/* test_abbey_mayor.c - Abbey & Mayor (plugins/abbey-mayor,
 * tiles/abbey-mayor.ini; rules AM-1 to AM-13, docs/abbey-mayor.md).
 *
 * - The tile set is the published one: 12 land tiles, one of each, and 6
 *   abbeys (AM-1); 6 pennants.
 * - Seeded random games of `abbey-mayor`, of `base+river+abbey-mayor+
 *   inns-cathedrals` and of abbey-mayor with every other shipped module,
 *   with the kernel's checks after every move and the expansion's
 *   (abbey_mayor_checks.h: abbeys only in holes, barns only where four
 *   fields meet, mayors in cities, wagons on roads, cities and cloisters);
 *   each game's record replays to the same final state.
 * - Greedy games of both variants with the same checks; abbeys, barns and
 *   wagon moves happen in them.
 *
 * CARC_AM_GAMES sets the random games of `abbey-mayor` (default 150; each
 * composition plays a tenth of them), CARC_GREEDY_GAMES the greedy games
 * of each variant (default 4); `make test-expansions` plays 1000 random
 * and 100 greedy games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "expansion_games.h"
#include "helpers.h"
#include "abbey_mayor_checks.h"

static int random_count(void) { return expansion_count("CARC_AM_GAMES", 150); }
static int greedy_games(void) { return expansion_count("CARC_GREEDY_GAMES", 4); }

/* AM-1: the published tiles: 01 to 12 once each, 6 abbeys. */
static void test_tile_set(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("abbey-mayor");
    int land = 0;
    for (int t = 0; t < carc_tile_types(r); t++) {
        if (strcmp(carc_tile_set_of(r, t), "abbey-mayor") != 0) continue;
        if (abbey_tile(r, t)) assert_int_equal(carc_tile_count(r, t), 6);
        else land += carc_tile_count(r, t);
    }
    assert_int_equal(land, 12);
    static const published_tile land_tiles[] = {{"01", 1}, {"02", 1}, {"03", 1}, {"04", 1}, {"05", 1}, {"06", 1},
                                                {"07", 1}, {"08", 1}, {"09", 1}, {"10", 1}, {"11", 1}, {"12", 1}};
    check_published_tiles(r, "abbey-mayor", land_tiles, sizeof land_tiles / sizeof land_tiles[0]);
    carc_rules_free(r);
}

typedef struct am_stats {
    int abbeys, games;
} am_stats;

static void check_move(const carc_game *g, void *user, bool final)
{
    int abbeys = check_abbey_mayor_board(g, carc_rules_name(carc_game_rules(g)));
    if (final) {
        am_stats *s = user;
        s->abbeys += abbeys;
        s->games++;
    }
}

static void random_games(const char *variant, int games)
{
    carc_rules *r = expansion_load(variant);
    int lo = carc_rules_min_players(r), hi = carc_rules_max_players(r);
    am_stats s = {0, 0};
    for (int i = 0; i < games; i++) play_checked_game(r, lo + i % (hi - lo + 1), (uint64_t)i + 1, NULL, 0, check_move, &s);
    printf("  %s: %d abbeys placed in %d random games\n", variant, s.abbeys, s.games);
    assert_int_equal(s.games, games);
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    random_games("abbey-mayor", random_count());
    random_games("base+river+abbey-mayor+inns-cathedrals", random_count());
}

static void test_with_every_module(void **state)
{
    (void)state;
    char name[256];
    for (int m = 0; m < N_SHIPPED_MODULES; m++) {
        if (strcmp(SHIPPED_MODULES[m], "abbey-mayor") == 0) continue;
        snprintf(name, sizeof name, "%s+abbey-mayor", SHIPPED_MODULES[m]);
        random_games(name, random_count() / 10 > 0 ? random_count() / 10 : 1);
    }
}

/* Greedy bots place abbeys and barns and move wagons, within the rules. */
typedef struct am_greedy {
    const char *variant;
    int abbeys, barns, wagons;
} am_greedy;

static void count_abbeys(const carc_game *g, void *user, bool final)
{
    (void)final;
    am_greedy *s = user;
    s->abbeys += check_abbey_mayor_board(g, s->variant) > s->abbeys;
}

static void count_barns_and_wagons(const carc_game *g, const char *text, void *user)
{
    (void)g;
    am_greedy *s = user;
    s->barns += strncmp(text, "deploy barn ", 12) == 0;
    s->wagons += strncmp(text, "wagon ", 6) == 0;
}

static void test_greedy_games(void **state)
{
    (void)state;
    const char *variants[] = {"abbey-mayor", "base+river+abbey-mayor+inns-cathedrals"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        carc_rules *r = expansion_load(variants[v]);
        am_greedy s = {.variant = variants[v]};
        for (int seed = 1; seed <= greedy_games(); seed++)
            play_checked(r, 2 + seed % 3, (uint64_t)seed,
                         &(checked_play){.agent = "greedy", .check = count_abbeys, .choice = count_barns_and_wagons,
                                         .user = &s});
        printf("  %s: %d greedy games, %d barns, %d wagon moves\n", variants[v], greedy_games(), s.barns, s.wagons);
        if (greedy_games() >= 4 && s.barns == 0) fail_msg("%s: greedy bots never stood a barn", variants[v]);
        carc_rules_free(r);
    }
}

/* Players who always draw keep their abbeys to the end: after the last
 * tile they place them in holes, in turn order (AM-13), within the rules
 * (every move checked), a monk on some, and the records replay. */
typedef struct hoarder {
    carc_rng rng;
    int finals, monks;
} hoarder;

static int pick_hoarding(carc_game *g, void *state)
{
    hoarder *h = state;
    int n = carc_option_count(g);
    char text[128];
    for (int k = 0; k < n; k++) {
        carc_option_text(g, k, text, sizeof text);
        if (strcmp(text, "draw-tile") == 0) return k;
    }
    if (strcmp(carc_decision_label(g), "abbey") == 0) {
        h->finals++;
        return 0; /* a hole, never pass */
    }
    if (strcmp(carc_decision_label(g), "monk") == 0) {
        h->monks++;
        return 0;
    }
    return (int)carc_rng_below(&h->rng, (uint32_t)n);
}

static void check_final(carc_game *g, bool final, void *user)
{
    (void)final;
    (void)user;
    check_abbey_mayor_board(g, "abbey-mayor (abbeys kept to the end)");
}

static void test_final_abbeys(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("abbey-mayor");
    hoarder h = {.finals = 0, .monks = 0};
    int placed = 0;
    for (int seed = 1; seed <= 12; seed++) {
        carc_rng_seed(&h.rng, (uint64_t)seed, 7);
        int players = 2 + seed % 3;
        carc_game *g = play_game(r, &(play_spec){.players = players, .seed = (uint64_t)seed, .pick = pick_hoarding,
                                                 .pick_state = &h, .variant = "abbey-mayor", .moved = check_final});
        assert_true(carc_is_finished(g));
        int x, y, rot, type;
        for (int i = 0; i < carc_tiles_placed(g); i++) {
            carc_tile_at_index(g, i, &x, &y, &rot, &type);
            placed += abbey_tile(r, type);
        }
        carc_game_free(g);
    }
    printf("  %d abbeys placed after the last tile, %d monk decisions\n", h.finals, h.monks);
    assert_true(h.finals > 0);
    assert_int_equal(placed, h.finals);
    carc_rules_free(r);
}

static void test_clones(void **state)
{
    (void)state;
    carc_rules *r = expansion_load("abbey-mayor");
    for (int seed = 1; seed <= 20; seed++) check_clone_continues(r, 2 + seed % 5, (uint64_t)seed, 3 + seed * 4);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_with_every_module),
        cmocka_unit_test(test_greedy_games),
        cmocka_unit_test(test_final_abbeys),
        cmocka_unit_test(test_clones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
