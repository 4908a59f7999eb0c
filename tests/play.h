/* play.h - the one way the tests play a game (include after cmocka.h).
 *
 *   carc_game *g = play_game(rules, &(play_spec){.players = 3, .seed = 7, .agent = "greedy"});
 *   ... look at the finished game ...
 *   carc_game_free(g);
 *
 * A draw takes the seeded pile. A decision is answered by a bot (agent for
 * every seat, or seat_agents one a seat, each made with the game's seed and
 * its seat, "random" when nothing else is said) or by a pick function
 * (play_pick_uniform, play_pick_first, play_pick_stride, or the test's own).
 * Every answer must be one of the options and accepted (a refused one
 * fails the game instead with may_fail).
 *
 * With .variant set the record is written as the game goes; when the game
 * finishes it must replay, on the same rules, to the same final state
 * (same_final_state), unless .record is given: then the record is handed
 * over there (the caller frees it with carc_writer_free) for the test to
 * replay its own way.
 *
 * Hooks see every step: advanced after every carc_advance (with its
 * status), choosing before every carc_choose (with the option and its
 * text), moved after every draw and answer and once more, with final set,
 * when the game is over. The game stops early at until_turn, max_moves
 * (draws and answers) or max_decisions (answers); a failed game fails the
 * test with its error unless may_fail is set. */
#ifndef CARC_TEST_PLAY_H
#define CARC_TEST_PLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "agents.h"
#include "carc.h"
#include "record.h"
#include "rng.h"

typedef struct play_spec {
    int players;                  /* 2 when 0 */
    uint64_t seed;
    const char *const *names;     /* play_game: the players' names (NULL: the game's own) */
    /* Who answers: one of these three ("random" bots when none is set). */
    const char *agent;            /* a bot (agents.h spec) in every seat */
    const char *const *seat_agents; /* a bot a seat */
    int (*pick)(carc_game *g, void *pick_state); /* returns an option number */
    void *pick_state;
    /* The record: written when variant is set (its header's variant line). */
    const char *variant;
    const char *const *overrides; /* the header's option lines */
    int noverrides;
    carc_record_writer *record;   /* the record goes here instead of being replayed */
    /* Where to stop before the end (0: no limit). */
    int until_turn, max_moves, max_decisions;
    bool may_fail;                /* a failed game is returned, not a failed test */
    /* Hooks (any may be NULL); user is given to each. */
    void (*advanced)(carc_game *g, int status, void *user);
    void (*choosing)(carc_game *g, int option, const char *text, void *user);
    void (*moved)(carc_game *g, bool final, void *user);
    void *user;
} play_spec;

/* play_on's status when a limit stopped the game before its end. */
#define PLAY_STOPPED (-1)

/* Pick functions. play_pick_uniform: uniformly at random from a carc_rng
 * (pick_state). play_pick_first: always option 0. play_pick_stride: option
 * (7k mod n) at the k-th decision, k counted in an int (pick_state). */
static inline int play_pick_uniform(carc_game *g, void *rng)
{
    return (int)carc_rng_below((carc_rng *)rng, (uint32_t)carc_option_count(g));
}
static inline int play_pick_first(carc_game *g, void *unused)
{
    (void)g, (void)unused;
    return 0;
}
static inline int play_pick_stride(carc_game *g, void *counter)
{
    return ((*(int *)counter)++ * 7) % carc_option_count(g);
}

/* Scores, every figure kind's supply, every scoring event, every tile and
 * every figure standing somewhere: the same in both games. */
static inline void same_final_state(const carc_game *a, const carc_game *b)
{
    const carc_rules *r = carc_game_rules(a);
    assert_int_equal(carc_is_finished(a), carc_is_finished(b));
    assert_int_equal(carc_players(a), carc_players(b));
    for (int p = 0; p < carc_players(a); p++) {
        assert_int_equal(carc_score(a, p), carc_score(b, p));
        for (int k = 0; k < carc_figure_kinds(r); k++) {
            const char *kind = carc_figure_kind_name(r, k);
            assert_int_equal(carc_supply(a, p, kind), carc_supply(b, p, kind));
        }
    }
    assert_int_equal(carc_awards(a), carc_awards(b));
    for (int i = 0; i < carc_awards(a); i++)
        assert_memory_equal(carc_award_at(a, i), carc_award_at(b, i), sizeof(carc_award));
    assert_int_equal(carc_tiles_placed(a), carc_tiles_placed(b));
    for (int i = 0; i < carc_tiles_placed(a); i++) {
        int ax, ay, ar, at, bx, by, br, bt;
        carc_tile_at_index(a, i, &ax, &ay, &ar, &at);
        carc_tile_at_index(b, i, &bx, &by, &br, &bt);
        assert_true(ax == bx && ay == by && ar == br && at == bt);
    }
    assert_int_equal(carc_figures(a), carc_figures(b));
    for (int f = 0; f < carc_figures(a); f++) {
        int fa[6], fb[6];
        carc_figure(a, f, &fa[0], &fa[1], &fa[2], &fa[3], &fa[4], &fa[5]);
        carc_figure(b, f, &fb[0], &fb[1], &fb[2], &fb[3], &fb[4], &fb[5]);
        assert_int_equal(fa[2], fb[2]); /* where */
        if (fa[2]) assert_memory_equal(fa, fb, sizeof fa);
    }
}

