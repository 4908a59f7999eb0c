/* cmd_tiles.c - carc tiles check, carc variants, carc variant show. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term_text.h"
#include "carc.h"
#include "commands.h"

static int check_one(const char *path)
{
    char err[1024] = "";
    carc_rules *r = carc_rules_from_tileset(path, err, sizeof err);
    if (!r) {
        term_puts(stderr, err), fputc('\n', stderr);
        return 1;
    }
    int types = carc_tile_types(r), tiles = 0;
    for (int t = 0; t < types; t++) tiles += carc_tile_count(r, t);
    printf("%s: set %s, %d tile types, %d tiles\n", path, carc_tile_set_of(r, 0), types, tiles);
    carc_tileset_summary(r, stdout);
    carc_rules_free(r);
    return 0;
}

int cmd_tiles(int argc, char **argv)
{
    bool help = argc >= 2 && (strcmp(argv[argc - 1], "--help") == 0 || strcmp(argv[argc - 1], "-h") == 0);
    if (argc < 2 || help) {
        FILE *f = help ? stdout : stderr;
        fprintf(f, "usage: carc tiles check FILE...\n\n"
                   "Validates tile-set files (docs/tile-sets.md): every port covered once, edge\n"
                   "letters that agree with the segments, known kinds and marks, unique ids,\n"
                   "positive counts. Prints a summary of each good set, or the file, line and\n"
                   "reason of the first problem.\n");
        return help ? 0 : 2;
    }
    if (strcmp(argv[1], "check") != 0 || argc < 3) {
        fprintf(stderr, "usage: carc tiles check FILE...\n");
        return 2;
    }
    int rc = 0;
    for (int i = 2; i < argc; i++) rc |= check_one(argv[i]);
    return rc;
}

/* Variant names: NAME for variants/NAME.ini, SUB/NAME one folder down. */
static void list_dir(DIR *d, const char *prefix, const char *path, char **names, int *n)
{
    for (struct dirent *e; (e = readdir(d)) && *n < 256;) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.') continue;
        if (l > 4 && strcmp(e->d_name + l - 4, ".ini") == 0) {
            char name[512];
            snprintf(name, sizeof name, "%s%.*s", prefix, (int)(l - 4), e->d_name);
            names[(*n)++] = strdup(name);
        } else if (!*prefix) {
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            DIR *sd = opendir(sub);
            if (!sd) continue;
            char pre[300];
            snprintf(pre, sizeof pre, "%s/", e->d_name);
            list_dir(sd, pre, sub, names, n);
            closedir(sd);
        }
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int variant_names(const char *dir, char **names, int max)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char *all[256];
    int n = 0;
    list_dir(d, "", dir, all, &n);
    closedir(d);
    qsort(all, (size_t)n, sizeof *all, cmp_str);
    for (int i = max; i < n; i++) free(all[i]);
    if (n > max) n = max;
    memcpy(names, all, (size_t)n * sizeof *names);
    return n;
}

int cmd_variants(int argc, char **argv)
{
    if (argc > 1) {
        printf("usage: carc variants\n\nLists the shipped variants (variants/*.ini), one line each.\n");
        return strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ? 0 : 2;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/variants", carc_data_dir());
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "carc variants: cannot read %s\n", dir);
        return 1;
    }
    closedir(d);
    char *names[256];
    int n = variant_names(dir, names, 256);
    int rc = 0, width = 0;
    for (int i = 0; i < n; i++)
        if ((int)strlen(names[i]) > width) width = (int)strlen(names[i]);
    for (int i = 0; i < n; i++) {
        char err[1024] = "";
        carc_rules *r = carc_variant_load(names[i], NULL, 0, err, sizeof err);
        if (r) {
            printf("%-*s  %s\n", width, names[i], carc_rules_title(r));
            carc_rules_free(r);
        } else {
            printf("%-*s  (broken: %s)\n", width, names[i], err);
            rc = 1;
        }
        free(names[i]);
    }
    return rc;
}

int cmd_variant(int argc, char **argv)
{
    bool help = argc >= 2 && (strcmp(argv[argc - 1], "--help") == 0 || strcmp(argv[argc - 1], "-h") == 0);
    if (!help && argc == 4 && strcmp(argv[2], "--allow-plugin-paths") == 0) {
        carc_allow_plugin_paths(1);
        argv[2] = argv[3];
        argc = 3;
    }
    if (!help && argc == 3 && argv[2][0] == '-') {
        fprintf(stderr, "carc variant: unknown flag '%s' (`carc variant show --help`)\n", argv[2]);
        return 2;
    }
    if (help || argc != 3 || strcmp(argv[1], "show") != 0) {
        fprintf(help ? stdout : stderr, "usage: carc variant show [--allow-plugin-paths] NAME|FILE\n\n"
                                        "Prints the variant's resolved configuration: its includes applied, every\n"
                                        "option with its value (defaults included). --allow-plugin-paths lets it\n"
                                        "load C plugins from paths it gives (native code: only files you trust).\n");
        return help ? 0 : 2;
    }
    char err[1024] = "";
    carc_rules *r = carc_variant_load(argv[2], NULL, 0, err, sizeof err);
    if (!r) {
        term_error("carc variant", err);
        return 1;
    }
    carc_rules_describe(r, stdout);
    carc_rules_free(r);
    return 0;
}
