/* cmd_sim.c - carc sim: many seeded games between bots, with statistics.
 * Game i uses seed game_seed(S, i) whatever the number of jobs, so results
 * do not depend on --jobs. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agents.h"
#include "commands.h"
#include "runner.h"

#define MAX_REASONS_OUT 32

typedef struct game_result {
    int scores[CARC_MAX_PLAYERS];
    int turns;
    int by_reason[MAX_REASONS_OUT];
    bool ok;
} game_result;

typedef struct sim_job {
    const char *variant;
    const char **overrides;
    int noverrides;
    int nplayers;
    char **agents;
    uint64_t seed;
    int games;
    const char *records_dir;
    game_result *results;
    atomic_int next, done;
    atomic_int failed;
    char error[1024];
    pthread_mutex_t lock;
    char reasons[MAX_REASONS_OUT][32];
    int nreasons;
} sim_job;

static void job_fail(sim_job *j, const char *msg)
{
    pthread_mutex_lock(&j->lock);
    if (!atomic_load(&j->failed)) snprintf(j->error, sizeof j->error, "%s", msg);
    atomic_store(&j->failed, 1);
    pthread_mutex_unlock(&j->lock);
}

static int play_one(sim_job *j, const carc_rules *rules, int index)
{
    char err[1024];
    uint64_t seed = game_seed(j->seed, (uint64_t)index);
    const char *names[CARC_MAX_PLAYERS];
    char namebuf[CARC_MAX_PLAYERS][16];
    agent *agents[CARC_MAX_PLAYERS] = {0};
    for (int p = 0; p < j->nplayers; p++) {
        snprintf(namebuf[p], sizeof namebuf[p], "P%d", p + 1);
        names[p] = namebuf[p];
    }
    carc_game *g = carc_game_new(rules, j->nplayers, names, seed, err, sizeof err);
    if (!g) {
        job_fail(j, err);
        return -1;
    }
    int rc = 0;
    for (int p = 0; p < j->nplayers && rc == 0; p++) {
        agents[p] = agent_create(j->agents[p], seed, p, err, sizeof err);
        if (!agents[p]) rc = -1;
    }
    carc_record_writer w;
    run_config cfg = {0};
    cfg.max_decisions = 100000;
    if (rc == 0 && j->records_dir) {
        carc_writer_begin(&w, j->variant, seed, j->nplayers, names, (const char *const *)j->agents, j->overrides,
                          j->noverrides);
        cfg.writer = &w;
    }
    if (rc == 0) rc = run_game(g, agents, &cfg, err, sizeof err);
    if (rc == 0 && j->records_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/game-%06d.rec", j->records_dir, index);
        rc = carc_writer_save(&w, path, err, sizeof err);
    }
    if (cfg.writer) carc_writer_free(&w);
    if (rc == 0) {
        game_result *res = &j->results[index];
        for (int p = 0; p < j->nplayers; p++) res->scores[p] = carc_score(g, p);
        res->turns = carc_turn_number(g);
        for (int e = 0; e < carc_events(g); e++) {
            const carc_award *a = carc_event_at(g, e);
            if (a->reason < MAX_REASONS_OUT) res->by_reason[a->reason] += a->points;
        }
        res->ok = true;
    } else {
        char msg[1200];
        snprintf(msg, sizeof msg, "game %d (seed %llu): %s", index, (unsigned long long)seed, err);
        job_fail(j, msg);
    }
    for (int p = 0; p < j->nplayers; p++) agent_free(agents[p]);
    carc_game_free(g);
    return rc;
}

static void *worker(void *arg)
{
    sim_job *j = arg;
    char err[1024];
    carc_rules *rules = carc_variant_load(j->variant, j->overrides, j->noverrides, err, sizeof err);
    if (!rules) {
        job_fail(j, err);
        return NULL;
    }
    for (;;) {
        int i = atomic_fetch_add(&j->next, 1);
        if (i >= j->games || atomic_load(&j->failed)) break;
        if (play_one(j, rules, i) < 0) break;
        atomic_fetch_add(&j->done, 1);
    }
    carc_rules_free(rules);
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: carc sim [--variant NAME] [--games N] [--players AGENT,AGENT[,...]] [--seed S]\n"
               "                [--jobs J] [--json] [--records DIR] [--option KEY=VALUE]...\n\n"
               "Plays N seeded games between bots and prints, per seat, the win rate (tied\n"
               "winners share a win), the mean and standard deviation of the score; the\n"
               "mean points per game by reason; the mean game length in turns.\n"
               "Defaults: --variant base --games 100 --players random,random --seed 1 --jobs 1.\n"
               "Agents:\n");
    agent_list(f);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_report(const sim_job *j, const carc_rules *rules, bool json, double secs)
{
    int n = j->nplayers, games = j->games;
    double wins[CARC_MAX_PLAYERS] = {0}, mean[CARC_MAX_PLAYERS] = {0}, sd[CARC_MAX_PLAYERS] = {0};
    double turns = 0, reason_total[MAX_REASONS_OUT] = {0};
    for (int i = 0; i < games; i++) {
        const game_result *r = &j->results[i];
        int best = r->scores[0], nb = 0;
        for (int p = 1; p < n; p++)
            if (r->scores[p] > best) best = r->scores[p];
        for (int p = 0; p < n; p++) nb += r->scores[p] == best;
        for (int p = 0; p < n; p++) {
            if (r->scores[p] == best) wins[p] += 1.0 / nb;
            mean[p] += r->scores[p];
        }
        turns += r->turns;
        for (int k = 0; k < MAX_REASONS_OUT; k++) reason_total[k] += r->by_reason[k];
    }
    for (int p = 0; p < n; p++) mean[p] /= games;
    for (int i = 0; i < games; i++)
        for (int p = 0; p < n; p++) {
            double d = j->results[i].scores[p] - mean[p];
            sd[p] += d * d;
        }
    for (int p = 0; p < n; p++) sd[p] = games > 1 ? sqrt(sd[p] / (games - 1)) : 0;
    if (json) {
        printf("{\"variant\": \"%s\", \"games\": %d, \"seed\": %llu, \"seconds\": %.3f, \"mean_turns\": %.3f, \"seats\": [",
               carc_rules_name(rules), games, (unsigned long long)j->seed, secs, turns / games);
        for (int p = 0; p < n; p++)
            printf("%s{\"seat\": %d, \"agent\": \"%s\", \"win_rate\": %.6f, \"mean_score\": %.4f, \"sd_score\": %.4f}",
                   p ? ", " : "", p + 1, j->agents[p], wins[p] / games, mean[p], sd[p]);
        printf("], \"points_by_reason\": {");
        bool first = true;
        for (int k = 0; k < MAX_REASONS_OUT; k++) {
            if (!reason_total[k]) continue;
            printf("%s\"%s\": %.4f", first ? "" : ", ", carc_reason_name(rules, k), reason_total[k] / games);
            first = false;
        }
        printf("}}\n");
        return;
    }
    printf("variant %s, %d games, seed %llu, %.2f s (%.0f games/s)\n\n", carc_rules_name(rules), games,
           (unsigned long long)j->seed, secs, secs > 0 ? games / secs : 0.0);
    printf("seat  agent        win rate   mean score   sd\n");
    for (int p = 0; p < n; p++)
        printf("%4d  %-10s %8.1f%%   %10.2f   %5.2f\n", p + 1, j->agents[p], 100.0 * wins[p] / games, mean[p], sd[p]);
    printf("\npoints per game by reason (all players):\n");
    for (int k = 0; k < MAX_REASONS_OUT; k++)
        if (reason_total[k]) printf("  %-10s %8.2f\n", carc_reason_name(rules, k), reason_total[k] / games);
    printf("\nmean game length: %.2f turns\n", turns / games);
}

int cmd_sim(int argc, char **argv)
{
    static sim_job job;
    memset(&job, 0, sizeof job);
    const char *variant = "base", *records = NULL;
    char players_default[] = "random,random";
    char *players = players_default;
    uint64_t seed = 1;
    int games = 100, jobs = 1;
    bool json = false;
    const char *overrides[32];
    int nover = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (!v) {
            fprintf(stderr, "carc sim: %s needs a value (or is unknown)\n", a);
            return 2;
        } else if (strcmp(a, "--variant") == 0) {
            variant = v, i++;
        } else if (strcmp(a, "--games") == 0) {
            if (!arg_int("sim", a, v, 1, 100000000, &games)) return 2;
            i++;
        } else if (strcmp(a, "--players") == 0) {
            players = argv[++i];
        } else if (strcmp(a, "--seed") == 0) {
            if (!arg_u64("sim", a, v, &seed)) return 2;
            i++;
        } else if (strcmp(a, "--jobs") == 0) {
            if (!arg_int("sim", a, v, 1, 256, &jobs)) return 2;
            i++;
        } else if (strcmp(a, "--records") == 0) {
            records = v, i++;
        } else if (strcmp(a, "--option") == 0) {
            if (nover == 32) {
                fprintf(stderr, "carc sim: too many --option\n");
                return 2;
            }
            overrides[nover++] = v, i++;
        } else {
            fprintf(stderr, "carc sim: unknown argument '%s' (see carc sim --help)\n", a);
            return 2;
        }
    }
    char *agents[CARC_MAX_PLAYERS];
    int np = arg_split(players, agents, CARC_MAX_PLAYERS);
    if (np < 1) {
        fprintf(stderr, "carc sim: --players expects 1 to %d agents separated by commas\n", CARC_MAX_PLAYERS);
        return 2;
    }
    char err[1024];
    for (int p = 0; p < np; p++) {
        agent *a = agent_create(agents[p], 0, p, err, sizeof err);
        if (!a) {
            fprintf(stderr, "carc sim: %s\n", err);
            return 2;
        }
        agent_free(a);
    }
    carc_rules *rules = carc_variant_load(variant, overrides, nover, err, sizeof err);
    if (!rules) {
        fprintf(stderr, "carc sim: %s\n", err);
        return 1;
    }
    if (np < carc_rules_min_players(rules) || np > carc_rules_max_players(rules)) {
        fprintf(stderr, "carc sim: variant %s takes %d to %d players, not %d\n", carc_rules_name(rules),
                carc_rules_min_players(rules), carc_rules_max_players(rules), np);
        carc_rules_free(rules);
        return 2;
    }
    if (records && mkdir(records, 0755) != 0 && access(records, W_OK) != 0) {
        fprintf(stderr, "carc sim: cannot create the records directory %s\n", records);
        carc_rules_free(rules);
        return 1;
    }
    job.variant = variant;
    job.overrides = overrides;
    job.noverrides = nover;
    job.nplayers = np;
    job.agents = agents;
    job.seed = seed;
    job.games = games;
    job.records_dir = records;
    job.results = calloc((size_t)games, sizeof *job.results);
    pthread_mutex_init(&job.lock, NULL);
    if (!job.results) {
        fprintf(stderr, "carc sim: out of memory\n");
        carc_rules_free(rules);
        return 1;
    }
    double t0 = now_seconds();
    pthread_t th[256];
    for (int t = 0; t < jobs; t++) pthread_create(&th[t], NULL, worker, &job);
    bool tty = isatty(2) && games >= 50;
    while (tty && atomic_load(&job.done) < games && !atomic_load(&job.failed)) {
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
        int d = atomic_load(&job.done);
        double el = now_seconds() - t0, left = d ? el * (games - d) / d : 0;
        fprintf(stderr, "\r%d/%d games, %.0f s left   ", d, games, left);
    }
    for (int t = 0; t < jobs; t++) pthread_join(th[t], NULL);
    if (tty) fprintf(stderr, "\r%40s\r", "");
    double secs = now_seconds() - t0;
    int rc = 0;
    if (atomic_load(&job.failed)) {
        fprintf(stderr, "carc sim: %s\n", job.error);
        rc = 1;
    } else {
        print_report(&job, rules, json, secs);
    }
    free(job.results);
    pthread_mutex_destroy(&job.lock);
    carc_rules_free(rules);
    return rc;
}
