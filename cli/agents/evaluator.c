/* evaluator.c - the learned judgement of a position: weights files and the
 * worth of each player (evaluator.h). */
#include "evaluator.h"

#include <errno.h>
#include <inttypes.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "inireader.h"

typedef struct load_ctx {
    evaluator *e;
    ini_reader_state *rd;
    int format;
} load_ctx;

static bool parse_double(const char *s, double *out, const char **end)
{
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno || !isfinite(v)) return false;
    *out = v;
    if (end) *end = e;
    return true;
}

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
    load_ctx *c = user;
    evaluator *e = c->e;
    if (strcmp(section, "evaluator") == 0) {
        char *end;
        if (strcmp(key, "format") == 0) {
            c->format = (int)strtol(value, &end, 10);
            if (*end || c->format != EVAL_FORMAT) {
                ini_reader_fail(c->rd, "format '%s' is not one this carc reads (%d)", value, EVAL_FORMAT);
                return 0;
            }
        } else if (strcmp(key, "variant") == 0) {
            snprintf(e->variant, sizeof e->variant, "%s", value);
        } else if (strcmp(key, "games") == 0) {
            e->games = (int)strtol(value, &end, 10);
        } else if (strcmp(key, "generations") == 0) {
            e->generations = (int)strtol(value, &end, 10);
        } else if (strcmp(key, "players") == 0) {
            e->players = (int)strtol(value, &end, 10);
            if (*end || e->players < 1 || e->players > CARC_MAX_PLAYERS) {
                ini_reader_fail(c->rd, "players expects a number of players from 1 to %d, not '%s'", CARC_MAX_PLAYERS,
                                value);
                return 0;
            }
        } else if (strcmp(key, "seed") == 0) {
            e->seed = strtoull(value, &end, 10);
        } else if (strcmp(key, "sigma") == 0) {
            if (!parse_double(value, &e->sigma, NULL) || e->sigma <= 0) {
                ini_reader_fail(c->rd, "sigma expects a positive number of points, not '%s'", value);
                return 0;
            }
        } else {
            ini_reader_fail(c->rd, "unknown key '%s' in [evaluator] (format, variant, games, generations, players, seed, sigma)",
                            key);
            return 0;
        }
        return 1;
    }
    if (strcmp(section, "weights") == 0) {
        const char *rest;
        double a, b;
        if (!parse_double(value, &a, &rest) || !parse_double(rest, &b, &rest) || rest[strspn(rest, " \t\r\n")]) {
            ini_reader_fail(c->rd, "'%s' expects two numbers: its weight at the start and at the end of the game", key);
            return 0;
        }
        for (int i = 0; i < e->nweights; i++)
            if (strcmp(e->name[i], key) == 0) {
                ini_reader_fail(c->rd, "'%s' is given twice", key);
                return 0;
            }
        if (e->nweights == EVAL_MAX_FIGURES || strlen(key) >= sizeof e->name[0]) {
            ini_reader_fail(c->rd, "too many weights or too long a name (at most %d of %zu characters)",
                            EVAL_MAX_FIGURES, sizeof e->name[0] - 1);
            return 0;
        }
        snprintf(e->name[e->nweights], sizeof e->name[0], "%s", key);
        e->early[e->nweights] = a;
        e->late[e->nweights] = b;
        e->nweights++;
        return 1;
    }
    ini_reader_fail(c->rd, "unknown section [%s] (a weights file has [evaluator] and [weights])", section);
    return 0;
}

int evaluator_load(evaluator *e, const char *path, char *err, size_t errn)
{
    memset(e, 0, sizeof *e);
    e->players = 2;
    ini_reader_state rd;
    if (ini_reader_open(&rd, path, err, errn) < 0) return -1;
    load_ctx c = {e, &rd, 0};
    int rc = ini_parse_stream(ini_reader_next, &rd, on_entry, &c);
    if (ini_reader_close(&rd, rc, err, errn) < 0) return -1;
    if (c.format != EVAL_FORMAT || e->sigma <= 0 || e->nweights == 0) {
        snprintf(err, errn, "%s: not a weights file: it needs format = %d and sigma in [evaluator], and [weights]",
                 path, EVAL_FORMAT);
        return -1;
    }
    return 0;
}

