/* regular_file.c - opening files from elsewhere: regular files only, never
 * blocking (regular_file.h). */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *regular_file_open(const char *path, const char *what, long long max_bytes, long long *size, char *err,
                        size_t errn)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. The
     * type is then checked on what was opened, not on the name. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errn, "%s: cannot open (%s)", path, errno == ENOENT ? "no such file" : strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errn, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    if (st.st_size > max_bytes) {
        snprintf(err, errn, "%s: %s too large (%lld bytes; at most %lld)", path, what, (long long)st.st_size,
                 max_bytes);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errn, "%s: cannot open (%s)", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (size) *size = (long long)st.st_size;
    return f;
}

char *regular_file_read(const char *path, const char *what, long long max_bytes, size_t *len, char *err, size_t errn)
{
    long long size;
    FILE *f = regular_file_open(path, what, max_bytes, &size, err, errn);
    if (!f) return NULL;
    char *buf = malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errn, "%s: out of memory", path);
        return NULL;
    }
    /* A file that grows while read is cut at the size it had, the limit. */
    size_t got = fread(buf, 1, (size_t)size, f);
    fclose(f);
    buf[got] = 0;
    *len = got;
    return buf;
}
