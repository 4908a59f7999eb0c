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
/* Student's t: its distribution function, its quantile (the t with
 * P(T <= t) = p), and the two-sided p-value of t (P(|T| >= |t|)). */
double stat_t_cdf(double t, int df);
double stat_t_quantile(double p, int df);
double stat_t_p_two_sided(double t, int df);
/* Holm's step-down correction of m p-values (Holm 1979, "A simple
 * sequentially rejective multiple test procedure", Scand. J. Statist. 6):
 * adjusted[i] = max over the r smallest p-values up to p[i] of
 * min(1, (m - r + 1) p_(r)). Rejecting where adjusted < alpha keeps the
 * chance of any false rejection at most alpha. */
void stat_holm(const double *p, int m, double *adjusted);
/* The rank (1 = smallest) of p[i] among the m p-values, ties by position:
 * Holm's level for it is alpha / (m - rank + 1). */
int stat_holm_rank(const double *p, int m, int i);
#endif
