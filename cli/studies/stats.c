/* stats.c - means, deviations and 95% intervals. */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>

#include <math.h>

double stat_mean(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    return n ? s / n : 0;
}

double stat_sd(const double *x, int n)
{
    if (n < 2) return 0;
    double m = stat_mean(x, n), s = 0;
    for (int i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
    return sqrt(s / (n - 1));
}

double stat_t975(int df)
{
    static const double table[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1) return INFINITY;
    if (df <= 30) return table[df - 1];
    /* Cornish-Fisher expansion around the normal quantile: within 1e-4 of
     * the exact value for df > 30. */
    const double z = 1.959963985;
    double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384.0 * df * df * df);
}

interval stat_mean_ci95(const double *x, int n)
{
    double m = stat_mean(x, n);
    if (n < 2) return (interval){m, m};
    double h = stat_t975(n - 1) * stat_sd(x, n) / sqrt((double)n);
    return (interval){m - h, m + h};
}

interval stat_wilson95(double successes, int n)
{
    if (n <= 0) return (interval){0, 1};
    const double z = 1.959963985;
    double p = successes / n, z2 = z * z;
    double centre = (p + z2 / (2.0 * n)) / (1 + z2 / n);
    double half = z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
    return (interval){centre - half, centre + half};
}

/* The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), as in Press et al., Numerical Recipes, 6.4. */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
        d = 1 + num * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + num / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
        d = 1 + num * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + num / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-14) break;
    }
    return h;
}

static double beta_reg(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
    if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stat_t_cdf(double t, int df)
{
    if (df < 1) return 0.5;
    double x = df / (df + t * t), tail = 0.5 * beta_reg(df / 2.0, 0.5, x);
    return t >= 0 ? 1 - tail : tail;
}

double stat_t_quantile(double p, int df)
{
    if (df < 1 || p <= 0 || p >= 1) return p >= 0.5 ? INFINITY : -INFINITY;
    if (p < 0.5) return -stat_t_quantile(1 - p, df);
    double lo = 0, hi = 1;
    while (stat_t_cdf(hi, df) < p && hi < 1e12) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (stat_t_cdf(mid, df) < p) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

double stat_t_p_two_sided(double t, int df)
{
    if (df < 1) return 1;
    if (!isfinite(t)) return isnan(t) ? 1 : 0;
    return beta_reg(df / 2.0, 0.5, df / (df + t * t));
}

void stat_holm(const double *p, int m, double *adjusted)
{
    /* Order the p-values (insertion sort: m is a few hundred at most). */
    int *order = malloc((size_t)(m > 0 ? m : 1) * sizeof *order);
    if (!order) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < m; i++) order[i] = i;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    double running = 0;
    for (int r = 0; r < m; r++) {
        double v = (m - r) * p[order[r]];
        if (v > 1) v = 1;
        if (v > running) running = v;
        adjusted[order[r]] = running;
    }
    free(order);
}

int stat_holm_rank(const double *p, int m, int i)
{
    int rank = 1;
    for (int j = 0; j < m; j++)
        if (p[j] < p[i] || (p[j] == p[i] && j < i)) rank++;
    return rank;
}
