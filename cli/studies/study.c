/* study.c - runs a study on threads; reads and writes its JSON lines. */
#include "study.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agents.h"
#include "commands.h"
#include "runner.h"
#include "content_hash.h"

typedef struct run_ctx {
    study *s;
    int *todo;            /* game numbers of this shard */
    int ntodo;
    atomic_int next, done, failed;
    pthread_mutex_t lock;
} run_ctx;

char study_file_name[512];
char study_file_hash[CONTENT_HASH_HEX];

/* A file as reports and shard identities name it: under the data
 * directory by its path there (variants/base.ini, scripts/robbers.lua),
 * elsewhere by its name (my-rule.ini): the same wherever carc is installed
 * or the study's folder is copied. */
static void source_name(const char *path, char *out, size_t n)
{
    const char *data = carc_data_dir(), *slash = strrchr(path, '/'), *shown = slash ? slash + 1 : path;
    size_t dl = strlen(data);
    if (dl && strncmp(path, data, dl) == 0 && path[dl] == '/') shown = path + dl + 1;
    snprintf(out, n, "%s", shown);
}

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
    game_trace trace;
    game_trace_begin(&trace);
    cfg.trace = &trace;
    if (rc == 0 && s->records_dir) {
        cfg.writer = &w;
        if (carc_writer_begin(&w, s->variant, seed, s->nplayers, names, specs, ov, s->noverrides) < 0) {
            snprintf(err, sizeof err, "%s", w.error);
            rc = -1;
        }
    }
    bool at_limit = false; /* the record could not take a line: the game stopped there */
    if (rc == 0) {
        rc = run_game(g, agents, &cfg, err, sizeof err);
        at_limit = rc < 0 && cfg.writer && w.error[0];
    }
    if ((rc == 0 || at_limit) && s->records_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/game-%06d.rec", s->records_dir, index);
        char serr[1200];
        if (rc == 0) rc = carc_writer_save(&w, path, err, sizeof err);
        else if (carc_writer_save(&w, path, serr, sizeof serr) == 0) {
            /* kept, as play keeps it: it replays to the game so far */
            size_t used = strlen(err);
            snprintf(err + used, sizeof err - used, " (its record up to there: %s)", path);
        }
    }
    if (cfg.writer) carc_writer_free(&w);
    if (rc == 0) {
        study_game *r = &s->results[slot];
        memset(r, 0, sizeof *r);
        r->index = index;
        r->seed = seed;
        r->turns = carc_turn_number(g);
        r->trace = trace;
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

/* The files the rules were read from, each with its SHA-256. */
static int hash_sources(study *s, const char *list)
{
    s->nsources = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, "\n");
        if (s->nsources == STUDY_MAX_SOURCES || len >= sizeof s->sources[0]) {
            snprintf(s->error, sizeof s->error, "the variant reads more than %d files (or a path too long)",
                     STUDY_MAX_SOURCES);
            return -1;
        }
        snprintf(s->sources[s->nsources], sizeof s->sources[0], "%.*s", (int)len, p);
        source_name(s->sources[s->nsources], s->source_name[s->nsources], sizeof s->source_name[0]);
        if (content_hash_file(s->sources[s->nsources], s->source_hash[s->nsources]) < 0) {
            snprintf(s->error, sizeof s->error, "%s: cannot read it again to hash it", s->sources[s->nsources]);
            return -1;
        }
        s->nsources++;
        p += len + (p[len] == '\n');
    }
    return 0;
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
    if (hash_sources(s, carc_rules_sources(rules)) < 0) {
        carc_rules_free(rules);
        return -1;
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
    for (int i = s->first_game > 0 ? s->first_game : 0; i < s->games; i++)
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
    s->shards = 1;
    s->nresults = c.ntodo;
    free(c.todo);
    pthread_mutex_destroy(&c.lock);
    return atomic_load(&c.failed) ? -1 : 0;
}
