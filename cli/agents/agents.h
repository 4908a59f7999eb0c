/* agents.h - who answers decisions: bots and the terminal player. An agent
 * only ever picks one of the options the engine offers. */
#ifndef CARC_AGENTS_H
#define CARC_AGENTS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"
#include "effect_memo.h"
#include "evaluator.h"
#include "rng.h"

#define AGENT_SCRATCH_LEVELS 3

typedef struct agent agent;
struct agent {
    char spec[64];        /* as given: "random", "greedy", "human" */
    int seat;
    carc_rng rng;
    /* Returns an option number of the pending decision, or -1 to quit. */
    int (*choose)(agent *a, carc_game *g);
    FILE *in, *out;       /* the human agent's terminal */
    long iterations;      /* mcts: iterations per decision (0: use time) */
    double seconds;       /* mcts: time per decision (0: use iterations) */
    long playout_limit;   /* mcts: decisions a playout makes before judging (0: to the end) */
    /* The judgement of positions: NULL for the hand-written one (score,
     * half of what held features would pay, a quarter point a follower in
     * hand); else learned weights (evaluator.h), bound to the game's rules
     * at the first decision. */
    evaluator *eval;
    bool eval_shipped;    /* ":trained": the weights shipped for the game's variant */
    bool eval_bound;
    double explore;       /* greedy: share of decisions answered at random (training) */
    /* Look-ahead memory: one game per depth of trying (greedy: the option,
     * then the same player's follow-up; mcts: the iteration's copy of the
     * root, then the judged option and its follow-up), made on first use
     * and reused by every try after it (carc_game_try), freed with the
     * agent. */
    carc_game *scratch[AGENT_SCRATCH_LEVELS];
    /* greedy: per depth of trying (0: the real decision), what the options
     * weighed so far are worth by effect (effect_memo.h): options that do
     * the same (the Ark's walks that pay alike) are tried once. */
    effect_memo memo[AGENT_SCRATCH_LEVELS + 1];
    char error[512];      /* why choose returned -1 when no one quit */
    /* A copy made to try moves found the scripts' account for the decision
     * spent (carc_game_trials_spent): the agent stops trying and chooses
     * among what it has weighed so far. `spent` is this decision's; the
     * count of decisions it happened in is reported (study reports). */
    bool spent;
    long fallbacks;
    /* Restricted play (Jaffe et al., AIIDE 2012; docs/measures.md): the
     * options the agent may not choose, from its spec's ":no-farmers",
     * ":no-figure=KIND" and ":no-rule=NAME" (random and greedy). */
    bool no_farmers;
    char no_figure[32];   /* "" none */
    char no_rule[48];     /* "" none */
};

/* Whether the agent's restrictions let it choose option i of g's pending
 * decision: not a figure on a field (no-farmers), not a figure of the kind
 * (no-figure), not an option offered by the plugin or script (no-rule).
 * When none of the decision's options is allowed, every one is (a decision
 * must be answered). */
bool agent_allows(const agent *a, const carc_game *g, int i);
/* An option of g's pending decision drawn uniformly from rng among those
 * the agent's restrictions allow (all of them for an agent without any). */
int agent_pick_allowed(const agent *a, const carc_game *g, carc_rng *rng);

/* The search agent's choice (agent_mcts.c). */
int mcts_choose(agent *a, carc_game *g);

/* What the search thinks of one option of the decision it was asked about. */
typedef struct mcts_estimate {
    int option;
    int visits;       /* iterations that went through it (0: only judged) */
    double win;       /* mean result for the deciding player, 0..1: mostly
                         the chance of winning, a little for the margin */
    double lead;      /* mean lead in points over the best opponent, at the
                         end of the game or where the search judged it */
    double prior;     /* the position right after it, judged at once (0..1) */
    int fewest_replies; /* the fewest turns of the other players any iteration
                           through it played before judging (-1: not visited) */
    int half_turns;   /* iterations through it that stopped to judge inside a
                         turn (a tile placed, its player's follower not yet) */
} mcts_estimate;
/* Runs the agent's search on the pending decision and fills out[o] for every
 * option o < max (count: how many were filled); returns the option the
 * agent plays, or -1 with a->error set. */
int mcts_analyse(agent *a, carc_game *g, mcts_estimate *out, int max, int *count);

