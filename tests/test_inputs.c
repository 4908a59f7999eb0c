/*
 * test_inputs.c - malformed input: tile sets, variants and game records that
 * carc must refuse with a clear "FILE:LINE: reason" message, and never a
 * crash; plus the good inputs that must load (the shipped tile sets with
 * their exact totals, variants/base.ini, variants that include it).
 *
 * Run from the project root: CARC_DATA=. ./build/tests/test_inputs
 * The data files live under tests/bad/ (tiles/, variants/, records/) and
 * tests/good/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "carc.h"
#include "record.h"

#define TILES "tests/bad/tiles/"
#define VARIANTS "tests/bad/variants/"
#define RECORDS "tests/bad/records/"
#define GOOD "tests/good/"

#define ERRN 8192

/* ---- helpers -------------------------------------------------------------- */

/* err must start with "path:line:" (line > 0), "path:" (line 0) or
 * "path:N:" for some N (line -1), allowing a leading "./" that the variant
 * loader adds to relative paths. */
static void check_where(const char *err, const char *path, int line)
{
    char want[600];
    if (line > 0) snprintf(want, sizeof want, "%s:%d:", path, line);
    else snprintf(want, sizeof want, "%s:", path);
    const char *e = err;
    if (strncmp(e, "./", 2) == 0 && strncmp(path, "./", 2) != 0) e += 2;
    if (strncmp(e, want, strlen(want)) != 0)
        fail_msg("the message should start with '%s'\n  got: %s", want, err);
    if (line < 0) {
        const char *p = e + strlen(want);
        size_t digits = strspn(p, "0123456789");
        if (digits == 0 || p[digits] != ':') fail_msg("the message should start with '%sLINE:'\n  got: %s", want, err);
    }
}

/* Every word of the NULL-terminated list must appear in err. */
static void check_words(const char *err, const char *const *words)
{
    for (int i = 0; words && words[i]; i++)
        if (!strstr(err, words[i])) fail_msg("the message should contain '%s'\n  got: %s", words[i], err);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Rules the loader must refuse, with file, line and reason. */
static void bad_rules(const char *dir, const char *file, int line, const char *const *words,
                      carc_rules *(*load)(const char *path, char *err, size_t errn))
{
    char path[512], err[ERRN] = "";
    snprintf(path, sizeof path, "%s%s", dir, file);
    carc_rules *r = load(path, err, sizeof err);
    if (r) {
        carc_rules_free(r);
        fail_msg("%s loaded, but it should have been refused", path);
    }
    if (!err[0]) fail_msg("%s was refused without a message", path);
    check_where(err, path, line);
    check_words(err, words);
}

static carc_rules *load_variant(const char *path, char *err, size_t errn)
{
    return carc_variant_load(path, NULL, 0, err, errn);
}

static void bad_tiles(const char *file, int line, const char *const *words)
{
    bad_rules(TILES, file, line, words, carc_rules_from_tileset);
}

static void bad_variant(const char *file, int line, const char *const *words)
{
    bad_rules(VARIANTS, file, line, words, load_variant);
}

/* A record the parser must refuse. */
static void bad_record_parse(const char *file, int line, const char *const *words)
{
    char path[512], err[ERRN] = "";
    snprintf(path, sizeof path, RECORDS "%s", file);
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) == 0) {
        carc_record_free(&rec);
        fail_msg("%s parsed, but it should have been refused", path);
    }
    if (!err[0]) fail_msg("%s was refused without a message", path);
    check_where(err, path, line);
    check_words(err, words);
}

/* A record that parses but whose replay must stop at a line. */
static void bad_record_replay(const char *file, int line, const char *const *words)
{
    char path[512], err[ERRN] = "";
    snprintf(path, sizeof path, RECORDS "%s", file);
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) fail_msg("%s should parse: %s", path, err);
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    if (!rules) {
        carc_record_free(&rec);
        fail_msg("%s: its variant should load: %s", path, err);
    }
    carc_game *g = NULL;
    err[0] = 0;
    int rc = carc_replay(&rec, rules, &g, err, sizeof err);
    char copy[ERRN];
    snprintf(copy, sizeof copy, "%s", err);
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    if (rc == 0) fail_msg("%s replayed, but line %d should have stopped it", path, line);
    if (!copy[0]) fail_msg("%s: the replay stopped without a message", path);
    check_where(copy, path, line);
    check_words(copy, words);
}

