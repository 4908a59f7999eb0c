/* fuzz_seeds.h - where each fuzz target's seeds are: the project's own files
 * of that kind, read in place so the seeds follow the files. The Makefile's
 * fuzz target passes the same folders to libFuzzer (FUZZ_SEEDS_* there). */
#ifndef CARC_FUZZ_SEEDS_H
#define CARC_FUZZ_SEEDS_H
#define FUZZ_SEEDS_TILESET ((const char *const[]){"tiles", "tests/tiles", "tests/bad/tiles", NULL})
#define FUZZ_SEEDS_VARIANT                                                                                     \
    ((const char *const[]){"variants", "variants/house", "tests/variants", "tests/good", "tests/bad/variants", \
                           "tests/fuzz/seeds/variant", NULL})
#define FUZZ_SEEDS_RECORD ((const char *const[]){"tests/scenarios", "tests/bad/records", NULL})
#define FUZZ_SEEDS_LUA                                                                                     \
    ((const char *const[]){"scripts", "scripts/examples", "tests/scripts", "tests/scripts/sandbox", NULL})
#define FUZZ_SEEDS_LUA_GRAMMAR ((const char *const[]){"tests/fuzz/seeds/lua_grammar", NULL})
#endif
