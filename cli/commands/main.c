/* main.c - the carc command: dispatches to its commands (command_list.c). */
#include <stdio.h>
#include <string.h>

#include "carc.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "carc - a Carcassonne rules engine\n\n"
               "usage: carc COMMAND [ARGS]\n\n"
               "commands:\n");
    cli_command_list(f);
    fprintf(f, "  help              this text\n"
               "  --version         the version of carc\n\n"
               "A variant is a name (carc variants lists them), a file, or modules joined with '+':\n"
               "--variant base+robbers+fairy. 'carc COMMAND --help' describes each command.\n"
               "Exit status: 0 done, 1 bad input (a variant, option, record or file), 2 bad usage.\n");
}

/* The command named by argv[1] (and argv[2] for a command of two words,
 * "stats merge"): *words is how many of argv it took. */
static const cli_command *find_command(int argc, char **argv, int *words)
{
    const cli_command *found = NULL;
    for (int i = 0; i < cli_ncommands; i++) {
        const cli_command *c = cli_commands[i];
        size_t first = strcspn(c->name, " ");
        bool named = (strlen(argv[1]) == first && strncmp(argv[1], c->name, first) == 0) ||
                     (c->alias && strcmp(argv[1], c->alias) == 0);
        if (!named) continue;
        *words = 1;
        if (!c->name[first]) return c;
        const char *sub = c->name + first + 1;
        if (argc > 2 && strcmp(argv[2], sub) == 0) {
            *words = 2;
            return c;
        }
        if (!found) found = c; /* "stats" without a known second word: the first "stats" command */
    }
    if (found) *words = 1;
    return found;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("carc %s\n", CARC_VERSION);
        return 0;
    }
    int words = 0;
    const cli_command *c = find_command(argc, argv, &words);
    if (!c) {
        fprintf(stderr, "carc: unknown command '%s'\n\n", cmd);
        usage(stderr);
        return 2;
    }
    if (words == 1 && strchr(c->name, ' ')) { /* "carc stats" without "merge" */
        if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
            cli_help(c, stdout);
            return 0;
        }
        if (argc > 2) fprintf(stderr, "carc %s: unknown subcommand '%s'\n", cmd, argv[2]);
        cli_usage_line(c, stderr);
        fprintf(stderr, "(carc %s --help says more)\n", c->name);
        return 2;
    }
    return cli_main(c, argc - words, argv + words);
}
