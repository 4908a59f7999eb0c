/* ascii.h - the board and scores as text for the terminal. */
#ifndef CARC_ASCII_H
#define CARC_ASCII_H
#include <stdio.h>
#include "carc.h"
void ascii_board(const carc_game *g, FILE *out);
void ascii_scores(const carc_game *g, FILE *out);
#endif
