/* scoring.c - feature values, majorities and the award pipeline.
 *
 * An award is collected into a batch; when the batch commits, its awards are
 * ordered (seat order from a given player; a player's awards smallest first;
 * ties road, city, cloister, temple, then other reasons alphabetically;
 * bonuses right after the award of their feature) and each lands through
 * CARC_EV_SCORE_BEFORE (may change it) and CARC_EV_SCORE_AFTER. */
#include <stdio.h>
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

int batch_withdraw(carc_game *g, int i)
{
    if (g->batch_is_view || i < 0 || i >= g->nbatch) return -1;
    memmove(&g->batch[i], &g->batch[i + 1], (size_t)(g->nbatch - i - 1) * sizeof *g->batch);
    g->nbatch--;
    return 0;
}

/* The batch's awards in landing order, into all (room for g->nbatch). */
static void batch_order(carc_game *g, int first_seat, carc_award *all)
{
    int n = g->nbatch;
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
    batch_order(g, first_seat, all);
    g->nbatch = 0;
    for (int i = 0; i < n && !g->failed; i++) award_land(g, all[i]);
    if (all != local) free(all);
}

/* ---- the landing queue: a player chooses the order of their awards (ROB-15) ---- */

/* The end of the group of the main award at i: it and the bonuses after it. */
static int group_end(const carc_game *g, int i)
{
    int j = i + 1;
    while (j < g->nlanding && (g->landing[j].flags & CARC_AWARD_BONUS)) j++;
    return j;
}

/* The main awards of the player whose award is next, from landing_pos to the
 * next main award of another player: their indexes. */
static void player_mains(const carc_game *g, int_list *out)
{
    int p = g->landing[g->landing_pos].player;
    for (int i = g->landing_pos; i < g->nlanding; i = group_end(g, i)) {
        if (g->landing[i].flags & CARC_AWARD_BONUS) continue; /* a stray bonus: skip it */
        if (g->landing[i].player != p) break;
        int_list_push(out, i);
    }
}

/* Whether a handler says the order of the next player's awards matters; then
 * that player is asked. 1 if a decision was posed. */
static int ask_order(carc_game *g)
{
    if (g->nbatch) return 0; /* someone's own batch is being collected */
    int_list mains;
    int_list_init(&mains);
    player_mains(g, &mains);
    int p = g->landing[g->landing_pos].player, asked = 0;
    carc_option *opts = NULL;
    if (mains.oom) game_fail(g, "out of memory");
    if (mains.n < 2 || g->failed) goto out;
    /* The handlers see the player's awards left, in their current order. */
    for (int i = g->landing_pos; i < g->nlanding; i++)
        if (g->landing[i].player == p) batch_add(g, p, g->landing[i].points, g->landing[i].reason,
                                                 g->landing[i].feature, g->landing[i].flags);
    g->batch_is_view = true;
    carc_event e = {0};
    e.player = p;
    e.value = 0;
    dispatch(g, CARC_EV_AWARD_ORDER, &e);
    g->batch_is_view = false;
    g->nbatch = 0;
    if (g->failed || e.value == 0) goto out;
    opts = calloc((size_t)mains.n, sizeof *opts);
    if (!opts) {
        game_fail(g, "out of memory");
        goto out;
    }
    int n = 0;
    for (int i = 0; i < mains.n; i++) {
        carc_option o = {0};
        o.code = BASE_OPT_ORDER;
        o.tile = o.seg = -1;
        o.arg[0] = mains.v[i];
        char text[128], other[128];
        landing_format(g, &o, text, sizeof text);
        bool same = false; /* interchangeable awards (one text): one option */
        for (int j = 0; j < n && !same; j++) {
            landing_format(g, &opts[j], other, sizeof other);
            same = strcmp(text, other) == 0;
        }
        if (!same) opts[n++] = o;
    }
    if (n >= 2 && decision_ask(g, p, 0, "order", opts, n) == 0) {
        g->landing_paused = true;
        asked = 1;
    }
out:
    free(opts);
    int_list_free(&mains);
    return asked;
}

