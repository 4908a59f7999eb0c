/* commands.h - the carc subcommands and their shared argument helpers. */
#ifndef CARC_COMMANDS_H
#define CARC_COMMANDS_H
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

int cmd_play(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_tiles(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_variant(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_analyse(int argc, char **argv);

/* The variants in a folder of variant files (NAME, or SUB/NAME one folder
 * down), sorted; the caller frees each name. The count (at most max). */
int variant_names(const char *dir, char **names, int max);
int cmd_serve(int argc, char **argv);

/* Parses a whole unsigned number; false (and a message) if it is not one. */
bool arg_u64(const char *cmd, const char *flag, const char *s, uint64_t *out);
bool arg_int(const char *cmd, const char *flag, const char *s, int min, int max, int *out);
/* The flags every command takes: --help / -h (prints usage to stdout: the
 * command returns 0) and --allow-plugin-paths. Returns 1 when `a` was
 * --allow-plugin-paths (handled), 2 when it was a request for help (usage
 * printed), 0 otherwise. */
int arg_common(const char *a, void (*usage)(FILE *f));
/* Splits "a,b,c" into at most max parts (in place); -1 if more. */
int arg_split(char *s, char **parts, int max);
/* Prints the error for an argument the command does not take: which
 * commands take it, or the closest flags. Returns 2 (usage). */
int arg_unknown(const char *cmd, const char *arg);
/* A seed from the clock, for games the user did not seed. */
uint64_t clock_seed(void);
/* A per-game seed derived from a study's seed and the game's number. */
uint64_t game_seed(uint64_t seed, uint64_t index);
#endif
