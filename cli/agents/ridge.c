/* ridge.c - least squares with a ridge penalty, by Cholesky decomposition of
 * the scaled normal equations (ridge.h). */
#include "ridge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ridge_init(ridge *r, int dim)
{
    memset(r, 0, sizeof *r);
    r->dim = dim;
    r->xtx = calloc((size_t)dim * (size_t)dim, sizeof *r->xtx);
    r->xty = calloc((size_t)dim, sizeof *r->xty);
    if (!r->xtx || !r->xty) {
        ridge_free(r);
        return -1;
    }
    return 0;
}

void ridge_free(ridge *r)
{
    free(r->xtx);
    free(r->xty);
    r->xtx = r->xty = NULL;
}

void ridge_add(ridge *r, const double *x, double y)
{
    int d = r->dim;
    for (int i = 0; i < d; i++) {
        if (x[i] == 0) continue;
        double *row = r->xtx + (size_t)i * (size_t)d;
        for (int j = 0; j < d; j++) row[j] += x[i] * x[j];
        r->xty[i] += x[i] * y;
    }
    r->yty += y * y;
    r->samples++;
}

void ridge_merge(ridge *into, const ridge *from)
{
    int d = into->dim;
    for (size_t i = 0; i < (size_t)d * (size_t)d; i++) into->xtx[i] += from->xtx[i];
    for (int i = 0; i < d; i++) into->xty[i] += from->xty[i];
    into->yty += from->yty;
    into->samples += from->samples;
}

int ridge_solve(const ridge *r, double lambda, double *w, double *rms_residual)
{
    int d = r->dim;
    if (r->samples == 0) return -1;
    double *a = malloc((size_t)d * (size_t)d * sizeof *a), *b = malloc((size_t)d * sizeof *b),
           *scale = malloc((size_t)d * sizeof *scale);
    if (!a || !b || !scale) {
        free(a), free(b), free(scale);
        return -1;
    }
    double n = (double)r->samples;
    for (int i = 0; i < d; i++) {
        double ms = r->xtx[(size_t)i * d + i] / n;
        scale[i] = ms > 1e-12 ? 1.0 / sqrt(ms) : 0.0;
    }
    /* The scaled system (S X^T X S + lambda n I) v = S X^T y, w = S v. */
    for (int i = 0; i < d; i++) {
        for (int j = 0; j < d; j++) a[(size_t)i * d + j] = r->xtx[(size_t)i * d + j] * scale[i] * scale[j];
        a[(size_t)i * d + i] += scale[i] > 0 ? lambda * n : 1.0;
        b[i] = r->xty[i] * scale[i];
    }
    /* Cholesky: a = L L^T, L in the lower triangle. */
    for (int j = 0; j < d; j++) {
        double s = a[(size_t)j * d + j];
        for (int k = 0; k < j; k++) s -= a[(size_t)j * d + k] * a[(size_t)j * d + k];
        if (s <= 0) {
            free(a), free(b), free(scale);
            return -1;
        }
        double ljj = sqrt(s);
        a[(size_t)j * d + j] = ljj;
        for (int i = j + 1; i < d; i++) {
            double t = a[(size_t)i * d + j];
            for (int k = 0; k < j; k++) t -= a[(size_t)i * d + k] * a[(size_t)j * d + k];
            a[(size_t)i * d + j] = t / ljj;
        }
    }
    for (int i = 0; i < d; i++) { /* L z = b */
        double t = b[i];
        for (int k = 0; k < i; k++) t -= a[(size_t)i * d + k] * b[k];
        b[i] = t / a[(size_t)i * d + i];
    }
    for (int i = d - 1; i >= 0; i--) { /* L^T v = z */
        double t = b[i];
        for (int k = i + 1; k < d; k++) t -= a[(size_t)k * d + i] * b[k];
        b[i] = t / a[(size_t)i * d + i];
    }
    for (int i = 0; i < d; i++) w[i] = b[i] * scale[i];
    /* Residual: y'y - 2 w'X'y + w'X'X w. */
    double sse = r->yty;
    for (int i = 0; i < d; i++) {
        sse -= 2 * w[i] * r->xty[i];
        for (int j = 0; j < d; j++) sse += w[i] * r->xtx[(size_t)i * d + j] * w[j];
    }
    if (rms_residual) *rms_residual = sqrt(sse > 0 ? sse / n : 0);
    free(a), free(b), free(scale);
    return 0;
}
