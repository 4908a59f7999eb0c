/* held_json.h - the figures a player holds (prisoners, CARC_AT_HELD) as
 * JSON, for `carc replay --json` and the page of `carc serve`. */
#ifndef CARC_HELD_JSON_H
#define CARC_HELD_JSON_H

#include <jansson.h>

#include "carc.h"

/* A new array of the figures seat `holder` holds, in figure id order: one
 * object each, {"owner": name, "seat": owner's seat, "kind": kind name}.
 * NULL only when out of memory. */
json_t *held_figures_json(const carc_game *g, int holder);

#endif
