/* cmd_serve.c - carc serve: the game in the browser. A local web server
 * (serve_http.c) with the page's files from the web folder installed with
 * carc; nothing is fetched from the network. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "regular_file.h"
#include "serve_access.h"
#include "serve_http.h"
#include "serve_registry.h"
#include "serve_store.h"
#include "term_text.h"

static int run(const cli_args *a)
{
    serve_config cfg = {.listen = "127.0.0.1", .port = 8017, .save_dir = "."};
    cfg.port = cli_int(a, "--port", cfg.port);
    cfg.listen = cli_text(a, "--listen", cfg.listen);
    cfg.save_dir = cli_text(a, "--save-dir", cfg.save_dir);
    const char *resume = cli_text(a, "--resume", NULL), *allow[ACCESS_MAX_HOSTS];
    cfg.nallow_hosts = cli_count(a, "--allow-host");
    if (cfg.nallow_hosts > ACCESS_MAX_HOSTS) {
        fprintf(stderr, "carc serve: at most %d --allow-host\n", ACCESS_MAX_HOSTS);
        return 2;
    }
    for (int k = 0; k < cfg.nallow_hosts; k++) allow[k] = cli_nth(a, "--allow-host", k);
    cfg.allow_hosts = allow;
    /* only this machine reaches a loopback address; beyond it, the key. A
     * name given with --allow-host is one others use (a reverse proxy's,
     * docs/serve.md): the key too, though the proxy connects over loopback */
    cfg.needs_key = !access_is_loopback(cfg.listen) || cfg.nallow_hosts > 0;
    cfg.max_games = cli_int(a, "--max-games", SERVE_MAX_GAMES);
    if (cfg.max_games == 0) cfg.max_games = -1; /* no limit */
    cfg.max_connections = (unsigned)cli_int(a, "--max-connections", SERVE_MAX_CONNECTIONS);
    cfg.per_address = (unsigned)cli_int(a, "--max-per-address", SERVE_MAX_PER_ADDRESS);
    cfg.max_streams = (int)cfg.max_connections * 3 / 4;
    cfg.streams_per_address = cli_int(a, "--max-streams-per-address", SERVE_MAX_STREAMS_PER_ADDRESS);
    char db_default[1200];
    store_default_path(db_default, sizeof db_default);
    const char *db = cli_text(a, "--db", db_default);
    struct stat st;
    if (stat(cfg.save_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "carc serve: --save-dir %s is not a folder\n", cfg.save_dir);
        return 2;
    }
    char web[1200];
    snprintf(web, sizeof web, "%s/web", carc_data_dir());
    cfg.web_dir = web;
    if (stat(web, &st) < 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "carc serve: the page's files are missing: no folder %s (is carc installed?)\n", web);
        return 1;
    }

    char err[8192] = "", id[24] = "";
    const char *sync = cli_text(a, "--db-sync", "normal");
    if (strcmp(sync, "normal") != 0 && strcmp(sync, "full") != 0) {
        fprintf(stderr, "carc serve: --db-sync is normal or full, not '%s'\n", sync);
        return 2;
    }
    if (store_open(db, strcmp(sync, "full") == 0, err, sizeof err) < 0) {
        fprintf(stderr, "carc serve: %s\n", err);
        return 1;
    }
    /* every game in progress, played again from its stored lines */
    static char ids[SERVE_MAX_GAMES * 4][24];
    int nactive = store_active_ids(ids, (int)(sizeof ids / sizeof ids[0]), err, sizeof err), loaded = 0;
    if (nactive < 0) {
        fprintf(stderr, "carc serve: %s\n", err);
        store_close();
        return 1;
    }
    for (int i = 0; i < nactive; i++) {
        serve_session *s = store_load(ids[i], err, sizeof err);
        if (s && registry_add(s, err, sizeof err) == 0) loaded++;
        else {
            if (s) session_free(s);
            fprintf(stderr, "carc serve: the game %s cannot be played again: %s\n", ids[i], err);
        }
    }
    if (resume) {
        /* A FIFO or a device is refused, never waited on. */
        size_t len = 0;
        char *text = regular_file_read(resume, "record", CARC_RECORD_MAX_BYTES, &len, err, sizeof err);
        if (!text) {
            term_error("carc serve", err);
            return 1;
        }
        serve_session *s = session_from_record(resume, text, len, resume, err, sizeof err);
        free(text);
        int status;
        json_t *state = s ? serve_open_game(s, NULL, false, err, sizeof err, &status) : NULL;
        if (!state) {
            term_error("carc serve", err);
            return 1;
        }
        snprintf(id, sizeof id, "%s", json_string_value(json_object_get(state, "id")));
        json_decref(state);
    }

    /* The server's threads inherit the mask: the signals that stop it come
     * to sigwait below. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    int port = 0;
    serve_daemon *d = serve_start(&cfg, &port, err, sizeof err);
    if (!d) {
        fprintf(stderr, "carc serve: %s\n", err);
        registry_clear();
        store_close();
        return 1;
    }
    const char *key = serve_key(d);
    bool v6 = strchr(cfg.listen, ':') != NULL;
    if (!key)
        printf("carc serve: open http://%s%s%s:%d/%s%s\n", v6 ? "[" : "", cfg.listen, v6 ? "]" : "", port,
               *id ? "#game=" : "", id);
    else /* the key is in the address: this line is the only place it is written */
        printf("carc serve: listening on %s port %d, not only on this machine: whoever has the address below "
               "(with its key) can play and read the games; open http://%s%s%s:%d/?key=%s%s%s\n",
               cfg.listen, port, v6 ? "[" : "", cfg.listen, v6 ? "]" : "", port, key, *id ? "#game=" : "", id);
    printf("carc serve: games are kept in %s (%d in progress, %d played again); records are saved in %s; "
           "the lobby: /lobby.html; Ctrl-C stops the server\n",
           db, nactive, loaded, cfg.save_dir);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    serve_stop(d);
    registry_clear();
    store_close();
    printf("carc serve: stopped\n");
    return 0;
}

