/* test_princess_dragon.c - The Princess and The Dragon (plugin
 * princess-dragon) and the fairy (script fairy.lua) in seeded random games
 * of variants/princess-dragon.ini, with the kernel's invariants (followers
 * conserved, no feature scored twice, scores never decrease, records replay
 * to the same final state) and the expansion's own, checked after every move:
 *   - no figure of any player stands on the dragon's tile (PD-4, PD-9);
 *   - the dragon never stands on the fairy's tile (FAIRY-4);
 *   - the fairy is next to a follower standing on its tile, or next to nobody
 *     (FAIRY-2, FAIRY-5): the test follows the guarded follower from the
 *     `fairy` options chosen and the figures that leave the board, and checks
 *     every fairy award against it (FAIRY-3, FAIRY-5).
 * Plus: who chooses each dragon step (PD-7), bad option values, the fairy
 * alone in the base game, greedy games (the agent clones games).
 * CARC_TEST_GAMES sets the number of random games (default 1000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "helpers.h"

static int games_to_play(void)
{
    const char *s = getenv("CARC_TEST_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 1000;
}

static int kind_of(const carc_rules *r, const char *name)
{
    for (int k = 0; k < 16; k++) {
        const char *n = carc_figure_kind_name(r, k);
        if (n && strcmp(n, name) == 0) return k;
    }
    return -1;
}

/* The tile of the first figure of a kind standing on a tile, or -1. */
static int tile_of_kind(const carc_game *g, int want)
{
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == 2 && kind == want) return tile;
    }
    return -1;
}

static int followers_on_board(const carc_game *g, int seat, int follower)
{
    int n = 0;
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where != 0 && kind == follower &&
            owner == seat)
            n++;
    }
    return n;
}

/* What the test knows of the fairy: whom it guards (figure id, where it
 * stands, its owner), from the options chosen. */
typedef struct fairy_model {
    int guard, tile, seg, owner;
} fairy_model;

typedef struct checker {
    const carc_rules *r;
    int follower, dragon, fairy, fairy_reason;
    int prev[CARC_MAX_PLAYERS];
    scored_once scored;
    int nlog;
    fairy_model fm;
    int moves_dragon_checked;
} checker;

static void checker_init(checker *c, const carc_rules *r)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->follower = kind_of(r, "follower");
    c->dragon = kind_of(r, "dragon");
    c->fairy = kind_of(r, "fairy");
    c->fairy_reason = -1;
    for (int i = 0; i < 64; i++)
        if (strcmp(carc_reason_name(r, i), "fairy") == 0) {
            c->fairy_reason = i;
            break;
        }
    c->fm.guard = -1;
    assert_true(c->follower >= 0 && c->fairy >= 0 && c->fairy_reason >= 0);
}

/* The guarded follower left its place: the fairy guards nobody. */
static void model_update(const carc_game *g, fairy_model *fm)
{
    if (fm->guard < 0) return;
    int kind, owner, where, tile, seg, space;
    if (carc_figure(g, fm->guard, &kind, &owner, &where, &tile, &seg, &space) < 0 || where != 1 || tile != fm->tile ||
        seg != fm->seg)
        fm->guard = -1;
}

/* Before option k is chosen: a fairy move names the follower it will guard. */
static void model_before_choice(const carc_game *g, fairy_model *fm, int k)
{
    char text[256];
    carc_option_text(g, k, text, sizeof text);
    if (strncmp(text, "fairy ", 6) != 0) return;
    const carc_option *o = carc_option_at(g, k);
    assert_non_null(o);
    int player = carc_decision_player(g), found = -1;
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == 1 && tile == o->tile &&
            seg == o->seg && owner == player)
            found = f;
    }
    assert_true(found >= 0);            /* FAIRY-2: next to one of the player's own followers */
    assert_int_not_equal(found, fm->guard); /* FAIRY-7 */
    fm->guard = found;
    fm->tile = o->tile;
    fm->seg = o->seg;
    fm->owner = player;
}

