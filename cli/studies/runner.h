/* runner.h - plays a game to its end (or to a quit) with one agent a seat,
 * optionally writing its record and saving it after every move. */
#ifndef CARC_RUNNER_H
#define CARC_RUNNER_H
#include "agents.h"
#include "carc.h"
#include "record.h"
#include "game_trace.h"

typedef struct run_config {
    carc_record_writer *writer;  /* NULL: no record */
    const char *save_path;       /* NULL: no autosave */
    int max_decisions;           /* 0: no limit */
    game_trace *trace;           /* NULL, or filled as the game goes (game_trace.h) */
} run_config;

/* 0 when the game finished, 1 when a human quit, -1 on error (err set). */
int run_game(carc_game *g, agent **agents, const run_config *cfg, char *err, size_t errn);
#endif
