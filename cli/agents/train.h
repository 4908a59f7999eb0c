/* train.h - learning a variant's evaluator from self-play (carc train).
 *
 * Each generation plays `games` games between greedy players that judge with
 * the previous generation's weights (the first: the hand-written judgement),
 * a share of their moves random so that they also meet positions they would
 * not choose. At the start of every turn each player's figures
 * (carc_position_figures), minus the mean of the others', are paired with
 * the player's final score minus the mean of the others'; a ridge regression
 * of one on the other, each figure's weight moving linearly from the start of
 * the game to its end, gives the next generation's weights. The result
 * depends only on the configuration, not on the number of threads. */
#ifndef CARC_TRAIN_H
#define CARC_TRAIN_H
#include <stdint.h>
#include <stdio.h>

#include "evaluator.h"

typedef struct train_config {
    const char *variant;          /* name or path */
    const char *const *overrides; /* rule options, "key=value" */
    int noverrides;
    int players;
    int games;                    /* per generation */
    int generations;
    uint64_t seed;
    int jobs;
    double explore;               /* share of random moves */
    const evaluator *start;       /* NULL: the hand-written judgement */
    FILE *progress;               /* a line per generation, or NULL */
    /* Called with each generation's weights as soon as they are fitted (a
     * long training can be stopped and keep what it learned); a negative
     * return stops the training with that error. NULL: none. */
    int (*on_generation)(const evaluator *e, void *user, char *err, size_t errn);
    void *user;
} train_config;

/* Runs the training into *out (unbound weights, ready to save); -1 with a
 * message on error. */
int train_run(const train_config *cfg, evaluator *out, char *err, size_t errn);
#endif
