/* agents.h - who answers decisions: bots and the terminal player. An agent
 * only ever picks one of the options the engine offers. */
#ifndef CARC_AGENTS_H
#define CARC_AGENTS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "carc.h"
#include "rng.h"

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
};

/* The search agent's choice (agent_mcts.c). */
int mcts_choose(agent *a, carc_game *g);

/* The largest search budget an agent takes: a record from elsewhere names
 * its bots, and `play --resume` must not search for ever or without bound
 * in memory. */
#define AGENT_MAX_ITERATIONS 100000
#define AGENT_MAX_SECONDS 60

/* Creates an agent from its name ("random", "greedy", "human", "mcts",
 * "mcts:200ms", "mcts:2s", "mcts:5000it"); the seed and seat give it its own
 * stream. */
agent *agent_create(const char *spec, uint64_t seed, int seat, char *err, size_t errn);
void agent_free(agent *a);
/* Lists the agent names with one line each. */
void agent_list(FILE *f);
#endif
