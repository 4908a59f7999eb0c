/* serve_state.h - what the page of carc serve is shown: a game's state as
 * one JSON object (docs/serve.md lists its fields): the board as SVG with
 * every pending option's place on it in the board's pixels, the drawn tile
 * in its four turns, the seats and scores, the log and the breakdown of the
 * points by player and reason. */
#ifndef CARC_SERVE_STATE_H
#define CARC_SERVE_STATE_H
#include <jansson.h>

#include "serve_session.h"

/* A new reference (the caller decrefs it), or NULL when out of memory (every
 * text in it is made valid UTF-8, json_io.h). The caller holds the
 * session's lock. */
json_t *serve_state_json(const serve_session *s);
/* {"pile_left", "types": [{"type": "SET:ID", "left", "of", "svg"}]}: how
 * many tiles of each type are still to come (carc_tiles_left_of_type; the
 * counts only, never their order), each type's picture in tile units, for
 * the page's "tiles left" panel. The caller holds the session's lock. */
json_t *serve_tiles_left_json(const serve_session *s);
/* The variant's options, players and title for the new-game form; NULL with
 * err and *status (400 when the loader refuses it, 500 out of memory). */
json_t *serve_variant_json(const char *name, char *err, size_t errn, int *status);
/* {"agents": [{"name", "help", "settings"?}]}: the kinds of seat
 * (agent_kinds), for the page's menu; NULL when out of memory. */
json_t *serve_agents_json(void);
#endif
