/* game_trace.c - how one game went (game_trace.h). */
#include "game_trace.h"

#include <string.h>

void game_trace_begin(game_trace *t)
{
    memset(t, 0, sizeof *t);
    t->last_turn = t->seen_turn = -1;
    t->leader = t->streak_owner = -1;
}

/* The sole highest scorer, or -1 when two or more share the highest score. */
static int sole_leader(const int *score, int n)
{
    int best = 0;
    for (int p = 1; p < n; p++)
        if (score[p] > score[best]) best = p;
    for (int p = 0; p < n; p++)
        if (p != best && score[p] == score[best]) return -1;
    return best;
}

void game_trace_scores(game_trace *t, int turn, const int *score, int nplayers)
{
    int lead = sole_leader(score, nplayers), top = score[0];
    for (int p = 1; p < nplayers; p++)
        if (score[p] > top) top = score[p];
    for (int p = 0; p < nplayers && p < CARC_MAX_PLAYERS; p++) t->behind[p] += score[p] < top;
    t->snapshots++;
    /* A tie leaves the lead where it was; a new sole leader changes it. */
    if (lead >= 0 && t->leader >= 0 && lead != t->leader) t->lead_changes++;
    if (lead >= 0) t->leader = lead;
    /* The streak of one sole leader, broken by a tie or another leader. */
    if (lead != t->streak_owner || lead < 0) {
        t->streak_owner = lead;
        t->streak_from = turn;
    }
    t->last_turn = turn;
}

void game_trace_decision(game_trace *t, int options)
{
    t->decisions++;
    t->options += options;
    t->choice_decisions += options >= 2;
}

void game_trace_finish(game_trace *t, int turn, const int *score, int nplayers)
{
    game_trace_scores(t, turn, score, nplayers);
    int w = sole_leader(score, nplayers);
    if (w < 0) {
        t->led_from = turn;
        t->winner_behind = -1;
        for (int p = 0; p < nplayers; p++) {
            int top = 1;
            for (int q = 0; q < nplayers; q++) top &= score[q] <= score[p];
            /* tied winners: the least time behind among them */
            if (top && (t->winner_behind < 0 || t->behind[p] < t->winner_behind)) t->winner_behind = t->behind[p];
        }
        return;
    }
    t->led_from = t->streak_from;
    t->winner_behind = t->behind[w];
}

static void scores_of(const carc_game *g, int *score)
{
    for (int p = 0; p < carc_players(g); p++) score[p] = carc_score(g, p);
}

void game_trace_observe(game_trace *t, const carc_game *g)
{
    int turn = carc_turn_number(g);
    if (turn > 0 && turn != t->seen_turn) {
        int score[CARC_MAX_PLAYERS];
        scores_of(g, score);
        game_trace_scores(t, turn - 1, score, carc_players(g));
        t->seen_turn = turn;
    }
}

void game_trace_observe_end(game_trace *t, const carc_game *g)
{
    int score[CARC_MAX_PLAYERS];
    scores_of(g, score);
    game_trace_finish(t, carc_turn_number(g), score, carc_players(g));
}

static const char *const field_names[GAME_TRACE_FIELDS] = {
    "snapshots", "lead_changes", "led_from", "winner_behind", "decisions", "choice_decisions", "options"};

const char *game_trace_field_name(int i) { return i >= 0 && i < GAME_TRACE_FIELDS ? field_names[i] : NULL; }

long game_trace_field(const game_trace *t, int i)
{
    switch (i) {
    case 0: return t->snapshots;
    case 1: return t->lead_changes;
    case 2: return t->led_from;
    case 3: return t->winner_behind;
    case 4: return t->decisions;
    case 5: return t->choice_decisions;
    case 6: return t->options;
    default: return 0;
    }
}

bool game_trace_set_field(game_trace *t, const char *name, long v)
{
    int *slot[] = {&t->snapshots, &t->lead_changes, &t->led_from, &t->winner_behind, &t->decisions,
                   &t->choice_decisions};
    for (int i = 0; i < GAME_TRACE_FIELDS; i++)
        if (strcmp(name, field_names[i]) == 0) {
            if (i == 6) t->options = v;
            else *slot[i] = (int)v;
            return true;
        }
    return false;
}
