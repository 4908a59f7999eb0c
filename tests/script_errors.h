/* script_errors.h - a script's refusal seen as a player meets it (include
 * after cmocka.h): the game of the base tiles and one script stops, and its
 * error says what was wrong.
 *
 *   expect_script_failure("bad", "carc.on('turn-start', function(ev) carc.veto(0) end)", "veto: only");
 */
#ifndef CARC_TEST_SCRIPT_ERRORS_H
#define CARC_TEST_SCRIPT_ERRORS_H

#include "play.h"
#include "temp_files.h"

/* Plays the base game with the script of that text (written as NAME.lua)
 * on every first option: it must fail with an error holding `needle`. */
static inline void expect_script_failure(const char *name, const char *script_text, const char *needle)
{
    char script[1024], file[256], variant[2048], path[1024], err[4096];
    snprintf(file, sizeof file, "%s.lua", name);
    test_tmp_write(script, sizeof script, file, script_text);
    snprintf(variant, sizeof variant, "[variant]\nname = %s\n[tiles]\nsets = base\n[plugins]\nscripts = %s\n", name, script);
    snprintf(file, sizeof file, "%s.ini", name);
    test_tmp_write(path, sizeof path, file, variant);
    carc_rules *r = carc_variant_load(path, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(play_on(g, &(play_spec){.seed = 1, .pick = play_pick_first, .may_fail = true}), CARC_FAILED);
    if (!strstr(carc_game_error(g), needle))
        fail_msg("%s: error '%s' does not say '%s'", script_text, carc_game_error(g), needle);
    carc_game_free(g);
    carc_rules_free(r);
}

#endif
