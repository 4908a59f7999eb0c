/* expansion_games.h - seeded random games of a fan expansion, alone and
 * paired with every other shipped module, with checks after every move
 * (include after cmocka.h and game_checks.h). Used by the tests of the
 * shipped expansions (test_inns_cathedrals.c, test_traders_builders.c,
 * test_river.c, test_abbey_mayor.c, test_tower.c,
 * test_expansions_together.c) and test_wild_corners.c.
 *
 * A module is what a shipped variant adds to the base game: tile sets,
 * C plugins, scripts; a pair is the composition "other+mine". */
#ifndef CARC_TEST_EXPANSION_GAMES_H
#define CARC_TEST_EXPANSION_GAMES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shipped modules (variant files that compose: carc sim --variant A+B). */
static const char *const SHIPPED_MODULES[] = {"ark", "prophet", "robbers", "princess-dragon", "fairy", "house/road-closer",
                                              "inns-cathedrals", "traders-builders", "abbey-mayor"};
#define N_SHIPPED_MODULES ((int)(sizeof SHIPPED_MODULES / sizeof SHIPPED_MODULES[0]))

/* A game count from the environment (make test-expansions sets the long
 * runs'), or the default. */
static inline int expansion_count(const char *name, int fallback)
{
    const char *s = getenv(name);
    return s && atoi(s) > 0 ? atoi(s) : fallback;
}

/* A shipped variant or composition, or the test fails with the loader's
 * message. */
static inline carc_rules *expansion_load(const char *variant)
{
    char err[8192];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s: %s", variant, err);
    return r;
}

/* Module `mine` composed with module `other` (other's plugins and scripts
 * load first); *players gets the most players the pair takes. */
static inline carc_rules *load_pair(const char *mine, const char *other, int *players)
{
    char name[256], err[8192];
    snprintf(name, sizeof name, "%s+%s", other, mine);
    carc_rules *r = carc_variant_load(name, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s: %s", name, err);
    *players = carc_rules_max_players(r);
    return r;
}

/* CARC_TEST_GAMES, or 1000: the number of games of a property test. */
static inline int games_to_play(void)
{
    const char *s = getenv("CARC_TEST_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 1000;
}

/* A reason's id by name, -1 if the rules have none. */
static inline int reason_named(const carc_rules *r, const char *name)
{
    for (int i = 0; i < 64; i++) {
        const char *n = carc_reason_name(r, i);
        if (strcmp(n, "?") == 0) return -1;
        if (strcmp(n, name) == 0) return i;
    }
    return -1;
}

/* Greedy bots (which look ahead on clones) play games to the end. */
static inline void play_greedy_games(const carc_rules *r, int players, int games)
{
    for (int seed = 1; seed <= games; seed++)
        carc_game_free(play_game(r, &(play_spec){.players = players, .seed = (uint64_t)seed, .agent = "greedy"}));
}

/* Games of the variant cloned mid-way go on exactly as their originals (the
 * expansion's state is inside the game), and greedy bots play it through. */
static inline void clones_and_greedy_bots(const char *variant)
{
    char err[1024];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    for (int seed = 1; seed <= 20; seed++) check_clone_continues(r, 2 + seed % 5, (uint64_t)seed, 40 + seed);
    play_greedy_games(r, 3, 3);
    carc_rules_free(r);
}

/* Called after every draw and decision answered, and once more (final =
 * true) when the game is over. */
typedef void (*move_check_fn)(const carc_game *g, void *user, bool final);

static inline int figures_on_board(const carc_game *g, const char *kind_name, int seat)
{
    int n = 0;
    const carc_rules *r = carc_game_rules(g);
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, owner, where, tile, seg, space;
        if (carc_figure(g, f, &kind, &owner, &where, &tile, &seg, &space) < 0 || where == 0) continue;
        if (owner == seat && strcmp(carc_figure_kind_name(r, kind), kind_name) == 0) n++;
    }
    return n;
}

/* A tile of a published set: its id in the set and how many the box has. */
typedef struct published_tile {
    const char *id;
    int count;
} published_tile;

/* Each published tile is in the rules as SET:ID, as many as the box has. */
static inline void check_published_tiles(const carc_rules *r, const char *set, const published_tile *tiles, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s:%s", set, tiles[i].id);
        int t = carc_tile_type_find(r, name);
        if (t < 0) fail_msg("%s missing", name);
        assert_int_equal(carc_tile_count(r, t), tiles[i].count);
    }
}

