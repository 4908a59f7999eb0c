/* study.c - runs a study on threads; reads and writes its JSON lines. */
#include "study.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agents.h"
#include "commands.h"
#include "runner.h"
#include "json_text.h"

typedef struct run_ctx {
    study *s;
    int *todo;            /* game numbers of this shard */
    int ntodo;
    atomic_int next, done, failed;
    pthread_mutex_t lock;
} run_ctx;

void study_init(study *s)
{
    memset(s, 0, sizeof *s);
    s->jobs = 1;
    s->shard_k = s->shard_n = 1;
    s->label = "games";
}

void study_free(study *s)
{
    free(s->results);
    s->results = NULL;
    s->nresults = 0;
}

int study_reason(study *s, const char *name)
{
    for (int i = 0; i < s->nreasons; i++)
        if (strcmp(s->reasons[i], name) == 0) return i;
    if (s->nreasons == STUDY_MAX_REASONS) return -1;
    snprintf(s->reasons[s->nreasons], sizeof s->reasons[0], "%s", name);
    return s->nreasons++;
}

static void fail(run_ctx *c, const char *msg)
{
    pthread_mutex_lock(&c->lock);
    if (!atomic_load(&c->failed)) snprintf(c->s->error, sizeof c->s->error, "%s", msg);
    atomic_store(&c->failed, 1);
    pthread_mutex_unlock(&c->lock);
}

static int agent_of(const study *s, int index, int seat)
{
    return s->rotate ? (seat + index) % s->nagents : seat;
}

/* Plays game `index` into its slot of s->results. */
static int play_one(run_ctx *c, const carc_rules *rules, int slot)
{
    study *s = c->s;
    int index = c->todo[slot];
    char err[1200] = "";
    uint64_t seed = game_seed(s->seed, (uint64_t)index);
    const char *names[CARC_MAX_PLAYERS], *specs[CARC_MAX_PLAYERS], *ov[32];
    char namebuf[CARC_MAX_PLAYERS][8];
    agent *agents[CARC_MAX_PLAYERS] = {0};
    for (int i = 0; i < s->noverrides; i++) ov[i] = s->overrides[i];
    for (int p = 0; p < s->nplayers; p++) {
        snprintf(namebuf[p], sizeof namebuf[p], "P%d", p + 1);
        names[p] = namebuf[p];
        specs[p] = s->agents[agent_of(s, index, p)];
    }
    carc_game *g = carc_game_new(rules, s->nplayers, names, seed, err, sizeof err);
    int rc = g ? 0 : -1;
    for (int p = 0; p < s->nplayers && rc == 0; p++) {
        agents[p] = agent_create(specs[p], seed, p, err, sizeof err);
        if (!agents[p]) rc = -1;
    }
    carc_record_writer w;
    run_config cfg = {0};
    cfg.max_decisions = 1000000;
    if (rc == 0 && s->records_dir) {
        carc_writer_begin(&w, s->variant, seed, s->nplayers, names, specs, ov, s->noverrides);
        cfg.writer = &w;
    }
    if (rc == 0) rc = run_game(g, agents, &cfg, err, sizeof err);
    if (rc == 0 && s->records_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/game-%06d.rec", s->records_dir, index);
        rc = carc_writer_save(&w, path, err, sizeof err);
    }
    if (cfg.writer) carc_writer_free(&w);
    if (rc == 0) {
        study_game *r = &s->results[slot];
        memset(r, 0, sizeof *r);
        r->index = index;
        r->seed = seed;
        r->turns = carc_turn_number(g);
        for (int p = 0; p < s->nplayers; p++) {
            r->score[p] = carc_score(g, p);
            r->agent[p] = agent_of(s, index, p);
            r->fallbacks += (int)agents[p]->fallbacks;
        }
        /* Reason numbers are the rules'; s->reasons was filled from the
         * same rules before the threads started. */
        for (int e = 0; e < carc_awards(g); e++) {
            const carc_award *a = carc_award_at(g, e);
            if (a->reason < STUDY_MAX_REASONS) r->points[a->reason] += a->points;
        }
    } else {
        char msg[1300] = "";
        snprintf(msg, sizeof msg, "game %d (seed %llu): %s", index, (unsigned long long)seed, err);
        fail(c, msg);
    }
    for (int p = 0; p < s->nplayers; p++) agent_free(agents[p]);
    carc_game_free(g);
    return rc;
}

static carc_rules *load_rules(const study *s, char *err, size_t errn)
{
    const char *ov[32];
    for (int i = 0; i < s->noverrides; i++) ov[i] = s->overrides[i];
    return carc_variant_load(s->variant, ov, s->noverrides, err, errn);
}

