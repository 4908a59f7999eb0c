/* cmd_sim.c - carc sim: many seeded games between bots, with statistics. */
#include <stdio.h>

#include "commands.h"
#include "report.h"
#include "study_args.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc sim [OPTIONS]\n\n"
               "Plays seeded games between agents (one per seat, in seat order) and prints,\n"
               "per seat, the win rate (tied winners share a win) and the mean score, each\n"
               "with its 95%% interval, the score's standard deviation, the mean points per\n"
               "game by reason and the mean game length.\n\noptions:\n");
    study_args_usage(f);
}

int cmd_sim(int argc, char **argv)
{
    return study_command("sim", argc, argv, false, usage, report_sim);
}
