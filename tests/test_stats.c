/* test_stats.c - the statistics of sim, tournament and compare: known
 * values, the false-positive rate the 95% interval promises, a huge rule
 * change found in the right direction, shards that merge into the whole. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"
#include "shard.h"
#include "staged.h"
#include "stats.h"
#include "study.h"
#include "temp_files.h"

static void test_mean_and_sd(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    assert_float_equal(stat_mean(x, 8), 5.0, 1e-12);
    assert_float_equal(stat_sd(x, 8), sqrt(32.0 / 7.0), 1e-12);
    assert_float_equal(stat_sd(x, 1), 0.0, 0);
}

/* Student's t, 97.5% quantile: tabulated values. */
static void test_t_quantiles(void **state)
{
    (void)state;
    assert_float_equal(stat_t975(1), 12.706, 1e-3);
    assert_float_equal(stat_t975(10), 2.228, 1e-3);
    assert_float_equal(stat_t975(30), 2.042, 1e-3);
    assert_float_equal(stat_t975(40), 2.0211, 1e-3);
    assert_float_equal(stat_t975(100), 1.9840, 1e-3);
    assert_float_equal(stat_t975(1000), 1.9623, 1e-3);
}

static void test_mean_interval(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    interval ci = stat_mean_ci95(x, 8);
    double h = 2.365 * sqrt(32.0 / 7.0) / sqrt(8.0); /* t(7) = 2.365 */
    assert_float_equal(ci.lo, 5.0 - h, 1e-3);
    assert_float_equal(ci.hi, 5.0 + h, 1e-3);
}

/* Wilson score interval: values computed by hand from its formula. */
static void test_wilson_interval(void **state)
{
    (void)state;
    interval w = stat_wilson95(50, 100);
    assert_float_equal(w.lo, 0.4038, 1e-4);
    assert_float_equal(w.hi, 0.5962, 1e-4);
    w = stat_wilson95(0, 10);
    assert_float_equal(w.lo, 0.0, 1e-9);
    assert_float_equal(w.hi, 0.2775, 1e-4);
    w = stat_wilson95(75, 100);
    assert_float_equal(w.lo, 0.6569, 1e-4);
    assert_float_equal(w.hi, 0.8245, 1e-4);
}

static void setup_study(study *s, uint64_t seed, int games, const char *option)
{
    study_init(s);
    snprintf(s->variant, sizeof s->variant, "base");
    s->games = games;
    s->seed = seed;
    s->nagents = s->nplayers = 2;
    snprintf(s->agents[0], sizeof s->agents[0], "random");
    snprintf(s->agents[1], sizeof s->agents[1], "random");
    if (option) snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", option);
}

static bool mean_score_significant(const study *a, const study *b, double *diff)
{
    compare_row rows[64];
    int n = compare_metrics(a, b, NULL, rows, 64);
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].name, "mean score") == 0) {
            *diff = rows[i].diff;
            return rows[i].significant;
        }
    fail_msg("no mean score metric");
    return false;
}

/* A variant compared with itself on disjoint seeds: the 95% interval should
 * call the difference significant in about 5% of repetitions. */
static void test_false_positive_rate(void **state)
{
    (void)state;
    const int reps = 400;
    int hits = 0;
    for (int r = 0; r < reps; r++) {
        study a, b;
        setup_study(&a, 1000 + (uint64_t)r, 40, NULL);
        setup_study(&b, 900000 + (uint64_t)r, 40, NULL);
        assert_int_equal(study_run(&a), 0);
        assert_int_equal(study_run(&b), 0);
        double d;
        hits += mean_score_significant(&a, &b, &d);
        study_free(&a);
        study_free(&b);
    }
    /* Binomial(400, 0.05): mean 20, sd 4.4; this band holds with p > 0.999. */
    printf("false positives: %d of %d (%.1f%%)\n", hits, reps, 100.0 * hits / reps);
    assert_true(hits >= 6 && hits <= 38);
}

/* The A/A calibration: the base game against itself under another name
 * (tests/variants/base-again.ini) on independent seeds, 200 times. A study
 * of 100 games a side in 10 blocks should call a finding (Holm-corrected,
 * no practical threshold) in at most 5% of them, where the uncorrected
 * intervals find "something" in far more. The long form: bench/calibration.sh. */
