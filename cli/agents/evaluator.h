/* evaluator.h - a learned judgement of a position: a linear model over the
 * rule-blind figures the kernel reports (carc_position_figures), one weights
 * file per variant (weights/NAME.ini, written by carc train).
 *
 * A player's worth is the sum over figures of figure x weight, the weight
 * moving in a straight line from its value at the start of the game to its
 * value at the end (by the share of tiles placed). Worth is in points of
 * final score lead: the model was fitted to predict each player's final
 * score minus the mean of the others'. */
#ifndef CARC_EVALUATOR_H
#define CARC_EVALUATOR_H
#include <stddef.h>
#include <stdint.h>

#include "carc.h"

#define EVAL_MAX_FIGURES 160
#define EVAL_FORMAT 1

typedef struct evaluator {
    char variant[64];           /* the rules it was trained on */
    int games, generations;     /* how it was trained (for the reader) */
    int players;                /* players a game in training (2 when not given) */
    uint64_t seed;
    double sigma;               /* spread of the final lead around the prediction, points */
    int nweights;
    char name[EVAL_MAX_FIGURES][48];
    double early[EVAL_MAX_FIGURES], late[EVAL_MAX_FIGURES];
    /* Bound to one rules' figure list (evaluator_bind): the weight index of
     * each figure, or -1. */
    int nfigures;
    int index_of[EVAL_MAX_FIGURES];
} evaluator;

/* Reads a weights file; -1 with "path:line: what" in err. */
int evaluator_load(evaluator *e, const char *path, char *err, size_t errn);
/* The shipped weights of a variant for games of `players`:
 * DATA/weights/NAME.ini for 2 players, DATA/weights/NAME-Np.ini for N > 2. */
void evaluator_path_for(const char *variant, int players, char *buf, size_t n);
/* Writes the weights file; -1 with a message on error. */
int evaluator_save(const evaluator *e, const char *path, char *err, size_t errn);
/* Matches the weights' names to the figures these rules report; -1 when
 * a weight names a figure the rules do not have (weights of another variant). */
int evaluator_bind(evaluator *e, const carc_rules *r, char *err, size_t errn);
/* Each player's worth in points (bound evaluator). */
void evaluator_worth(const evaluator *e, carc_game *g, double worth[CARC_MAX_PLAYERS]);
/* Each player's predicted lead in points over the best of the others. */
void evaluator_leads(const evaluator *e, carc_game *g, double lead[CARC_MAX_PLAYERS]);
/* The share of the game's tiles already placed, 0..1. */
double evaluator_progress(const carc_game *g);
/* The chance that a predicted lead of `lead` points over the best opponent
 * ends in a win. */
double evaluator_win_chance(const evaluator *e, double lead);
#endif
