/* test_robbers.c - The Robbers (scripts/robbers.lua, variants/robbers.ini):
 * seeded random games with the kernel's invariants (followers conserved,
 * scores never decrease, the event log adds up to the scores, no feature
 * scored in two steps, the record replays to the same final state) and the
 * robbers' own, checked after every move:
 *   - a robber is always on the score track or in its owner's supply, never
 *     on a tile;
 *   - a robber on the track stands on a space holding another player's
 *     marker (score modulo 50), except while its owner chooses whom to rob;
 *   - award by award, a model of the rules follows the robbers: a robbable
 *     award that leaves a robber's space makes the robber steal in that
 *     step, exactly once, half of such an award rounded up (the `robber`
 *     award follows the award it robs), after which it is in the supply;
 *     robbers not stealing move along with markers moved by unrobbable
 *     points; the game's robbers stand where the model puts them;
 *   - the end bonus goes to exactly the players whose robber was on the
 *     track, and nothing is robbed in final scoring.
 * CARC_TEST_GAMES sets the number of games (default 1000), spread over the
 * three robbers.placement values and 2 to 6 players; a 25th of that many
 * games of the variant all-expansions get the same checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "helpers.h"

#define TRACK 50

static int games_to_play(void)
{
    const char *s = getenv("CARC_TEST_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 1000;
}

static const char *const PLACEMENT[3] = {"robbers.placement=next-without-robber", "robbers.placement=every-player",
                                         "robbers.placement=before-tile"};

static int kind_of(const carc_rules *r, const char *name)
{
    for (int k = 0; k < 16; k++) {
        const char *n = carc_figure_kind_name(r, k);
        if (n && strcmp(n, name) == 0) return k;
    }
    return -1;
}

/* Figures of one kind and owner on the board or track; *space gets the
 * track space of the last one found on the track (-1 if none). */
static int count_figures(const carc_game *g, int kind, int seat, int want_where, int *space)
{
    int n = 0;
    if (space) *space = -1;
    for (int f = 0; f < carc_figures(g); f++) {
        int k, owner, where, tile, seg, sp;
        if (carc_figure(g, f, &k, &owner, &where, &tile, &seg, &sp) < 0 || where == 0) continue;
        if (k != kind || owner != seat) continue;
        if (want_where && where != want_where) continue;
        n++;
        if (space && where == 3) *space = sp;
    }
    return n;
}

static int reason_id(const carc_rules *r, const char *name)
{
    for (int i = 0; i < 64; i++) {
        const char *n = carc_reason_name(r, i);
        if (strcmp(n, "?") == 0) return -1;
        if (strcmp(n, name) == 0) return i;
    }
    return -1;
}

/* What the checker remembers between two moves. It follows the robbers
 * award by award on its own (a model of the rules) and compares with the
 * game after every move. */
typedef struct tracker {
    int nplayers, follower, robber, r_robber, r_bonus, bonus;
    int prev_score[CARC_MAX_PLAYERS];
    int log_score[CARC_MAX_PLAYERS]; /* scores rebuilt from the event log */
    int sim[CARC_MAX_PLAYERS];       /* the model's robber spaces, -1 in the supply */
    int nlog, step;
    /* the current scoring step: the robbers that must steal (a robbable
     * award of another player left their space), the points they may take
     * (half of each such award, rounded up, by victim), the ones that stole */
    bool busy[CARC_MAX_PLAYERS], stole[CARC_MAX_PLAYERS];
    int half[CARC_MAX_PLAYERS][CARC_MAX_PLAYERS];
    scored_once scored;
    bool final_seen, awards_in_move;
    int at_end[CARC_MAX_PLAYERS], nbonus; /* robbers on the track when the game ended */
    int robbers_stolen, robbers_moved_along, rob_steps;
} tracker;

/* A scoring step is over: every robber a robbable award left behind stole,
 * and only those. */
static void end_step(tracker *t)
{
    for (int o = 0; o < t->nplayers; o++) {
        if (t->busy[o] != t->stole[o])
            fail_msg("step %d: seat %d's robber %s", t->step, o, t->busy[o] ? "should have stolen" : "stole nothing to rob");
        t->busy[o] = t->stole[o] = false;
        for (int v = 0; v < t->nplayers; v++) t->half[o][v] = 0;
    }
}

