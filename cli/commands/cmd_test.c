/* cmd_test.c - carc test: replays scenario records and checks their "#!"
 * directives (docs/records.md), one line per record. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "scenario.h"
#include "term_text.h"

#define MAX_RECORDS 100000
#define MAX_DEPTH 8

typedef struct paths {
    char **v;
    int n, cap;
} paths;

static int push(paths *p, const char *s)
{
    if (p->n == MAX_RECORDS) {
        fprintf(stderr, "carc test: more than %d records\n", MAX_RECORDS);
        return -1;
    }
    if (p->n == p->cap) {
        int ncap = p->cap ? p->cap * 2 : 64;
        char **nv = realloc(p->v, (size_t)ncap * sizeof *nv);
        if (!nv) return -1;
        p->v = nv;
        p->cap = ncap;
    }
    if (!(p->v[p->n] = strdup(s))) return -1;
    p->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int is_record(const char *name)
{
    size_t l = strlen(name);
    return l > 4 && strcmp(name + l - 4, ".rec") == 0;
}

/* The folders walked so far, by device and inode: each real folder is
 * walked once, so a symbolic link back up the tree (a loop) or to a folder
 * seen already adds nothing. */
typedef struct seen_dirs {
    dev_t *dev;
    ino_t *ino;
    int n, cap;
} seen_dirs;

/* 1 if st's folder was walked already, else notes it and 0; -1 out of memory. */
static int seen_before(seen_dirs *s, const struct stat *st)
{
    for (int i = 0; i < s->n; i++)
        if (s->dev[i] == st->st_dev && s->ino[i] == st->st_ino) return 1;
    if (s->n == s->cap) {
        int ncap = s->cap ? s->cap * 2 : 64;
        dev_t *d = realloc(s->dev, (size_t)ncap * sizeof *d);
        if (d) s->dev = d;
        ino_t *i = realloc(s->ino, (size_t)ncap * sizeof *i);
        if (i) s->ino = i;
        if (!d || !i) return -1;
        s->cap = ncap;
    }
    s->dev[s->n] = st->st_dev;
    s->ino[s->n++] = st->st_ino;
    return 0;
}

/* Every *.rec under dir, sorted by path; a folder reached twice (through
 * a link) is walked once. */
static int collect(const char *dir, paths *out, int depth, seen_dirs *seen)
{
    struct stat dst;
    if (stat(dir, &dst) == 0) {
        int was = seen_before(seen, &dst);
        if (was) return was < 0 ? -1 : 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "carc test: cannot read directory ");
        term_puts(stderr, dir);
        fputc('\n', stderr);
        return -1;
    }
    paths here = {0};
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        struct stat st;
        if (stat(path, &st) < 0) continue;
        if (S_ISDIR(st.st_mode) ? depth < MAX_DEPTH : is_record(e->d_name)) rc = push(&here, path);
    }
    closedir(d);
    if (here.n) qsort(here.v, (size_t)here.n, sizeof *here.v, cmp_str);
    for (int i = 0; i < here.n; i++) {
        struct stat st;
        if (rc == 0) {
            if (stat(here.v[i], &st) == 0 && S_ISDIR(st.st_mode)) rc = collect(here.v[i], out, depth + 1, seen);
            else rc = push(out, here.v[i]); /* a FIFO named x.rec too: checking it refuses it, unopened */
        }
        free(here.v[i]);
    }
    free(here.v);
    return rc;
}

static int run(const cli_args *a)
{
    bool quiet = cli_given(a, "--quiet");
    char **files = a->operands;
    int nfiles = a->noperands;
    paths all = {0};
    seen_dirs seen = {0};
    int rc = 0;
    for (int i = 0; i < nfiles && rc == 0; i++) {
        struct stat st;
        if (stat(files[i], &st) < 0) {
            fprintf(stderr, "carc test: %s: no such file or directory\n", files[i]);
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            int before = all.n;
            rc = collect(files[i], &all, 0, &seen);
            if (rc == 0 && all.n == before) {
                fprintf(stderr, "carc test: no *.rec file under %s\n", files[i]);
                rc = -1;
            }
        } else {
            rc = push(&all, files[i]);
        }
    }
    int passed = 0, failed = 0;
    for (int i = 0; i < all.n && rc == 0; i++) {
        char rules[256], msg[8192];
        if (scenario_check(all.v[i], rules, sizeof rules, msg, sizeof msg) == 0) {
            passed++;
            if (!quiet) {
                /* names and rule lines come from the files: escaped, as replay does */
                fputs("ok   ", stdout);
                term_puts(stdout, all.v[i]);
                fputs(" (", stdout);
                term_puts(stdout, rules);
                fputs(")\n", stdout);
            }
        } else {
            failed++;
            /* the first line of the reason; the rest (a replay's legal
             * options) indented below it; escaped, since it quotes the file */
            printf("FAIL ");
            for (const char *m = msg; *m;) {
                const char *nl = strchr(m, '\n');
                size_t n = nl ? (size_t)(nl - m) + 1 : strlen(m);
                term_write(stdout, m, n);
                m += n;
                if (nl && *m) fputs("     ", stdout);
            }
            if (msg[0] && msg[strlen(msg) - 1] != '\n') putchar('\n');
        }
        fflush(stdout);
    }
    for (int i = 0; i < all.n; i++) free(all.v[i]);
    free(all.v);
    free(seen.dev);
    free(seen.ino);
    if (rc < 0) return 1; /* a path that does not exist or holds no record: bad input */
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

static const cli_flag flags[] = {
    FLAG_SWITCH("--quiet", "print only the failures and the closing line"),
};

const cli_command command_test = {
    .name = "test",
    .operands = "FILE|DIR...",
    .min_operands = 1,
    .max_operands = -1,
    .summary = "check scenario records' '#!' expectations",
    .about = "Replays scenario records and checks what their '#!' lines expect (final\n"
             "scores, supplies, scoring events in order, the line where replay must stop,\n"
             "the rule IDs cited; docs/records.md). A directory stands for every *.rec file\n"
             "in it and its subdirectories. Prints one line per record ('ok' or 'FAIL' and\n"
             "why) and a closing 'N passed, N failed'; exits 1 when a record failed or a\n"
             "path does not exist, 2 for bad usage.\n",
    CLI_FLAGS(flags),
    .run = run,
};
