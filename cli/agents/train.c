/* train.c - learning a variant's evaluator from self-play (train.h). */
#include "train.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "commands.h"
#include "ridge.h"

/* Games are dealt to this many accumulators by their number, each filled in
 * game order by one thread at a time, then summed in order: the sums, and so
 * the weights, do not depend on how many threads ran. */
#define TRAIN_SHARDS 16

typedef struct gen_ctx {
    const train_config *cfg;
    const evaluator *judge;   /* NULL: hand-written */
    uint64_t gen_seed;
    int nfig, dim;
    int score_figure;         /* "score", held at weight 1 (more than 2 players), or -1 */
    ridge shard[TRAIN_SHARDS];
    double lead_sum[TRAIN_SHARDS];
    pthread_mutex_t lock;
    int next_shard;
    char error[768];
} gen_ctx;

static void gen_fail(gen_ctx *c, const char *msg)
{
    pthread_mutex_lock(&c->lock);
    if (!c->error[0]) snprintf(c->error, sizeof c->error, "%s", msg);
    pthread_mutex_unlock(&c->lock);
}

/* One game: every turn's figures, then, once the scores are final, one sample
 * per player and turn into r. */
static int play_game(gen_ctx *c, const carc_rules *rules, int index, ridge *r, double *lead_sum, char *err,
                     size_t errn)
{
    const train_config *cfg = c->cfg;
    int np = cfg->players, nfig = c->nfig;
    uint64_t seed = game_seed(c->gen_seed, (uint64_t)index);
    const char *names[CARC_MAX_PLAYERS] = {"P1", "P2", "P3", "P4", "P5", "P6"};
    carc_game *g = carc_game_new(rules, np, names, seed, err, errn);
    if (!g) return -1;
    agent *ag[CARC_MAX_PLAYERS] = {0};
    double *snap = NULL; /* per turn: progress, then nfig figures per player */
    int nsnap = 0, cap = 0, rc = 0;
    size_t stride = 1 + (size_t)nfig * (size_t)np;
    for (int p = 0; p < np && rc == 0; p++) {
        ag[p] = agent_create("greedy", seed, p, err, errn);
        if (!ag[p]) rc = -1;
        else {
            ag[p]->explore = cfg->explore;
            if (c->judge && !(ag[p]->eval = malloc(sizeof *ag[p]->eval))) rc = -1;
            else if (c->judge) *ag[p]->eval = *c->judge;
        }
    }
    for (int decisions = 0; rc == 0; decisions++) {
        int st = carc_advance(g);
        if (st == CARC_FINISHED) break;
        if (st == CARC_FAILED || decisions > 1000000) {
            snprintf(err, errn, "%s", st == CARC_FAILED ? carc_game_error(g) : "the game did not end");
            rc = -1;
        } else if (st == CARC_NEED_DRAW) {
            if (nsnap == cap) {
                cap = cap ? cap * 2 : 128;
                double *ns = realloc(snap, (size_t)cap * stride * sizeof *snap);
                if (!ns) {
                    snprintf(err, errn, "out of memory");
                    rc = -1;
                    break;
                }
                snap = ns;
            }
            double *s = snap + (size_t)nsnap++ * stride;
            s[0] = evaluator_progress(g);
            carc_position_figures(g, s + 1, nfig * np);
            if (carc_draw(g, -1) < 0) {
                snprintf(err, errn, "%s", carc_game_error(g));
                rc = -1;
            }
        } else {
            agent *a = ag[carc_decision_player(g)];
            int k = a->choose(a, g);
            if (k < 0 || carc_choose(g, k) < 0) {
                snprintf(err, errn, "%s", a->error[0] ? a->error : carc_game_error(g));
                rc = -1;
            }
        }
    }
    if (rc == 0) {
        double y[CARC_MAX_PLAYERS], total = 0;
        for (int p = 0; p < np; p++) total += carc_score(g, p);
        for (int p = 0; p < np; p++) {
            y[p] = np > 1 ? carc_score(g, p) - (total - carc_score(g, p)) / (np - 1) : carc_score(g, p);
            *lead_sum += y[p] > 0 ? y[p] : 0;
        }
        double *z = malloc((size_t)c->dim * sizeof *z);
        if (!z) rc = -1;
        for (int t = 0; t < nsnap && z; t++) {
            const double *s = snap + (size_t)t * stride, *fig = s + 1;
            double late = s[0], early = 1 - late;
            for (int p = 0; p < np; p++) {
                double target = y[p];
                for (int i = 0; i < nfig; i++) {
                    double others = 0;
                    for (int q = 0; q < np; q++)
                        if (q != p) others += fig[q * nfig + i];
                    double d = fig[p * nfig + i] - (np > 1 ? others / (np - 1) : 0);
                    if (i == c->score_figure) {
                        /* Points scored are kept: the fit learns what the
                         * rest of the game adds to the lead in points. With
                         * more than 2 players a free fit weighs an early
                         * lead at half (others catch up with the leader)
                         * and its greedy stops scoring (docs/bots.md). */
                        target -= d;
                        d = 0;
                    }
                    z[2 * i] = d * early;
                    z[2 * i + 1] = d * late;
                }
                ridge_add(r, z, target);
            }
        }
        free(z);
    }
    free(snap);
    for (int p = 0; p < np; p++) agent_free(ag[p]);
    carc_game_free(g);
    return rc;
}

