/* game_checks.h - assertions several tests share (include after cmocka.h):
 * a clone that goes on exactly as its original, a look-ahead copy that
 * does, the kernel's invariants move by move (two games in the same final
 * state and a record that replays to its game: play.h). */
#ifndef CARC_TEST_GAME_CHECKS_H
#define CARC_TEST_GAME_CHECKS_H

#include "agents.h"
#include "carc.h"
#include "play.h"
#include "record.h"
#include "rng.h"

#include <string.h>

/* Plays on with uniform random choices from rng until the game ends. */
static inline void play_uniform_to_end(carc_game *g, carc_rng *rng)
{
    play_on(g, &(play_spec){.pick = play_pick_uniform, .pick_state = rng});
}

/* Plays `moves` decisions and draws, clones the game, and plays both on
 * with the same choices: they must end the same. */
static inline void check_clone_continues(const carc_rules *r, int players, uint64_t seed, int moves)
{
    char err[512];
    carc_game *g = carc_game_new(r, players, NULL, seed, err, sizeof err);
    if (!g) fail_msg("%s", err);
    carc_rng ra;
    carc_rng_seed(&ra, seed, 1);
    play_on(g, &(play_spec){.seed = seed, .pick = play_pick_uniform, .pick_state = &ra, .max_moves = moves});
    carc_game *c = carc_game_clone(g);
    assert_non_null(c);
    carc_rng rb = ra;
    play_uniform_to_end(g, &ra);
    play_uniform_to_end(c, &rb);
    same_final_state(g, c);
    carc_game_free(g);
    carc_game_free(c);
}
/* What a look-ahead copy holds: the same state as a clone answering the
 * same option, played on with the same choices to the end (awards compared
 * from the copy's first, since it keeps no log before it). */
static inline void same_state_but_log(const carc_game *clone, const carc_game *copy)
{
    const carc_rules *r = carc_game_rules(clone);
    assert_int_equal(carc_is_finished(clone), carc_is_finished(copy));
    for (int p = 0; p < carc_players(clone); p++) {
        assert_int_equal(carc_score(clone, p), carc_score(copy, p));
        for (int k = 0; k < carc_figure_kinds(r); k++)
            assert_int_equal(carc_supply(clone, p, carc_figure_kind_name(r, k)),
                             carc_supply(copy, p, carc_figure_kind_name(r, k)));
    }
    assert_int_equal(carc_awards(clone), carc_awards(copy));
    int first = carc_awards(copy);
    while (first > 0 && carc_award_at(copy, first - 1)) first--;
    for (int i = 0; i < carc_awards(clone); i++) {
        if (i < first) assert_null(carc_award_at(copy, i));
        else assert_memory_equal(carc_award_at(clone, i), carc_award_at(copy, i), sizeof(carc_award));
    }
    assert_int_equal(carc_tiles_placed(clone), carc_tiles_placed(copy));
    assert_int_equal(carc_figures(clone), carc_figures(copy));
    for (int f = 0; f < carc_figures(clone); f++) {
        int fa[6], fb[6];
        carc_figure(clone, f, &fa[0], &fa[1], &fa[2], &fa[3], &fa[4], &fa[5]);
        carc_figure(copy, f, &fb[0], &fb[1], &fb[2], &fb[3], &fb[4], &fb[5]);
        assert_int_equal(fa[2], fb[2]);
        if (fa[2]) assert_memory_equal(fa, fb, sizeof fa);
    }
}

/* Plays on with uniform random choices from rng: `moves` draws and
 * answers, or to the end. */
static inline void play_uniform_moves(carc_game *g, carc_rng *rng, int moves)
{
    if (moves > 0) play_on(g, &(play_spec){.pick = play_pick_uniform, .pick_state = rng, .max_moves = moves});
}

/* Answers option o on a fresh clone of ref (carc_choose) and on `scratch`
 * from src (carc_game_try), ref and src being the same game, plays both on
 * with the same choices (`moves` draws and answers, or to the end with a
 * negative count) and checks they are the same game; returns the clone,
 * played on (the caller frees it). */
static inline carc_game *try_and_clone_agree(const carc_game *ref, const carc_game *src, carc_game *scratch, int o,
                                             carc_rng rng, int moves)
{
    carc_game *c = carc_game_clone(ref);
    assert_non_null(c);
    assert_int_equal(carc_choose(c, o), 0);
    assert_int_equal(carc_game_try(scratch, src, o), 0);
    carc_rng rb = rng, rc = rng;
    if (moves < 0) {
        play_uniform_to_end(c, &rb);
        play_uniform_to_end(scratch, &rc);
    } else {
        play_uniform_moves(c, &rb, moves);
        play_uniform_moves(scratch, &rc, moves);
    }
    same_state_but_log(c, scratch);
    char msg[400];
    if (carc_game_check(scratch, msg, sizeof msg) < 0) fail_msg("the look-ahead copy fails its check: %s", msg);
    return c;
}

