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

char *ini_reader_next(char *str, int num, void *stream)
{
    ini_reader_state *rd = stream;
    if (rd->failed || !fgets(str, num, rd->f)) return NULL;
    rd->cur_line++;
    rd->line = rd->cur_line;
    size_t len = strlen(str);
    rd->bytes = ftell(rd->f); /* counts the bytes a NUL hides from strlen */
    if (rd->bytes < 0 || rd->bytes > INI_MAX_FILE_BYTES) {
        ini_reader_fail(rd, "file too large (more than %d bytes)", INI_MAX_FILE_BYTES);
        return NULL;
    }
    if (len > 0 && str[len - 1] != '\n' && !feof(rd->f)) {
        ini_reader_fail(rd, "line longer than %d characters", num - 3);
        return NULL;
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
