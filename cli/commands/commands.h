/* commands.h - the carc commands (one cmd_*.c each, listed in
 * command_list.c) and the helpers they share. */
#ifndef CARC_COMMANDS_H
#define CARC_COMMANDS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "flags.h"

extern const cli_command command_play, command_serve, command_sim, command_tournament, command_compare,
    command_train, command_analyse, command_stats, command_stats_report, command_replay, command_render, command_tiles, command_variants,
    command_variant, command_test, command_new, command_study, command_sweep;

/* The variants in a folder of variant files (NAME, or SUB/NAME one folder
 * down), sorted; the caller frees each name. The count (at most max). */
int variant_names(const char *dir, char **names, int max);

/* Splits "a,b,c" into at most max parts (in place); -1 if more. */
int arg_split(char *s, char **parts, int max);
/* A seed from the clock, for games the user did not seed. */
uint64_t clock_seed(void);
/* A per-game seed derived from a study's seed and the game's number. */
uint64_t game_seed(uint64_t seed, uint64_t index);
#endif
