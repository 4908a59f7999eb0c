/* test_traders_builders.c - Traders & Builders (script traders-builders.lua,
 * tile set traders-builders, variants/traders-builders.ini):
 *
 *  - the setup: 24 tiles, 9 wine, 6 grain and 5 cloth symbols (TB-1);
 *  - seeded random games (2 to 6 players, every farm-scoring mode, two
 *    goods-bonus values) with the kernel's invariants and a model of the
 *    goods: each city, when a tile completes it, gives its symbols to the
 *    player who placed that tile (TB-2); at the end the `goods` awards are
 *    exactly the bonus to the most holders of each good, ties included,
 *    nobody for a good nobody holds (TB-3); every record replays to the
 *    same final state; the builder and the pig: one each, in the supply or
 *    on a road or city (a field) holding a follower (a farmer) of their
 *    owner (TB-4, TB-6, TB-7); a turn whose tile extended its player's
 *    builder's feature is followed by one more turn of that player, whose
 *    tile gives no third (TB-5); every final farm award is 3 per completed
 *    city (4 with city-majority), one more per city for the pig's owner
 *    (TB-8). CARC_TEST_GAMES sets the number of games (default 1000);
 *  - a fifth of that many games with each other shipped module, with the
 *    same checks but the farm values, which other modules change (the
 *    Ark's fields pay for sheep);
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

#define NGOODS 3
#define MAX_CITIES 1024

static const char *const GOOD_NAMES[NGOODS] = {"wine", "grain", "cloth"};

/* The model of the goods: who holds how many tokens, and which completed
 * cities have given theirs. */
typedef struct tb_checks {
    int road, city, field, goods[NGOODS], r_goods, r_farm, bonus, farm_mode;
    int nlog;
    int held[CARC_MAX_PLAYERS][NGOODS];
    int ncredited, credited[MAX_CITIES];
    /* the turns: the last one seen, whether the next is an extra turn */
    int turn, active, placed;
    bool extra_now, extra_next;
    bool exact; /* farm values as the base game and this expansion give them */
    int tokens, bonuses, extra_turns, builders, pigs, pig_bonuses; /* what was checked */
} tb_checks;

static void checks_for(const carc_rules *r, tb_checks *c)
{
    memset(c, 0, sizeof *c);
    c->road = rules_kind(r, "road");
    c->field = rules_kind(r, "field");
    c->r_farm = reason_named(r, "farm");
    c->city = rules_kind(r, "city");
    for (int k = 0; k < NGOODS; k++) c->goods[k] = rules_mark(r, GOOD_NAMES[k]);
    c->r_goods = reason_named(r, "goods");
    char buf[64];
    c->bonus = atoi(carc_rules_option(r, "traders-builders.goods-bonus", buf, sizeof buf));
    const char *mode = carc_rules_option(r, "farm-scoring", buf, sizeof buf);
    c->farm_mode = strcmp(mode, "per-farm") == 0 ? 0 : strcmp(mode, "none") == 0 ? 1 : strcmp(mode, "per-city-once") == 0 ? 2 : 3;
    assert_true(c->goods[0] >= 0 && c->goods[1] >= 0 && c->goods[2] >= 0 && c->r_goods >= 0);
}

static void begin_game(tb_checks *c)
{
    c->nlog = c->ncredited = 0;
    memset(c->held, 0, sizeof c->held);
    c->turn = 0;
    c->active = -1;
    c->placed = 1;
    c->extra_now = c->extra_next = false;
}

/* The figure of a kind p has on the board: its id, and its feature's root
 * in *root; -1 if there is none (more than one fails). */
static int figure_of(carc_game *g, const char *kind_name, int p, int *root)
{
    int found = -1;
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == 0 || owner != p) continue;
        if (strcmp(carc_figure_kind_name(carc_game_rules(g), kind), kind_name) != 0) continue;
        assert_int_equal(found, -1);
        assert_int_equal(where, 1); /* on a segment */
        found = f;
        *root = feat_find(g, feat_node(g, tile, seg));
    }
    return found;
}