static void model_award(tracker *t, const carc_award *a)
{
    if (a->step != t->step) {
        end_step(t);
        t->step = a->step;
    }
    int v = a->player, before = t->log_score[v], after = before + a->points;
    t->log_score[v] = after;
    if ((a->flags & CARC_AWARD_FINAL) && !t->final_seen) {
        /* ROB-14: every robber leaves the track before final scoring */
        t->final_seen = true;
        memcpy(t->at_end, t->sim, sizeof t->at_end);
        for (int o = 0; o < t->nplayers; o++) t->sim[o] = -1;
    }
    if (a->reason == t->r_bonus) {
        assert_int_equal(a->points, t->bonus);
        assert_true((a->flags & CARC_AWARD_UNROBBABLE) && (a->flags & CARC_AWARD_FINAL));
        assert_true(t->at_end[v] >= 0); /* only for a robber on the track */
        t->nbonus++;
        return;
    }
    if (a->reason == t->r_robber) {
        /* half, rounded up, of an award that left the robber's space */
        assert_false(t->final_seen);
        assert_true(a->flags & CARC_AWARD_UNROBBABLE);
        assert_true(t->busy[v] && !t->stole[v]);
        bool match = false;
        for (int w = 0; w < t->nplayers; w++) match |= w != v && t->half[v][w] == a->points;
        if (!match) fail_msg("step %d: seat %d robs %d, half of no award that left its space", a->step, v, a->points);
        t->stole[v] = true;
        t->sim[v] = -1; /* back to the supply */
        t->robbers_stolen++;
    }
    if (a->points == 0) return;
    bool robbable = a->points > 0 && !(a->flags & CARC_AWARD_UNROBBABLE);
    for (int o = 0; o < t->nplayers; o++) {
        if (o == v || t->sim[o] < 0 || t->sim[o] != ((before % TRACK) + TRACK) % TRACK) continue;
        if (robbable) {
            /* ROB-6, ROB-7, ROB-10: the first award of each player that
             * leaves the robber's space in this step */
            if (!t->stole[o] && t->half[o][v] == 0) t->half[o][v] = (a->points + 1) / 2;
            t->busy[o] = true;
        } else if (!t->busy[o]) {
            t->sim[o] = ((after % TRACK) + TRACK) % TRACK; /* ROB-8, ROB-13 */
            t->robbers_moved_along++;
        }
    }
}

static void observe(const carc_game *g, tracker *t, bool final)
{
    int n = t->nplayers;
    for (; t->nlog < carc_awards(g); t->nlog++) {
        const carc_award *a = carc_award_at(g, t->nlog);
        assert_true(a->points >= 0);
        model_award(t, a);
        t->awards_in_move = true;
        check_scored_once(&t->scored, a);
    }
    bool choosing = carc_decision_player(g) >= 0 && strcmp(carc_decision_label(g), "rob") == 0;
    if (choosing) t->rob_steps++;
    if (final) {
        end_step(t);
        /* ROB-14: one bonus for each robber on the track at the end */
        int on = 0;
        for (int p = 0; p < n; p++) on += t->final_seen ? t->at_end[p] >= 0 : t->sim[p] >= 0;
        assert_int_equal(t->nbonus, on);
        for (int p = 0; p < n; p++) t->sim[p] = -1;
    }
    for (int p = 0; p < n; p++) {
        assert_int_equal(carc_score(g, p), t->log_score[p]);
        assert_true(carc_score(g, p) >= t->prev_score[p]);
        t->prev_score[p] = carc_score(g, p);
        assert_int_equal(carc_supply(g, p, "follower") + count_figures(g, t->follower, p, 0, NULL), 7);
        int space;
        int on_track = count_figures(g, t->robber, p, 3, &space);
        assert_int_equal(count_figures(g, t->robber, p, 0, NULL), on_track); /* never on a tile */
        assert_int_equal(carc_supply(g, p, "robber") + on_track, 1);
        if (on_track && !choosing) {
            assert_true(space >= 0 && space < TRACK);
            bool other = false;
            for (int q = 0; q < n; q++)
                if (q != p && carc_score(g, q) % TRACK == space) other = true;
            if (!other) fail_msg("seat %d's robber stands on %d, where no other marker is", p, space);
        }
        /* where awards moved robbers, the model agrees; placements (moves
         * without awards) are taken over as they are */
        int real = on_track ? space : -1;
        if (t->awards_in_move && real != t->sim[p])
            fail_msg("after step %d seat %d's robber is at %d, the rules put it at %d", t->step, p, real, t->sim[p]);
        t->sim[p] = real;
    }
    t->awards_in_move = false;
    if (final)
        for (int p = 0; p < n; p++) assert_int_equal(carc_supply(g, p, "robber"), 1);
}

typedef struct totals {
    int games, stolen, moved_along, rob_steps, bonuses;
} totals;

static void observe_moved(carc_game *g, bool final, void *t) { observe(g, t, final); }

/* Plays one seeded game between random bots with every check after every
 * move, then replays its record to the same final state. */