void evaluator_path_for(const char *variant, int players, char *buf, size_t n)
{
    if (players > 2) snprintf(buf, n, "%s/weights/%s-%dp.ini", carc_data_dir(), variant, players);
    else snprintf(buf, n, "%s/weights/%s.ini", carc_data_dir(), variant);
}

int evaluator_save(const evaluator *e, const char *path, char *err, size_t errn)
{
    /* Made in memory, then saved whole (atomic_file_write): a save that
     * fails (a full disk) leaves the weights saved before, never an empty
     * or half-written file. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    fprintf(f,
            "# How the bots judge a position of '%s', learned from self-play by\n"
            "# carc train (docs/bots.md). A player's worth is the sum of each figure\n"
            "# times its weight; a weight moves from its first number (at the start of\n"
            "# the game) to its second (at the end) with the share of tiles placed.\n"
            "# Worth is in points of final lead over the other players; sigma is how far\n"
            "# final leads fell from the prediction (one standard deviation).\n"
            "[evaluator]\nformat = %d\nvariant = %s\nplayers = %d\ngames = %d\ngenerations = %d\nseed = %" PRIu64
            "\nsigma = %.3f\n\n[weights]\n",
            e->variant, EVAL_FORMAT, e->variant, e->players, e->games, e->generations, e->seed, e->sigma);
    for (int i = 0; i < e->nweights; i++) fprintf(f, "%s = %.4f %.4f\n", e->name[i], e->early[i], e->late[i]);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || !text) {
        free(text);
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    int rc = atomic_file_write(path, text, len, NULL, err, errn);
    free(text);
    return rc;
}

int evaluator_bind(evaluator *e, const carc_rules *r, char *err, size_t errn)
{
    int n = carc_position_figure_count(r);
    if (n > EVAL_MAX_FIGURES) {
        snprintf(err, errn, "the rules report %d figures, more than the %d an evaluator holds", n, EVAL_MAX_FIGURES);
        return -1;
    }
    bool used[EVAL_MAX_FIGURES] = {false};
    for (int i = 0; i < n; i++) {
        char name[64];
        carc_position_figure_name(r, i, name, sizeof name);
        e->index_of[i] = -1;
        for (int w = 0; w < e->nweights; w++)
            if (strcmp(e->name[w], name) == 0) {
                e->index_of[i] = w;
                used[w] = true;
            }
    }
    for (int w = 0; w < e->nweights; w++)
        if (!used[w]) {
            snprintf(err, errn,
                     "the weights (of variant '%s') name '%s', which variant '%s' does not have: they were "
                     "trained for other rules (carc train --variant %s)",
                     e->variant, e->name[w], carc_rules_name(r), carc_rules_name(r));
            return -1;
        }
    e->nfigures = n;
    return 0;
}

double evaluator_progress(const carc_game *g)
{
    int placed = carc_tiles_placed(g), left = carc_pile_left(g);
    return placed + left > 0 ? (double)placed / (placed + left) : 1.0;
}

void evaluator_worth(const evaluator *e, carc_game *g, double worth[CARC_MAX_PLAYERS])
{
    double fig[EVAL_MAX_FIGURES * CARC_MAX_PLAYERS];
    int n = carc_position_figures(g, fig, EVAL_MAX_FIGURES * CARC_MAX_PLAYERS), players = carc_players(g);
    double t = evaluator_progress(g);
    for (int p = 0; p < players; p++) {
        double v = 0;
        for (int i = 0; i < n && i < e->nfigures; i++) {
            int w = e->index_of[i];
            if (w >= 0) v += fig[p * n + i] * (e->early[w] + (e->late[w] - e->early[w]) * t);
        }
        worth[p] = v;
    }
}

void evaluator_leads(const evaluator *e, carc_game *g, double lead[CARC_MAX_PLAYERS])
{
    double w[CARC_MAX_PLAYERS];
    int n = carc_players(g);
    evaluator_worth(e, g, w);
    for (int p = 0; p < n; p++) {
        double other = -1e300;
        for (int q = 0; q < n; q++)
            if (q != p && w[q] > other) other = w[q];
        lead[p] = n > 1 ? w[p] - other : w[p];
    }
}

double evaluator_win_chance(const evaluator *e, double lead)
{
    return 0.5 * erfc(-lead / (e->sigma * sqrt(2.0)));
}
