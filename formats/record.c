/* record.c - read, replay and write game records. */
#include "record.h"
#include "regular_file.h"
#include "atomic_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail_at(char *err, size_t errn, const char *name, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail_at(char *err, size_t errn, const char *name, int line, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errn, "%s:%d: %s", name, line, msg);
    return -1;
}

/* Cuts a comment and surrounding blanks in place. */
static char *clean(char *s)
{
    char *hash = strchr(s, '#');
    if (hash) *hash = 0;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* Formats the message (which may quote the record's own text) and only then
 * frees the record. */
static int parse_fail(carc_record *rec, char *err, size_t errn, const char *name, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int parse_fail(carc_record *rec, char *err, size_t errn, const char *name, int line, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errn, "%s:%d: %s", name, line, msg);
    carc_record_free(rec);
    return -1;
}

int carc_record_parse(const char *name, const char *text, size_t len, carc_record *rec,
                      char *err, size_t errn)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->path, sizeof rec->path, "%s", name);
    if (len > CARC_RECORD_MAX_BYTES)
        return fail_at(err, errn, name, 1, "record too large (%zu bytes; at most %d)", len, CARC_RECORD_MAX_BYTES);
    if (memchr(text, 0, len)) return fail_at(err, errn, name, 1, "a record is text; this one holds a NUL byte");
    rec->buf = malloc(len + 1);
    if (!rec->buf) return fail_at(err, errn, name, 1, "out of memory");
    memcpy(rec->buf, text, len);
    rec->buf[len] = 0;
    int cap = 0, lineno = 0;
    bool header = true, have_version = false, have_variant = false;
    char *save = NULL;
    for (char *raw = rec->buf, *next; raw; raw = next) {
        next = strchr(raw, '\n');
        if (next) *next++ = 0;
        lineno++;
        if (strlen(raw) > CARC_RECORD_MAX_LINE) {
            return parse_fail(rec, err, errn, name, lineno, "line longer than %d characters", CARC_RECORD_MAX_LINE);
        }
        char *s = clean(raw);
        if (!*s) continue;
        if (header && !have_version) {
            if (strcmp(s, "carcassonne-record 1") != 0) {
                if (strncmp(s, "carcassonne-record ", 19) == 0)
                    return parse_fail(rec, err, errn, name, lineno,
                                      "record format version %s is not known (this carc reads 1)", s + 19);
                return parse_fail(rec, err, errn, name, lineno, "expected 'carcassonne-record 1' as the first line");
            }
            have_version = true;
            continue;
        }
        if (header) {
            char key[32] = "";
            const char *val = s;
            size_t kl = strcspn(s, " \t");
            if (kl < sizeof key) {
                memcpy(key, s, kl);
                key[kl] = 0;
                val = s + kl;
                while (isspace((unsigned char)*val)) val++;
            }
            if (strcmp(s, "---") == 0) {
                header = false;
            } else if (strcmp(key, "variant") == 0 && *val) {
                snprintf(rec->variant, sizeof rec->variant, "%s", val);
                have_variant = true;
            } else if (strcmp(key, "seed") == 0) {
                char *end;
                errno = 0;
                unsigned long long v = strtoull(val, &end, 10);
                if (!*val || *end || errno || *val == '-') {
                    return parse_fail(rec, err, errn, name, lineno, "seed expects a whole number, not '%s'", val);
                }
                rec->seed = v;
            } else if (strcmp(key, "player") == 0) {
                char pname[64], agent[64], extra;
                int n = sscanf(val, "%63s %63s %c", pname, agent, &extra);
                if (n != 2 || strlen(pname) >= 32) {
                    return parse_fail(rec, err, errn, name, lineno, "expected 'player NAME AGENT'");
                }
                if (rec->nplayers == CARC_MAX_PLAYERS) {
                    return parse_fail(rec, err, errn, name, lineno, "more than %d players", CARC_MAX_PLAYERS);
                }
                for (int i = 0; i < rec->nplayers; i++)
                    if (strcmp(rec->names[i], pname) == 0) {
                        return parse_fail(rec, err, errn, name, lineno, "two players named '%s'", pname);
                    }
                memcpy(rec->names[rec->nplayers], pname, strlen(pname) + 1);
                memcpy(rec->agents[rec->nplayers], agent, strlen(agent) + 1);
                rec->nplayers++;
            } else if (strcmp(key, "option") == 0 && strchr(val, '=')) {
                if (rec->noptions == 32 || strlen(val) >= 160) {
                    return parse_fail(rec, err, errn, name, lineno, "too many or too long options");
                }
                snprintf(rec->options[rec->noptions++], 160, "%s", val);
            } else {
                return parse_fail(rec, err, errn, name, lineno,
                               "expected a header line (variant, seed, player, option) or '---', not '%s'", s);
            }
            continue;
        }
        if (rec->nlines == CARC_RECORD_MAX_LINES) {
            return parse_fail(rec, err, errn, name, lineno, "more than %d lines", CARC_RECORD_MAX_LINES);
        }
        if (rec->nlines == cap) {
            cap = cap ? cap * 2 : 256;
            carc_record_line *nl = realloc(rec->lines, (size_t)cap * sizeof *nl);
            if (!nl) {
                return parse_fail(rec, err, errn, name, lineno, "out of memory");
            }
            rec->lines = nl;
        }
        rec->lines[rec->nlines].text = s;
        rec->lines[rec->nlines].line = lineno;
        rec->nlines++;
    }
    (void)save;
    if (!have_version) {
        return parse_fail(rec, err, errn, name, 1, "empty record (expected 'carcassonne-record 1')");
    }
    if (!have_variant) {
        return parse_fail(rec, err, errn, name, lineno, "the header names no variant");
    }
    if (header) {
        return parse_fail(rec, err, errn, name, lineno, "no '---' line after the header");
    }
    if (rec->nplayers < 1) {
        return parse_fail(rec, err, errn, name, lineno, "the header names no player");
    }
    return 0;
}

