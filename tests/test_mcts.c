/* test_mcts.c - the search agent plays every shipped variant through its
 * options alone (every game it plays finishes and its record replays), and
 * with an iteration budget it is deterministic for a seed. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "commands.h"
#include "helpers.h"
#include "play.h"

/* Plays one game, the agent spec against random, writing the record;
 * returns it. */
static carc_game *play(const carc_rules *r, const char *variant, const char *spec, uint64_t seed,
                       carc_record_writer *w)
{
    static const char *const names[] = {"A", "B"};
    const char *agents[] = {spec, "random"};
    return play_game(r, &(play_spec){.players = 2, .seed = seed, .names = names, .seat_agents = agents,
                                     .variant = variant, .record = w});
}

/* Plays every variant file of a folder; returns how many. */
static int each_variant(const char *sub, const char *prefix)
{
    int played = 0;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", carc_data_dir(), sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ini") != 0) continue;
        char name[256], err[2048];
        snprintf(name, sizeof name, "%s%.*s", prefix, (int)(l - 4), e->d_name);
        carc_rules *r = carc_variant_load(name, NULL, 0, err, sizeof err);
        if (!r) fail_msg("shipped variant %s does not load: %s", name, err);
        carc_record_writer w;
        carc_game *g = play(r, name, "mcts:12it", 5, &w);
        /* Its record replays to the same end. */
        carc_record rec;
        assert_int_equal(carc_record_parse(name, w.buf, w.len, &rec, err, sizeof err), 0);
        carc_game *h = NULL;
        if (carc_replay(&rec, r, &h, err, sizeof err) < 0) fail_msg("%s: %s", name, err);
        assert_true(carc_is_finished(h));
        for (int p = 0; p < 2; p++) assert_int_equal(carc_score(g, p), carc_score(h, p));
        printf("mcts played %s: %d - %d\n", name, carc_score(g, 0), carc_score(g, 1));
        carc_game_free(h);
        carc_record_free(&rec);
        carc_writer_free(&w);
        carc_game_free(g);
        carc_rules_free(r);
        played++;
    }
    closedir(d);
    return played;
}

/* Every variant `carc variants` lists is played. */
static void test_mcts_plays_every_shipped_variant(void **state)
{
    (void)state;
    int played = each_variant("variants", "") + each_variant("variants/house", "house/");
    char dir[1024], *names[256];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    int listed = variant_names(dir, names, 256);
    for (int i = 0; i < listed; i++) free(names[i]);
    assert_true(listed >= 10);
    assert_int_equal(played, listed);
}

static void test_mcts_deterministic_with_iteration_budget(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    carc_record_writer w1, w2;
    carc_game *a = play(r, "base", "mcts:40it", 21, &w1), *b = play(r, "base", "mcts:40it", 21, &w2);
    assert_int_equal(w1.len, w2.len);
    assert_memory_equal(w1.buf, w2.buf, w1.len);
    assert_int_equal(carc_score(a, 0), carc_score(b, 0));
    carc_writer_free(&w1);
    carc_writer_free(&w2);
    carc_game_free(a);
    carc_game_free(b);
    carc_rules_free(r);
}

/* The agent must not see the real pile: two games that differ only in the
 * order of the tiles still to come make the same first decision. */
static void test_mcts_does_not_see_the_pile(void **state)
{
    (void)state;
    char err[512];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    int first[2];
    for (int k = 0; k < 2; k++) {
        carc_game *g = carc_game_new(r, 2, NULL, 100 + (uint64_t)k, err, sizeof err);
        assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
        carc_draw(g, carc_tile_type_find(r, "base:U"));
        assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
        agent *a = agent_create("mcts:200it", 1, 0, err, sizeof err); /* the same agent stream */
        first[k] = a->choose(a, g);
        agent_free(a);
        carc_game_free(g);
    }
    assert_int_equal(first[0], first[1]);
    carc_rules_free(r);
}

/* Checks the search's choice at the decision g is at, from its estimates:
 * with one iteration, the option its judgement ranks first (what greedy
 * would weigh); with more, the most visited, ties to the better valued (a
 * visit's mean with the prior counted as 3 visits, the default), never to
 * the lower option number alone. */