int batch_land_resume(carc_game *g)
{
    g->landing_paused = false;
    while (g->landing_pos < g->nlanding && !g->failed) {
        const carc_award *a = &g->landing[g->landing_pos];
        if (!(a->flags & CARC_AWARD_BONUS) && !g->landing_chosen && ask_order(g)) return 1;
        g->landing_chosen = false;
        award_land(g, g->landing[g->landing_pos++]);
    }
    g->nlanding = g->landing_pos = 0;
    return 0;
}

int batch_commit_pausable(carc_game *g, int first_seat)
{
    int n = g->nbatch;
    if (n == 0) return 0;
    if (!g->rules->nhandlers[CARC_EV_AWARD_ORDER]) {
        batch_commit(g, first_seat);
        return 0;
    }
    if (n > g->cap_landing) {
        carc_award *q = realloc(g->landing, (size_t)n * sizeof *q);
        if (!q) {
            game_fail(g, "out of memory");
            return 0;
        }
        g->landing = q;
        g->cap_landing = n;
    }
    batch_order(g, first_seat, g->landing);
    g->nlanding = n;
    g->landing_pos = 0;
    g->landing_chosen = false;
    g->nbatch = 0;
    return batch_land_resume(g);
}

int landing_choose(carc_game *g, const carc_option *opt)
{
    int j = opt->arg[0], pos = g->landing_pos;
    if (!g->landing_paused || j < pos || j >= g->nlanding || (g->landing[j].flags & CARC_AWARD_BONUS)) {
        game_fail(g, "no award to order there");
        return -1;
    }
    /* The chosen group moves to the front; the others keep their order. */
    int end = group_end(g, j);
    while (j > pos) { /* rotate [pos, end) by one until the group leads */
        carc_award last = g->landing[j - 1];
        memmove(&g->landing[j - 1], &g->landing[j], (size_t)(end - j) * sizeof last);
        g->landing[end - 1] = last;
        j--;
        end--;
    }
    g->landing_chosen = true;
    g->landing_paused = false;
    return 0;
}

/* `order <reason> <x>,<y>`: the award's reason and the earliest-placed tile
 * of its feature; ` <kind>@<port>` follows where another award of the player
 * left would read the same. */
static int order_base(const carc_game *g, const carc_award *a, char *buf, size_t n, int *tile, int *seg)
{
    const char *reason = g->rules->reasons[a->reason];
    *tile = *seg = -1;
    if (a->feature < 0) return snprintf(buf, n, "order %s", reason);
    feat_first_segment(g, a->feature, tile, seg);
    return snprintf(buf, n, "order %s %d,%d", reason, g->tiles[*tile].x, g->tiles[*tile].y);
}

int landing_format(const carc_game *g, const carc_option *o, char *buf, size_t n)
{
    int j = o->arg[0];
    if (j < 0 || j >= g->nlanding) return snprintf(buf, n, "order ?");
    const carc_award *a = &g->landing[j];
    int tile, seg, len = order_base(g, a, buf, n, &tile, &seg);
    if (tile < 0) return len;
    for (int i = g->landing_pos; i < g->nlanding; i = group_end(g, i)) {
        const carc_award *b = &g->landing[i];
        if (i == j || b->player != a->player || (b->flags & CARC_AWARD_BONUS)) continue;
        char other[96];
        int t2, s2;
        order_base(g, b, other, sizeof other, &t2, &s2);
        if (strcmp(other, buf) == 0 && b->feature != a->feature) {
            char name[64];
            carc_segment_name(g, tile, seg, name, sizeof name);
            return len + snprintf(buf + len, n > (size_t)len ? n - (size_t)len : 0, " %s", name);
        }
    }
    return len;
}

void award_now(carc_game *g, int player, int points, int reason, int feature, int flags)
{
    carc_award a = {player, points, reason, feature, g->score_step, flags};
    award_land(g, a);
}

int award_figures_on(carc_game *g, int tile, int where, uint32_t kinds, int points, int reason)
{
    int awarded = 0;
    for (int id = fig_next_on_tile(g, tile, -1); id >= 0 && !g->failed; id = fig_next_on_tile(g, tile, id)) {
        const figure *f = &g->figs[id];
        if (f->where != where || f->seat < 0 || (kinds && !(kinds >> f->kind & 1u))) continue;
        award_now(g, f->seat, points, reason, -1, 0);
        awarded++;
    }
    return g->failed ? -1 : awarded;
}

