/* cmd_tournament.c - carc tournament: agents against each other with seats
 * rotated, win rates with 95% intervals. */
#include <stdio.h>

#include "commands.h"
#include "report.h"
#include "study_args.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc tournament --players A,B[,...] [OPTIONS]\n\n"
               "Plays the agents against each other, one seat each, rotating the seats from\n"
               "game to game so that no agent keeps the first move. Prints each agent's win\n"
               "rate and mean score with 95%% intervals, and the win rate of each seat.\n"
               "Example: carc tournament --players mcts:200ms,greedy --games 200 --jobs 2\n\noptions:\n");
    study_args_usage(f);
}

int cmd_tournament(int argc, char **argv)
{
    return study_command("tournament", argc, argv, true, usage, report_tournament);
}
