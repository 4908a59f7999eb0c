/* cmd_replay.c - carc replay [--json] FILE (docs/records.md: the replay contract). */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "term_text.h"
#include "ascii.h"
#include "commands.h"
#include "held_json.h"
#include "json_io.h"
#include "record.h"

/* One JSON object on one line (docs/records.md, "replay"). */
static int print_json(const carc_game *g)
{
    const carc_rules *r = carc_game_rules(g);
    json_t *players = json_array(), *events = json_array();
    bool ok = players && events;
    for (int p = 0; ok && p < carc_players(g); p++) {
        json_t *one = json_pack("{s:o,s:i}", "name", json_text(carc_player_name(g, p)), "score", carc_score(g, p));
        /* The figures the player holds (prisoners), only when there are some. */
        json_t *held = held_figures_json(g, p);
        if (one && held && json_array_size(held) > 0) json_object_set(one, "held", held);
        json_decref(held);
        ok = json_array_append_new(players, one) == 0;
    }
    for (int i = 0; ok && i < carc_awards(g); i++) {
        const carc_award *a = carc_award_at(g, i);
        ok = json_array_append_new(events, json_pack("{s:o,s:i,s:i,s:o,s:i,s:b}", "player",
                                                     json_text(carc_player_name(g, a->player)), "seat", a->player,
                                                     "points", a->points, "reason",
                                                     json_text(carc_reason_name(r, a->reason)), "step",
                                                     a->step, "final", (a->flags & CARC_AWARD_FINAL) != 0)) == 0;
    }
    json_t *j = ok ? json_pack("{s:b,s:o,s:i,s:O,s:O}", "finished", carc_is_finished(g), "variant",
                               json_text(carc_rules_name(r)), "turns", carc_turn_number(g), "players", players, "events", events)
                   : NULL;
    json_decref(players);
    json_decref(events);
    ok = j && json_print(stdout, j) == 0;
    json_decref(j);
    if (!ok) {
        fprintf(stderr, "carc replay: out of memory\n");
        return 1;
    }
    putchar('\n');
    return 0;
}

static int run(const cli_args *a)
{
    bool json = cli_given(a, "--json");
    const char *path = a->operands[0];
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
        rc = -print_json(g);
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

static const cli_flag flags[] = {
    FLAG_SWITCH("--json", "print one JSON object instead of the board"),
    FLAG_ALLOW_PLUGIN_PATHS("the record's variant"),
};

const cli_command command_replay = {
    .name = "replay",
    .operands = "FILE",
    .min_operands = 1,
    .max_operands = 1,
    .summary = "replay a game record; print the board and scores",
    .about = "Replays a game record and prints the final board and scores, or with --json\n"
             "one JSON object: finished, players (name, score) and every scoring event\n"
             "(player, points, reason). A line that is not a legal option stops the replay\n"
             "with its file and line and the options that were legal there.\n",
    CLI_FLAGS(flags),
    .run = run,
};
