/* report.c - what sim, tournament and compare print, from per-game results:
 * readable tables, JSON, CSV. Every rate and mean comes with its 95%
 * interval. */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "json_io.h"
#include "measures.h"

static double *column(int n)
{
    double *x = calloc((size_t)(n > 0 ? n : 1), sizeof *x);
    if (!x) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    return x;
}

/* ---- what was run: every report starts with it ------------------------------------- */

void report_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The agent that played seat p (sim: the same in every game). */
static const char *seat_agent(const study *s, int p)
{
    return s->agents[s->nresults ? s->results[0].agent[p] : p];
}

/* "P1 random, P2 mcts:200ms" (sim) or "random, greedy (seats rotated)". */
static void players_line(const study *s, char *out, size_t n)
{
    out[0] = 0;
    for (int p = 0; p < (s->rotate ? s->nagents : s->nplayers); p++) {
        size_t u = strlen(out);
        if (s->rotate) snprintf(out + u, n - u, "%s%s", p ? ", " : "", s->agents[p]);
        else snprintf(out + u, n - u, "%sP%d %s", p ? ", " : "", p + 1, seat_agent(s, p));
    }
    if (s->rotate) {
        size_t u = strlen(out);
        snprintf(out + u, n - u, " (%d seats, rotated from game to game)", s->nplayers);
    }
}

static void settings_line(const study *s, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; i < s->nsettings; i++) {
        size_t u = strlen(out);
        snprintf(out + u, n - u, "%s%s", i ? ", " : "", s->settings[i]);
    }
    if (!s->nsettings) snprintf(out, n, "all at their defaults");
}

static void overrides_line(const study *s, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; i < s->noverrides; i++) {
        size_t u = strlen(out);
        snprintf(out + u, n - u, "%s%s", i ? ", " : "", s->overrides[i]);
    }
}

/* Text: one line each, `prefix` before every line ("" or "A " for compare). */
static void header_text(const study *s, FILE *f, const char *prefix)
{
    char buf[4096];
    fprintf(f, "%svariant   %s", prefix, s->variant_name);
    if (strcmp(s->variant, s->variant_name) != 0) fprintf(f, " (%s)", s->variant);
    fprintf(f, "\n%s          %s\n", prefix, s->title);
    fprintf(f, "%smodules   %s\n", prefix, s->modules);
    for (int i = 0; i < s->nsources; i++)
        fprintf(f, "%s%s %s sha256:%.12s\n", prefix, i ? "         " : "files    ", s->source_name[i], s->source_hash[i]);
    if (study_file_name[0] && *prefix != 'B') /* once: not again for B */
        fprintf(f, "%sstudy     %s sha256:%.12s\n", prefix, study_file_name, study_file_hash);
    settings_line(s, buf, sizeof buf);
    fprintf(f, "%soptions   %s%s", prefix, s->nsettings ? "not at their default: " : "", buf);
    if (s->noverrides) {
        overrides_line(s, buf, sizeof buf);
        fprintf(f, " (given with --option: %s)", buf);
    }
    players_line(s, buf, sizeof buf);
    fprintf(f, "\n%splayers   %s\n", prefix, buf);
    fprintf(f, "%sgames     %d, study seed %llu\n", prefix, s->nresults, (unsigned long long)s->seed);
    long fallbacks = 0;
    for (int i = 0; i < s->nresults; i++) fallbacks += s->results[i].fallbacks;
    if (fallbacks)
        fprintf(f, "%sbots      chose cheaply in %ld decisions: the scripts' account for trying moves was spent"
                   " (docs/security.md)\n", prefix, fallbacks);
}

json_t *study_about_json(const study *s)
{
    json_t *mods = json_array(), *opts = json_object(), *overrides = json_array();
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s->modules);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        json_array_append_new(mods, json_text(t));
    for (int i = 0; i < s->nsettings; i++) {
        const char *eq = strchr(s->settings[i], '=');
        char key[160];
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - s->settings[i]) : 0, s->settings[i]);
        char *k = text_utf8(key);
        if (k) json_object_set_new(opts, k, json_text(eq ? eq + 1 : ""));
        free(k);
    }
    for (int i = 0; i < s->noverrides; i++) json_array_append_new(overrides, json_text(s->overrides[i]));
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "carc_version",
                     json_text(s->version[0] ? s->version : CARC_VERSION), "variant", json_text(s->variant_name),
                     "variant_given", json_text(s->variant), "title", json_text(s->title), "modules", mods,
                     "options_not_default", opts, "option_overrides", overrides);
}

/* JSON: what was run (study_about_json), the files it read with their
 * hashes, the study file, the players, the games and the seed. */