int carc_record_load(const char *path, carc_record *rec, char *err, size_t errn)
{
    memset(rec, 0, sizeof *rec);
    long long size;
    FILE *f = regular_file_open(path, "record", CARC_RECORD_MAX_BYTES, &size, err, errn); /* a FIFO is refused, not waited on */
    if (!f) return -1;
    size_t len = (size_t)size;
    char *text = malloc(len + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    size_t got = fread(text, 1, len, f);
    fclose(f);
    int rc = carc_record_parse(path, text, got, rec, err, errn);
    free(text);
    return rc;
}

void carc_record_free(carc_record *rec)
{
    free(rec->lines);
    free(rec->buf);
    rec->lines = NULL;
    rec->buf = NULL;
    rec->nlines = 0;
}

/* Whether part of a variant's name is a relative path (not a variant name
 * like "base" or "house/road-closer"): it starts "./" or "../", or names a
 * file "*.ini" by a path with '/'. */
static bool relative_path_part(const char *t, size_t len)
{
    if (len == 0 || t[0] == '/') return false;
    if ((len >= 2 && strncmp(t, "./", 2) == 0) || (len >= 3 && strncmp(t, "../", 3) == 0)) return true;
    return len > 4 && memchr(t, '/', len) && strncmp(t + len - 4, ".ini", 4) == 0;
}

int carc_record_variant(const carc_record *rec, char *out, size_t n)
{
    const char *v = rec->variant, *slash = strrchr(rec->path, '/');
    size_t u = 0;
    if (n) out[0] = 0;
    for (const char *t = v;;) {
        size_t len = strcspn(t, "+");
        char part[PATH_MAX + 600];
        snprintf(part, sizeof part, "%.*s", (int)len, t);
        /* Next to the record; when no such file is there, as given (a path
         * from the current directory, as before records were written so). */
        if (relative_path_part(t, len)) {
            char beside[sizeof part];
            snprintf(beside, sizeof beside, "%.*s%s%s", slash ? (int)(slash - rec->path) : 0, rec->path,
                     slash ? "/" : "", part);
            if (access(beside, R_OK) == 0) snprintf(part, sizeof part, "%s", beside);
        }
        int w = snprintf(out + u, n > u ? n - u : 0, "%s%s", u ? "+" : "", part);
        if (w < 0 || (size_t)w >= (n > u ? n - u : 0)) return -1;
        u += (size_t)w;
        if (!t[len]) break;
        t += len + 1;
    }
    return 0;
}

carc_rules *carc_record_rules(const carc_record *rec, char *err, size_t errn)
{
    const char *ov[32];
    for (int i = 0; i < rec->noptions; i++) ov[i] = rec->options[i];
    char v[2 * PATH_MAX], msg[1024];
    if (carc_record_variant(rec, v, sizeof v) < 0) {
        snprintf(err, errn, "%s: variant %s: its paths next to the record are too long", rec->path, rec->variant);
        return NULL;
    }
    carc_rules *r = carc_variant_load(v, ov, rec->noptions, msg, sizeof msg);
    if (!r) snprintf(err, errn, "%s: variant %s: %s", rec->path, rec->variant, msg);
    return r;
}

int carc_draw_text(const carc_game *g, int type, char *buf, size_t n)
{
    const carc_rules *r = carc_game_rules(g);
    return snprintf(buf, n, "draw %s:%s", carc_tile_set_of(r, type), carc_tile_id(r, type));
}

int carc_option_record_text(const carc_game *g, int k, char *buf, size_t n)
{
    int len = carc_option_text(g, k, buf, n);
    /* cut short by buf: a replay would not match it */
    if (len < 0 || (size_t)len >= n || ((size_t)len + 1 == n && n <= CARC_OPTION_TEXT_MAX)) return -1;
    return carc_option_duplicate(g, k) < 0 ? 0 : -1;
}

/* The plugin to blame when options i and j read the same: the one that is
 * not the kernel, the later one when both are plugins. */
static const char *duplicate_owner(const carc_game *g, int i, int j)
{
    const char *a = carc_option_owner(g, i < j ? i : j), *b = carc_option_owner(g, i < j ? j : i);
    return strcmp(b, "kernel") != 0 ? b : a;
}

static void list_options(const carc_game *g, char *out, size_t n)
{
    size_t used = 0;
    int count = carc_option_count(g);
    for (int i = 0; i < count && used + 2 < n; i++) {
        char t[1024];
        carc_option_text(g, i, t, sizeof t);
        int w = snprintf(out + used, n - used, "\n  %s", t);
        if (w < 0 || (size_t)w >= n - used) {
            snprintf(out + used, n - used, "\n  ...");
            break;
        }
        used += (size_t)w;
    }
}

static bool is_end_line(const carc_record *rec, int next)
{
    return next < rec->nlines && strcmp(rec->lines[next].text, "end") == 0;
}

int carc_record_advance(carc_game *g, const carc_record *rec, int *next)
{
    if (!is_end_line(rec, *next)) return carc_advance(g);
    /* Between two turns the rest of the turn asks nothing: the game ends at
     * its turn-end. A decision reached first means the line was written
     * while one was pending; it stays the line to answer it, and
     * carc_record_step stops there. */
    carc_end_now(g);
    int status = carc_advance(g);
    if (status == CARC_FINISHED) (*next)++;
    return status;
}

int carc_record_step(carc_game *g, int status, const carc_record *rec, int *next, char *err, size_t errn)
{
    const carc_record_line *l = *next < rec->nlines ? &rec->lines[*next] : NULL;
    if (status == CARC_FAILED)
        return fail_at(err, errn, rec->path, l ? l->line : 0, "the game stopped: %s", carc_game_error(g));
    if (status == CARC_FINISHED) {
        if (l) return fail_at(err, errn, rec->path, l->line, "'%s' after the end of the game", l->text);
        return CARC_RECORD_STOPPED;
    }
    if (l && is_end_line(rec, *next)) {
        const char *rule = "`end` goes between two turns, after the last answer of one";
        if (status == CARC_NEED_DRAW)
            return fail_at(err, errn, rec->path, l->line, "'end' while the turn's next tile is to be drawn: %s", rule);
        char opts[4096];
        list_options(g, opts, sizeof opts);
        return fail_at(err, errn, rec->path, l->line, "'end' while %s's decision (%s) is pending: %s; the options are:%s",
                       carc_player_name(g, carc_decision_player(g)), carc_decision_label(g), rule, opts);
    }
    if (status == CARC_NEED_DRAW) {
        if (!l) return CARC_RECORD_STOPPED; /* a game in progress, waiting for its next tile */
        if (strncmp(l->text, "draw ", 5) != 0) {
            /* The record leaves this draw to the seeded pile. */
            if (carc_draw(g, -1) < 0)
                return fail_at(err, errn, rec->path, l->line, "the game stopped: %s", carc_game_error(g));
            return CARC_RECORD_PLAYED;
        }
        const carc_rules *rules = carc_game_rules(g);
        const char *name = l->text + 5;
        while (*name == ' ') name++;
        int type = carc_tile_type_find(rules, name);
        if (type < 0)
            return fail_at(err, errn, rec->path, l->line, "'%s': no tile %s in variant %s", l->text, name,
                           carc_rules_name(rules));
        if (carc_draw(g, type) < 0) {
            if (carc_game_error(g)[0])
                return fail_at(err, errn, rec->path, l->line, "'%s': %s", l->text, carc_game_error(g));
            return fail_at(err, errn, rec->path, l->line, "'%s': no %s left in the pile", l->text, name);
        }
        (*next)++;
        return CARC_RECORD_PLAYED;
    }
    /* CARC_NEED_CHOICE */
    if (!l) return CARC_RECORD_STOPPED; /* a game in progress */
    int k = carc_option_match(g, l->text);
    if (k < 0) {
        char opts[4096];
        list_options(g, opts, sizeof opts);
        return fail_at(err, errn, rec->path, l->line, "'%s' is not a legal option for %s (%s); the options are:%s",
                       l->text, carc_player_name(g, carc_decision_player(g)), carc_decision_label(g), opts);
    }
    int dup = carc_option_duplicate(g, k);
    if (dup >= 0)
        return fail_at(err, errn, rec->path, l->line,
                       "'%s' reads like another option of this decision: %s offered two options with one text "
                       "(options must read differently)",
                       l->text, duplicate_owner(g, k, dup));
    if (carc_choose(g, k) < 0)
        return fail_at(err, errn, rec->path, l->line, "the game stopped: %s", carc_game_error(g));
    (*next)++;
    return CARC_RECORD_PLAYED;
}

int carc_replay(const carc_record *rec, const carc_rules *rules, carc_game **out,
                char *err, size_t errn)
{
    *out = NULL;
    const char *names[CARC_MAX_PLAYERS];
    for (int i = 0; i < rec->nplayers; i++) names[i] = rec->names[i];
    char msg[512];
    carc_game *g = carc_game_new(rules, rec->nplayers, names, rec->seed, msg, sizeof msg);
    if (!g) {
        snprintf(err, errn, "%s: %s", rec->path, msg);
        return -1;
    }
    *out = g;
    int next = 0, rc;
    do rc = carc_record_step(g, carc_record_advance(g, rec, &next), rec, &next, err, errn);
    while (rc == CARC_RECORD_PLAYED);
    return rc < 0 ? -1 : 0;
}

/* ---- writing ------------------------------------------------------------------------ */

static int wappend(carc_record_writer *w, const char *s)
{
    size_t n = strlen(s);
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 4096;
        while (cap < w->len + n + 1) cap *= 2;
        char *b = realloc(w->buf, cap);
        if (!b) return -1;
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n + 1);
    w->len += n;
    return 0;
}

