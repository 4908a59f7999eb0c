/*
 * fuzz_lua.c - libFuzzer target: a Lua script loaded into the base rules
 * (sandbox, limits, the carc API) and a short random game with it, whose
 * record must save, load and replay to the same state.
 */
#include "fuzz_common.h"

int fuzz_lua(const uint8_t *data, size_t size);

static int lua_input(const uint8_t *data, size_t size)
{
    fuzz_play_script(data, size, fuzz_hash(data, size));
    return 0;
}

int fuzz_lua(const uint8_t *data, size_t size) { return fuzz_bounded("lua", lua_input, data, size); }

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_lua(data, size); }
#endif