json_t *report_header_json(const study *s)
{
    json_t *h = study_about_json(s), *files = json_array(), *players = json_array();
    for (int i = 0; i < s->nsources; i++)
        json_array_append_new(files, json_pack("{s:o, s:s}", "file", json_text(s->source_name[i]), "sha256",
                                               s->source_hash[i]));
    json_object_set_new(h, "files", files);
    if (study_file_name[0])
        json_object_set_new(h, "study_file", json_pack("{s:o, s:s}", "file", json_text(study_file_name), "sha256",
                                                        study_file_hash));
    for (int p = 0; p < (s->rotate ? s->nagents : s->nplayers); p++)
        json_array_append_new(players, json_text(s->rotate ? s->agents[p] : seat_agent(s, p)));
    json_object_set_new(h, "players", players);
    json_object_set_new(h, "seats_rotated", json_boolean(s->rotate));
    json_object_set_new(h, "games", json_integer(s->nresults));
    json_object_set_new(h, "seed", json_u64(s->seed));
    return h;
}

/* The final scores of every player in every game of s as a histogram: bins
 * of one width (1, 2 or 5 times a power of ten, about 20 bins over the
 * range of s and of `also`, so that two sides share their bins), each
 * {"from": the lowest score in it, "count"}. */
static json_t *score_distribution_json(const study *s, const study *also)
{
    int lo = 0, hi = 0, any = 0;
    const study *both[2] = {s, also};
    for (int k = 0; k < 2; k++)
        for (int i = 0; both[k] && i < both[k]->nresults; i++)
            for (int p = 0; p < both[k]->nplayers; p++) {
                int v = both[k]->results[i].score[p];
                if (!any++ || v < lo) lo = v;
                if (any == 1 || v > hi) hi = v;
            }
    int width = 1;
    for (int k = 0; hi - lo + 1 > 20 * width && width < 100000000; k++) /* 2, 5, 10, 20, 50, ... */
        width = k % 3 == 1 ? width / 2 * 5 : width * 2;
    int from = (int)floor((double)lo / width) * width, nbins = any ? (hi - from) / width + 1 : 0;
    int *count = calloc((size_t)(nbins > 0 ? nbins : 1), sizeof *count);
    if (!count) return NULL;
    for (int i = 0; i < s->nresults; i++)
        for (int p = 0; p < s->nplayers; p++) count[(s->results[i].score[p] - from) / width]++;
    json_t *bins = json_array();
    for (int b = 0; b < nbins; b++)
        json_array_append_new(bins, json_pack("{s:i, s:i}", "from", from + b * width, "count", count[b]));
    free(count);
    return json_pack("{s:s, s:i, s:o}", "measure", "final score (every player of every game)", "bin_width", width,
                     "bins", bins);
}

/* CSV: "# key: value" lines before the table (read.csv(comment.char = "#"),
 * pandas.read_csv(comment = "#")). */
static void header_csv(const study *s, FILE *f, const char *side)
{
    char buf[4096];
    fprintf(f, "# carc %s %s\n", s->version[0] ? s->version : CARC_VERSION, s->label ? s->label : "");
    fprintf(f, "# %svariant: %s (%s): %s\n", side, s->variant_name, s->variant, s->title);
    fprintf(f, "# %smodules: %s\n", side, s->modules);
    for (int i = 0; i < s->nsources; i++)
        fprintf(f, "# %sfile: %s sha256:%s\n", side, s->source_name[i], s->source_hash[i]);
    if (study_file_name[0] && *side != 'B')
        fprintf(f, "# study file: %s sha256:%s\n", study_file_name, study_file_hash);
    settings_line(s, buf, sizeof buf);
    fprintf(f, "# %soptions not at their default: %s\n", side, s->nsettings ? buf : "none");
    overrides_line(s, buf, sizeof buf);
    fprintf(f, "# %soption overrides: %s\n", side, s->noverrides ? buf : "none");
    players_line(s, buf, sizeof buf);
    fprintf(f, "# %splayers: %s\n# %sgames: %d, study seed %llu\n", side, buf, side, s->nresults,
            (unsigned long long)s->seed);
}

void report_header(const study *s, FILE *f, int format, const char *prefix)
{
    if (format == REPORT_CSV) header_csv(s, f, prefix);
    else header_text(s, f, prefix);
}

static void csv_row(FILE *f, const char *measure, int seat, const char *agent, int games, double v, double lo,
                    double hi, bool ci)
{
    report_csv_field(f, measure);
    if (seat) fprintf(f, ",%d,", seat);
    else fprintf(f, ",,");
    report_csv_field(f, agent ? agent : "");
    fprintf(f, ",%d,%.6f", games, v);
    if (ci) fprintf(f, ",%.6f,%.6f\n", lo, hi);
    else fprintf(f, ",,\n");
}

/* The measures of docs/measures.md, after a sim's or tournament's report;
 * in JSON the "measures" member of j, then j printed (and released). */