int carc_writer_begin(carc_record_writer *w, const char *variant, uint64_t seed, int nplayers,
                      const char *const *names, const char *const *agents,
                      const char *const *options, int noptions)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    char line[640], ref[512];
    int rc = wappend(w, "carcassonne-record 1\n");
    /* Named so that the record replays from any directory: a variant file
     * (alone or in a composition) by its absolute path. */
    if (carc_variant_reference(variant, ref, sizeof ref) < 0) {
        snprintf(w->error, sizeof w->error, "the variant's name with its files' absolute paths is longer than %zu "
                 "characters, more than a record holds", sizeof ref - 1);
        return -1;
    }
    w->variant_abs = strdup(ref);
    if (!w->variant_abs) {
        snprintf(w->error, sizeof w->error, "out of memory");
        return -1;
    }
    rc |= wappend(w, "variant ");
    w->variant_at = w->len;
    w->variant_len = strlen(ref);
    snprintf(line, sizeof line, "%s\nseed %" PRIu64 "\n", ref, seed);
    rc |= wappend(w, line);
    for (int i = 0; i < nplayers; i++) {
        snprintf(line, sizeof line, "player %s %s\n", names[i], agents[i]);
        rc |= wappend(w, line);
    }
    for (int i = 0; i < noptions; i++) {
        snprintf(line, sizeof line, "option %s\n", options[i]);
        rc |= wappend(w, line);
    }
    rc |= wappend(w, "---\n");
    if (rc) snprintf(w->error, sizeof w->error, "out of memory");
    return rc ? -1 : 0;
}