static void check_choice(carc_game *g, const char *spec, uint64_t seed, const char *where)
{
    char err[512];
    agent *a = agent_create(spec, seed, 0, err, sizeof err);
    assert_non_null(a);
    mcts_estimate e[1024];
    int count = 0, n = carc_option_count(g);
    assert_true(n <= 1024);
    int k = mcts_analyse(a, g, e, 1024, &count);
    assert_int_equal(count, n);
    assert_true(k >= 0 && k < n);
    for (int o = 0; o < n; o++) {
        if (a->iterations == 1) {
            if (e[o].prior > e[k].prior + 1e-12)
                fail_msg("%s: %s played option %d (judged %.4f), option %d is judged %.4f", where, spec, k, e[k].prior,
                         o, e[o].prior);
            continue;
        }
        double vo = (e[o].win * e[o].visits + 3 * e[o].prior) / (e[o].visits + 3);
        double vk = (e[k].win * e[k].visits + 3 * e[k].prior) / (e[k].visits + 3);
        if (e[o].visits > e[k].visits || (e[o].visits == e[k].visits && vo > vk + 1e-12))
            fail_msg("%s: %s played option %d (%d visits, %.4f), option %d has %d visits, %.4f", where, spec, k,
                     e[k].visits, vk, o, e[o].visits, vo);
    }
    agent_free(a);
}

/* At a small budget the search must not play worse than its own judgement
 * does: along a greedy game of the base game and of the Ark (hundreds of
 * options a decision: its paths), every few decisions. */
static void test_mcts_small_budget_follows_its_judgement(void **state)
{
    (void)state;
    const char *variants[] = {"base", "ark"};
    for (int v = 0; v < 2; v++) {
        char err[512], where[128];
        carc_rules *r = carc_variant_load(variants[v], NULL, 0, err, sizeof err);
        if (!r) fail_msg("%s", err);
        carc_game *g = carc_game_new(r, 2, NULL, 31, err, sizeof err);
        agent *greedy = agent_create("greedy", 31, 0, err, sizeof err);
        int checked = 0;
        for (int d = 0; checked < 6;) {
            int st = carc_advance(g);
            assert_true(st == CARC_NEED_DRAW || st == CARC_NEED_CHOICE);
            if (st == CARC_NEED_DRAW) {
                carc_draw(g, -1);
                continue;
            }
            if (d++ % 5 == 4 && carc_option_count(g) > 1) {
                snprintf(where, sizeof where, "%s, decision %d", variants[v], d);
                check_choice(g, "mcts:1it", (uint64_t)d, where);
                check_choice(g, "mcts:7it", (uint64_t)d, where);
                checked++;
            }
            assert_int_equal(carc_choose(g, greedy->choose(greedy, g)), 0);
        }
        agent_free(greedy);
        carc_game_free(g);
        carc_rules_free(r);
    }
}

/* The search judges positions at every point of the round: right after its
 * own turn, after one opponent's reply, after three. With the round-end
 * credit (tempo 1.7, the value CARC_MCTS_TUNE documents) a judgement made
 * right after a player's turn foresees the round's end: over greedy games,
 * each opponent's worth less the mover's, judged then with the turn still
 * owed to the opponent credited, is on average what it is at the end of
 * the round, when that opponent has played. Without the credit (the
 * default) it is some 1.7 points too low, as the test also checks: the
 * searcher's lead judged too high right after its own move. */
static void check_round_end_foreseen(const char *spec, int players)
{
    char err[512];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    agent *judge = agent_create(spec, 1, 0, err, sizeof err);
    assert_non_null(judge);
    double sum = 0, sum_plain = 0;
    long samples = 0;
    for (uint64_t seed = 61; seed < 67; seed++) {
        carc_game *g = carc_game_new(r, players, NULL, seed, err, sizeof err);
        assert_non_null(g);
        agent *greedy[CARC_MAX_PLAYERS];
        for (int p = 0; p < players; p++) greedy[p] = agent_create("greedy", seed, p, err, sizeof err);
        /* At each draw k: after[k], the worth right after turn k-1 (its
         * player has played one turn, the others none); now[k], the worth
         * with no turn owed; mover[k], who played turn k-1. */
        double after[100][CARC_MAX_PLAYERS], plain[100][CARC_MAX_PLAYERS], now[100][CARC_MAX_PLAYERS];
        int mover[100], draws = 0, last = -1;
        for (;;) {
            int st = carc_advance(g);
            if (st == CARC_FINISHED) break;
            assert_true(st == CARC_NEED_DRAW || st == CARC_NEED_CHOICE);
            if (st == CARC_NEED_CHOICE) {
                agent *a = greedy[carc_decision_player(g)];
                assert_int_equal(carc_choose(g, a->choose(a, g)), 0);
                continue;
            }
            assert_true(draws < 100);
            assert_int_equal(agent_prepare_eval(judge, g), 0);
            int played[CARC_MAX_PLAYERS] = {0};
            mcts_worth(judge, g, played, 1.7, now[draws]);
            if (last >= 0) played[last] = 1;
            mcts_worth(judge, g, played, 1.7, after[draws]);
            mcts_worth(judge, g, played, 0, plain[draws]);
            mover[draws++] = last;
            carc_draw(g, -1);
            last = carc_active_player(g);
        }
        /* From right after a turn to the end of its round: players - 1 turns. */
        for (int k = 1; k + players - 1 < draws; k++)
            for (int q = 0; q < players; q++)
                if (q != mover[k]) {
                    int m = mover[k], end = k + players - 1;
                    sum += (now[end][q] - now[end][m]) - (after[k][q] - after[k][m]);
                    sum_plain += (now[end][q] - now[end][m]) - (plain[k][q] - plain[k][m]);
                    samples++;
                }
        for (int p = 0; p < players; p++) agent_free(greedy[p]);
        carc_game_free(g);
    }
    double drift = sum / samples, drift_plain = sum_plain / samples;
    printf("%s, %d players: an opponent's lead over the mover moves %+.2f points from right after a turn to the "
           "round's end (%ld samples); %+.2f without the credit\n",
           spec, players, drift, samples, drift_plain);
    if (fabs(drift) > 0.8)
        fail_msg("%s, %d players: judged right after a turn, an opponent's lead over the mover is %.2f points off "
                 "what it is at the end of the round",
                 spec, players, drift);
    if (drift_plain < 1.2)
        fail_msg("%s, %d players: without the credit the opponent's lead over the mover moved only %.2f points",
                 spec, players, drift_plain);
    agent_free(judge);
    carc_rules_free(r);
}