static void report_measures(const study *s, FILE *f, int format, json_t *j)
{
    if (format == REPORT_JSON) {
        json_object_set_new(j, "measures", measures_study_json(s));
        if (json_print_new(f, j) < 0) {
            fprintf(stderr, "carc: out of memory\n");
            exit(1);
        }
        fputc('\n', f);
    } else if (format == REPORT_CSV) {
        measures_study_csv(f, s);
    } else {
        measures_study_text(f, s);
    }
}

void report_sim(const study *s, FILE *f, int format)
{
    int n = s->nresults, np = s->nplayers;
    bool json = format == REPORT_JSON, csv = format == REPORT_CSV;
    double *x = column(n), turns = 0;
    for (int i = 0; i < n; i++) turns += s->results[i].turns;
    json_t *j = NULL, *seats = NULL, *by_reason = NULL;
    if (json) {
        j = report_header_json(s);
        json_object_set_new(j, "seconds", json_fixed(s->seconds, 3));
        if (s->shards > 1) json_object_set_new(j, "shards", json_integer(s->shards)); /* seconds: their sum */
        json_object_set_new(j, "mean_turns", json_fixed(n ? turns / n : 0, 3));
        json_object_set_new(j, "seats", seats = json_array());
    } else if (csv) {
        header_csv(s, f, "");
        fprintf(f, "measure,seat,agent,games,value,lo,hi\n");
    } else {
        fprintf(f, "carc %s sim: %d games, %.2f s (%.0f games/s)", s->version[0] ? s->version : CARC_VERSION, n,
                s->seconds, s->seconds > 0 ? n / s->seconds : 0.0);
        if (s->shards > 1) fprintf(f, ", the time of %d shards added up", s->shards);
        fputc('\n', f);
        header_text(s, f, "");
        fprintf(f, "\nseat  agent          win rate  (95%% interval)     mean score  (95%% interval)      sd\n");
    }
    for (int p = 0; p < np; p++) {
        double wins = 0;
        for (int i = 0; i < n; i++) wins += measure_win_share(&s->results[i], np, p);
        for (int i = 0; i < n; i++) x[i] = s->results[i].score[p];
        interval w = stat_wilson95(wins, n), m = stat_mean_ci95(x, n);
        const char *agent = seat_agent(s, p);
        if (json) {
            json_array_append_new(seats, json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "seat", p + 1,
                                                   "agent", json_text(agent), "win_rate", json_fixed(n ? wins / n : 0, 6),
                                                   "win_rate_lo", json_fixed(w.lo, 6), "win_rate_hi", json_fixed(w.hi, 6),
                                                   "mean_score", json_fixed(stat_mean(x, n), 4), "mean_score_lo",
                                                   json_fixed(m.lo, 4), "mean_score_hi", json_fixed(m.hi, 4),
                                                   "sd_score", json_fixed(stat_sd(x, n), 4)));
        } else if (csv) {
            csv_row(f, "win rate", p + 1, agent, n, n ? wins / n : 0, w.lo, w.hi, true);
            csv_row(f, "mean score", p + 1, agent, n, stat_mean(x, n), m.lo, m.hi, true);
            csv_row(f, "score sd", p + 1, agent, n, stat_sd(x, n), 0, 0, false);
        } else {
            fprintf(f, "%4d  %-12s %7.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]  %6.2f\n", p + 1, agent,
                    n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, n), m.lo, m.hi, stat_sd(x, n));
        }
    }
    if (json) json_object_set_new(j, "points_by_reason", by_reason = json_object());
    else if (!csv) fprintf(f, "\npoints per game by reason (all players):\n");
    for (int k = 0; k < s->nreasons; k++) {
        double total = 0;
        for (int i = 0; i < n; i++) total += s->results[i].points[k];
        if (!total) continue;
        char measure[64];
        snprintf(measure, sizeof measure, "points per game: %s", s->reasons[k]);
        if (json) json_object_set_new(by_reason, s->reasons[k], json_fixed(total / n, 4));
        else if (csv) csv_row(f, measure, 0, NULL, n, total / n, 0, 0, false);
        else fprintf(f, "  %-12s %8.2f\n", s->reasons[k], total / n);
    }
    if (json) json_object_set_new(j, "score_distribution", score_distribution_json(s, NULL));
    else if (csv) csv_row(f, "mean game length (turns)", 0, NULL, n, n ? turns / n : 0, 0, 0, false);
    else fprintf(f, "\nmean game length: %.2f turns\n", n ? turns / n : 0);
    report_measures(s, f, format, j);
    free(x);
}

