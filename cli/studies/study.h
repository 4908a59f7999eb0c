/* study.h - many seeded games of one variant between agents, on several
 * threads, with a per-game result that sim, tournament and compare report on
 * and that shards write as JSON lines (one game a line) for `stats merge`.
 *
 * Game i always uses seed game_seed(S, i), whatever --jobs or --shard, so a
 * study split over machines gives exactly the games of the whole. */
#ifndef CARC_STUDY_H
#define CARC_STUDY_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"

#define STUDY_MAX_REASONS 32

typedef struct study_game {
    int index;
    uint64_t seed;
    int agent[CARC_MAX_PLAYERS];   /* agent number per seat */
    int score[CARC_MAX_PLAYERS];
    int turns;
    int points[STUDY_MAX_REASONS]; /* by the study's reason number, all players */
    int fallbacks;                 /* decisions where a bot's trials were cut short (agents.h) */
} study_game;

typedef struct study {
    /* what to play */
    char variant[512];
    char overrides[32][160];
    int noverrides;
    char agents[CARC_MAX_PLAYERS][64]; /* the agents (per seat unless rotate) */
    int nagents;
    int nplayers;
    bool rotate;          /* seat p of game i plays agent (p + i) mod nagents */
    uint64_t seed;
    int games;            /* game numbers 0 .. games-1 */
    int shard_k, shard_n; /* play only the games with i mod n == k - 1 (1 <= k <= n) */
    int jobs;
    const char *records_dir;
    bool progress;        /* a progress line with time left on stderr */
    const char *label;
    /* what came out */
    study_game *results;  /* sorted by index */
    int nresults;
    char reasons[STUDY_MAX_REASONS][32];
    int nreasons;
    char variant_name[256];
    /* what the variant is, for reports (filled by study_run, or read back
     * from shard lines) */
    char title[512];
    char modules[1024];                /* its modules in load order */
    char settings[64][160];            /* "key=value" of every option not at its default */
    int nsettings;
    char version[32];                  /* the carc that played the games */
    double seconds;
    char error[1200];
} study;

/* Initialises defaults: 1 job, shard 1/1, no records. */
void study_init(study *s);
int study_run(study *s);
void study_free(study *s);

/* Writes every game as one JSON line tagged with side ("A", "B", or "").
 * kind is "sim", "tournament" or "compare". */
void study_write_jsonl(const study *s, FILE *f, const char *kind, const char *side);
/* Reads JSON lines written by study_write_jsonl into up to two studies
 * (side A, side B); *kind receives the kind. -1 with err on a bad line. */
int study_read_jsonl(const char *path, study *a, study *b, char *kind, size_t kindn, char *err, size_t errn);
/* Number of a reason name in the study (added when new). */
int study_reason(study *s, const char *name);
#endif
