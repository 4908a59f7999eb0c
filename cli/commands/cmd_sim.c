/* cmd_sim.c - carc sim: many seeded games between bots, with statistics. */
#include <stdio.h>

#include "commands.h"
#include "report.h"
#include "study_args.h"

static int run(const cli_args *a) { return study_command(a, false, report_sim); }

static const cli_flag flags[] = {STUDY_FLAG_VARIANT, STUDY_FLAGS_PLAY, STUDY_FLAGS_OUTPUT};

const cli_command command_sim = {
    .name = "sim",
    .summary = "simulate many games between bots and print statistics",
    .about = "Plays seeded games between agents (one per seat, in seat order) and prints,\n"
             "per seat, the win rate (tied winners share a win) and the mean score, each\n"
             "with its 95% interval, the score's standard deviation, the mean points per\n"
             "game by reason and the mean game length.\n",
    .max_operands = 0,
    CLI_FLAGS(flags),
    .more_help = study_agents_help,
    .run = run,
};