/* The kernel's invariants, every move: followers conserved (BASE-2,
 * BASE-19; a figure held by a player counts as on the board), scores never
 * decrease but by a payment (the Tower's ransom), the event log adds up to
 * the scores, no award below 0 but a payment, no feature scored in two steps (farm awards aside in the
 * per-city farm modes, where they name the city, scored before). */
typedef struct kernel_checks {
    int prev[CARC_MAX_PLAYERS], logged[CARC_MAX_PLAYERS], nlog, followers;
    bool farms_per_city;
    scored_once scored;
} kernel_checks;

static inline void check_kernel(const carc_game *g, kernel_checks *k)
{
    int paid[CARC_MAX_PLAYERS] = {0};
    for (; k->nlog < carc_events(g); k->nlog++) {
        const carc_award *a = carc_event_at(g, k->nlog);
        if (a->points < 0) {
            assert_true(award_is_payment(g, a));
            paid[a->player] -= a->points;
        }
        k->logged[a->player] += a->points;
        if (!(k->farms_per_city && a->reason == CARC_REASON_FARM)) check_scored_once(&k->scored, a);
    }
    for (int p = 0; p < carc_players(g); p++) {
        assert_int_equal(carc_supply(g, p, "follower") + figures_on_board(g, "follower", p), k->followers);
        assert_true(carc_score(g, p) >= k->prev[p] - paid[p]);
        assert_int_equal(carc_score(g, p), k->logged[p]);
        k->prev[p] = carc_score(g, p);
    }
}

/* What a bot chose (its record text), for a test to count. */
typedef void (*choice_check_fn)(const carc_game *g, const char *text, void *user);

/* The checks of play_checked_game, play_spec moved and choosing hooks. */
typedef struct expansion_checks {
    kernel_checks kernel;
    move_check_fn check;
    choice_check_fn choice;
    void *user;
} expansion_checks;

static inline void check_expansion_moved(carc_game *g, bool final, void *user)
{
    expansion_checks *c = user;
    check_kernel(g, &c->kernel);
    if (c->check) c->check(g, c->user, final);
}

static inline void note_expansion_choice(carc_game *g, int option, const char *text, void *user)
{
    (void)option;
    expansion_checks *c = user;
    if (c->choice) c->choice(g, text, c->user);
}

/* How play_checked plays: `agent` in every seat (NULL: random bots), the
 * options overridden, check after every move, choice at every answer. */
typedef struct checked_play {
    const char *agent;
    const char *const *overrides;
    int noverrides;
    move_check_fn check;
    choice_check_fn choice;
    void *user;
} checked_play;

/* One seeded game with the kernel's checks and the test's after every
 * move; then its record replays to the same final state. */
static inline void play_checked(const carc_rules *r, int players, uint64_t seed, const checked_play *how)
{
    expansion_checks *c = calloc(1, sizeof *c);
    c->kernel.followers = 7;
    char mode[64];
    carc_rules_option(r, "farm-scoring", mode, sizeof mode);
    c->kernel.farms_per_city = strncmp(mode, "per-city", 8) == 0 || strcmp(mode, "city-majority") == 0;
    c->check = how->check;
    c->choice = how->choice;
    c->user = how->user;
    carc_game *g = play_game(r, &(play_spec){.players = players, .seed = seed, .agent = how->agent,
                                             .variant = carc_rules_name(r), .overrides = how->overrides,
                                             .noverrides = how->noverrides, .moved = check_expansion_moved,
                                             .choosing = note_expansion_choice, .user = c});
    assert_true(carc_is_finished(g));
    free(c);
    carc_game_free(g);
}

/* play_checked between random bots. */
static inline void play_checked_game(const carc_rules *r, int players, uint64_t seed, const char *const *overrides,
                                     int nover, move_check_fn check, void *user)
{
    play_checked(r, players, seed,
                 &(checked_play){.overrides = overrides, .noverrides = nover, .check = check, .user = user});
}

#endif