/* The record written while g was played replays, on the same rules, to g's
 * final state. */
static inline void check_record_replays(const carc_record_writer *w, const carc_rules *r, const carc_game *g,
                                        const char *name)
{
    char err[8192];
    carc_record rec;
    if (carc_record_parse(name, w->buf, w->len, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_game *h = NULL;
    if (carc_replay(&rec, r, &h, err, sizeof err) < 0) fail_msg("%s", err);
    same_final_state(g, h);
    carc_game_free(h);
    carc_record_free(&rec);
}

/* Plays g on as s says, from wherever it stands: CARC_FINISHED,
 * CARC_FAILED (only with may_fail) or PLAY_STOPPED. */
static inline int play_on(carc_game *g, const play_spec *s)
{
    char err[8192], text[4096];
    const carc_rules *r = carc_game_rules(g);
    int n = carc_players(g);
    agent *ag[CARC_MAX_PLAYERS] = {0};
    const char *specs[CARC_MAX_PLAYERS], *names[CARC_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        names[p] = carc_player_name(g, p);
        specs[p] = s->seat_agents ? s->seat_agents[p] : s->agent ? s->agent : "random";
        if (s->pick) continue;
        ag[p] = agent_create(specs[p], s->seed, p, err, sizeof err);
        if (!ag[p]) fail_msg("%s: %s", specs[p], err);
    }
    carc_record_writer own, *w = s->record ? s->record : &own;
    if (s->variant)
        assert_int_equal(carc_writer_begin(w, s->variant, s->seed, n, names, specs,
                                           s->overrides, s->noverrides),
                         0);
    int st, moves = 0, decisions = 0;
    for (;;) {
        if ((s->until_turn && carc_turn_number(g) >= s->until_turn) || (s->max_moves && moves >= s->max_moves) ||
            (s->max_decisions && decisions >= s->max_decisions)) {
            st = PLAY_STOPPED;
            break;
        }
        st = carc_advance(g);
        if (s->advanced) s->advanced(g, st, s->user);
        if (st == CARC_FINISHED) break;
        if (st == CARC_FAILED) {
            if (s->may_fail) break;
            fail_msg("%s, seed %llu, turn %d: %s", carc_rules_name(r), (unsigned long long)s->seed,
                     carc_turn_number(g), carc_game_error(g));
        }
        if (st == CARC_NEED_DRAW) {
            if (carc_draw(g, -1) != 0 && !s->may_fail)
                fail_msg("%s, seed %llu: the draw failed: %s", carc_rules_name(r), (unsigned long long)s->seed,
                         carc_game_error(g));
            carc_draw_text(g, carc_last_drawn(g), text, sizeof text);
        } else {
            agent *a = s->pick ? NULL : ag[carc_decision_player(g)];
            int k = a ? a->choose(a, g) : s->pick(g, s->pick_state);
            if (k < 0 || k >= carc_option_count(g))
                fail_msg("%s, seed %llu: %s chose %d of %d options%s%s", carc_rules_name(r),
                         (unsigned long long)s->seed, a ? a->spec : "the pick function", k, carc_option_count(g),
                         a && a->error[0] ? ": " : "", a ? a->error : "");
            carc_option_text(g, k, text, sizeof text);
            if (s->choosing) s->choosing(g, k, text, s->user);
            /* A refused answer fails the game: the next carc_advance says so. */
            if (carc_choose(g, k) != 0 && !s->may_fail)
                fail_msg("%s, seed %llu: option %d (%s) refused: %s", carc_rules_name(r), (unsigned long long)s->seed, k,
                         text, carc_game_error(g));
            decisions++;
        }
        moves++;
        if (s->variant) carc_writer_line(w, text);
        if (s->moved) s->moved(g, false, s->user);
    }
    if (st == CARC_FINISHED && s->moved) s->moved(g, true, s->user);
    if (s->variant && !s->record) {
        if (st == CARC_FINISHED) check_record_replays(w, r, g, s->variant);
        carc_writer_free(w);
    }
    for (int p = 0; p < n; p++) agent_free(ag[p]);
    return st;
}

/* A new game of r (s->players, s->seed, s->names) played as s says (play_on);
 * the caller frees it. */
static inline carc_game *play_game(const carc_rules *r, const play_spec *s)
{
    char err[8192];
    carc_game *g = carc_game_new(r, s->players ? s->players : 2, s->names, s->seed, err, sizeof err);
    if (!g) fail_msg("%s, seed %llu: %s", carc_rules_name(r), (unsigned long long)s->seed, err);
    play_on(g, s);
    return g;
}

#endif
