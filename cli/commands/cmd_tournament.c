/* cmd_tournament.c - carc tournament: agents against each other with seats
 * rotated, win rates with 95% intervals. */
#include <stdio.h>

#include "commands.h"
#include "report.h"
#include "study_args.h"

static int run(const cli_args *a) { return study_command(a, true, report_tournament); }

static const cli_flag flags[] = {STUDY_FLAG_VARIANT, STUDY_FLAGS_PLAY, STUDY_FLAGS_OUTPUT};

const cli_command command_tournament = {
    .name = "tournament",
    .summary = "bots against each other, seats rotated, win rates with 95% intervals",
    .about = "Plays the agents against each other, one seat each, rotating the seats from\n"
             "game to game so that no agent keeps the first move. Prints each agent's win\n"
             "rate and mean score with 95% intervals, and the win rate of each seat.\n"
             "Example: carc tournament --players mcts:200ms,greedy --games 200 --jobs 2\n",
    .max_operands = 0,
    CLI_FLAGS(flags),
    .more_help = study_agents_help,
    .run = run,
};