/* TB-4, TB-6, TB-7, TB-8: one builder and one pig each, in the supply or on
 * a feature of the right kind that holds a follower of their owner. */
static void check_helpers(carc_game *g, tb_checks *c)
{
    for (int p = 0; p < carc_players(g); p++) {
        int root, counts[CARC_MAX_PLAYERS];
        int b = figure_of(g, "builder", p, &root);
        assert_int_equal(carc_supply(g, p, "builder") + (b >= 0), 1);
        if (b >= 0) {
            int kind = g->nodes[root].kind;
            assert_true(kind == c->road || kind == c->city);
            feat_followers(g, root, counts);
            if (counts[p] == 0) fail_msg("seat %d's builder stands without a follower of its owner", p);
            c->builders++;
        }
        int pig = figure_of(g, "pig", p, &root);
        assert_int_equal(carc_supply(g, p, "pig") + (pig >= 0), 1);
        if (pig >= 0) {
            assert_int_equal(g->nodes[root].kind, c->field);
            feat_followers(g, root, counts);
            if (counts[p] == 0) fail_msg("seat %d's pig stands without a farmer of its owner", p);
            c->pigs++;
        }
    }
}

/* TB-5: a turn whose tile extended its player's builder's road or city is
 * followed by a turn of the same player; that turn's tile gives no more. */
static void check_turns(carc_game *g, tb_checks *c)
{
    int turn = carc_turn_number(g), active = carc_active_player(g);
    if (turn != c->turn) {
        if (c->active >= 0) {
            int want = c->extra_next ? c->active : (c->active + 1) % carc_players(g);
            if (active != want) fail_msg("turn %d is seat %d's, the rules give it to seat %d", turn, active, want);
        }
        c->extra_now = c->extra_next;
        c->extra_next = false;
        c->extra_turns += c->extra_now;
        c->turn = turn;
        c->active = active;
    }
    if (carc_tiles_placed(g) == c->placed) return;
    c->placed = carc_tiles_placed(g);
    int root, t = c->placed - 1;
    if (c->extra_now || figure_of(g, "builder", active, &root) < 0) return;
    for (int s = 0; s < carc_segment_count(g, t); s++)
        if (feat_find(g, feat_node(g, t, s)) == root) c->extra_next = true;
}

/* The completed cities a farm borders (with `all`, every city). */
static int bordering_cities(carc_game *g, int farm, int *out, int max, bool all)
{
    int_list l;
    int_list_init(&l);
    feat_bordering_cities(g, feat_find(g, farm), &l);
    int n = 0;
    for (int i = 0; i < l.n && n < max; i++)
        if (all || feat_is_complete(g, l.v[i])) out[n++] = l.v[i];
    int_list_free(&l);
    return n;
}

/* TB-8: every final farm award against the farms and the pigs. */
static void check_farm_awards(carc_game *g, tb_checks *c)
{
    int pig_root[CARC_MAX_PLAYERS];
    for (int p = 0; p < carc_players(g); p++)
        if (figure_of(g, "pig", p, &pig_root[p]) < 0) pig_root[p] = -1;
    for (int i = 0; i < carc_events(g); i++) {
        const carc_award *a = carc_event_at(g, i);
        if (a->reason != c->r_farm || !(a->flags & CARC_AWARD_FINAL)) continue;
        int cities[256], pig = pig_root[a->player];
        if (c->farm_mode == 0) {
            /* per farm: 3 per completed city, one more with the winner's pig */
            int done = bordering_cities(g, a->feature, cities, 256, false);
            int want = 3 * done + (pig == feat_find(g, a->feature) ? done : 0);
            assert_int_equal(a->points, want);
            c->pig_bonuses += pig == feat_find(g, a->feature);
        } else {
            /* per city: 3 (4 with city-majority), one more if the pig's farm
             * borders the city */
            int base = c->farm_mode == 3 ? 4 : 3, by_pig = 0;
            if (pig >= 0) {
                int n = bordering_cities(g, pig, cities, 256, true);
                for (int k = 0; k < n; k++) by_pig |= cities[k] == feat_find(g, a->feature);
            }
            if (a->points != base && !(by_pig && a->points == base + 1))
                fail_msg("a per-city farm award of %d (pig's farm borders the city: %d)", a->points, by_pig);
            c->pig_bonuses += a->points == base + 1;
        }
    }
}

