/* bench.c - make bench: how fast carc plays. Each figure is the median of
 * five timed rounds on one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agents.h"
#include "carc.h"
#include "render.h"

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

/* The rules of a variant with at most one option set ("key=value" or NULL). */
static carc_rules *load_set(const char *variant, const char *option)
{
    char err[1024];
    carc_rules *r = carc_variant_load(variant, option ? &option : NULL, option ? 1 : 0, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    return r;
}

static carc_rules *load(const char *variant) { return load_set(variant, NULL); }

/* Games per second in one round of about `secs` seconds. */
static double round_rate(const carc_rules *r, int players, uint64_t *seed, double secs)
{
    int n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 20; i++) play_random(r, players, (*seed)++);
        n += 20;
        t = now() - t0;
    } while (t < secs);
    return n / t;
}

static double median5(double *x)
{
    qsort(x, 5, sizeof x[0], cmp_double);
    return x[2];
}

/* Games per second: the median of five rounds of about 0.4 s each. */
static double games_per_second(const char *variant, int players)
{
    carc_rules *r = load(variant);
    uint64_t seed = 1000;
    round_rate(r, players, &seed, 0.1); /* warm up */
    double rates[5];
    seed = 1;
    for (int k = 0; k < 5; k++) rates[k] = round_rate(r, players, &seed, 0.4);
    carc_rules_free(r);
    return median5(rates);
}

/* Variant B against variant A in alternating rounds on the same seeds: the
 * median of the per-round ratios B/A, which holds when the machine's speed
 * drifts. *rate_b gets B's median rate. */
