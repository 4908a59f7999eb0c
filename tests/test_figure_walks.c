/* test_figure_walks.c - walks the kernel applies (carc_api.offer_figure_walks,
 * carc.offer_figure_walks) and what bots make of them (carc_option_effect):
 *
 * - a walk carc applies does what the same walk applied by a script does
 *   (tests/scripts/walk-twin.lua both ways: the same games to the last
 *   award, with random and with greedy players, so greedy's weighing each
 *   effect once changes none of its choices);
 * - two walks with the same effect key leave the game alike, walks ending on
 *   different tiles have different keys, other options have none, and no
 *   option has one while a plugin handles option-chosen;
 * - a script cannot offer an option that passes for a kernel walk, and the
 *   call's arguments are checked;
 * - ARK-18/ARK-19 through the shipped Ark: its moves carc applies (no temple
 *   bonus) pay as the Lua moves with a bonus of 0 would (ark.temple-bonus
 *   moves the Ark through the script). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "helpers.h"
#include "play.h"
#include "script_errors.h"
#include "rng.h"
#include "temp_files.h"

static carc_rules *load_twin(bool native, bool watch, const char *steps)
{
    char v[2048], path[1024], err[4096];
    snprintf(v, sizeof v,
             "[variant]\nname = walk-twin\n[tiles]\nsets = base\n[plugins]\nscripts = %s/tests/scripts/walk-twin.lua\n%s%s%s",
             carc_data_dir(), watch ? "scripts = " : "", watch ? carc_data_dir() : "",
             watch ? "/tests/scripts/walk-watch.lua\n" : "");
    test_tmp_write(path, sizeof path, "walk-twin.ini", v);
    char native_set[64], steps_set[64];
    snprintf(native_set, sizeof native_set, "walk-twin.native=%s", native ? "yes" : "no");
    snprintf(steps_set, sizeof steps_set, "walk-twin.steps=%s", steps);
    const char *set[] = {native_set, steps_set};
    carc_rules *r = carc_variant_load(path, set, 2, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

/* Game `seed` of `players` played on rules a and on rules b, by the bot
 * (NULL: uniform picks from one stream each): the same game to the last
 * award. */
static void play_both(const carc_rules *a, const carc_rules *b, int seed, int players, const char *bot)
{
    carc_rng ra, rb;
    carc_rng_seed(&ra, (uint64_t)seed, 5);
    carc_rng_seed(&rb, (uint64_t)seed, 5);
    play_spec sa = {.players = players, .seed = (uint64_t)seed, .agent = bot};
    play_spec sb = sa;
    if (!bot) {
        sa.pick = sb.pick = play_pick_uniform;
        sa.pick_state = &ra;
        sb.pick_state = &rb;
    }
    carc_game *ga = play_game(a, &sa), *gb = play_game(b, &sb);
    assert_true(carc_is_finished(ga));
    same_final_state(ga, gb);
    carc_game_free(ga);
    carc_game_free(gb);
}

/* The same seeds played on both twins, each decision by the same pick. */
static void same_games(const char *bot, int games, const char *steps)
{
    carc_rules *native = load_twin(true, false, steps), *script = load_twin(false, false, steps);
    for (int seed = 1; seed <= games; seed++) {
        play_both(native, script, seed, 2 + seed % 2, bot);
    }
    carc_rules_free(native);
    carc_rules_free(script);
}

static void test_kernel_walks_play_as_script_walks(void **state)
{
    (void)state;
    same_games(NULL, 10, "3");
    same_games(NULL, 4, "5");
}

/* Greedy tries each effect once on the native twin and every walk on the
 * other: the same choices, so the same games. */
static void test_greedy_chooses_alike_with_effect_keys(void **state)
{
    (void)state;
    same_games("greedy", 2, "3");
}

/* What the key check found over a game. */
typedef struct key_check {
    int decisions_with_walks;
    int equal_pairs;        /* pairs of options with one key, tried */
    int keyed;              /* options with a key */
    bool expect_none;       /* a plugin handles option-chosen: no key at all */
} key_check;

