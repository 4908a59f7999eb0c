/* study_args.h - the flags sim, tournament and compare share. */
#ifndef CARC_STUDY_ARGS_H
#define CARC_STUDY_ARGS_H
#include <stdbool.h>
#include <stdio.h>

#include "study.h"

typedef struct study_flags {
    bool json, csv, sharded;
    const char *out;
    const char *games_jsonl; /* --games-jsonl FILE: every game as a JSON line */
} study_flags;

/* Defaults: variant base, 100 games, random,random, seed 1, 1 job. */
void study_defaults(study *s);
/* Parses argv[*i] (and its value): 1 when it was a shared flag, 0 when it is
 * not one, -1 on a bad value (message printed). */
int study_args_parse(const char *cmd, int argc, char **argv, study *s, study_flags *fl, int *i);
void study_args_usage(FILE *f);
/* --out FILE is written whole or not at all: study_out_clear removes FILE
 * before the games are played (a run that fails or is killed leaves no older
 * file of that name, which a merge could take for this run's), study_out
 * opens a temporary file next to it (stdout without --out; NULL and a message
 * if it cannot), study_out_close renames it to FILE once all is written (-1
 * and a message if not; the temporary file is removed). */
void study_out_clear(const study_flags *fl);
FILE *study_out(const char *cmd, const study_flags *fl);
int study_out_close(const char *cmd, const study_flags *fl, FILE *f);
/* Writes --games-jsonl FILE (when given) the same way, whole or not at all:
 * a's games, then b's (compare). 0, or -1 with a message. */
int study_games_jsonl(const char *cmd, const study_flags *fl, const char *kind, const study *a, const study *b);
/* REPORT_TABLE, REPORT_JSON (--json) or REPORT_CSV (--csv). */
int study_format(const study_flags *fl);
/* Prints why an agent name did not parse, with the closest names. */
void agent_error(const char *cmd, const char *spec, const char *err);
/* The whole of `carc sim` and `carc tournament`: parse the shared flags, run
 * the study, print its report (or its shard lines). Returns the exit status. */
int study_command(const char *cmd, int argc, char **argv, bool rotate, void (*usage)(FILE *),
                  void (*report)(const study *, FILE *, int));
#endif