static int count_completed_cities_bordering(carc_game *g, int field_root)
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

/* The count above, kept per field for the present features (core.h:
 * field_cities). */
static int completed_cities_bordering(carc_game *g, int field_root)
{
    size_t n = (size_t)g->made_max_tiles * MAX_SEGS;
    if (g->field_cities_epoch != g->board_epoch || !g->field_cities) {
        if (!g->field_cities) g->field_cities = malloc(n * sizeof *g->field_cities);
        if (!g->field_cities) return count_completed_cities_bordering(g, field_root);
        memset(g->field_cities, 0xff, n * sizeof *g->field_cities); /* -1: not counted */
        g->field_cities_epoch = g->board_epoch;
    }
    if (field_root < 0 || (size_t)field_root >= n) return count_completed_cities_bordering(g, field_root);
    int16_t *kept = &g->field_cities[field_root];
    if (*kept >= 0) return *kept;
    int done = count_completed_cities_bordering(g, field_root);
    if (!g->failed && done <= INT16_MAX) *kept = (int16_t)done;
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
        /* farm-scoring=none: a farm is worth nothing, also to the bots'
         * judgement of a position (position.c) that asks it here. */
        v = g->rules->k.farm_scoring == FARM_NONE ? 0 : 3 * completed_cities_bordering(g, root);
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

int majority_event(carc_game *g, int root, int strength[CARC_MAX_PLAYERS], bool final)
{
    if (g->rules->nhandlers[CARC_EV_FEATURE_MAJORITY]) {
        /* A handler may score another feature meanwhile: keep the outer one's. */
        int outer[CARC_MAX_PLAYERS];
        bool nested = g->in_majority;
        memcpy(outer, g->majority, sizeof outer);
        memcpy(g->majority, strength, sizeof g->majority);
        g->in_majority = true;
        carc_event e = {0};
        e.feature = root;
        e.flags = final;
        dispatch(g, CARC_EV_FEATURE_MAJORITY, &e);
        memcpy(strength, g->majority, sizeof g->majority);
        memcpy(g->majority, outer, sizeof outer);
        g->in_majority = nested;
    }
    int best = 0;
    for (int p = 0; p < g->nplayers; p++)
        if (strength[p] > best) best = strength[p];
    return best;
}

/* Majority (BASE-18): the players with the greatest strength (the sum of
 * their followers' strengths, after feature-majority) each score the full
 * value. */
void score_feature_into_batch(carc_game *g, int root, bool final)
{
    int strength[CARC_MAX_PLAYERS];
    feat_strengths(g, root, strength);
    int best = majority_event(g, root, strength, final);
    g->nodes[root].flags |= NODE_SCORED;
    nodes_changed(g, NODES_SCORED, (uint64_t)(uint32_t)root);
    if (best == 0 || g->failed) return;
    bool complete = feat_is_complete(g, root);
    int value = feature_value(g, root, complete);
    int reason = kind_reason(g->rules, g->nodes[root].kind);
    /* A feature worth nothing (a farm with no completed city) awards nothing:
     * no score marker moves, so no scoring event happens. */
    if (value > 0)
        for (int p = 0; p < g->nplayers; p++)
            if (strength[p] == best) batch_add(g, p, value, reason, root, final ? CARC_AWARD_FINAL : 0);
    carc_event e = {0};
    e.feature = root;
    e.flags = final;
    e.value = value;
    dispatch(g, CARC_EV_FEATURE_SCORED, &e);
}

/* Whether node i is the root of an unscored feature of kind k that
 * followers stand on. The tests are combined without branches: among a
 * game's nodes they come out in no order a branch predictor could learn,
 * and the final scoring asks them of every node. */
static bool held_unscored_root(const node *n, int i, int k)
{
    return (n->parent == i) & (n->kind == k) & !(n->flags & NODE_SCORED) & (n->occupants != 0);
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
        for (int i = 0; i < g->nnodes; i++)
            if (held_unscored_root(&g->nodes[i], i, k)) score_feature_into_batch(g, i, true);
        batch_commit(g, first);
    }
    carc_event e = {0};
    e.value = g->score_step;
    dispatch(g, CARC_EV_SCORE_STEP_END, &e);
}

