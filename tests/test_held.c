/* test_held.c - figures held by a player (plugin API version 6: CARC_AT_HELD,
 * figure_capture, figure_free, held_figures, the events figure-captured and
 * figure-freed), through the Lua host, in real games:
 * - tests/scripts/held-figures.lua captures and frees followers every few
 *   turns and checks, each time, what the kernel says (the figure's place
 *   and holder, the feature's followers, the supply, held_figures, the
 *   tile's figures, the events); the kernel's self-check agrees at the
 *   end; each game's record replays to the same final state, held figures
 *   and all; clones go on like their originals;
 * - the calls refuse what they cannot do, with the script's error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "game_checks.h"
#include "helpers.h"
#include "play.h"
#include "script_errors.h"
#include "temp_files.h"

static char variant_path[1024];

static carc_rules *load(const char *variant_text)
{
    char err[4096];
    test_tmp_write(variant_path, sizeof variant_path, "held.ini", variant_text);
    carc_rules *r = carc_variant_load(variant_path, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

static void test_capture_and_free_in_games(void **state)
{
    (void)state;
    char v[2048];
    snprintf(v, sizeof v, "[variant]\nname = held\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/held-figures.lua\n",
             carc_data_dir());
    carc_rules *r = load(v);
    int held_at_end = 0;
    for (int seed = 1; seed <= 12; seed++) {
        /* With .variant the record is written and replayed to the same final state. */
        carc_game *g = play_game(r, &(play_spec){.players = 2 + seed % 3, .seed = (uint64_t)seed, .variant = variant_path});
        assert_true(carc_is_finished(g));
        char err[512];
        if (carc_game_check(g, err, sizeof err) < 0) fail_msg("%s", err);
        for (int f = 0; f < carc_figures(g); f++) {
            int kind, owner, where, tile, seg, space;
            if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) == 0 && where == CARC_AT_HELD) held_at_end++;
        }
        carc_game_free(g);
    }
    assert_true(held_at_end > 0); /* the games ended with prisoners, and their records replayed */
    for (int seed = 1; seed <= 6; seed++) check_clone_continues(r, 2 + seed % 3, (uint64_t)seed, 10 + 5 * seed);
    carc_rules_free(r);
}

/* The game of a script whose turn-start handler is `line` fails with an
 * error that says `needle`. */
static void expect_script_error(const char *line, const char *needle)
{
    char handler[1024];
    snprintf(handler, sizeof handler,
             "carc.on('turn-start', function(ev)\n  if carc.turn() < 4 then return end\n  %s\nend)\n", line);
    expect_script_failure("held-bad", handler, needle);
}

/* A follower of seat 0 on the board by turn 4 (play_pick_first deploys). */
#define FIRST_FOLLOWER "local f = nil; for id in carc.each_figure(0, 'segment') do f = id break end; "

static void test_refusals(void **state)
{
    (void)state;
    expect_script_error("carc.figure_capture(999, 0)", "figure_capture: no such figure");
    expect_script_error(FIRST_FOLLOWER "carc.figure_capture(f, 7)", "figure_capture: the holder is not a player");
    expect_script_error(FIRST_FOLLOWER "carc.figure_capture(f, 1); carc.figure_capture(f, 1)", "figure_capture: the figure is held already");
    expect_script_error(FIRST_FOLLOWER "carc.figure_free(f)", "figure_free: not a held figure");
    expect_script_error(FIRST_FOLLOWER "carc.figure_capture(f, 1); carc.figure_remove(f)", "figure_remove: the figure is held");
    expect_script_error(FIRST_FOLLOWER "carc.figure_capture(f, 1); carc.figure_move(f, 'tile', 0)", "figure_move: the figure is held");
    expect_script_error(FIRST_FOLLOWER "carc.figure_capture(f, 1); carc.figure_free(f, 'away')", "how is 'supply' or 'box'");
    expect_script_error("carc.figure_place(0, 0, 'held', -1, -1, 1, true)", "figure_place: bad figure, owner or place");
    expect_script_error("carc.held_figures(0, 9)", "held_figures: bad holder, owner or kind");
    expect_script_error("local n = carc.figure_place(0, -1, 'tile', 0); carc.figure_capture(n, 0)", "a neutral figure cannot be held");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_and_free_in_games),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
