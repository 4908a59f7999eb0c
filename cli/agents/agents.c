/* agents.c - random, greedy and human agents. */
#include "agents.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "play_terminal.h"

static bool restricted(const agent *a) { return a->no_farmers || a->no_figure[0] || a->no_rule[0]; }

/* Option i alone, without the rule that some option must be allowed. */
static bool allowed_alone(const agent *a, const carc_game *g, int i)
{
    if (a->no_rule[0]) {
        const char *owner = carc_option_owner(g, i);
        if (owner && strcmp(owner, a->no_rule) == 0) return false;
    }
    if (!a->no_farmers && !a->no_figure[0]) return true;
    char text[CARC_OPTION_TEXT_MAX + 1];
    carc_option_text(g, i, text, sizeof text);
    if (strncmp(text, "deploy ", 7) != 0) return true;
    const char *kind = text + 7;
    size_t kl = strcspn(kind, " ");
    if (a->no_figure[0] && strlen(a->no_figure) == kl && strncmp(kind, a->no_figure, kl) == 0) return false;
    return !(a->no_farmers && strncmp(kind + kl, " field@", 7) == 0);
}

bool agent_allows(const agent *a, const carc_game *g, int i)
{
    if (!restricted(a) || allowed_alone(a, g, i)) return true;
    for (int k = 0; k < carc_option_count(g); k++)
        if (allowed_alone(a, g, k)) return false;
    return true; /* nothing is allowed: everything is */
}

int agent_pick_allowed(const agent *a, const carc_game *g, carc_rng *rng)
{
    int n = carc_option_count(g);
    if (!restricted(a)) return (int)carc_rng_below(rng, (uint32_t)n);
    int ok = 0;
    for (int i = 0; i < n; i++) ok += agent_allows(a, g, i);
    int pick = (int)carc_rng_below(rng, (uint32_t)ok);
    for (int i = 0; i < n; i++)
        if (agent_allows(a, g, i) && pick-- == 0) return i;
    return 0;
}

static int choose_random(agent *a, carc_game *g) { return agent_pick_allowed(a, g, &a->rng); }

/* The hand-written judgement, as one number for the player: score lead
 * over the best opponent, plus half of the lead in what features held now
 * would pay, plus a quarter point a follower in hand. */
static double evaluate_plain(carc_game *g, int me)
{
    int est[CARC_MAX_PLAYERS] = {0};
    carc_estimate_final(g, est);
    int n = carc_players(g);
    double best_other = -1e9, best_other_est = -1e9;
    for (int p = 0; p < n; p++) {
        if (p == me) continue;
        if (carc_score(g, p) > best_other) best_other = carc_score(g, p);
        if (est[p] > best_other_est) best_other_est = est[p];
    }
    double v = carc_score(g, me) - best_other + 0.5 * (est[me] - best_other_est);
    return v + 0.25 * carc_supply(g, me, "follower"); /* keep a follower or two */
}

double agent_judge(const agent *a, carc_game *g, int me)
{
    if (!a->eval) return evaluate_plain(g, me);
    double lead[CARC_MAX_PLAYERS];
    evaluator_leads(a->eval, g, lead);
    return lead[me];
}

int agent_prepare_eval(agent *a, const carc_game *g)
{
    if (a->eval_bound || (!a->eval && !a->eval_shipped)) return 0;
    const carc_rules *r = carc_game_rules(g);
    char err[512] = "";
    if (!a->eval) {
        /* Weights learned in games of as many players, else the 2-player
         * ones (which judge games of more players worse: docs/bots.md). */
        char path[1024];
        evaluator_path_for(carc_rules_name(r), carc_players(g), path, sizeof path);
        if (access(path, R_OK) != 0) evaluator_path_for(carc_rules_name(r), 2, path, sizeof path);
        a->eval = malloc(sizeof *a->eval);
        if (!a->eval) {
            snprintf(a->error, sizeof a->error, "out of memory");
            return -1;
        }
        if (evaluator_load(a->eval, path, err, sizeof err) < 0) {
            snprintf(a->error, sizeof a->error,
                     "agent %s: variant '%s' has no shipped weights (%s); train them with carc train --variant "
                     "VARIANT --out FILE (VARIANT as you name it to carc) and play %.*s:eval=FILE",
                     a->spec, carc_rules_name(r), err, (int)strcspn(a->spec, ":"), a->spec);
            return -1;
        }
    }
    if (evaluator_bind(a->eval, r, err, sizeof err) < 0) {
        snprintf(a->error, sizeof a->error, "agent %s: %s", a->spec, err);
        return -1;
    }
    a->eval_bound = true;
    return 0;
}