void report_tournament(const study *s, FILE *f, int format)
{
    int n = s->nresults, np = s->nplayers;
    bool json = format == REPORT_JSON, csv = format == REPORT_CSV;
    double *x = column(n * np);
    json_t *j = NULL, *agents = NULL, *seats = NULL;
    if (json) {
        j = report_header_json(s);
        json_object_set_new(j, "agents", agents = json_array());
    } else if (csv) {
        header_csv(s, f, "");
        fprintf(f, "measure,seat,agent,games,value,lo,hi\n");
    } else {
        fprintf(f, "carc %s tournament: %d games, %d seats rotated\n", s->version[0] ? s->version : CARC_VERSION, n, np);
        header_text(s, f, "");
        fprintf(f, "\nagent            games   win rate  (95%% interval)     mean score  (95%% interval)\n");
    }
    for (int a = 0; a < s->nagents; a++) {
        double wins = 0;
        int played = 0, nx = 0;
        for (int i = 0; i < n; i++)
            for (int p = 0; p < np; p++)
                if (s->results[i].agent[p] == a) {
                    wins += measure_win_share(&s->results[i], np, p);
                    played++;
                    x[nx++] = s->results[i].score[p];
                }
        interval w = stat_wilson95(wins, played), m = stat_mean_ci95(x, nx);
        if (json) {
            json_array_append_new(agents, json_pack("{s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "agent",
                                                    json_text(s->agents[a]), "games", played, "win_rate",
                                                    json_fixed(played ? wins / played : 0, 6), "win_rate_lo",
                                                    json_fixed(w.lo, 6), "win_rate_hi", json_fixed(w.hi, 6),
                                                    "mean_score", json_fixed(stat_mean(x, nx), 4), "mean_score_lo",
                                                    json_fixed(m.lo, 4), "mean_score_hi", json_fixed(m.hi, 4)));
        } else if (csv) {
            csv_row(f, "win rate", 0, s->agents[a], played, played ? wins / played : 0, w.lo, w.hi, true);
            csv_row(f, "mean score", 0, s->agents[a], played, stat_mean(x, nx), m.lo, m.hi, true);
        } else {
            fprintf(f, "%-15s %6d %8.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]\n", s->agents[a], played,
                    played ? 100.0 * wins / played : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, nx), m.lo, m.hi);
        }
    }
    if (json) json_object_set_new(j, "seats", seats = json_array());
    else if (!csv) fprintf(f, "\nwin rate by seat (whoever sat there):\n");
    for (int p = 0; p < np; p++) {
        double wins = 0;
        for (int i = 0; i < n; i++) wins += measure_win_share(&s->results[i], np, p);
        interval w = stat_wilson95(wins, n);
        if (json)
            json_array_append_new(seats, json_pack("{s:i, s:o, s:o, s:o}", "seat", p + 1, "win_rate",
                                                   json_fixed(n ? wins / n : 0, 6), "win_rate_lo", json_fixed(w.lo, 6),
                                                   "win_rate_hi", json_fixed(w.hi, 6)));
        else if (csv) csv_row(f, "win rate by seat", p + 1, NULL, n, n ? wins / n : 0, w.lo, w.hi, true);
        else fprintf(f, "  seat %d  %6.1f%%  [%5.1f%%, %5.1f%%]\n", p + 1, n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi);
    }
    if (json) json_object_set_new(j, "score_distribution", score_distribution_json(s, NULL));
    report_measures(s, f, format, j);
    free(x);
}

/* ---- compare ------------------------------------------------------------------------- */

/* The value of metric m for one game. Metrics past METRIC_FIXED are points
 * by reason (reason name in `reason`). */
enum { M_MEAN, M_SPREAD, M_FIRST_ADV, M_FIRST_WIN, M_LENGTH, M_MARGIN, METRIC_FIXED };
const char *const compare_measure_keys[METRIC_FIXED] = {"mean-score", "spread", "first-lead",
                                                       "first-win",  "length", "margin"};
const int compare_measure_key_count = METRIC_FIXED;
static const char *const metric_units[METRIC_FIXED] = {"points", "points", "points", "share", "turns", "points"};
static const char *const metric_names[METRIC_FIXED] = {
    "mean score", "score spread (highest - lowest)", "first player's lead over the others' mean",
    "first player's win share", "game length (turns)", "winner's margin over the runner-up"};

static double metric(const study *s, const study_game *g, int m, const char *reason)
{
    int np = s->nplayers, best = g->score[0], second = -1000000, lo = g->score[0];
    double sum = 0, others = 0;
    for (int p = 0; p < np; p++) {
        sum += g->score[p];
        if (p) others += g->score[p];
        if (g->score[p] < lo) lo = g->score[p];
    }
    for (int p = 1; p < np; p++)
        if (g->score[p] > best) best = g->score[p];
    bool seen = false;
    for (int p = 0; p < np; p++) {
        if (g->score[p] == best && !seen) {
            seen = true;
            continue;
        }
        if (g->score[p] > second) second = g->score[p];
    }
    switch (m) {
    case M_MEAN: return sum / np;
    case M_SPREAD: return best - lo;
    case M_FIRST_ADV: return np > 1 ? g->score[0] - others / (np - 1) : 0;
    case M_FIRST_WIN: return measure_win_share(g, np, 0);
    case M_LENGTH: return g->turns;
    case M_MARGIN: return np > 1 ? best - second : 0;
    default:
        for (int k = 0; k < s->nreasons; k++)
            if (strcmp(s->reasons[k], reason) == 0) return g->points[k];
        return 0;
    }
}

