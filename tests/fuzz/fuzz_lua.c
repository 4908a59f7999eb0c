/*
 * fuzz_lua.c - libFuzzer target: a Lua script loaded into the base rules
 * (sandbox, limits, the carc API) and a short random game with it, whose
 * record must save, load and replay to the same state.
 */
#include "fuzz_common.h"

int fuzz_lua(const uint8_t *data, size_t size);

static int lua_input(const uint8_t *data, size_t size)
{
    fuzz_write("fuzz.lua", data, size);
    const char *variant = fuzz_write_text("lua-variant.ini", "[variant]\nname = fuzz-lua\n[tiles]\nsets = base\n"
                                                             "[plugins]\nscripts = fuzz.lua\n");
    char err[4096];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) return 0;
    fuzz_play(r, variant, fuzz_hash(data, size), 40);
    carc_rules_free(r);
    return 0;
}

int fuzz_lua(const uint8_t *data, size_t size) { return fuzz_bounded("lua", lua_input, data, size); }

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_lua(data, size); }
#endif
