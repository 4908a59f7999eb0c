/* inireader.h - feeds inih line by line so that every error can name the
 * file and line, refuses over-long lines and oversized files. */
#ifndef CARC_INIREADER_H
#define CARC_INIREADER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define INI_MAX_FILE_BYTES (4 << 20)
/* Characters of a line (inih's INI_MAX_LINE, 200, less the line break and
 * the NUL): what carc writes as a variant (variant show) keeps to it. */
#define INI_LINE_MAX_CHARS 197

typedef struct ini_reader_state {
    FILE *f;
    char path[512];
    int cur_line;      /* the last line read */
    int section_line;  /* the line of the last [section] header */
    int line;          /* the line an error is reported at */
    long bytes;        /* read so far: the size limit holds for what is read,
                          not only for what stat said (a file that grows) */
    bool failed;
    char msg[400];
} ini_reader_state;

int ini_reader_open(ini_reader_state *rd, const char *path, char *err, size_t errn);
/* The ini_reader callback for ini_parse_stream. */
char *ini_reader_next(char *str, int num, void *stream);
/* Records the first error at rd->line (printf-style). */
void ini_reader_fail(ini_reader_state *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Closes the file; returns -1 with "path:line: message" in err on failure. */
int ini_reader_close(ini_reader_state *rd, int parse_rc, char *err, size_t errn);
#endif
