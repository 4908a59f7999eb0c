/*
 * agent_mcts.c - Monte Carlo tree search over the engine's options.
 *
 * Each iteration clones the game and gives the clone new generators for what
 * the player cannot know (carc_game_reseed_hidden: the order of the pile),
 * so every iteration samples one possible future. The tree has two kinds of
 * node: decision nodes, whose children are option numbers, and chance nodes,
 * whose children are the tile types drawn there. When a decision node is
 * first reached, every option is judged at once by the position it leads to
 * (score plus what held features would pay, as the greedy agent judges);
 * that judgement is each child's prior. Selection is UCT from the deciding
 * player's view, with the prior counted as a few virtual visits and with
 * progressive widening: only the best-ranked children are open at first,
 * more as the node is visited, so opponents in the tree answer with moves a
 * sensible player would consider. Below the tree a short uniformly random
 * playout runs, then the position is judged (or scored, if the game ended)
 * as it stands (mcts_worth), and the result for every player is backed up the
 * path; each node counts the result of the player who chose it. The move
 * played is the root's most visited option, ties to the better valued.
 *
 * The agent sees only options, never rules: it plays every variant and
 * plugin without special cases. With an iteration budget it is deterministic
 * for a given seed.
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agents.h"

typedef struct mnode {
    int first_child, next_sibling;
    int key;            /* option number, or tile type below a chance node */
    int player;         /* who chose this option (decision children), -1 */
    bool chance;        /* its own children are draws */
    bool expanded;      /* every option has a child */
    int noptions;       /* options of the decision at this node */
    int visits;
    double reward;      /* summed reward of `player` */
    double lead;        /* summed lead in points of `player` over the best other */
    double prior;       /* the position after this option, judged at once */
    double prior_lead;  /* ... as a lead in points */
    int rank;           /* 0 for the child with the best prior */
    int fewest_replies; /* the fewest turns of other players an iteration through it looked past (-1: none yet) */
    int half_turns;     /* iterations through it that judged a turn its player had not finished */
} mnode;

typedef struct tree {
    mnode *n;
    int len, cap;
} tree;

static int node_new(tree *t, int key, int player)
{
    if (t->len == t->cap) {
        int cap = t->cap ? t->cap * 2 : 4096;
        mnode *nn = realloc(t->n, (size_t)cap * sizeof *nn);
        if (!nn) return -1;
        t->n = nn;
        t->cap = cap;
    }
    mnode *m = &t->n[t->len];
    memset(m, 0, sizeof *m);
    m->first_child = m->next_sibling = -1;
    m->key = key;
    m->player = player;
    m->fewest_replies = -1;
    return t->len++;
}

static int child_with_key(tree *t, int parent, int key)
{
    for (int c = t->n[parent].first_child; c >= 0; c = t->n[c].next_sibling)
        if (t->n[c].key == key) return c;
    return -1;
}

static int add_child(tree *t, int parent, int key, int player)
{
    int c = node_new(t, key, player);
    if (c < 0) return -1;
    t->n[c].next_sibling = t->n[parent].first_child;
    t->n[parent].first_child = c;
    return c;
}

/* The search's constants. CARC_MCTS_TUNE="name=value,..." overrides them
 * for experiments (docs/bots.md); the defaults are what was measured best. */
typedef struct tuning {
    double uct_c;         /* exploration */
    double prior_visits;  /* how many visits a prior is worth */
    double widen;         /* children open before any visit */
    double est_weight;    /* share of held features' worth counted */
    double supply_weight; /* points a follower in hand is worth */
    double scale;         /* lead (points) at which a position is judged ~76% won */
    int final_value;      /* play the best valued child, not the most visited */
    double tempo;         /* points a turn still owed to a player is credited (mcts_worth) */
    int round;            /* walk on past the new node to the start of the searcher's next turn */
    int deep;             /* judge options with their follow-ups at every node, not only the root */
    int whole;            /* judge leaves only where a turn is whole */
    double mean;          /* the searcher's reference: 0 the best other's worth, 1 the others' mean */
    double oppmean;       /* the same for the other players */
} tuning;

static const tuning defaults = {0.7, 3.0, 3.0, 0.5, 0.25, 20.0, 0, 0.0, 0, 0, 0, 0.0, 0.0};
static tuning tune = defaults;

