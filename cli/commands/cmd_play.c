/* cmd_play.c - carc play: a game at the terminal, saved after every move. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents.h"
#include "ascii.h"
#include "commands.h"
#include "play_terminal.h"
#include "record_header.h"
#include "study_args.h"
#include "term_text.h"

static int finish(carc_game *g, int rc, const char *save, const char *err)
{
    if (rc < 0) {
        term_error("carc play", err);
        return 1;
    }
    if (rc == 1) {
        int sig = terminal_stop;
        printf("\ngame saved to %s; continue it with: carc play --resume %s\n", save, save);
        fflush(stdout);
        return sig ? 128 + sig : 0;
    }
    putchar('\n');
    terminal_show_board(g, stdout);
    ascii_scores(g, stdout);
    printf("\n");
    ascii_breakdown(g, stdout);
    int best = 0;
    for (int p = 1; p < carc_players(g); p++)
        if (carc_score(g, p) > carc_score(g, best)) best = p;
    printf("game over:");
    for (int p = 0; p < carc_players(g); p++)
        if (carc_score(g, p) == carc_score(g, best)) printf(" %s", carc_player_name(g, p));
    printf(" %s (record: %s)\n", "won", save);
    return 0;
}

/* SIGHUP (the terminal closed), SIGTERM and SIGINT stop the game at the next
 * move or prompt, saved: never in the middle of writing the record. No
 * SA_RESTART, so a prompt waiting for input returns at once. */
static void on_stop(int sig) { terminal_stop = sig; }

static void catch_stops(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed terminal: writes fail, the game saves */
}

static void set_view(bool compact)
{
    terminal_view tv = {compact, 0, 0};
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) {
        tv.cols = ws.ws_col;
        tv.rows = ws.ws_row;
        if (ws.ws_row < 40) tv.compact = true;
    }
    if (tv.compact && !tv.rows) tv.cols = 80, tv.rows = 24;
    terminal_set_view(&tv);
}

/* Continues a saved game; agents (when given) replace the record's. */
static int resume(const char *path, char **new_agents, int nagents)
{
    char err[8192] = "";
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) {
        term_error("carc play", err);
        return 1;
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    carc_game *g = NULL;
    agent *agents[CARC_MAX_PLAYERS] = {0};
    int rc = -1;
    carc_record_writer w = {0};
    if (rules && nagents && nagents != rec.nplayers) {
        snprintf(err, sizeof err, "%s has %d seats, and --players gives %d agents: give one for each seat", path,
                 rec.nplayers, nagents);
        carc_rules_free(rules);
        rules = NULL;
    }
    for (int p = 0; p < nagents && rules; p++) {
        if (strlen(new_agents[p]) >= sizeof rec.agents[p]) {
            snprintf(err, sizeof err, "unknown agent '%.64s'", new_agents[p]);
            carc_rules_free(rules);
            rules = NULL;
        } else snprintf(rec.agents[p], sizeof rec.agents[p], "%s", new_agents[p]);
    }
    if (rules && carc_replay(&rec, rules, &g, err, sizeof err) == 0) {
        const char *names[CARC_MAX_PLAYERS], *ags[CARC_MAX_PLAYERS], *opts[32];
        for (int p = 0; p < rec.nplayers; p++) {
            names[p] = rec.names[p];
            ags[p] = rec.agents[p];
        }
        for (int i = 0; i < rec.noptions; i++) opts[i] = rec.options[i];
        /* The variant as found next to the record, named again from where it is saved. */
        char variant[2 * PATH_MAX];
        rc = carc_record_variant(&rec, variant, sizeof variant);
        if (rc == 0) rc = carc_writer_begin(&w, variant, rec.seed, rec.nplayers, names, ags, opts, rec.noptions);
        if (rc < 0) snprintf(err, sizeof err, "%s: %s", path, w.error);
        for (int i = 0; i < rec.nlines && rc == 0; i++) rc = carc_writer_line(&w, rec.lines[i].text);
        for (int p = 0; p < rec.nplayers && rc == 0; p++) {
            /* Each agent's stream is offset by the decisions already made so a
             * resumed bot does not repeat its opening choices. */
            agents[p] = agent_create(rec.agents[p], rec.seed + (uint64_t)rec.nlines, p, err, sizeof err);
            if (!agents[p]) rc = -1;
        }
        if (rc == 0) rc = carc_writer_sync(&w, path, true, err, sizeof err); /* whole: the new agents, if any */
        if (rc == 0) rc = terminal_play(g, agents, &w, path, stdout, err, sizeof err);
    }
    int out = finish(g, rules ? rc : -1, path, err);
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) agent_free(agents[p]);
    carc_writer_free(&w);
    carc_game_free(g);
    carc_rules_free(rules);
    carc_record_free(&rec);
    return out;
}

