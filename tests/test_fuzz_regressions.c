/*
 * test_fuzz_regressions.c - replays, through the fuzz targets' own code, every
 * input in tests/fuzz/regressions/TARGET/ (inputs that crashed, hung or
 * corrupted a saved game before their fix) and every seed of its corpus: the
 * project's own files of that kind (fuzz_seeds.h). Each must run to its end: no crash, no
 * sanitizer report (under make check-asan), no abort from a broken saved-game
 * check, and within 60 s (a hang fails the test).
 *
 * Run from the project root (make test does).
 */
#include <dirent.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#define FUZZ_NO_MAIN
#include "fuzz/fuzz_lua.c"
#include "fuzz/fuzz_lua_grammar.c"
#include "fuzz/fuzz_record.c"
#include "fuzz/fuzz_tileset.c"
#include "fuzz/fuzz_variant.c"
#include "fuzz/fuzz_seeds.h"

typedef int (*target_fn)(const uint8_t *, size_t);

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Runs target on each file of dir; returns how many. */
static int replay_dir(const char *dir, target_fn target)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char *names[4096];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 4096;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(names[i]);
            continue; /* subfolders are seed folders of their own */
        }
        FILE *f = fopen(path, "rb");
        if (!f) fail_msg("cannot read %s", path);
        static uint8_t buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fprintf(stderr, "  %s\n", path);
        alarm(60); /* a hang is a failure, not a stuck test run */
        target(buf, len);
        alarm(0);
        free(names[i]);
    }
    return n;
}

static void run(const char *target, const char *const *seeds, target_fn fn)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", target);
    replay_dir(dir, fn);
    int n = 0;
    for (const char *const *d = seeds; *d; d++) n += replay_dir(*d, fn);
    if (n == 0) fail_msg("no seed for %s (run from the project root)", target);
}

static void tileset(void **s) { (void)s; run("tileset", FUZZ_SEEDS_TILESET, fuzz_tileset); }
static void variant(void **s) { (void)s; run("variant", FUZZ_SEEDS_VARIANT, fuzz_variant); }
static void record(void **s) { (void)s; run("record", FUZZ_SEEDS_RECORD, fuzz_record); }
static void lua(void **s) { (void)s; run("lua", FUZZ_SEEDS_LUA, fuzz_lua); }
static void lua_grammar(void **s) { (void)s; run("lua_grammar", FUZZ_SEEDS_LUA_GRAMMAR, fuzz_lua_grammar); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tileset),
        cmocka_unit_test(variant),
        cmocka_unit_test(record),
        cmocka_unit_test(lua),
        cmocka_unit_test(lua_grammar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
