/* report.c - what sim, tournament and compare print, from per-game results:
 * readable tables, JSON, CSV. Every rate and mean comes with its 95%
 * interval. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "json_text.h"
#include "measures.h"

/* Share of the win of seat p in one game: 1/k for k tied winners. */
static double win_share(const study_game *g, int n, int p)
{
    int best = g->score[0], k = 0;
    for (int q = 1; q < n; q++)
        if (g->score[q] > best) best = g->score[q];
    for (int q = 0; q < n; q++) k += g->score[q] == best;
    return g->score[p] == best ? 1.0 / k : 0.0;
}

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

/* A CSV field, quoted when it must be. */
static void csv_str(FILE *f, const char *s)
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

/* JSON members (no braces): what was run. */
static void header_json(const study *s, FILE *f)
{
    fprintf(f, "\"carc_version\": ");
    json_write_string(f, s->version[0] ? s->version : CARC_VERSION);
    fprintf(f, ", \"variant\": ");
    json_write_string(f, s->variant_name);
    fprintf(f, ", \"variant_given\": ");
    json_write_string(f, s->variant);
    fprintf(f, ", \"title\": ");
    json_write_string(f, s->title);
    fprintf(f, ", \"modules\": [");
    char mods[1024];
    snprintf(mods, sizeof mods, "%s", s->modules);
    int k = 0;
    for (char *save = NULL, *t = strtok_r(mods, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        fprintf(f, "%s", k++ ? ", " : "");
        json_write_string(f, t);
    }
    fprintf(f, "], \"files\": [");
    for (int i = 0; i < s->nsources; i++) {
        fprintf(f, "%s{\"file\": ", i ? ", " : "");
        json_write_string(f, s->source_name[i]);
        fprintf(f, ", \"sha256\": \"%s\"}", s->source_hash[i]);
    }
    fprintf(f, "]");
    if (study_file_name[0]) {
        fprintf(f, ", \"study_file\": {\"file\": ");
        json_write_string(f, study_file_name);
        fprintf(f, ", \"sha256\": \"%s\"}", study_file_hash);
    }
    fprintf(f, ", \"options_not_default\": {");
    for (int i = 0; i < s->nsettings; i++) {
        const char *eq = strchr(s->settings[i], '=');
        char key[160];
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - s->settings[i]) : 0, s->settings[i]);
        fprintf(f, "%s", i ? ", " : "");
        json_write_string(f, key);
        fprintf(f, ": ");
        json_write_string(f, eq ? eq + 1 : "");
    }
    fprintf(f, "}, \"option_overrides\": [");
    for (int i = 0; i < s->noverrides; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_write_string(f, s->overrides[i]);
    }
    fprintf(f, "], \"players\": [");
    for (int p = 0; p < (s->rotate ? s->nagents : s->nplayers); p++) {
        fprintf(f, "%s", p ? ", " : "");
        json_write_string(f, s->rotate ? s->agents[p] : seat_agent(s, p));
    }
    fprintf(f, "], \"seats_rotated\": %s, \"games\": %d, \"seed\": %llu", s->rotate ? "true" : "false", s->nresults,
            (unsigned long long)s->seed);
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
    if (format == REPORT_JSON) header_json(s, f);
    else if (format == REPORT_CSV) header_csv(s, f, prefix);
    else header_text(s, f, prefix);
}

static void csv_row(FILE *f, const char *measure, int seat, const char *agent, int games, double v, double lo,
                    double hi, bool ci)
{
    csv_str(f, measure);
    if (seat) fprintf(f, ",%d,", seat);
    else fprintf(f, ",,");
    csv_str(f, agent ? agent : "");
    fprintf(f, ",%d,%.6f", games, v);
    if (ci) fprintf(f, ",%.6f,%.6f\n", lo, hi);
    else fprintf(f, ",,\n");
}

/* The measures of docs/measures.md, after a sim's or tournament's report;
 * in JSON the "measures" member and the object's closing brace. */