/* TB-2: a city complete now and not credited yet was completed by the tile
 * just placed, whose player takes its goods. */
static void credit_completed_cities(carc_game *g, tb_checks *c)
{
    for (int t = 0; t < carc_tiles_placed(g); t++)
        for (int s = 0; s < carc_segment_count(g, t); s++) {
            if (carc_segment_kind(g, t, s) != c->city) continue;
            int root = feat_find(g, feat_node(g, t, s));
            if (!feat_is_complete(g, root)) continue;
            bool seen = false;
            for (int i = 0; i < c->ncredited && !seen; i++) seen = c->credited[i] == root;
            if (seen) continue;
            assert_true(c->ncredited < MAX_CITIES);
            c->credited[c->ncredited++] = root;
            int p = carc_active_player(g);
            for (int k = 0; k < NGOODS; k++) {
                int n = feat_mark_count(g, root, c->goods[k]);
                c->held[p][k] += n;
                c->tokens += n;
            }
        }
}

/* TB-3: the game's `goods` awards against the model's. */
static void check_end_bonus(const carc_game *g, tb_checks *c)
{
    int want[CARC_MAX_PLAYERS] = {0}, got[CARC_MAX_PLAYERS] = {0}, n = carc_players(g);
    for (int k = 0; k < NGOODS && c->bonus > 0; k++) {
        int best = 0;
        for (int p = 0; p < n; p++) best = c->held[p][k] > best ? c->held[p][k] : best;
        for (int p = 0; p < n && best > 0; p++) want[p] += c->held[p][k] == best;
    }
    for (int i = 0; i < carc_events(g); i++) {
        const carc_award *a = carc_event_at(g, i);
        if (a->reason != c->r_goods) continue;
        assert_int_equal(a->points, c->bonus);
        assert_true(a->flags & CARC_AWARD_FINAL);
        got[a->player]++;
        c->bonuses++;
    }
    for (int p = 0; p < n; p++)
        if (want[p] != got[p]) fail_msg("seat %d: %d goods bonuses, the model says %d", p, got[p], want[p]);
}

static void check_tb_move(const carc_game *cg, void *user, bool final)
{
    tb_checks *c = user;
    carc_game *g = (carc_game *)cg; /* the feature queries compress paths */
    credit_completed_cities(g, c);
    check_turns(g, c);
    check_helpers(g, c);
    if (final) {
        check_end_bonus(g, c);
        if (c->exact) check_farm_awards(g, c);
    }
}

