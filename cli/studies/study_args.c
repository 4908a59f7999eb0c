/* study_args.c - the flags sim, tournament and compare share. */
#include "term_text.h"
#include "study_args.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents.h"
#include "commands.h"
#include "report.h"
#include "shard.h"

void study_args_usage(FILE *f)
{
    fprintf(f, "  --variant NAME       variant name or file (default base)\n"
               "  --games N            games to play (default 100)\n"
               "  --players A,B[,...]  agents (default random,random); see below\n"
               "  --seed S             study seed: game i uses a seed derived from S and i (default 1)\n"
               "  --jobs J             threads (default 1); results do not depend on it\n"
               "  --option KEY=VALUE   a rule option for this run (repeatable)\n"
               "  --records DIR        keep every game's record in DIR\n"
               "  --shard K/N          play only games i with i mod N = K-1 and print them as JSON\n"
               "                       lines for 'carc stats merge'\n"
               "  --out FILE           write the report (or the shard's lines) into FILE\n"
               "  --games-jsonl FILE   also write every game as one JSON line into FILE (its seed,\n"
               "                       players, scores, turns, points by reason), for R or pandas\n"
               "  --json               the report as one JSON object\n"
               "  --csv                the report as CSV (what was run in '# ' lines first)\n"
               "  --allow-plugin-paths let the variant load C plugins from paths it gives (native\n"
               "                       code: only files you trust; docs/security.md)\n"
               "agents:\n");
    agent_list(f);
}

static bool parse_shard(const char *cmd, const char *v, study *s)
{
    int k, n;
    char tail;
    if (!v || sscanf(v, "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n) {
        fprintf(stderr, "carc %s: --shard expects K/N with 1 <= K <= N, not '%s'\n", cmd, v ? v : "");
        return false;
    }
    s->shard_k = k;
    s->shard_n = n;
    return true;
}

int study_args_parse(const char *cmd, int argc, char **argv, study *s, study_flags *fl, int *i)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(a, "--json") == 0) {
        fl->json = true;
        return 1;
    }
    if (strcmp(a, "--csv") == 0) {
        fl->csv = true;
        return 1;
    }
    if (strcmp(a, "--allow-plugin-paths") == 0) {
        carc_allow_plugin_paths(1); /* before any thread starts */
        return 1;
    }
    bool takes = strcmp(a, "--variant") == 0 || strcmp(a, "--games") == 0 || strcmp(a, "--players") == 0 ||
                 strcmp(a, "--seed") == 0 || strcmp(a, "--jobs") == 0 || strcmp(a, "--option") == 0 ||
                 strcmp(a, "--records") == 0 || strcmp(a, "--shard") == 0 || strcmp(a, "--out") == 0 ||
                 strcmp(a, "--games-jsonl") == 0;
    if (!takes) return 0;
    if (!v) {
        fprintf(stderr, "carc %s: %s needs a value\n", cmd, a);
        return -1;
    }
    (*i)++;
    if (strcmp(a, "--variant") == 0) {
        snprintf(s->variant, sizeof s->variant, "%s", v);
    } else if (strcmp(a, "--games") == 0) {
        if (!arg_int(cmd, a, v, 1, 100000000, &s->games)) return -1;
    } else if (strcmp(a, "--players") == 0) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", v);
        char *parts[CARC_MAX_PLAYERS + 1];
        int n = arg_split(buf, parts, CARC_MAX_PLAYERS);
        if (n < 1) {
            fprintf(stderr, "carc %s: --players expects 1 to %d agents separated by commas\n", cmd, CARC_MAX_PLAYERS);
            return -1;
        }
        for (int p = 0; p < n; p++) {
            char err[256];
            if (strcmp(parts[p], "human") == 0) {
                fprintf(stderr, "carc %s: the human agent plays at the terminal, one game at a time: "
                                "carc play --players human,greedy\n", cmd);
                return -1;
            }
            agent *ag = agent_create(parts[p], 0, p, err, sizeof err);
            if (!ag) {
                agent_error(cmd, parts[p], err);
                return -1;
            }
            agent_free(ag);
            snprintf(s->agents[p], sizeof s->agents[p], "%s", parts[p]);
        }
        s->nagents = s->nplayers = n;
    } else if (strcmp(a, "--seed") == 0) {
        if (!arg_u64(cmd, a, v, &s->seed)) return -1;
    } else if (strcmp(a, "--jobs") == 0) {
        if (!arg_int(cmd, a, v, 1, 256, &s->jobs)) return -1;
    } else if (strcmp(a, "--option") == 0) {
        if (s->noverrides == 32 || !strchr(v, '=')) {
            fprintf(stderr, "carc %s: --option expects KEY=VALUE (at most 32)\n", cmd);
            return -1;
        }
        snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", v);
    } else if (strcmp(a, "--records") == 0) {
        if (mkdir(v, 0755) != 0 && access(v, W_OK) != 0) {
            fprintf(stderr, "carc %s: cannot create the records directory %s\n", cmd, v);
            return -1;
        }
        s->records_dir = v;
    } else if (strcmp(a, "--shard") == 0) {
        if (!parse_shard(cmd, v, s)) return -1;
        fl->sharded = true;
    } else if (strcmp(a, "--out") == 0) {
        fl->out = v;
    } else if (strcmp(a, "--games-jsonl") == 0) {
        fl->games_jsonl = v;
    }
    return 1;
}

