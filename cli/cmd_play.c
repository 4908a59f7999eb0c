/* cmd_play.c - carc play: a game at the terminal, saved after every move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "ascii.h"
#include "commands.h"
#include "runner.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: carc play [--variant NAME] [--players AGENT,AGENT[,...]] [--names A,B,...]\n"
               "                 [--seed S] [--save FILE] [--option KEY=VALUE]... [--allow-plugin-paths]\n"
               "       carc play --resume FILE [--allow-plugin-paths]\n\n"
               "Plays a game; default: you (human) against a greedy bot on the base game.\n"
               "The record is saved atomically after every move (default carc-game.rec);\n"
               "--resume continues a saved game with the same seats and agents.\n"
               "At your turn: type an option's number or its text; ? lists them; q quits.\n"
               "--allow-plugin-paths: let the variant load C plugins from paths it gives\n"
               "(native code: only for files you trust); otherwise plugins are found by\n"
               "name on the plugin path (docs/security.md).\n"
               "Agents:\n");
    agent_list(f);
}

static int finish(carc_game *g, int rc, const char *save, const char *err)
{
    if (rc < 0) {
        fprintf(stderr, "carc play: %s\n", err);
        return 1;
    }
    if (rc == 1) {
        printf("\ngame saved to %s; continue it with: carc play --resume %s\n", save, save);
        return 0;
    }
    ascii_board(g, stdout);
    ascii_scores(g, stdout);
    int best = 0;
    for (int p = 1; p < carc_players(g); p++)
        if (carc_score(g, p) > carc_score(g, best)) best = p;
    printf("game over:");
    for (int p = 0; p < carc_players(g); p++)
        if (carc_score(g, p) == carc_score(g, best)) printf(" %s", carc_player_name(g, p));
    printf(" %s (record: %s)\n", "won", save);
    return 0;
}

static int resume(const char *path)
{
    char err[8192];
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        fprintf(stderr, "carc play: %s\n", err);
        return 1;
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    carc_game *g = NULL;
    agent *agents[CARC_MAX_PLAYERS] = {0};
    int rc = -1;
    carc_record_writer w = {0};
    if (rules && carc_replay(&rec, rules, &g, err, sizeof err) == 0) {
        const char *names[CARC_MAX_PLAYERS], *ags[CARC_MAX_PLAYERS], *opts[32];
        for (int p = 0; p < rec.nplayers; p++) {
            names[p] = rec.names[p];
            ags[p] = rec.agents[p];
        }
        for (int i = 0; i < rec.noptions; i++) opts[i] = rec.options[i];
        rc = carc_writer_begin(&w, rec.variant, rec.seed, rec.nplayers, names, ags, opts, rec.noptions);
        for (int i = 0; i < rec.nlines && rc == 0; i++) rc = carc_writer_line(&w, rec.lines[i].text);
        for (int p = 0; p < rec.nplayers && rc == 0; p++) {
            /* Each agent's stream is offset by the decisions already made so a
             * resumed bot does not repeat its opening choices. */
            agents[p] = agent_create(rec.agents[p], rec.seed + (uint64_t)rec.nlines, p, err, sizeof err);
            if (!agents[p]) rc = -1;
        }
        if (rc == 0) {
            run_config cfg = {&w, path, 0};
            rc = run_game(g, agents, &cfg, err, sizeof err);
        }
    }
    int out = finish(g, rules ? rc : -1, path, err);
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) agent_free(agents[p]);
    carc_writer_free(&w);
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    return out;
}

/* The record's header must read back as written, or the saved game is
 * lost: a name is one word of 1 to 31 bytes and unique; no text holds '#'
 * (a comment in a record) or a control character. */
