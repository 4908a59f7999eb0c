/* flags.h - each command's table of the flags it takes, and what is made
 * from the tables: the parser, the --help text, the message for a flag the
 * command does not take (which commands take it, or the closest of its own
 * flags) and the `carc help` list of commands.
 *
 * A command is one cli_command (in its cmd_*.c); command_list.c lists them
 * all. A flag the table does not hold is refused before the command runs,
 * and every flag the table holds is in the command's --help, so the help and
 * the parser cannot disagree. The command reads the values by the flag's
 * name (cli_text(a, "--turn", NULL)); asking for a flag that is not in the
 * table is a programming error and aborts. */
#ifndef CARC_FLAGS_H
#define CARC_FLAGS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cli_kind {
    CLI_SWITCH, /* no value: given or not */
    CLI_TEXT,   /* any text */
    CLI_INT,    /* a whole number from min to max */
    CLI_U64,    /* a whole number from 0 to 2^64-1 (seeds) */
} cli_kind;

typedef struct cli_flag {
    const char *name;     /* "--turn" */
    const char *value;    /* the value's name in the help ("N"); NULL for a switch */
    cli_kind kind;
    int min, max;         /* CLI_INT: the range */
    bool repeat;          /* may be given more than once, every value kept (--option);
                           * otherwise the last one given counts */
    void (*effect)(void); /* done before the command runs when the flag is given */
    const char *help;     /* its help: one line; '\n' starts another */
} cli_flag;

#define FLAG_SWITCH(n, h) {.name = (n), .kind = CLI_SWITCH, .help = (h)}
#define FLAG_TEXT(n, v, h) {.name = (n), .value = (v), .kind = CLI_TEXT, .help = (h)}
#define FLAG_TEXTS(n, v, h) {.name = (n), .value = (v), .kind = CLI_TEXT, .repeat = true, .help = (h)}
#define FLAG_INT(n, v, lo, hi, h) {.name = (n), .value = (v), .kind = CLI_INT, .min = (lo), .max = (hi), .help = (h)}
#define FLAG_U64(n, v, h) {.name = (n), .value = (v), .kind = CLI_U64, .help = (h)}
/* The same in every command that loads a variant (docs/security.md). */
void cli_allow_plugin_paths(void);
#define FLAG_ALLOW_PLUGIN_PATHS(what)                                                                                 \
    {.name = "--allow-plugin-paths", .kind = CLI_SWITCH, .effect = cli_allow_plugin_paths,                             \
     .help = "let " what " load C plugins from paths it gives\n(native code: only files you trust; docs/security.md)"}

/* A flag the command does not take but a user may well try, and what to do
 * instead (compare --variant: "name the variants as arguments"). */
typedef struct cli_hint {
    const char *flag, *hint;
} cli_hint;

typedef struct cli_args cli_args;

typedef struct cli_command {
    const char *name;      /* "analyse", or a command and its subcommand: "stats merge" */
    const char *alias;     /* another name it answers to ("analyze"), or NULL */
    const char *operands;  /* what comes besides flags, for the usage line: "FILE", "A [B]" */
    int min_operands;
    int max_operands;      /* -1: any number */
    const char *summary;   /* its line in `carc help` */
    const char *about;     /* the --help text between the usage line and the flags */
    const cli_flag *flags; /* the flags it takes, in the order of its help */
    int nflags;
    const cli_hint *hints; /* ends with {NULL, NULL}; may be NULL */
    void (*more_help)(FILE *f); /* printed after the flags (the agents); may be NULL */
    int (*run)(const cli_args *a); /* the exit status */
} cli_command;

#define CLI_FLAGS(table) .flags = (table), .nflags = (int)(sizeof(table) / sizeof(table)[0])

/* What the command line gave: the values point into argv. */
struct cli_args {
    const cli_command *cmd;
    int *count;           /* per flag of the table: how often given */
    const char **last;    /* per flag: its last value ("" for a switch) */
    const char **values;  /* every flag value given, in order ... */
    int *value_flag;      /* ... and the flag (table index) of each */
    int nvalues;
    char **operands;      /* the arguments that are not flags, in order */
    int noperands;
};

/* What cli_parse found. */
enum {
    CLI_OK = 0,
    CLI_HELP,         /* --help or -h: the help is printed on `out` */
    CLI_NOT_TAKEN,    /* a flag the command does not take (message printed) */
    CLI_BAD_VALUE,    /* a flag's value is missing or malformed (message printed) */
    CLI_BAD_OPERANDS, /* too few or too many operands (message printed) */
    CLI_NO_MEMORY,
};

/* Parses argv[1..argc-1] (argv[0] is the command's last word) by the
 * command's table into *a; messages go to err, the help to out. Free *a with
 * cli_args_free whatever it returns. Does not apply the flags' effects. */
int cli_parse(const cli_command *c, int argc, char **argv, cli_args *a, FILE *out, FILE *err);
void cli_args_free(cli_args *a);
/* Parses, applies the given flags' effects and runs the command: its exit
 * status (0 after --help, 2 for bad usage). */
int cli_main(const cli_command *c, int argc, char **argv);

/* The help of a command (`carc NAME --help`), and its usage line alone. */
void cli_help(const cli_command *c, FILE *f);
void cli_usage_line(const cli_command *c, FILE *f);
/* Whether the command's table holds the flag. */
bool cli_takes(const cli_command *c, const char *flag);
/* The commands whose tables hold the flag, as "analyse, render" (every
 * command for --help); empty when none. */
void cli_takers(const char *flag, char *out, size_t n);

/* The values. Each asks for a flag of the command's table, of that kind. */
bool cli_given(const cli_args *a, const char *flag);
const char *cli_text(const cli_args *a, const char *flag, const char *dflt);
int cli_int(const cli_args *a, const char *flag, int dflt);
uint64_t cli_u64(const cli_args *a, const char *flag, uint64_t dflt);
/* A repeatable flag's values: how many, and the k-th in the order given. */
int cli_count(const cli_args *a, const char *flag);
const char *cli_nth(const cli_args *a, const char *flag, int k);

/* Every command, in the order of `carc help` (command_list.c). */
extern const cli_command *const cli_commands[];
extern const int cli_ncommands;
/* The list of commands for `carc help`. */
void cli_command_list(FILE *f);
#endif
