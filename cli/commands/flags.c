/* flags.c - the parser, the help and the messages made from the commands'
 * flag tables (flags.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"
#include "flags.h"

void cli_allow_plugin_paths(void) { carc_allow_plugin_paths(1); }

static bool is_help(const char *s) { return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0; }

static int find_flag(const cli_command *c, const char *flag)
{
    for (int k = 0; k < c->nflags; k++)
        if (strcmp(c->flags[k].name, flag) == 0) return k;
    return -1;
}

bool cli_takes(const cli_command *c, const char *flag) { return is_help(flag) || find_flag(c, flag) >= 0; }

void cli_takers(const char *flag, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < cli_ncommands && len < n; i++)
        if (cli_takes(cli_commands[i], flag))
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", cli_commands[i]->name);
}

/* ---- help ------------------------------------------------------------------------------------ */

void cli_usage_line(const cli_command *c, FILE *f)
{
    fprintf(f, "usage: carc %s%s%s%s\n", c->name, c->operands ? " " : "", c->operands ? c->operands : "",
            c->nflags ? " [OPTIONS]" : "");
}

/* "  --turn N      help", continuation lines of the help under its first. */
static void help_row(FILE *f, const char *label, const char *help, int column)
{
    int len = fprintf(f, "  %s", label);
    if (len + 2 > column) fprintf(f, "\n%*s", column, "");
    else fprintf(f, "%*s", column - len, "");
    for (const char *p = help; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1]) fprintf(f, "%*s", column, "");
    }
    fputc('\n', f);
}

static void flag_label(const cli_flag *fl, char *out, size_t n)
{
    snprintf(out, n, "%s%s%s", fl->name, fl->value ? " " : "", fl->value ? fl->value : "");
}

void cli_help(const cli_command *c, FILE *f)
{
    cli_usage_line(c, f);
    if (c->about) fprintf(f, "\n%s", c->about);
    int column = 14; /* wide enough for "--help, -h" and two spaces */
    for (int k = 0; k < c->nflags; k++) {
        char label[128];
        flag_label(&c->flags[k], label, sizeof label);
        int w = (int)strlen(label) + 4;
        if (w > column && w <= 26) column = w;
    }
    fprintf(f, "\noptions:\n");
    for (int k = 0; k < c->nflags; k++) {
        char label[128];
        flag_label(&c->flags[k], label, sizeof label);
        help_row(f, label, c->flags[k].help, column);
    }
    help_row(f, "--help, -h", "this help", column);
    if (c->more_help) c->more_help(f);
}

void cli_command_list(FILE *f)
{
    for (int i = 0; i < cli_ncommands; i++) {
        const cli_command *c = cli_commands[i];
        char label[128];
        snprintf(label, sizeof label, "%s%s%s", c->name, c->operands ? " " : "", c->operands ? c->operands : "");
        help_row(f, label, c->summary, 20);
    }
}

/* ---- parsing ----------------------------------------------------------------------------------- */

/* The message for a flag the command does not take: what to do instead,
 * which commands take it, or the closest of the command's own flags. */
static void not_taken(const cli_command *c, const char *flag, FILE *err)
{
    char takers[1024];
    cli_takers(flag, takers, sizeof takers);
    for (const cli_hint *h = c->hints; h && h->flag; h++)
        if (strcmp(h->flag, flag) == 0) {
            fprintf(err, "carc %s: %s is not taken here: %s (it is taken by: %s)\n", c->name, flag, h->hint, takers);
            return;
        }
    if (takers[0]) {
        fprintf(err, "carc %s: %s is not an option of carc %s; it is taken by: %s (see carc %s --help)\n", c->name,
                flag, c->name, takers, c->name);
        return;
    }
    const char *names[64];
    int n = 0;
    for (int k = 0; k < c->nflags && n < 63; k++) names[n++] = c->flags[k].name;
    names[n++] = "--help";
    char hint[300];
    carc_suggest(flag, names, n, hint, sizeof hint);
    fprintf(err, "carc %s: unknown flag '%s'%s%s%s (see carc %s --help)\n", c->name, flag,
            hint[0] ? ": did you mean " : "", hint, hint[0] ? "?" : "", c->name);
}

/* A value of an INT or U64 flag: whether it is one (message if not). */
static bool check_number(const cli_command *c, const cli_flag *fl, const char *v, FILE *err)
{
    char *end;
    errno = 0;
    if (fl->kind == CLI_U64) {
        (void)strtoull(v, &end, 10);
        if (!*v || *end || errno || *v == '-' || *v == '+' || *v == ' ') {
            fprintf(err, "carc %s: %s expects a whole number, not '%s'\n", c->name, fl->name, v);
            return false;
        }
    } else if (fl->kind == CLI_INT) {
        long n = strtol(v, &end, 10);
        if (!*v || *end || errno || n < fl->min || n > fl->max) {
            fprintf(err, "carc %s: %s expects a whole number from %d to %d, not '%s'\n", c->name, fl->name, fl->min,
                    fl->max, v);
            return false;
        }
    }
    return true;
}