static void check(checker *c, const carc_game *g, int per_player, int guard_owner_before)
{
    for (int p = 0; p < carc_players(g); p++) {
        assert_int_equal(carc_supply(g, p, "follower") + followers_on_board(g, p, c->follower), per_player);
        assert_true(carc_score(g, p) >= c->prev[p]);
        c->prev[p] = carc_score(g, p);
    }
    for (; c->nlog < carc_awards(g); c->nlog++) {
        const carc_award *a = carc_award_at(g, c->nlog);
        assert_true(a->points >= 0);
        if (a->reason == c->fairy_reason) {
            if (a->flags & CARC_AWARD_BONUS) {
                /* FAIRY-5: the owner of the follower guarded when this move began */
                assert_int_equal(a->player, guard_owner_before);
                assert_int_equal(a->points, 3);
            } else {
                /* FAIRY-3: at turn start, to the active player, whose follower is guarded */
                assert_true(c->fm.guard >= 0);
                assert_int_equal(a->player, c->fm.owner);
                assert_int_equal(a->player, carc_active_player(g));
                assert_int_equal(a->points, 1);
            }
        }
        check_scored_once(&c->scored, a);
    }
    int dragon = c->dragon >= 0 ? tile_of_kind(g, c->dragon) : -1;
    int fairy = tile_of_kind(g, c->fairy);
    if (dragon >= 0) {
        /* PD-4, PD-9: nobody's figure shares the dragon's tile. */
        for (int f = 0; f < carc_figures(g); f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && owner >= 0 &&
                (where == 1 || where == 2))
                assert_int_not_equal(tile, dragon);
        }
        assert_int_not_equal(dragon, fairy); /* FAIRY-4 */
        c->moves_dragon_checked++;
    }
    if (c->fm.guard >= 0) assert_int_equal(fairy, c->fm.tile); /* next to a follower on its own tile */
}

/* A game under the checker: the fairy's guard owner before the last
 * model update (the hooks below), and what was chosen. */
typedef struct checked_game {
    checker c;
    int guard_owner, dragon_steps, fairy_moves;
} checked_game;

static int guard_owner_now(const checker *c) { return c->fm.guard >= 0 ? c->fm.owner : -1; }

/* After every carc_advance: the model follows the game and every check runs. */
static void checked_advanced(carc_game *g, int status, void *user)
{
    (void)status;
    checked_game *cg = user;
    int before = guard_owner_now(&cg->c);
    model_update(g, &cg->c.fm);
    check(&cg->c, g, 7, before);
    cg->guard_owner = guard_owner_now(&cg->c);
}

static void checked_choosing(carc_game *g, int k, const char *text, void *user)
{
    checked_game *cg = user;
    if (strncmp(text, "dragon ", 7) == 0) cg->dragon_steps++;
    if (strncmp(text, "fairy ", 6) == 0) cg->fairy_moves++;
    model_before_choice(g, &cg->c.fm, k);
}

/* After every draw and answer (the end was checked after its advance). */
static void checked_moved(carc_game *g, bool final, void *user)
{
    checked_game *cg = user;
    if (final) return;
    model_update(g, &cg->c.fm);
    check(&cg->c, g, 7, cg->guard_owner);
}

/* Plays one game with the given agents, checking after every move; then
 * replays its record. Returns how many dragon steps were chosen. */
static int play_checked(const carc_rules *rules, const char *variant, int n, uint64_t seed, const char *agent_name,
                        int *fairy_moves)
{
    checked_game *cg = calloc(1, sizeof *cg);
    checker_init(&cg->c, rules);
    carc_game *g = play_game(rules, &(play_spec){.players = n, .seed = seed, .agent = agent_name, .variant = variant,
                                                 .advanced = checked_advanced, .choosing = checked_choosing,
                                                 .moved = checked_moved, .user = cg});
    assert_true(carc_is_finished(g));
    int dragon_steps = cg->dragon_steps;
    *fairy_moves += cg->fairy_moves;
    carc_game_free(g);
    free(cg);
    return dragon_steps;
}