static double ratio_to(const char *a, const char *b, double *rate_b)
{
    carc_rules *ra = load(a), *rb = load(b);
    double ratio[5], rates[5];
    uint64_t warm = 1000;
    round_rate(ra, 2, &warm, 0.1);
    round_rate(rb, 2, &warm, 0.1);
    for (int k = 0; k < 5; k++) {
        uint64_t sa = 1 + 100000 * (uint64_t)k, sb = sa;
        double x = round_rate(ra, 2, &sa, 0.3), y = round_rate(rb, 2, &sb, 0.3);
        ratio[k] = y / x;
        rates[k] = y;
    }
    carc_rules_free(ra);
    carc_rules_free(rb);
    *rate_b = median5(rates);
    return median5(ratio);
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

/* SVG renders per second of a finished 72-tile base game: the view of the
 * game and the whole picture, written to /dev/null. */
static double renders_per_second(void)
{
    char err[1024];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    carc_game *g = r ? carc_game_new(r, 2, NULL, 1, err, sizeof err) : NULL;
    FILE *sink = fopen("/dev/null", "w");
    if (!g || !sink) {
        fprintf(stderr, "bench: %s\n", g ? "cannot open /dev/null" : err);
        exit(1);
    }
    carc_rng rng;
    carc_rng_seed(&rng, 1, CARC_STREAM_AGENT);
    for (int st; (st = carc_advance(g)) != CARC_FINISHED && st != CARC_FAILED;) {
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else carc_choose(g, (int)carc_rng_below(&rng, (uint32_t)carc_option_count(g)));
    }
    double rates[5];
    for (int k = 0; k < 5; k++) {
        int n = 0;
        double t0 = now(), t;
        do {
            view v;
            if (view_of_game(&v, g) == 0) render_svg(sink, &v);
            view_free(&v);
            n++;
            t = now() - t0;
        } while (t < 0.3);
        rates[k] = n / t;
    }
    fclose(sink);
    carc_game_free(g);
    carc_rules_free(r);
    qsort(rates, 5, sizeof rates[0], cmp_double);
    return rates[2];
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    for (size_t k = 0; k < n; k++) h = (h ^ ((const unsigned char *)p)[k]) * 1099511628211ull;
    return h;
}

/* FNV-1a of the finished game: scores and every award. */
static uint64_t final_hash(const carc_game *g)
{
    uint64_t h = 1469598103934665603ull;
    for (int p = 0; p < carc_players(g); p++) {
        int score = carc_score(g, p);
        h = fnv1a(h, &score, sizeof score);
    }
    for (int i = 0; i < carc_awards(g); i++) {
        const carc_award *a = carc_award_at(g, i);
        int w[4] = {a->player, a->points, a->reason, a->feature};
        h = fnv1a(h, w, sizeof w);
    }
    return h;
}

/* Plays one game between two agents of the given kind (greedy, mcts...);
 * returns its final_hash. */
static uint64_t play_agents(const carc_rules *r, const char *spec, uint64_t seed)
{
    char err[256];
    carc_game *g = carc_game_new(r, 2, NULL, seed, err, sizeof err);
    agent *a[2];
    for (int s = 0; s < 2; s++) a[s] = g ? agent_create(spec, seed, s, err, sizeof err) : NULL;
    if (!g || !a[0] || !a[1]) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    for (;;) {
        int st = carc_advance(g);
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else if (st == CARC_NEED_CHOICE) {
            agent *who = a[carc_decision_player(g) % 2];
            carc_choose(g, who->choose(who, g));
        } else if (st == CARC_FINISHED) break;
        else {
            fprintf(stderr, "bench: %s\n", carc_game_error(g));
            exit(1);
        }
    }
    for (int s = 0; s < 2; s++) agent_free(a[s]);
    uint64_t h = final_hash(g);
    carc_game_free(g);
    return h;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Greedy-vs-greedy games of B against A, alternating rounds of the same
 * seeds (CPU time: the machine is shared): the median per-round ratio of
 * games per CPU second, B/A. */
static double greedy_ratio(const char *a, const char *b, int games, double *rate_a, double *rate_b)
{
    carc_rules *ra = load(a), *rb = load(b);
    double ratio[5], rates_a[5], rates_b[5];
    for (int k = 0; k < 5; k++) {
        double t0 = cpu_now();
        for (int i = 0; i < games; i++) play_agents(ra, "greedy", 1 + (uint64_t)(k * games + i));
        double t1 = cpu_now();
        for (int i = 0; i < games; i++) play_agents(rb, "greedy", 1 + (uint64_t)(k * games + i));
        double t2 = cpu_now();
        rates_a[k] = games / (t1 - t0);
        rates_b[k] = games / (t2 - t1);
        ratio[k] = rates_b[k] / rates_a[k];
    }
    carc_rules_free(ra);
    carc_rules_free(rb);
    *rate_a = median5(rates_a);
    *rate_b = median5(rates_b);
    return median5(ratio);
}

/* CPU seconds of greedy-vs-greedy games of a variant: the median of `games`
 * seeds (one seed when games is 1). */
static double greedy_game_seconds_set(const char *variant, const char *option, int games, uint64_t *hashes)
{
    carc_rules *r = load_set(variant, option);
    double secs[5];
    for (int i = 0; i < games && i < 5; i++) {
        double t0 = cpu_now();
        uint64_t h = play_agents(r, "greedy", 1 + (uint64_t)i);
        secs[i] = cpu_now() - t0;
        if (hashes) hashes[i] = h;
    }
    carc_rules_free(r);
    if (games >= 5) return median5(secs);
    return secs[0];
}

static double greedy_game_seconds(const char *variant, int games)
{
    return greedy_game_seconds_set(variant, NULL, games, NULL);
}

static bool variant_exists(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/variants/%s.ini", carc_data_dir(), name);
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    setvbuf(stdout, NULL, _IOLBF, 0); /* each row as it is measured */
    printf("carc bench (one thread; median of 5 rounds; \"of base\" is measured against base\n"
           "in alternating rounds of the same seeds, so it holds on a busy machine)\n");
    if (!only || strcmp(only, "base") == 0)
        printf("  base, 2 random players          %10.0f games/s\n", games_per_second("base", 2));
    if (!only || strcmp(only, "dispatch") == 0) {
        /* The cost of dispatch: the same games with handlers that do nothing
         * on every event, in C and in Lua. */
        double c, lua;
        double rc = ratio_to("base", "tests/variants/noop-c.ini", &c);
        double rl = ratio_to("base", "tests/variants/noop-lua.ini", &lua);
        printf("  base + no-op C plugin           %10.0f games/s  %6.3f of base\n", c, rc);
        printf("  base + no-op Lua script         %10.0f games/s  %6.3f of base  (Lua/C %.3f)\n", lua, rl, rl / rc);
    }
    if (!only || strcmp(only, "variants") == 0) {
        /* The shipped expansions, 2 random players. */
        static const char *const variants[] = {"robbers", "fairy", "princess-dragon", "ark", "all-expansions",
                                               "inns-cathedrals", "traders-builders"};
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
            if (!variant_exists(variants[i])) continue;
            double rate, r = ratio_to("base", variants[i], &rate);
            printf("  %-31s %10.0f games/s  %6.3f of base\n", variants[i], rate, r);
        }
        /* The fairy's share of the time, estimated by the same seeds without
         * it: the games differ a little (no fairy moves), so it is a guide. */
        double without;
        double r = ratio_to("tests/variants/princess-dragon-no-fairy.ini", "princess-dragon", &without);
        printf("  share of princess-dragon's time in the Lua fairy: about %.0f%%\n", 100.0 * (1.0 - r));
    }
    if (!only || strcmp(only, "greedy") == 0) {
        /* The same rule in C and in Lua (the trace twins), greedy bots. */
        double c, lua, r = greedy_ratio("tests/variants/trace-c.ini", "tests/variants/trace-lua.ini", 4, &c, &lua);
        printf("  greedy, C twin (trace-c)        %10.1f games/CPU s\n", c);
        printf("  greedy, Lua twin (trace-lua)    %10.1f games/CPU s  %6.3f of the C twin\n", lua, r);
        printf("  greedy-vs-greedy base game      %10.3f CPU s (median of 5 seeds)\n", greedy_game_seconds("base", 5));
        if (variant_exists("all-expansions")) {
            /* The goal: under 0.3 s. The same seeds with a temple bonus
             * (all-expansions has no temple, so it is never paid): the Ark's
             * moves go through its script, as before carc applied them, and
             * no two are known to do the same. The same games, shown by
             * their final scores and awards. */
            uint64_t kernel[5], script[5];
            double k = greedy_game_seconds_set("all-expansions", NULL, 5, kernel);
            double s = greedy_game_seconds_set("all-expansions", "ark.temple-bonus=3", 5, script);
            printf("  greedy-vs-greedy all-expansions %10.3f CPU s a game (median of 5 seeds; goal: under 0.3)\n", k);
            printf("  ... the Ark's moves by script   %10.3f CPU s a game  %6.2f times as long; the same 5 games: %s\n", s,
                   s / k, memcmp(kernel, script, sizeof kernel) == 0 ? "yes" : "NO");
        }
    }
    if (!only || strcmp(only, "placements") == 0)
        printf("  legal-placement generations     %10.0f /s\n", placements_per_second());
    if (!only || strcmp(only, "render") == 0) {
        double rps = renders_per_second();
        printf("  SVG renders, finished base game %10.0f /s  (%.2f ms each)\n", rps, 1000.0 / rps);
    }
    return 0;
}
