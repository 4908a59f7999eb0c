/* shard.h - a study in pieces: what `--shard K/N` writes and what `carc
 * stats merge` accepts.
 *
 * A shard file begins with a header line naming the study's identity
 * (everything that decides its games: the command, each side's variant and
 * options and seed, the content hash of every file the rules were read from,
 * the players, the number of games, carc's version), the shard (K of N) and
 * the time it took; then one JSON line a game, each tagged with the
 * identity's id. The merge refuses a shard of another study, a shard given
 * twice, a shard or a game missing, and names the file and what differs. */
#ifndef CARC_SHARD_H
#define CARC_SHARD_H
#include <stdio.h>

#include "study.h"

#define SHARD_MAX_KEYS (8 + CARC_MAX_PLAYERS + 2 * (3 + 32 + STUDY_MAX_SOURCES))

/* The identity as ordered (key, value) pairs, and its id: the first 16 hex
 * digits of the SHA-256 of the pairs. */
typedef struct shard_identity {
    char key[SHARD_MAX_KEYS][48];
    char value[SHARD_MAX_KEYS][600];
    int n;
    char id[17];
} shard_identity;

/* The identity of a study of kind "sim", "tournament" or "compare" (b: side
 * B of a compare, else NULL). */
void shard_identity_of(const char *kind, const study *a, const study *b, shard_identity *id);
/* Writes the header line and every game (a's, then b's) of one shard. */
void shard_write(FILE *f, const char *kind, const study *a, const study *b);
/* Only the game lines (--games-jsonl: one JSON object a game, for R's
 * jsonlite::stream_in or pandas.read_json(lines=True)). */
void shard_write_games(FILE *f, const char *kind, const study *a, const study *b);
/* One study's game lines with `side` as their side and study_id as their
 * study (carc sweep: "baseline", then each point's "KEY=VALUE,..."). */
void shard_write_side(FILE *f, const char *kind, const study *s, const char *side, const char *study_id);
/* Reads the shard files and fills a (and b for a compare) with every game of
 * the study, sorted by game number, and what the report needs of the study;
 * seconds are the shards' times summed. *kind receives the command. -1 with
 * err naming the file (and line) and what is wrong. */
int shard_merge(char *const *paths, int npaths, study *a, study *b, char *kind, size_t kindn, char *err,
                size_t errn);
#endif