int carc_writer_line(carc_record_writer *w, const char *line)
{
    size_t n = strlen(line);
    w->error[0] = 0;
    if (n > CARC_RECORD_MAX_LINE)
        snprintf(w->error, sizeof w->error, "a record line of %zu characters (a record's lines hold at most %d)", n,
                 CARC_RECORD_MAX_LINE);
    else if (strpbrk(line, "\n\r#"))
        snprintf(w->error, sizeof w->error, "the record line '%.60s' holds a line break or '#' and would not read back",
                 line);
    else if (w->nlines >= CARC_RECORD_MAX_LINES)
        snprintf(w->error, sizeof w->error, "the record would pass its limit of %d move lines", CARC_RECORD_MAX_LINES);
    else if (w->len + n + 1 > CARC_RECORD_MAX_BYTES)
        snprintf(w->error, sizeof w->error, "the record would pass its limit of %d bytes", CARC_RECORD_MAX_BYTES);
    else if (wappend(w, line) || wappend(w, "\n"))
        snprintf(w->error, sizeof w->error, "out of memory");
    else {
        w->nlines++;
        return 0;
    }
    return -1;
}

/* file (absolute) by its path from dir (absolute, resolved): "./x.ini",
 * "../rules/x.ini". */
static int path_from(const char *dir, const char *file, char *out, size_t n)
{
    size_t i = 0, last = 0;
    if (strcmp(dir, "/") == 0) return snprintf(out, n, "./%s", file + 1) < (int)n ? 0 : -1;
    while (dir[i] && dir[i] == file[i]) {
        if (dir[i] == '/') last = i;
        i++;
    }
    if (!dir[i] && file[i] == '/') last = i; /* the file is below dir */
    int ups = 0;
    for (const char *p = dir + last; *p; p++) ups += *p == '/';
    size_t u = 0;
    out[0] = 0;
    for (int k = 0; k < (ups ? ups : 1); k++) {
        int w = snprintf(out + u, n - u, "%s", ups ? "../" : "./");
        if (w < 0 || (size_t)w >= n - u) return -1;
        u += (size_t)w;
    }
    return snprintf(out + u, n - u, "%s", file + last + 1) < (int)(n - u) ? 0 : -1;
}