static bool is_walk(const carc_game *g, int i)
{
    char text[64];
    carc_option_text(g, i, text, sizeof text);
    return strncmp(text, "walk ", 5) == 0;
}

/* Two copies made by carc_game_try from one game: the same scores,
 * supplies, awards of their own (a copy keeps no earlier awards) and
 * figures. */
static void same_tried_state(const carc_game *a, const carc_game *b)
{
    const carc_rules *r = carc_game_rules(a);
    for (int p = 0; p < carc_players(a); p++) {
        assert_int_equal(carc_score(a, p), carc_score(b, p));
        for (int k = 0; k < carc_figure_kinds(r); k++)
            assert_int_equal(carc_supply(a, p, carc_figure_kind_name(r, k)), carc_supply(b, p, carc_figure_kind_name(r, k)));
    }
    assert_int_equal(carc_awards(a), carc_awards(b));
    for (int i = 0; i < carc_awards(a); i++) {
        const carc_award *x = carc_award_at(a, i), *y = carc_award_at(b, i);
        assert_int_equal(x != NULL, y != NULL);
        if (x) assert_memory_equal(x, y, sizeof *x);
    }
    assert_int_equal(carc_figures(a), carc_figures(b));
    for (int f = 0; f < carc_figures(a); f++) {
        int fa[6], fb[6];
        carc_figure(a, f, &fa[0], &fa[1], &fa[2], &fa[3], &fa[4], &fa[5]);
        carc_figure(b, f, &fb[0], &fb[1], &fb[2], &fb[3], &fb[4], &fb[5]);
        assert_memory_equal(fa, fb, sizeof fa);
    }
}

/* At each decision: every walk has a key and every other option none (or,
 * expect_none, no option has one); each walk leaves the game as the next
 * two walks of its key do (tried on copies). */
static void check_keys(carc_game *g, int status, void *user)
{
    key_check *k = user;
    if (status != CARC_NEED_CHOICE) return;
    int n = carc_option_count(g);
    bool walks = false;
    for (int i = 0; i < n; i++) {
        uint64_t key = carc_option_effect(g, i);
        if (k->expect_none) {
            assert_true(key == 0);
            continue;
        }
        assert_int_equal(key != 0, is_walk(g, i));
        if (key) walks = true, k->keyed++;
    }
    if (!walks) return;
    k->decisions_with_walks++;
    carc_game *a = carc_game_clone(g), *b = carc_game_clone(g);
    assert_true(a && b);
    for (int i = 0; i < n; i++) {
        uint64_t ki = carc_option_effect(g, i);
        if (!ki) continue;
        assert_int_equal(carc_game_try(a, g, i), 0);
        for (int j = i + 1, tried = 0; j < n && tried < 2; j++) {
            if (carc_option_effect(g, j) != ki) continue;
            assert_int_equal(carc_game_try(b, g, j), 0);
            same_tried_state(a, b);
            tried++;
            k->equal_pairs++;
        }
    }
    carc_game_free(a);
    carc_game_free(b);
}

static void test_effect_keys_name_what_a_walk_does(void **state)
{
    (void)state;
    carc_rules *r = load_twin(true, false, "3");
    key_check k = {0};
    for (int seed = 1; seed <= 3; seed++) {
        carc_rng rng;
        carc_rng_seed(&rng, (uint64_t)seed, 9);
        carc_game *g = play_game(r, &(play_spec){.seed = (uint64_t)seed, .pick = play_pick_uniform, .pick_state = &rng,
                                                 .advanced = check_keys, .user = &k});
        carc_game_free(g);
    }
    assert_true(k.decisions_with_walks > 50);
    assert_true(k.equal_pairs > 50); /* walks over empty tiles to one tile are alike */
    carc_rules_free(r);
}

static void test_no_effect_keys_while_option_chosen_is_handled(void **state)
{
    (void)state;
    carc_rules *r = load_twin(true, true, "3");
    key_check k = {.expect_none = true};
    carc_rng rng;
    carc_rng_seed(&rng, 2, 9);
    carc_game *g = play_game(r, &(play_spec){.seed = 2, .pick = play_pick_uniform, .pick_state = &rng,
                                             .advanced = check_keys, .user = &k});
    assert_true(carc_is_finished(g));
    carc_game_free(g);
    carc_rules_free(r);
}

