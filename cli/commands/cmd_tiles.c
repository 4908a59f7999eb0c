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

static int run_tiles(const cli_args *a)
{
    int rc = 0;
    for (int i = 0; i < a->noperands; i++) rc |= check_one(a->operands[i]);
    return rc;
}

const cli_command command_tiles = {
    .name = "tiles check",
    .operands = "FILE...",
    .min_operands = 1,
    .max_operands = -1,
    .summary = "validate a tile-set file and summarise it",
    .about = "Validates tile-set files (docs/tile-sets.md): every port covered once, edge\n"
             "letters that agree with the segments, known kinds and marks, unique ids,\n"
             "positive counts. Prints a summary of each good set, or the file, line and\n"
             "reason of the first problem.\n",
    .run = run_tiles,
};

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

static int run_variants(const cli_args *a)
{
    (void)a;
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

static int run_variant(const cli_args *a)
{
    char err[1024] = "";
    carc_rules *r = carc_variant_load(a->operands[0], NULL, 0, err, sizeof err);
    if (!r) {
        term_error("carc variant", err);
        return 1;
    }
    carc_rules_describe(r, stdout);
    carc_rules_free(r);
    return 0;
}

const cli_command command_variants = {
    .name = "variants",
    .max_operands = 0,
    .summary = "list the shipped variants",
    .about = "Lists the shipped variants (variants/*.ini), one line each.\n",
    .run = run_variants,
};

static const cli_flag variant_flags[] = {
    FLAG_ALLOW_PLUGIN_PATHS("the variant"),
};

const cli_command command_variant = {
    .name = "variant show",
    .operands = "NAME|FILE",
    .min_operands = 1,
    .max_operands = 1,
    .summary = "print a variant's resolved configuration",
    .about = "Prints the variant's resolved configuration: its includes applied, every\n"
             "option with its value (defaults included).\n",
    CLI_FLAGS(variant_flags),
    .run = run_variant,
};
