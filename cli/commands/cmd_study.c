/* cmd_study.c - carc study run FILE: a study written down (an INI file that
 * names the command, the variants, options, players, games, seeds and how
 * the measures are judged) and run from the folder it is in, so that the
 * folder, copied, reruns to the same numbers. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "commands.h"
#include "content_hash.h"
#include "inireader.h"
#include "study.h"
#include "term_text.h"

#define MAX_ARGS 160

typedef struct study_file {
    ini_reader_state rd;
    char command[32];
    char *argv[MAX_ARGS + 4];
    int argc;
    char *a, *b; /* compare's variants */
    bool failed;
} study_file;

static char *dup_or_die(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    return d;
}

static void add(study_file *sf, const char *flag, const char *value)
{
    if (sf->argc + 2 >= MAX_ARGS) {
        ini_reader_fail(&sf->rd, "too many settings (at most %d)", MAX_ARGS / 2 - 8);
        return;
    }
    sf->argv[sf->argc++] = dup_or_die(flag);
    if (value) sf->argv[sf->argc++] = dup_or_die(value);
}

static int on_setting(void *user, const char *section, const char *name, const char *value)
{
    study_file *sf = user;
    sf->rd.line = sf->rd.cur_line;
    if (strcmp(section, "study") != 0) {
        ini_reader_fail(&sf->rd, "a study file has one section, [study], not [%s]", section);
        return 0;
    }
    static const char *const flags[] = {"players", "games", "seed", "seed-b", "blocks", "min-effect", "until-width",
                                        "max-games", "option", "option-a", "option-b", "variant", "skill-gap",
                                        "vary", "measures"};
    if (strcmp(name, "command") == 0) {
        if (strcmp(value, "compare") != 0 && strcmp(value, "sim") != 0 && strcmp(value, "tournament") != 0 &&
            strcmp(value, "sweep") != 0) {
            ini_reader_fail(&sf->rd, "command = compare, sweep, sim or tournament, not '%s'", value);
            return 0;
        }
        snprintf(sf->command, sizeof sf->command, "%s", value);
        return 1;
    }
    if (strcmp(name, "a") == 0 || strcmp(name, "b") == 0) {
        char **slot = name[0] == 'a' ? &sf->a : &sf->b;
        if (*slot) {
            ini_reader_fail(&sf->rd, "'%s' given twice", name);
            return 0;
        }
        *slot = dup_or_die(value);
        return 1;
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(name, flags[i]) == 0) {
            char flag[40];
            snprintf(flag, sizeof flag, "--%s", name);
            add(sf, flag, value);
            return !sf->rd.failed;
        }
    ini_reader_fail(&sf->rd,
                    "unknown setting '%s' (command, a, b, variant, option, option-a, option-b, players, games, seed, "
                    "seed-b, blocks, min-effect, until-width, max-games, skill-gap, vary, measures)",
                    name);
    return 0;
}

/* A path given on the command line, made absolute before the study moves
 * into its folder. */
static const char *absolute_arg(const char *v, char *buf, size_t n)
{
    if (!v || v[0] == '/') return v;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return v;
    snprintf(buf, n, "%s/%s", cwd, v);
    return buf;
}

