/*
 * position.c - rule-blind figures of a position, per player, for bots that
 * learn what matters in a variant (carc_position_figures in carc.h).
 *
 * Every figure is built from what any variant has: scores, the features
 * followers hold (their value now, their value if completed, how open they
 * are, how many tiles left in the pile could close them), and the figures
 * of every per-player kind in hand and on the board. Nothing here knows a
 * rule: plugins shape the figures through the values they give features
 * (CARC_EV_FEATURE_VALUE) and the figure kinds they register.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/* Per deployable kind: value held now, value if completed, open ports,
 * features led, pile tiles that fit a lone hole. */
enum { PER_KIND = 5 };
static const char *const kind_figure[PER_KIND] = {"held", "whole", "open", "led", "closers"};
/* Per figure kind with a per-player supply: in hand, on the board. */
enum { PER_FIGKIND = 2 };
static const char *const figkind_figure[PER_FIGKIND] = {"hand", "board"};

static bool kind_counted(const struct carc_rules *r, int k) { return r->kinds[k].deployable; }
static bool figkind_counted(const struct carc_rules *r, int f)
{
    return r->figkinds[f].per_player > 0 || r->figkinds[f].any_by_players;
}

int carc_position_figure_count(const carc_rules *r)
{
    int n = 1;
    for (int k = 0; k < r->nkinds; k++) n += kind_counted(r, k) ? PER_KIND : 0;
    for (int f = 0; f < r->nfigkinds; f++) n += figkind_counted(r, f) ? PER_FIGKIND : 0;
    return n;
}

int carc_position_figure_name(const carc_rules *r, int i, char *buf, size_t n)
{
    if (i == 0) return snprintf(buf, n, "score");
    int at = 1;
    for (int k = 0; k < r->nkinds; k++) {
        if (!kind_counted(r, k)) continue;
        if (i < at + PER_KIND) return snprintf(buf, n, "%s.%s", kind_figure[i - at], r->kinds[k].name);
        at += PER_KIND;
    }
    for (int f = 0; f < r->nfigkinds; f++) {
        if (!figkind_counted(r, f)) continue;
        if (i < at + PER_FIGKIND) return snprintf(buf, n, "%s.%s", figkind_figure[i - at], r->figkinds[f].name);
        at += PER_FIGKIND;
    }
    if (n) buf[0] = 0;
    return -1;
}

/* How far a feature is from complete: open ports, or the spaces its ring or
 * cross still lacks. */
static int openness(const carc_game *g, int root)
{
    const node *nd = &g->nodes[root];
    switch (g->rules->kinds[nd->kind].completion) {
    case CARC_COMPLETE_PORTS: return nd->open;
    case CARC_COMPLETE_RING: return 8 - g->tiles[nd->tile].ring;
    case CARC_COMPLETE_CROSS: return 4 - g->tiles[nd->tile].cross;
    default: return 0;
    }
}

/* The one empty space every open port of a port-completed feature faces, as
 * a frontier index; -1 when there are none or several. */
static int lone_hole(const carc_game *g, int root)
{
    if (g->rules->kinds[g->nodes[root].kind].completion != CARC_COMPLETE_PORTS || g->nodes[root].open == 0)
        return -1;
    int hx = 0, hy = 0;
    bool found = false;
    int n = root;
    do {
        const node *nd = &g->nodes[n];
        const placed *p = &g->tiles[nd->tile];
        unsigned ports = g->rules->types[p->type].segs[nd->seg].ports;
        for (int port = 0; port < CARC_PORTS; port++) {
            if (!(ports & (1u << port))) continue;
            int side = port_side(port_rotate(port, p->rot));
            if (p->nb[side] >= 0) continue;
            int dx, dy;
            dir_delta(side, &dx, &dy);
            if (found && (hx != p->x + dx || hy != p->y + dy)) return -1;
            hx = p->x + dx;
            hy = p->y + dy;
            found = true;
        }
        n = nd->next;
    } while (n != root);
    if (!found) return -1;
    for (int i = 0; i < g->nfront; i++)
        if (g->front[i].x == hx && g->front[i].y == hy) return i;
    return -1;
}

/* The tiles left in the pile by type (which tiles remain is public; only
 * their order is hidden), gathered once per call and only when needed. */