static int total_tiles(const carc_rules *r)
{
    int n = 0;
    for (int t = 0; t < carc_tile_types(r); t++) n += carc_tile_count(r, t);
    return n;
}

/* ---- malformed tile sets -------------------------------------------------- */

static void tiles_port_twice(void **s) { (void)s; bad_tiles("port-twice.ini", 11, WORDS("Wn", "covered twice")); }
static void tiles_port_uncovered(void **s) { (void)s; bad_tiles("port-uncovered.ini", 6, WORDS("covered by no segment")); }
static void tiles_edges_disagree(void **s) { (void)s; bad_tiles("edges-disagree.ini", 6, WORDS("edges", "E edge", "field")); }
static void tiles_unknown_mark(void **s) { (void)s; bad_tiles("unknown-mark.ini", 8, WORDS("unknown mark", "shield")); }
static void tiles_unknown_kind(void **s) { (void)s; bad_tiles("unknown-kind.ini", 8, WORDS("unknown kind", "castle")); }
static void tiles_duplicate_id(void **s) { (void)s; bad_tiles("duplicate-id.ini", 17, WORDS("duplicate", "'E'", "line 5")); }
/* The copy directly after the first: the same error, not a confusing one. */
static void tiles_duplicate_id_adjacent(void **s) { (void)s; bad_tiles("duplicate-id-adjacent.ini", 11, WORDS("duplicate", "'E'")); }
static void tiles_count_zero(void **s) { (void)s; bad_tiles("count-zero.ini", 6, WORDS("bad count", "'0'")); }
static void tiles_count_negative(void **s) { (void)s; bad_tiles("count-negative.ini", 6, WORDS("bad count", "'-3'")); }
static void tiles_count_text(void **s) { (void)s; bad_tiles("count-text.ini", 6, WORDS("bad count", "'four'")); }
static void tiles_count_huge(void **s) { (void)s; bad_tiles("count-huge.ini", 6, WORDS("bad count", "99999999999999999999")); }
static void tiles_count_inline_comment(void **s) { (void)s; bad_tiles("count-inline-comment.ini", 6, WORDS("bad count")); }
static void tiles_unknown_key(void **s) { (void)s; bad_tiles("unknown-key.ini", 8, WORDS("unknown key", "colour")); }
static void tiles_unknown_set_key(void **s) { (void)s; bad_tiles("unknown-set-key.ini", 4, WORDS("unknown key", "author", "[set]")); }
static void tiles_unknown_section(void **s) { (void)s; bad_tiles("unknown-section.ini", 11, WORDS("unknown section", "[tiles D]")); }
static void tiles_missing_count(void **s) { (void)s; bad_tiles("missing-count.ini", 11, WORDS("tile E", "no 'count'")); }
static void tiles_missing_edges(void **s) { (void)s; bad_tiles("missing-edges.ini", 5, WORDS("tile E", "no 'edges'")); }
static void tiles_road_half_port(void **s) { (void)s; bad_tiles("road-half-port.ini", 8, WORDS("road", "middle port")); }
static void tiles_city_part_edge(void **s) { (void)s; bad_tiles("city-part-edge.ini", 8, WORDS("city", "whole edge")); }
static void tiles_borders_non_city(void **s) { (void)s; bad_tiles("borders-non-city.ini", 10, WORDS("borders E", "no city")); }
static void tiles_touches_unknown(void **s) { (void)s; bad_tiles("touches-unknown.ini", 10, WORDS("touches", "cloister@inner", "names no segment")); }
static void tiles_kind_letter_lowercase(void **s) { (void)s; bad_tiles("kind-letter-lowercase.ini", 4, WORDS("river:r", "upper-case edge letter")); }
static void tiles_edge_letter_unknown(void **s) { (void)s; bad_tiles("edge-letter-unknown.ini", 7, WORDS("CRVR", "kinds = river:V")); }
static void tiles_wild_bad_word(void **s) { (void)s; bad_tiles("wild-bad-word.ini", 5, WORDS("wall:X:wide", "abbey:A:wild")); }
static void tiles_wild_half_edge(void **s) { (void)s; bad_tiles("wild-half-edge.ini", 10, WORDS("tile A", "wild edge", "whole edge")); }
static void tiles_borders_on_city(void **s) { (void)s; bad_tiles("borders-on-city.ini", 8, WORDS("only a field borders")); }
static void tiles_long_line(void **s) { (void)s; bad_tiles("long-line.ini", 9, WORDS("line longer than")); }
static void tiles_not_ini(void **s) { (void)s; bad_tiles("not-ini.ini", 6, WORDS("key = value")); }
static void tiles_stray_line(void **s) { (void)s; bad_tiles("stray-line.ini", 4, WORDS("key = value")); }
static void tiles_empty(void **s) { (void)s; bad_tiles("empty.ini", 0, WORDS("[set]", "name")); }
static void tiles_no_such_file(void **s) { (void)s; bad_tiles("no-such-file.ini", 0, WORDS("cannot open")); }
static void tiles_no_name(void **s) { (void)s; bad_tiles("no-name.ini", 0, WORDS("'name'")); }
static void tiles_no_title(void **s) { (void)s; bad_tiles("no-title.ini", 0, WORDS("'title'")); }
/* docs/tile-sets.md, "Errors the engine reports": more than one type marked
 * start. The second start mark is the error (line 17). */
