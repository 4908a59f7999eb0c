/* test_expansions_together.c - The River, Abbey & Mayor and The Tower in
 * one game: base+river+abbey-mayor+tower+inns-cathedrals.
 *
 * Each expansion's placement rules are vetoes (place-filter handlers), so
 * a game that combines them must keep all of them at once: after every
 * move of seeded random games and of greedy games the board is checked
 * against the river's rules (river_checks.h: spring first, RIVER-1 river
 * tiles before any other, RIVER-2 continuity, RIVER-3 no U-turn), the
 * abbey's and barn's (abbey_mayor_checks.h: AM-2 abbeys only in holes with
 * four neighbours, barns only where four fields meet), the tower's
 * (tower_checks.h: TOWER-1 floors conserved, floors on foundations, capture
 * reach, no own prisoner) and the kernel's (expansion_games.h). Each random
 * game's record is read back and must replay to the same final state
 * (play_game), so what was checked is what the record holds.
 *
 * CARC_TOGETHER_GAMES sets the random games (default 12),
 * CARC_GREEDY_GAMES the greedy games (default 1); `make test-expansions`
 * plays 1000 random and 100 greedy games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "expansion_games.h"
#include "helpers.h"
#include "river_checks.h"
#include "abbey_mayor_checks.h"
#include "tower_checks.h"

static const char *const TOGETHER = "base+river+abbey-mayor+tower+inns-cathedrals";

/* What the games did, so a run that never laid a river, an abbey or a
 * floor cannot pass for a check. */
typedef struct together_watch {
    tower_watch *tower;
    int whole_rivers, abbeys, games;
} together_watch;

static void check_all(const carc_game *g, together_watch *w, const char *what, bool final)
{
    int rivers = check_river_board(g, what);
    int abbeys = check_abbey_mayor_board(g, what);
    check_tower_move(g, w->tower, what);
    if (final) {
        w->whole_rivers += rivers == 12;
        w->abbeys += abbeys;
        w->games++;
    }
}

static void check_move(const carc_game *g, void *user, bool final)
{
    check_all(g, user, TOGETHER, final);
}

static void report(const together_watch *w, const char *players)
{
    printf("  %s, %s: %d games, %d laid the whole river, %d abbeys, %d floors, %d captures, %d ransoms\n", TOGETHER,
           players, w->games, w->whole_rivers, w->abbeys, w->tower->floors_placed, w->tower->captures,
           w->tower->ransoms);
    if (w->whole_rivers == 0 || w->abbeys == 0 || w->tower->floors_placed == 0)
        fail_msg("%s: the games laid no whole river, no abbey or no floor: the checks checked nothing", TOGETHER);
}

static void test_random_games(void **state)
{
    (void)state;
    carc_rules *r = expansion_load(TOGETHER);
    int games = expansion_count("CARC_TOGETHER_GAMES", 12);
    int lo = carc_rules_min_players(r), hi = carc_rules_max_players(r);
    together_watch w = {.tower = calloc(1, sizeof *w.tower)};
    for (int i = 0; i < games; i++) {
        /* A fresh tower watch a game (it follows one game's figures), the
         * counts kept across games. */
        tower_watch *one = calloc(1, sizeof *one);
        together_watch game = {.tower = one};
        play_checked_game(r, lo + i % (hi - lo + 1), (uint64_t)i + 1, NULL, 0, check_move, &game);
        w.whole_rivers += game.whole_rivers, w.abbeys += game.abbeys, w.games += game.games;
        w.tower->floors_placed += one->floors_placed, w.tower->captures += one->captures;
        w.tower->ransoms += one->ransoms;
        free(one);
    }
    report(&w, "random");
    free(w.tower);
    carc_rules_free(r);
}

static void test_greedy_games(void **state)
{
    (void)state;
    carc_rules *r = expansion_load(TOGETHER);
    int games = expansion_count("CARC_GREEDY_GAMES", 1);
    char err[1024];
    together_watch w = {.tower = calloc(1, sizeof *w.tower)};
    for (int seed = 1; seed <= games; seed++) {
        int players = 2 + seed % 3;
        carc_game *g = carc_game_new(r, players, NULL, (uint64_t)seed, err, sizeof err);
        if (!g) fail_msg("%s", err);
        agent *ag[CARC_MAX_PLAYERS];
        for (int p = 0; p < players; p++)
            if (!(ag[p] = agent_create("greedy", (uint64_t)seed, p, err, sizeof err))) fail_msg("%s", err);
        tower_watch *one = calloc(1, sizeof *one);
        together_watch game = {.tower = one};
        check_all(g, &game, TOGETHER, false);
        for (int st; (st = carc_advance(g)) != CARC_FINISHED;) {
            if (st == CARC_FAILED) fail_msg("%s: %s", TOGETHER, carc_game_error(g));
            if (st == CARC_NEED_DRAW) carc_draw(g, -1);
            else assert_int_equal(carc_choose(g, ag[carc_decision_player(g)]->choose(ag[carc_decision_player(g)], g)), 0);
            check_all(g, &game, TOGETHER, false);
        }
        check_all(g, &game, TOGETHER, true);
        w.whole_rivers += game.whole_rivers, w.abbeys += game.abbeys, w.games += game.games;
        w.tower->floors_placed += one->floors_placed, w.tower->captures += one->captures;
        w.tower->ransoms += one->ransoms;
        free(one);
        for (int p = 0; p < players; p++) agent_free(ag[p]);
        carc_game_free(g);
    }
    report(&w, "greedy");
    free(w.tower);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_greedy_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
