/* study.h - many seeded games of one variant between agents, on several
 * threads, with a per-game result that sim, tournament and compare report on
 * and that shards write as JSON lines (shard.h) for `stats merge`.
 *
 * Game i always uses seed game_seed(S, i), whatever --jobs or --shard, so a
 * study split over machines gives exactly the games of the whole. */
#ifndef CARC_STUDY_H
#define CARC_STUDY_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"
#include "content_hash.h"
#include "game_trace.h"

#define STUDY_MAX_REASONS 32
#define STUDY_MAX_SOURCES 48

typedef struct study_game {
    int index;
    uint64_t seed;
    int agent[CARC_MAX_PLAYERS];   /* agent number per seat */
    int score[CARC_MAX_PLAYERS];
    int turns;
    int points[STUDY_MAX_REASONS]; /* by the study's reason number, all players */
    int fallbacks;                 /* decisions where a bot's trials were cut short (agents.h) */
    game_trace trace;              /* how the game went: leads, choices (measures.h) */
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
    int first_game;       /* play only from this game number on (a study extended; 0) */
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
    /* every file the rules were read from (variant files, tile sets,
     * scripts, plugins) with its SHA-256 */
    char sources[STUDY_MAX_SOURCES][512];
    char source_name[STUDY_MAX_SOURCES][512];  /* as reports name it: variants/base.ini, my-rule.ini */
    char source_hash[STUDY_MAX_SOURCES][CONTENT_HASH_HEX];
    int nsources;
    double seconds;       /* time spent playing (summed over the shards merged) */
    int shards;           /* how many shards the results came from (1: one run) */
    char error[1200];
} study;

/* The study file a report was run from (carc study run), with its SHA-256;
 * "" otherwise. Reports name it. */
extern char study_file_name[512];
extern char study_file_hash[CONTENT_HASH_HEX];

/* Initialises defaults: 1 job, shard 1/1, no records. */
void study_init(study *s);
int study_run(study *s);
void study_free(study *s);

/* Number of a reason name in the study (added when new). */
int study_reason(study *s, const char *name);
#endif