/* Plays a seeded game with random choices; at every `every`-th decision,
 * each option is answered both on a fresh clone (carc_choose) and on a
 * scratch game reused for every try (carc_game_try: whatever it held
 * before must not show), which then play on with the same choices: a few
 * moves (a try's copy then restores only the cells the last try changed),
 * many (too many changes to note: it copies them all) or to the end. Then,
 * as greedy and the search do, a follow-up is tried from the scratch game
 * on a second one, and compared with the clone's. Always the same game. */
static inline void check_try_matches_clone(const carc_rules *r, int players, uint64_t seed, int every)
{
    char err[512];
    carc_game *g = carc_game_new(r, players, NULL, seed, err, sizeof err);
    if (!g) fail_msg("%s", err);
    carc_game *scratch = carc_game_clone(g), *deeper = carc_game_clone(g);
    carc_rng ra;
    carc_rng_seed(&ra, seed, 1);
    for (int d = 0;; d++) {
        int st = carc_advance(g);
        if (st == CARC_FINISHED) break;
        if (st == CARC_FAILED) fail_msg("%s", carc_game_error(g));
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            continue;
        }
        int n = carc_option_count(g);
        for (int o = 0; d % every == 0 && o < n; o++) {
            int moves = o == n - 1 && d % (3 * every) == 0 ? -1 : o % 3 == 2 ? 40 : o % 4;
            carc_game *c = try_and_clone_agree(g, g, scratch, o, ra, moves);
            if (carc_advance(c) == CARC_NEED_CHOICE && carc_advance(scratch) == CARC_NEED_CHOICE) {
                int k = carc_option_count(c);
                carc_game_free(try_and_clone_agree(c, scratch, deeper, o % k, ra, 2));
                carc_game_free(try_and_clone_agree(c, scratch, deeper, (o + 1) % k, ra, 1));
            }
            carc_game_free(c);
        }
        carc_choose(g, (int)carc_rng_below(&ra, (uint32_t)n));
    }
    assert_int_equal(carc_game_try(scratch, g, 0), -1); /* nothing is pending: refused on the copy */
    assert_true(carc_game_error(scratch)[0] != 0);
    carc_game_free(scratch);
    carc_game_free(deeper);
    carc_game_free(g);
}

/* No feature is scored twice: each feature's awards (bonuses aside) all
 * belong to one scoring step. Feed it every scoring event of one game. */
typedef struct scored_once {
    int feature[4096], step[4096], n;
} scored_once;

static inline void check_scored_once(scored_once *s, const carc_award *a)
{
    if (a->feature < 0 || (a->flags & CARC_AWARD_BONUS)) return;
    for (int i = 0; i < s->n; i++)
        if (s->feature[i] == a->feature) {
            assert_int_equal(s->step[i], a->step);
            return;
        }
    if (s->n < 4096) {
        s->feature[s->n] = a->feature;
        s->step[s->n++] = a->step;
    }
}

/* Followers of a seat on the board, or held by a player (CARC_AT_HELD). */
static inline int followers_standing(const carc_game *g, int seat)
{
    int n = 0, follower = -1;
    const carc_rules *r = carc_game_rules(g);
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == 0) continue;
        if (follower < 0 && strcmp(carc_figure_kind_name(r, kind), "follower") == 0) follower = kind;
        if (kind == follower && owner == seat) n++;
    }
    return n;
}

/* Whether an award below 0 is one the shipped rules make: a payment, the
 * Tower's ransom (TOWER-7, reason "ransom"), the only one. */
static inline bool award_is_payment(const carc_game *g, const carc_award *a)
{
    return strcmp(carc_reason_name(carc_game_rules(g), a->reason), "ransom") == 0;
}

/* After every move: followers conserved (BASE-2, BASE-19: supply plus board
 * plus held by a player is what each player started with), scores never
 * decrease but by a payment, no award is negative but a payment, no feature
 * scored twice. prev[] holds the scores seen last; *nlog the events checked
 * so far. */
static inline void check_game_invariants(const carc_game *g, int per_player, int *prev, scored_once *scored,
                                         int *nlog)
{
    int paid[CARC_MAX_PLAYERS] = {0};
    for (; *nlog < carc_events(g); (*nlog)++) {
        const carc_award *a = carc_event_at(g, *nlog);
        if (a->points < 0) {
            assert_true(award_is_payment(g, a));
            paid[a->player] -= a->points;
        }
        check_scored_once(scored, a);
    }
    for (int p = 0; p < carc_players(g); p++) {
        assert_int_equal(carc_supply(g, p, "follower") + followers_standing(g, p), per_player);
        assert_true(carc_score(g, p) >= prev[p] - paid[p]);
        prev[p] = carc_score(g, p);
    }
}

/* check_game_invariants as a play_spec moved hook: user is a
 * move_invariants with per_player set and the rest zeroed before the game. */
typedef struct move_invariants {
    int per_player, prev[CARC_MAX_PLAYERS], nlog;
    scored_once scored;
} move_invariants;

static inline void check_invariants_moved(carc_game *g, bool final, void *user)
{
    (void)final;
    move_invariants *v = user;
    check_game_invariants(g, v->per_player, v->prev, &v->scored, &v->nlog);
}

#endif