/* The historical per-city farm modes (BASE-22 options). Each farm with
 * farmers raises the events of per-farm scoring: feature-majority (the
 * farm's strengths), feature-value (here: the points per completed city its
 * winners earn, 3, or 4 with city-majority), then, once the cities' awards
 * are in the batch, feature-scored. Per city:
 *   per-city-once: every player who wins a farm bordering it scores it once,
 *     the best value among those farms;
 *   city-majority: the players with the greatest strength summed over all
 *     farms bordering it score it (the best value among their farms there). */
static void score_farms_per_city(carc_game *g, int mode)
{
    int nfarms = 0;
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i].parent == i && g->nodes[i].kind == CARC_KIND_FIELD && g->nodes[i].occupants) nfarms++;
    if (nfarms == 0) return;
    /* per city and player: the strength tally and the best per-city value */
    int *tally = calloc((size_t)g->nnodes * CARC_MAX_PLAYERS, sizeof *tally);
    int *worth = calloc((size_t)g->nnodes * CARC_MAX_PLAYERS, sizeof *worth);
    int *farms = calloc((size_t)nfarms, sizeof *farms), *values = calloc((size_t)nfarms, sizeof *values);
    if (!tally || !worth || !farms || !values) {
        game_fail(g, "out of memory");
        goto out;
    }
    nfarms = 0;
    for (int i = 0; i < g->nnodes && !g->failed; i++) {
        node *n = &g->nodes[i];
        if (n->parent != i || n->kind != CARC_KIND_FIELD || !n->occupants) continue;
        int strength[CARC_MAX_PLAYERS];
        feat_strengths(g, i, strength);
        int best = majority_event(g, i, strength, true);
        n->flags |= NODE_SCORED;
        nodes_changed(g, NODES_SCORED, (uint64_t)(uint32_t)i);
        int value = mode == FARM_CITY_MAJORITY ? 4 : 3;
        if (g->rules->nhandlers[CARC_EV_FEATURE_VALUE]) {
            carc_event e = {0};
            e.feature = i;
            e.value = value;
            dispatch(g, CARC_EV_FEATURE_VALUE, &e);
            value = e.value;
        }
        farms[nfarms] = i;
        values[nfarms++] = value;
        int_list cities;
        int_list_init(&cities);
        feat_bordering_cities(g, i, &cities);
        if (cities.oom) game_fail(g, "out of memory");
        for (int c = 0; c < cities.n; c++) {
            if (!feat_is_complete(g, cities.v[c])) continue;
            for (int p = 0; p < g->nplayers; p++) {
                int at = cities.v[c] * CARC_MAX_PLAYERS + p;
                bool counts = mode == FARM_CITY_MAJORITY ? strength[p] > 0 : strength[p] == best && best > 0;
                if (!counts) continue;
                if (mode == FARM_CITY_MAJORITY) tally[at] += strength[p];
                else tally[at] = 1;
                if (value > worth[at]) worth[at] = value;
            }
        }
        int_list_free(&cities);
    }
    for (int c = 0; c < g->nnodes && !g->failed; c++) {
        int *t = &tally[c * CARC_MAX_PLAYERS], best = 0;
        for (int p = 0; p < g->nplayers; p++)
            if (t[p] > best) best = t[p];
        if (best == 0) continue;
        for (int p = 0; p < g->nplayers; p++)
            if ((mode == FARM_CITY_MAJORITY ? t[p] == best : t[p] > 0) && worth[c * CARC_MAX_PLAYERS + p] > 0)
                batch_add(g, p, worth[c * CARC_MAX_PLAYERS + p], CARC_REASON_FARM, c, CARC_AWARD_FINAL);
    }
    for (int f = 0; f < nfarms && !g->failed; f++) {
        carc_event e = {0};
        e.feature = farms[f];
        e.flags = 1;
        e.value = values[f];
        dispatch(g, CARC_EV_FEATURE_SCORED, &e);
    }