carc_game *agent_scratch(agent *a, int level, const carc_game *src)
{
    carc_game **s = &a->scratch[level];
    if (*s && carc_game_rules(*s) != carc_game_rules(src)) {
        carc_game_free(*s);
        *s = NULL;
    }
    if (!*s) *s = carc_game_clone(src);
    return *s;
}

bool agent_note_spent(agent *a, const carc_game *c)
{
    if (c && carc_game_trials_spent(c)) a->spent = true;
    return a->spent;
}

/* The value of option opt of g's decision for me: played on the scratch
 * game of this depth (the try copies g there, not its award log, which no
 * judgement reads), then run on to the next decision or draw. When the same
 * player decides again this turn (deploy after place), the best of those
 * follow-ups, each tried one depth further down. */
static double weigh(agent *a, const carc_game *g, int opt, int me, int depth, int level, effect_memo *m);

static double option_value(agent *a, const carc_game *g, int opt, int me, int depth, int level)
{
    carc_game *c = agent_scratch(a, level, g);
    if (!c || carc_game_try(c, g, opt) < 0) {
        agent_note_spent(a, c);
        return -1e9;
    }
    int st = carc_advance(c);
    if (agent_note_spent(a, c)) return -1e9;
    if (st == CARC_NEED_CHOICE && depth > 0 && carc_decision_player(c) == me) {
        double v = -1e9;
        int n = carc_option_count(c);
        effect_memo *m = &a->memo[level + 1];
        effect_memo_begin(m, n);
        for (int i = 0; i < n && !a->spent; i++) {
            if (!agent_allows(a, c, i)) continue;
            double w = weigh(a, c, i, me, depth - 1, level + 1, m);
            if (w > v) v = w;
        }
        return v;
    }
    return agent_judge(a, c, me);
}

/* option_value, or what an option of the same effect was found worth in
 * this decision (memo m): the same game follows either. */
static double weigh(agent *a, const carc_game *g, int opt, int me, int depth, int level, effect_memo *m)
{
    uint64_t key = carc_option_effect(g, opt);
    double v;
    if (key && effect_memo_find(m, key, &v)) return v;
    v = option_value(a, g, opt, me, depth, level);
    if (key && !a->spent) effect_memo_put(m, key, v);
    return v;
}

static int choose_greedy(agent *a, carc_game *g)
{
    int n = carc_option_count(g), me = carc_decision_player(g), best = 0, ties = 0;
    if (n == 1) return 0;
    if (agent_prepare_eval(a, g) < 0) return -1;
    if (a->explore > 0 && carc_rng_below(&a->rng, 1u << 20) < (uint32_t)(a->explore * (1u << 20)))
        return (int)carc_rng_below(&a->rng, (uint32_t)n);
    double bestv = -1e18;
    a->spent = false;
    effect_memo_begin(&a->memo[0], n);
    bool some = false;
    for (int i = 0; i < n; i++) {
        if (!agent_allows(a, g, i)) continue;
        if (!some) best = i, some = true; /* the first allowed, until one is better */
        double v = weigh(a, g, i, me, 1, 0, &a->memo[0]);
        if (a->spent) {
            /* The scripts' account for trying this decision's moves is
             * spent: the best of the options weighed in full, else the
             * first. */
            a->fallbacks++;
            break;
        }
        if (v > bestv + 1e-9) {
            bestv = v;
            best = i;
            ties = 1;
        } else if (v > bestv - 1e-9 && carc_rng_below(&a->rng, (uint32_t)++ties) == 0) {
            best = i; /* an even choice among equals, from the agent's stream */
        }
    }
    return best;
}

/* The terminal's prompt (play_terminal.c). */
static int choose_human(agent *a, carc_game *g) { return terminal_choose(g, a->in, a->out); }

/* One ":part" of an agent's name: a budget (mcts), "trained" or
 * "eval=FILE". */