/* The writer's variant named from the folder of the record at path: each
 * part that is a file by absolute path by its path from there. 0, or -1
 * (out is then the absolute reference). */
static int variant_from(const carc_record_writer *w, const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", w->variant_abs ? w->variant_abs : "");
    if (!w->variant_abs) return -1;
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path) snprintf(dir, sizeof dir, "/");
    if (!realpath(dir, real)) return -1;
    char buf[1024];
    size_t u = 0;
    buf[0] = 0;
    for (const char *t = w->variant_abs;;) {
        size_t len = strcspn(t, "+");
        char part[600], rel[1024];
        snprintf(part, sizeof part, "%.*s", (int)len, t);
        const char *use = part;
        if (part[0] == '/' && len > 4 && strcmp(part + len - 4, ".ini") == 0 && path_from(real, part, rel, sizeof rel) == 0)
            use = rel;
        int k = snprintf(buf + u, sizeof buf - u, "%s%s", u ? "+" : "", use);
        if (k < 0 || (size_t)k >= sizeof buf - u) return -1;
        u += (size_t)k;
        if (!t[len]) break;
        t += len + 1;
    }
    if (u >= n || u > 500) return -1; /* what carc_writer_begin allows */
    memcpy(out, buf, u + 1);
    return 0;
}

/* The record text with its variant named from the folder of path: a new
 * buffer (*len bytes), or NULL when out of memory. */