int mcts_set_tuning(const char *text, char *err, size_t errn)
{
    static const char *const names[] = {"c",     "prior", "widen", "est",  "supply", "scale",
                                        "final", "tempo", "round", "deep", "whole",  "mean", "oppmean"};
    tuning t = defaults;
    char buf[256];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errn, "CARC_MCTS_TUNE: longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || end == eq + 1 || *end || !isfinite(v)) {
            snprintf(err, errn, "CARC_MCTS_TUNE: '%s' is not NAME=NUMBER", kv);
            return -1;
        }
        *eq = 0;
        size_t k = 0;
        while (k < sizeof names / sizeof *names && strcmp(kv, names[k]) != 0) k++;
        switch (k) {
        case 0: t.uct_c = v; break;
        case 1: t.prior_visits = v; break;
        case 2: t.widen = v; break;
        case 3: t.est_weight = v; break;
        case 4: t.supply_weight = v; break;
        case 5: t.scale = v; break;
        case 6: t.final_value = v > 0; break;
        case 7: t.tempo = v; break;
        case 8: t.round = v > 0; break;
        case 9: t.deep = v > 0; break;
        case 10: t.whole = v > 0; break;
        case 11: t.mean = v; break;
        case 12: t.oppmean = v; break;
        default:
            snprintf(err, errn,
                     "CARC_MCTS_TUNE: unknown setting '%s' (known: c, prior, widen, est, supply, scale, final, tempo, "
                     "round, deep, whole, mean, oppmean)",
                     kv);
            return -1;
        }
    }
    tune = t;
    return 0;
}

static void read_tuning_once(void)
{
    const char *env = getenv("CARC_MCTS_TUNE");
    char err[256] = "";
    if (env && mcts_set_tuning(env, err, sizeof err) < 0) fprintf(stderr, "carc: %s; the search's defaults used\n", err);
}

/* The result of a finished game for each player: mostly win (a tie shares
 * it), a little for the margin so that lost games still teach something. */
static void rewards(const carc_game *g, double *out, double *lead)
{
    int n = carc_players(g), best = -1000000, winners = 0;
    for (int p = 0; p < n; p++)
        if (carc_score(g, p) > best) best = carc_score(g, p);
    for (int p = 0; p < n; p++) winners += carc_score(g, p) == best;
    for (int p = 0; p < n; p++) {
        int other = -1000000;
        for (int q = 0; q < n; q++)
            if (q != p && carc_score(g, q) > other) other = carc_score(g, q);
        double outcome = carc_score(g, p) == best ? 1.0 / winners : 0.0;
        out[p] = 0.8 * outcome + 0.2 * (0.5 + 0.5 * tanh((carc_score(g, p) - other) / 25.0));
        lead[p] = n > 1 ? carc_score(g, p) - other : carc_score(g, p);
    }
}

/* The turns each player has played since the searched decision: a turn
 * counts once its player has made a choice in it. */
typedef struct turns {
    int played[CARC_MAX_PLAYERS];
    int last[CARC_MAX_PLAYERS]; /* turn number of each player's last counted turn */
    int me;                     /* the searcher */
    int chooser;                /* who chose last (-1: no one yet) */
} turns;

static void turns_start(turns *t)
{
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) {
        t->played[p] = 0;
        t->last[p] = -1;
    }
    t->me = t->chooser = -1;
}

/* Notes the choice g's pending decision is about to get. */
static void turns_note(turns *t, const carc_game *g)
{
    int p = carc_decision_player(g), number = carc_turn_number(g);
    t->chooser = p;
    if (p < 0 || p >= CARC_MAX_PLAYERS || t->last[p] == number) return;
    t->last[p] = number;
    t->played[p]++;
}

/* Where the search stops before the end, the position is judged: with
 * learned weights (evaluator.h) when the agent has them, else as greedy
 * judges it: each player's score, half of what the features they hold
 * would pay if the game ended now (not all of them will be completed), and
 * a little for each follower still in hand; then against the best
 * opponent's.
 *
 * The search stops at every point of the round: right after the searcher's
 * own turn, after one opponent's reply, after three. A player who has
 * played fewer turns since the searched decision than another still has a
 * turn to come, worth about 1.7 points more to it than to the others (a
 * turn raises its player's worth by 1.6 to 1.75 points against the
 * others', in greedy games of 2, 3 and 4 players, with either judgement).
 * CARC_MCTS_TUNE tempo=1.7 credits each player the turns it is owed to
 * reach the most any player has played, so that every position is judged
 * as at the end of its round. It is off by default: against greedy seats
 * the search won less with it, with 2, 3 and 4 players (docs/bots.md,
 * *Strength*). */
