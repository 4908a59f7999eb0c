/* test_inns_cathedrals.c - Inns & Cathedrals (plugin inns-cathedrals, tile
 * set inns-cathedrals, variants/inns-cathedrals.ini):
 *
 *  - the setup: 18 tiles, 6 inns, 2 cathedrals (IC-1), up to six players
 *    (IC-8), one large follower each (IC-6);
 *  - seeded random games (2 to 6 players, every farm-scoring mode) with the
 *    kernel's invariants and, award by award, the expansion's: an `inn`
 *    award is for a completed road with an inn, 2 per tile (IC-2); a
 *    `cathedral` award for a completed city with a cathedral, 3 per tile
 *    and pennant (IC-4); no road or city award ever goes to a road with an
 *    inn or a city with a cathedral (those are `inn` and `cathedral`), so
 *    incomplete ones score nothing at the end (IC-3, IC-5); each player's
 *    large follower is in the supply or on the board (IC-6, IC-7); every record
 *    replays to the same final state. CARC_TEST_GAMES sets the number of
 *    games (default 1000);
 *  - a fifth of that many games with each other shipped module (ark,
 *    prophet, robbers, princess-dragon, fairy, road-closer, traders-
 *    builders), with the same checks but the exact values, which other
 *    modules change (an Ark scroll, a Prophet's double);
 *  - clones go on like their originals; greedy bots play it through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "core.h"
#include "game_checks.h"
#include "helpers.h"
#include "expansion_games.h"

static const char *const FARM_MODES[4] = {"farm-scoring=per-farm", "farm-scoring=none", "farm-scoring=per-city-once",
                                          "farm-scoring=city-majority"};

/* What the checks look at: ids, awards seen so far, what was found. */
typedef struct ic_checks {
    int road, city, inn, cathedral, pennant;
    int r_road, r_city, r_inn, r_cathedral;
    bool exact; /* values as the expansion alone gives them */
    int nlog;
    int inns, cathedrals; /* awards checked */
    int large_on_board;   /* moves after which a large follower stood somewhere */
} ic_checks;

static void checks_for(const carc_rules *r, ic_checks *c, bool exact)
{
    memset(c, 0, sizeof *c);
    c->road = rules_kind(r, "road");
    c->city = rules_kind(r, "city");
    c->inn = rules_mark(r, "inn");
    c->cathedral = rules_mark(r, "cathedral");
    c->pennant = rules_mark(r, "pennant");
    c->r_road = reason_named(r, "road");
    c->r_city = reason_named(r, "city");
    c->r_inn = reason_named(r, "inn");
    c->r_cathedral = reason_named(r, "cathedral");
    c->exact = exact;
    assert_true(c->inn >= 0 && c->cathedral >= 0 && c->r_inn >= 0 && c->r_cathedral >= 0);
}

static void begin_game(void *user) { ((ic_checks *)user)->nlog = 0; }

/* Every award since the last move. Feature ids are still good: no tile was
 * placed since these awards (the draw or decision just answered came after
 * the scoring). */
static void check_ic_move(const carc_game *cg, void *user, bool final)
{
    (void)final;
    ic_checks *c = user;
    carc_game *g = (carc_game *)cg; /* the feature queries compress paths */
    /* IC-6, IC-7: one large follower each, in the supply or on the board,
     * back in the supply once its road, city or cloister has scored */
    for (int p = 0; p < carc_players(g); p++) {
        int on = figures_on_board(g, "large-follower", p);
        assert_int_equal(carc_supply(g, p, "large-follower") + on, 1);
        c->large_on_board += on;
    }
    for (; c->nlog < carc_events(g); c->nlog++) {
        const carc_award *a = carc_event_at(g, c->nlog);
        if (a->feature < 0 || (a->flags & CARC_AWARD_BONUS)) continue;
        int reason = a->reason;
        if (reason != c->r_road && reason != c->r_city && reason != c->r_inn && reason != c->r_cathedral) continue;
        int root = feat_find(g, a->feature), kind = g->nodes[root].kind;
        int inns = feat_mark_count(g, root, c->inn), cathedrals = feat_mark_count(g, root, c->cathedral);
        int tiles = feat_distinct_tiles(g, root);
        if (reason == c->r_road) {
            if (kind == c->road && inns > 0) fail_msg("a road with %d inn(s) scored %d as road", inns, a->points);
        } else if (reason == c->r_city) {
            if (kind == c->city && cathedrals > 0) fail_msg("a city with a cathedral scored %d as city", a->points);
        } else if (reason == c->r_inn) {
            /* IC-2, IC-3 */
            assert_int_equal(kind, c->road);
            assert_true(inns > 0);
            assert_true(feat_is_complete(g, root));
            if (c->exact) assert_int_equal(a->points, 2 * tiles);
            c->inns++;
        } else {
            /* IC-4, IC-5 */
            assert_int_equal(kind, c->city);
            assert_true(cathedrals > 0);
            assert_true(feat_is_complete(g, root));
            if (c->exact) assert_int_equal(a->points, 3 * (tiles + feat_mark_count(g, root, c->pennant)));
            c->cathedrals++;
        }
    }
}

