/* args.c - argument helpers shared by the commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carc.h"
#include "commands.h"

bool arg_u64(const char *cmd, const char *flag, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = s ? strtoull(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || *s == '-') {
        fprintf(stderr, "carc %s: %s expects a whole number, not '%s'\n", cmd, flag, s ? s : "");
        return false;
    }
    *out = v;
    return true;
}

bool arg_int(const char *cmd, const char *flag, const char *s, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < min || v > max) {
        fprintf(stderr, "carc %s: %s expects a whole number from %d to %d, not '%s'\n", cmd, flag, min, max,
                s ? s : "");
        return false;
    }
    *out = (int)v;
    return true;
}

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

/* Which commands take each flag: an unknown flag's error says where it
 * belongs (docs: README, "Exit codes and messages"). */
static const struct {
    const char *flag, *takers;
} flag_table[] = {
    {"--variant", "play, sim, tournament"},
    {"--players", "play, sim, tournament, compare"},
    {"--seed", "play, sim, tournament, compare"},
    {"--option", "play, sim, tournament, compare"},
    {"--games", "sim, tournament, compare"},
    {"--jobs", "sim, tournament, compare"},
    {"--records", "sim, tournament, compare"},
    {"--shard", "sim, tournament, compare"},
    {"--out", "sim, tournament, compare"},
    {"--games-jsonl", "sim, tournament, compare"},
    {"--json", "sim, tournament, compare, stats merge, replay"},
    {"--csv", "sim, tournament, compare, stats merge"},
    {"--option-a", "compare"},
    {"--option-b", "compare"},
    {"--seed-b", "compare"},
    {"--blocks", "compare, stats merge"},
    {"--min-effect", "compare, stats merge"},
    {"--until-width", "compare"},
    {"--max-games", "compare"},
    {"--names", "play"},
    {"--save", "play"},
    {"--resume", "play"},
    {"--turn", "render"},
    {"--svg", "render"},
    {"--html", "render"},
    {"--tiles", "render"},
    {"--allow-plugin-paths", "play, sim, tournament, compare, replay, render, variant show"},
};

int arg_unknown(const char *cmd, const char *arg)
{
    size_t n = sizeof flag_table / sizeof flag_table[0];
    for (size_t i = 0; i < n; i++)
        if (strcmp(flag_table[i].flag, arg) == 0) {
            fprintf(stderr, "carc %s: %s is not an option of carc %s; it is taken by: %s (see carc %s --help)\n", cmd,
                    arg, cmd, flag_table[i].takers, cmd);
            return 2;
        }
    const char *flags[sizeof flag_table / sizeof flag_table[0]];
    for (size_t i = 0; i < n; i++) flags[i] = flag_table[i].flag;
    char hint[300];
    carc_suggest(arg, flags, (int)n, hint, sizeof hint);
    fprintf(stderr, "carc %s: unknown argument '%s'%s%s%s (see carc %s --help)\n", cmd, arg,
            hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "", cmd);
    return 2;
}

int arg_common(const char *a, void (*usage)(FILE *f))
{
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        usage(stdout);
        return 2;
    }
    if (strcmp(a, "--allow-plugin-paths") == 0) {
        carc_allow_plugin_paths(1);
        return 1;
    }
    return 0;
}
