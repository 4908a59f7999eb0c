/*
 * fuzz_common.h - shared by the libFuzzer targets in tests/fuzz/ and by
 * tests/test_fuzz_regressions.c, which includes every target (with
 * FUZZ_NO_MAIN) to replay tests/fuzz/regressions/ and the seed corpora.
 *
 * The parsers read files (they name the file and line in their messages, and
 * a variant's includes, sets and scripts are found relative to it), so each
 * input is written to a file in a private temporary directory and loaded
 * from there: the code under test is exactly the code a user runs.
 */
#ifndef CARC_FUZZ_COMMON_H
#define CARC_FUZZ_COMMON_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "carc.h"
#include "record.h"

static char fuzz_dir_path[256];

/* Removes the private directory (its files have fixed names, no subdirectory). */
static inline void fuzz_dir_remove(void)
{
    DIR *d = opendir(fuzz_dir_path);
    if (!d) return;
    char p[600];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", fuzz_dir_path, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(fuzz_dir_path);
}

/* The private directory for this process, made on first use. */
static inline const char *fuzz_dir(void)
{
    if (!fuzz_dir_path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/carc-fuzz.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(fuzz_dir_path)) {
            perror("carc fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_dir_remove);
    }
    return fuzz_dir_path;
}

/* Writes the bytes to DIR/name; returns the path (static buffer per name slot). */
static inline const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
    static char paths[4][512];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 512, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("carc fuzz: writing the input");
        abort();
    }
    return path;
}

static inline const char *fuzz_write_text(const char *name, const char *text)
{
    return fuzz_write(name, (const uint8_t *)text, strlen(text));
}

static inline FILE *fuzz_null(void)
{
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ULL;
    return h;
}

static inline uint32_t fuzz_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

/* Every game a target plays checks itself after every move (CARC_CHECK,
 * kernel/check.c): a difference between what the kernel keeps up to date and
 * what it recomputes is a finding, not a bad input. */
static inline void fuzz_check_mode(void) { setenv("CARC_CHECK", "1", 1); }

/* Whether the game failed its own self-check (engine.c starts the game's
 * error with this mark; a message that merely quotes it, such as a record
 * line or a name in a replay error, is the input's text, not a finding). */
static inline void fuzz_no_check_failure(const carc_game *g)
{
    static const char mark[] = "self-check (CARC_CHECK)";
    if (g && strncmp(carc_game_error(g), mark, sizeof mark - 1) == 0) {
        fprintf(stderr, "fuzz: %s\n", carc_game_error(g));
        abort();
    }
}

static inline void fuzz_self_check(const carc_game *g)
{
    char msg[512];
    fuzz_no_check_failure(g);
    if (g && carc_game_check(g, msg, sizeof msg) < 0) {
        fprintf(stderr, "fuzz: self-check: %s\n", msg);
        abort();
    }
}

/* The state a replay must reproduce. */
typedef struct fuzz_summary {
    int tiles, turn, events, active, finished, pile;
    int score[CARC_MAX_PLAYERS];
} fuzz_summary;

static inline void fuzz_summarise(const carc_game *g, fuzz_summary *s)
{
    memset(s, 0, sizeof *s);
    s->tiles = carc_tiles_placed(g);
    s->turn = carc_turn_number(g);
    s->events = carc_awards(g);
    s->active = carc_active_player(g);
    s->finished = carc_is_finished(g);
    s->pile = carc_pile_left(g);
    for (int p = 0; p < carc_players(g); p++) s->score[p] = carc_score(g, p);
}

/* One-option decisions a fuzzed game answers besides its max_decisions: a
 * phase asking up to the 256 a turn the kernel allows, with 900-character
 * texts, fills a record to its 8 MiB in some 9,400 of them (records with
 * many answers, docs/security.md). */
#define FUZZ_MAX_FORCED 12000

/*
 * Plays at most max_decisions seeded random decisions (and at most
 * FUZZ_MAX_FORCED with one option) on fresh copies of the rules, writing the
 * record as `carc play` does: a line the record cannot take (it would pass
 * a reader's limit) stops the game. Then the saved-game contract: the
 * record, saved and loaded back, parses, and replayed on rules loaded
 * afresh from `variant` reaches the same state (the state before the draw
 * whose line it could not take). A breach aborts (a finding). variant
 * NULL: no record check (rules that no file names).
 */