/* IC-1, IC-8: 18 tiles in the pile with the base game's 72; 6 inns, 2
 * cathedrals; two to six players. */
static void test_setup(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("inns-cathedrals", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int ic = 0, all = 0, inn_tiles = 0, cathedral_tiles = 0, inn = rules_mark(r, "inn"),
        cathedral = rules_mark(r, "cathedral");
    for (int t = 0; t < carc_tile_types(r); t++) {
        all += carc_tile_count(r, t);
        if (strcmp(carc_tile_set_of(r, t), "inns-cathedrals") != 0) continue;
        ic += carc_tile_count(r, t);
        const tile_type *tt = &r->types[t];
        bool has_inn = false, has_cathedral = false;
        for (int s = 0; s < tt->nsegs; s++)
            for (int m = 0; m < tt->segs[s].nmarks; m++) {
                has_inn |= tt->segs[s].mark[m] == inn;
                has_cathedral |= tt->segs[s].mark[m] == cathedral;
            }
        inn_tiles += has_inn * carc_tile_count(r, t);
        cathedral_tiles += has_cathedral * carc_tile_count(r, t);
    }
    assert_int_equal(ic, 18);
    assert_int_equal(all, 72 + 18);
    assert_int_equal(inn_tiles, 6);
    assert_int_equal(cathedral_tiles, 2);
    assert_int_equal(carc_rules_min_players(r), 2);
    assert_int_equal(carc_rules_max_players(r), 6);
    carc_game *g = carc_game_new(r, 6, NULL, 3, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(carc_pile_left(g), 71 + 18);
    for (int p = 0; p < 6; p++) {
        assert_int_equal(carc_supply(g, p, "follower"), 7);
        assert_int_equal(carc_supply(g, p, "large-follower"), 1);
    }
    carc_game_free(g);
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules[4];
    for (int m = 0; m < 4; m++) {
        rules[m] = carc_variant_load("inns-cathedrals", &FARM_MODES[m], 1, err, sizeof err);
        if (!rules[m]) fail_msg("%s", err);
    }
    int games = games_to_play(), inns = 0, cathedrals = 0, large = 0;
    for (int i = 0; i < games; i++) {
        int mode = (i / 5) % 4;
        ic_checks c;
        checks_for(rules[mode], &c, true);
        play_checked_game(rules[mode], 2 + i % 5, (uint64_t)i + 1, &FARM_MODES[mode], 1, check_ic_move, &c);
        inns += c.inns;
        cathedrals += c.cathedrals;
        large += c.large_on_board;
    }
    /* the checks had something to check */
    assert_true(inns > games / 4 && large > games);
    if (games >= 300) assert_true(cathedrals > 0);
    for (int m = 0; m < 4; m++) carc_rules_free(rules[m]);
}

/* With each other shipped module: checks per pair in check_ic_move, and the
 * totals show that inns and cathedrals scored in the pairs too. */
static void test_with_every_module(void **state)
{
    (void)state;
    ic_checks c;
    int games = games_to_play() / 5;
    /* each pair numbers its reasons and marks itself: checks per pair */
    for (int m = 0; m < N_SHIPPED_MODULES; m++) {
        const char *b = SHIPPED_MODULES[m];
        if (strcmp(b, "inns-cathedrals") == 0) continue;
        int maxp;
        carc_rules *pr = load_pair("inns-cathedrals", b, &maxp);
        checks_for(pr, &c, false);
        for (int i = 0; i < games; i++) {
            begin_game(&c);
            play_checked_game(pr, 2 + i % (maxp - 1), (uint64_t)i + 1, NULL, 0, check_ic_move, &c);
        }
        if (games >= 100 && c.inns == 0) fail_msg("with %s: no inn scored in %d games", b, games);
        carc_rules_free(pr);
    }
}

/* Clones go on like their originals; greedy bots play it through. */
static void test_clones_and_greedy_bots(void **state)
{
    (void)state;
    clones_and_greedy_bots("inns-cathedrals");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_with_every_module),
        cmocka_unit_test(test_clones_and_greedy_bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
