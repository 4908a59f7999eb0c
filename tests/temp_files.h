/* temp_files.h - the one way the tests make temporary files and folders.
 *
 * Each test program has its own folder, made by mkdtemp under $TMPDIR (or
 * /tmp) on first use, "carc-test.XXXXXX": runs in parallel (make
 * check-asan beside make test, several people on one machine) never share
 * a name. The folder and everything in it are removed when the program
 * exits (by the process that made it), unless CARC_KEEP_TMP is set, to
 * look at what a failed test wrote.
 *
 *   char path[1024];
 *   test_tmp_write(path, sizeof path, "my.ini", "[variant]\n...");
 *   carc_variant_load(path, ...);
 *
 * Paths are written into the caller's buffer, so they live as long as it
 * does. */
#ifndef CARC_TEST_TEMP_FILES_H
#define CARC_TEST_TEMP_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char test_tmp_root[1024];
static pid_t test_tmp_owner;

/* Removes path, and all it holds when it is a folder (links not followed). */
static inline void test_tmp_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            for (struct dirent *e; (e = readdir(d));) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char sub[2048];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                test_tmp_remove_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static inline void test_tmp_cleanup(void)
{
    if (test_tmp_root[0] && getpid() == test_tmp_owner && !getenv("CARC_KEEP_TMP")) test_tmp_remove_tree(test_tmp_root);
}

/* The program's temporary folder (made on the first call; aborts when it
 * cannot be made). */
static inline const char *test_tmp_dir(void)
{
    if (test_tmp_root[0]) return test_tmp_root;
    const char *base = getenv("TMPDIR");
    if (!base || !base[0]) base = "/tmp";
    snprintf(test_tmp_root, sizeof test_tmp_root, "%s/carc-test.XXXXXX", base);
    if (!mkdtemp(test_tmp_root)) {
        perror(test_tmp_root);
        abort();
    }
    test_tmp_owner = getpid();
    atexit(test_tmp_cleanup);
    return test_tmp_root;
}

/* out = the folder's path joined with name; returns out. */
static inline const char *test_tmp_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", test_tmp_dir(), name);
    return out;
}

/* Writes text to name in the folder; out = its path; returns out. */
static inline const char *test_tmp_write(char *out, size_t n, const char *name, const char *text)
{
    test_tmp_path(out, n, name);
    FILE *f = fopen(out, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror(out);
        abort();
    }
    return out;
}

/* A new folder inside it, made by mkdtemp from prefix: out = its path;
 * returns out. */
static inline const char *test_tmp_subdir(char *out, size_t n, const char *prefix)
{
    snprintf(out, n, "%s/%s.XXXXXX", test_tmp_dir(), prefix);
    if (!mkdtemp(out)) {
        perror(out);
        abort();
    }
    return out;
}

#endif
