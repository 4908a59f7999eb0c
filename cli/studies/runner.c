#include "runner.h"

#include <stdio.h>
#include <string.h>

static int save(const run_config *cfg, char *err, size_t errn)
{
    if (!cfg->writer || !cfg->save_path) return 0;
    return carc_writer_save(cfg->writer, cfg->save_path, err, errn);
}

/* A line the record cannot take (it would pass a reader's limit): the game
 * stops there, its record saved up to the move before. */
static int refused(const run_config *cfg, char *err, size_t errn)
{
    snprintf(err, errn, "%s; the game stops here", cfg->writer->error);
    char serr[512];
    save(cfg, serr, sizeof serr);
    return -1;
}

int run_game(carc_game *g, agent **agents, const run_config *cfg, char *err, size_t errn)
{
    char text[CARC_OPTION_TEXT_MAX + 1];
    for (int decisions = 0;; decisions++) {
        int st = carc_advance(g);
        if (st == CARC_FINISHED) {
            if (cfg->trace) game_trace_observe_end(cfg->trace, g);
            return save(cfg, err, errn);
        }
        if (cfg->trace) game_trace_observe(cfg->trace, g);
        if (st == CARC_FAILED) {
            snprintf(err, errn, "%s", carc_game_error(g));
            return -1;
        }
        if (cfg->max_decisions && decisions >= cfg->max_decisions) {
            snprintf(err, errn, "the game did not end within %d decisions", cfg->max_decisions);
            return -1;
        }
        if (st == CARC_NEED_DRAW) {
            if (carc_draw(g, -1) < 0) {
                snprintf(err, errn, "%s", carc_game_error(g));
                return -1;
            }
            if (cfg->writer) {
                carc_draw_text(g, carc_last_drawn(g), text, sizeof text);
                if (carc_writer_line(cfg->writer, text) < 0) return refused(cfg, err, errn);
            }
            continue;
        }
        agent *a = agents[carc_decision_player(g)];
        if (cfg->trace) game_trace_decision(cfg->trace, carc_option_count(g));
        int k = a->choose(a, g);
        if (k < 0 && a->error[0]) {
            snprintf(err, errn, "%s", a->error);
            return -1;
        }
        if (k < 0) return save(cfg, err, errn) < 0 ? -1 : 1;
        if (cfg->writer) {
            if (carc_option_record_text(g, k, text, sizeof text) < 0) {
                int dup = carc_option_duplicate(g, k);
                const char *who = carc_option_owner(g, k);
                if (dup >= 0 && strcmp(who, "kernel") == 0) who = carc_option_owner(g, dup);
                snprintf(err, errn,
                         "%s offered two options with one text, '%s', in one decision: the record could not "
                         "tell them apart; the game stops here",
                         who, text);
                char serr[512]; /* the game so far is saved; the message above stays */
                save(cfg, serr, sizeof serr);
                return -1;
            }
            if (carc_writer_line(cfg->writer, text) < 0) return refused(cfg, err, errn);
        }
        if (carc_choose(g, k) < 0) {
            snprintf(err, errn, "%s", carc_game_error(g));
            return -1;
        }
        if (cfg->save_path && save(cfg, err, errn) < 0) return -1;
    }
}