int pair_games(const study *a, const study *b, int *ia, int *ib)
{
    int n = 0;
    for (int i = 0, j = 0; i < a->nresults && j < b->nresults;) {
        if (a->results[i].index < b->results[j].index) i++;
        else if (a->results[i].index > b->results[j].index) j++;
        else {
            ia[n] = i++;
            ib[n++] = j++;
        }
    }
    return n;
}

void compare_settings_default(compare_settings *cs)
{
    memset(cs, 0, sizeof *cs);
    cs->blocks = COMPARE_DEFAULT_BLOCKS;
    cs->min_points = 1;
    cs->min_share = 0.02;
    cs->min_turns = 1;
    cs->min_count = 0.5;
}

bool compare_min_effect(compare_settings *cs, const char *v)
{
    char unit[16], tail;
    double x;
    if (!v || sscanf(v, "%15[a-z]=%lf%c", unit, &x, &tail) != 2 || x < 0) return false;
    if (strcmp(unit, "points") == 0) cs->min_points = x;
    else if (strcmp(unit, "share") == 0) cs->min_share = x;
    else if (strcmp(unit, "turns") == 0) cs->min_turns = x;
    else if (strcmp(unit, "count") == 0) cs->min_count = x;
    else return false;
    return true;
}

/* The measure's interval over the blocks (pair k is in block k * nb / n):
 * Student's t over the blocks' mean differences; for the measure a staged
 * study stopped on, the first stage's deviation and degrees of freedom. */
static void over_blocks(compare_row *r, const double *d, int n, int nb, const compare_settings *cs)
{
    double *sum = calloc((size_t)nb, sizeof *sum), *means = calloc((size_t)nb, sizeof *means);
    int *count = calloc((size_t)nb, sizeof *count);
    if (!sum || !means || !count) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    for (int k = 0; k < n; k++) {
        int blk = (int)((long long)k * nb / n);
        sum[blk] += d[k];
        count[blk]++;
    }
    r->blocks = nb;
    r->agree = 0;
    for (int blk = 0; blk < nb; blk++) {
        means[blk] = count[blk] ? sum[blk] / count[blk] : 0;
        int sign_b = (means[blk] > 0) - (means[blk] < 0), sign = (r->diff > 0) - (r->diff < 0);
        r->agree += sign_b == sign;
    }
    r->block_sd = nb > 1 ? stat_sd(means, nb) : 0;
    r->df = nb - 1;
    if (cs->staged_key[0] && strcmp(cs->staged_key, r->key) == 0) {
        r->block_sd = cs->staged_sd;
        r->df = cs->staged_df;
    }
    double se = r->df > 0 ? r->block_sd / sqrt((double)nb) : 0;
    if (r->df < 1) {
        r->lo = r->hi = r->diff;
        r->p = 1;
    } else {
        double h = stat_t_quantile(0.975, r->df) * se;
        r->lo = r->diff - h;
        r->hi = r->diff + h;
        r->p = se > 0 ? stat_t_p_two_sided(r->diff / se, r->df) : r->diff != 0 ? 0 : 1;
    }
    r->significant = r->df > 0 && (r->lo > 0 || r->hi < 0);
    r->se = se;
    free(sum);
    free(means);
    free(count);
}

void compare_correct(compare_row *rows, int m)
{
    double *p = column(m), *adj = column(m);
    for (int i = 0; i < m; i++) p[i] = rows[i].p;
    stat_holm(p, m, adj);
    for (int i = 0; i < m; i++) {
        compare_row *r = &rows[i];
        double se = r->se;
        r->p_holm = adj[i];
        int rank = stat_holm_rank(p, m, i);
        if (r->df < 1) {
            r->clo = r->chi = r->diff;
        } else {
            double h = stat_t_quantile(1 - 0.05 / (2.0 * (m - rank + 1)), r->df) * se;
            r->clo = r->diff - h;
            r->chi = r->diff + h;
        }
        r->finding = r->df > 0 && r->p_holm < 0.05 && (r->clo > 0 || r->chi < 0) && fabs(r->diff) >= r->min_effect;
    }
    free(p);
    free(adj);
}