void cli_args_free(cli_args *a)
{
    free(a->count);
    free(a->last);
    free(a->values);
    free(a->value_flag);
    free(a->operands);
    memset(a, 0, sizeof *a);
}

static void operands_error(const cli_command *c, const char *what, FILE *err)
{
    fprintf(err, "carc %s: %s\n", c->name, what);
    cli_usage_line(c, err);
    fprintf(err, "(carc %s --help says more)\n", c->name);
}

int cli_parse(const cli_command *c, int argc, char **argv, cli_args *a, FILE *out, FILE *err)
{
    memset(a, 0, sizeof *a);
    a->cmd = c;
    size_t nf = (size_t)(c->nflags ? c->nflags : 1), na = (size_t)(argc > 0 ? argc : 1);
    a->count = calloc(nf, sizeof *a->count);
    a->last = calloc(nf, sizeof *a->last);
    a->values = calloc(na, sizeof *a->values);
    a->value_flag = calloc(na, sizeof *a->value_flag);
    a->operands = calloc(na, sizeof *a->operands);
    if (!a->count || !a->last || !a->values || !a->value_flag || !a->operands) {
        fprintf(err, "carc %s: out of memory\n", c->name);
        return CLI_NO_MEMORY;
    }
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (is_help(s)) {
            cli_help(c, out);
            return CLI_HELP;
        }
        if (s[0] != '-' || !s[1]) { /* "-" is an operand: standard input or output */
            a->operands[a->noperands++] = argv[i];
            continue;
        }
        int k = find_flag(c, s);
        if (k < 0) {
            not_taken(c, s, err);
            return CLI_NOT_TAKEN;
        }
        const cli_flag *fl = &c->flags[k];
        const char *v = "";
        if (fl->kind != CLI_SWITCH) {
            if (i + 1 == argc) {
                fprintf(err, "carc %s: %s needs a value (%s; see carc %s --help)\n", c->name, s, fl->value, c->name);
                return CLI_BAD_VALUE;
            }
            v = argv[++i];
            if (!check_number(c, fl, v, err)) return CLI_BAD_VALUE;
            a->values[a->nvalues] = v;
            a->value_flag[a->nvalues++] = k;
        }
        a->count[k]++;
        a->last[k] = v;
    }
    if (a->noperands < c->min_operands) {
        char what[256];
        snprintf(what, sizeof what, "%s missing", c->operands ? c->operands : "an argument");
        operands_error(c, what, err);
        return CLI_BAD_OPERANDS;
    }
    if (c->max_operands >= 0 && a->noperands > c->max_operands) {
        char what[1200];
        snprintf(what, sizeof what, "unexpected argument '%.1000s'%s", a->operands[c->max_operands],
                 c->max_operands ? "" : " (it takes flags alone)");
        operands_error(c, what, err);
        return CLI_BAD_OPERANDS;
    }
    return CLI_OK;
}

int cli_main(const cli_command *c, int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(c, argc, argv, &a, stdout, stderr);
    if (rc == CLI_OK) {
        for (int k = 0; k < c->nflags; k++)
            if (a.count[k] && c->flags[k].effect) c->flags[k].effect();
        rc = c->run(&a);
    } else {
        rc = rc == CLI_HELP ? 0 : rc == CLI_NO_MEMORY ? 1 : 2;
    }
    cli_args_free(&a);
    return rc;
}

/* ---- values ------------------------------------------------------------------------------------ */

/* The table index of a flag the command reads; a flag not in its table, or
 * read as another kind, is a bug in the command. */
static int row(const cli_args *a, const char *flag, int kind)
{
    int k = find_flag(a->cmd, flag);
    if (k < 0 || (kind >= 0 && (int)a->cmd->flags[k].kind != kind)) {
        fprintf(stderr, "carc %s: internal error: reads %s, %s\n", a->cmd->name, flag,
                k < 0 ? "which is not in its flag table" : "as another kind than its table's");
        abort();
    }
    return k;
}

bool cli_given(const cli_args *a, const char *flag) { return a->count[row(a, flag, -1)] > 0; }

const char *cli_text(const cli_args *a, const char *flag, const char *dflt)
{
    int k = row(a, flag, CLI_TEXT);
    return a->count[k] ? a->last[k] : dflt;
}

int cli_int(const cli_args *a, const char *flag, int dflt)
{
    int k = row(a, flag, CLI_INT);
    return a->count[k] ? (int)strtol(a->last[k], NULL, 10) : dflt;
}

uint64_t cli_u64(const cli_args *a, const char *flag, uint64_t dflt)
{
    int k = row(a, flag, CLI_U64);
    return a->count[k] ? (uint64_t)strtoull(a->last[k], NULL, 10) : dflt;
}

int cli_count(const cli_args *a, const char *flag) { return a->count[row(a, flag, -1)]; }

const char *cli_nth(const cli_args *a, const char *flag, int k)
{
    int r = row(a, flag, -1);
    for (int i = 0; i < a->nvalues; i++)
        if (a->value_flag[i] == r && k-- == 0) return a->values[i];
    return NULL;
}
