/* study_args.h - the flags sim, tournament and compare share. */
#ifndef CARC_STUDY_ARGS_H
#define CARC_STUDY_ARGS_H
#include <stdbool.h>
#include <stdio.h>

#include "flags.h"
#include "report.h"
#include "study.h"

typedef struct study_flags {
    bool json, csv, sharded;
    const char *out;
    const char *games_jsonl; /* --games-jsonl FILE: every game as a JSON line */
    const char *html, *svg_dir; /* --html FILE, --svg-dir DIR: the report drawn (report_html.h) */
} study_flags;

/* Defaults: variant base, 100 games, random,random, seed 1, 1 job. */
void study_defaults(study *s);
/* The rows of the flags the study commands share, for their tables:
 * --variant (not compare's, which names its variants as operands), what to
 * play, and what to print. */
#define STUDY_FLAG_VARIANT FLAG_TEXT("--variant", "NAME", "variant name or file (default base)")
#define STUDY_FLAGS_PLAY                                                                                               \
    FLAG_INT("--games", "N", 1, 100000000, "games to play (default 100)"),                                             \
        FLAG_TEXT("--players", "A,B[,...]", "agents (default random,random); see below"),                              \
        FLAG_U64("--seed", "S", "study seed: game i uses a seed derived from S and i (default 1)"),                    \
        FLAG_INT("--jobs", "J", 1, 256, "threads (default 1); results do not depend on it"),                          \
        FLAG_TEXTS("--option", "KEY=VALUE", "a rule option for this run (repeatable)"),                               \
        FLAG_TEXT("--records", "DIR", "keep every game's record in DIR")
#define STUDY_FLAGS_OUTPUT                                                                                             \
    FLAG_TEXT("--shard", "K/N", "play only games i with i mod N = K-1 and print them as JSON\n"                        \
                                "lines for 'carc stats merge'"),                                                       \
        FLAG_TEXT("--out", "FILE", "write the report (or the shard's lines) into FILE, whole or not at all"),        \
        FLAG_TEXT("--games-jsonl", "FILE", "also write every game as one JSON line into FILE (seed, players,\n"        \
                                           "scores, turns, points by reason), for R or pandas"),                       \
        FLAG_TEXT("--html", "FILE", "also the report as an HTML page with its charts (carc stats report)"),           \
        FLAG_TEXT("--svg-dir", "DIR", "also each chart of the report as an SVG file in DIR"),                          \
        FLAG_SWITCH("--json", "the report as one JSON object"),                                                        \
        FLAG_SWITCH("--csv", "the report as CSV (what was run in '# ' lines first)"),                                  \
        FLAG_ALLOW_PLUGIN_PATHS("the variant")

/* The shared flags' values into the study (and --variant when the command's
 * table has it): -1 on a bad value (message printed: bad usage). */
int study_from_args(const cli_args *a, study *s, study_flags *fl);
/* "agents:" and the list of agents, after the flags in the help. */
void study_agents_help(FILE *f);
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
/* --html FILE and --svg-dir DIR (when given): json (len bytes), the
 * report's JSON, drawn (report_html.h); the page written whole or not at
 * all. 0, or -1 with a message. */
int study_pictures(const char *cmd, const study_flags *fl, const char *json, size_t len);
/* --skill-gap STRONG,WEAK[,...] (compare, sweep): these agents, one a
 * seat, seats rotated from game to game; the measure skill-gap is the
 * first-named agent's win share. 0, or 2 (bad usage, message printed). */
int study_skill_gap(const cli_args *a, study *s);
/* --blocks and --min-effect into cs: 0, or 2 (bad usage, message printed). */
int study_judging(const cli_args *a, compare_settings *cs);
/* REPORT_TABLE, REPORT_JSON (--json) or REPORT_CSV (--csv). */
int study_format(const study_flags *fl);
/* Prints why an agent name did not parse, with the closest names. */
void agent_error(const char *cmd, const char *spec, const char *err);
/* The whole of `carc sim` and `carc tournament`: read the shared flags, run
 * the study, print its report (or its shard lines). Returns the exit status. */
int study_command(const cli_args *a, bool rotate, void (*report)(const study *, FILE *, int));
#endif