static void *worker(void *arg)
{
    gen_ctx *c = arg;
    const train_config *cfg = c->cfg;
    char err[768] = "";
    carc_rules *rules = carc_variant_load(cfg->variant, cfg->overrides, cfg->noverrides, err, sizeof err);
    if (!rules) {
        gen_fail(c, err);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int k = c->error[0] ? TRAIN_SHARDS : c->next_shard++;
        pthread_mutex_unlock(&c->lock);
        if (k >= TRAIN_SHARDS) break;
        for (int i = k; i < cfg->games; i += TRAIN_SHARDS)
            if (play_game(c, rules, i, &c->shard[k], &c->lead_sum[k], err, sizeof err) < 0) {
                char msg[900] = "";
                snprintf(msg, sizeof msg, "training game %d: %s", i, err);
                gen_fail(c, msg);
                break;
            }
    }
    carc_rules_free(rules);
    return NULL;
}

/* One generation: games judged by `judge`, fitted into *out. */
static int generation(const train_config *cfg, const carc_rules *rules, const evaluator *judge, int gen,
                      evaluator *out, char *err, size_t errn)
{
    gen_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    c->cfg = cfg;
    c->judge = judge;
    c->gen_seed = game_seed(cfg->seed, 1000000000ULL + (uint64_t)gen);
    c->nfig = carc_position_figure_count(rules);
    c->dim = 2 * c->nfig;
    c->score_figure = -1;
    for (int i = 0; i < c->nfig && cfg->players > 2; i++) {
        char name[64];
        carc_position_figure_name(rules, i, name, sizeof name);
        if (strcmp(name, "score") == 0) c->score_figure = i;
    }
    pthread_mutex_init(&c->lock, NULL);
    int rc = 0;
    for (int k = 0; k < TRAIN_SHARDS && rc == 0; k++) rc = ridge_init(&c->shard[k], c->dim);
    int jobs = cfg->jobs < 1 ? 1 : cfg->jobs > TRAIN_SHARDS ? TRAIN_SHARDS : cfg->jobs;
    pthread_t th[TRAIN_SHARDS];
    int started = 0;
    for (int j = 0; j < jobs && rc == 0; j++)
        if (pthread_create(&th[j], NULL, worker, c) == 0) started++;
    if (rc == 0 && started == 0) worker(c);
    for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
    if (rc < 0) snprintf(err, errn, "out of memory");
    else if (c->error[0]) {
        snprintf(err, errn, "%s", c->error);
        rc = -1;
    }
    double *w = NULL, rms = 0, lead = 0;
    if (rc == 0) {
        for (int k = 1; k < TRAIN_SHARDS; k++) ridge_merge(&c->shard[0], &c->shard[k]);
        for (int k = 0; k < TRAIN_SHARDS; k++) lead += c->lead_sum[k];
        w = malloc((size_t)c->dim * sizeof *w);
        if (!w || ridge_solve(&c->shard[0], 1e-4, w, &rms) < 0) {
            snprintf(err, errn, "the fit failed (too few games: %d)", cfg->games);
            rc = -1;
        }
    }
    if (rc == 0) {
        memset(out, 0, sizeof *out);
        snprintf(out->variant, sizeof out->variant, "%s", carc_rules_name(rules));
        out->games = cfg->games;
        out->generations = gen + 1;
        out->players = cfg->players;
        out->seed = cfg->seed;
        out->sigma = rms > 0.5 ? rms : 0.5;
        out->nweights = c->nfig;
        for (int i = 0; i < c->nfig; i++) {
            carc_position_figure_name(rules, i, out->name[i], sizeof out->name[i]);
            out->early[i] = i == c->score_figure ? 1.0 : w[2 * i];
            out->late[i] = i == c->score_figure ? 1.0 : w[2 * i + 1];
        }
        if (cfg->progress)
            fprintf(cfg->progress,
                    "generation %d: %d games by %s, %ld positions; final lead predicted within %.1f points "
                    "(rms); mean winning margin %.1f\n",
                    gen + 1, cfg->games, judge ? "the previous weights" : "the hand-written judgement",
                    c->shard[0].samples, rms, lead / cfg->games);
    }
    free(w);
    for (int k = 0; k < TRAIN_SHARDS; k++) ridge_free(&c->shard[k]);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return rc;
}