void mcts_worth(const agent *a, carc_game *g, const int played[CARC_MAX_PLAYERS], double tempo,
                double v[CARC_MAX_PLAYERS])
{
    int n = carc_players(g), most = 0;
    if (a->eval) {
        evaluator_worth(a->eval, g, v);
    } else {
        int est[CARC_MAX_PLAYERS] = {0};
        carc_estimate_final(g, est);
        for (int p = 0; p < n; p++)
            v[p] = carc_score(g, p) + tune.est_weight * est[p] + tune.supply_weight * carc_supply(g, p, "follower");
    }
    if (tempo == 0) return;
    for (int p = 0; p < n; p++)
        if (played[p] > most) most = played[p];
    for (int p = 0; p < n; p++) v[p] += tempo * (most - played[p]);
}

void mcts_values(const double worth[CARC_MAX_PLAYERS], int n, int me, double value[CARC_MAX_PLAYERS],
                 double lead[CARC_MAX_PLAYERS])
{
    for (int p = 0; p < n; p++) {
        double other = -1e300, sum = 0;
        for (int q = 0; q < n; q++) {
            if (q != p && worth[q] > other) other = worth[q];
            if (q != p) sum += worth[q];
        }
        lead[p] = n > 1 ? worth[p] - other : worth[p];
        /* With two players the mean of the others is the best other. */
        double w = n < 3 ? 0 : p == me ? tune.mean : tune.oppmean;
        double against = w == 0 ? other : (1 - w) * other + w * sum / (n - 1);
        value[p] = 0.5 + 0.5 * tanh((n > 1 ? worth[p] - against : worth[p]) / tune.scale);
    }
}

static void estimate(const agent *a, carc_game *g, const turns *tn, double *out, double *lead)
{
    double v[CARC_MAX_PLAYERS];
    mcts_worth(a, g, tn->played, tune.tempo, v);
    mcts_values(v, carc_players(g), tn->me, out, lead);
}

/* A uniformly random playout of at most `limit` decisions (0: to the end;
 * negative: none); the searching player's own decisions drawn among what
 * its restrictions allow (restricted play). Returns whether the game
 * finished. */