static inline void fuzz_play(const carc_rules *r, const char *variant, uint64_t seed, int max_decisions)
{
    char err[4096];
    fuzz_check_mode();
    int np = carc_rules_min_players(r);
    if (np < 2 && carc_rules_max_players(r) >= 2) np = 2;
    static const char *const names[CARC_MAX_PLAYERS] = {"Red", "Blue", "Green", "Yellow", "Black", "Grey"};
    static const char *const agents[CARC_MAX_PLAYERS] = {"random", "random", "random",
                                                         "random", "random", "random"};
    carc_game *g = carc_game_new(r, np, names, seed, err, sizeof err);
    if (!g) return;
    carc_record_writer w;
    if (carc_writer_begin(&w, variant ? variant : "none", seed, np, names, agents, NULL, 0) < 0) abort();
    uint64_t rng = seed;
    char text[CARC_OPTION_TEXT_MAX + 1];
    int st = CARC_FAILED;
    bool drawn_unsaved = false; /* a draw whose line the record could not take */
    for (int d = 0, forced = 0; d < max_decisions && forced < FUZZ_MAX_FORCED;) {
        st = carc_advance(g);
        if (st == CARC_NEED_DRAW) {
            if (carc_draw(g, -1) < 0) break;
            carc_draw_text(g, carc_last_drawn(g), text, sizeof text);
            d++;
            if (carc_writer_line(&w, text) < 0) {
                drawn_unsaved = true;
                break;
            }
        } else if (st == CARC_NEED_CHOICE) {
            int n = carc_option_count(g);
            if (n <= 0) break;
            if (n == 1) forced++;
            else d++;
            int k = (int)(fuzz_next(&rng) % (uint32_t)n);
            /* As carc's runner does: an option whose text another option
             * of the decision shares is not written, nor one the record
             * cannot take; the game stops. */
            if (carc_option_record_text(g, k, text, sizeof text) < 0) break;
            if (carc_writer_line(&w, text) < 0) break;
            if (carc_choose(g, k) < 0) break;
        } else {
            break;
        }
    }
    if (w.error[0] && strstr(w.error, "would pass its limit") == NULL) {
        fprintf(stderr, "fuzz: the record refused a line carc wrote: %s\n", w.error);
        abort();
    }
    st = carc_advance(g);
    fuzz_self_check(g);
    if (variant && st != CARC_FAILED) {
        /* Save, load, replay on fresh rules: the same game. */
        char path[600];
        snprintf(path, sizeof path, "%s/saved.rec", fuzz_dir());
        if (carc_writer_save(&w, path, err, sizeof err) < 0) {
            fprintf(stderr, "fuzz: cannot save: %s\n", err);
            abort();
        }
        carc_record rec;
        if (carc_record_load(path, &rec, err, sizeof err) < 0) {
            fprintf(stderr, "fuzz: a record carc wrote does not parse: %s\n", err);
            abort();
        }
        carc_rules *r2 = carc_record_rules(&rec, err, sizeof err);
        if (r2) {
            carc_game *g2 = NULL;
            if (carc_replay(&rec, r2, &g2, err, sizeof err) < 0) {
                fprintf(stderr, "fuzz: a record carc wrote does not replay: %s\n", err);
                abort();
            }
            fuzz_self_check(g2);
            fuzz_summary a, b;
            fuzz_summarise(g, &a);
            fuzz_summarise(g2, &b);
            if (!drawn_unsaved && memcmp(&a, &b, sizeof a) != 0) {
                fprintf(stderr, "fuzz: the replayed game differs from the game played (tiles %d/%d, turn %d/%d, "
                                "events %d/%d)\n", a.tiles, b.tiles, a.turn, b.turn, a.events, b.events);
                abort();
            }
            carc_game_free(g2);
            carc_rules_free(r2);
        }
        carc_record_free(&rec);
    }
    carc_writer_free(&w);
    /* Bots clone games and look ahead: a clone must stand on its own. */
    carc_game *c = carc_game_clone(g);
    carc_game_free(g);
    if (c) {
        for (int d = 0; d < 8; d++) {
            st = carc_advance(c);
            if (st == CARC_NEED_DRAW) carc_draw(c, -1);
            else if (st == CARC_NEED_CHOICE && carc_option_count(c) > 0) carc_choose(c, 0);
            else break;
        }
        carc_game_free(c);
    }
}

