/* test_cli_flags.c - the commands' flag tables (cli/commands/flags.h): for
 * every command and every flag any command takes or any help names, the
 * parser accepts it exactly when the command's --help lists it, and a
 * refused flag's message names exactly the commands whose parsers accept
 * it. Acceptance is what cli_parse does, not what the tables say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "commands.h"
#include "flags.h"

#define MAX_FLAGS 256

typedef struct parse_result {
    int status;
    char *out, *err; /* what it printed (freed by the caller) */
} parse_result;

/* Parses "NAME ARGS..." (argv[0] the command's last word) by c's table. */
static parse_result parse(const cli_command *c, int n, const char *const *args)
{
    char *argv[16];
    argv[0] = (char *)(strrchr(c->name, ' ') ? strrchr(c->name, ' ') + 1 : c->name);
    for (int i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    parse_result r = {0};
    size_t on = 0, en = 0;
    FILE *out = open_memstream(&r.out, &on), *err = open_memstream(&r.err, &en);
    assert_non_null(out);
    assert_non_null(err);
    cli_args a;
    r.status = cli_parse(c, n + 1, argv, &a, out, err);
    cli_args_free(&a);
    fclose(out);
    fclose(err);
    return r;
}

static void result_free(parse_result *r)
{
    free(r->out);
    free(r->err);
}

/* Whether the command's parser takes the flag: anything but "not taken"
 * (a missing or bad value, or a missing operand, is still the flag taken). */
static bool accepts(const cli_command *c, const char *flag)
{
    const char *args[] = {flag, "1"};
    parse_result r = parse(c, 2, args);
    bool taken = r.status != CLI_NOT_TAKEN;
    result_free(&r);
    return taken;
}

/* The help as one string (the caller frees it). */
static char *help_text(const cli_command *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cli_help(c, f);
    assert_int_equal(fclose(f), 0);
    return text;
}

/* The flags listed in the options part of the help: the lines "  -x..."
 * after "options:", each of their leading words that starts with '-'. */
static int listed_flags(const char *help, char flags[][64], int max)
{
    int n = 0;
    const char *p = strstr(help, "\noptions:\n");
    assert_non_null(p);
    for (p = strchr(p + 1, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        const char *w = p + 2;
        while (*w == '-' && n < max) { /* "--help, -h  ..." */
            size_t l = strcspn(w, " ,\n");
            snprintf(flags[n++], 64, "%.*s", (int)l, w);
            w += l;
            while (*w == ',' || (*w == ' ' && w[1] == '-')) w++;
            if (*w == ' ' && w[1] != '-') break;
        }
        if (!strchr(p, '\n')) break;
    }
    return n;
}

static bool holds(char flags[][64], int n, const char *flag)
{
    for (int i = 0; i < n; i++)
        if (strcmp(flags[i], flag) == 0) return true;
    return false;
}

/* Every flag of every table, every "--word" in any help text, and a few
 * that no command takes. */
static int all_flags(char flags[][64], int max)
{
    int n = 0;
    const char *never[] = {"--frobnicate", "--jsn", "-x", "--turns"};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++) snprintf(flags[n++], 64, "%s", never[i]);
    for (int i = 0; i < cli_ncommands; i++) {
        for (int k = 0; k < cli_commands[i]->nflags; k++)
            if (!holds(flags, n, cli_commands[i]->flags[k].name) && n < max)
                snprintf(flags[n++], 64, "%s", cli_commands[i]->flags[k].name);
        char *help = help_text(cli_commands[i]);
        for (const char *p = help; (p = strstr(p, "--"));) {
            size_t l = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)l, p);
            if (l > 2 && (p == help || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\'') && !holds(flags, n, word) &&
                n < max)
                snprintf(flags[n++], 64, "%s", word);
            p += l;
        }
        free(help);
    }
    return n;
}

static void test_help_lists_what_the_parser_takes(void **state)
{
    (void)state;
    static char universe[MAX_FLAGS][64], listed[64][64];
    int n = all_flags(universe, MAX_FLAGS);
    assert_true(n > 30);
    for (int i = 0; i < cli_ncommands; i++) {
        const cli_command *c = cli_commands[i];
        char *help = help_text(c);
        int nl = listed_flags(help, listed, 64);
        assert_true(nl >= c->nflags + 2); /* its own, and --help, -h */
        for (int k = 0; k < nl; k++)
            if (!accepts(c, listed[k])) fail_msg("carc %s --help lists %s, which its parser refuses", c->name, listed[k]);
        for (int f = 0; f < n; f++) {
            bool in_help = holds(listed, nl, universe[f]);
            if (accepts(c, universe[f]) && !in_help)
                fail_msg("carc %s takes %s, which its --help does not list", c->name, universe[f]);
        }
        free(help);
    }
}

/* The commands whose parsers take the flag, "a, b, c" in `carc help` order. */
static void accepting(const char *flag, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < cli_ncommands; i++)
        if (accepts(cli_commands[i], flag))
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", cli_commands[i]->name);
}