int compare_metrics(const study *a, const study *b, const compare_settings *cs, compare_row *rows, int max)
{
    compare_settings dflt;
    if (!cs) {
        compare_settings_default(&dflt);
        cs = &dflt;
    }
    int n = a->nresults < b->nresults ? a->nresults : b->nresults, nrows = 0;
    char reasons[2 * STUDY_MAX_REASONS][32];
    int nr = 0;
    const study *both[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < both[s]->nreasons; k++) {
            int j = 0;
            while (j < nr && strcmp(reasons[j], both[s]->reasons[k]) != 0) j++;
            if (j == nr && nr < 2 * STUDY_MAX_REASONS) snprintf(reasons[nr++], 32, "%s", both[s]->reasons[k]);
        }
    int *ia = calloc((size_t)(n > 0 ? n : 1), sizeof *ia), *ib = calloc((size_t)(n > 0 ? n : 1), sizeof *ib);
    if (!ia || !ib) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    n = pair_games(a, b, ia, ib);
    int nb = cs->blocks < n ? cs->blocks : n;
    double *xa = column(n), *xb = column(n), *d = column(n);
    /* The designer measures both sides have (measures.h), after the fixed
     * ones and before points by reason. */
    measure_ref extra[MEASURES_MAX], mb[MEASURES_MAX];
    int ne = 0, na = measures_of(a, extra, MEASURES_MAX), nmb = measures_of(b, mb, MEASURES_MAX);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nmb; j++)
            if (strcmp(extra[i].key, mb[j].key) == 0) {
                extra[ne++] = extra[i];
                break;
            }
    for (int m = 0; m < METRIC_FIXED + ne + nr && nrows < max; m++) {
        const measure_ref *dm = m >= METRIC_FIXED && m < METRIC_FIXED + ne ? &extra[m - METRIC_FIXED] : NULL;
        const char *reason = m >= METRIC_FIXED + ne ? reasons[m - METRIC_FIXED - ne] : NULL;
        for (int i = 0; i < n; i++) {
            xa[i] = dm ? measure_value(a, &a->results[ia[i]], dm) : metric(a, &a->results[ia[i]], m, reason);
            xb[i] = dm ? measure_value(b, &b->results[ib[i]], dm) : metric(b, &b->results[ib[i]], m, reason);
            d[i] = xb[i] - xa[i]; /* paired: game i of A and game i of B share a seed */
        }
        compare_row *r = &rows[nrows];
        memset(r, 0, sizeof *r);
        if (dm) {
            snprintf(r->name, sizeof r->name, "%s", dm->name);
            snprintf(r->key, sizeof r->key, "%s", dm->key);
            r->unit = dm->unit;
        } else if (m >= METRIC_FIXED) {
            bool any = false;
            for (int i = 0; i < n && !any; i++) any = xa[i] != 0 || xb[i] != 0;
            if (!any) continue;
            snprintf(r->name, sizeof r->name, "points/game: %s", reason);
            snprintf(r->key, sizeof r->key, "points:%s", reason);
            r->unit = "points";
        } else {
            snprintf(r->name, sizeof r->name, "%s", metric_names[m]);
            snprintf(r->key, sizeof r->key, "%s", compare_measure_keys[m]);
            r->unit = metric_units[m];
        }
        r->a = stat_mean(xa, n);
        r->b = stat_mean(xb, n);
        r->diff = stat_mean(d, n);
        over_blocks(r, d, n, nb, cs);
        r->min_effect = strcmp(r->unit, "share") == 0   ? cs->min_share
                        : strcmp(r->unit, "turns") == 0 ? cs->min_turns
                        : strcmp(r->unit, "count") == 0 ? cs->min_count
                                                        : cs->min_points;
        nrows++;
    }
    compare_correct(rows, nrows); /* Holm over the measures reported */
    free(xa);
    free(xb);
    free(d);
    free(ia);
    free(ib);
    return nrows;
}

/* The seats with the highest score, as a bit set. */
static unsigned winners(const study_game *g, int np)
{
    int best = g->score[0];
    for (int p = 1; p < np; p++)
        if (g->score[p] > best) best = g->score[p];
    unsigned set = 0;
    for (int p = 0; p < np; p++)
        if (g->score[p] == best) set |= 1u << p;
    return set;
}

winner_change compare_winner_change(const study *a, const study *b)
{
    winner_change w = {0, 0, 0, 0, a->seed == b->seed};
    int m = a->nresults < b->nresults ? a->nresults : b->nresults;
    int *ia = calloc((size_t)(m > 0 ? m : 1), sizeof *ia), *ib = calloc((size_t)(m > 0 ? m : 1), sizeof *ib);
    if (!ia || !ib) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    int n = pair_games(a, b, ia, ib);
    for (int i = 0; i < n; i++) {
        unsigned wa = winners(&a->results[ia[i]], a->nplayers);
        if (wa != winners(&b->results[ib[i]], b->nplayers)) w.changed++;
        if (n > 1 && wa != winners(&b->results[ib[(i + 1) % n]], b->nplayers)) w.unrelated_changed++;
    }
    free(ia);
    free(ib);
    w.games = n;
    interval ci = stat_wilson95(w.changed, n);
    w.lo = ci.lo;
    w.hi = ci.hi;
    interval cu = stat_wilson95(w.unrelated_changed, n);
    w.unrelated_lo = cu.lo;
    w.unrelated_hi = cu.hi;
    return w;
}

