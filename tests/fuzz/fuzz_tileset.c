/*
 * fuzz_tileset.c - libFuzzer target: the tile-set parser and validator
 * (carc tiles check), then, for a set that validates and declares no kind
 * of its own, a short random game on it: a set that passes the check must
 * not break the engine.
 */
#include "core.h"
#include "fuzz_common.h"

int fuzz_tileset(const uint8_t *data, size_t size);

static int tileset_input(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("set.ini", data, size);
    char err[1024];
    carc_rules *r = carc_rules_from_tileset(path, err, sizeof err);
    if (!r) return 0;
    carc_tileset_summary(r, fuzz_null());
    /* Kinds a set declares belong to a plugin: checking accepts them, but
     * without their plugin it is no game carc plays. */
    if (r->nkinds <= CARC_KIND_CLOISTER + 1) fuzz_play(r, NULL, fuzz_hash(data, size), 60);
    carc_rules_free(r);
    return 0;
}

int fuzz_tileset(const uint8_t *data, size_t size) { return fuzz_bounded("tileset", tileset_input, data, size); }

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_tileset(data, size); }
#endif