/* The flags that only a new game takes: a resumed one has the record's. */
static const char *const new_game_flags[] = {"--variant", "--names", "--save", "--seed", "--option"};

static int run(const cli_args *args)
{
    const char *variant = cli_text(args, "--variant", "base"), *save = cli_text(args, "--save", "carc-game.rec");
    const char *resume_path = cli_text(args, "--resume", NULL);
    char players[1024], names_arg[1024]; /* split in place */
    if (snprintf(players, sizeof players, "%s", cli_text(args, "--players", "human,greedy")) >= (int)sizeof players ||
        snprintf(names_arg, sizeof names_arg, "%s", cli_text(args, "--names", "")) >= (int)sizeof names_arg) {
        fprintf(stderr, "carc play: --players or --names longer than %d characters\n", (int)sizeof players - 1);
        return 2;
    }
    uint64_t seed = cli_given(args, "--seed") ? cli_u64(args, "--seed", 0) : clock_seed();
    bool force = cli_given(args, "--force"), compact = cli_given(args, "--compact");
    bool players_given = cli_given(args, "--players");
    const char *game_flag = NULL; /* a flag that only a new game takes */
    for (size_t k = 0; k < sizeof new_game_flags / sizeof *new_game_flags; k++)
        if (cli_given(args, new_game_flags[k])) game_flag = new_game_flags[k];
    const char *overrides[32];
    int nover = cli_count(args, "--option");
    if (nover > 32) {
        fprintf(stderr, "carc play: --option at most 32 times\n");
        return 2;
    }
    for (int k = 0; k < nover; k++) overrides[k] = cli_nth(args, "--option", k);
    char *ags[CARC_MAX_PLAYERS], *nm[CARC_MAX_PLAYERS];
    int np = arg_split(players, ags, CARC_MAX_PLAYERS);
    /* An unknown agent or setting is bad usage (exit 2), named with the
     * closest known names, as in sim, tournament and compare. */
    for (int p = 0; p < np; p++) {
        char aerr[256];
        agent *a = agent_create(ags[p], 0, p, aerr, sizeof aerr);
        if (!a) {
            agent_error("play", ags[p], aerr);
            return 2;
        }
        agent_free(a);
    }
    set_view(compact);
    catch_stops();
    if (resume_path) {
        if (game_flag) {
            fprintf(stderr, "carc play: %s cannot change a saved game: its variant, seed, names, options and file "
                            "are the record's (--resume takes --players to change the seats' agents)\n",
                    game_flag);
            return 2;
        }
        if (players_given && np < 1) {
            fprintf(stderr, "carc play: --players takes 1 to %d agents\n", CARC_MAX_PLAYERS);
            return 2;
        }
        return resume(resume_path, ags, players_given ? np : 0);
    }
    int nn = names_arg[0] ? arg_split(names_arg, nm, CARC_MAX_PLAYERS) : 0;
    if (np < 1 || (nn && nn != np)) {
        fprintf(stderr, "carc play: --players takes 1 to %d agents, and --names as many names\n", CARC_MAX_PLAYERS);
        return 2;
    }
    static const char *const colours[CARC_MAX_PLAYERS] = {"Red", "Blue", "Green", "Yellow", "Black", "Grey"};
    const char *names[CARC_MAX_PLAYERS];
    for (int p = 0; p < np; p++) names[p] = nn ? nm[p] : colours[p];
    char err[8192] = "";
    if (!record_header_ok(variant, names, np, overrides, nover, err, sizeof err)) {
        term_error("carc play", err);
        return 2;
    }
    struct stat st;
    if (!force && lstat(save, &st) == 0) {
        fprintf(stderr,
                "carc play: %s exists (a saved game?); continue it with carc play --resume %s, or give --save "
                "NEW-FILE, or --force to overwrite it\n",
                save, save);
        return 1;
    }
    carc_rules *rules = carc_variant_load(variant, overrides, nover, err, sizeof err);
    if (!rules) {
        term_error("carc play", err);
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
        if (rc < 0) snprintf(err, sizeof err, "%s: %s", save, w.error);
        printf("carc: %s, seed %llu; the game is saved to %s after every move\n", carc_rules_name(rules),
               (unsigned long long)seed, save);
        if (rc == 0) rc = carc_writer_sync(&w, save, true, err, sizeof err);
        if (rc == 0) rc = terminal_play(g, agents, &w, save, stdout, err, sizeof err);
    }
    int out = finish(g, rc, save, err);
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) agent_free(agents[p]);
    carc_writer_free(&w);
    carc_game_free(g);
    carc_rules_free(rules);
    return out;
}