static void test_refusal_names_the_commands_that_take_it(void **state)
{
    (void)state;
    static char universe[MAX_FLAGS][64];
    int n = all_flags(universe, MAX_FLAGS);
    int refusals = 0;
    for (int f = 0; f < n; f++) {
        char takers[1024], want[1100];
        accepting(universe[f], takers, sizeof takers);
        snprintf(want, sizeof want, "taken by: %s", takers);
        for (int i = 0; i < cli_ncommands; i++) {
            const cli_command *c = cli_commands[i];
            const char *args[] = {universe[f]};
            parse_result r = parse(c, 1, args);
            if (r.status == CLI_NOT_TAKEN) {
                refusals++;
                char prefix[64];
                snprintf(prefix, sizeof prefix, "carc %s: ", c->name);
                if (strncmp(r.err, prefix, strlen(prefix)) != 0)
                    fail_msg("carc %s %s: the message does not start '%s': %s", c->name, universe[f], prefix, r.err);
                if (takers[0] && !strstr(r.err, want))
                    fail_msg("carc %s %s: wanted '%s' (and no other command), got: %s", c->name, universe[f], want,
                             r.err);
                if (takers[0] && strstr(r.err, want)[strlen(want)] == ',')
                    fail_msg("carc %s %s: names more commands than take it: %s", c->name, universe[f], r.err);
                if (!takers[0] && (!strstr(r.err, "unknown flag") || strstr(r.err, "taken by")))
                    fail_msg("carc %s %s: no command takes it, and the message says: %s", c->name, universe[f], r.err);
            }
            result_free(&r);
        }
    }
    assert_true(refusals > 200);
    printf("%d flags, %d refusals checked\n", n, refusals);
}

/* The example of the issue: --turn belongs to analyse and render. */
static void test_turn_is_taken_by_analyse_and_render(void **state)
{
    (void)state;
    const char *args[] = {"--turn", "3"};
    parse_result r = parse(&command_sim, 2, args);
    assert_int_equal(r.status, CLI_NOT_TAKEN);
    assert_non_null(strstr(r.err, "carc sim: --turn is not an option of carc sim; it is taken by: analyse, render"));
    result_free(&r);
}

static void test_a_typo_gets_the_closest_own_flag(void **state)
{
    (void)state;
    const char *args[] = {"--jsn"};
    parse_result r = parse(&command_sim, 1, args);
    assert_int_equal(r.status, CLI_NOT_TAKEN);
    assert_non_null(strstr(r.err, "unknown flag '--jsn': did you mean `--json`?"));
    result_free(&r);
}

static void test_values(void **state)
{
    (void)state;
    char *argv[] = {"compare", "base", "--games", "5", "--option", "a=1", "--seed", "18446744073709551615",
                    "fairy", "--option", "b=2", "--json", "--games", "7"};
    cli_args a;
    assert_int_equal(cli_parse(&command_compare, 14, argv, &a, stdout, stderr), CLI_OK);
    assert_int_equal(a.noperands, 2);
    assert_string_equal(a.operands[0], "base");
    assert_string_equal(a.operands[1], "fairy");
    assert_int_equal(cli_int(&a, "--games", 100), 7); /* the last one given */
    assert_true(cli_u64(&a, "--seed", 1) == UINT64_MAX);
    assert_int_equal(cli_count(&a, "--option"), 2);
    assert_string_equal(cli_nth(&a, "--option", 0), "a=1");
    assert_string_equal(cli_nth(&a, "--option", 1), "b=2");
    assert_null(cli_nth(&a, "--option", 2));
    assert_true(cli_given(&a, "--json"));
    assert_false(cli_given(&a, "--csv"));
    assert_int_equal(cli_int(&a, "--jobs", 3), 3); /* not given: the default */
    assert_null(cli_text(&a, "--out", NULL));
    cli_args_free(&a);
}

static void expect(const cli_command *c, int n, const char *const *args, int status, const char *phrase)
{
    parse_result r = parse(c, n, args);
    if (r.status != status || !strstr(r.err, phrase))
        fail_msg("carc %s %s: status %d (wanted %d), message: %s (wanted '%s')", c->name, args[0], r.status, status,
                 r.err, phrase);
    result_free(&r);
}

static void test_bad_values_and_operands(void **state)
{
    (void)state;
    expect(&command_sim, 1, (const char *[]){"--games"}, CLI_BAD_VALUE, "carc sim: --games needs a value");
    expect(&command_sim, 2, (const char *[]){"--games", "0"}, CLI_BAD_VALUE,
           "--games expects a whole number from 1 to 100000000, not '0'");
    expect(&command_sim, 2, (const char *[]){"--seed", "-3"}, CLI_BAD_VALUE, "--seed expects a whole number, not '-3'");
    expect(&command_sim, 2, (const char *[]){"--seed", "99999999999999999999"}, CLI_BAD_VALUE,
           "expects a whole number");
    expect(&command_serve, 2, (const char *[]){"--port", "70000"}, CLI_BAD_VALUE, "from 0 to 65535");
    expect(&command_replay, 2, (const char *[]){"a.rec", "b.rec"}, CLI_BAD_OPERANDS, "unexpected argument 'b.rec'");
    expect(&command_replay, 1, (const char *[]){"--json"}, CLI_BAD_OPERANDS, "usage: carc replay FILE");
    expect(&command_compare, 2, (const char *[]){"base", "--variant"}, CLI_NOT_TAKEN,
           "name the variants as arguments");
    /* a value may start with '-': render writes to standard output */
    expect(&command_render, 3, (const char *[]){"x.rec", "--svg", "-"}, CLI_OK, "");
}

static void test_help_wins_and_goes_to_out(void **state)
{
    (void)state;
    for (int i = 0; i < cli_ncommands; i++) {
        const char *args[] = {"-h"};
        parse_result r = parse(cli_commands[i], 1, args);
        assert_int_equal(r.status, CLI_HELP);
        assert_true(strncmp(r.out, "usage: carc ", 12) == 0);
        assert_string_equal(r.err, "");
        result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_lists_what_the_parser_takes),
        cmocka_unit_test(test_refusal_names_the_commands_that_take_it),
        cmocka_unit_test(test_turn_is_taken_by_analyse_and_render),
        cmocka_unit_test(test_a_typo_gets_the_closest_own_flag),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_bad_values_and_operands),
        cmocka_unit_test(test_help_wins_and_goes_to_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