static void test_random_games_invariants(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("princess-dragon", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    int games = games_to_play(), steps = 0, fairy_moves = 0;
    for (int i = 0; i < games; i++) steps += play_checked(rules, "princess-dragon", 2 + i % 5, (uint64_t)i + 1, "random", &fairy_moves);
    /* The games did exercise the dragon and the fairy. */
    assert_true(steps > games);
    assert_true(fairy_moves > games);
    carc_rules_free(rules);
}

static void test_greedy_games(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("princess-dragon", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    int fairy_moves = 0;
    for (int i = 0; i < 4; i++) play_checked(rules, "princess-dragon", 2 + i % 3, (uint64_t)i + 100, "greedy", &fairy_moves);
    carc_rules_free(rules);
}

/* The fairy alone, in the base game (variants/fairy.ini). */
static void test_fairy_alone(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("fairy", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    assert_int_equal(kind_of(rules, "dragon"), -1);
    int fairy_moves = 0, games = games_to_play() / 5;
    for (int i = 0; i < games; i++) play_checked(rules, "fairy", 2 + i % 4, (uint64_t)i + 7, "random", &fairy_moves);
    assert_true(fairy_moves > games);
    carc_rules_free(rules);
}

/* PD-7: the active player chooses the first step, then the next players in
 * turn, round the table (the seed's 4-player walk, tests/scenarios). */
static void test_dragon_step_choosers(void **state)
{
    (void)state;
    FILE *f = fopen("tests/scenarios/pd-dragon-walk-4p.rec", "r");
    assert_non_null(f);
    char buf[16384];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char *cut = strstr(buf, "\ndragon N\n");
    assert_non_null(cut);
    cut[1] = 0; /* the record up to the first dragon step: a game in progress */
    carc_rules *rules;
    carc_game *g = replay_text(buf, &rules);
    const char *steps[] = {"dragon N", "dragon W", "dragon S", "dragon W", "dragon N", "dragon N"};
    const char *who[] = {"Anna", "Bert", "Cleo", "Dave", "Anna", "Bert"};
    const int choices[] = {2, 1, 3, 1, 1, 1};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
        assert_string_equal(carc_decision_label(g), "dragon");
        assert_string_equal(carc_player_name(g, carc_decision_player(g)), who[i]);
        assert_int_equal(carc_option_count(g), choices[i]); /* asked even when forced */
        int k = carc_option_match(g, steps[i]);
        assert_true(k >= 0);
        assert_int_equal(carc_choose(g, k), 0);
    }
    /* After six steps the move is over: the next decision is a draw. */
    assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
    carc_game_free(g);
    carc_rules_free(rules);
}

/* Bad option values give clear errors naming the option. */
static void test_bad_options(void **state)
{
    (void)state;
    const char *bad[] = {"princess-dragon.dragon-steps=-1", "princess-dragon.princess=sometimes",
                         "princess-dragon.dragon-timing=never", "fairy.placement=anywhere", "fairy.score-bonus=x"};
    for (int i = 0; i < 5; i++) {
        char err[1024] = "";
        carc_rules *r = carc_variant_load("princess-dragon", &bad[i], 1, err, sizeof err);
        assert_null(r);
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        if (!strstr(err, key)) fail_msg("error for %s does not name the option: %s", bad[i], err);
    }
    const char *good[] = {"princess-dragon.dragon-steps=0", "princess-dragon.fairy-protection=no-eat",
                          "princess-dragon.early-dragon-tile=reshuffle-now", "fairy.placement=on-tile",
                          "princess-dragon.dragon-eats=followers"};
    char err[1024];
    carc_rules *r = carc_variant_load("princess-dragon", good, 5, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_rules_free(r);
}

/* Every house rule and other-edition option plays whole games. */
static void test_option_games(void **state)
{
    (void)state;
    const char *opts[][2] = {
        {"princess-dragon.dragon-timing=after-scoring", "princess-dragon.princess=must"},
        {"princess-dragon.early-dragon-tile=reshuffle-now", "princess-dragon.fairy-protection=no-eat"},
        {"fairy.placement=on-tile", "princess-dragon.dragon-steps=1"},
        {"princess-dragon.dragon-eats=followers", "princess-dragon.dragon-steps=63"},
    };
    for (int v = 0; v < 4; v++) {
        char err[8192];
        carc_rules *rules = carc_variant_load("princess-dragon", opts[v], 2, err, sizeof err);
        if (!rules) fail_msg("%s", err);
        for (int i = 0; i < 30; i++) {
            carc_rng rng;
            carc_rng_seed(&rng, (uint64_t)i, 3);
            carc_game_free(play_game(rules, &(play_spec){.players = 2 + i % 4, .seed = (uint64_t)i + 1000,
                                                         .pick = play_pick_uniform, .pick_state = &rng}));
        }
        carc_rules_free(rules);
    }
}

int main(void)
{
    /* Every game here checks itself after every move (kernel/check.c). */
    setenv("CARC_CHECK", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dragon_step_choosers),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_random_games_invariants),
        cmocka_unit_test(test_greedy_games),
        cmocka_unit_test(test_fairy_alone),
        cmocka_unit_test(test_option_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