void study_defaults(study *s)
{
    study_init(s);
    snprintf(s->variant, sizeof s->variant, "base");
    s->games = 100;
    s->seed = 1;
    s->nagents = s->nplayers = 2;
    snprintf(s->agents[0], sizeof s->agents[0], "random");
    snprintf(s->agents[1], sizeof s->agents[1], "random");
    s->progress = true;
}

int study_format(const study_flags *fl) { return fl->json ? REPORT_JSON : fl->csv ? REPORT_CSV : REPORT_TABLE; }

/* An agent that did not parse: the closest names, or what a budget looks like. */
void agent_error(const char *cmd, const char *spec, const char *err)
{
    static const char *const names[] = {"random", "greedy", "human", "mcts"};
    char msg[1024], hint[200] = "";
    if (strncmp(spec, "mcts:", 5) == 0) {
        snprintf(msg, sizeof msg, "%s (mcts takes a budget :Nit, :Nms or :Ns: mcts:5000it, mcts:200ms, mcts:2s; "
                                  "`carc %s --help` lists the agents)", err, cmd);
    } else {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
        bool known = false; /* a known agent whose arguments are wrong: no other name to suggest */
        for (int i = 0; i < 4; i++) known |= strcmp(name, names[i]) == 0;
        if (!known) carc_suggest(name, names, 4, hint, sizeof hint);
        snprintf(msg, sizeof msg, "%s%s%s%s (`carc %s --help` lists the agents)", err, hint[0] ? ": did you mean " : "",
                 hint, hint[0] ? "?" : "", cmd);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "carc %s", cmd);
    term_error(prefix, msg);
}

void study_out_clear(const study_flags *fl)
{
    if (fl->out) unlink(fl->out);
    if (fl->games_jsonl) unlink(fl->games_jsonl);
}

int study_games_jsonl(const char *cmd, const study_flags *fl, const char *kind, const study *a, const study *b)
{
    if (!fl->games_jsonl) return 0;
    study_flags g = *fl;
    g.out = fl->games_jsonl;
    FILE *f = study_out(cmd, &g);
    if (!f) return -1;
    shard_write_games(f, kind, a, b);
    return study_out_close(cmd, &g, f);
}

/* The temporary file next to --out FILE: FILE.partial-PID (a name no
 * shard-*.jsonl glob takes). */
static void partial_name(const study_flags *fl, char *out, size_t n)
{
    snprintf(out, n, "%s.partial-%ld", fl->out, (long)getpid());
}

FILE *study_out(const char *cmd, const study_flags *fl)
{
    if (!fl->out) return stdout;
    char tmp[1200];
    partial_name(fl, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) fprintf(stderr, "carc %s: cannot write %s\n", cmd, tmp);
    return f;
}

int study_out_close(const char *cmd, const study_flags *fl, FILE *f)
{
    if (!f || f == stdout) return fflush(stdout) == 0 ? 0 : -1;
    char tmp[1200];
    partial_name(fl, tmp, sizeof tmp);
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(tmp, fl->out) == 0) return 0;
    fprintf(stderr, "carc %s: cannot write %s\n", cmd, fl->out);
    unlink(tmp);
    return -1;
}

int study_command(const char *cmd, int argc, char **argv, bool rotate, void (*usage)(FILE *),
                  void (*report)(const study *, FILE *, int))
{
    static study s; /* large: not on the stack */
    study_defaults(&s);
    study_flags fl = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        int rc = study_args_parse(cmd, argc, argv, &s, &fl, &i);
        if (rc < 0) return 2;
        if (rc == 0) return arg_unknown(cmd, argv[i]);
    }
    if (fl.json && fl.csv) {
        fprintf(stderr, "carc %s: --json and --csv: choose one\n", cmd);
        return 2;
    }
    s.rotate = rotate;
    s.label = cmd;
    s.progress = !fl.sharded;
    study_out_clear(&fl); /* a run that fails or is killed leaves no older report under the name */
    if (study_run(&s) < 0) {
        fprintf(stderr, "carc %s: ", cmd), term_puts(stderr, s.error), fputc('\n', stderr);
        study_free(&s);
        return strstr(s.error, "players, not") ? 2 : 1;
    }
    int rc = 0;
    FILE *out = study_out(cmd, &fl);
    if (!out) rc = 1;
    else if (fl.sharded) shard_write(out, cmd, &s, NULL);
    else report(&s, out, study_format(&fl));
    if (out && study_out_close(cmd, &fl, out) < 0) rc = 1;
    if (rc == 0 && study_games_jsonl(cmd, &fl, cmd, &s, NULL) < 0) rc = 1;
    study_free(&s);
    return rc;
}