/* The staged run in JSON (null when the study was not staged). */
void compare_row_test_json(json_t *m, const compare_row *r)
{
    json_object_set_new(m, "p", json_sig(r->p, 6));
    json_object_set_new(m, "p_holm", json_sig(r->p_holm, 6));
    json_object_set_new(m, "corrected_lo", json_fixed(r->clo, 6));
    json_object_set_new(m, "corrected_hi", json_fixed(r->chi, 6));
    json_object_set_new(m, "blocks_agreeing", json_integer(r->agree));
    json_object_set_new(m, "min_effect", json_sig(r->min_effect, 6));
    json_object_set_new(m, "finding", json_boolean(r->finding));
}

json_t *min_effect_json(const compare_settings *cs)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "points", json_sig(cs->min_points, 6), "share", json_sig(cs->min_share, 6),
                     "turns", json_sig(cs->min_turns, 6), "count", json_sig(cs->min_count, 6));
}

static json_t *staged_json(const compare_settings *cs)
{
    if (!cs->staged_key[0]) return json_null();
    return json_pack("{s:o, s:o, s:i, s:b}", "measure", json_text(cs->staged_key), "width",
                     json_sig(cs->staged_width, 6), "first_stage_games", cs->staged_first, "capped", cs->staged_capped);
}

static const char *unit_text(const compare_row *r, char *buf, size_t n)
{
    if (strcmp(r->unit, "share") == 0) snprintf(buf, n, "%.3g", r->min_effect);
    else snprintf(buf, n, "%.3g %.*s", r->min_effect, r->min_effect == 1 ? (int)strlen(r->unit) - 1 : 99, r->unit);
    return buf;
}