static void play_checked(const carc_rules *r, const char *variant, const char *const *overrides, int nover, int n,
                         uint64_t seed, tracker *t, totals *sum)
{
    memset(t, 0, sizeof *t);
    t->nplayers = n;
    t->follower = kind_of(r, "follower");
    t->robber = kind_of(r, "robber");
    t->r_robber = reason_id(r, "robber");
    t->r_bonus = reason_id(r, "robber-bonus");
    t->bonus = 3;
    t->step = -1;
    assert_true(t->follower >= 0 && t->robber >= 0 && t->r_robber >= 0 && t->r_bonus >= 0);
    for (int p = 0; p < n; p++) t->sim[p] = t->at_end[p] = -1;
    carc_game *g = play_game(r, &(play_spec){.players = n, .seed = seed, .variant = variant, .overrides = overrides,
                                             .noverrides = nover, .moved = observe_moved, .user = t});
    assert_true(carc_is_finished(g));
    sum->games++;
    sum->stolen += t->robbers_stolen;
    sum->moved_along += t->robbers_moved_along;
    sum->rob_steps += t->rob_steps;
    sum->bonuses += t->nbonus;
    carc_game_free(g);
}

static void test_random_games_invariants(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules[3];
    for (int m = 0; m < 3; m++) {
        rules[m] = carc_variant_load("robbers", &PLACEMENT[m], 1, err, sizeof err);
        if (!rules[m]) fail_msg("%s", err);
    }
    int games = games_to_play();
    totals sum = {0};
    tracker *t = malloc(sizeof *t);
    for (int i = 0; i < games; i++) {
        int mode = (i / 5) % 3;
        play_checked(rules[mode], "robbers", &PLACEMENT[mode], 1, 2 + i % 5, (uint64_t)i + 1, t, &sum);
    }
    /* the checks had something to check: thefts, robbers moving along, ROB-9
     * choices, end bonuses */
    assert_true(sum.stolen > games);
    if (games >= 300) assert_true(sum.moved_along > 0 && sum.rob_steps > 0 && sum.bonuses > 0);
    free(t);
    for (int m = 0; m < 3; m++) carc_rules_free(rules[m]);
}

/* The same checks with every expansion on base tiles (variant
 * all-expansions): the fairy's points, the Ark's, dragons and princesses. */
static void test_all_expansions_games(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *r = carc_variant_load("all-expansions", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int games = games_to_play() / 25;
    totals sum = {0};
    tracker *t = malloc(sizeof *t);
    for (int i = 0; i < games; i++) play_checked(r, "all-expansions", NULL, 0, 2 + i % 4, (uint64_t)i + 1, t, &sum);
    assert_true(sum.stolen > games);
    free(t);
    carc_rules_free(r);
}

/* ROB-1: 8 bag tiles shuffled into the pile, one robber per player. */
static void test_setup(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("robbers", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int bag = 0, all = 0;
    for (int t = 0; t < carc_tile_types(r); t++) {
        all += carc_tile_count(r, t);
        if (strcmp(carc_tile_set_of(r, t), "robbers") == 0) bag += carc_tile_count(r, t);
    }
    assert_int_equal(bag, 8);
    assert_int_equal(all, 72 + 8);
    carc_game *g = carc_game_new(r, 4, NULL, 3, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(carc_pile_left(g), 71 + 8);
    for (int p = 0; p < 4; p++) assert_int_equal(carc_supply(g, p, "robber"), 1);
    char buf[64];
    assert_string_equal(carc_rules_option(r, "robbers.placement", buf, sizeof buf), "next-without-robber");
    assert_string_equal(carc_rules_option(r, "robbers.end-bonus", buf, sizeof buf), "3");
    carc_game_free(g);
    carc_rules_free(r);
}

/* Bad option values are refused with a message naming the option. */
static void test_bad_options(void **state)
{
    (void)state;
    const char *bad[] = {"robbers.placement=sometimes", "robbers.end-bonus=-1", "robbers.end-bonus=many",
                         "robbers.no-such-key=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[1024] = "";
        carc_rules *r = carc_variant_load("robbers", &bad[i], 1, err, sizeof err);
        if (r) fail_msg("'%s' was accepted", bad[i]);
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        if (!strstr(err, key)) fail_msg("the error for '%s' does not name the option: %s", bad[i], err);
    }
}

/* A game cloned mid-way (as the greedy bot does) goes on exactly as the
 * original: the robbers' state is inside the game. */
static void test_clone_continues_identically(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("robbers", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    for (int seed = 1; seed <= 20; seed++) check_clone_continues(r, 3, (uint64_t)seed, 60 + seed);
    carc_rules_free(r);
}

/* Greedy bots (which search on clones) play the variant to the end. */
static void test_greedy_games(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("robbers", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    for (int seed = 1; seed <= 3; seed++)
        carc_game_free(play_game(r, &(play_spec){.players = 3, .seed = (uint64_t)seed, .agent = "greedy"}));
    carc_rules_free(r);
}

int main(void)
{
    /* Every game here checks itself after every move (kernel/check.c). */
    setenv("CARC_CHECK", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_random_games_invariants),
        cmocka_unit_test(test_all_expansions_games),
        cmocka_unit_test(test_clone_continues_identically),
        cmocka_unit_test(test_greedy_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
