/* test_train.c - the learned judgement: the kernel's rule-blind position
 * figures, weights files (their errors name the file and line), training
 * that depends only on its seed, and shipped weights that load and play
 * every shipped variant. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>

#include "agents.h"
#include "analysis.h"
#include "evaluator.h"
#include "helpers.h"
#include "play.h"
#include "train.h"
#include "temp_files.h"

static int figure_index(const carc_rules *r, const char *name)
{
    char buf[64];
    for (int i = 0; i < carc_position_figure_count(r); i++) {
        carc_position_figure_name(r, i, buf, sizeof buf);
        if (strcmp(buf, name) == 0) return i;
    }
    fail_msg("no position figure %s", name);
    return -1;
}

/* The position of tests/scenarios/base-city-ring-incomplete.rec before its
 * end: Red's two knights hold an open city of 4 tiles (N, N, I, R) whose
 * one open edge faces the empty space 1,0 (BASE-14, BASE-21). */
static const char ring_city[] = "carcassonne-record 1\nvariant base\nseed 1\n"
                                "player Red random\nplayer Blue random\n---\n"
                                "draw base:N\nplace 0,1 r180\ndeploy follower city@E\n"
                                "draw base:N\nplace 0,2 r90\npass\n"
                                "draw base:I\nplace 1,2 r0\ndeploy follower city@N\n"
                                "draw base:R\nplace 1,1 r270\npass\n";

static void test_position_figures_of_a_held_city(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(ring_city, &r);
    int n = carc_position_figure_count(r);
    double f[2 * 64];
    assert_true(n <= 64);
    assert_int_equal(carc_position_figures(g, f, 2 * 64), n);
    assert_int_equal(carc_position_figures(g, f, n), -1); /* too small: refused */
#define FIG(p, name) f[(p) * n + figure_index(r, name)]
    assert_true(FIG(0, "score") == 0 && FIG(1, "score") == 0);
    assert_true(FIG(0, "held.city") == 4);  /* incomplete: 1 a tile (BASE-21) */
    assert_true(FIG(0, "whole.city") == 8); /* complete: 2 a tile (BASE-15) */
    assert_true(FIG(0, "led.city") == 1);
    assert_true(FIG(0, "open.city") == 3);  /* R's north edge: three ports */
    assert_true(FIG(0, "hand.follower") == 5 && FIG(0, "board.follower") == 2);
    assert_true(FIG(1, "hand.follower") == 7 && FIG(1, "board.follower") == 0);
    assert_true(FIG(1, "held.city") == 0 && FIG(1, "led.city") == 0 && FIG(0, "led.road") == 0);
    /* The open edge faces one space; tiles left that fit it are counted,
     * at most every tile left. */
    assert_true(FIG(0, "closers.city") > 0 && FIG(0, "closers.city") <= carc_pile_left(g));
    assert_true(FIG(1, "closers.city") == 0);
#undef FIG
    carc_game_free(g);
    carc_rules_free(r);
}

/* tests/scenarios/base-farm-*.rec before the final scoring: Red's farmers
 * lead three farms and Blue's one, each bordering one completed city
 * (BASE-22). Per farm each is worth 3 (held.field: Red 9, Blue 3); with
 * farm-scoring=none farms score nothing, and the figures say so. */
static const char farms_head[] = "carcassonne-record 1\nvariant base\nseed 1\n"
                                 "player Red random\nplayer Blue random\n";
static const char farms_moves[] = "---\ndraw base:E\nplace 0,-1 r180\ndeploy follower field@N\n"
                                  "draw base:E\nplace 0,1 r180\ndeploy follower field@N\n"
                                  "draw base:U\nplace 1,0 r0\ndeploy follower field@N\n"
                                  "draw base:U\nplace -1,0 r0\npass\n"
                                  "draw base:E\nplace 0,2 r0\ndeploy follower field@S\n";

static void held_fields(const char *option_line, double out[2])
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s%s", farms_head, option_line, farms_moves);
    carc_rules *r;
    carc_game *g = replay_text(text, &r);
    int n = carc_position_figure_count(r), k = figure_index(r, "held.field");
    double f[2 * 64];
    assert_int_equal(carc_position_figures(g, f, 2 * 64), n);
    out[0] = f[k];
    out[1] = f[n + k];
    carc_game_free(g);
    carc_rules_free(r);
}

