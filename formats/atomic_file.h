/* atomic_file.h - saving a file whole or not at all (a record, a weights
 * file): readers and a crash see the old file or the new one, never a mix
 * or an empty file. */
#ifndef CARC_ATOMIC_FILE_H
#define CARC_ATOMIC_FILE_H
#include <stddef.h>

/* Writes the n bytes of data to path: into a new file beside it
 * ("PATH.tmpXXXXXX": an unguessable name, created new, so a link or file
 * planted there is refused, never followed), with the mode 0666 less the
 * umask as any new file; flushed to disk, renamed over path (a link at path
 * is replaced, not followed), and the directory flushed. 0, or -1 with
 * "FILE: reason" in err and path untouched (the new file removed).
 * When keep_fd is not NULL, *keep_fd gets the new file (now path) open for
 * writing, positioned at its end; the caller closes it. */
int atomic_file_write(const char *path, const void *data, size_t n, int *keep_fd, char *err, size_t errn);

/* Flushes the directory holding path to disk (after a rename or a create),
 * best effort: some file systems refuse it. */
void atomic_file_sync_dir(const char *path);
#endif
