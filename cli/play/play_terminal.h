/* play_terminal.h - the game at the terminal (carc play): the loop that
 * plays it, tells every move and award as it happens and saves the record
 * after each, and the prompt of a human seat: the board with the last tile
 * marked, the drawn tile in its four turns, the placements grouped by
 * position, every other decision's options. */
#ifndef CARC_PLAY_TERMINAL_H
#define CARC_PLAY_TERMINAL_H
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "agents.h"
#include "carc.h"
#include "record.h"

/* How the terminal shows the game. */
typedef struct terminal_view {
    bool compact;         /* a window of the board and short lists, for 80x24 */
    int cols, rows;       /* the terminal's size (0: unknown) */
} terminal_view;

/* Set once before playing (carc play's flags and the terminal's size). */
void terminal_set_view(const terminal_view *tv);

/* Set (from a signal handler) to stop the game: it stops at the next move
 * or prompt, saved. */
extern volatile sig_atomic_t terminal_stop;

/* The human seat's choice: an option number, or -1 to quit (end of input,
 * q, or terminal_stop). */
int terminal_choose(carc_game *g, FILE *in, FILE *out);

/* The board as the prompt shows it (a window of it in compact mode), the
 * tile laid last marked, and the figures that are not followers. */
void terminal_show_board(carc_game *g, FILE *out);

/* Plays the game to its end or a quit: draws from the pile, each seat's
 * agent answers, each move and award told on out, the record written to w
 * and saved to save after every move. 0 finished, 1 stopped (quit or
 * signal; saved), -1 with err. */
int terminal_play(carc_game *g, agent **agents, carc_record_writer *w, const char *save, FILE *out, char *err,
                  size_t errn);
#endif