void report_compare(const study *a, const study *b, const compare_settings *cs, FILE *f, int format)
{
    compare_settings dflt;
    if (!cs) {
        compare_settings_default(&dflt);
        cs = &dflt;
    }
    compare_row rows[COMPARE_MAX_ROWS];
    int nrows = compare_metrics(a, b, cs, rows, (int)(sizeof rows / sizeof rows[0]));
    winner_change wc = compare_winner_change(a, b);
    int n = wc.games, nb = nrows ? rows[0].blocks : 0, findings = 0;
    for (int i = 0; i < nrows; i++) findings += rows[i].finding;
    double rate = wc.games ? (double)wc.changed / wc.games : 0;
    double urate = wc.games ? (double)wc.unrelated_changed / wc.games : 0;
    if (format == REPORT_JSON) {
        json_t *metrics = json_array();
        for (int i = 0; i < nrows; i++) {
            const compare_row *r = &rows[i];
            json_t *m = json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:b}", "metric", json_text(r->name), "key",
                                  json_text(r->key), "unit", r->unit, "a", json_fixed(r->a, 6), "b", json_fixed(r->b, 6), "diff", json_fixed(r->diff, 6),
                                  "lo", json_fixed(r->lo, 6), "hi", json_fixed(r->hi, 6), "significant", r->significant);
            compare_row_test_json(m, r);
            json_array_append_new(metrics, m);
        }
        json_t *j = json_pack("{s:o, s:o, s:i, s:b, s:i, s:s, s:o}", "a", report_header_json(a), "b", report_header_json(b), "games", n,
                              "paired", wc.paired, "blocks", nb, "correction", "holm", "family_wise_level",
                              json_sig(0.05, 6));
        json_object_set_new(j, "min_effect", min_effect_json(cs));
        json_object_set_new(j, "until_width", staged_json(cs));
        json_object_set_new(j, "findings", json_integer(findings));
        json_object_set_new(j, "winner_changed",
                            json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "games", wc.changed, "rate",
                                      json_fixed(rate, 6), "lo", json_fixed(wc.lo, 6), "hi", json_fixed(wc.hi, 6),
                                      "unrelated_rate", json_fixed(urate, 6), "unrelated_lo",
                                      json_fixed(wc.unrelated_lo, 6), "unrelated_hi", json_fixed(wc.unrelated_hi, 6)));
        json_object_set_new(j, "metrics", metrics);
        json_object_set_new(j, "score_distribution",
                            json_pack("{s:o, s:o}", "a", score_distribution_json(a, b), "b", score_distribution_json(b, a)));
        json_print_new(f, j);
        fputc('\n', f);
        return;
    }
    if (format == REPORT_CSV) {
        header_csv(a, f, "A ");
        header_csv(b, f, "B ");
        fprintf(f, "# blocks: %d; correction: Holm, 5%% family-wise; min effect: points %g, share %g, turns %g, count %g\n",
                nb, cs->min_points, cs->min_share, cs->min_turns, cs->min_count);
        fprintf(f, "metric,a,b,diff,lo,hi,significant,p,p_holm,corrected_lo,corrected_hi,blocks,blocks_agreeing,"
                   "min_effect,finding\n");
        for (int i = 0; i < nrows; i++) {
            const compare_row *r = &rows[i];
            report_csv_field(f, r->name);
            fprintf(f, ",%.6f,%.6f,%.6f,%.6f,%.6f,%s,%.6g,%.6g,%.6f,%.6f,%d,%d,%g,%s\n", r->a, r->b, r->diff, r->lo, r->hi,
                    r->significant ? "yes" : "no", r->p, r->p_holm, r->clo, r->chi, r->blocks, r->agree, r->min_effect,
                    r->finding ? "yes" : "no");
        }
        fprintf(f, "winner changed between A and B (share of games),,,%.6f,%.6f,%.6f,,,,,,,,,\n", rate, wc.lo, wc.hi);
        fprintf(f, "winner differs between unrelated games of A and B (share),,,%.6f,%.6f,%.6f,,,,,,,,,\n", urate,
                wc.unrelated_lo, wc.unrelated_hi);
        return;
    }
    fprintf(f, "carc %s compare: %d paired games (game i of A and of B share a seed) in %d blocks\n",
            a->version[0] ? a->version : CARC_VERSION, n, nb);
    header_text(a, f, "A ");
    header_text(b, f, "B ");
    fprintf(f, "\n%-42s %9s %9s %9s  %-20s %-20s %6s  %s\n", "measure", "A", "B", "B - A", "95% interval",
            "Holm-corrected", "blocks", "finding");
    for (int i = 0; i < nrows; i++) {
        const compare_row *r = &rows[i];
        char ci[64], cc[64], ag[16];
        snprintf(ci, sizeof ci, "[%.2f, %.2f]", r->lo, r->hi);
        snprintf(cc, sizeof cc, "[%.2f, %.2f]", r->clo, r->chi);
        snprintf(ag, sizeof ag, "%d/%d", r->agree, r->blocks);
        const char *verdict = r->finding ? "yes"
                              : r->p_holm < 0.05 && nb > 1 ? "no, small"
                                                            : "no";
        fprintf(f, "%-42s %9.2f %9.2f %+9.2f  %-20s %-20s %6s  %s\n", r->name, r->a, r->b, r->diff, ci, cc, ag, verdict);
    }
    char thr[3][32];
    compare_row pr = {.unit = "points", .min_effect = cs->min_points}, sr = {.unit = "share", .min_effect = cs->min_share},
                tr = {.unit = "turns", .min_effect = cs->min_turns};
    fprintf(f,
            "\n%d finding%s. Intervals are Student's t over %d blocks of consecutive games (independent\n"
            "seeds); \"blocks\" counts the blocks whose difference has the sign of B - A. The\n"
            "correction for testing %d measures at once is Holm's (5%% family-wise): a finding is\n"
            "a measure whose Holm-corrected interval excludes 0 (and every measure with a smaller\n"
            "p-value passed too), and whose B - A is at least %s, a share of %s, %s\n"
            "or a count of %g (--min-effect); \"no, small\" passed the test but not the\n"
            "threshold. docs/measures.md defines every measure.\n",
            findings, findings == 1 ? "" : "s", nb, nrows, unit_text(&pr, thr[0], sizeof thr[0]),
            unit_text(&sr, thr[1], sizeof thr[1]), unit_text(&tr, thr[2], sizeof thr[2]), cs->min_count);
    for (int i = 0; i < nrows && cs->staged_key[0]; i++) {
        const compare_row *r = &rows[i];
        if (strcmp(r->key, cs->staged_key) != 0) continue;
        fprintf(f,
                "\nRun until the 95%% interval of %s was at most %g wide (Stein's two-stage\n"
                "procedure): the first %d games a side in %d blocks gave its spread from block to\n"
                "block (sd %.4g, %d degrees of freedom, which its interval keeps so that the\n"
                "stopping rule costs no coverage); %d blocks of %d games were needed%s. Its\n"
                "interval is now %.4g wide.\n",
                r->key, cs->staged_width, cs->staged_first, r->df + 1, r->block_sd, r->df, nb, n / (nb ? nb : 1),
                cs->staged_capped ? ", cut short by --max-games" : "", r->hi - r->lo);
    }
    fprintf(f, "\nthe winner changed between A and B in %d of %d games: %.1f%% [%.1f%%, %.1f%%] (95%% interval)%s\n",
            wc.changed, wc.games, 100 * rate, 100 * wc.lo, 100 * wc.hi,
            wc.paired ? "" : "; the seeds differ (--seed-b), so the games are not the same games");
    fprintf(f,
            "between unrelated games (A's game k against B's game k + 1) it differs in %.1f%% [%.1f%%, %.1f%%]:\n"
            "%s. Not a measure of whom the rule favours; not counted among the findings.\n",
            100 * urate, 100 * wc.unrelated_lo, 100 * wc.unrelated_hi,
            wc.lo > wc.unrelated_hi || wc.hi < wc.unrelated_lo
                ? "the pairs keep their winner more often than unrelated games would, so the rule leaves\n"
                  "part of who wins as it was"
                : "as often as between unrelated games, so the rule reshuffles who wins as much as\n"
                  "playing other games would");
}
