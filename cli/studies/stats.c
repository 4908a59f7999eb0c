/* stats.c - means, deviations and 95% intervals. */
#include "stats.h"

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
