/* test_script_queries.c - the Lua queries that build nothing
 * (carc.figure_fields, carc.each_figure, carc.each_figure_on, carc.offer with
 * arguments, carc.offer_walks, carc.offer_figures, carc.award_figures_on) agree with their table forms on every turn of real games, and
 * the event tables carc lends a script and refills keep a nested call's
 * table apart and carry nothing a handler wrote into the next event
 * (tests/scripts/fast-queries.lua checks each of these and stops the game on
 * a mismatch). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "helpers.h"
#include "play.h"
#include "script_errors.h"
#include "temp_files.h"
#include "rng.h"

/* Loads the variant of that text with n option overrides ("key=value"). */
static carc_rules *load_with(const char *variant_text, const char *const *overrides, int n)
{
    char path[1024], err[4096];
    test_tmp_write(path, sizeof path, "fast-queries.ini", variant_text);
    carc_rules *r = carc_variant_load(path, overrides, n, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

static carc_rules *load(const char *variant_text) { return load_with(variant_text, NULL, 0); }

/* Plays random games to the end; each must finish (a mismatch fails it). */
static void play_games(carc_rules *r, int games)
{
    for (int seed = 1; seed <= games; seed++) {
        carc_rng rng;
        carc_rng_seed(&rng, (uint64_t)seed, 3);
        carc_game *g = play_game(r, &(play_spec){.players = 2 + seed % 3, .seed = (uint64_t)seed,
                                                 .pick = play_pick_uniform, .pick_state = &rng});
        assert_true(carc_is_finished(g));
        carc_game_free(g);
    }
}

/* With the base game's followers only. */
static void test_queries_in_base_games(void **state)
{
    (void)state;
    char v[2048];
    snprintf(v, sizeof v, "[variant]\nname = fast-queries\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/fast-queries.lua\n",
             carc_data_dir());
    carc_rules *r = load(v);
    play_games(r, 12);
    carc_rules_free(r);
}

/* With neutral figures on tiles and segments too (the fairy, the dragon,
 * the Ark): the owner and place filters meet -1 owners and tile figures. */
static void test_queries_with_neutral_figures(void **state)
{
    (void)state;
    char v[2048];
    snprintf(v, sizeof v, "[variant]\ninclude = %s/variants/all-expansions.ini\nname = fast-queries-all\n[plugins]\nscripts = %s/tests/scripts/fast-queries.lua\n",
             carc_data_dir(), carc_data_dir());
    carc_rules *r = load(v);
    play_games(r, 6);
    carc_rules_free(r);
}

/* The game of a script whose handler is `handler_line` for `event` fails
 * with an error that says `needle`. */
static void expect_script_error(const char *event, const char *handler_line, const char *needle)
{
    char handler[1024];
    snprintf(handler, sizeof handler, "carc.on('%s', function(ev)\n  %s\nend)\n", event, handler_line);
    expect_script_failure("fast-bad", handler, needle);
}

/* A wrong argument is the script's error, not carc's crash. */
static void test_iterator_arguments_checked(void **state)
{
    (void)state;
    expect_script_error("turn-start", "for id in carc.each_figure(nil, 'nowhere') do end", "where is");
}

/* carc.offer_walks refuses what it cannot walk: outside action-offer, no
 * placed start tile, 0 or more than 8 steps, an option code out of range
 * (even under pcall: a refusal stops the game). */
static void test_offer_walks_arguments_checked(void **state)
{
    (void)state;
    expect_script_error("turn-start", "pcall(carc.offer_walks, 0, 1, 7)", "offer_walks: only while the action decision is built");
    expect_script_error("action-offer", "carc.offer_walks(carc.tiles(), 1, 7)", "offer_walks: no such placed tile");
    expect_script_error("action-offer", "carc.offer_walks(0, 0, 7)", "offer_walks: max_steps is 1 to 8");
    expect_script_error("action-offer", "carc.offer_walks(0, 9, 7)", "offer_walks: max_steps is 1 to 8");
    expect_script_error("action-offer", "carc.offer_walks(0, 2, 70000)", "option code out of range");
    expect_script_error("action-offer", "carc.offer_walks(0, 2, 7, 0, 99)", "offer_walks: bad option (tile or segment)");
}

/* carc.offer_figures refuses outside action-offer, an owner that is not a
 * player or -1, a place that holds no figures, a mask or code out of range. */
static void test_offer_figures_arguments_checked(void **state)
{
    (void)state;
    expect_script_error("turn-start", "pcall(carc.offer_figures, 0, carc.AT_SEGMENT, 0, 7)", "offer_figures: only while the action decision is built");
    expect_script_error("action-offer", "carc.offer_figures(5, carc.AT_SEGMENT, 0, 7)", "offer_figures: owner is a player or -1");
    expect_script_error("action-offer", "carc.offer_figures(-2, carc.AT_SEGMENT, 0, 7)", "owner is a player or -1");
    expect_script_error("action-offer", "carc.offer_figures(0, 'nowhere', 0, 7)", "where is");
    expect_script_error("action-offer", "carc.offer_figures(0, carc.AT_SEGMENT, -1, 7)", "kinds is a bit mask");
    expect_script_error("action-offer", "carc.offer_figures(0, carc.AT_SEGMENT, 0, 70000)", "option code out of range");
}

/* carc.award_figures_on refuses a tile that is not placed, a place other
 * than a segment or the tile, a mask out of range, an unknown reason. */
static void test_award_figures_on_arguments_checked(void **state)
{
    (void)state;
    expect_script_error("turn-start", "carc.award_figures_on(carc.tiles(), carc.AT_SEGMENT, 0, 1, 0)", "award_figures_on: no such placed tile");
    expect_script_error("turn-start", "carc.award_figures_on(-1, carc.AT_SEGMENT, 0, 1, 0)", "award_figures_on: no such placed tile");
    expect_script_error("turn-start", "carc.award_figures_on(0, carc.AT_TRACK, 0, 1, 0)", "where is CARC_AT_SEGMENT or CARC_AT_TILE");
    expect_script_error("turn-start", "carc.award_figures_on(0, carc.AT_SEGMENT, -1, 1, 0)", "kinds is a bit mask");
    expect_script_error("turn-start", "carc.award_figures_on(0, carc.AT_SEGMENT, 0, 1, 999)", "award_figures_on: no such reason");
}

/* carc.option in a game answers each key with its own value, also when
 * more keys are read than it keeps answers for (tests/scripts/option-memo.lua
 * fails the game on a wrong one). */
static void test_option_answers_kept_by_key(void **state)
{
    (void)state;
    char v[2048];
    snprintf(v, sizeof v, "[variant]\nname = option-memo\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/option-memo.lua\n",
             carc_data_dir());
    const char *set[] = {"option-memo.o3=77"};
    carc_rules *r = load_with(v, set, 1);
    play_games(r, 3);
    carc_rules_free(r);
}

/* carc.option finds a script's own option by its short name in the rules
 * of the game: two rules objects with the option set differently each read
 * their own, every turn. */
static void test_option_values_kept_per_rules(void **state)
{
    (void)state;
    char v[2048];
    snprintf(v, sizeof v, "[variant]\nname = opt\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/option-each-turn.lua\n",
             carc_data_dir());
    carc_rules *a = load(v);
    const char *five[] = {"option-each-turn.points=5"};
    carc_rules *b = load_with(v, five, 1);
    char buf[32];
    assert_string_equal(carc_rules_option(a, "option-each-turn.points", buf, sizeof buf), "2");
    assert_string_equal(carc_rules_option(b, "option-each-turn.points", buf, sizeof buf), "5");
    play_games(a, 2);
    play_games(b, 2);
    play_games(a, 2);
    carc_rules_free(a);
    carc_rules_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries_in_base_games),
        cmocka_unit_test(test_queries_with_neutral_figures),
        cmocka_unit_test(test_iterator_arguments_checked),
        cmocka_unit_test(test_offer_walks_arguments_checked),
        cmocka_unit_test(test_offer_figures_arguments_checked),
        cmocka_unit_test(test_award_figures_on_arguments_checked),
        cmocka_unit_test(test_option_answers_kept_by_key),
        cmocka_unit_test(test_option_values_kept_per_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
