/* measures.c - the measures designers ask for (measures.h,
 * docs/measures.md). */
#include "measures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_io.h"
#include "stats.h"

enum {
    MS_SPREAD,
    MS_MARGIN,
    MS_CLOSENESS,
    MS_SEAT_WIN,
    MS_LENGTH,
    MS_SKILL_GAP,
    MS_LEAD_CHANGES,
    MS_LED_FROM,
    MS_WINNER_BEHIND,
    MS_BRANCHING,
    MS_CHOICES,
    MS_POINTS,
};

static measure_ref ref(int id, int arg, const char *key, const char *name, const char *unit)
{
    measure_ref m = {.id = id, .arg = arg, .unit = unit};
    snprintf(m.key, sizeof m.key, "%s", key);
    snprintf(m.name, sizeof m.name, "%s", name);
    return m;
}

#define PUSH(m)                                                                                                        \
    do {                                                                                                               \
        if (n < max) out[n++] = (m);                                                                                   \
    } while (0)

/* The skill gap needs two agents or more, their seats rotated. */
static int skill_gap(const study *s) { return s->rotate && s->nagents >= 2; }

int measures_of(const study *s, measure_ref *out, int max)
{
    int n = 0;
    char key[48], name[96];
    if (skill_gap(s)) {
        snprintf(name, sizeof name, "skill gap: %s's win share", s->agents[0]);
        PUSH(ref(MS_SKILL_GAP, 0, "skill-gap", name, "share"));
    }
    for (int p = 1; p < s->nplayers && s->nplayers > 2; p++) {
        snprintf(key, sizeof key, "seat-win:%d", p + 1);
        snprintf(name, sizeof name, "seat %d's win share", p + 1);
        PUSH(ref(MS_SEAT_WIN, p, key, name, "share"));
    }
    PUSH(ref(MS_CLOSENESS, 0, "relative-margin", "winner's margin / winner's score", "share"));
    PUSH(ref(MS_LEAD_CHANGES, 0, "lead-changes", "lead changes", "count"));
    PUSH(ref(MS_LED_FROM, 0, "led-from", "turn from which the winner led for good", "turns"));
    PUSH(ref(MS_WINNER_BEHIND, 0, "winner-behind", "share of turns the winner was behind", "share"));
    PUSH(ref(MS_BRANCHING, 0, "options", "options per decision", "count"));
    PUSH(ref(MS_CHOICES, 0, "choices", "decisions with a choice per turn", "count"));
    return n;
}

int measures_all(const study *s, measure_ref *out, int max)
{
    int n = 0;
    char key[48], name[96];
    PUSH(ref(MS_SPREAD, 0, "spread", "score spread (highest - lowest)", "points"));
    PUSH(ref(MS_MARGIN, 0, "margin", "winner's margin over the runner-up", "points"));
    for (int p = 0; p < s->nplayers && s->nplayers > 1; p++) {
        snprintf(key, sizeof key, p ? "seat-win:%d" : "first-win", p + 1);
        snprintf(name, sizeof name, "seat %d's win share", p + 1);
        PUSH(ref(MS_SEAT_WIN, p, key, name, "share"));
    }
    PUSH(ref(MS_LENGTH, 0, "length", "game length (turns)", "turns"));
    measure_ref more[MEASURES_MAX];
    int k = measures_of(s, more, MEASURES_MAX);
    for (int i = 0; i < k; i++)
        if (more[i].id != MS_SEAT_WIN) PUSH(more[i]);
    for (int r = 0; r < s->nreasons; r++) {
        snprintf(key, sizeof key, "points:%s", s->reasons[r]);
        snprintf(name, sizeof name, "points/game: %s", s->reasons[r]);
        PUSH(ref(MS_POINTS, r, key, name, "points"));
    }
    return n;
}

double measure_win_share(const study_game *g, int np, int p)
{
    int best = g->score[0], k = 0;
    for (int q = 1; q < np; q++)
        if (g->score[q] > best) best = g->score[q];
    for (int q = 0; q < np; q++) k += g->score[q] == best;
    return g->score[p] == best ? 1.0 / k : 0.0;
}

/* The highest, second highest (a tie for the win: the same) and lowest score. */
static void ranks(const study_game *g, int np, int *best, int *second, int *low)
{
    *best = *low = g->score[0];
    *second = -1000000;
    int at = 0;
    for (int p = 1; p < np; p++) {
        if (g->score[p] > *best) *best = g->score[p], at = p;
        if (g->score[p] < *low) *low = g->score[p];
    }
    for (int p = 0; p < np; p++)
        if (p != at && g->score[p] > *second) *second = g->score[p];
    if (np < 2) *second = *best;
}