static void report_measures(const study *s, FILE *f, int format)
{
    if (format == REPORT_JSON) {
        fprintf(f, ", \"measures\": ");
        measures_study_json(f, s);
        fprintf(f, "}\n");
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
    if (json) {
        fprintf(f, "{");
        header_json(s, f);
        fprintf(f, ", \"seconds\": %.3f, ", s->seconds);
        if (s->shards > 1) fprintf(f, "\"shards\": %d, ", s->shards); /* seconds: their sum */
        fprintf(f, "\"mean_turns\": %.3f, \"seats\": [", n ? turns / n : 0);
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
        for (int i = 0; i < n; i++) wins += win_share(&s->results[i], np, p);
        for (int i = 0; i < n; i++) x[i] = s->results[i].score[p];
        interval w = stat_wilson95(wins, n), m = stat_mean_ci95(x, n);
        const char *agent = seat_agent(s, p);
        if (json) {
            fprintf(f, "%s{\"seat\": %d, \"agent\": ", p ? ", " : "", p + 1);
            json_write_string(f, agent);
            fprintf(f,
                    ", \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f, "
                    "\"mean_score\": %.4f, \"mean_score_lo\": %.4f, \"mean_score_hi\": %.4f, \"sd_score\": %.4f}",
                    n ? wins / n : 0, w.lo, w.hi, stat_mean(x, n), m.lo, m.hi, stat_sd(x, n));
        } else if (csv) {
            csv_row(f, "win rate", p + 1, agent, n, n ? wins / n : 0, w.lo, w.hi, true);
            csv_row(f, "mean score", p + 1, agent, n, stat_mean(x, n), m.lo, m.hi, true);
            csv_row(f, "score sd", p + 1, agent, n, stat_sd(x, n), 0, 0, false);
        } else {
            fprintf(f, "%4d  %-12s %7.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]  %6.2f\n", p + 1, agent,
                    n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, n), m.lo, m.hi, stat_sd(x, n));
        }
    }
    if (json) fprintf(f, "], \"points_by_reason\": {");
    else if (!csv) fprintf(f, "\npoints per game by reason (all players):\n");
    bool first = true;
    for (int k = 0; k < s->nreasons; k++) {
        double total = 0;
        for (int i = 0; i < n; i++) total += s->results[i].points[k];
        if (!total) continue;
        char measure[64];
        snprintf(measure, sizeof measure, "points per game: %s", s->reasons[k]);
        if (json) fprintf(f, "%s\"%s\": %.4f", first ? "" : ", ", s->reasons[k], total / n);
        else if (csv) csv_row(f, measure, 0, NULL, n, total / n, 0, 0, false);
        else fprintf(f, "  %-12s %8.2f\n", s->reasons[k], total / n);
        first = false;
    }
    if (json) fprintf(f, "}");
    else if (csv) csv_row(f, "mean game length (turns)", 0, NULL, n, n ? turns / n : 0, 0, 0, false);
    else fprintf(f, "\nmean game length: %.2f turns\n", n ? turns / n : 0);
    report_measures(s, f, format);
    free(x);
}