static void tiles_two_starts(void **s) { (void)s; bad_tiles("two-starts.ini", 17, WORDS("start")); }

/* ---- the shipped tile sets ------------------------------------------------ */

static void shipped_set(const char *path, const char *name, int types, int tiles)
{
    char err[ERRN] = "";
    carc_rules *r = carc_rules_from_tileset(path, err, sizeof err);
    if (!r) fail_msg("%s should load: %s", path, err);
    int t = carc_tile_types(r), n = total_tiles(r);
    const char *set = carc_tile_set_of(r, 0);
    char setname[64];
    snprintf(setname, sizeof setname, "%s", set);
    carc_rules_free(r);
    if (strcmp(setname, name) != 0) fail_msg("%s: set name '%s', expected '%s'", path, setname, name);
    if (t != types || n != tiles) fail_msg("%s: %d tiles in %d types, expected %d in %d", path, n, t, tiles, types);
}

static void set_base(void **s) { (void)s; shipped_set("tiles/base.ini", "base", 24, 72); }
static void set_ark(void **s) { (void)s; shipped_set("tiles/ark.ini", "ark", 61, 72); }
static void set_robbers(void **s) { (void)s; shipped_set("tiles/robbers.ini", "robbers", 6, 8); }
static void set_princess_dragon(void **s) { (void)s; shipped_set("tiles/princess-dragon.ini", "princess-dragon", 29, 30); }

/* ---- malformed variants --------------------------------------------------- */

static void variant_unknown_section(void **s) { (void)s; bad_variant("unknown-section.ini", 9, WORDS("unknown section", "[scoring]")); }
static void variant_unknown_key(void **s) { (void)s; bad_variant("unknown-key.ini", 4, WORDS("unknown key", "author")); }
static void variant_players_range(void **s) { (void)s; bad_variant("players-range.ini", 3, WORDS("players", "2-9")); }
static void variant_players_reversed(void **s) { (void)s; bad_variant("players-reversed.ini", 3, WORDS("players", "5-2")); }
static void variant_players_text(void **s) { (void)s; bad_variant("players-text.ini", 3, WORDS("players", "two")); }
static void variant_unknown_option(void **s) { (void)s; bad_variant("unknown-option.ini", 10, WORDS("unknown option", "castle-scoring")); }
static void variant_option_enum(void **s) { (void)s; bad_variant("option-enum.ini", 9, WORDS("farm-scoring", "bogus", "per-farm")); }
static void variant_option_int(void **s) { (void)s; bad_variant("option-int.ini", 9, WORDS("followers-per-player", "100", "0 to 99")); }
static void variant_missing_set(void **s) { (void)s; bad_variant("missing-set.ini", 6, WORDS("nosuch-set", "cannot open")); }
static void variant_count_no_tile(void **s) { (void)s; bad_variant("count-no-tile.ini", 7, WORDS("no tile base:Z")); }
static void variant_count_bad_value(void **s) { (void)s; bad_variant("count-bad-value.ini", 7, WORDS("lots", "whole number")); }
static void variant_include_loop(void **s) { (void)s; bad_variant("loop-a.ini", 3, WORDS("loop-b.ini", "loop")); }
static void variant_self_include(void **s) { (void)s; bad_variant("self-include.ini", 3, WORDS("loop")); }
static void variant_missing_include(void **s) { (void)s; bad_variant("missing-include.ini", 4, WORDS("nosuch-variant.ini", "cannot open")); }
static void variant_no_tiles(void **s) { (void)s; bad_variant("no-tiles.ini", 0, WORDS("no tile set")); }

