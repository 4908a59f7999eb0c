/* stats.h - the statistics behind sim, tournament and compare. */
#ifndef CARC_STATS_H
#define CARC_STATS_H

typedef struct interval {
    double lo, hi;
} interval;

double stat_mean(const double *x, int n);
/* Sample standard deviation (n - 1); 0 for n < 2. */
double stat_sd(const double *x, int n);
/* The two-sided 95% quantile of Student's t with df degrees of freedom. */
double stat_t975(int df);
/* 95% interval of a mean (Student's t). */
interval stat_mean_ci95(const double *x, int n);
/* 95% Wilson score interval of a proportion: successes out of n (a tie
 * shared between k winners counts 1/k). */
interval stat_wilson95(double successes, int n);
#endif
