/* helpers.h - shared by the cmocka tests: games from record text. */
#ifndef CARC_TEST_HELPERS_H
#define CARC_TEST_HELPERS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "record.h"

/* Replays "header --- lines" given as text; fails the test on error. The
 * caller frees the game and *rules. */
static inline carc_game *replay_text(const char *text, carc_rules **rules)
{
    char err[8192];
    carc_record rec;
    if (carc_record_parse("inline", text, strlen(text), &rec, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    *rules = carc_record_rules(&rec, err, sizeof err);
    if (!*rules) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    carc_game *g = NULL;
    if (carc_replay(&rec, *rules, &g, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    carc_record_free(&rec);
    return g;
}
#endif
