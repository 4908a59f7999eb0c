/*
 * record.h - game records (docs/records.md): read, replay, write.
 *
 * A record is a header (format version, variant, seed, players, option
 * overrides), a `---` line, then one line per choice, chance included.
 */
#ifndef CARC_RECORD_H
#define CARC_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"

/* The limits of a record, one set for the reader and the writer: a record
 * the writer finishes is one every reader accepts (the writer refuses the
 * line that would pass them, and the game stops there). */
#define CARC_RECORD_MAX_BYTES (8 << 20) /* the whole file */
#define CARC_RECORD_MAX_LINES 200000    /* move lines, after '---' */
#define CARC_RECORD_MAX_LINE 1000       /* characters of one line */

typedef struct carc_record_line {
    char *text;   /* without comment and surrounding blanks */
    int line;     /* line number in the file */
} carc_record_line;

typedef struct carc_record {
    char path[512];
    char variant[512];
    uint64_t seed;
    int nplayers;
    char names[CARC_MAX_PLAYERS][32];
    char agents[CARC_MAX_PLAYERS][64];
    char options[32][160];
    int noptions;
    carc_record_line *lines;
    int nlines;
    char *buf;    /* owns the line texts */
} carc_record;

/* Parses a record file. -1 with "file:line: message" in err. */
int carc_record_load(const char *path, carc_record *rec, char *err, size_t errn);
/* Parses a record from memory (name is used in messages). */
int carc_record_parse(const char *name, const char *text, size_t len, carc_record *rec,
                      char *err, size_t errn);
void carc_record_free(carc_record *rec);

/* The record's variant as it loads from the current directory: each file
 * of it (alone or in a '+' composition) that the record names by a relative
 * path ("./my-rule.ini", "../rules/fan.ini", "house/x.ini") is found next to
 * the record (its path joined to the record's folder) when it is there,
 * else taken as given (from the current directory: records written before
 * they kept relative paths); absolute paths and variant names as they are.
 * 0, or -1 when it does not fit in n. */
int carc_record_variant(const carc_record *rec, char *out, size_t n);
/* Loads the record's variant (carc_record_variant) with its option
 * overrides. */
carc_rules *carc_record_rules(const carc_record *rec, char *err, size_t errn);

/* Replays a record on fresh rules: plays every line, then stops at the first
 * decision with no line left (a game in progress) or at the end. On a line
 * that is not a legal option: -1 and a message with file, line, the line and
 * the legal options. *out receives the game (also on error, when one exists). */
int carc_replay(const carc_record *rec, const carc_rules *rules, carc_game **out,
                char *err, size_t errn);

/* Playing a record line by line (carc_replay, carc render's frames):
 *
 *     int next = 0, rc;
 *     do rc = carc_record_step(g, carc_record_advance(g, rec, &next), rec, &next, err, errn);
 *     while (rc == CARC_RECORD_PLAYED);
 *
 * carc_record_advance takes an `end` line at *next (the game ends after this
 * turn) and advances the game; carc_record_step answers the stop it reached
 * with the line at *next: a `draw SET:ID` line names the tile, any other
 * line leaves the draw to the seeded pile; a decision takes the option the
 * line matches. *next moves past each line used. */
enum { CARC_RECORD_PLAYED = 0, CARC_RECORD_STOPPED = 1 };
/* Advances the game, taking an `end` line first. Returns carc_advance's status. */
int carc_record_advance(carc_game *g, const carc_record *rec, int *next);
/* CARC_RECORD_PLAYED: a line (or a seeded draw) answered the stop;
 * CARC_RECORD_STOPPED: the game is finished, or waits with no line left (a
 * game in progress); -1: the game failed, or the line does not fit (err has
 * "file:line: message", with the legal options for a line that matches
 * none). */
int carc_record_step(carc_game *g, int status, const carc_record *rec, int *next, char *err, size_t errn);

/* A record being written while a game is played. Zero it (= {0}) or
 * carc_writer_begin it before use; carc_writer_free it after. */
typedef struct carc_record_writer {
    char *buf;
    size_t len, cap;
    int nlines;        /* move lines, after '---' */
    char error[200];   /* why carc_writer_line refused its line */
    /* carc_writer_sync's file: its path, how much of buf it holds, and it
     * open for appending (fd_open). */
    char *sync_path;
    size_t synced, flushed;
    int fd;
    bool fd_open;
    /* The variant line's place in buf, and the variant as
     * carc_variant_reference names it (files by absolute path): each whole
     * write names those files by their path from the record's folder. */
    size_t variant_at, variant_len;
    char *variant_abs;
} carc_record_writer;

int carc_writer_begin(carc_record_writer *w, const char *variant, uint64_t seed, int nplayers,
                      const char *const *names, const char *const *agents,
                      const char *const *options, int noptions);
/* Appends a move line. -1 with the reason in w->error when the record
 * would then pass a limit a reader holds it to (CARC_RECORD_MAX_*: "the
 * record would pass its 200000 move lines ..."), when the line would not
 * read back as written (a newline or '#' in it), or out of memory; the
 * record is then unchanged, and the game stops there. */
int carc_writer_line(carc_record_writer *w, const char *line);
/* Writes the record to path atomically (temporary file, fsync, rename).
 * A variant file (alone or in a composition) is named by its path from the
 * record's folder ("./my-rule.ini", "../rules/fan.ini"), so that the record
 * and its variant, copied together, replay anywhere (carc_record_variant). */
int carc_writer_save(const carc_record_writer *w, const char *path, char *err, size_t errn);
/* Saves the record to path as a game goes on, in time linear in its length:
 * the first call writes it whole (as carc_writer_save) and keeps the file
 * open; each later call appends the lines added since, in one write, and
 * with flush set also flushes them to disk (fdatasync). An appended line is
 * in the file once the call returns, so a carc killed later leaves it
 * there; a crash of the machine keeps what was flushed. An append that
 * fails (a full disk) is cut back off the file, so it keeps the record of
 * the last save, and the record is written whole again (compacted). Give
 * the same path every call; carc_writer_free closes the file. 0, or -1
 * with "FILE: reason" in err. */
int carc_writer_sync(carc_record_writer *w, const char *path, bool flush, char *err, size_t errn);
void carc_writer_free(carc_record_writer *w);

/* The record line of option k of the pending decision, and whether a replay
 * will take it for option k: 0 if so; -1 if another option of the decision
 * reads the same (a plugin's or script's format can give two options one
 * text), so a record holding it would replay a different game, or when n
 * is too small for the text (give CARC_OPTION_TEXT_MAX + 1). */
int carc_option_record_text(const carc_game *g, int k, char *buf, size_t n);

/* Appends the record line for the pending chance draw of type / option i. */
int carc_draw_text(const carc_game *g, int type, char *buf, size_t n);

#endif