static bool playout(const agent *a, carc_game *g, carc_rng *rng, long limit, turns *tn)
{
    for (long d = 0;; d++) {
        int st = carc_advance(g);
        if (st == CARC_NEED_DRAW) carc_draw(g, -1);
        else if (st != CARC_NEED_CHOICE) return true;
        else if (limit != 0 && d >= (limit < 0 ? 0 : limit)) return false;
        else {
            turns_note(tn, g);
            carc_choose(g, carc_decision_player(g) == tn->me ? agent_pick_allowed(a, g, rng)
                                                              : (int)carc_rng_below(rng, (uint32_t)carc_option_count(g)));
        }
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}


/* The judgement of a position h (advanced to its next decision, draw or
 * end; tn: the turns played to reach it) for player, and its lead in
 * points. */
static double judge_position(agent *a, carc_game *h, int st, const turns *tn, int player, double *lead_out)
{
    double v[CARC_MAX_PLAYERS], lead[CARC_MAX_PLAYERS];
    if (st == CARC_FINISHED) rewards(h, v, lead);
    else estimate(a, h, tn, v, lead);
    *lead_out = lead[player];
    return v[player];
}

/* The judgement of option o of g's decision for its player: tried on the
 * scratch game of `level` (0 holds the iteration's game); tn: the turns
 * played to reach g. */
static double judge(agent *a, const carc_game *g, int o, const turns *tn, int player, int level, double *lead_out)
{
    carc_game *h = agent_scratch(a, level, g);
    *lead_out = 0;
    if (!h || carc_game_try(h, g, o) == -2) return 0;
    turns after = *tn;
    turns_note(&after, g);
    int st = carc_advance(h);
    if (agent_note_spent(a, h)) return 0;
    return judge_position(a, h, st, &after, player, lead_out);
}

/* Ranks the children of `node` by prior (ties by option number):
 * widening opens the best first. */
static void rank_children(tree *t, int node)
{
    int first = t->n[node].first_child;
    for (int c = first; c >= 0; c = t->n[c].next_sibling) {
        int rank = 0;
        for (int d = first; d >= 0; d = t->n[d].next_sibling)
            if (t->n[d].prior > t->n[c].prior || (t->n[d].prior == t->n[c].prior && t->n[d].key < t->n[c].key)) rank++;
        t->n[c].rank = rank;
    }
}

/* Judges every option of the pending decision and adds them as children,
 * ranked. With `deep`, an option after which the same player decides again
 * (deploy after place) gets those follow-ups as its own children, judged
 * once here, and the best of them as its prior: what greedy weighs. So the
 * tree never judges the half-made turn (a tile placed, its follower or the
 * Ark's move not yet chosen) against whole turns, and the follow-ups are not
 * judged a second time when the search first goes below the option. */
static int expand(agent *a, tree *t, int node, const carc_game *g, const turns *tn, bool deep)
{
    int n = carc_option_count(g), player = carc_decision_player(g);
    int last = -1;
    turns after = *tn;
    turns_note(&after, g);
    for (int o = 0; o < n; o++) {
        /* Restricted play: the searching player never plans a move it may
         * not make (the others play every option). */
        if (player == tn->me && !agent_allows(a, g, o)) continue;
        int c = node_new(t, o, player);
        if (c < 0) return -1;
        if (last < 0) t->n[node].first_child = c;
        else t->n[last].next_sibling = c;
        last = c;
        double l;
        if (!deep) {
            t->n[c].prior = judge(a, g, o, tn, player, 2, &l);
            t->n[c].prior_lead = l;
            continue;
        }
        carc_game *h = agent_scratch(a, 1, g);
        int st = h && carc_game_try(h, g, o) != -2 ? carc_advance(h) : -1;
        if (agent_note_spent(a, h)) st = -1;
        if (st == CARC_NEED_CHOICE && carc_decision_player(h) == player) {
            if (expand(a, t, c, h, &after, false) < 0) return -1;
            double best = -1;
            for (int d = t->n[c].first_child; d >= 0; d = t->n[d].next_sibling)
                if (t->n[d].prior > best) {
                    best = t->n[d].prior;
                    t->n[c].prior_lead = t->n[d].prior_lead;
                }
            t->n[c].prior = best;
        } else if (st >= 0) {
            t->n[c].prior = judge_position(a, h, st, &after, player, &l);
            t->n[c].prior_lead = l;
        }
    }
    rank_children(t, node);
    t->n[node].expanded = true;
    t->n[node].noptions = n;
    return 0;
}

/* A child's value: its mean reward, the prior counted as a few visits. */
static double child_value(const mnode *m)
{
    return (m->reward + tune.prior_visits * m->prior) / (m->visits + tune.prior_visits);
}

static int select_child(const tree *t, int parent)
{
    const mnode *p = &t->n[parent];
    int open = (int)tune.widen + (int)sqrt((double)p->visits);
    double logn = log((double)p->visits + 1.0), best = -1e18;
    int pick = -1;
    for (int c = p->first_child; c >= 0; c = t->n[c].next_sibling) {
        const mnode *m = &t->n[c];
        if (m->rank >= open) continue;
        double v = child_value(m) + tune.uct_c * sqrt(logn / (m->visits + 1.0));
        if (v > best) {
            best = v;
            pick = c;
        }
    }
    return pick;
}

/* Whether root child m is played rather than b: the more visited, ties to
 * the better valued (with a small budget many children get the same few
 * visits, and the option number says nothing), then to the lower number. */
static bool plays_before(const mnode *m, const mnode *b)
{
    if (!tune.final_value && m->visits != b->visits) return m->visits > b->visits;
    double vm = child_value(m), vb = child_value(b);
    return vm != vb ? vm > vb : m->key < b->key;
}

/* The option to play. */
static int best_child(const tree *t)
{
    int best = -1;
    for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
        if (best < 0 || plays_before(&t->n[c], &t->n[best])) best = c;
    return best >= 0 ? t->n[best].key : 0;
}

/* One iteration: down the tree (expanding the first new decision node met),
 * a short playout, the result back up. */
static int iterate(agent *a, tree *t, const carc_game *root)
{
    carc_game *g = agent_scratch(a, 0, root);
    if (!g || carc_game_copy_into(g, root) < 0) return -1;
    carc_game_reseed_hidden(g, ((uint64_t)carc_rng_next(&a->rng) << 32) | carc_rng_next(&a->rng));
    int path[512], depth = 0, node = 0;
    path[depth++] = 0;
    turns tn;
    turns_start(&tn);
    int me = carc_decision_player(root);
    tn.me = me;
    bool extending = false, stopping = false, deep = tune.deep > 0, whole = tune.whole > 0;
    while (depth < 511) {
        int st = carc_advance(g);
        /* With whole turns, past the new node only the turn it began is
         * finished (its follower, the Ark's move), then the leaf. */
        if (stopping && !(st == CARC_NEED_CHOICE && carc_decision_player(g) == tn.chooser &&
                          carc_turn_number(g) == tn.last[tn.chooser]))
            break;
        if (extending && st == CARC_NEED_CHOICE && carc_decision_player(g) == me && carc_turn_number(g) != tn.last[me])
            break;
        if (st == CARC_NEED_DRAW) {
            carc_draw(g, -1);
            int type = carc_last_drawn(g);
            t->n[node].chance = true;
            int c = child_with_key(t, node, type);
            if (c < 0 && (c = add_child(t, node, type, -1)) < 0) break;
            node = c;
            path[depth++] = node;
            continue;
        }
        if (st != CARC_NEED_CHOICE) break;
        mnode *m = &t->n[node];
        int n = carc_option_count(g);
        if (m->chance || (m->expanded && m->noptions != n)) break; /* the game took another turn here: stop */
        bool fresh = !m->expanded;
        /* The root's options are judged with their follow-ups, which become
         * their children (paid once); deeper nodes' options, once each. */
        if (fresh && expand(a, t, node, g, &tn, node == 0 || deep) < 0) break;
        int c = select_child(t, node);
        if (c < 0) break;
        turns_note(&tn, g);
        if (carc_choose(g, t->n[c].key) < 0) break;
        node = c;
        path[depth++] = node;
        if (fresh && !tune.round && !whole) break;
        if (fresh && !tune.round) stopping = true;
        extending = extending || fresh;
    }
    double r[CARC_MAX_PLAYERS], lead[CARC_MAX_PLAYERS];
    bool finished = playout(a, g, &a->rng, a->playout_limit, &tn);
    if (finished) rewards(g, r, lead);
    else estimate(a, g, &tn, r, lead);
    /* What the leaf was, for the root's options: how many of the others'
     * turns it looked past, whether it stopped inside a turn. */
    if (depth > 1) {
        mnode *top = &t->n[path[1]];
        int replies = 0;
        for (int p = 0; p < carc_players(g) && p < CARC_MAX_PLAYERS; p++)
            if (p != me) replies += tn.played[p];
        if (top->fewest_replies < 0 || replies < top->fewest_replies) top->fewest_replies = replies;
        top->half_turns += !finished && tn.chooser >= 0 && carc_decision_player(g) == tn.chooser &&
                           carc_turn_number(g) == tn.last[tn.chooser];
    }
    for (int i = 0; i < depth; i++) {
        mnode *m = &t->n[path[i]];
        m->visits++;
        if (m->player >= 0) {
            m->reward += r[m->player];
            m->lead += lead[m->player];
        }
    }
    return 0;
}

int mcts_analyse(agent *a, carc_game *g, mcts_estimate *out, int max, int *count)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT; /* sim --jobs: agents on several threads */
    pthread_once(&once, read_tuning_once);
    if (count) *count = 0;
    if (agent_prepare_eval(a, g) < 0) return -1;
    int n = carc_option_count(g);
    if (n == 1 && !out) return 0;
    tree t = {0};
    if (node_new(&t, -1, -1) < 0) {
        snprintf(a->error, sizeof a->error, "out of memory");
        return -1;
    }
    double deadline = a->seconds > 0 ? now() + a->seconds : 0;
    a->spent = false;
    for (long it = 0;; it++) {
        if (a->iterations > 0 && it >= a->iterations) break;
        if (deadline > 0 && (it & 15) == 0 && now() >= deadline) break;
        if (iterate(a, &t, g) < 0) break;
        /* The scripts' account for trying this decision's moves is spent:
         * the search stops where it is. */
        if (agent_note_spent(a, a->scratch[0])) {
            a->fallbacks++;
            break;
        }
    }
    int best = best_child(&t);
    for (int c = t.n[0].first_child; out && c >= 0; c = t.n[c].next_sibling) {
        const mnode *m = &t.n[c];
        if (m->key < 0 || m->key >= max) continue;
        mcts_estimate *e = &out[m->key];
        e->option = m->key;
        e->visits = m->visits;
        e->win = m->visits ? m->reward / m->visits : m->prior;
        e->lead = m->visits ? m->lead / m->visits : m->prior_lead;
        e->prior = m->prior;
        e->fewest_replies = m->fewest_replies;
        e->half_turns = m->half_turns;
        if (count && m->key + 1 > *count) *count = m->key + 1;
    }
    free(t.n);
    return best;
}

int mcts_choose(agent *a, carc_game *g)
{
    return mcts_analyse(a, g, NULL, 0, NULL);
}