static void test_mcts_judges_every_position_as_at_the_round_end(void **state)
{
    (void)state;
    for (int players = 2; players <= 4; players++) {
        check_round_end_foreseen("mcts", players);
        check_round_end_foreseen("mcts:trained", players);
    }
    /* Without the credit (the search's default) the judgement does not
     * depend on who has moved. */
    char err[512];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    carc_game *g = carc_game_new(r, 2, NULL, 3, err, sizeof err);
    agent *a = agent_create("mcts", 1, 0, err, sizeof err);
    assert_int_equal(carc_advance(g), CARC_NEED_DRAW);
    int none[CARC_MAX_PLAYERS] = {0}, one[CARC_MAX_PLAYERS] = {1};
    double w0[CARC_MAX_PLAYERS], w1[CARC_MAX_PLAYERS];
    mcts_worth(a, g, none, 0, w0);
    mcts_worth(a, g, one, 0, w1);
    for (int p = 0; p < 2; p++) assert_true(w0[p] == w1[p]);
    agent_free(a);
    carc_game_free(g);
    carc_rules_free(r);
}

/* What the search backs up for each seat (mcts_values): by default its
 * worth against the best other's, for every seat (greedy seats play for
 * that); with CARC_MCTS_TUNE mean=1, the searcher's against the others'
 * mean, so that what a trailing opponent gains counts against it too, while
 * the other seats still play for their lead over the best other. With two
 * players the two agree, so 2-player games cannot change. */
