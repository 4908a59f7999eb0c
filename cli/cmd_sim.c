/* cmd_sim.c - carc sim: many seeded games between bots, with statistics. */
#include <stdio.h>
#include <string.h>

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
    static study s;
    study_defaults(&s);
    study_flags fl = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        int rc = study_args_parse("sim", argc, argv, &s, &fl, &i);
        if (rc < 0) return 2;
        if (rc == 0) {
            fprintf(stderr, "carc sim: unknown argument '%s' (see carc sim --help)\n", argv[i]);
            return 2;
        }
    }
    s.label = "sim";
    s.progress = !fl.sharded;
    if (study_run(&s) < 0) {
        fprintf(stderr, "carc sim: %s\n", s.error);
        study_free(&s);
        return strstr(s.error, "players, not") ? 2 : 1;
    }
    int rc = 0;
    if (fl.sharded) {
        FILE *out = study_out("sim", &fl);
        if (out) {
            study_write_jsonl(&s, out, "sim", "");
            if (out != stdout) fclose(out);
        } else {
            rc = 1;
        }
    } else {
        report_sim(&s, stdout, fl.json);
    }
    study_free(&s);
    return rc;
}
