/* args.c - helpers the commands share: lists in one argument, seeds. */
#include <string.h>
#include <time.h>

#include "carc.h"
#include "commands.h"

int arg_split(char *s, char **parts, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max) return -1;
        parts[n++] = t;
    }
    return n;
}

uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec) % 1000000000u;
}

/* splitmix64 of the pair: independent seeds for game 0, 1, 2, ... */
uint64_t game_seed(uint64_t seed, uint64_t index)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (z ^ (z >> 31)) % 1000000000000ULL;
}
