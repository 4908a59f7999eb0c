/* test_ark.c - The Ark of the Covenant (variants/ark.ini: plugins covenant
 * and prophet, script ark.lua):
 *
 *  - the Ark's move options against an independent brute-force count of
 *    legal paths (every direction sequence of 1 to max-steps steps tried,
 *    kept when each step lands on a placed tile not yet visited), on boards
 *    from scenario records with hand-counted numbers and on the boards of
 *    seeded games, for several ark.max-steps values;
 *  - seeded random games of the variant with invariants checked after every
 *    move: followers conserved, Prophets conserved (supply + board + boxed
 *    = 1) and a scored Prophet never back in a supply, scores never
 *    decreasing, no feature scored in two steps, the Ark never off the
 *    placed tiles, and every record replaying to the same final state.
 *    CARC_TEST_GAMES sets the number of games (default 1000).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <cmocka.h>

#include "agents.h"
#include "game_checks.h"
#include "helpers.h"

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

static int games_to_play(void)
{
    const char *s = getenv("CARC_TEST_GAMES");
    return s && atoi(s) > 0 ? atoi(s) : 1000;
}

/* ---- figures by kind name ------------------------------------------------------ */

typedef struct fig { int kind, owner, where, tile, seg, space; } fig;

static bool figure_named(const carc_game *g, int f, const char *name, fig *out)
{
    if (carc_figure(g, f, &out->kind, &out->owner, &out->where, &out->tile, &out->seg, &out->space) < 0) return false;
    return out->where != 0 && strcmp(carc_figure_kind_name(carc_game_rules(g), out->kind), name) == 0;
}

/* The Ark's tile, or -1 while it is not on the board; fails the test if it
 * stands anywhere but on a placed tile, or if there are two. */
static int ark_tile(const carc_game *g)
{
    int tile = -1, n = 0;
    for (int f = 0; f < carc_figures(g); f++) {
        fig fi;
        if (!figure_named(g, f, "ark", &fi)) continue;
        n++;
        assert_int_equal(fi.where, 2); /* on a tile */
        assert_true(fi.tile >= 0 && fi.tile < carc_tiles_placed(g));
        assert_int_equal(fi.owner, -1);
        tile = fi.tile;
    }
    assert_true(n <= 1);
    return tile;
}

/* ---- (a) move options against a brute-force count ---------------------------------- */

static bool placed(const carc_game *g, int x, int y) { return carc_tile_index_at(g, x, y) >= 0; }

/* Whether the direction sequence (2 bits a step) is a legal Ark path. */
static bool legal_path(const carc_game *g, int sx, int sy, const int *dirs, int len)
{
    int xs[16], ys[16];
    xs[0] = sx;
    ys[0] = sy;
    for (int i = 0; i < len; i++) {
        int x = xs[i] + DX[dirs[i]], y = ys[i] + DY[dirs[i]];
        if (!placed(g, x, y)) return false;
        for (int j = 0; j <= i; j++)
            if (xs[j] == x && ys[j] == y) return false;
        xs[i + 1] = x;
        ys[i + 1] = y;
    }
    return true;
}

static int brute_force_paths(const carc_game *g, int tile, int max)
{
    int sx, sy, rot, type, count = 0;
    carc_tile_at_index(g, tile, &sx, &sy, &rot, &type);
    for (int len = 1; len <= max; len++)
        for (long code = 0; code < (1L << (2 * len)); code++) {
            int dirs[16];
            for (int i = 0; i < len; i++) dirs[i] = (int)((code >> (2 * i)) & 3);
            count += legal_path(g, sx, sy, dirs, len);
        }
    return count;
}

/* Checks the pending action decision: its "ark ..." options are distinct,
 * each a legal path from the Ark's tile, and as many as the brute force
 * finds. Returns their number. */