/* Each thread loads its own rules (a Lua state is not shared). */
static void *worker(void *arg)
{
    run_ctx *c = arg;
    char err[1024] = "";
    carc_rules *rules = load_rules(c->s, err, sizeof err);
    if (!rules) {
        fail(c, err);
        return NULL;
    }
    for (;;) {
        int i = atomic_fetch_add(&c->next, 1);
        if (i >= c->ntodo || atomic_load(&c->failed)) break;
        if (play_one(c, rules, i) < 0) break;
        atomic_fetch_add(&c->done, 1);
    }
    carc_rules_free(rules);
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_line(const run_ctx *c, double t0)
{
    int d = atomic_load(&c->done), n = c->ntodo;
    double el = now() - t0, left = d ? el * (n - d) / d : 0;
    char bar[21];
    int fill = n ? 20 * d / n : 20;
    for (int i = 0; i < 20; i++) bar[i] = i < fill ? '#' : '.';
    bar[20] = 0;
    fprintf(stderr, "\r%s [%s] %d/%d %s, %.0f s left   ", c->s->label, bar, d, n, "games", left);
}

int study_run(study *s)
{
    char err[1024] = "";
    carc_rules *rules = load_rules(s, err, sizeof err);
    if (!rules) {
        snprintf(s->error, sizeof s->error, "%s", err);
        return -1;
    }
    if (s->nplayers < carc_rules_min_players(rules) || s->nplayers > carc_rules_max_players(rules)) {
        snprintf(s->error, sizeof s->error, "variant %s takes %d to %d players, not %d", carc_rules_name(rules),
                 carc_rules_min_players(rules), carc_rules_max_players(rules), s->nplayers);
        carc_rules_free(rules);
        return -1;
    }
    snprintf(s->variant_name, sizeof s->variant_name, "%s", carc_rules_name(rules));
    snprintf(s->title, sizeof s->title, "%s", carc_rules_title(rules));
    snprintf(s->modules, sizeof s->modules, "%s", carc_rules_modules(rules));
    snprintf(s->version, sizeof s->version, "%s", CARC_VERSION);
    s->nsettings = 0;
    for (int i = 0; i < carc_rules_options(rules) && s->nsettings < 64; i++) {
        if (carc_rules_option_is_default(rules, i)) continue;
        const char *key = carc_rules_option_key(rules, i);
        char val[64];
        carc_rules_option(rules, key, val, sizeof val);
        snprintf(s->settings[s->nsettings++], sizeof s->settings[0], "%s=%s", key, val);
    }
    s->nreasons = 0;
    for (int i = 0; i < STUDY_MAX_REASONS; i++) {
        const char *name = carc_reason_name(rules, i);
        if (strcmp(name, "?") == 0) break;
        study_reason(s, name);
    }
    carc_rules_free(rules);
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.todo = malloc((size_t)(s->games > 0 ? s->games : 1) * sizeof *c.todo);
    s->results = calloc((size_t)(s->games > 0 ? s->games : 1), sizeof *s->results);
    if (!c.todo || !s->results) {
        free(c.todo);
        snprintf(s->error, sizeof s->error, "out of memory");
        return -1;
    }
    for (int i = 0; i < s->games; i++)
        if (i % s->shard_n == s->shard_k - 1) c.todo[c.ntodo++] = i;
    pthread_mutex_init(&c.lock, NULL);
    double t0 = now();
    int jobs = s->jobs < 1 ? 1 : s->jobs > 256 ? 256 : s->jobs;
    pthread_t th[256];
    for (int t = 0; t < jobs; t++) pthread_create(&th[t], NULL, worker, &c);
    bool tty = s->progress && isatty(2) && c.ntodo >= 20;
    while (tty && atomic_load(&c.done) < c.ntodo && !atomic_load(&c.failed)) {
        struct timespec ts = {0, 250000000};
        nanosleep(&ts, NULL);
        progress_line(&c, t0);
    }
    for (int t = 0; t < jobs; t++) pthread_join(th[t], NULL);
    if (tty) fprintf(stderr, "\r%70s\r", "");
    s->seconds = now() - t0;
    s->nresults = c.ntodo;
    free(c.todo);
    pthread_mutex_destroy(&c.lock);
    return atomic_load(&c.failed) ? -1 : 0;
}

/* ---- JSON lines -------------------------------------------------------------------------- */

void study_write_jsonl(const study *s, FILE *f, const char *kind, const char *side)
{
    for (int i = 0; i < s->nresults; i++) {
        const study_game *r = &s->results[i];
        fprintf(f, "{\"kind\": ");
        json_write_string(f, kind);
        fprintf(f, ", \"side\": ");
        json_write_string(f, side);
        fprintf(f, ", \"variant\": ");
        json_write_string(f, s->variant);
        fprintf(f, ", \"variant_name\": ");
        json_write_string(f, s->variant_name);
        fprintf(f, ", \"title\": ");
        json_write_string(f, s->title);
        fprintf(f, ", \"modules\": ");
        json_write_string(f, s->modules);
        fprintf(f, ", \"carc_version\": ");
        json_write_string(f, s->version);
        fprintf(f, ", \"options\": [");
        for (int k = 0; k < s->noverrides; k++) {
            if (k) fprintf(f, ", ");
            json_write_string(f, s->overrides[k]);
        }
        fprintf(f, "], \"settings\": [");
        for (int k = 0; k < s->nsettings; k++) {
            if (k) fprintf(f, ", ");
            json_write_string(f, s->settings[k]);
        }
        fprintf(f, "], \"study_seed\": %llu, \"games\": %d, \"index\": %d, \"seed\": %llu, \"turns\": %d, \"agents\": [",
                (unsigned long long)s->seed, s->games, r->index, (unsigned long long)r->seed, r->turns);
        for (int p = 0; p < s->nplayers; p++) {
            if (p) fprintf(f, ", ");
            json_write_string(f, s->agents[r->agent[p]]);
        }
        fprintf(f, "], \"scores\": [");
        for (int p = 0; p < s->nplayers; p++) fprintf(f, "%s%d", p ? ", " : "", r->score[p]);
        fprintf(f, "], \"points\": {");
        bool first = true;
        /* Every reason, zeros too: a merge then lists them in the rules' order. */
        for (int k = 0; k < s->nreasons; k++) {
            fprintf(f, "%s", first ? "" : ", ");
            json_write_string(f, s->reasons[k]);
            fprintf(f, ": %d", r->points[k]);
            first = false;
        }
        fprintf(f, "}}\n");
    }
}

/* A small reader for exactly the lines written above. */
typedef struct jp {
    const char *p;
} jp;

static void ws(jp *j)
{
    while (isspace((unsigned char)*j->p)) j->p++;
}

static bool lit(jp *j, char c)
{
    ws(j);
    if (*j->p != c) return false;
    j->p++;
    return true;
}

static bool jstring(jp *j, char *out, size_t n)
{
    if (!lit(j, '"')) return false;
    size_t k = 0;
    while (*j->p && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            c = *j->p++;
            if (c == 'u') { /* \u00XX from our own writer */
                unsigned v;
                if (sscanf(j->p, "%4x", &v) != 1) return false;
                j->p += 4;
                c = (char)v;
            } else if (!c) {
                return false;
            }
        }
        if (k + 1 < n) out[k++] = c;
    }
    out[k] = 0;
    return lit(j, '"');
}

