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

/* Games of TOGETHER by `bot` (NULL: random bots, as many players as the
 * rules allow in turn; else 2 to 4), every move checked. */
static void checked_games(const char *bot, int games, const char *players)
{
    carc_rules *r = expansion_load(TOGETHER);
    int lo = carc_rules_min_players(r), hi = carc_rules_max_players(r);
    together_watch w = {.tower = calloc(1, sizeof *w.tower)};
    for (int i = 0; i < games; i++) {
        /* A fresh tower watch a game (it follows one game's figures), the
         * counts kept across games. */
        tower_watch *one = calloc(1, sizeof *one);
        together_watch game = {.tower = one};
        int seats = bot ? 2 + (i + 1) % 3 : lo + i % (hi - lo + 1);
        play_checked(r, seats, (uint64_t)i + 1, &(checked_play){.agent = bot, .check = check_move, .user = &game});
        w.whole_rivers += game.whole_rivers, w.abbeys += game.abbeys, w.games += game.games;
        w.tower->floors_placed += one->floors_placed, w.tower->captures += one->captures;
        w.tower->ransoms += one->ransoms;
        free(one);
    }
    report(&w, players);
    free(w.tower);
    carc_rules_free(r);
}

static void test_random_games(void **state)
{
    (void)state;
    checked_games(NULL, expansion_count("CARC_TOGETHER_GAMES", 12), "random");
}

static void test_greedy_games(void **state)
{
    (void)state;
    checked_games("greedy", expansion_count("CARC_GREEDY_GAMES", 1), "greedy");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_greedy_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