static int check_move_options(const carc_game *g, int max)
{
    int tile = ark_tile(g), sx = 0, sy = 0, rot, type, n = carc_option_count(g), moves = 0;
    if (tile >= 0) carc_tile_at_index(g, tile, &sx, &sy, &rot, &type);
    char (*texts)[64] = calloc((size_t)n + 1, sizeof *texts);
    assert_non_null(texts);
    for (int i = 0; i < n; i++) {
        char t[256];
        carc_option_text(g, i, t, sizeof t);
        if (strncmp(t, "ark ", 4) != 0) continue;
        assert_true(tile >= 0);
        int dirs[16], len = 0;
        for (char *save = NULL, *tok = strtok_r(t + 4, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            assert_true(len < max);
            const char *at = strchr("NESW", tok[0]);
            assert_true(at && tok[0] && !tok[1]);
            dirs[len++] = (int)(at - "NESW");
        }
        assert_true(len >= 1);
        assert_true(legal_path(g, sx, sy, dirs, len));
        carc_option_text(g, i, texts[moves], sizeof texts[moves]);
        for (int j = 0; j < moves; j++) assert_string_not_equal(texts[j], texts[moves]);
        moves++;
    }
    free(texts);
    if (tile >= 0) assert_int_equal(moves, brute_force_paths(g, tile, max));
    return moves;
}

/* Replays the record text up to its end (a game in progress, waiting for
 * an action decision) and counts the Ark's moves there. */
static int moves_at_end_of(const char *text, int max)
{
    carc_rules *rules;
    carc_game *g = replay_text(text, &rules);
    assert_int_equal(carc_advance(g), CARC_NEED_CHOICE);
    assert_string_equal(carc_decision_label(g), "action");
    int n = check_move_options(g, max);
    carc_game_free(g);
    carc_rules_free(rules);
    return n;
}

#define HEADER "carcassonne-record 1\nvariant ark\nseed 1\nplayer Red random\nplayer Blue random\n"

/* Board: 24 at 0,-1 (the Ark), the start, 47 at 1,0, 45 at 2,0. By hand:
 * S, S E, S E E = 3; with max-steps 2: S, S E = 2; with 1: S. */
static const char BOARD_L[] = "---\ndraw ark:47\nplace 1,0 r0\npass\ndraw ark:24\nplace 0,-1 r180\npass\n"
                              "ark-place 0,-1\ndraw ark:45\nplace 2,0 r0\n";

/* Board: a row from -1,0 to 4,0 and 0,-1; the Ark on 3,0 (its 4-step move
 * there needs max-steps 4 or more). By hand: W, W W, W W W, W W W W,
 * W W W N, E = 6; with max-steps 8 still 6. */
static const char BOARD_ROW[] = "---\ndraw ark:47\nplace 1,0 r0\ndeploy follower field@N\ndraw ark:24\n"
                                "place 0,-1 r180\ndeploy follower field@N\nark-place 0,-1\ndraw ark:30\n"
                                "place 2,0 r0\ndeploy prophet city@N\ndraw ark:45\nplace 3,0 r0\n"
                                "deploy follower road@E\ndraw ark:50\nplace -1,0 r0\nark S E E E\n"
                                "draw ark:49\nplace 4,0 r0\n";

/* Board: a 2x3 block (x 0..1, y -1..1; the start at 0,0) plus 2,0; the Ark
 * on 0,-1. Counted by hand: first step E (to 1,-1): E; E S; E S W; E S W S;
 * E S W S E; E S E; E S S; E S S W; E S S W N = 9. First step S (to 0,0):
 * S; S E; S E N; S E E; S E S; S E S W; S S; S S E; S S E N; S S E N N;
 * S S E N E = 11. 20 in all. Up to 3 steps: 5 + 7 = 12; up to 2: E, E S,
 * S, S E, S S = 5; 1 step: 2. */
static const char BOARD_BLOCK[] = "---\ndraw ark:24\nplace 0,-1 r180\npass\nark-place 0,-1\n"
                                  "draw ark:47\nplace 1,0 r0\npass\n"
                                  "draw ark:37\nplace 1,-1 r180\npass\n"
                                  "draw ark:41\nplace 2,0 r0\npass\n"
                                  "draw ark:43\nplace 0,1 r0\npass\n"
                                  "draw ark:44\nplace 1,1 r0\n";

static char *with_option(const char *opt, const char *body)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, HEADER "%s%s", opt, body);
    return buf;
}

