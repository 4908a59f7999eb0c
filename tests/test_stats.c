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
    int n = compare_metrics(a, b, rows, 64);
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
        study_write_jsonl(&part, f, "sim", "");
        study_free(&part);
    }
    fclose(f);
    study a, b;
    study_init(&a);
    study_init(&b);
    char kind[32], err[256];
    assert_int_equal(study_read_jsonl(path, &a, &b, kind, sizeof kind, err, sizeof err), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_and_sd),
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_mean_interval),
        cmocka_unit_test(test_wilson_interval),
        cmocka_unit_test(test_false_positive_rate),
        cmocka_unit_test(test_huge_change_found),
        cmocka_unit_test(test_shards_merge_to_the_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