/* TB-1: 24 tiles with the base game's 72; 9 wine, 6 grain, 5 cloth. */
static void test_setup(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("traders-builders", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int tb = 0, all = 0, symbols[NGOODS] = {0}, mark[NGOODS];
    for (int k = 0; k < NGOODS; k++) mark[k] = rules_mark(r, GOOD_NAMES[k]);
    for (int t = 0; t < carc_tile_types(r); t++) {
        all += carc_tile_count(r, t);
        if (strcmp(carc_tile_set_of(r, t), "traders-builders") != 0) continue;
        tb += carc_tile_count(r, t);
        const tile_type *tt = &r->types[t];
        for (int s = 0; s < tt->nsegs; s++)
            for (int m = 0; m < tt->segs[s].nmarks; m++)
                for (int k = 0; k < NGOODS; k++)
                    if (tt->segs[s].mark[m] == mark[k]) {
                        assert_int_equal(tt->segs[s].kind, CARC_KIND_CITY);
                        symbols[k] += tt->segs[s].mark_count[m] * carc_tile_count(r, t);
                    }
    }
    assert_int_equal(tb, 24);
    assert_int_equal(all, 72 + 24);
    assert_int_equal(symbols[0], 9);
    assert_int_equal(symbols[1], 6);
    assert_int_equal(symbols[2], 5);
    char buf[64];
    assert_string_equal(carc_rules_option(r, "traders-builders.goods-bonus", buf, sizeof buf), "10");
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    static const char *const OVERRIDES[5][2] = {
        {"farm-scoring=per-farm", "traders-builders.goods-bonus=10"},
        {"farm-scoring=none", "traders-builders.goods-bonus=10"},
        {"farm-scoring=per-city-once", "traders-builders.goods-bonus=10"},
        {"farm-scoring=city-majority", "traders-builders.goods-bonus=10"},
        {"farm-scoring=per-farm", "traders-builders.goods-bonus=3"},
    };
    char err[8192];
    carc_rules *rules[5];
    for (int m = 0; m < 5; m++) {
        rules[m] = carc_variant_load("traders-builders", OVERRIDES[m], 2, err, sizeof err);
        if (!rules[m]) fail_msg("%s", err);
    }
    int games = games_to_play(), tokens = 0, bonuses = 0, extra = 0, builders = 0, pigs = 0, pig_bonuses = 0;
    tb_checks *c = malloc(sizeof *c);
    for (int i = 0; i < games; i++) {
        int mode = (i / 5) % 5;
        checks_for(rules[mode], c);
        c->exact = true;
        begin_game(c);
        play_checked_game(rules[mode], 2 + i % 5, (uint64_t)i + 1, OVERRIDES[mode], 2, check_tb_move, c);
        tokens += c->tokens;
        bonuses += c->bonuses;
        extra += c->extra_turns;
        builders += c->builders;
        pigs += c->pigs;
        pig_bonuses += c->pig_bonuses;
    }
    /* the checks had something to check */
    assert_true(tokens > games / 2 && bonuses > games / 2);
    assert_true(extra > games / 10 && builders > games && pigs > games);
    if (games >= 300) assert_true(pig_bonuses > 0);
    free(c);
    for (int m = 0; m < 5; m++) carc_rules_free(rules[m]);
}

static void test_with_every_module(void **state)
{
    (void)state;
    int games = games_to_play() / 5;
    tb_checks *c = malloc(sizeof *c);
    for (int m = 0; m < N_SHIPPED_MODULES; m++) {
        const char *b = SHIPPED_MODULES[m];
        if (strcmp(b, "traders-builders") == 0) continue;
        int maxp;
        carc_rules *r = load_pair("traders-builders", b, &maxp);
        checks_for(r, c);
        int bonuses = 0;
        for (int i = 0; i < games; i++) {
            begin_game(c);
            play_checked_game(r, 2 + i % (maxp - 1), (uint64_t)i + 1, NULL, 0, check_tb_move, c);
            bonuses += c->bonuses;
            c->bonuses = 0;
        }
        if (games >= 100 && bonuses < games / 2) fail_msg("with %s: %d goods bonuses in %d games", b, bonuses, games);
        carc_rules_free(r);
    }
    free(c);
}

/* Clones go on like their originals; greedy bots play it through. */
static void test_clones_and_greedy_bots(void **state)
{
    (void)state;
    clones_and_greedy_bots("traders-builders");
}

/* A goods-bonus outside its range is refused, naming the option. */
static void test_bad_option(void **state)
{
    (void)state;
    const char *bad[] = {"traders-builders.goods-bonus=-1", "traders-builders.goods-bonus=lots"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[1024] = "";
        carc_rules *r = carc_variant_load("traders-builders", &bad[i], 1, err, sizeof err);
        if (r) fail_msg("'%s' was accepted", bad[i]);
        if (!strstr(err, "traders-builders.goods-bonus")) fail_msg("the error does not name the option: %s", err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_bad_option),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_with_every_module),
        cmocka_unit_test(test_clones_and_greedy_bots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