static bool jnumber(jp *j, long long *v)
{
    ws(j);
    char *end;
    *v = strtoll(j->p, &end, 10);
    if (end == j->p) return false;
    j->p = end;
    return true;
}

static int parse_line(const char *line, study *a, study *b, char *kind, size_t kindn)
{
    jp j = {line};
    char key[64], side[8] = "", variant[512] = "", vname[256] = "", agents[CARC_MAX_PLAYERS][64], reason[32];
    char options[32][160], title[512] = "", modules[1024] = "", version[32] = "";
    static _Thread_local char settings[64][160];
    int nopt = 0, nset = 0, nag = 0, nsc = 0, scores[CARC_MAX_PLAYERS], points_n = 0, pts[STUDY_MAX_REASONS];
    char ptnames[STUDY_MAX_REASONS][32];
    long long index = -1, seed = 0, turns = 0, study_seed = 0, games = 0;
    if (!lit(&j, '{')) return -1;
    do {
        if (!jstring(&j, key, sizeof key) || !lit(&j, ':')) return -1;
        if (strcmp(key, "kind") == 0) {
            if (!jstring(&j, kind, kindn)) return -1;
        } else if (strcmp(key, "side") == 0) {
            if (!jstring(&j, side, sizeof side)) return -1;
        } else if (strcmp(key, "variant") == 0) {
            if (!jstring(&j, variant, sizeof variant)) return -1;
        } else if (strcmp(key, "variant_name") == 0) {
            if (!jstring(&j, vname, sizeof vname)) return -1;
        } else if (strcmp(key, "title") == 0) {
            if (!jstring(&j, title, sizeof title)) return -1;
        } else if (strcmp(key, "modules") == 0) {
            if (!jstring(&j, modules, sizeof modules)) return -1;
        } else if (strcmp(key, "carc_version") == 0) {
            if (!jstring(&j, version, sizeof version)) return -1;
        } else if (strcmp(key, "options") == 0 || strcmp(key, "agents") == 0 || strcmp(key, "settings") == 0) {
            int which = key[0] == 'o' ? 0 : key[0] == 'a' ? 1 : 2;
            if (!lit(&j, '[')) return -1;
            if (!lit(&j, ']')) {
                do {
                    bool ok;
                    if (which == 0) ok = nopt < 32 && jstring(&j, options[nopt++], 160);
                    else if (which == 1) ok = nag < CARC_MAX_PLAYERS && jstring(&j, agents[nag++], 64);
                    else ok = nset < 64 && jstring(&j, settings[nset++], 160);
                    if (!ok) return -1;
                } while (lit(&j, ','));
                if (!lit(&j, ']')) return -1;
            }
        } else if (strcmp(key, "scores") == 0) {
            if (!lit(&j, '[')) return -1;
            do {
                long long v;
                if (nsc >= CARC_MAX_PLAYERS || !jnumber(&j, &v)) return -1;
                scores[nsc++] = (int)v;
            } while (lit(&j, ','));
            if (!lit(&j, ']')) return -1;
        } else if (strcmp(key, "points") == 0) {
            if (!lit(&j, '{')) return -1;
            if (!lit(&j, '}')) {
                do {
                    long long v;
                    if (points_n >= STUDY_MAX_REASONS || !jstring(&j, reason, sizeof reason) || !lit(&j, ':') ||
                        !jnumber(&j, &v))
                        return -1;
                    snprintf(ptnames[points_n], 32, "%s", reason);
                    pts[points_n++] = (int)v;
                } while (lit(&j, ','));
                if (!lit(&j, '}')) return -1;
            }
        } else {
            long long v;
            if (!jnumber(&j, &v)) return -1;
            if (strcmp(key, "index") == 0) index = v;
            else if (strcmp(key, "seed") == 0) seed = v;
            else if (strcmp(key, "turns") == 0) turns = v;
            else if (strcmp(key, "study_seed") == 0) study_seed = v;
            else if (strcmp(key, "games") == 0) games = v;
            else return -1;
        }
    } while (lit(&j, ','));
    if (!lit(&j, '}') || index < 0 || nsc == 0 || nsc != nag) return -1;
    study *s = strcmp(side, "B") == 0 ? b : a;
    if (s->nresults == 0 && s->nplayers == 0) {
        snprintf(s->variant, sizeof s->variant, "%s", variant);
        snprintf(s->variant_name, sizeof s->variant_name, "%s", vname);
        snprintf(s->title, sizeof s->title, "%s", title);
        snprintf(s->modules, sizeof s->modules, "%s", modules);
        snprintf(s->version, sizeof s->version, "%s", version);
        s->nsettings = nset;
        for (int i = 0; i < nset; i++) snprintf(s->settings[i], sizeof s->settings[i], "%s", settings[i]);
        s->noverrides = nopt;
        for (int i = 0; i < nopt; i++) snprintf(s->overrides[i], sizeof s->overrides[i], "%s", options[i]);
        s->nplayers = nsc;
        s->seed = (uint64_t)study_seed;
        s->games = (int)games;
    } else if (s->nplayers != nsc || strcmp(s->variant, variant) != 0) {
        return -2; /* lines of different studies */
    }
    study_game *r = realloc(s->results, (size_t)(s->nresults + 1) * sizeof *r);
    if (!r) return -1;
    s->results = r;
    study_game *gm = &r[s->nresults++];
    memset(gm, 0, sizeof *gm);
    gm->index = (int)index;
    gm->seed = (uint64_t)seed;
    gm->turns = (int)turns;
    for (int p = 0; p < nsc; p++) {
        gm->score[p] = scores[p];
        int k = 0;
        while (k < s->nagents && strcmp(s->agents[k], agents[p]) != 0) k++;
        if (k == s->nagents) {
            if (k == CARC_MAX_PLAYERS) return -1;
            snprintf(s->agents[s->nagents++], 64, "%s", agents[p]);
        }
        gm->agent[p] = k;
    }
    for (int k = 0; k < points_n; k++) {
        int rn = study_reason(s, ptnames[k]);
        if (rn < 0) return -1;
        gm->points[rn] = pts[k];
    }
    return 0;
}

static int by_index(const void *x, const void *y)
{
    const study_game *a = x, *b = y;
    return (a->index > b->index) - (a->index < b->index);
}

int study_read_jsonl(const char *path, study *a, study *b, char *kind, size_t kindn, char *err, size_t errn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errn, "%s: cannot open", path);
        return -1;
    }
    static _Thread_local char line[32768];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == 0) continue;
        int rc = parse_line(line, a, b, kind, kindn);
        if (rc < 0) {
            snprintf(err, errn, "%s:%d: %s", path, lineno,
                     rc == -2 ? "this game belongs to another study (variant or players differ)"
                              : "not a game line written by carc sim, tournament or compare --shard");
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    if (a->nresults) qsort(a->results, (size_t)a->nresults, sizeof *a->results, by_index);
    if (b->nresults) qsort(b->results, (size_t)b->nresults, sizeof *b->results, by_index);
    return 0;
}
