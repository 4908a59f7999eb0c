/* rng.h - PCG32 (O'Neill, pcg-random.org): small, fast, with independent
 * streams. Every random draw in carc comes from one of these, seeded from the
 * game's seed and a per-purpose stream number. */
#ifndef CARC_RNG_H
#define CARC_RNG_H
#include <stdint.h>

typedef struct carc_rng { uint64_t state, inc; } carc_rng;

/* Well-known stream numbers derived from one game seed. */
enum { CARC_STREAM_PILE = 1, CARC_STREAM_AGENT = 16, CARC_STREAM_SCRIPT = 64 };

void carc_rng_seed(carc_rng *r, uint64_t seed, uint64_t stream);
uint32_t carc_rng_next(carc_rng *r);
/* Uniform in [0, bound) without modulo bias; bound > 0. */
uint32_t carc_rng_below(carc_rng *r, uint32_t bound);
/* Uniform double in [0, 1). */
double carc_rng_double(carc_rng *r);
#endif