static bool parse_part(agent *a, const char *s, bool search, char *err, size_t errn)
{
    if (strcmp(s, "trained") == 0) {
        a->eval_shipped = true;
        return true;
    }
    if (strncmp(s, "eval=", 5) == 0) {
        if (a->eval) free(a->eval);
        a->eval = malloc(sizeof *a->eval);
        if (!a->eval) {
            snprintf(err, errn, "out of memory");
            return false;
        }
        char e[512] = "";
        if (evaluator_load(a->eval, s + 5, e, sizeof e) < 0) {
            snprintf(err, errn, "agent %s: %s", a->spec, e);
            return false;
        }
        return true;
    }
    char *end;
    double v = strtod(s, &end);
    if (search && end != s && v > 0) {
        a->iterations = 0;
        a->seconds = 0;
        if (strcmp(end, "it") == 0 && v <= AGENT_MAX_ITERATIONS) a->iterations = (long)v;
        else if (strcmp(end, "ms") == 0 && v <= AGENT_MAX_SECONDS * 1000.0) a->seconds = v / 1000.0;
        else if (strcmp(end, "s") == 0 && v <= AGENT_MAX_SECONDS) a->seconds = v;
        else v = 0;
        if (v > 0) return true;
    }
    snprintf(err, errn, "agent %s: '%s' is not %s", a->spec, s,
             search ? "a budget (200ms, 2s, 5000it; at most 100000it or 60s), 'trained' or 'eval=FILE'"
                    : "'trained' or 'eval=FILE'");
    return false;
}

/* ":no-farmers", ":no-figure=KIND", ":no-rule=NAME": restricted play, for
 * the agents that choose among the options themselves (random, greedy, and
 * mcts, whose search also plays its own seat restricted). */
static bool parse_restriction(agent *a, const char *name, const char *s, char *err, size_t errn)
{
    if (a->choose != choose_random && a->choose != choose_greedy && a->choose != mcts_choose) {
        snprintf(err, errn, "agent '%s' takes no ':%s' (restricted play is for random, greedy and mcts)", name, s);
        return false;
    }
    if (strcmp(s, "no-farmers") == 0) {
        a->no_farmers = true;
        return true;
    }
    if (strncmp(s, "no-figure=", 10) == 0 && s[10] && strlen(s + 10) < sizeof a->no_figure) {
        snprintf(a->no_figure, sizeof a->no_figure, "%s", s + 10);
        return true;
    }
    if (strncmp(s, "no-rule=", 8) == 0 && s[8] && strlen(s + 8) < sizeof a->no_rule) {
        snprintf(a->no_rule, sizeof a->no_rule, "%s", s + 8);
        return true;
    }
    snprintf(err, errn, "agent %s: '%s' is not a restriction (no-farmers, no-figure=KIND, no-rule=PLUGIN)", a->spec, s);
    return false;
}