static void test_position_figures_follow_the_farm_rule(void **state)
{
    (void)state;
    double per_farm[2], none[2];
    held_fields("", per_farm);
    held_fields("option farm-scoring=none\n", none);
    assert_true(per_farm[0] == 9 && per_farm[1] == 3);
    assert_true(none[0] == 0 && none[1] == 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_weights_file_errors_name_the_line(void **state)
{
    (void)state;
    char path[1024];
    test_tmp_write(path, sizeof path, "weights-errors.ini", "");
    evaluator e;
    char err[1024];
    write_file(path, "[evaluator]\nformat = 1\nsigma = 10\n[weights]\nscore = 1 1\nheld.city = 0.5\n");
    assert_int_equal(evaluator_load(&e, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":6:"));
    assert_non_null(strstr(err, "two numbers"));
    write_file(path, "[evaluator]\nformat = 2\n");
    assert_int_equal(evaluator_load(&e, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2:"));
    write_file(path, "[evaluator]\nformat = 1\nsigma = 10\n[weights]\nscore = 1 1\nhand.pig = 2 2\n");
    assert_int_equal(evaluator_load(&e, path, err, sizeof err), 0);
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_int_equal(evaluator_bind(&e, r, err, sizeof err), -1); /* base has no pig */
    assert_non_null(strstr(err, "hand.pig"));
    /* Weights bind by name: a file listing only the score judges by it. */
    write_file(path, "[evaluator]\nformat = 1\nsigma = 10\n[weights]\nscore = 1 3\n");
    assert_int_equal(evaluator_load(&e, path, err, sizeof err), 0);
    assert_int_equal(evaluator_bind(&e, r, err, sizeof err), 0);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    double lead[CARC_MAX_PLAYERS];
    evaluator_leads(&e, g, lead);
    assert_true(lead[0] == 0 && lead[1] == 0);
    carc_game_free(g);
    carc_rules_free(r);
    unlink(path);
}

static void train_small_for(int players, int jobs, uint64_t seed, evaluator *out)
{
    train_config cfg = {0};
    cfg.variant = "base";
    cfg.players = players;
    cfg.games = 24;
    cfg.generations = 2;
    cfg.seed = seed;
    cfg.jobs = jobs;
    cfg.explore = 0.05;
    char err[1024] = "";
    if (train_run(&cfg, out, err, sizeof err) < 0) fail_msg("%s", err);
}

static void train_small(int jobs, uint64_t seed, evaluator *out) { train_small_for(2, jobs, seed, out); }

/* With more than 2 players the points already scored count at their face
 * value (a free fit weighed an early lead at half, and the greedy player
 * judging so stopped scoring: docs/bots.md); the file says for how many
 * players it was learned, and the agent finds it by that number. */
static void test_multiplayer_training_keeps_points_scored(void **state)
{
    (void)state;
    evaluator *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    train_small_for(3, 1, 7, a);
    assert_int_equal(a->players, 3);
    int score = -1;
    for (int i = 0; i < a->nweights; i++)
        if (strcmp(a->name[i], "score") == 0) score = i;
    assert_true(score >= 0);
    assert_true(a->early[score] == 1.0 && a->late[score] == 1.0);
    char path[1024], err[1024];
    test_tmp_path(path, sizeof path, "weights-saved.ini");
    assert_int_equal(evaluator_save(a, path, err, sizeof err), 0);
    assert_int_equal(evaluator_load(b, path, err, sizeof err), 0);
    assert_int_equal(b->players, 3);
    unlink(path);
    char shipped[1024];
    evaluator_path_for("base", 2, shipped, sizeof shipped);
    assert_non_null(strstr(shipped, "/weights/base.ini"));
    evaluator_path_for("base", 4, shipped, sizeof shipped);
    assert_non_null(strstr(shipped, "/weights/base-4p.ini"));
    free(a), free(b);
}

static void test_training_depends_only_on_its_seed(void **state)
{
    (void)state;
    evaluator *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
    train_small(1, 7, a);
    train_small(3, 7, b);
    train_small(1, 8, c);
    assert_int_equal(a->nweights, b->nweights);
    assert_true(a->nweights > 0);
    assert_memory_equal(a->early, b->early, sizeof a->early);
    assert_memory_equal(a->late, b->late, sizeof a->late);
    assert_true(a->sigma == b->sigma);
    assert_true(memcmp(a->early, c->early, sizeof a->early) != 0); /* another seed, other games */
    /* What it learned survives a save and a load. */
    char path[1024], err[1024];
    test_tmp_path(path, sizeof path, "weights-saved.ini");
    assert_int_equal(evaluator_save(a, path, err, sizeof err), 0);
    assert_int_equal(evaluator_load(c, path, err, sizeof err), 0);
    assert_int_equal(c->nweights, a->nweights);
    for (int i = 0; i < a->nweights; i++) {
        assert_string_equal(c->name[i], a->name[i]);
        assert_true(fabs(c->early[i] - a->early[i]) < 1e-4 && fabs(c->late[i] - a->late[i]) < 1e-4);
    }
    unlink(path);
    free(a), free(b), free(c);
}

/* Plays `decisions` decisions (0: the whole game) with agent `spec` in
 * every seat; each answer must be one of the options. */
static void play_with_n(const carc_rules *r, int players, const char *spec, int decisions)
{
    carc_game *g = play_game(r, &(play_spec){.players = players, .seed = 11, .agent = spec, .max_decisions = decisions});
    assert_true(decisions > 0 || carc_is_finished(g));
    carc_game_free(g);
}

static void play_with(const carc_rules *r, const char *spec, int decisions)
{
    play_with_n(r, 2, spec, decisions);
}

static void test_shipped_weights_play_every_shipped_variant(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    DIR *d = opendir(dir);
    assert_non_null(d);
    int variants = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ini") != 0) continue;
        char name[256], err[2048], path[1024];
        snprintf(name, sizeof name, "%.*s", (int)(l - 4), e->d_name);
        carc_rules *r = carc_variant_load(name, NULL, 0, err, sizeof err);
        if (!r) fail_msg("%s: %s", name, err);
        evaluator ev;
        evaluator_path_for(name, 2, path, sizeof path);
        if (evaluator_load(&ev, path, err, sizeof err) < 0) fail_msg("shipped variant %s: %s", name, err);
        if (evaluator_bind(&ev, r, err, sizeof err) < 0) fail_msg("shipped variant %s: %s", name, err);
        assert_string_equal(ev.variant, name);
        play_with(r, "mcts:8it:trained", 0);
        play_with(r, "greedy:trained", 12);
        /* Weights for games of more players, where shipped. */
        for (int n = 3; n <= carc_rules_max_players(r); n++) {
            evaluator_path_for(name, n, path, sizeof path);
            if (access(path, R_OK) != 0) continue;
            if (evaluator_load(&ev, path, err, sizeof err) < 0) fail_msg("shipped variant %s: %s", name, err);
            if (evaluator_bind(&ev, r, err, sizeof err) < 0) fail_msg("shipped variant %s: %s", name, err);
            assert_int_equal(ev.players, n);
            play_with_n(r, n, "mcts:8it:trained", 6);
            play_with_n(r, n, "greedy:trained", 0);
        }
        printf("trained bots played %s\n", name);
        carc_rules_free(r);
        variants++;
    }
    closedir(d);
    assert_true(variants >= 6);
}

/* A house variant has no shipped weights: the agent says so and how to
 * train them, instead of playing with a judgement it does not have. */
static void test_trained_without_weights_says_how_to_train(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("house/road-closer", NULL, 0, err, sizeof err);
    assert_non_null(r);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    agent *a = agent_create("greedy:trained", 1, 0, err, sizeof err);
    assert_non_null(a);
    while (carc_advance(g) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(a->choose(a, g), -1);
    assert_non_null(strstr(a->error, "carc train --variant"));
    agent_free(a);
    assert_null(agent_create("greedy:200ms", 1, 0, err, sizeof err)); /* greedy has no budget */
    assert_null(agent_create("random:trained", 1, 0, err, sizeof err));
    carc_game_free(g);
    carc_rules_free(r);
}

/* The analysis prints every option with its estimate and the move the
 * search plays, which is the move the same agent chooses. */
static void test_analysis_lists_options_and_the_move(void **state)
{
    (void)state;
    carc_rules *r;
    carc_game *g = replay_text(ring_city, &r);
    char err[1024], *buf = NULL;
    size_t len = 0;
    while (carc_advance(g) == CARC_NEED_DRAW) carc_draw(g, -1);
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(analysis_print(g, "mcts:200it", 3, 0, f, err, sizeof err), 0);
    fclose(f);
    agent *a = agent_create("mcts:200it", 3, carc_decision_player(g), err, sizeof err);
    int k = a->choose(a, g);
    char text[256], line[300];
    carc_option_text(g, k, text, sizeof text);
    snprintf(line, sizeof line, "mcts:200it would play: %s\n", text);
    assert_non_null(strstr(buf, line));
    for (int i = 0; i < carc_option_count(g); i++) {
        carc_option_text(g, i, text, sizeof text);
        assert_non_null(strstr(buf, text));
    }
    assert_int_equal(analysis_print(g, "greedy", 3, 0, stdout, err, sizeof err), -1);
    free(buf);
    agent_free(a);
    carc_game_free(g);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_figures_of_a_held_city),
        cmocka_unit_test(test_position_figures_follow_the_farm_rule),
        cmocka_unit_test(test_weights_file_errors_name_the_line),
        cmocka_unit_test(test_training_depends_only_on_its_seed),
        cmocka_unit_test(test_multiplayer_training_keeps_points_scored),
        cmocka_unit_test(test_shipped_weights_play_every_shipped_variant),
        cmocka_unit_test(test_trained_without_weights_says_how_to_train),
        cmocka_unit_test(test_analysis_lists_options_and_the_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