typedef struct pile_types {
    int n;
    int type[MAX_TILE_TYPES], count[MAX_TILE_TYPES];
} pile_types;

static void pile_types_gather(const carc_game *g, pile_types *pt)
{
    static _Thread_local int16_t slot_of[MAX_TILE_TYPES]; /* type -> slot + 1, reset below */
    pt->n = 0;
    for (int i = 0; i < g->npile; i++) {
        int t = g->pile[i];
        if (t < 0 || t >= MAX_TILE_TYPES) continue;
        if (!slot_of[t]) {
            slot_of[t] = (int16_t)(pt->n + 1);
            pt->type[pt->n] = t;
            pt->count[pt->n++] = 0;
        }
        pt->count[slot_of[t] - 1]++;
    }
    for (int i = 0; i < pt->n; i++) slot_of[pt->type[i]] = 0;
}

/* Tiles left that fit the frontier space in some rotation. */
static int pile_fitting(const carc_game *g, const pile_types *pt, int fidx)
{
    int fits = 0;
    for (int i = 0; i < pt->n; i++)
        for (int rot = 0; rot < 4; rot++)
            if (board_fits(g, pt->type[i], fidx, rot)) {
                fits += pt->count[i];
                break;
            }
    return fits;
}

int carc_position_figures(carc_game *g, double *out, int max)
{
    const struct carc_rules *r = g->rules;
    int count = carc_position_figure_count(r);
    if ((long)count * g->nplayers > max) return -1;
    memset(out, 0, (size_t)count * (size_t)g->nplayers * sizeof *out);
    int kind_at[MAX_KINDS], at = 1;
    for (int k = 0; k < r->nkinds; k++) {
        kind_at[k] = kind_counted(r, k) ? at : -1;
        at += kind_counted(r, k) ? PER_KIND : 0;
    }
    for (int p = 0; p < g->nplayers; p++) out[p * count] = g->score[p];

    /* The features followers stand on, each once: walking the figures is
     * much shorter than walking every segment of the board. */
    int roots[256], nroots = 0;
    pile_types pile, *types = NULL;
    for (int f = 0; f < g->nfigs; f++) {
        const figure *fg = &g->figs[f];
        if (fg->where != CARC_AT_SEGMENT || fg->seat < 0 || !r->figkinds[fg->kind].follower) continue;
        int root = feat_root_c(g, g->tiles[fg->tile].node0 + fg->seg), k = 0;
        while (k < nroots && roots[k] != root) k++;
        if (k == nroots && nroots < 256) roots[nroots++] = root;
    }
    for (int j = 0; j < nroots; j++) {
        int i = roots[j];
        const node *nd = &g->nodes[i];
        if ((nd->flags & NODE_SCORED) || kind_at[nd->kind] < 0) continue;
        int counts[CARC_MAX_PLAYERS], best = 0;
        feat_followers(g, i, counts);
        for (int p = 0; p < g->nplayers; p++)
            if (counts[p] > best) best = counts[p];
        if (best == 0) continue;
        bool complete = feat_is_complete(g, i);
        int now = feature_value(g, i, complete);
        int whole = complete || r->kinds[nd->kind].completion == CARC_COMPLETE_NEVER ? now : feature_value(g, i, true);
        int open = openness(g, i), hole = lone_hole(g, i);
        if (hole >= 0 && !types) {
            types = &pile;
            pile_types_gather(g, types);
        }
        int closers = hole >= 0 ? pile_fitting(g, types, hole) : 0;
        for (int p = 0; p < g->nplayers; p++) {
            if (counts[p] != best) continue;
            double *o = out + p * count + kind_at[nd->kind];
            o[0] += now;
            o[1] += whole;
            o[2] += open;
            o[3] += 1;
            o[4] += closers;
        }
    }

    for (int f = 0; f < r->nfigkinds; f++) {
        if (!figkind_counted(r, f)) continue;
        for (int p = 0; p < g->nplayers; p++) out[p * count + at] = g->supply[p][f];
        for (int i = 0; i < g->nfigs; i++) {
            const figure *fg = &g->figs[i];
            if (fg->kind == f && fg->seat >= 0 && fg->seat < g->nplayers && fg->where != CARC_AT_NONE &&
                fg->where != CARC_AT_HELD)
                out[fg->seat * count + at + 1] += 1;
        }
        at += PER_FIGKIND;
    }
    return count;
}
