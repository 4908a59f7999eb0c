/* bench.c - make bench: how fast carc plays. Each figure is the median of
 * five timed rounds on one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agents.h"
#include "carc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Plays one game with uniform random choices from one stream. */
static void play_random(const carc_rules *r, int players, uint64_t seed)
{
    char err[256];
    carc_game *g = carc_game_new(r, players, NULL, seed, err, sizeof err);
    if (!g) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    carc_rng rng;
    carc_rng_seed(&rng, seed, CARC_STREAM_AGENT);
    for (;;) {
        int st = carc_advance(g);
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else if (st == CARC_NEED_CHOICE) carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
        else if (st == CARC_FINISHED) break;
        else {
            fprintf(stderr, "bench: %s\n", carc_game_error(g));
            exit(1);
        }
    }
    carc_game_free(g);
}

/* Games per second: the median of five rounds of about 0.4 s each. */
static double games_per_second(const char *variant, int players)
{
    char err[1024];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    for (int i = 0; i < 50; i++) play_random(r, players, 1000 + (uint64_t)i); /* warm up */
    double rates[5];
    uint64_t seed = 1;
    for (int k = 0; k < 5; k++) {
        int n = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < 50; i++) play_random(r, players, seed++);
            n += 50;
            t = now() - t0;
        } while (t < 0.4);
        rates[k] = n / t;
    }
    carc_rules_free(r);
    qsort(rates, 5, sizeof rates[0], cmp_double);
    return rates[2];
}

/* Legal-placement generations per second on the positions of real games:
 * each counts every legal (position, rotation) of the drawn tile. */
static double placements_per_second(void)
{
    char err[1024];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    carc_game *snaps[512];
    int types[512], ns = 0;
    for (uint64_t seed = 1; ns < 500; seed++) {
        carc_game *g = carc_game_new(r, 2, NULL, seed, err, sizeof err);
        carc_rng rng;
        carc_rng_seed(&rng, seed, CARC_STREAM_AGENT);
        for (int st; (st = carc_advance(g)) != CARC_FINISHED && ns < 500;) {
            if (st == CARC_NEED_DRAW) {
                carc_draw(g, -1);
                types[ns] = carc_last_drawn(g);
                snaps[ns++] = carc_game_clone(g);
            } else {
                carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
            }
        }
        carc_game_free(g);
    }
    double rates[5];
    volatile long sink = 0;
    for (int k = 0; k < 5; k++) {
        long n = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < ns; i++) sink += carc_count_placements(snaps[i], types[i]);
            n += ns;
            t = now() - t0;
        } while (t < 0.3);
        rates[k] = n / t;
    }
    for (int i = 0; i < ns; i++) carc_game_free(snaps[i]);
    carc_rules_free(r);
    qsort(rates, 5, sizeof rates[0], cmp_double);
    return rates[2];
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    printf("carc bench (one thread; median of 5 rounds)\n");
    if (!only || strcmp(only, "base") == 0)
        printf("  base, 2 random players        %10.0f games/s\n", games_per_second("base", 2));
    if (!only || strcmp(only, "dispatch") == 0) {
        /* The cost of dispatch: the same games with handlers that do nothing
         * on every event, in C and in Lua. */
        double base = games_per_second("base", 2);
        double c = games_per_second("tests/variants/noop-c.ini", 2);
        double lua = games_per_second("tests/variants/noop-lua.ini", 2);
        printf("  base + no-op C plugin           %10.0f games/s  (%.3f of base)\n", c, c / base);
        printf("  base + no-op Lua script         %10.0f games/s  (%.3f of base; Lua/C %.3f)\n", lua, lua / base,
               lua / c);
    }
    if (!only || strcmp(only, "placements") == 0)
        printf("  legal-placement generations   %10.0f /s\n", placements_per_second());
    return 0;
}