static int run(const cli_args *args)
{
    const char *path = args->operands[0];
    static study_file sf;
    memset(&sf, 0, sizeof sf);
    char err[1024];
    if (ini_reader_open(&sf.rd, path, err, sizeof err) < 0) {
        term_error("carc study run", err);
        return 1;
    }
    sf.argv[sf.argc++] = dup_or_die("study");
    int rc = ini_parse_stream(ini_reader_next, &sf.rd, on_setting, &sf);
    if (ini_reader_close(&sf.rd, rc, err, sizeof err) < 0) {
        term_error("carc study run", err);
        return 1;
    }
    /* compare and sweep name their variants a (the baseline) and b */
    bool compare = strcmp(sf.command, "compare") == 0 || strcmp(sf.command, "sweep") == 0;
    if (!sf.command[0] || (!compare && (sf.a || sf.b)) || (compare && !sf.a)) {
        fprintf(stderr, "carc study run: %s: %s\n", path,
                !sf.command[0] ? "no 'command = compare, sweep, sim or tournament'"
                : compare      ? "a compare or sweep study names its variants 'a = ...' (and 'b = ...')"
                               : "'a' and 'b' are a compare or sweep study's; sim and tournament take 'variant ='");
        return 1;
    }
    /* The command line's own flags: how to print and where, not what to
     * play; paths made absolute before the study moves into its folder. */
    static char paths[5][PATH_MAX + 8];
    static const char *const passed[] = {"--out", "--games-jsonl", "--records", "--html", "--svg-dir", "--shard"};
    for (int k = 0; k < 6; k++) {
        const char *v = cli_text(args, passed[k], NULL);
        if (v) add(&sf, passed[k], k < 5 ? absolute_arg(v, paths[k], sizeof paths[k]) : v);
    }
    char jobs[16];
    snprintf(jobs, sizeof jobs, "%d", cli_int(args, "--jobs", 1));
    if (cli_given(args, "--jobs")) add(&sf, "--jobs", jobs);
    if (cli_given(args, "--json")) add(&sf, "--json", NULL);
    if (cli_given(args, "--csv")) add(&sf, "--csv", NULL);
    if (sf.rd.failed) {
        fprintf(stderr, "carc study run: %s: %s\n", path, sf.rd.msg);
        return 1;
    }
    if (compare) {
        memmove(sf.argv + 1 + (sf.b ? 2 : 1), sf.argv + 1, (size_t)(sf.argc - 1) * sizeof sf.argv[0]);
        sf.argv[1] = sf.a;
        if (sf.b) sf.argv[2] = sf.b;
        sf.argc += sf.b ? 2 : 1;
    }
    /* The report names the study file by its name and content. */
    const char *slash = strrchr(path, '/');
    snprintf(study_file_name, sizeof study_file_name, "%s", slash ? slash + 1 : path);
    if (content_hash_file(path, study_file_hash) < 0) {
        fprintf(stderr, "carc study run: cannot read %s\n", path);
        return 1;
    }
    if (slash) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        if (chdir(dir[0] ? dir : "/") != 0) {
            fprintf(stderr, "carc study run: cannot enter %s\n", dir);
            return 1;
        }
    }
    sf.argv[sf.argc] = NULL;
    const cli_command *c = strcmp(sf.command, "compare") == 0 ? &command_compare
                           : strcmp(sf.command, "sweep") == 0 ? &command_sweep
                           : strcmp(sf.command, "sim") == 0   ? &command_sim
                                                              : &command_tournament;
    return cli_main(c, sf.argc, sf.argv);
}

static const cli_flag flags[] = {
    FLAG_TEXT("--out", "FILE", "write the report into FILE (a path from here, not from the study's folder)"),
    FLAG_TEXT("--games-jsonl", "FILE", "also write every game as one JSON line into FILE"),
    FLAG_TEXT("--records", "DIR", "keep every game's record in DIR"),
    FLAG_TEXT("--html", "FILE", "also the report as an HTML page with its charts (carc stats report)"),
    FLAG_TEXT("--svg-dir", "DIR", "also each chart of the report as an SVG file in DIR"),
    FLAG_INT("--jobs", "J", 1, 256, "threads (default 1); results do not depend on it"),
    FLAG_TEXT("--shard", "K/N", "play only shard K of N, for carc stats merge"),
    FLAG_SWITCH("--json", "the report as one JSON object"),
    FLAG_SWITCH("--csv", "the report as CSV"),
    FLAG_ALLOW_PLUGIN_PATHS("the study's variants"),
};

const cli_command command_study = {
    .name = "study run",
    .operands = "FILE",
    .min_operands = 1,
    .max_operands = 1,
    .summary = "run a study written down in a file, from its folder",
    .about = "Runs the study FILE describes, from FILE's folder: variant files it names by a\n"
             "relative path are found there, so a folder holding the study file and its\n"
             "variants, copied elsewhere, runs to the same numbers. The report names the study\n"
             "file and every variant, script and plugin with its SHA-256.\n\n"
             "FILE (INI), one [study] section:\n"
             "  command = compare | sweep | sim | tournament   (required)\n"
             "  a = VARIANT, b = VARIANT               (compare, sweep; b defaults to a)\n"
             "  variant = VARIANT                      (sim, tournament; default base)\n"
             "  option = KEY=VALUE                     (sim, tournament; repeatable)\n"
             "  option-a = KEY=VALUE, option-b = KEY=VALUE  (compare; repeatable)\n"
             "  players = A,B[,...]   games = N   seed = S   seed-b = S (compare)\n"
             "  blocks = N   min-effect = UNIT=X (repeatable)   until-width = MEASURE=W\n"
             "  max-games = N   skill-gap = STRONG,WEAK (compare: as its flags)\n"
             "  vary = KEY=VALUES (repeatable)   measures = KEY,...   (sweep: as its flags)\n"
             "docs/house-rules.md, section 9, walks through one.\n",
    CLI_FLAGS(flags),
    .run = run,
};