int train_run(const train_config *cfg, evaluator *out, char *err, size_t errn)
{
    carc_rules *rules = carc_variant_load(cfg->variant, cfg->overrides, cfg->noverrides, err, errn);
    if (!rules) return -1;
    if (cfg->players < carc_rules_min_players(rules) || cfg->players > carc_rules_max_players(rules)) {
        snprintf(err, errn, "variant %s is for %d to %d players, not %d", carc_rules_name(rules),
                 carc_rules_min_players(rules), carc_rules_max_players(rules), cfg->players);
        carc_rules_free(rules);
        return -1;
    }
    if (carc_position_figure_count(rules) > EVAL_MAX_FIGURES) {
        snprintf(err, errn, "variant %s reports more position figures than an evaluator holds (%d)",
                 carc_rules_name(rules), EVAL_MAX_FIGURES);
        carc_rules_free(rules);
        return -1;
    }
    evaluator *judge = NULL, *next = malloc(sizeof *next);
    int rc = next ? 0 : -1;
    if (rc == 0 && cfg->start) {
        judge = malloc(sizeof *judge);
        if (!judge) rc = -1;
        else {
            *judge = *cfg->start;
            rc = evaluator_bind(judge, rules, err, errn);
        }
    }
    for (int gen = 0; gen < cfg->generations && rc == 0; gen++) {
        rc = generation(cfg, rules, judge, gen, next, err, errn);
        if (rc == 0 && cfg->on_generation) rc = cfg->on_generation(next, cfg->user, err, errn);
        if (rc < 0) break;
        if (!judge && !(judge = malloc(sizeof *judge))) rc = -1;
        else {
            *judge = *next;
            rc = evaluator_bind(judge, rules, err, errn);
        }
    }
    if (rc == 0) *out = *next;
    else if (!err[0]) snprintf(err, errn, "out of memory");
    free(judge);
    free(next);
    carc_rules_free(rules);
    return rc;
}
