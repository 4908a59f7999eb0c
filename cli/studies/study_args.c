/* study_args.c - the flags sim, tournament and compare share. */
#include "term_text.h"
#include "study_args.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents.h"
#include "atomic_file.h"
#include "commands.h"
#include "report.h"
#include "report_html.h"
#include "shard.h"

void study_agents_help(FILE *f)
{
    fprintf(f, "\nagents:\n");
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

int study_from_args(const cli_args *a, study *s, study_flags *fl)
{
    const char *cmd = a->cmd->name;
    fl->json = cli_given(a, "--json");
    fl->csv = cli_given(a, "--csv");
    fl->out = cli_text(a, "--out", NULL);
    fl->games_jsonl = cli_text(a, "--games-jsonl", NULL);
    fl->html = cli_text(a, "--html", NULL);
    fl->svg_dir = cli_text(a, "--svg-dir", NULL);
    if (cli_takes(a->cmd, "--variant") && cli_given(a, "--variant"))
        snprintf(s->variant, sizeof s->variant, "%s", cli_text(a, "--variant", NULL));
    s->games = cli_int(a, "--games", s->games);
    s->seed = cli_u64(a, "--seed", s->seed);
    s->jobs = cli_int(a, "--jobs", s->jobs);
    if (cli_given(a, "--players")) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", cli_text(a, "--players", NULL));
        char *parts[CARC_MAX_PLAYERS + 1];
        int n = arg_split(buf, parts, CARC_MAX_PLAYERS);
        if (n < 1) {
            fprintf(stderr, "carc %s: --players expects 1 to %d agents separated by commas\n", cmd, CARC_MAX_PLAYERS);
            return -1;
        }
        for (int p = 0; p < n; p++) {
            char err[256] = "";
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
    }
    for (int k = 0; k < cli_count(a, "--option"); k++) {
        const char *v = cli_nth(a, "--option", k);
        if (s->noverrides == 32 || !strchr(v, '=')) {
            fprintf(stderr, "carc %s: --option expects KEY=VALUE (at most 32)\n", cmd);
            return -1;
        }
        snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", v);
    }
    if (cli_takes(a->cmd, "--shard") && cli_given(a, "--shard")) {
        if (!parse_shard(cmd, cli_text(a, "--shard", NULL), s)) return -1;
        fl->sharded = true;
    }
    const char *records = cli_text(a, "--records", NULL);
    if (records) {
        if (mkdir(records, 0755) != 0 && access(records, W_OK) != 0) {
            fprintf(stderr, "carc %s: cannot create the records directory %s\n", cmd, records);
            return -1;
        }
        s->records_dir = records;
    }
    if (fl->json && fl->csv) {
        fprintf(stderr, "carc %s: --json and --csv: choose one\n", cmd);
        return -1;
    }
    if (fl->sharded && (fl->html || fl->svg_dir)) {
        fprintf(stderr, "carc %s: --html and --svg-dir draw a whole study: draw the merged report "
                        "(carc stats merge --json, then carc stats report)\n", cmd);
        return -1;
    }
    return 0;
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
    const char *names[16];
    int nnames = 0;
    for (int k = 0; k < agent_nkinds && k < 16; k++) names[nnames++] = agent_kinds[k].name;
    char msg[1024] = "", hint[200] = "";
    if (strncmp(spec, "mcts:", 5) == 0) {
        snprintf(msg, sizeof msg, "%s (mcts takes a budget :Nit, :Nms or :Ns: mcts:5000it, mcts:200ms, mcts:2s; "
                                  "`carc %s --help` lists the agents)", err, cmd);
    } else {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
        /* a known agent whose arguments are wrong: no other name to suggest */
        if (!agent_kind_of(name)) carc_suggest(name, names, nnames, hint, sizeof hint);
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
    if (fl->html) unlink(fl->html);
    if (fl->games_jsonl) unlink(fl->games_jsonl);
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

int study_pictures(const char *cmd, const study_flags *fl, const char *json, size_t len)
{
    if (!fl->html && !fl->svg_dir) return 0;
    char err[1024], who[64];
    snprintf(who, sizeof who, "carc %s", cmd);
    json_t *report = json_loadb(json, len, 0, NULL);
    char *page = NULL;
    size_t page_len = 0;
    FILE *html = fl->html ? open_memstream(&page, &page_len) : NULL;
    int rc = report && (!fl->html || html) ? 0 : -1;
    if (rc < 0) snprintf(err, sizeof err, "out of memory");
    if (rc == 0 && report_pictures(report, fl->out ? fl->out : cmd, html, fl->svg_dir, err, sizeof err) < 0) rc = -1;
    if (html) fclose(html);
    if (rc == 0 && fl->html && atomic_file_write(fl->html, page, page_len, NULL, err, sizeof err) < 0) rc = -1;
    if (rc < 0) term_error(who, err);
    free(page);
    json_decref(report);
    return rc;
}

/* The report's JSON into memory and drawn (--html, --svg-dir). */
static int pictures_of(const char *cmd, const study_flags *fl, const study *s,
                       void (*report)(const study *, FILE *, int))
{
    if (!fl->html && !fl->svg_dir) return 0;
    char *json = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&json, &len);
    if (!m) return -1;
    report(s, m, REPORT_JSON);
    fclose(m);
    int rc = study_pictures(cmd, fl, json, len);
    free(json);
    return rc;
}

int study_command(const cli_args *a, bool rotate, void (*report)(const study *, FILE *, int))
{
    const char *cmd = a->cmd->name;
    static study s; /* large: not on the stack */
    study_defaults(&s);
    study_flags fl = {0};
    if (study_from_args(a, &s, &fl) < 0) return 2;
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
    if (rc == 0 && !fl.sharded && pictures_of(cmd, &fl, &s, report) < 0) rc = 1;
    study_free(&s);
    return rc;
}

/* --skill-gap STRONG,WEAK[,...]: these agents, one a seat, their seats
 * rotated from game to game, under A and under B; the measure skill-gap is
 * the first-named agent's win share. 0, or 2 (bad usage, message printed). */
int study_skill_gap(const cli_args *args, study *s)
{
    if (!cli_given(args, "--skill-gap")) return 0;
    if (cli_given(args, "--players")) {
        fprintf(stderr, "carc %s: --skill-gap names the players (the stronger first): not with --players\n", args->cmd->name);
        return 2;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", cli_text(args, "--skill-gap", NULL));
    char *parts[CARC_MAX_PLAYERS + 1];
    int n = arg_split(buf, parts, CARC_MAX_PLAYERS);
    if (n < 2) {
        fprintf(stderr, "carc %s: --skill-gap expects 2 to %d agents separated by commas, the stronger first "
                        "(greedy,random; greedy,greedy:no-farmers)\n", args->cmd->name, CARC_MAX_PLAYERS);
        return 2;
    }
    for (int p = 0; p < n; p++) {
        char err[256] = "";
        agent *ag = agent_create(parts[p], 0, p, err, sizeof err);
        if (!ag || strcmp(parts[p], "human") == 0) {
            agent_free(ag);
            agent_error(args->cmd->name, parts[p], ag ? "the human agent plays at the terminal" : err);
            return 2;
        }
        agent_free(ag);
        snprintf(s->agents[p], sizeof s->agents[p], "%s", parts[p]);
    }
    s->nagents = s->nplayers = n;
    s->rotate = true;
    return 0;
}

int study_judging(const cli_args *args, compare_settings *cs)
{
    cs->blocks = cli_int(args, "--blocks", cs->blocks);
    for (int k = 0; k < cli_count(args, "--min-effect"); k++)
        if (!compare_min_effect(cs, cli_nth(args, "--min-effect", k))) {
            fprintf(stderr, "carc %s: --min-effect expects points=X, share=X, turns=X or count=X (X >= 0), not '%s'\n",
                    args->cmd->name, cli_nth(args, "--min-effect", k));
            return 2;
        }
    return 0;
}