static void test_aa_false_findings_at_most_nominal(void **state)
{
    (void)state;
    const int reps = 200, games = 100;
    int any_finding = 0, any_uncorrected = 0, tests = 0, uncorrected = 0;
    compare_settings cs;
    compare_settings_default(&cs);
    cs.min_points = cs.min_share = cs.min_turns = 0; /* the correction alone */
    for (int r = 0; r < reps; r++) {
        study a, b;
        setup_study(&a, 5000 + (uint64_t)r, games, NULL);
        setup_study(&b, 7000000 + (uint64_t)r, games, NULL);
        snprintf(b.variant, sizeof b.variant, "tests/variants/base-again.ini");
        assert_int_equal(study_run(&a), 0);
        assert_int_equal(study_run(&b), 0);
        assert_string_equal(b.variant_name, "base-again");
        compare_row rows[64];
        int n = compare_metrics(&a, &b, &cs, rows, 64), found = 0, sig = 0;
        assert_true(n >= 8);
        for (int i = 0; i < n; i++) {
            assert_int_equal(rows[i].blocks, 10);
            found += rows[i].finding;
            sig += rows[i].significant;
        }
        tests += n;
        uncorrected += sig;
        any_finding += found > 0;
        any_uncorrected += sig > 0;
        study_free(&a);
        study_free(&b);
    }
    printf("A/A: a finding in %d of %d studies (%.1f%%); uncorrected, some measure 'significant' in %d (%.1f%%), "
           "%d of %d measures (%.1f%%)\n",
           any_finding, reps, 100.0 * any_finding / reps, any_uncorrected, 100.0 * any_uncorrected / reps, uncorrected,
           tests, 100.0 * uncorrected / tests);
    /* At the nominal 5%, more than 20 of 200 has a chance of about 0.002. */
    assert_true(any_finding <= 20);
    /* Each uncorrected interval holds its 95% (Binomial(~2000, 0.05): about
     * 100 +- 10), and together they cry wolf far more often than 5%. */
    assert_true(uncorrected >= tests / 40 && uncorrected <= tests / 10);
    assert_true(any_uncorrected >= 3 * any_finding && any_uncorrected > reps / 6);
}

/* --until-width (Stein's two-stage procedure): 100 A/A studies of the first
 * player's win share, a first stage of 40 games a side in 10 blocks, run
 * until the 95% interval is at most 0.2 wide: every interval is that narrow
 * or narrower, and about 95% of them hold the true difference, 0. */
static void test_staged_width_and_coverage(void **state)
{
    (void)state;
    const int reps = 100;
    int missed = 0, extended = 0;
    for (int r = 0; r < reps; r++) {
        study a, b;
        setup_study(&a, 300 + (uint64_t)r, 40, NULL);
        setup_study(&b, 8000000 + (uint64_t)r, 40, NULL);
        assert_int_equal(study_run(&a), 0);
        assert_int_equal(study_run(&b), 0);
        compare_settings cs;
        compare_settings_default(&cs);
        char err[1400];
        assert_int_equal(staged_extend(&a, &b, &cs, "first-win", 0.2, 100000, err, sizeof err), 0);
        assert_int_equal(a.nresults, cs.blocks * 4);
        assert_int_equal(b.nresults, a.nresults);
        extended += a.nresults > 40;
        compare_row rows[64];
        int n = compare_metrics(&a, &b, &cs, rows, 64);
        for (int i = 0; i < n; i++)
            if (strcmp(rows[i].key, "first-win") == 0) {
                assert_true(rows[i].hi - rows[i].lo <= 0.2 + 1e-9);
                assert_int_equal(rows[i].df, 9);
                missed += rows[i].lo > 0 || rows[i].hi < 0;
            }
        study_free(&a);
        study_free(&b);
    }
    printf("staged: %d of %d intervals missed 0; %d studies played past the first stage\n", missed, reps, extended);
    assert_true(extended >= reps / 2);
    assert_true(missed <= 12); /* Binomial(100, 0.05): more than 12 has a chance of about 0.002 */
}

/* Farms scoring nothing lowers the mean score: significant, negative. */
static void test_huge_change_found(void **state)
{
    (void)state;
    study a, b;
    setup_study(&a, 7, 200, NULL);
    setup_study(&b, 7, 200, "farm-scoring=none");
    assert_int_equal(study_run(&a), 0);
    assert_int_equal(study_run(&b), 0);
    double d;
    assert_true(mean_score_significant(&a, &b, &d));
    assert_true(d < -2.0);
    study_free(&a);
    study_free(&b);
}