/* ---- good variants -------------------------------------------------------- */

static carc_rules *good_variant(const char *name)
{
    char err[ERRN] = "";
    carc_rules *r = carc_variant_load(name, NULL, 0, err, sizeof err);
    if (!r) fail_msg("%s should load: %s", name, err);
    return r;
}

static void expect_option(carc_rules *r, const char *key, const char *want)
{
    char buf[128];
    const char *v = carc_rules_option(r, key, buf, sizeof buf);
    char got[128];
    snprintf(got, sizeof got, "%s", v ? v : "(no such option)");
    if (!v || strcmp(v, want) != 0) {
        carc_rules_free(r);
        fail_msg("option %s is %s, expected %s", key, got, want);
    }
}

static void variant_base(void **s)
{
    (void)s;
    carc_rules *r = good_variant("base");
    int types = carc_tile_types(r), tiles = total_tiles(r);
    int minp = carc_rules_min_players(r), maxp = carc_rules_max_players(r);
    char name[64];
    snprintf(name, sizeof name, "%s", carc_rules_name(r));
    expect_option(r, "farm-scoring", "per-farm");
    expect_option(r, "followers-per-player", "7");
    carc_rules_free(r);
    assert_string_equal(name, "base");
    assert_int_equal(types, 24);
    assert_int_equal(tiles, 72);
    assert_int_equal(minp, 2);
    assert_int_equal(maxp, 6);
}

static void variant_include_one_option(void **s)
{
    (void)s;
    carc_rules *r = good_variant(GOOD "farms-none.ini");
    int tiles = total_tiles(r), minp = carc_rules_min_players(r), maxp = carc_rules_max_players(r);
    char name[64];
    snprintf(name, sizeof name, "%s", carc_rules_name(r));
    expect_option(r, "farm-scoring", "none");
    expect_option(r, "small-city", "off"); /* untouched */
    carc_rules_free(r);
    assert_string_equal(name, "farms-none");
    assert_int_equal(tiles, 72);
    assert_int_equal(minp, 2);
    assert_int_equal(maxp, 6);
}

static void variant_include_by_path(void **s)
{
    (void)s;
    carc_rules *r = good_variant(GOOD "include-relative.ini");
    expect_option(r, "farm-scoring", "per-city-once");
    carc_rules_free(r);
}

/* An option override from the caller wins over the file. */
static void variant_override(void **s)
{
    (void)s;
    char err[ERRN] = "";
    const char *ov[] = {"farm-scoring=city-majority"};
    carc_rules *r = carc_variant_load(GOOD "farms-none.ini", ov, 1, err, sizeof err);
    if (!r) fail_msg("should load: %s", err);
    expect_option(r, "farm-scoring", "city-majority");
    carc_rules_free(r);
    const char *bad[] = {"farm-scoring=bogus"};
    r = carc_variant_load("base", bad, 1, err, sizeof err);
    if (r) {
        carc_rules_free(r);
        fail_msg("an override farm-scoring=bogus was accepted");
    }
    check_words(err, WORDS("farm-scoring", "bogus"));
}

/* [tiles] SET:ID = COUNT changes one tile's count. */
static void variant_count_override(void **s)
{
    (void)s;
    carc_rules *r = good_variant(GOOD "smallpile.ini");
    int e = carc_tile_type_find(r, "base:E");
    int count = e >= 0 ? carc_tile_count(r, e) : -1, tiles = total_tiles(r);
    carc_rules_free(r);
    assert_int_equal(count, 2);
    assert_int_equal(tiles, 69);
}

/* ---- malformed records ---------------------------------------------------- */