/* A script's own option cannot pass for a kernel walk: its segment
 * CARC_SEG_WALK is refused by carc.offer and carc.ask. The call's
 * arguments are checked. */
static void expect_script_error(const char *event, const char *line, const char *needle)
{
    char handler[1024];
    snprintf(handler, sizeof handler,
             "local W = carc.define_figure('w', 0, {})\ncarc.format(function(o) return 'x' end)\n"
             "carc.apply(function(o, p) end)\ncarc.on('%s', function(ev)\n  %s\nend)\n",
             event, line);
    expect_script_failure("walk-bad", handler, needle);
}

static void test_walk_options_cannot_be_forged_and_arguments_are_checked(void **state)
{
    (void)state;
    expect_script_error("action-offer", "carc.offer(7, -1, -4096)", "offer: bad option (tile or segment)");
    expect_script_error("turn-start", "carc.ask(ev.player, 'x', {{code = 7, tile = -1, seg = -4096}})",
                        "ask: an option names a bad tile or segment");
    expect_script_error("turn-start", "pcall(carc.offer_figure_walks, 0, 1, 7, 0, 1, 0)",
                        "offer_figure_walks: only while the action decision is built");
    /* figure 0 is nobody's on the first turn's action-offer: no figure stands */
    expect_script_error("action-offer", "carc.offer_figure_walks(0, 1, 7, 0, 1, 0)", "does not stand on a tile");
    expect_script_error("action-offer",
                        "local f = carc.figure_place(W, -1, carc.AT_TILE, 0, -1, 0, false)\n"
                        "  carc.offer_figure_walks(f, 9, 7, 0, 1, 0)",
                        "offer_figure_walks: max_steps is 1 to 8");
    expect_script_error("action-offer",
                        "local f = carc.figure_place(W, -1, carc.AT_TILE, 0, -1, 0, false)\n"
                        "  carc.offer_figure_walks(f, 2, 7, 0, 1, 999)",
                        "offer_figure_walks: no such reason");
    expect_script_error("action-offer",
                        "local f = carc.figure_place(W, -1, carc.AT_TILE, 0, -1, 0, false)\n"
                        "  carc.offer_figure_walks(f, 2, 70000, 0, 1, 0)",
                        "option code out of range");
}

/* ARK-18, ARK-19: the shipped Ark, whose moves carc applies when there is no
 * temple bonus, plays the games the script's own moves play with a bonus
 * that can never be paid (all-expansions has no temple: the script's move
 * path, the same points). Random and greedy players. */
static void test_ark_moves_by_carc_and_by_script_alike(void **state)
{
    (void)state;
    char err[4096];
    char path[1024];
    snprintf(path, sizeof path, "%s/variants/all-expansions.ini", carc_data_dir());
    carc_rules *by_carc = carc_variant_load(path, NULL, 0, err, sizeof err);
    if (!by_carc) fail_msg("%s", err);
    const char *bonus[] = {"ark.temple-bonus=3"};
    carc_rules *by_script = carc_variant_load(path, bonus, 1, err, sizeof err);
    if (!by_script) fail_msg("%s", err);
    for (int seed = 1; seed <= 5; seed++) {
        const char *bot = seed == 1 ? "greedy" : NULL;
        play_both(by_carc, by_script, seed, 2, bot);
    }
    carc_rules_free(by_carc);
    carc_rules_free(by_script);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_walks_play_as_script_walks),
        cmocka_unit_test(test_greedy_chooses_alike_with_effect_keys),
        cmocka_unit_test(test_effect_keys_name_what_a_walk_does),
        cmocka_unit_test(test_no_effect_keys_while_option_chosen_is_handled),
        cmocka_unit_test(test_walk_options_cannot_be_forged_and_arguments_are_checked),
        cmocka_unit_test(test_ark_moves_by_carc_and_by_script_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