static char *relocated(const carc_record_writer *w, const char *path, size_t *len, size_t *variant_len)
{
    char ref[1024];
    variant_from(w, path, ref, sizeof ref);
    size_t rl = strlen(ref), tail = w->len - w->variant_at - w->variant_len;
    char *b = malloc(w->variant_at + rl + tail + 1);
    if (!b) return NULL;
    memcpy(b, w->buf, w->variant_at);
    memcpy(b + w->variant_at, ref, rl);
    memcpy(b + w->variant_at + rl, w->buf + w->variant_at + w->variant_len, tail + 1);
    *len = w->variant_at + rl + tail;
    *variant_len = rl;
    return b;
}

int carc_writer_save(const carc_record_writer *w, const char *path, char *err, size_t errn)
{
    if (!w->variant_abs) return atomic_file_write(path, w->buf, w->len, NULL, err, errn);
    size_t len, vl;
    char *b = relocated(w, path, &len, &vl);
    if (!b) {
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    int rc = atomic_file_write(path, b, len, NULL, err, errn);
    free(b);
    return rc;
}

static void sync_close(carc_record_writer *w)
{
    if (w->fd_open) close(w->fd);
    w->fd_open = false;
    w->fd = -1;
}

int carc_writer_sync(carc_record_writer *w, const char *path, bool flush, char *err, size_t errn)
{
    if (w->fd_open && w->sync_path && strcmp(w->sync_path, path) != 0) sync_close(w);
    if (w->fd_open) {
        /* The moves since the last save, appended in one write; on a
         * failure they are cut back off, so the file stays the last whole
         * record, and the record is written whole (compacted) below. */
        size_t before = w->synced, off = before;
        int failed = 0;
        while (off < w->len && !failed) {
            ssize_t n = pwrite(w->fd, w->buf + off, w->len - off, (off_t)off);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) failed = 1;
            else off += (size_t)n;
        }
        if (!failed) w->synced = w->len;
        if (!failed && (!flush || w->flushed == w->len || fdatasync(w->fd) == 0)) {
            if (flush) w->flushed = w->len;
            return 0;
        }
        if (ftruncate(w->fd, (off_t)before) == 0) fdatasync(w->fd);
        sync_close(w);
    }
    free(w->sync_path);
    w->sync_path = strdup(path);
    if (!w->sync_path) {
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    if (w->variant_abs) { /* the whole record, its variant named from path's folder: appends follow it */
        size_t len, vl;
        char *b = relocated(w, path, &len, &vl);
        if (!b) {
            snprintf(err, errn, "%s: out of memory", path);
            return -1;
        }
        free(w->buf);
        w->buf = b;
        w->len = w->cap = len;
        w->cap++;
        w->variant_len = vl;
    }
    if (atomic_file_write(path, w->buf, w->len, &w->fd, err, errn) < 0) return -1;
    w->fd_open = true;
    w->synced = w->flushed = w->len;
    return 0;
}

void carc_writer_free(carc_record_writer *w)
{
    sync_close(w);
    free(w->sync_path);
    free(w->variant_abs);
    free(w->buf);
    memset(w, 0, sizeof *w);
}