static void record_version_2(void **s) { (void)s; bad_record_parse("version-2.rec", 1, WORDS("version", "2")); }
static void record_no_version(void **s) { (void)s; bad_record_parse("no-version.rec", 1, WORDS("carcassonne-record 1")); }
static void record_empty(void **s) { (void)s; bad_record_parse("empty.rec", 1, WORDS("carcassonne-record 1")); }
static void record_unknown_header(void **s) { (void)s; bad_record_parse("unknown-header.rec", 4, WORDS("header", "colour blue")); }
static void record_no_separator(void **s) { (void)s; bad_record_parse("no-separator.rec", 6, WORDS("---")); }
static void record_no_separator_moves(void **s) { (void)s; bad_record_parse("no-separator-moves.rec", 6, WORDS("---", "draw base:E")); }
static void record_no_player(void **s) { (void)s; bad_record_parse("no-player.rec", 5, WORDS("no player")); }
static void record_same_name(void **s) { (void)s; bad_record_parse("same-name.rec", 5, WORDS("two players", "Red")); }
static void record_seed_text(void **s) { (void)s; bad_record_parse("seed-text.rec", 3, WORDS("seed", "twelve")); }
static void record_seed_negative(void **s) { (void)s; bad_record_parse("seed-negative.rec", 3, WORDS("seed", "-5")); }
static void record_seed_huge(void **s) { (void)s; bad_record_parse("seed-huge.rec", 3, WORDS("seed", "99999999999999999999999")); }
static void record_nul_byte(void **s) { (void)s; bad_record_parse("nul-byte.rec", -1, WORDS("NUL")); }
static void record_no_such_file(void **s) { (void)s; bad_record_parse("no-such-file.rec", 0, WORDS("cannot open")); }

static void record_nul_byte_in_memory(void **s)
{
    (void)s;
    static const char text[] = "carcassonne-record 1\nvariant base\nseed 1\nplayer Red random\nplayer Bl\0ue random\n---\n";
    char err[ERRN] = "";
    carc_record rec;
    if (carc_record_parse("memory", text, sizeof text - 1, &rec, err, sizeof err) == 0) {
        carc_record_free(&rec);
        fail_msg("a record holding a NUL byte was accepted");
    }
    check_where(err, "memory", -1);
    check_words(err, WORDS("NUL"));
}

static void record_illegal_place(void **s)
{
    (void)s;
    bad_record_replay("illegal-place.rec", 11, WORDS("'place 40,40 r0'", "not a legal option", "Blue", "place 1,0 r0", "place "));
}
static void record_illegal_text(void **s)
{
    (void)s;
    bad_record_replay("illegal-text.rec", 12, WORDS("'fly away'", "not a legal option", "pass"));
}
static void record_draw_unknown(void **s) { (void)s; bad_record_replay("draw-unknown.rec", 10, WORDS("base:Z", "no tile")); }
static void record_draw_other_set(void **s) { (void)s; bad_record_replay("draw-other-set.rec", 7, WORDS("ark:27", "no tile")); }
static void record_draw_none_left(void **s) { (void)s; bad_record_replay("draw-none-left.rec", 10, WORDS("base:C", "left in the pile")); }
static void record_after_end(void **s) { (void)s; bad_record_replay("after-end.rec", 11, WORDS("draw base:U", "after the end")); }
/* `end` goes between two turns (records.md): written while a decision of the
 * turn is pending, replay stops at it with the options there, whether it is
 * the record's last line or more lines follow. */
static void record_end_while_deciding(void **s)
{
    (void)s;
    bad_record_replay("end-pending-last.rec", 9, WORDS("'end'", "between two turns", "Red", "deploy follower city@S", "pass"));
    bad_record_replay("end-pending-mid.rec", 9, WORDS("'end'", "between two turns", "deploy follower city@S"));
    bad_record_replay("end-pending-place.rec", 8, WORDS("'end'", "between two turns", "place 0,-1 r180"));
}