static bool header_ok(const char *variant, const char *const *names, int np, const char *const *ov, int nover)
{
    const char *bad = NULL, *why = NULL;
    for (int p = 0; p < np && !bad; p++) {
        size_t n = strlen(names[p]);
        if (n == 0 || n > 31 || strpbrk(names[p], " \t#") != NULL) bad = names[p], why = "a name is one word of 1 to 31 characters, without '#'";
        for (int q = 0; q < p && !bad; q++)
            if (strcmp(names[p], names[q]) == 0) bad = names[p], why = "two players have this name";
    }
    for (int i = 0; i < nover && !bad; i++)
        if (strlen(ov[i]) >= 160 || strchr(ov[i], '#')) bad = ov[i], why = "an option is shorter than 160 characters, without '#'";
    if (!bad && strchr(variant, '#')) bad = variant, why = "a variant's name or path has no '#'";
    for (const char *const *t = names; !bad && t < names + np; t++)
        for (const char *c = *t; *c; c++)
            if ((unsigned char)*c < 0x20) bad = *t, why = "no control characters";
    if (bad) fprintf(stderr, "carc play: '%s' cannot be saved in a record: %s\n", bad, why);
    return !bad;
}

int cmd_play(int argc, char **argv)
{
    const char *variant = "base", *save = "carc-game.rec", *resume_path = NULL;
    char players_default[] = "human,greedy", names_default[] = "";
    char *players = players_default, *names_arg = names_default;
    uint64_t seed = clock_seed();
    const char *overrides[32];
    int nover = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--allow-plugin-paths") == 0) {
            carc_allow_plugin_paths(1);
            continue;
        }
        if (!v) {
            fprintf(stderr, "carc play: %s needs a value (or is unknown)\n", a);
            return 2;
        }
        if (strcmp(a, "--variant") == 0) variant = v;
        else if (strcmp(a, "--players") == 0) players = argv[i + 1];
        else if (strcmp(a, "--names") == 0) names_arg = argv[i + 1];
        else if (strcmp(a, "--save") == 0) save = v;
        else if (strcmp(a, "--resume") == 0) resume_path = v;
        else if (strcmp(a, "--seed") == 0) {
            if (!arg_u64("play", a, v, &seed)) return 2;
        } else if (strcmp(a, "--option") == 0 && nover < 32) overrides[nover++] = v;
        else {
            fprintf(stderr, "carc play: unknown argument '%s' (see carc play --help)\n", a);
            return 2;
        }
        i++;
    }
    if (resume_path) return resume(resume_path);
    char *ags[CARC_MAX_PLAYERS], *nm[CARC_MAX_PLAYERS];
    int np = arg_split(players, ags, CARC_MAX_PLAYERS);
    int nn = *names_arg ? arg_split(names_arg, nm, CARC_MAX_PLAYERS) : 0;
    if (np < 1 || (nn && nn != np)) {
        fprintf(stderr, "carc play: --players takes 1 to %d agents, and --names as many names\n", CARC_MAX_PLAYERS);
        return 2;
    }
    static const char *const colours[CARC_MAX_PLAYERS] = {"Red", "Blue", "Green", "Yellow", "Black", "Grey"};
    const char *names[CARC_MAX_PLAYERS];
    for (int p = 0; p < np; p++) names[p] = nn ? nm[p] : colours[p];
    if (!header_ok(variant, names, np, overrides, nover)) return 2;
    char err[8192];
    carc_rules *rules = carc_variant_load(variant, overrides, nover, err, sizeof err);
    if (!rules) {
        fprintf(stderr, "carc play: %s\n", err);
        return 1;
    }
    carc_game *g = carc_game_new(rules, np, names, seed, err, sizeof err);
    agent *agents[CARC_MAX_PLAYERS] = {0};
    int rc = g ? 0 : -1;
    for (int p = 0; p < np && rc == 0; p++) {
        agents[p] = agent_create(ags[p], seed, p, err, sizeof err);
        if (!agents[p]) rc = -1;
    }
    carc_record_writer w = {0};
    if (rc == 0) {
        rc = carc_writer_begin(&w, variant, seed, np, names, (const char *const *)ags, overrides, nover);
        printf("carc: %s, seed %llu; the game is saved to %s after every move\n", carc_rules_name(rules),
               (unsigned long long)seed, save);
        run_config cfg = {&w, save, 0};
        if (rc == 0) rc = carc_writer_save(&w, save, err, sizeof err);
        if (rc == 0) rc = run_game(g, agents, &cfg, err, sizeof err);
    }
    int out = finish(g, rc, save, err);
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) agent_free(agents[p]);
    carc_writer_free(&w);
    carc_game_free(g);
    carc_rules_free(rules);
    return out;
}
