#include "inireader.h"
#include "regular_file.h"

#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

int ini_reader_open(ini_reader_state *rd, const char *path, char *err, size_t errn)
{
    memset(rd, 0, sizeof *rd);
    snprintf(rd->path, sizeof rd->path, "%s", path);
    /* Regular files only, opened without blocking (a FIFO would wait for ever). */
    rd->f = regular_file_open(path, "file", INI_MAX_FILE_BYTES, NULL, err, errn);
    if (!rd->f) return -1;
    return 0;
}

/* Reads one line (at most num - 1 bytes) through the FILE's buffer and counts
 * its bytes as they come, a NUL inside the line included: asking the stream
 * where it stands (ftell) would cost a system call per line. */
static int read_line(ini_reader_state *rd, char *str, int num)
{
    int n = 0, c = 0;
    while (n < num - 1 && (c = getc(rd->f)) != EOF) {
        str[n++] = (char)c;
        if (c == '\n') break;
    }
    str[n] = 0;
    rd->bytes += n;
    return n;
}

char *ini_reader_next(char *str, int num, void *stream)
{
    ini_reader_state *rd = stream;
    if (rd->failed || num < 2) return NULL;
    int n = read_line(rd, str, num);
    if (n == 0) return NULL;
    rd->cur_line++;
    rd->line = rd->cur_line;
    if (rd->bytes > INI_MAX_FILE_BYTES) {
        ini_reader_fail(rd, "file too large (more than %d bytes)", INI_MAX_FILE_BYTES);
        return NULL;
    }
    if (str[n - 1] != '\n') {
        /* The buffer is full (or the file ends without a newline): a line
         * longer than the buffer still has bytes to come. */
        int c = getc(rd->f);
        if (c != EOF) {
            ungetc(c, rd->f);
            ini_reader_fail(rd, "line longer than %d characters", num - 3);
            return NULL;
        }
    }
    const char *p = str + strspn(str, " \t");
    if (*p == '[') rd->section_line = rd->cur_line;
    /* The INI library would read an indented line as the continuation of the
     * previous value ("sets = base" then "  robbers" becomes one value);
     * nobody means that by accident, so say so. */
    if (p != str && *p && *p != '\n' && *p != '\r' && *p != '#' && *p != ';') {
        ini_reader_fail(rd, "the line starts with a space or tab: write keys, values and sections at the start of the line");
        return NULL;
    }
    return str;
}

void ini_reader_fail(ini_reader_state *rd, const char *fmt, ...)
{
    if (rd->failed) return;
    rd->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->msg, sizeof rd->msg, fmt, ap);
    va_end(ap);
}

int ini_reader_close(ini_reader_state *rd, int parse_rc, char *err, size_t errn)
{
    if (rd->f) fclose(rd->f);
    rd->f = NULL;
    if (rd->failed) {
        snprintf(err, errn, "%s:%d: %s", rd->path, rd->line, rd->msg);
        return -1;
    }
    if (parse_rc > 0) {
        snprintf(err, errn, "%s:%d: expected 'key = value' or a [section] header", rd->path, parse_rc);
        return -1;
    }
    if (parse_rc < 0) {
        snprintf(err, errn, "%s: cannot read", rd->path);
        return -1;
    }
    return 0;
}