static void record_unknown_variant(void **s)
{
    (void)s;
    char err[ERRN] = "";
    carc_record rec;
    if (carc_record_load(RECORDS "no-variant.rec", &rec, err, sizeof err) < 0) fail_msg("should parse: %s", err);
    carc_rules *r = carc_record_rules(&rec, err, sizeof err);
    carc_record_free(&rec);
    if (r) {
        carc_rules_free(r);
        fail_msg("a record naming variant nosuch-variant got rules");
    }
    check_where(err, RECORDS "no-variant.rec", 0);
    check_words(err, WORDS("nosuch-variant"));
}

/* The good side: the shipped scenario replays to its known end. */
static void record_good_scenario(void **s)
{
    (void)s;
    const char *path = "tests/scenarios/base-city-2tiles.rec";
    char err[ERRN] = "";
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) fail_msg("%s", err);
    carc_rules *r = carc_record_rules(&rec, err, sizeof err);
    if (!r) fail_msg("%s", err);
    carc_game *g = NULL;
    int rc = carc_replay(&rec, r, &g, err, sizeof err);
    int finished = g ? carc_is_finished(g) : -1, red = g ? carc_score(g, 0) : -1;
    carc_game_free(g);
    carc_rules_free(r);
    carc_record_free(&rec);
    if (rc < 0) fail_msg("%s", err);
    assert_int_equal(finished, 1);
    assert_int_equal(red, 4);
}

/* carc.h's one checking rule: every query given an index out of range
 * answers -1, NULL, "?" or "" (0 for a mark count) instead of reading
 * outside the game. */