/* The search's judgement of a position g reached from the decision it
 * searches after played[p] turns of each seat p (a turn counts once its
 * player has chosen in it): each seat's worth in points (the agent's
 * learned weights, or the hand-written judgement), every seat credited
 * `tempo` points for each turn it still has to play to reach the most any
 * seat has played, so that positions met after different numbers of
 * opponents' replies are judged alike. The search credits none by default
 * (CARC_MCTS_TUNE tempo=; docs/bots.md, *Strength*). */
void mcts_worth(const agent *a, carc_game *g, const int played[CARC_MAX_PLAYERS], double tempo,
                double worth[CARC_MAX_PLAYERS]);

/* The search's value (0..1) of a position for each of the n seats, from
 * their worths (mcts_worth), as the search backs it up: each seat's worth
 * against the best of the others', and for the searcher `me` (and for the
 * others, by the CARC_MCTS_TUNE settings mean= and oppmean=) against a
 * blend of the best other's and the others' mean; lead[p]: seat p's lead in
 * points over the best other. With 2 players the two references agree.
 * Arrays are the caller's, CARC_MAX_PLAYERS long. */
void mcts_values(const double worth[CARC_MAX_PLAYERS], int n, int me, double value[CARC_MAX_PLAYERS],
                 double lead[CARC_MAX_PLAYERS]);

/* Sets the search's constants from "name=value,..." (the text of
 * CARC_MCTS_TUNE, read once at the first search; docs/bots.md), every one
 * not named at its default; "" restores them all. Not while a search runs.
 * -1 with err set (nothing changed) on an unknown name or a bad number. */
int mcts_set_tuning(const char *text, char *err, size_t errn);

/* The largest search budget an agent takes: a record from elsewhere names
 * its bots, and `play --resume` must not search for ever or without bound
 * in memory. */
#define AGENT_MAX_ITERATIONS 100000
#define AGENT_MAX_SECONDS 60

/* Creates an agent from its name (a kind of agent_kinds: "random", "greedy",
 * "human" or "mcts"),
 * then any of ":200ms", ":2s", ":5000it" (the search's budget), ":trained"
 * (judge with the weights shipped for the game's variant) or ":eval=FILE"
 * (with a weights file from carc train): "mcts:3000it:trained",
 * "greedy:eval=fan.ini". The seed and seat give it its own stream. */
agent *agent_create(const char *spec, uint64_t seed, int seat, char *err, size_t errn);
void agent_free(agent *a);
/* Loads and binds the agent's learned weights for this game's rules, once;
 * -1 with a->error set when they are missing or are another variant's. */
int agent_prepare_eval(agent *a, const carc_game *g);
/* The agent's look-ahead game of depth `level` (< AGENT_SCRATCH_LEVELS)
 * for trying moves of src (carc_game_try, carc_game_copy_into): kept from
 * one try to the next, made anew for a game of other rules; NULL when out
 * of memory. */
carc_game *agent_scratch(agent *a, int level, const carc_game *src);
/* Notes, after a try on copy c, whether the scripts' account for the
 * decision is spent (a->spent); returns a->spent. */
bool agent_note_spent(agent *a, const carc_game *c);
/* The agent's judgement of a position for player `me`: its lead in points
 * over the best opponent (learned weights, or the hand-written judgement). */
double agent_judge(const agent *a, carc_game *g, int me);
/* The kinds of agent, one row each: agent_create, agent_list, the message
 * for an unknown agent and carc serve's GET /api/agents (the page's seat
 * menu) are all made from this one list. */
typedef struct agent_kind {
    const char *name;     /* "greedy": what a spec starts with */
    const char *summary;  /* one line, for the page's menu */
    const char *settings; /* examples of what may follow "NAME:" in a spec, or NULL when nothing may */
    const char *help;     /* its lines in carc --help (after the name), '\n' between them */
    int (*choose)(agent *a, carc_game *g);
    bool judges;          /* takes :trained and :eval=FILE */
} agent_kind;
extern const agent_kind agent_kinds[];
extern const int agent_nkinds;
/* The kind of a spec ("mcts:200ms" is mcts), or NULL. */
const agent_kind *agent_kind_of(const char *spec);
/* Lists the agent names with their help, as carc --help shows them. */
void agent_list(FILE *f);
#endif
