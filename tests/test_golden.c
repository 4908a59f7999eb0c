/* test_golden.c - the stored reference result: for every shipped variant
 * (every variants/NAME.ini and variants/SUB/NAME.ini, as `carc variants`
 * lists them), the final states of seeded random games and of greedy games,
 * hashed, must equal tests/golden/hashes.txt. A change to how any seeded
 * game plays (rules, pile, options offered or their order, a bot's choice)
 * changes a hash.
 *
 *   build/tests/test_golden            check (make test)
 *   build/tests/test_golden --write F  write F anew and print what changed
 *                                      (make golden)
 *
 * A final state is written as text, one fact a line (see write_state), and
 * the lines of a variant's games of one kind, in seed order, are hashed
 * with FNV-1a 64. The reference file is found under the data directory
 * (CARC_DATA), so the test runs from any directory; it writes no file
 * unless asked to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "carc.h"
#include "commands.h"
#include "play.h"

#define RANDOM_GAMES 50
#define GREEDY_GAMES 5
#define MAX_VARIANTS 256

/* One kind of game: which agent plays every seat, how many games. */
typedef struct game_kind {
    const char *agent;
    int games;
} game_kind;

static const game_kind KINDS[] = {{"random", RANDOM_GAMES}, {"greedy", GREEDY_GAMES}};
#define NKINDS (int)(sizeof KINDS / sizeof KINDS[0])

/* A line of the reference file: variant, kind, games, hash. */
typedef struct golden_line {
    char variant[256], kind[32];
    int games;
    uint64_t hash;
} golden_line;

/* ---- FNV-1a 64 over the canonical text ------------------------------------- */

typedef struct hasher {
    uint64_t h;
} hasher;

static void hash_bytes(hasher *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        s->h ^= (unsigned char)p[i];
        s->h *= 0x100000001b3ULL;
    }
}

static void hash_line(hasher *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hash_line(hasher *s, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof line - 1);
    line[n++] = '\n';
    hash_bytes(s, line, (size_t)n);
}

/* The final state: status, turn, pile; every seat's score and supply of
 * every figure kind; every award in the log with all its fields; every
 * placed tile in placement order (position, rotation, type by name); every
 * figure slot (kind by name, owner, where it stands, tile, segment, space). */
static void write_state(hasher *s, const carc_game *g, uint64_t seed)
{
    const carc_rules *r = carc_game_rules(g);
    hash_line(s, "game %" PRIu64 " players %d finished %d turn %d pile %d", seed, carc_players(g),
              carc_is_finished(g), carc_turn_number(g), carc_pile_left(g));
    for (int p = 0; p < carc_players(g); p++) {
        hash_line(s, "score %d %d", p, carc_score(g, p));
        for (int k = 0; k < carc_figure_kinds(r); k++) {
            const char *kind = carc_figure_kind_name(r, k);
            hash_line(s, "supply %d %s %d", p, kind, carc_supply(g, p, kind));
        }
    }
    for (int i = 0; i < carc_awards(g); i++) {
        const carc_award *a = carc_award_at(g, i);
        assert_non_null(a);
        hash_line(s, "award %d player %d points %d reason %s feature %d step %d flags %d", i, a->player, a->points,
                  carc_reason_name(r, a->reason), a->feature, a->step, a->flags);
    }
    for (int i = 0; i < carc_tiles_placed(g); i++) {
        int x, y, rot, type;
        assert_int_equal(carc_tile_at_index(g, i, &x, &y, &rot, &type), 0);
        hash_line(s, "tile %d %d,%d rot %d %s:%s", i, x, y, rot, carc_tile_set_of(r, type), carc_tile_id(r, type));
    }
    for (int f = 0; f < carc_figures(g); f++) {
        int kind, seat, where, tile, seg, space;
        assert_int_equal(carc_figure(g, f, &kind, &seat, &where, &tile, &seg, &space), 0);
        hash_line(s, "figure %d %s seat %d where %d tile %d seg %d space %d", f, carc_figure_kind_name(r, kind), seat,
                  where, tile, seg, space);
    }
}

/* Game i (0-based) of a kind: its seed, and a count of players within the
 * variant's bounds (2 to 5 in turn). */
static int players_for(const carc_rules *r, int i)
{
    int n = 2 + i % 4;
    if (n < carc_rules_min_players(r)) n = carc_rules_min_players(r);
    if (n > carc_rules_max_players(r)) n = carc_rules_max_players(r);
    return n;
}

/* Plays a variant's games of one kind to the end and hashes their final states. */
static uint64_t hash_games(const char *variant, const game_kind *kind)
{
    char err[8192];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s: %s", variant, err);
    hasher s = {0xcbf29ce484222325ULL};
    for (int i = 0; i < kind->games; i++) {
        uint64_t seed = (uint64_t)i + 1;
        int n = players_for(r, i);
        carc_game *g = play_game(r, &(play_spec){.players = n, .seed = seed, .agent = kind->agent});
        write_state(&s, g, seed);
        carc_game_free(g);
    }
    carc_rules_free(r);
    return s.h;
}

/* ---- the reference file ------------------------------------------------------ */

static void reference_path(char *out, size_t n) { snprintf(out, n, "%s/tests/golden/hashes.txt", carc_data_dir()); }

/* Reads the reference file's lines (comments and blank lines skipped);
 * returns their count, -1 when the file cannot be read. A malformed line
 * fails the test with its number. */