static void queries_out_of_range(void **state)
{
    (void)state;
    char err[1024];
    carc_rules *r = carc_variant_load("base", NULL, 0, err, sizeof err);
    assert_non_null(r);
    carc_game *g = carc_game_new(r, 2, NULL, 1, err, sizeof err);
    assert_non_null(g);
    static const int bad[] = {-1, 1000000};
    for (int i = 0; i < 2; i++) {
        int b = bad[i], x = 7;
        assert_string_equal(carc_player_name(g, b), "?");
        assert_int_equal(carc_score(g, b), -1);
        assert_int_equal(carc_supply(g, b, "follower"), -1);
        assert_null(carc_option_at(g, b));
        assert_null(carc_award_at(g, b));
        assert_string_equal(carc_reason_name(r, b), "?");
        assert_int_equal(carc_tile_at_index(g, b, &x, NULL, NULL, NULL), -1);
        assert_int_equal(x, 7);
        assert_int_equal(carc_count_placements(g, b), -1);
        assert_int_equal(carc_figure(g, b, NULL, NULL, NULL, NULL, NULL, NULL), -1);
        assert_string_equal(carc_figure_kind_name(r, b), "?");
        assert_int_equal(carc_feature_of(g, b, 0), -1);
        assert_int_equal(carc_feature_of(g, 0, b), -1);
        assert_int_equal(carc_feature_complete(g, b), -1);
        assert_int_equal(carc_segment_at_port(g, b, 0), -1);
        assert_int_equal(carc_segment_at_port(g, 0, b), -1);
        assert_int_equal(carc_segment_kind(g, 0, b), -1);
        assert_int_equal(carc_segment_count(g, b), -1);
        assert_int_equal(carc_segment_canonical_port(g, 0, b), -1);
        assert_int_equal(carc_segment_name(g, 0, b, err, sizeof err), -1);
        assert_int_equal(carc_segment_marks(g, b, 0, 0), 0);
        assert_string_equal(carc_kind_name(r, b), "?");
        assert_string_equal(carc_mark_name(r, b), "?");
        assert_int_equal(carc_type_segments(r, b), -1);
        assert_string_equal(carc_tile_set_of(r, b), "?");
        assert_string_equal(carc_tile_id(r, b), "?");
        assert_int_equal(carc_tile_count(r, b), -1);
    }
    assert_int_equal(carc_supply(g, 0, "no-such-figure"), -1);
    assert_string_equal(carc_decision_label(g), "");
    /* In range, the same calls answer. */
    int x, y, rot, type;
    assert_int_equal(carc_tile_at_index(g, 0, &x, &y, &rot, &type), 0);
    assert_int_equal(x, 0);
    assert_int_equal(y, 0);
    assert_true(carc_feature_of(g, 0, 0) >= 0);
    assert_true(carc_segment_name(g, 0, 0, err, sizeof err) > 0);
    carc_game_free(g);
    carc_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiles_port_twice),
        cmocka_unit_test(tiles_port_uncovered),
        cmocka_unit_test(tiles_edges_disagree),
        cmocka_unit_test(tiles_unknown_mark),
        cmocka_unit_test(tiles_unknown_kind),
        cmocka_unit_test(tiles_duplicate_id),
        cmocka_unit_test(tiles_duplicate_id_adjacent),
        cmocka_unit_test(tiles_count_zero),
        cmocka_unit_test(tiles_count_negative),
        cmocka_unit_test(tiles_count_text),
        cmocka_unit_test(tiles_count_huge),
        cmocka_unit_test(tiles_count_inline_comment),
        cmocka_unit_test(tiles_unknown_key),
        cmocka_unit_test(tiles_unknown_set_key),
        cmocka_unit_test(tiles_unknown_section),
        cmocka_unit_test(tiles_missing_count),
        cmocka_unit_test(tiles_missing_edges),
        cmocka_unit_test(tiles_road_half_port),
        cmocka_unit_test(tiles_city_part_edge),
        cmocka_unit_test(tiles_touches_unknown),
        cmocka_unit_test(tiles_kind_letter_lowercase),
        cmocka_unit_test(tiles_edge_letter_unknown),
        cmocka_unit_test(tiles_wild_bad_word),
        cmocka_unit_test(tiles_wild_half_edge),
        cmocka_unit_test(tiles_borders_non_city),
        cmocka_unit_test(tiles_borders_on_city),
        cmocka_unit_test(tiles_long_line),
        cmocka_unit_test(tiles_not_ini),
        cmocka_unit_test(tiles_stray_line),
        cmocka_unit_test(tiles_empty),
        cmocka_unit_test(tiles_no_such_file),
        cmocka_unit_test(tiles_no_name),
        cmocka_unit_test(tiles_no_title),
        cmocka_unit_test(tiles_two_starts),
        cmocka_unit_test(set_base),
        cmocka_unit_test(set_ark),
        cmocka_unit_test(set_robbers),
        cmocka_unit_test(set_princess_dragon),
        cmocka_unit_test(variant_unknown_section),
        cmocka_unit_test(variant_unknown_key),
        cmocka_unit_test(variant_players_range),
        cmocka_unit_test(variant_players_reversed),
        cmocka_unit_test(variant_players_text),
        cmocka_unit_test(variant_unknown_option),
        cmocka_unit_test(variant_option_enum),
        cmocka_unit_test(variant_option_int),
        cmocka_unit_test(variant_missing_set),
        cmocka_unit_test(variant_count_no_tile),
        cmocka_unit_test(variant_count_bad_value),
        cmocka_unit_test(variant_include_loop),
        cmocka_unit_test(variant_self_include),
        cmocka_unit_test(variant_missing_include),
        cmocka_unit_test(variant_no_tiles),
        cmocka_unit_test(variant_base),
        cmocka_unit_test(variant_include_one_option),
        cmocka_unit_test(variant_include_by_path),
        cmocka_unit_test(variant_override),
        cmocka_unit_test(variant_count_override),
        cmocka_unit_test(record_version_2),
        cmocka_unit_test(record_no_version),
        cmocka_unit_test(record_empty),
        cmocka_unit_test(record_unknown_header),
        cmocka_unit_test(record_no_separator),
        cmocka_unit_test(record_no_separator_moves),
        cmocka_unit_test(record_no_player),
        cmocka_unit_test(record_same_name),
        cmocka_unit_test(record_seed_text),
        cmocka_unit_test(record_seed_negative),
        cmocka_unit_test(record_seed_huge),
        cmocka_unit_test(record_nul_byte),
        cmocka_unit_test(record_nul_byte_in_memory),
        cmocka_unit_test(record_no_such_file),
        cmocka_unit_test(record_illegal_place),
        cmocka_unit_test(record_illegal_text),
        cmocka_unit_test(record_draw_unknown),
        cmocka_unit_test(record_draw_other_set),
        cmocka_unit_test(record_draw_none_left),
        cmocka_unit_test(record_after_end),
        cmocka_unit_test(record_end_while_deciding),
        cmocka_unit_test(record_unknown_variant),
        cmocka_unit_test(record_good_scenario),
        cmocka_unit_test(queries_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
