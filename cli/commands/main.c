/* main.c - the carc command: dispatches to its subcommands. */
#include <stdio.h>
#include <string.h>

#include "carc.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "carc - a Carcassonne rules engine\n\n"
            "usage: carc COMMAND [ARGS]\n\n"
            "commands:\n"
            "  play              play a game at the terminal (default: you against a greedy bot)\n"
            "  serve             play in the browser: a local web server for any variant and seats\n"
            "  sim               simulate many games between bots and print statistics\n"
            "  tournament        bots against each other, seats rotated, win rates with 95%% intervals\n"
            "  compare A [B]     the same seeds under two rule sets: which metrics differ, and by how much\n"
            "  train             learn how the bots judge a variant's positions, from self-play\n"
            "  analyse FILE      the search's estimate of each option at a point of a game record\n"
            "  stats merge FILE  the report of a study run in shards (--shard K/N)\n"
            "  study run FILE    run a study written down in a file, from its folder\n"
            "  replay FILE       replay a game record; print the board and scores\n"
            "  render FILE       draw a game record: an SVG board or an HTML replay page\n"
            "  tiles check FILE  validate a tile-set file and summarise it\n"
            "  variants          list the shipped variants\n"
            "  variant show NAME print a variant's resolved configuration\n"
            "  test FILE|DIR...  check scenario records' '#!' expectations\n"
            "  new plugin|script NAME  a starter C plugin or Lua script that builds and passes 'carc test'\n"
            "  help              this text\n"
            "  --version         the version of carc\n\n"
            "A variant is a name (carc variants lists them), a file, or modules joined with '+':\n"
            "--variant base+robbers+fairy. 'carc COMMAND --help' describes each command.\n"
            "Exit status: 0 done, 1 bad input (a variant, option, record or file), 2 bad usage.\n");
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
    if (strcmp(cmd, "play") == 0) return cmd_play(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0) return cmd_serve(argc - 1, argv + 1);
    if (strcmp(cmd, "sim") == 0) return cmd_sim(argc - 1, argv + 1);
    if (strcmp(cmd, "tournament") == 0) return cmd_tournament(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0) return cmd_compare(argc - 1, argv + 1);
    if (strcmp(cmd, "train") == 0) return cmd_train(argc - 1, argv + 1);
    if (strcmp(cmd, "analyse") == 0 || strcmp(cmd, "analyze") == 0) return cmd_analyse(argc - 1, argv + 1);
    if (strcmp(cmd, "stats") == 0) return cmd_stats(argc - 1, argv + 1);
    if (strcmp(cmd, "study") == 0) return cmd_study(argc - 1, argv + 1);
    if (strcmp(cmd, "replay") == 0) return cmd_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 1, argv + 1);
    if (strcmp(cmd, "tiles") == 0) return cmd_tiles(argc - 1, argv + 1);
    if (strcmp(cmd, "variants") == 0) return cmd_variants(argc - 1, argv + 1);
    if (strcmp(cmd, "variant") == 0) return cmd_variant(argc - 1, argv + 1);
    if (strcmp(cmd, "test") == 0) return cmd_test(argc - 1, argv + 1);
    if (strcmp(cmd, "new") == 0) return cmd_new(argc - 1, argv + 1);
    fprintf(stderr, "carc: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