static void test_moves_hand_counted(void **state)
{
    (void)state;
    assert_int_equal(moves_at_end_of(with_option("", BOARD_L), 5), 3);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=2\n", BOARD_L), 2), 2);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=1\n", BOARD_L), 1), 1);
    assert_int_equal(moves_at_end_of(with_option("", BOARD_ROW), 5), 6);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=8\n", BOARD_ROW), 8), 6);
    assert_int_equal(moves_at_end_of(with_option("", BOARD_BLOCK), 5), 20);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=3\n", BOARD_BLOCK), 3), 12);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=2\n", BOARD_BLOCK), 2), 5);
    assert_int_equal(moves_at_end_of(with_option("option ark.max-steps=1\n", BOARD_BLOCK), 1), 2);
}

/* The Ark's moves at every action decision with the Ark on the board. */
typedef struct ark_moves_checked {
    int max, checked;
} ark_moves_checked;

static void check_ark_moves(carc_game *g, int status, void *user)
{
    ark_moves_checked *c = user;
    if (status == CARC_NEED_CHOICE && strcmp(carc_decision_label(g), "action") == 0 && ark_tile(g) >= 0) {
        check_move_options(g, c->max);
        c->checked++;
    }
}

/* Every action decision of seeded games with the Ark on the board. */
static void test_moves_brute_force_seeded(void **state)
{
    (void)state;
    static const char *const steps[] = {"ark.max-steps=1", "ark.max-steps=3", "ark.max-steps=5", "ark.max-steps=7"};
    static const int maxes[] = {1, 3, 5, 7};
    char err[1024];
    ark_moves_checked c = {0};
    for (int k = 0; k < 4; k++) {
        carc_rules *rules = carc_variant_load("ark", &steps[k], 1, err, sizeof err);
        if (!rules) fail_msg("%s", err);
        c.max = maxes[k];
        for (uint64_t seed = 1; seed <= 6; seed++)
            carc_game_free(play_game(rules, &(play_spec){.players = 2 + (int)(seed % 3), .seed = seed,
                                                         .advanced = check_ark_moves, .user = &c}));
        carc_rules_free(rules);
    }
    assert_true(c.checked > 500);
}

/* ---- the variant --------------------------------------------------------------------- */