static const cli_flag flags[] = {
    FLAG_INT("--port", "N", 0, 65535, "the port (default 8017; 0: any free port)"),
    FLAG_TEXT("--listen", "ADDRESS", "bind this address instead of 127.0.0.1 (0.0.0.0: every\n"
                                     "network of this machine); beyond this machine the API asks\n"
                                     "for a key, part of the address carc serve prints"),
    FLAG_TEXTS("--allow-host", "NAME", "a name of this machine the browser may use for it, besides\n"
                                       "localhost and its addresses (repeatable)"),
    FLAG_TEXT("--save-dir", "DIR", "where new games' records go (default: the current folder,\n"
                                   "as carc-ID.rec)"),
    FLAG_TEXT("--resume", "FILE", "open a saved game; it goes on saving to FILE"),
    FLAG_TEXT("--db", "PATH", "the database of the games, their seats and moves (default:\n"
                              "$XDG_DATA_HOME/carc/carc.db, else ~/.local/share/carc/carc.db)"),
    FLAG_TEXT("--db-sync", "normal|full", "normal: a killed server loses no move answered; full: a\n"
                                          "power cut neither (one disk flush per move)"),
    FLAG_INT("--max-games", "N", 0, 100000, "games in progress at once (default 1000; 0: no limit)"),
    FLAG_INT("--max-connections", "N", 16, 10000, "connections open at once (default 512)"),
    FLAG_INT("--max-per-address", "N", 1, 10000, "connections open at once from one address (default 64)"),
    FLAG_INT("--max-streams-per-address", "N", 1, 10000,
             "live pages open at once from one address (default 16)"),
};

const cli_command command_serve = {
    .name = "serve",
    .max_operands = 0,
    .summary = "play in the browser: a local web server for any variant and seats",
    .about = "Plays carc in the browser: starts a web server on this machine and prints\n"
             "the address to open. Any variant, any seats (you, friends at the same\n"
             "screen, bots); each game's record is saved after every move.\n"
             "Stop it with Ctrl-C. docs/serve.md describes the page and the JSON API.\n",
    CLI_FLAGS(flags),
    .run = run,
};
