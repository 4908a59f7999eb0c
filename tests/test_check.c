/* test_check.c - the kernel's self-check (kernel/check.c): a game in
 * progress passes it; each piece of state the kernel keeps up to date,
 * changed behind its back, is found with a message naming it; and in check
 * mode (CARC_CHECK=1) such a change fails the game at the next move.
 *
 * Run from the project root: CARC_DATA=. ./build/tests/test_check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core.h"
#include "play.h"

static carc_rules *rules;

static int setup(void **state)
{
    (void)state;
    char err[1024];
    rules = carc_variant_load("base", NULL, 0, err, sizeof err);
    if (!rules) fprintf(stderr, "%s\n", err);
    return rules ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    carc_rules_free(rules);
    return 0;
}

/* Every move passes the self-check. */
static void game_checks_itself(carc_game *g, bool final, void *user)
{
    (void)final, (void)user;
    char msg[400];
    if (carc_game_check(g, msg, sizeof msg) < 0) fail_msg("a sound game fails the check: %s", msg);
}

/* A base game 30 turns in: first options chosen, so followers stand. */
static carc_game *game_in_progress(void)
{
    carc_game *g = play_game(rules, &(play_spec){.players = 3, .seed = 11, .pick = play_pick_first, .until_turn = 30,
                                                 .moved = game_checks_itself});
    assert_int_equal(carc_turn_number(g), 30);
    return g;
}

static int occupied_root(const carc_game *g)
{
    for (int f = 0; f < g->nfigs; f++)
        if (g->figs[f].where == CARC_AT_SEGMENT) return feat_root_c(g, g->tiles[g->figs[f].tile].node0 + g->figs[f].seg);
    fail_msg("no follower stands");
    return -1;
}

static int joined_node(const carc_game *g) /* a node that is not its feature's root */
{
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i].parent != i) return i;
    fail_msg("no feature spans two tiles");
    return -1;
}

/* Changes one thing in a copy of the game; the check must name it. */
static void expect_found(const carc_game *g, void (*corrupt)(carc_game *), const char *phrase)
{
    carc_game *c = carc_game_clone(g);
    assert_non_null(c);
    corrupt(c);
    char msg[400];
    if (carc_game_check(c, msg, sizeof msg) == 0) fail_msg("not found: the change expected to give %s", phrase);
    if (!strstr(msg, phrase)) fail_msg("expected '%s' in: %s", phrase, msg);
    carc_game_free(c);
}

static void ring_count(carc_game *g) { g->tiles[0].ring--; }
static void cross_count(carc_game *g) { g->tiles[g->ntiles - 1].cross++; }
static void neighbour(carc_game *g) { g->tiles[0].nb[1] = g->tiles[0].nb[1] >= 0 ? -1 : 0; }
static void frontier_edge(carc_game *g) { g->front[0].req ^= g->front[0].mask & 0x01010101u; }
static void frontier_lost(carc_game *g) { g->nfront--; }
static void open_ports(carc_game *g) { g->nodes[occupied_root(g)].open++; }
static void occupants(carc_game *g) { g->nodes[occupied_root(g)].occupants++; }
static void size(carc_game *g) { g->nodes[occupied_root(g)].size++; }
static void split(carc_game *g) { int n = joined_node(g); g->nodes[n].parent = n; }
static void member_list(carc_game *g) { int n = joined_node(g); g->nodes[n].next = n; }
static void completion(carc_game *g) { g->nodes[occupied_root(g)].flags ^= NODE_COMPLETE; }
static void mark_count(carc_game *g) { g->node_marks[(size_t)occupied_root(g) * (size_t)g->rules->nmarks]++; }
static void figure_place(carc_game *g) { g->figs[0].where = CARC_AT_SEGMENT; g->figs[0].seg = MAX_SEGS; }
static void supply(carc_game *g) { g->supply[1][0] = -1; }
static int standing_figure(const carc_game *g)
{
    for (int f = 0; f < g->nfigs; f++)
        if (g->figs[f].where == CARC_AT_SEGMENT) return f;
    fail_msg("no follower stands");
    return -1;
}
/* The per-tile figure index: a tile forgets its figure, or lists another tile's. */
static void tile_list_lost(carc_game *g) { int f = standing_figure(g); g->tiles[g->figs[f].tile].figs_on = g->figs[f].next_on_tile; }
static void tile_list_elsewhere(carc_game *g)
{
    int f = standing_figure(g), other = g->figs[f].tile == 0 ? 1 : 0;
    g->figs[f].next_on_tile = g->tiles[other].figs_on;
    g->tiles[other].figs_on = f;
    g->tiles[g->figs[f].tile].figs_on = -1;
}

static void finds_each_difference(void **state)
{
    (void)state;
    carc_game *g = game_in_progress();
    expect_found(g, ring_count, "around");
    expect_found(g, cross_count, "beside");
    expect_found(g, neighbour, "neighbour");
    expect_found(g, frontier_edge, "requires");
    expect_found(g, frontier_lost, "frontier");
    expect_found(g, open_ports, "open ports");
    expect_found(g, occupants, "occupants");
    expect_found(g, size, "segments");
    expect_found(g, split, "feature");
    expect_found(g, member_list, "member list");
    expect_found(g, completion, "complete");
    assert_true(g->rules->nmarks > 0);
    expect_found(g, mark_count, "marks");
    expect_found(g, figure_place, "figure 0");
    expect_found(g, supply, "in supply");
    expect_found(g, tile_list_lost, "figure lists hold");
    expect_found(g, tile_list_elsewhere, "stands elsewhere");
    carc_game_free(g);
}

/* In check mode the next move after the change fails the game, naming it. */
static void check_mode_fails_the_game(void **state)
{
    (void)state;
    setenv("CARC_CHECK", "1", 1);
    carc_game *g = game_in_progress();
    unsetenv("CARC_CHECK");
    int st;
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    assert_int_equal(st, CARC_NEED_CHOICE);
    g->nodes[occupied_root(g)].open += 2;
    assert_int_equal(carc_choose(g, 0), -1);
    assert_int_equal(carc_advance(g), CARC_FAILED);
    assert_non_null(strstr(carc_game_error(g), "self-check (CARC_CHECK): feature"));
    carc_game_free(g);

    /* Without it, nothing looks. */
    g = game_in_progress();
    while ((st = carc_advance(g)) == CARC_NEED_DRAW) carc_draw(g, -1);
    g->nodes[occupied_root(g)].open += 2;
    assert_int_equal(carc_choose(g, 0), 0);
    carc_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_each_difference),
        cmocka_unit_test(check_mode_fails_the_game),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