static void test_mcts_values_against_the_others(void **state)
{
    (void)state;
    char err[256];
    double worth[CARC_MAX_PLAYERS] = {30, 40, 10, 10}, value[CARC_MAX_PLAYERS], lead[CARC_MAX_PLAYERS];
    double raised[CARC_MAX_PLAYERS] = {30, 40, 25, 10}, value2[CARC_MAX_PLAYERS], lead2[CARC_MAX_PLAYERS];
    assert_int_equal(mcts_set_tuning("", err, sizeof err), 0);
    mcts_values(worth, 4, 0, value, lead);
    mcts_values(raised, 4, 0, value2, lead2);
    assert_true(fabs(value[0] - (0.5 + 0.5 * tanh((30 - 40) / 20.0))) < 1e-12);
    assert_true(value2[0] == value[0]); /* only the best other counts */
    assert_true(fabs(lead[0] + 10) < 1e-12 && fabs(lead[1] - 10) < 1e-12);

    assert_int_equal(mcts_set_tuning("mean=1", err, sizeof err), 0);
    mcts_values(worth, 4, 0, value, lead);
    mcts_values(raised, 4, 0, value2, lead2);
    assert_true(fabs(value[0] - (0.5 + 0.5 * tanh((30 - 20) / 20.0))) < 1e-12);
    assert_true(value2[0] < value[0] - 0.01); /* a trailing opponent's gain is the searcher's loss */
    assert_true(value2[1] == value[1]);       /* the leader still plays for its lead over the best other */
    assert_true(fabs(value[1] - (0.5 + 0.5 * tanh((40 - 30) / 20.0))) < 1e-12);
    assert_true(fabs(lead[0] + 10) < 1e-12); /* the lead reported stays the lead over the best other */
    double two[CARC_MAX_PLAYERS] = {12, 17}, v2[CARC_MAX_PLAYERS], l2[CARC_MAX_PLAYERS];
    mcts_values(two, 2, 0, v2, l2);
    assert_true(v2[0] == 0.5 + 0.5 * tanh((12.0 - 17.0) / 20.0));
    assert_true(v2[1] == 0.5 + 0.5 * tanh((17.0 - 12.0) / 20.0));

    /* Bad settings are refused whole, the settings before kept. */
    assert_int_equal(mcts_set_tuning("mean=0.5,bogus=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "bogus"));
    assert_int_equal(mcts_set_tuning("mean=x", err, sizeof err), -1);
    mcts_values(worth, 4, 0, value2, lead2);
    assert_true(value2[0] == value[0]);
    assert_int_equal(mcts_set_tuning("", err, sizeof err), 0);
}

/* The leaves the search judges, seen from the root's options: runs the
 * search on a 4-player game (greedy turns to the 9th draw) with the given
 * settings; returns the fewest of the others' turns any visited option
 * looked past, and through *half the iterations that stopped inside a turn. */
static int leaves_seen(const char *settings, int players, long *half)
{
    char err[512];
    assert_int_equal(mcts_set_tuning(settings, err, sizeof err), 0);
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, players, NULL, 41, err, sizeof err);
    agent *greedy = agent_create("greedy", 41, 0, err, sizeof err);
    for (int draws = 0;;) {
        int st = carc_advance(g);
        assert_true(st == CARC_NEED_DRAW || st == CARC_NEED_CHOICE);
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            draws++;
        } else if (draws >= 9 && carc_option_count(g) > 1) {
            break;
        } else {
            assert_int_equal(carc_choose(g, greedy->choose(greedy, g)), 0);
        }
    }
    agent *a = agent_create("mcts:400it", 7, 0, err, sizeof err);
    mcts_estimate e[512];
    int count = 0, fewest = 1000;
    assert_true(mcts_analyse(a, g, e, 512, &count) >= 0);
    *half = 0;
    for (int o = 0; o < count; o++) {
        if (e[o].visits == 0) continue;
        assert_true(e[o].fewest_replies >= 0);
        if (e[o].fewest_replies < fewest) fewest = e[o].fewest_replies;
        *half += e[o].half_turns;
    }
    agent_free(a);
    agent_free(greedy);
    carc_game_free(g);
    carc_rules_free(r);
    assert_int_equal(mcts_set_tuning("", err, sizeof err), 0);
    return fewest;
}

/* CARC_MCTS_TUNE round=1: the search walks on from its new node to the
 * start of the searcher's next turn, so every leaf is judged after all the
 * others have played (and never inside a turn); by default it judges where
 * the new node is, often before any opponent has finished a turn, and an
 * opponent's placement before its follower. whole=1: the turn a new node
 * began is finished before the leaf is judged, so no leaf is a half-made
 * turn; with deep=1 (every node's options judged with their follow-ups) the
 * follow-ups are already there to walk. */
static void test_mcts_round_and_deep_settings_move_the_leaves(void **state)
{
    (void)state;
    long half;
    for (int players = 3; players <= 4; players++) {
        int fewest = leaves_seen("round=1", players, &half);
        printf("round=1, %d players: fewest replies %d, %ld leaves inside a turn\n", players, fewest, half);
        assert_true(fewest >= players - 1);
        assert_int_equal(half, 0);
        fewest = leaves_seen("", players, &half);
        printf("default, %d players: fewest replies %d, %ld leaves inside a turn\n", players, fewest, half);
        assert_true(fewest < players - 1);
        assert_true(half > 0);
        fewest = leaves_seen("deep=1", players, &half); /* judged better, cut as before */
        assert_true(half > 0);
        fewest = leaves_seen("deep=1,whole=1", players, &half);
        printf("deep=1,whole=1, %d players: fewest replies %d, %ld leaves inside a turn\n", players, fewest, half);
        assert_int_equal(half, 0);
        fewest = leaves_seen("whole=1", players, &half);
        printf("whole=1, %d players: fewest replies %d, %ld leaves inside a turn\n", players, fewest, half);
        assert_int_equal(half, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mcts_plays_every_shipped_variant),
        cmocka_unit_test(test_mcts_deterministic_with_iteration_budget),
        cmocka_unit_test(test_mcts_does_not_see_the_pile),
        cmocka_unit_test(test_mcts_small_budget_follows_its_judgement),
        cmocka_unit_test(test_mcts_judges_every_position_as_at_the_round_end),
        cmocka_unit_test(test_mcts_values_against_the_others),
        cmocka_unit_test(test_mcts_round_and_deep_settings_move_the_leaves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