void report_tournament(const study *s, FILE *f, int format)
{
    int n = s->nresults, np = s->nplayers;
    bool json = format == REPORT_JSON, csv = format == REPORT_CSV;
    double *x = column(n * np);
    if (json) {
        fprintf(f, "{");
        header_json(s, f);
        fprintf(f, ", \"agents\": [");
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
                    wins += win_share(&s->results[i], np, p);
                    played++;
                    x[nx++] = s->results[i].score[p];
                }
        interval w = stat_wilson95(wins, played), m = stat_mean_ci95(x, nx);
        if (json) {
            fprintf(f, "%s{\"agent\": ", a ? ", " : "");
            json_write_string(f, s->agents[a]);
            fprintf(f,
                    ", \"games\": %d, \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f, "
                    "\"mean_score\": %.4f, \"mean_score_lo\": %.4f, \"mean_score_hi\": %.4f}",
                    played, played ? wins / played : 0, w.lo, w.hi, stat_mean(x, nx), m.lo, m.hi);
        } else if (csv) {
            csv_row(f, "win rate", 0, s->agents[a], played, played ? wins / played : 0, w.lo, w.hi, true);
            csv_row(f, "mean score", 0, s->agents[a], played, stat_mean(x, nx), m.lo, m.hi, true);
        } else {
            fprintf(f, "%-15s %6d %8.1f%%  [%5.1f%%, %5.1f%%]   %9.2f  [%7.2f, %7.2f]\n", s->agents[a], played,
                    played ? 100.0 * wins / played : 0, 100 * w.lo, 100 * w.hi, stat_mean(x, nx), m.lo, m.hi);
        }
    }
    if (json) fprintf(f, "], \"seats\": [");
    else if (!csv) fprintf(f, "\nwin rate by seat (whoever sat there):\n");
    for (int p = 0; p < np; p++) {
        double wins = 0;
        for (int i = 0; i < n; i++) wins += win_share(&s->results[i], np, p);
        interval w = stat_wilson95(wins, n);
        if (json) fprintf(f, "%s{\"seat\": %d, \"win_rate\": %.6f, \"win_rate_lo\": %.6f, \"win_rate_hi\": %.6f}",
                          p ? ", " : "", p + 1, n ? wins / n : 0, w.lo, w.hi);
        else if (csv) csv_row(f, "win rate by seat", p + 1, NULL, n, n ? wins / n : 0, w.lo, w.hi, true);
        else fprintf(f, "  seat %d  %6.1f%%  [%5.1f%%, %5.1f%%]\n", p + 1, n ? 100.0 * wins / n : 0, 100 * w.lo, 100 * w.hi);
    }
    if (json) fprintf(f, "]");
    report_measures(s, f, format);
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
    case M_FIRST_WIN: return win_share(g, np, 0);
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

/* The staged run in JSON ("null" when the study was not staged). */
static const char *staged_json(const compare_settings *cs, char *buf, size_t n)
{
    if (!cs->staged_key[0]) return "null";
    snprintf(buf, n, "{\"measure\": \"%s\", \"width\": %g, \"first_stage_games\": %d, \"capped\": %s}",
             cs->staged_key, cs->staged_width, cs->staged_first, cs->staged_capped ? "true" : "false");
    return buf;
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
    char sj[256];
    if (format == REPORT_JSON) {
        fprintf(f, "{\"a\": {");
        header_json(a, f);
        fprintf(f, "}, \"b\": {");
        header_json(b, f);
        fprintf(f, "}, \"games\": %d, \"paired\": %s, \"blocks\": %d, \"correction\": \"holm\", "
                   "\"family_wise_level\": 0.05, \"min_effect\": {\"points\": %g, \"share\": %g, \"turns\": %g, \"count\": %g}, "
                   "\"until_width\": %s, \"findings\": %d, \"winner_changed\": {\"games\": %d, \"rate\": %.6f, \"lo\": %.6f, "
                   "\"hi\": %.6f, \"unrelated_rate\": %.6f, \"unrelated_lo\": %.6f, \"unrelated_hi\": %.6f}, "
                   "\"metrics\": [",
                n, wc.paired ? "true" : "false", nb, cs->min_points, cs->min_share, cs->min_turns, cs->min_count, staged_json(cs, sj, sizeof sj), findings, wc.changed,
                rate, wc.lo, wc.hi, urate, wc.unrelated_lo, wc.unrelated_hi);
        for (int i = 0; i < nrows; i++) {
            const compare_row *r = &rows[i];
            fprintf(f, "%s{\"metric\": ", i ? ", " : "");
            json_write_string(f, r->name);
            fprintf(f, ", \"key\": ");
            json_write_string(f, r->key);
            fprintf(f,
                    ", \"unit\": \"%s\", \"a\": %.6f, \"b\": %.6f, \"diff\": %.6f, \"lo\": %.6f, \"hi\": %.6f, "
                    "\"significant\": %s, \"p\": %.6g, \"p_holm\": %.6g, \"corrected_lo\": %.6f, "
                    "\"corrected_hi\": %.6f, \"blocks_agreeing\": %d, \"min_effect\": %g, \"finding\": %s}",
                    r->unit, r->a, r->b, r->diff, r->lo, r->hi, r->significant ? "true" : "false", r->p, r->p_holm,
                    r->clo, r->chi, r->agree, r->min_effect, r->finding ? "true" : "false");
        }
        fprintf(f, "]}\n");
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
            csv_str(f, r->name);
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