/* Three shards written as JSON lines and read back are the whole study. */
static void test_shards_merge_to_the_whole(void **state)
{
    (void)state;
    study whole;
    setup_study(&whole, 3, 60, NULL);
    assert_int_equal(study_run(&whole), 0);
    char path[1024];
    FILE *f = fopen(test_tmp_path(path, sizeof path, "shards.jsonl"), "w");
    assert_non_null(f);
    for (int k = 1; k <= 3; k++) {
        study part;
        setup_study(&part, 3, 60, NULL);
        part.shard_k = k;
        part.shard_n = 3;
        assert_int_equal(study_run(&part), 0);
        assert_int_equal(part.nresults, 20);
        shard_write(f, "sim", &part, NULL);
        study_free(&part);
    }
    fclose(f);
    study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32], err[2048];
    char *paths[] = {(char *)path};
    assert_int_equal(shard_merge(paths, 1, &a, &b, kind, sizeof kind, err, sizeof err), 0);
    assert_string_equal(kind, "sim");
    assert_int_equal(a.nresults, 60);
    assert_int_equal(b.nresults, 0);
    for (int i = 0; i < 60; i++) {
        assert_int_equal(a.results[i].index, whole.results[i].index);
        assert_int_equal(a.results[i].turns, whole.results[i].turns);
        assert_int_equal(a.results[i].score[0], whole.results[i].score[0]);
        assert_int_equal(a.results[i].score[1], whole.results[i].score[1]);
    }
    study_free(&a);
    study_free(&b);
    study_free(&whole);
}

/* A shard played by another carc (another version) is refused, and the
 * message names the version. */
static void test_shard_of_another_version_refused(void **state)
{
    (void)state;
    const char *path = "/tmp/carc-test-shards-version.jsonl";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int k = 1; k <= 2; k++) {
        study part;
        setup_study(&part, 3, 10, NULL);
        part.shard_k = k;
        part.shard_n = 2;
        assert_int_equal(study_run(&part), 0);
        if (k == 2) snprintf(part.version, sizeof part.version, "0.0.9");
        shard_write(f, "sim", &part, NULL);
        study_free(&part);
    }
    fclose(f);
    study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32], err[2048];
    char *paths[] = {(char *)path};
    assert_int_equal(shard_merge(paths, 1, &a, &b, kind, sizeof kind, err, sizeof err), -1);
    assert_non_null(strstr(err, "carc version: 0.0.9 here, " CARC_VERSION " there"));
    study_free(&a);
    study_free(&b);
    remove(path);
}

/* Compare pairs the games of A and B by their number, not by position: a
 * game missing on one side leaves its partner out of every measure. */
static void test_compare_pairs_by_game_number(void **state)
{
    (void)state;
    study a, b;
    setup_study(&a, 5, 40, NULL);
    setup_study(&b, 5, 40, "farm-scoring=none");
    assert_int_equal(study_run(&a), 0);
    assert_int_equal(study_run(&b), 0);
    winner_change whole = compare_winner_change(&a, &b);
    assert_int_equal(whole.games, 40);
    /* drop game 0 of B: every later game of B would shift by one position */
    memmove(b.results, b.results + 1, 39 * sizeof *b.results);
    b.nresults = 39;
    int ia[40], ib[40];
    assert_int_equal(pair_games(&a, &b, ia, ib), 39);
    for (int k = 0; k < 39; k++) assert_int_equal(a.results[ia[k]].index, b.results[ib[k]].index);
    winner_change part = compare_winner_change(&a, &b);
    assert_int_equal(part.games, 39);
    assert_true(part.changed <= whole.changed);
    study_free(&a);
    study_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_and_sd),
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_mean_interval),
        cmocka_unit_test(test_wilson_interval),
        cmocka_unit_test(test_false_positive_rate),
        cmocka_unit_test(test_huge_change_found),
        cmocka_unit_test(test_aa_false_findings_at_most_nominal),
        cmocka_unit_test(test_staged_width_and_coverage),
        cmocka_unit_test(test_shards_merge_to_the_whole),
        cmocka_unit_test(test_shard_of_another_version_refused),
        cmocka_unit_test(test_compare_pairs_by_game_number),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
