/* tileset.h - tile-set files read into the rules (docs/tile-sets.md). */
#ifndef CARC_TILESET_H
#define CARC_TILESET_H
#include <stddef.h>

struct carc_rules;

/* Adds the tile set at path to r (its kinds, marks and tile types); 0, or
 * -1 with why in err naming the file and line. */
int tileset_load(struct carc_rules *r, const char *path, char *err, size_t errn);
#endif
