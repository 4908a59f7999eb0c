/* scoring.c - feature values, majorities and the award pipeline.
 *
 * An award is collected into a batch; when the batch commits, its awards are
 * ordered (seat order from a given player; a player's awards smallest first;
 * ties road, city, cloister, temple, then other reasons alphabetically;
 * bonuses right after the award of their feature) and each lands through
 * CARC_EV_SCORE_BEFORE (may change it) and CARC_EV_SCORE_AFTER. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int grow(void **arr, int *cap, size_t elem)
{
    int ncap = *cap ? *cap * 2 : 64;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p) return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

void batch_begin(carc_game *g) { g->nbatch = 0; }

void batch_add(carc_game *g, int player, int points, int reason, int feature, int flags)
{
    if (g->nbatch == g->cap_batch && grow((void **)&g->batch, &g->cap_batch, sizeof *g->batch) < 0) {
        game_fail(g, "out of memory");
        return;
    }
    carc_award *a = &g->batch[g->nbatch++];
    a->player = player;
    a->points = points;
    a->reason = reason;
    a->feature = feature;
    a->step = g->score_step;
    a->flags = flags;
}

static void log_award(carc_game *g, const carc_award *a)
{
    if (g->nlog == g->cap_log && grow((void **)&g->log, &g->cap_log, sizeof *g->log) < 0) {
        game_fail(g, "out of memory");
        return;
    }
    g->log[g->nlog++] = *a;
}

/* One award lands: hooks before, the score moves, the log keeps it, hooks after. */
static void award_land(carc_game *g, carc_award a)
{
    carc_event e = {0};
    e.player = a.player;
    e.feature = a.feature;
    e.award = &a;
    dispatch(g, CARC_EV_SCORE_BEFORE, &e);
    if (g->failed) return;
    if (a.player < 0 || a.player >= g->nplayers || a.reason < 0 || a.reason >= g->rules->nreasons) {
        game_fail(g, "a score-before handler changed an award to player %d, reason %d: no such player or reason",
                  a.player, a.reason);
        return;
    }
    g->score[a.player] += a.points;
    log_award(g, &a);
    e.award = &a;
    dispatch(g, CARC_EV_SCORE_AFTER, &e);
}

static int reason_rank(const struct carc_rules *r, int reason)
{
    static const char *const fixed[] = {"road", "city", "cloister", "temple"};
    for (int i = 0; i < 4; i++)
        if (strcmp(r->reasons[reason], fixed[i]) == 0) return i;
    return 4;
}

typedef struct sort_ctx {
    const struct carc_rules *r;
    int first, n;
} sort_ctx;

static _Thread_local sort_ctx sctx;

static int award_cmp(const void *pa, const void *pb)
{
    const carc_award *a = pa, *b = pb;
    int sa = (a->player - sctx.first + sctx.n) % sctx.n, sb = (b->player - sctx.first + sctx.n) % sctx.n;
    if (sa != sb) return sa - sb;
    if (a->points != b->points) return a->points < b->points ? -1 : 1;
    int ra = reason_rank(sctx.r, a->reason), rb = reason_rank(sctx.r, b->reason);
    if (ra != rb) return ra - rb;
    if (ra == 4) {
        int c = strcmp(sctx.r->reasons[a->reason], sctx.r->reasons[b->reason]);
        if (c) return c;
    }
    return a->step - b->step; /* step holds the collection index while sorting */
}