static void test_variant_components(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("ark", NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int tiles = 0, types = 0;
    for (int t = 0; t < carc_tile_types(r); t++)
        if (strcmp(carc_tile_set_of(r, t), "ark") == 0) {
            types++;
            tiles += carc_tile_count(r, t);
        }
    assert_int_equal(types, 61); /* ARK-1 */
    assert_int_equal(tiles, 72);
    carc_game *g = carc_game_new(r, 5, NULL, 1, err, sizeof err);
    assert_non_null(g);
    int x, y, rot, type;
    carc_tile_at_index(g, 0, &x, &y, &rot, &type);
    assert_string_equal(carc_tile_id(r, type), "27");
    assert_int_equal(carc_pile_left(g), 71);
    for (int p = 0; p < 5; p++) { /* ARK-2 */
        assert_int_equal(carc_supply(g, p, "follower"), 7);
        assert_int_equal(carc_supply(g, p, "prophet"), 1);
        assert_int_equal(carc_supply(g, p, "ark"), 0);
    }
    assert_int_equal(ark_tile(g), -1); /* ARK-3 */
    carc_game_free(g);
    /* 2 to 5 players */
    assert_null(carc_game_new(r, 6, NULL, 1, err, sizeof err));
    carc_rules_free(r);
}

/* Fields score sheep: a farm rule that pays per city cannot be combined. */
static void test_bad_options(void **state)
{
    (void)state;
    char err[1024];
    const char *per_city[] = {"farm-scoring=per-city-once"};
    carc_rules *r = carc_variant_load("ark", per_city, 1, err, sizeof err);
    assert_non_null(r);
    assert_null(carc_game_new(r, 2, NULL, 1, err, sizeof err));
    assert_non_null(strstr(err, "farm-scoring"));
    carc_rules_free(r);
    const char *bad[] = {"ark.max-steps=9", "ark.needs-temple=maybe", "covenant.follower-on-temple=1",
                         "ark.place-bonus=-1"};
    for (int i = 0; i < 4; i++) {
        err[0] = 0;
        assert_null(carc_variant_load("ark", &bad[i], 1, err, sizeof err));
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        assert_non_null(strstr(err, key));
    }
}

/* ---- (b) seeded games with invariants --------------------------------------------------- */


typedef struct prophet_watch {
    bool on_board, boxed;
    int tile, seg;
} prophet_watch;

static int on_board(const carc_game *g, int seat, const char *kind, fig *where)
{
    int n = 0;
    for (int f = 0; f < carc_figures(g); f++) {
        fig fi;
        if (figure_named(g, f, kind, &fi) && fi.owner == seat) {
            n++;
            if (where) *where = fi;
        }
    }
    return n;
}

typedef struct watch {
    int prev[CARC_MAX_PLAYERS];
    prophet_watch prophet[CARC_MAX_PLAYERS];
    scored_once *scored;
    int nlog;
} watch;

static void check_invariants(const carc_game *g, watch *w)
{
    const carc_rules *r = carc_game_rules(g);
    for (int p = 0; p < carc_players(g); p++) {
        assert_int_equal(carc_supply(g, p, "follower") + on_board(g, p, "follower", NULL), 7);
        fig pf = {0};
        int pb = on_board(g, p, "prophet", &pf), ps = carc_supply(g, p, "prophet");
        prophet_watch *pw = &w->prophet[p];
        if (pw->on_board && pb == 0) {
            /* It left the board: scored with its completed city, into the box. */
            assert_int_equal(ps, 0);
            assert_true(carc_feature_complete(g, carc_feature_of(g, pw->tile, pw->seg)));
            pw->boxed = true;
        }
        if (pw->boxed) { /* never back */
            assert_int_equal(ps, 0);
            assert_int_equal(pb, 0);
        }
        assert_int_equal(ps + pb + (pw->boxed ? 1 : 0), 1);
        pw->on_board = pb > 0;
        if (pb) {
            pw->tile = pf.tile;
            pw->seg = pf.seg;
        }
        assert_true(carc_score(g, p) >= w->prev[p]);
        w->prev[p] = carc_score(g, p);
    }
    ark_tile(g);
    for (; w->nlog < carc_awards(g); w->nlog++) {
        const carc_award *a = carc_award_at(g, w->nlog);
        assert_true(a->points > 0);
        if (strcmp(carc_reason_name(r, a->reason), "ark") == 0) assert_int_equal(a->points, 1);
        check_scored_once(w->scored, a);
    }
}

static void check_watch_moved(carc_game *g, bool final, void *w)
{
    (void)final;
    check_invariants(g, w);
}

static void test_random_games_invariants(void **state)
{
    (void)state;
    char err[8192];
    carc_rules *rules = carc_variant_load("ark", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    int games = games_to_play(), prophets_boxed = 0, arks_placed = 0;
    watch w;
    w.scored = malloc(sizeof *w.scored);
    for (int i = 0; i < games; i++) {
        int n = 2 + i % 4;
        memset(w.prev, 0, sizeof w.prev);
        memset(w.prophet, 0, sizeof w.prophet);
        w.scored->n = w.nlog = 0;
        carc_game *g = play_game(rules, &(play_spec){.players = n, .seed = (uint64_t)i + 1, .variant = "ark",
                                                     .moved = check_watch_moved, .user = &w});
        assert_true(carc_is_finished(g));
        assert_int_equal(carc_pile_left(g), 0); /* ARK-21 */
        for (int p = 0; p < n; p++) prophets_boxed += w.prophet[p].boxed;
        arks_placed += ark_tile(g) >= 0;
        carc_game_free(g);
    }
    /* The games did exercise the Prophet and the Ark. */
    assert_true(prophets_boxed > games / 4);
    assert_true(arks_placed > games / 2);
    free(w.scored);
    carc_rules_free(rules);
}

/* The Ark's and the plugins' state live in the game: a clone goes on
 * exactly as the original. */
static void test_clone_continues_identically(void **state)
{
    (void)state;
    char err[512];
    carc_rules *rules = carc_variant_load("ark", NULL, 0, err, sizeof err);
    if (!rules) fail_msg("%s", err);
    check_clone_continues(rules, 3, 11, 120);
    carc_rules_free(rules);
}

int main(void)
{
    /* Every game here checks itself after every move (kernel/check.c). */
    setenv("CARC_CHECK", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_hand_counted),
        cmocka_unit_test(test_moves_brute_force_seeded),
        cmocka_unit_test(test_variant_components),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_random_games_invariants),
        cmocka_unit_test(test_clone_continues_identically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