agent *agent_create(const char *spec, uint64_t seed, int seat, char *err, size_t errn)
{
    if (strlen(spec) >= sizeof ((agent *)0)->spec) {
        snprintf(err, errn, "agent name '%.40s...' is too long (at most %zu characters)", spec,
                 sizeof ((agent *)0)->spec - 1);
        return NULL;
    }
    /* A seat's agent is a word of its record's `player NAME AGENT` line:
     * a blank would split it, '#' start a comment, a control character
     * reach the terminal; such a record would not read back. */
    for (const unsigned char *c = (const unsigned char *)spec; *c; c++)
        if (*c <= ' ' || *c == '#' || *c == 0x7f) {
            snprintf(err, errn,
                     "agent '%.64s' cannot be saved in a record: an agent is one word, without blanks, '#' or "
                     "control characters (name a weights file whose path has none)",
                     spec);
            for (char *e = err; *e; e++)
                if ((unsigned char)*e < ' ' || *e == 0x7f) *e = '?';
            return NULL;
        }
    if (!*spec) {
        snprintf(err, errn, "an agent's name is empty");
        return NULL;
    }
    agent *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    snprintf(a->spec, sizeof a->spec, "%s", spec);
    a->seat = seat;
    a->in = stdin;
    a->out = stdout;
    a->iterations = 1000;
    const char *pl = getenv("CARC_MCTS_PLAYOUT");
    a->playout_limit = pl ? atol(pl) : -1;
    carc_rng_seed(&a->rng, seed, CARC_STREAM_AGENT + (uint64_t)seat);
    char name[64];
    snprintf(name, sizeof name, "%s", spec);
    char *parts = strchr(name, ':');
    if (parts) *parts++ = 0;
    const agent_kind *kind = agent_kind_of(name);
    if (!kind) {
        char known[256] = "", judging[256] = "";
        for (int k = 0; k < agent_nkinds; k++) {
            size_t l = strlen(known), lj = strlen(judging);
            snprintf(known + l, sizeof known - l, "%s%s", l ? ", " : "", agent_kinds[k].name);
            if (agent_kinds[k].judges)
                snprintf(judging + lj, sizeof judging - lj, "%s%s", lj ? " and " : "", agent_kinds[k].name);
        }
        snprintf(err, errn,
                 "unknown agent '%s' (known: %s; %s take :trained or :eval=FILE, mcts a budget :N ms|s|it, at most "
                 "%d iterations or %d s a move)",
                 spec, known, judging, AGENT_MAX_ITERATIONS, AGENT_MAX_SECONDS);
        free(a);
        return NULL;
    }
    a->choose = kind->choose;
    bool judges = kind->judges;
    while (parts) {
        char *next = strchr(parts, ':');
        /* eval=FILE takes the rest: a path may hold a colon */
        if (strncmp(parts, "eval=", 5) == 0) next = NULL;
        if (next) *next++ = 0;
        if (strncmp(parts, "no-", 3) == 0) {
            if (!parse_restriction(a, name, parts, err, errn)) {
                agent_free(a);
                return NULL;
            }
            parts = next;
            continue;
        }
        if (!judges || !parse_part(a, parts, a->choose == mcts_choose, err, errn)) {
            if (!judges) snprintf(err, errn, "agent '%s' takes no ':%s'", name, parts);
            agent_free(a);
            return NULL;
        }
        parts = next;
    }
    return a;
}

void agent_free(agent *a)
{
    if (!a) return;
    for (int i = 0; i < AGENT_SCRATCH_LEVELS; i++) carc_game_free(a->scratch[i]);
    for (int i = 0; i <= AGENT_SCRATCH_LEVELS; i++) effect_memo_free(&a->memo[i]);
    free(a->eval);
    free(a);
}

const agent_kind agent_kinds[] = {
    {"random", "picks any option, uniformly", NULL,
     "picks any option, uniformly; random:no-farmers, :no-figure=KIND,\n"
     ":no-rule=PLUGIN: restricted as greedy's are",
     choose_random, false},
    {"greedy", "best immediate score change", "trained",
     "best immediate score change, with a positional term; greedy:trained\n"
     "judges with the weights learned for the variant (carc train),\n"
     "greedy:eval=FILE with a weights file; greedy:no-farmers never puts a\n"
     "figure on a field, greedy:no-figure=KIND never deploys KIND,\n"
     "greedy:no-rule=PLUGIN never takes an option a plugin or script offers\n"
     "(restricted play: docs/measures.md)",
     choose_greedy, true},
    {"human", "a person: at the terminal (carc play) or at the page (carc serve)", NULL, "you, at the terminal",
     choose_human, false},
    {"mcts", "Monte Carlo tree search", "1000it (default), 5000it, 200ms, 2s, 3000it:trained",
     "Monte Carlo tree search: mcts (1000 iterations a move), mcts:5000it,\n"
     "mcts:200ms, mcts:2s (deterministic with an iteration budget);\n"
     "mcts:3000it:trained, mcts:200ms:eval=FILE (learned judgement);\n"
     "mcts:no-farmers, :no-figure=KIND, :no-rule=PLUGIN: restricted as\n"
     "greedy's are, in its plans too",
     mcts_choose, true},
};
const int agent_nkinds = (int)(sizeof agent_kinds / sizeof agent_kinds[0]);

const agent_kind *agent_kind_of(const char *spec)
{
    size_t n = strcspn(spec, ":");
    for (int k = 0; k < agent_nkinds; k++)
        if (strlen(agent_kinds[k].name) == n && strncmp(spec, agent_kinds[k].name, n) == 0) return &agent_kinds[k];
    return NULL;
}

void agent_list(FILE *f)
{
    for (int k = 0; k < agent_nkinds; k++) {
        fprintf(f, "  %-8s ", agent_kinds[k].name);
        for (const char *p = agent_kinds[k].help; *p; p++) {
            fputc(*p, f);
            if (*p == '\n') fprintf(f, "%11s", "");
        }
        fputc('\n', f);
    }
}