void batch_commit(carc_game *g, int first_seat)
{
    int n = g->nbatch;
    if (n == 0) return;
    carc_award local[64];
    carc_award *all = n <= 64 ? local : malloc((size_t)n * sizeof *all);
    if (!all) {
        game_fail(g, "out of memory");
        return;
    }
    /* Main awards sorted; bonuses then go right after their feature's award
     * for the same player, or after the feature's last award. */
    int nm = 0, nb = 0;
    for (int i = 0; i < n; i++)
        if (!(g->batch[i].flags & CARC_AWARD_BONUS)) {
            all[nm] = g->batch[i];
            all[nm].step = i;
            nm++;
        }
    sctx = (sort_ctx){g->rules, first_seat < 0 ? 0 : first_seat, g->nplayers};
    qsort(all, (size_t)nm, sizeof *all, award_cmp);
    for (int i = 0; i < nm; i++) all[i].step = g->score_step;
    for (int i = 0; i < n; i++) {
        const carc_award *b = &g->batch[i];
        if (!(b->flags & CARC_AWARD_BONUS)) continue;
        int at = -1;
        for (int j = 0; j < nm + nb; j++)
            if (all[j].feature == b->feature && !(all[j].flags & CARC_AWARD_BONUS)) {
                if (all[j].player == b->player) {
                    at = j + 1;
                    while (at < nm + nb && (all[at].flags & CARC_AWARD_BONUS)) at++;
                    break;
                }
                at = j + 1;
            }
        if (at < 0) at = nm + nb;
        memmove(&all[at + 1], &all[at], (size_t)(nm + nb - at) * sizeof *all);
        all[at] = *b;
        nb++;
    }
    g->nbatch = 0;
    for (int i = 0; i < nm + nb && !g->failed; i++) award_land(g, all[i]);
    if (all != local) free(all);
}

void award_now(carc_game *g, int player, int points, int reason, int feature, int flags)
{
    carc_award a = {player, points, reason, feature, g->score_step, flags};
    award_land(g, a);
}

static int completed_cities_bordering(carc_game *g, int field_root)
{
    int_list cities;
    int_list_init(&cities);
    feat_bordering_cities(g, field_root, &cities);
    if (cities.oom) game_fail(g, "out of memory");
    int done = 0;
    for (int i = 0; i < cities.n; i++) done += feat_is_complete(g, cities.v[i]);
    int_list_free(&cities);
    return done;
}

/* The value of a feature for one winner (BASE-15..17, BASE-21, BASE-22);
 * plugins adjust it through CARC_EV_FEATURE_VALUE. */
int feature_value(carc_game *g, int root, bool complete)
{
    const node *n = &g->nodes[root];
    int v = 0;
    switch (n->kind) {
    case CARC_KIND_ROAD:
        v = feat_distinct_tiles(g, root);
        break;
    case CARC_KIND_CITY: {
        int tiles = feat_distinct_tiles(g, root), pennants = feat_mark_count(g, root, 0);
        if (!complete) v = tiles + pennants;
        else if (g->rules->k.small_city && tiles == 2) v = 2 + pennants;
        else v = 2 * tiles + 2 * pennants;
        break;
    }
    case CARC_KIND_CLOISTER:
        v = complete ? 9 : 1 + g->tiles[n->tile].ring;
        break;
    case CARC_KIND_FIELD:
        v = 3 * completed_cities_bordering(g, root);
        break;
    default:
        break;
    }
    if (g->rules->nhandlers[CARC_EV_FEATURE_VALUE]) {
        carc_event e = {0};
        e.feature = root;
        e.value = v;
        e.flags = complete;
        dispatch(g, CARC_EV_FEATURE_VALUE, &e);
        v = e.value;
    }
    return v;
}

static int kind_reason(const struct carc_rules *r, int kind)
{
    if (kind == CARC_KIND_FIELD) return CARC_REASON_FARM;
    int reason = rules_reason(r, r->kinds[kind].name);
    return reason >= 0 ? reason : 0;
}

/* Majority (BASE-18): the players with the most followers each score the
 * full value. */
void score_feature_into_batch(carc_game *g, int root, bool final)
{
    int counts[CARC_MAX_PLAYERS], best = 0;
    feat_followers(g, root, counts);
    for (int p = 0; p < g->nplayers; p++)
        if (counts[p] > best) best = counts[p];
    g->nodes[root].flags |= NODE_SCORED;
    if (best == 0) return;
    bool complete = feat_is_complete(g, root);
    int value = feature_value(g, root, complete);
    int reason = kind_reason(g->rules, g->nodes[root].kind);
    /* A feature worth nothing (a farm with no completed city) awards nothing:
     * no score marker moves, so no scoring event happens. */
    if (value > 0)
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] == best) batch_add(g, p, value, reason, root, final ? CARC_AWARD_FINAL : 0);
    carc_event e = {0};
    e.feature = root;
    e.flags = final;
    dispatch(g, CARC_EV_FEATURE_SCORED, &e);
}

/* BASE-21: incomplete roads, then cities, then cloisters (and any other
 * kernel-scored kind), each its own batch. */
