/* atomic_file.c - saving a file whole or not at all (atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The directory part of path ("." when there is none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

void atomic_file_sync_dir(const char *path)
{
    char *dir = dir_of(path);
    int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
}

/* Six letters nobody can guess (getrandom; the clock and the process as a
 * fallback where it is missing). */
static void random_suffix(char *out)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid() << 20 ^ (uint64_t)(uintptr_t)out;
        for (int i = 0; i < 6; i++) r[i] = (unsigned char)(x >> (8 * i));
    }
    for (int i = 0; i < 6; i++) out[i] = letters[r[i] % (sizeof letters - 1)];
    out[6] = 0;
}

int atomic_file_write(const char *path, const void *data, size_t n, int *keep_fd, char *err, size_t errn)
{
    if (keep_fd) *keep_fd = -1;
    size_t tn = strlen(path) + sizeof ".tmpXXXXXX";
    char *tmp = malloc(tn); /* as long as the path needs: never cut onto a neighbour's name */
    if (!tmp) {
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    /* Created new with the mode any new file gets (0666 less the umask:
     * the kernel applies it), unlike mkstemp's 0600. */
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        char suffix[7];
        random_suffix(suffix);
        snprintf(tmp, tn, "%s.tmp%s", path, suffix);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(err, errn, "%s: cannot write (%s)", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    const char *p = data;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            snprintf(err, errn, "%s: write failed (%s)", tmp, w < 0 ? strerror(errno) : "nothing written");
            close(fd);
            unlink(tmp);
            free(tmp);
            return -1;
        }
        off += (size_t)w;
    }
    int flushed = fsync(fd) == 0;
    if (!flushed) snprintf(err, errn, "%s: cannot flush (%s)", tmp, strerror(errno));
    if (!keep_fd || !flushed) {
        if (close(fd) != 0 && flushed) {
            snprintf(err, errn, "%s: cannot flush (%s)", tmp, strerror(errno));
            flushed = 0;
        }
        fd = -1;
    }
    if (!flushed) {
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errn, "%s: cannot replace (%s)", path, strerror(errno));
        if (fd >= 0) close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    /* The rename is durable once the directory is on disk too (a crash of
     * the machine, not only of carc, keeps the new file). */
    atomic_file_sync_dir(path);
    if (keep_fd) *keep_fd = fd;
    return 0;
}