static void agents_help(FILE *f)
{
    fprintf(f, "\nagents:\n");
    agent_list(f);
}

static const cli_flag flags[] = {
    FLAG_TEXT("--variant", "NAME", "variant name or file (default base)"),
    FLAG_TEXT("--players", "A,B[,...]", "the seats' agents (default human,greedy); see below"),
    FLAG_TEXT("--names", "A,B[,...]", "the players' names, one per seat (default Red, Blue ...)"),
    FLAG_U64("--seed", "S", "the game's seed (default: from the clock)"),
    FLAG_TEXT("--save", "FILE", "where the record goes (default carc-game.rec)"),
    FLAG_SWITCH("--force", "overwrite the --save file if it exists"),
    FLAG_TEXTS("--option", "KEY=VALUE", "a rule option for this game (repeatable)"),
    FLAG_TEXT("--resume", "FILE", "continue a saved game (--players: new agents for its seats)"),
    FLAG_SWITCH("--compact", "a window of the board and short lists, for an 80x24 terminal\n"
                             "(also chosen when the terminal has fewer than 40 rows)"),
    FLAG_ALLOW_PLUGIN_PATHS("the variant"),
};

const cli_command command_play = {
    .name = "play",
    .max_operands = 0,
    .summary = "play a game at the terminal (default: you against a greedy bot)",
    .about = "Plays a game; default: you (human) against a greedy bot on the base game.\n"
             "The record is saved after every move, each move appended, so a game killed\n"
             "at any moment leaves every move made (default carc-game.rec); an\n"
             "existing file is not overwritten unless --force is given. Closing the\n"
             "terminal (SIGHUP), SIGTERM or Ctrl-C stop the game saved.\n"
             "--resume FILE continues a saved game with its seats (its variant, seed, names\n"
             "and options are the record's); --players gives the seats new agents (as many\n"
             "as the record has seats), e.g. a bot for a player who left.\n"
             "At your turn you see the board (+ marks the tile laid last, a small letter\n"
             "in a tile's top-left corner a tile mark: v volcano, p portal, ...), the tile you\n"
             "drew in its four turns and where it fits; type an option's number, x,y rN\n"
             "for a placement, or an option's text; ? lists the options, b shows the\n"
             "whole board, q quits. Bots' moves and every award are told as they happen;\n"
             "the end shows the points by player and reason.\n"
             "Without --allow-plugin-paths, plugins are found by name on the plugin path.\n",
    CLI_FLAGS(flags),
    .more_help = agents_help,
    .run = run,
};
