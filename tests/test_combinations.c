/* test_combinations.c - every pair and every triple of the shipped modules
 * (every variants/NAME.ini and variants/SUB/NAME.ini: a new expansion's variant
 * file joins by being there) composed as "a+b" and "a+b+c", each playing
 * seeded random games with the property-test invariants after every move:
 * followers conserved (BASE-2, BASE-19), no feature scored twice, scores
 * never decrease; and every game's record, loaded afresh from the variant
 * it names, replays to the same final state. A combination the rules cannot
 * allow is refused with one of the documented errors (docs/variants.md,
 * "Combining expansions"), never a crash.
 *
 * CARC_COMBO_GAMES games per combination (default 2; `make
 * test-combinations` plays 200, in two shards at once: about 6.5 minutes of
 * one core in all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "helpers.h"

static int games_per_combination(void)
{
    const char *s = getenv("CARC_COMBO_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 2;
}

/* The refusals docs/variants.md documents for modules that cannot be combined. */
static bool documented_refusal(const char *err)
{
    return strstr(err, "is brought twice") || strstr(err, "cannot be combined") || strstr(err, "disagree on");
}

/* Plays one game of the composition with the invariants checked after
 * every move; its record replays from the variant line. */
static void play_checked(const carc_rules *rules, const char *variant, int players, uint64_t seed,
                         move_invariants *checks)
{
    char err[8192], buf[32];
    *checks = (move_invariants){.per_player = atoi(carc_rules_option(rules, "followers-per-player", buf, sizeof buf))};
    carc_record_writer w;
    carc_game *g = play_game(rules, &(play_spec){.players = players, .seed = seed, .variant = variant, .record = &w,
                                                 .moved = check_invariants_moved, .user = checks});
    assert_true(carc_is_finished(g));
    /* The record names the composition; fresh rules from it replay the game. */
    carc_record rec;
    if (carc_record_parse("combination", w.buf, w.len, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_rules *again = carc_record_rules(&rec, err, sizeof err);
    if (!again) fail_msg("%s", err);
    carc_game *h = NULL;
    if (carc_replay(&rec, again, &h, err, sizeof err) < 0) fail_msg("%s", err);
    same_final_state(g, h);
    carc_game_free(h);
    carc_rules_free(again);
    carc_record_free(&rec);
    carc_writer_free(&w);
    carc_game_free(g);
}

/* CARC_COMBO_SHARD=K/N: only the combinations numbered K-1 mod N (make
 * test-combinations runs the shards on both cores). */
static int shard_k = 1, shard_n = 1, numbered;

static void read_shard(void)
{
    const char *s = getenv("CARC_COMBO_SHARD");
    if (s && sscanf(s, "%d/%d", &shard_k, &shard_n) == 2 && shard_n >= 1 && shard_k >= 1 && shard_k <= shard_n) return;
    shard_k = shard_n = 1;
}

static int refused, played;

static void combination(const char *const *mods, int k, int games, move_invariants *checks)
{
    char name[512] = "", err[8192];
    if (numbered++ % shard_n != shard_k - 1) return;
    for (int i = 0; i < k; i++) {
        size_t u = strlen(name);
        snprintf(name + u, sizeof name - u, "%s%s", i ? "+" : "", mods[i]);
    }
    carc_rules *rules = carc_variant_load(name, NULL, 0, err, sizeof err);
    if (!rules) {
        if (!documented_refusal(err)) fail_msg("%s: refused without a documented reason: %s", name, err);
        printf("  refused, as documented: %s\n", name);
        refused++;
        return;
    }
    int lo = carc_rules_min_players(rules), hi = carc_rules_max_players(rules);
    for (int g = 0; g < games; g++) {
        uint64_t seed = 1000003u * (uint64_t)(g + 1) + strlen(name) * 7919u + (uint64_t)k;
        play_checked(rules, name, lo + g % (hi - lo + 1), seed, checks);
    }
    played++;
    carc_rules_free(rules);
}

static void test_every_pair_and_triple_of_modules(void **state)
{
    (void)state;
    char **names;
    int n = carc_variant_names(&names);
    assert_true(n >= 6); /* base, ark, robbers, princess-dragon, fairy, prophet, ... */
    int games = games_per_combination();
    read_shard();
    move_invariants *checks = malloc(sizeof *checks);
    const char *mods[3];
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            mods[0] = names[a];
            mods[1] = names[b];
            combination(mods, 2, games, checks);
            for (int c = b + 1; c < n; c++) {
                mods[2] = names[c];
                combination(mods, 3, games, checks);
            }
        }
    printf("  %d modules: %d combinations (shard %d/%d) played %d games each, %d refused\n", n, played, shard_k,
           shard_n, games, refused);
    assert_true(played > 0);
    free(checks);
    carc_variant_names_free(names, n);
}

/* The one real clash among the shipped modules: the road-closing bonus as a
 * C plugin and as a Lua script are two plugins of one name, with one option
 * name for two implementations. The refusal names both modules. */
static void test_combination_refusal_names_both_modules(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *r = carc_variant_load("house/road-closer+house/road-closer-lua", NULL, 0, err, sizeof err);
    assert_null(r);
    assert_non_null(strstr(err, "'road-closer' is brought twice"));
    assert_non_null(strstr(err, "module house/road-closer,"));
    assert_non_null(strstr(err, "module house/road-closer-lua"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_combination_refusal_names_both_modules),
        cmocka_unit_test(test_every_pair_and_triple_of_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
