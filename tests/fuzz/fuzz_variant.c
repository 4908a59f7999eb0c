/*
 * fuzz_variant.c - libFuzzer target: the variant parser (includes, tile sets,
 * count overrides, plugins by name, scripts, options), then for a variant
 * that loads, its description and a short random game whose record must
 * save, load and replay to the same state.
 */
#include "fuzz_common.h"

int fuzz_variant(const uint8_t *data, size_t size);

static int variant_input(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("variant.ini", data, size);
    char err[4096];
    carc_rules *r = carc_variant_load(path, NULL, 0, err, sizeof err);
    if (!r) return 0;
    carc_rules_describe(r, fuzz_null());
    fuzz_play(r, path, fuzz_hash(data, size), 40);
    carc_rules_free(r);
    return 0;
}

int fuzz_variant(const uint8_t *data, size_t size) { return fuzz_bounded("variant", variant_input, data, size); }

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_variant(data, size); }
#endif