double measure_value(const study *s, const study_game *g, const measure_ref *m)
{
    int np = s->nplayers, best, second, low;
    ranks(g, np, &best, &second, &low);
    const game_trace *t = &g->trace;
    switch (m->id) {
    case MS_SPREAD: return best - low;
    case MS_MARGIN: return best - second;
    case MS_CLOSENESS: return best > 0 ? (double)(best - second) / best : 0;
    case MS_SEAT_WIN: return measure_win_share(g, np, m->arg);
    case MS_LENGTH: return g->turns;
    case MS_SKILL_GAP: {
        double w = 0;
        for (int p = 0; p < np; p++)
            if (g->agent[p] == 0) w += measure_win_share(g, np, p);
        return w;
    }
    case MS_LEAD_CHANGES: return t->lead_changes;
    case MS_LED_FROM: return t->led_from;
    case MS_WINNER_BEHIND: return t->snapshots ? (double)t->winner_behind / t->snapshots : 0;
    case MS_BRANCHING: return t->decisions ? (double)t->options / t->decisions : 0;
    case MS_CHOICES: return g->turns ? (double)t->choice_decisions / g->turns : 0;
    case MS_POINTS: return m->arg < STUDY_MAX_REASONS ? g->points[m->arg] : 0;
    default: return 0;
    }
}

json_t *measures_game_json(const study *s, const study_game *g)
{
    measure_ref m[MEASURES_MAX];
    int n = measures_of(s, m, MEASURES_MAX);
    json_t *o = json_object();
    for (int i = 0; o && i < n; i++) {
        char *key = text_utf8(m[i].key);
        if (key) json_object_set_new(o, key, json_sig(measure_value(s, g, &m[i]), 6));
        free(key);
    }
    return o;
}

typedef struct summary {
    double mean, lo, hi;
    int games;
} summary;

static summary summarise(const study *s, const measure_ref *m)
{
    int n = s->nresults;
    double *x = calloc((size_t)(n > 0 ? n : 1), sizeof *x);
    if (!x) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < n; i++) x[i] = measure_value(s, &s->results[i], m);
    interval ci = stat_mean_ci95(x, n);
    summary r = {stat_mean(x, n), ci.lo, ci.hi, n};
    free(x);
    return r;
}

/* Points by reason no game scored are left out. */
static int listed(const study *s, measure_ref *m, int max)
{
    int n = measures_all(s, m, max), k = 0;
    for (int i = 0; i < n; i++) {
        if (m[i].id == MS_POINTS) {
            long total = 0;
            for (int g = 0; g < s->nresults; g++) total += s->results[g].points[m[i].arg];
            if (!total) continue;
        }
        m[k++] = m[i];
    }
    return k;
}

json_t *measures_study_json(const study *s)
{
    measure_ref m[MEASURES_MAX];
    int n = listed(s, m, MEASURES_MAX);
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++) {
        summary r = summarise(s, &m[i]);
        json_array_append_new(list, json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:i}", "key", json_text(m[i].key), "name",
                                              json_text(m[i].name), "unit", m[i].unit, "value", json_fixed(r.mean, 6),
                                              "lo", json_fixed(r.lo, 6), "hi", json_fixed(r.hi, 6), "games", r.games));
    }
    return list;
}

void measures_study_text(FILE *f, const study *s)
{
    measure_ref m[MEASURES_MAX];
    int n = listed(s, m, MEASURES_MAX);
    fprintf(f, "\n%-44s %-18s %10s  %s\n", "measure (docs/measures.md)", "key", "mean", "(95% interval)");
    for (int i = 0; i < n; i++) {
        summary r = summarise(s, &m[i]);
        fprintf(f, "%-44s %-18s %10.3f  [%.3f, %.3f]\n", m[i].name, m[i].key, r.mean, r.lo, r.hi);
    }
}

void measures_study_csv(FILE *f, const study *s)
{
    measure_ref m[MEASURES_MAX];
    int n = listed(s, m, MEASURES_MAX);
    for (int i = 0; i < n; i++) {
        summary r = summarise(s, &m[i]);
        fprintf(f, "%s,,,%d,%.6f,%.6f,%.6f\n", m[i].key, r.games, r.mean, r.lo, r.hi);
    }
}
