/* cmd_tournament.c - carc tournament: agents against each other with seats
 * rotated, win rates with 95% intervals. */
#include <stdio.h>
#include <string.h>

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
    static study s;
    study_defaults(&s);
    study_flags fl = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        int rc = study_args_parse("tournament", argc, argv, &s, &fl, &i);
        if (rc < 0) return 2;
        if (rc == 0) {
            fprintf(stderr, "carc tournament: unknown argument '%s' (see carc tournament --help)\n", argv[i]);
            return 2;
        }
    }
    s.rotate = true;
    s.label = "tournament";
    s.progress = !fl.sharded;
    if (study_run(&s) < 0) {
        fprintf(stderr, "carc tournament: %s\n", s.error);
        study_free(&s);
        return 1;
    }
    int rc = 0;
    if (fl.sharded) {
        FILE *out = study_out("tournament", &fl);
        if (out) {
            study_write_jsonl(&s, out, "tournament", "");
            if (out != stdout) fclose(out);
        } else {
            rc = 1;
        }
    } else {
        report_tournament(&s, stdout, fl.json);
    }
    study_free(&s);
    return rc;
}
