#include "rng.h"

void carc_rng_seed(carc_rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0;
    r->inc = (stream << 1u) | 1u;
    carc_rng_next(r);
    r->state += seed;
    carc_rng_next(r);
}

uint32_t carc_rng_next(carc_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

uint32_t carc_rng_below(carc_rng *r, uint32_t bound)
{
    /* Lemire's multiply-shift with rejection. */
    uint64_t m = (uint64_t)carc_rng_next(r) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)carc_rng_next(r) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double carc_rng_double(carc_rng *r)
{
    uint64_t hi = carc_rng_next(r) >> 5, lo = carc_rng_next(r) >> 6;
    return (double)(hi * 67108864.0 + lo) / 9007199254740992.0;
}