void score_final_features(carc_game *g)
{
    const struct carc_rules *r = g->rules;
    if (!r->k.incomplete_score) return;
    int first = g->turn.active < 0 ? 0 : g->turn.active;
    g->score_step++;
    for (int k = 0; k < r->nkinds; k++) {
        if (!r->kinds[k].kernel_scored) continue;
        batch_begin(g);
        for (int i = 0; i < g->nnodes; i++) {
            node *n = &g->nodes[i];
            if (n->parent != i || n->kind != k || (n->flags & NODE_SCORED) || !n->occupants) continue;
            score_feature_into_batch(g, i, true);
        }
        batch_commit(g, first);
    }
    carc_event e = {0};
    e.value = g->score_step;
    dispatch(g, CARC_EV_SCORE_STEP_END, &e);
}

/* BASE-22 and its historical versions (option farm-scoring). */
void score_farms(carc_game *g)
{
    const struct carc_rules *r = g->rules;
    int mode = r->k.farm_scoring;
    if (mode == FARM_NONE) return;
    int first = g->turn.active < 0 ? 0 : g->turn.active;
    g->score_step++;
    batch_begin(g);
    if (mode == FARM_PER_FARM) {
        for (int i = 0; i < g->nnodes; i++) {
            node *n = &g->nodes[i];
            if (n->parent == i && n->kind == CARC_KIND_FIELD && n->occupants && !(n->flags & NODE_SCORED))
                score_feature_into_batch(g, i, true);
        }
    } else {
        /* Per city: which players win a farm bordering it, or (city-majority)
         * how many farmers each player has in all farms bordering it. */
        int *tally = calloc((size_t)g->nnodes * CARC_MAX_PLAYERS, sizeof *tally);
        if (!tally) {
            game_fail(g, "out of memory");
            return;
        }
        for (int i = 0; i < g->nnodes; i++) {
            node *n = &g->nodes[i];
            if (n->parent != i || n->kind != CARC_KIND_FIELD || !n->occupants) continue;
            int counts[CARC_MAX_PLAYERS], best = 0;
            feat_followers(g, i, counts);
            for (int p = 0; p < g->nplayers; p++)
                if (counts[p] > best) best = counts[p];
            int_list cities;
            int_list_init(&cities);
            feat_bordering_cities(g, i, &cities);
            if (cities.oom) game_fail(g, "out of memory");
            for (int c = 0; c < cities.n; c++) {
                int city = cities.v[c];
                if (!feat_is_complete(g, city)) continue;
                for (int p = 0; p < g->nplayers; p++) {
                    if (mode == FARM_CITY_MAJORITY) tally[city * CARC_MAX_PLAYERS + p] += counts[p];
                    else if (counts[p] == best && best > 0) tally[city * CARC_MAX_PLAYERS + p] = 1;
                }
            }
            int_list_free(&cities);
        }
        for (int c = 0; c < g->nnodes; c++) {
            int *t = &tally[c * CARC_MAX_PLAYERS], best = 0;
            for (int p = 0; p < g->nplayers; p++)
                if (t[p] > best) best = t[p];
            if (best == 0) continue;
            for (int p = 0; p < g->nplayers; p++)
                if (mode == FARM_CITY_MAJORITY ? t[p] == best : t[p] > 0)
                    batch_add(g, p, mode == FARM_CITY_MAJORITY ? 4 : 3, CARC_REASON_FARM, c, CARC_AWARD_FINAL);
        }
        free(tally);
    }
    batch_commit(g, first);
    carc_event e = {0};
    e.value = g->score_step;
    dispatch(g, CARC_EV_SCORE_STEP_END, &e);
}

void carc_estimate_final(carc_game *g, int out[CARC_MAX_PLAYERS])
{
    for (int i = 0; i < g->nnodes; i++) {
        node *n = &g->nodes[i];
        if (n->parent != i || !n->occupants || (n->flags & NODE_SCORED)) continue;
        const kind_def *k = &g->rules->kinds[n->kind];
        if (!k->kernel_scored && n->kind != CARC_KIND_FIELD) continue;
        if (n->kind == CARC_KIND_FIELD && g->rules->k.farm_scoring == FARM_NONE) continue;
        int counts[CARC_MAX_PLAYERS], best = 0;
        feat_followers(g, i, counts);
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] > best) best = counts[p];
        int v = feature_value(g, i, false);
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] == best) out[p] += v;
    }
}
