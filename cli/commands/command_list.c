/* command_list.c - every command of carc, in the order `carc help` lists
 * them; main.c dispatches by it and flags.c finds by it which commands take
 * a flag. */
#include "commands.h"
#include "flags.h"

const cli_command *const cli_commands[] = {
    &command_play,     &command_serve,   &command_sim,   &command_tournament, &command_compare, &command_sweep,
    &command_train,    &command_analyse, &command_stats, &command_stats_report, &command_study, &command_replay,     &command_render,
    &command_tiles,    &command_variants, &command_variant, &command_test,     &command_new,
};
const int cli_ncommands = (int)(sizeof cli_commands / sizeof cli_commands[0]);