out:
    free(tally);
    free(worth);
    free(farms);
    free(values);
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
        for (int i = 0; i < g->nnodes; i++)
            if (held_unscored_root(&g->nodes[i], i, CARC_KIND_FIELD)) score_feature_into_batch(g, i, true);
    } else {
        score_farms_per_city(g, mode);
    }
    batch_commit(g, first);
    carc_event e = {0};
    e.value = g->score_step;
    dispatch(g, CARC_EV_SCORE_STEP_END, &e);
}

/* A feature held by followers, and each player's strength on it. */
typedef struct held_feature {
    int root;
    int strength[CARC_MAX_PLAYERS];
} held_feature;

/* The features followers stand on (the roots whose occupant count is not
 * 0), in ascending root order, with each player's strength: one pass over
 * the figures instead of one a feature. Returns how many, or -1 when out of
 * memory; *held is `local` or a heap array the caller frees. */
static int held_features(const carc_game *g, held_feature *local, int nlocal, held_feature **held)
{
    int n = 0, cap = nlocal;
    held_feature *h = local;
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where != CARC_AT_SEGMENT) continue;
        const figkind_def *k = &g->rules->figkinds[fg->kind];
        if (!k->follower) continue;
        int root = feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg), i = n;
        while (i > 0 && h[i - 1].root > root) i--; /* kept sorted: insertion */
        if (i == 0 || h[i - 1].root != root) {
            if (n == cap) {
                cap *= 2;
                held_feature *bigger = h == local ? malloc((size_t)cap * sizeof *h) : realloc(h, (size_t)cap * sizeof *h);
                if (!bigger) {
                    if (h != local) free(h);
                    return -1;
                }
                if (h == local) memcpy(bigger, local, (size_t)n * sizeof *h);
                h = bigger;
            }
            memmove(&h[i + 1], &h[i], (size_t)(n - i) * sizeof *h);
            memset(&h[i], 0, sizeof *h);
            h[i].root = root;
            n++;
            i++;
        }
        if (fg->seat >= 0) h[i - 1].strength[fg->seat] += k->strength; /* 0: CARC_FIGURE_STRENGTH_ZERO */
    }
    *held = h;
    return n;
}

static void estimate_final(carc_game *g, int out[CARC_MAX_PLAYERS]);

/* The bots judge each move they weigh by this estimate, and most moves (an
 * Ark's walk, a robber on the track) leave the features as they were: the
 * answer is kept for the present nodes (core.h: estimate_epoch). With a
 * feature-value handler (which may read anything) it is made every time. */
void carc_estimate_final(carc_game *g, int out[CARC_MAX_PLAYERS])
{
    bool keep = g->rules->nhandlers[CARC_EV_FEATURE_VALUE] == 0 && g->nodes_epoch != 0;
    if (keep && g->estimate_epoch == g->nodes_epoch) {
        for (int p = 0; p < g->nplayers; p++) out[p] += g->estimate[p];
        return;
    }
    int est[CARC_MAX_PLAYERS] = {0};
    estimate_final(g, est);
    for (int p = 0; p < g->nplayers; p++) out[p] += est[p];
    if (keep && !g->failed) {
        memcpy(g->estimate, est, sizeof est);
        g->estimate_epoch = g->nodes_epoch;
    }
}

static void estimate_final(carc_game *g, int out[CARC_MAX_PLAYERS])
{
    /* Every feature followers hold, in root order (the order the values are
     * asked in, feature-value handlers included, as when every node was
     * looked at): the players with the greatest strength (BASE-18) each
     * count what it would pay now. */
    held_feature local[64], *held;
    int n = held_features(g, local, 64, &held);
    if (n < 0) {
        game_fail(g, "out of memory");
        return;
    }
    for (int i = 0; i < n; i++) {
        int root = held[i].root;
        const node *nd = &g->nodes[root];
        if (nd->flags & NODE_SCORED) continue;
        const kind_def *k = &g->rules->kinds[nd->kind];
        if (!k->kernel_scored && nd->kind != CARC_KIND_FIELD) continue;
        if (nd->kind == CARC_KIND_FIELD && g->rules->k.farm_scoring == FARM_NONE) continue;
        const int *counts = held[i].strength;
        int best = 0;
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] > best) best = counts[p];
        int v = feature_value(g, root, false);
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] == best) out[p] += v;
    }
    if (held != local) free(held);
}
