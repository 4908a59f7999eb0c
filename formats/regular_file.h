/* regular_file.h - opening a file from elsewhere (record, variant, tile set,
 * script) for reading: only a regular file is opened, and opening never
 * blocks (a FIFO or a terminal given as a file would wait for ever). */
#ifndef CARC_REGULAR_FILE_H
#define CARC_REGULAR_FILE_H
#include <stddef.h>
#include <stdio.h>

/* Opens path for reading if it is a regular file of at most max_bytes
 * bytes; *size gets its size (may be NULL). NULL with "PATH: reason" in err
 * otherwise ("PATH: WHAT too large ..." for a file over the limit). The caller fcloses the stream. */
FILE *regular_file_open(const char *path, const char *what, long long max_bytes, long long *size, char *err,
                        size_t errn);

/* Reads the whole regular file (at most max_bytes) into a malloc'd buffer,
 * NUL-terminated; *len gets its length. NULL with err set otherwise. */
char *regular_file_read(const char *path, const char *what, long long max_bytes, size_t *len, char *err, size_t errn);
#endif
