/* cmd_replay.c - carc replay [--json] FILE (docs/records.md: the replay contract). */
#include <stdio.h>
#include <string.h>

#include "term_text.h"
#include "ascii.h"
#include "commands.h"
#include "record.h"
#include "json_text.h"

static void print_json(const carc_game *g)
{
    const carc_rules *r = carc_game_rules(g);
    printf("{\"finished\": %s, \"variant\": ", carc_is_finished(g) ? "true" : "false");
    json_write_string(stdout, carc_rules_name(r));
    printf(", \"turns\": %d, \"players\": [", carc_turn_number(g));
    for (int p = 0; p < carc_players(g); p++) {
        printf("%s{\"name\": ", p ? ", " : "");
        json_write_string(stdout, carc_player_name(g, p));
        printf(", \"score\": %d}", carc_score(g, p));
    }
    printf("], \"events\": [");
    for (int i = 0; i < carc_awards(g); i++) {
        const carc_award *a = carc_award_at(g, i);
        printf("%s{\"player\": ", i ? ", " : "");
        json_write_string(stdout, carc_player_name(g, a->player));
        printf(", \"seat\": %d, \"points\": %d, \"reason\": ", a->player, a->points);
        json_write_string(stdout, carc_reason_name(r, a->reason));
        printf(", \"step\": %d, \"final\": %s}", a->step, (a->flags & CARC_AWARD_FINAL) ? "true" : "false");
    }
    printf("]}\n");
}

int cmd_replay(int argc, char **argv)
{
    bool json = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--allow-plugin-paths") == 0) carc_allow_plugin_paths(1);
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: carc replay [--json] [--allow-plugin-paths] FILE\n\n"
                   "Replays a game record and prints the final board and scores, or with --json\n"
                   "one JSON object: finished, players (name, score) and every scoring event\n"
                   "(player, points, reason). A line that is not a legal option stops the replay\n"
                   "with its file and line and the options that were legal there.\n"
                   "--allow-plugin-paths: let the record's variant load C plugins from paths it\n"
                   "gives (native code: only files you trust; docs/security.md).\n");
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "carc replay: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (path) {
            fprintf(stderr, "carc replay: one record at a time\n");
            return 2;
        } else path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: carc replay [--json] [--allow-plugin-paths] FILE\n");
        return 2;
    }
    char err[8192] = "";
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        term_error("carc replay", err);
        return 1;
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    if (!rules) {
        term_error("carc replay", err);
        carc_record_free(&rec);
        return 1;
    }
    carc_game *g = NULL;
    int rc = carc_replay(&rec, rules, &g, err, sizeof err);
    if (rc < 0) {
        term_error("carc replay", err);
    } else if (json) {
        print_json(g);
    } else {
        ascii_board(g, stdout);
        ascii_scores(g, stdout);
        printf("%s\n", carc_is_finished(g) ? "game over" : "game in progress");
    }
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    return rc < 0 ? 1 : 0;
}