static int read_reference(const char *path, golden_line *out, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[1024];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (n == max) fail_msg("%s:%d: more than %d lines", path, lineno, max);
        golden_line *g = &out[n];
        char hex[32];
        if (sscanf(line, "%255s %31s %d %31s", g->variant, g->kind, &g->games, hex) != 4 || strlen(hex) != 16)
            fail_msg("%s:%d: expected 'VARIANT KIND GAMES HASH' (HASH 16 hex digits), got: %s", path, lineno, line);
        g->hash = strtoull(hex, NULL, 16);
        n++;
    }
    fclose(f);
    return n;
}

static const golden_line *find_line(const golden_line *lines, int n, const char *variant, const char *kind)
{
    for (int i = 0; i < n; i++)
        if (strcmp(lines[i].variant, variant) == 0 && strcmp(lines[i].kind, kind) == 0) return &lines[i];
    return NULL;
}

/* Every shipped variant's name, sorted; the caller frees them. */
static int shipped_variants(char **names)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    int n = variant_names(dir, names, MAX_VARIANTS);
    if (n == 0) fail_msg("no variants under %s", dir);
    return n;
}

/* Plays every shipped variant's games of every kind: lines in order. */
static int compute_all(golden_line *out)
{
    char *names[MAX_VARIANTS];
    int nv = shipped_variants(names), n = 0;
    for (int v = 0; v < nv; v++) {
        for (int k = 0; k < NKINDS; k++) {
            golden_line *g = &out[n++];
            snprintf(g->variant, sizeof g->variant, "%s", names[v]);
            snprintf(g->kind, sizeof g->kind, "%s", KINDS[k].agent);
            g->games = KINDS[k].games;
            g->hash = hash_games(names[v], &KINDS[k]);
        }
        free(names[v]);
    }
    return n;
}

static golden_line stored[MAX_VARIANTS * NKINDS], computed[MAX_VARIANTS * NKINDS];

/* Every variant and kind hashes as stored, and the file names no variant
 * that is no longer shipped. Every difference is reported before failing. */
static void test_golden_hashes(void **state)
{
    (void)state;
    char path[1200];
    reference_path(path, sizeof path);
    int ns = read_reference(path, stored, MAX_VARIANTS * NKINDS);
    if (ns < 0) fail_msg("cannot read %s: %s (make golden writes it)", path, strerror(errno));
    int nc = compute_all(computed), bad = 0;
    for (int i = 0; i < nc; i++) {
        const golden_line *c = &computed[i], *s = find_line(stored, ns, c->variant, c->kind);
        if (!s) {
            fprintf(stderr, "golden: %s %s: not in %s (hash %016" PRIx64 ")\n", c->variant, c->kind, path, c->hash);
            bad++;
        } else if (s->games != c->games || s->hash != c->hash) {
            fprintf(stderr, "golden: %s %s: %d games hash %016" PRIx64 ", stored %d games %016" PRIx64 "\n",
                    c->variant, c->kind, c->games, c->hash, s->games, s->hash);
            bad++;
        }
    }
    for (int i = 0; i < ns; i++)
        if (!find_line(computed, nc, stored[i].variant, stored[i].kind)) {
            fprintf(stderr, "golden: %s %s: in %s but no longer shipped\n", stored[i].variant, stored[i].kind, path);
            bad++;
        }
    if (bad)
        fail_msg("%d of %d golden hashes differ: seeded games no longer play as they did. If the change is meant, "
                 "`make golden` rewrites %s and prints what changed; commit it with the change that explains it",
                 bad, nc, path);
}

/* make golden: writes the file anew, and prints what changed. */
static int write_reference(const char *path)
{
    static golden_line old[MAX_VARIANTS * NKINDS], now[MAX_VARIANTS * NKINDS];
    int no = read_reference(path, old, MAX_VARIANTS * NKINDS);
    if (no < 0) no = 0;
    int nn = compute_all(now);
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "golden: cannot write %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    fprintf(f, "# tests/golden/hashes.txt - the stored reference result of seeded games.\n"
               "# Written by `make golden` (tests/test_golden.c --write); checked by `make test`.\n"
               "# For every shipped variant: %d random games (every seat the random bot) and\n"
               "# %d greedy games (every seat greedy), seeds 1 up, 2 to 5 players in turn\n"
               "# (within the variant's bounds). HASH is FNV-1a 64 of the final states'\n"
               "# canonical text (scores, supplies, award log, tiles placed with position,\n"
               "# rotation and type, figures), game after game.\n"
               "# VARIANT KIND GAMES HASH\n",
            RANDOM_GAMES, GREEDY_GAMES);
    for (int i = 0; i < nn; i++)
        fprintf(f, "%s %s %d %016" PRIx64 "\n", now[i].variant, now[i].kind, now[i].games, now[i].hash);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "golden: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 1;
    }
    int changes = 0;
    for (int i = 0; i < nn; i++) {
        const golden_line *o = find_line(old, no, now[i].variant, now[i].kind);
        if (!o) printf("golden: new      %s %s %016" PRIx64 "\n", now[i].variant, now[i].kind, now[i].hash), changes++;
        else if (o->hash != now[i].hash || o->games != now[i].games)
            printf("golden: changed  %s %s %016" PRIx64 " -> %016" PRIx64 "\n", now[i].variant, now[i].kind, o->hash,
                   now[i].hash),
                changes++;
    }
    for (int i = 0; i < no; i++)
        if (!find_line(now, nn, old[i].variant, old[i].kind))
            printf("golden: gone     %s %s %016" PRIx64 "\n", old[i].variant, old[i].kind, old[i].hash), changes++;
    printf("golden: %s: %d lines, %d changed\n", path, nn, changes);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_reference(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: test_golden [--write FILE]\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_hashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
