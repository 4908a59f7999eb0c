/* play_terminal.c - the game at the terminal (play_terminal.h). */
#include "play_terminal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "ascii.h"
#include "game_log.h"
#include "term_text.h"

volatile sig_atomic_t terminal_stop;

static terminal_view view_cfg;

/* What happened since the last prompt: bots' moves and awards. A prompt
 * shows it under the board, where a small terminal keeps it in view. */
#define NEWS_LINES 64
static char news[NEWS_LINES][200];
static int nnews, news_dropped;

static void tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tell(const char *fmt, ...)
{
    if (nnews == NEWS_LINES) {
        memmove(news[0], news[1], sizeof news - sizeof news[0]);
        nnews--;
        news_dropped++;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(news[nnews++], sizeof news[0], fmt, ap);
    va_end(ap);
}

/* Prints the news, the last `max` lines of it (0: all), and forgets it. */
static void flush_news(FILE *out, int max)
{
    int from = max > 0 && nnews > max ? nnews - max : 0;
    if (from + news_dropped) fprintf(out, "(%d earlier lines)\n", from + news_dropped);
    for (int i = from; i < nnews; i++) {
        term_puts(out, news[i]);
        fputc('\n', out);
    }
    nnews = news_dropped = 0;
}

/* Rows of the board window in compact mode, and the lines left for news. */
static int compact_board_rows(void)
{
    int rows = view_cfg.rows > 0 ? view_cfg.rows : 24, r = (rows - 18) / 3;
    return r < 1 ? 1 : r;
}
static int compact_news_lines(void)
{
    int rows = view_cfg.rows > 0 ? view_cfg.rows : 24, k = rows - 12 - 3 * compact_board_rows();
    return k < 2 ? 2 : k;
}

void terminal_set_view(const terminal_view *tv) { view_cfg = *tv; }

/* ---- the prompt -------------------------------------------------------------------- */

static void show_board(carc_game *g, FILE *out, bool whole);

typedef struct place_group {
    int x, y, n;
    int rot[4], opt[4];
} place_group;

/* The kernel's placements, grouped by position in the order offered. */
static int placements(carc_game *g, place_group *groups, int max)
{
    int ng = 0, n = carc_option_count(g);
    for (int i = 0; i < n; i++) {
        char text[128], r[8];
        int x, y;
        if (carc_option_text(g, i, text, sizeof text) < 0 || sscanf(text, "place %d,%d r%7s", &x, &y, r) != 3) continue;
        int k = 0;
        while (k < ng && (groups[k].x != x || groups[k].y != y)) k++;
        if (k == ng) {
            if (ng == max) continue;
            groups[ng++] = (place_group){x, y, 0, {0}, {0}};
        }
        if (groups[k].n < 4) {
            groups[k].rot[groups[k].n] = atoi(r) / 90 & 3;
            groups[k].opt[groups[k].n++] = i;
        }
    }
    return ng;
}

/* Items printed across the line as long as they fit the width. */
typedef struct flow {
    FILE *out;
    int col, width;
    int max_lines, lines, left; /* a limit (0: none); items left out */
} flow;

static void flow_item(flow *f, const char *s)
{
    int n = (int)strlen(s);
    if (f->max_lines && f->lines >= f->max_lines) {
        f->left++;
        return;
    }
    if (f->col && f->col + 3 + n > f->width) {
        fputc('\n', f->out);
        f->col = 0;
        if (f->max_lines && ++f->lines >= f->max_lines) {
            f->left++;
            return;
        }
    }
    fputs(f->col ? "   " : "  ", f->out);
    term_puts(f->out, s); /* option texts come from plugins and scripts */
    f->col += (f->col ? 3 : 2) + n;
}

static void flow_end(flow *f)
{
    if (f->col) fputc('\n', f->out);
    if (f->left) fprintf(f->out, "  ... and %d more (? lists them all)\n", f->left);
    f->col = f->lines = f->left = 0;
}

void terminal_show_board(carc_game *g, FILE *out) { show_board(g, out, false); }

static void show_board(carc_game *g, FILE *out, bool whole)
{
    /* Tiles are numbered in the order laid: the last is the newest. */
    int last_tile = carc_tiles_placed(g) > 1 ? carc_tiles_placed(g) - 1 : -1;
    ascii_opts o = {last_tile, 0, 0, 0, 0};
    if (view_cfg.compact && !whole) {
        int cols = view_cfg.cols > 0 ? view_cfg.cols : 80, rows = view_cfg.rows > 0 ? view_cfg.rows : 24;
        (void)rows;
        o.cols = (cols - 5) / 5;
        o.rows = compact_board_rows();
        if (last_tile >= 0) {
            int rot, type;
            carc_tile_at_index(g, last_tile, &o.centre_x, &o.centre_y, &rot, &type);
        }
    }
    ascii_board_with(g, out, &o);
    if (!view_cfg.compact || whole) ascii_figures(g, out);
}

static void show_options(carc_game *g, FILE *out, bool all)
{
    int n = carc_option_count(g), width = view_cfg.cols > 0 ? view_cfg.cols : 80;
    place_group groups[256];
    int ng = placements(g, groups, 256);
    fprintf(out, "%s, %s", carc_player_name(g, carc_decision_player(g)), carc_decision_label(g));
    int drawn = carc_last_drawn(g);
    const carc_rules *r = carc_game_rules(g);
    if (ng && drawn >= 0) {
        bool fits[4] = {false};
        for (int k = 0; k < ng; k++)
            for (int j = 0; j < groups[k].n; j++) fits[groups[k].rot[j]] = true;
        fprintf(out, " %s:%s (the tile you drew):\n", carc_tile_set_of(r, drawn), carc_tile_id(r, drawn));
        ascii_tile_turns(r, drawn, fits, out);
        fprintf(out, "where (x,y: option number and turn):\n");
    } else fprintf(out, ":\n");
    flow f = {out, 0, width, view_cfg.compact && !all ? 3 : 0, 0, 0};
    char item[160];
    for (int k = 0; k < ng; k++) {
        int len = snprintf(item, sizeof item, "%d,%d:", groups[k].x, groups[k].y);
        for (int j = 0; j < groups[k].n; j++)
            len += snprintf(item + len, sizeof item - (size_t)len, " %d=r%d", groups[k].opt[j] + 1, 90 * groups[k].rot[j]);
        flow_item(&f, item);
    }
    flow_end(&f);
    for (int i = 0; i < n; i++) {
        char t[256];
        carc_option_text(g, i, t, sizeof t);
        if (strncmp(t, "place ", 6) == 0 && ng) continue;
        snprintf(item, sizeof item, "%d. %s", i + 1, t);
        flow_item(&f, item);
    }
    flow_end(&f);
}

/* "x,y" or "x,y rN" for a placement; -1 when it is not one, -2 when the
 * position has several turns and none was given. */
static int match_place(carc_game *g, const char *s, FILE *out)
{
    int x, y, used = 0;
    if (sscanf(s, "%d,%d%n", &x, &y, &used) != 2) return -1;
    place_group groups[256];
    int ng = placements(g, groups, 256);
    const char *rest = s + used + strspn(s + used, " \t");
    for (int k = 0; k < ng; k++) {
        if (groups[k].x != x || groups[k].y != y) continue;
        if (!*rest && groups[k].n == 1) return groups[k].opt[0];
        if (!*rest) {
            fprintf(out, "at %d,%d the tile fits turned", x, y);
            for (int j = 0; j < groups[k].n; j++) fprintf(out, " r%d", 90 * groups[k].rot[j]);
            fprintf(out, ": which? (say %d,%d r%d)\n", x, y, 90 * groups[k].rot[0]);
            return -2;
        }
        char line[64];
        snprintf(line, sizeof line, "place %d,%d %s", x, y, rest);
        return carc_option_match(g, line);
    }
    return -1;
}

int terminal_choose(carc_game *g, FILE *in, FILE *out)
{
    int n = carc_option_count(g);
    fputc('\n', out);
    show_board(g, out, false);
    ascii_scores(g, out);
    flush_news(out, view_cfg.compact ? compact_news_lines() : 0);
    show_options(g, out, false);
    for (;;) {
        fprintf(out, "choice (number, x,y rN, or text; ? lists, b board, hint, q quits)> ");
        fflush(out);
        char line[512];
        if (terminal_stop || !fgets(line, sizeof line, in)) return -1;
        line[strcspn(line, "\r\n")] = 0;
        char *s = line + strspn(line, " \t");
        if (!*s) continue;
        if (strcmp(s, "?") == 0) {
            show_options(g, out, true);
            continue;
        }
        if (strcmp(s, "b") == 0) {
            show_board(g, out, true);
            continue;
        }
        if (strcmp(s, "q") == 0 || strcmp(s, "quit") == 0) return -1;
        if (strcmp(s, "hint") == 0) { /* the search's view of this decision (analysis.h) */
            char spec[64], err[512];
            analysis_default_agent(g, spec, sizeof spec);
            if (analysis_print(g, spec, (uint64_t)carc_turn_number(g), 5, out, err, sizeof err) < 0)
                fprintf(out, "no hint: %s\n", err);
            continue;
        }
        char *end;
        long k = strtol(s, &end, 10);
        if (*end == 0 && k >= 1 && k <= n) return (int)k - 1;
        int m = match_place(g, s, out);
        if (m == -2) continue;
        if (m < 0) m = carc_option_match(g, s);
        if (m >= 0) return m;
        fprintf(out, "'%s' is not one of the options (type ? to list them)\n", s);
    }
}

/* ---- the loop ------------------------------------------------------------------------ */

static void tell_awards(carc_game *g, int from)
{
    for (int i = from; i < carc_events(g); i++) {
        char text[256];
        log_award_text(g, i, text, sizeof text);
        tell("  %s", text);
    }
}

/* After every move the move's lines are appended to the record on disk, so
 * a game's saves take time linear in its length (carc_writer_sync), and a
 * carc killed at any moment leaves them there. They are flushed to disk
 * (against a crash of the machine) before a person is asked, when the game
 * stops, and at least once a second between bots' moves: a flush per move
 * would cost more than the bots' moves. */
static double last_flush;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int save_now(carc_record_writer *w, const char *path, bool flush, char *err, size_t errn)
{
    if (!w || !path) return 0;
    double t = now_seconds();
    flush = flush || t - last_flush >= 1.0;
    if (flush) last_flush = t;
    return carc_writer_sync(w, path, flush, err, errn);
}

/* Saved and flushed: the game stops, or waits for a person. */
static int save(carc_record_writer *w, const char *path, char *err, size_t errn)
{
    return save_now(w, path, true, err, errn);
}

/* A line the record cannot take (it would pass a reader's limit): the game
 * stops, its record saved up to the move before. */
static int refused(carc_record_writer *w, const char *path, char *err, size_t errn)
{
    snprintf(err, errn, "%s; the game stops here%s%s%s", w->error, path ? " (" : "", path ? path : "",
             path ? " holds it up to the move before)" : "");
    return -1;
}

int terminal_play(carc_game *g, agent **agents, carc_record_writer *w, const char *save_path, FILE *out, char *err,
                  size_t errn)
{
    char text[CARC_OPTION_TEXT_MAX + 1];
    bool any_human = false;
    for (int p = 0; p < carc_players(g); p++) any_human |= strcmp(agents[p]->spec, "human") == 0;
    nnews = news_dropped = 0;
    for (;;) {
        if (!any_human) flush_news(out, 0); /* bots alone: as it happens */
        if (terminal_stop) {
            flush_news(out, 0);
            return save(w, save_path, err, errn) < 0 ? -1 : 1;
        }
        int events = carc_events(g), st = carc_advance(g);
        tell_awards(g, events);
        if (st == CARC_FINISHED) {
            fputc('\n', out); /* after a prompt's line */
            flush_news(out, 0);
            return save(w, save_path, err, errn);
        }
        if (st == CARC_FAILED) {
            snprintf(err, errn, "%s", carc_game_error(g));
            return -1;
        }
        if (st == CARC_NEED_DRAW) {
            if (carc_draw(g, -1) < 0) {
                snprintf(err, errn, "%s", carc_game_error(g));
                return -1;
            }
            carc_draw_text(g, carc_last_drawn(g), text, sizeof text);
            if (w && carc_writer_line(w, text) < 0) return refused(w, save_path, err, errn);
            continue;
        }
        int seat = carc_decision_player(g);
        agent *a = agents[seat];
        bool human = strcmp(a->spec, "human") == 0;
        if (human && save(w, save_path, err, errn) < 0) return -1;
        int k = a->choose(a, g);
        if (k < 0 || terminal_stop) {
            flush_news(out, 0);
            return save(w, save_path, err, errn) < 0 ? -1 : 1;
        }
        if (carc_option_record_text(g, k, text, sizeof text) < 0) {
            snprintf(err, errn,
                     "the chosen option '%s' reads like another option of this decision (a plugin's or script's "
                     "option texts), so the record could not replay it; the game stops here",
                     text);
            char serr[512];
            save(w, save_path, serr, sizeof serr);
            return -1;
        }
        if (w && carc_writer_line(w, text) < 0) return refused(w, save_path, err, errn);
        events = carc_events(g);
        if (carc_choose(g, k) < 0) {
            snprintf(err, errn, "%s", carc_game_error(g));
            return -1;
        }
        if (!human) tell("%s (%s): %s", carc_player_name(g, seat), a->spec, text);
        tell_awards(g, events);
        fflush(out);
        if (save_now(w, save_path, false, err, errn) < 0) return -1;
    }
}