/* A script of size bytes, in the base rules, then a short game whose
 * record must replay (fuzz_play); seed decides the game. */
static inline void fuzz_play_script(const uint8_t *script, size_t size, uint64_t seed)
{
    fuzz_write("fuzz.lua", script, size);
    const char *variant = fuzz_write_text("lua-variant.ini", "[variant]\nname = fuzz-lua\n[tiles]\nsets = base\n"
                                                             "[plugins]\nscripts = fuzz.lua\n");
    char err[4096];
    carc_rules *r = carc_variant_load(variant, NULL, 0, err, sizeof err);
    if (!r) return;
    fuzz_play(r, variant, seed, 40);
    carc_rules_free(r);
}

/*
 * Every target checks each input against the limits docs/security.md
 * promises. Time: a script's work is charged to an instruction budget of
 * 2,000,000 a call and 20,000,000 a turn, about 70 ms of a turn's work when
 * the charges match the time (a call's CPU clock stops it at 2 s and the
 * wall clock a turn at 10 s, backstops for work no charge sees), so a short
 * game played and replayed stays under FUZZ_MAX_CPU_SECONDS unless some
 * work costs far more than it is charged: an input over it is such work,
 * found. Memory: a script's is capped at 32 MiB and a game's by its
 * tiles, so the process grows by less than FUZZ_MAX_GROWTH_MB. Nothing
 * waits (a FIFO, a lock), so the time it spends blocked stays under
 * FUZZ_MAX_BLOCKED_SECONDS.
 * Blocked is the wall clock less the time running and the time waiting for
 * a processor (/proc/self/schedstat): a busy machine slows an input without
 * making it a finding. An input over them is a finding: the target aborts,
 * and libFuzzer keeps the input.
 */
#define FUZZ_MAX_CPU_SECONDS 12.0
#define FUZZ_MAX_BLOCKED_SECONDS 10.0
#define FUZZ_MAX_GROWTH_MB 512

/* Seconds this thread has run and waited to run; 0 where the kernel does not say. */
static inline double fuzz_scheduled_seconds(void)
{
    unsigned long long run = 0, wait = 0;
    FILE *f = fopen("/proc/self/schedstat", "r");
    if (!f) return 0;
    int n = fscanf(f, "%llu %llu", &run, &wait);
    fclose(f);
    return n == 2 ? (double)(run + wait) / 1e9 : 0;
}

static inline double fuzz_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline long fuzz_max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Runs body on the input and checks its time and memory. */
static inline int fuzz_bounded(const char *target, int (*body)(const uint8_t *, size_t), const uint8_t *data,
                               size_t size)
{
    long rss0 = fuzz_max_rss_kb();
    double wall0 = fuzz_clock(CLOCK_MONOTONIC), cpu0 = fuzz_clock(CLOCK_PROCESS_CPUTIME_ID);
    double sched0 = fuzz_scheduled_seconds();
    body(data, size);
    double wall = fuzz_clock(CLOCK_MONOTONIC) - wall0, cpu = fuzz_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    double sched = fuzz_scheduled_seconds() - sched0;
    double blocked = sched > 0 ? wall - sched : 0;
    long grew_mb = (fuzz_max_rss_kb() - rss0) / 1024;
    if (cpu > FUZZ_MAX_CPU_SECONDS || blocked > FUZZ_MAX_BLOCKED_SECONDS || grew_mb > FUZZ_MAX_GROWTH_MB) {
        /* On the standard output: libFuzzer's -close_fd_mask=2 closes the error stream. */
        printf("fuzz %s: an input over the documented limits: %.1f s of CPU (at most %.0f), %.1f s blocked "
               "(at most %.0f; %.1f s of wall clock), %ld MB more memory (at most %d)\n",
               target, cpu, FUZZ_MAX_CPU_SECONDS, blocked, FUZZ_MAX_BLOCKED_SECONDS, wall, grew_mb,
               FUZZ_MAX_GROWTH_MB);
        fflush(stdout);
        abort();
    }
    return 0;
}

#endif
