/* suggest.c - "did you mean": the known names closest to a typo, and the
 * names of the shipped variants (modules). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carc.h"

/* Edit distance (insert, delete, substitute, swap of neighbours), capped at
 * 64 characters a word: names are short. */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 64 || lb > 64) return 99;
    int d[65][65];
    for (int i = 0; i <= la; i++) d[i][0] = i;
    for (int j = 0; j <= lb; j++) d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

int carc_suggest(const char *word, const char *const *cands, int n, char *out, size_t outn)
{
    if (outn) out[0] = 0;
    int best = 99, len = (int)strlen(word);
    int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    for (int i = 0; i < n; i++) {
        int d = distance(word, cands[i]);
        /* a prefix or a word contained ("robber" for "robbers") is close too */
        if (d > limit && len >= 3 && strstr(cands[i], word)) d = limit;
        if (d < best) best = d;
    }
    if (best > limit) return 0;
    int shown = 0;
    for (int i = 0; i < n && shown < 3; i++) {
        int d = distance(word, cands[i]);
        if (d > limit && len >= 3 && strstr(cands[i], word)) d = limit;
        if (d != best) continue;
        bool dup = false;
        for (int k = 0; k < i && !dup; k++) dup = strcmp(cands[k], cands[i]) == 0;
        if (dup) continue;
        size_t used = strlen(out);
        snprintf(out + used, outn > used ? outn - used : 0, "%s`%s`", shown ? " or " : "", cands[i]);
        shown++;
    }
    return shown;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* NAME for variants/NAME.ini, SUB/NAME one folder down. */
static void list_dir(const char *path, const char *prefix, char ***names, int *n, int *cap)
{
    DIR *d = opendir(path);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) && *n < 1024;) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.') continue;
        if (l > 4 && strcmp(e->d_name + l - 4, ".ini") == 0) {
            if (*n == *cap) {
                int nc = *cap ? *cap * 2 : 32;
                char **nn = realloc(*names, (size_t)nc * sizeof *nn);
                if (!nn) break;
                *names = nn;
                *cap = nc;
            }
            char name[600];
            snprintf(name, sizeof name, "%s%.*s", prefix, (int)(l - 4), e->d_name);
            (*names)[(*n)++] = strdup(name);
        } else if (!*prefix) {
            char sub[1200], pre[300];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            snprintf(pre, sizeof pre, "%s/", e->d_name);
            list_dir(sub, pre, names, n, cap);
        }
    }
    closedir(d);
}

int carc_variant_names(char ***names)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    int n = 0, cap = 0;
    *names = NULL;
    list_dir(dir, "", names, &n, &cap);
    if (n) qsort(*names, (size_t)n, sizeof **names, cmp_str);
    return n;
}

void carc_variant_names_free(char **names, int n)
{
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}
