/* ridge.h - least squares with a small ridge penalty, from accumulated
 * normal equations: the fit behind carc train. */
#ifndef CARC_RIDGE_H
#define CARC_RIDGE_H

typedef struct ridge {
    int dim;
    long samples;
    double *xtx;   /* dim x dim, row-major: sum of x x^T */
    double *xty;   /* dim: sum of x y */
    double yty;    /* sum of y^2 */
} ridge;

int ridge_init(ridge *r, int dim);
void ridge_free(ridge *r);
/* Adds one sample. */
void ridge_add(ridge *r, const double *x, double y);
/* Adds another accumulator's sums (the same dim). */
void ridge_merge(ridge *into, const ridge *from);
/* Solves for w minimising sum (y - w.x)^2 + lambda |w|^2, each input scaled
 * to unit mean square first (so lambda means the same for every input); an
 * input that was always 0 gets weight 0. Writes the root mean square
 * residual. -1 when there are no samples or the system is singular. */
int ridge_solve(const ridge *r, double lambda, double *w, double *rms_residual);
#endif
