/* decision.c - decisions and their options: options pushed and posed as a
 * decision, the queue of decisions, the action decision built in rounds
 * (offer, veto), choosing an option (its owner applies it), and the record
 * text of an option, written and matched. Who owns an option gives its text
 * and carries it out: owner 0 is the base game (base.c), owner n the
 * plugin in slot n - 1. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The slot that formats and applies an owner's options. */
static const plugin_slot *option_owner(const carc_game *g, int owner)
{
    return owner == 0 ? &g->rules->base : owner_slot(g, owner);
}

carc_option *opt_room(carc_game *g, int n)
{
    if (g->nopts + n > g->cap_opts) {
        int cap = g->cap_opts ? g->cap_opts : 256;
        while (cap < g->nopts + n) cap *= 2;
        carc_option *o = realloc(g->opts, (size_t)cap * sizeof *o);
        if (!o) {
            game_fail(g, "out of memory");
            return NULL;
        }
        g->opts = o;
        g->cap_opts = cap;
    }
    return &g->opts[g->nopts];
}

carc_option *opt_push(carc_game *g)
{
    carc_option *o = opt_room(g, 1);
    if (!o) return NULL;
    g->nopts++;
    *o = (carc_option){.tile = -1, .seg = -1};
    return o;
}

static int ambiguity_check(carc_game *g, int first, int n, const char *label) __attribute__((noinline, cold));

/* Queues a decision whose options are the last n pushed with opt_push. */
static int pose(carc_game *g, int player, int owner, const char *label, int first, int n)
{
    /* A bot's copy writes no record, and the real game is checked when it
     * poses the decision itself: the check, which formats every option,
     * stays off the look-ahead's hot path. */
    if (g->rules->nplugins && !g->trial_of && ambiguity_check(g, first, n, label) < 0) return -1;
    if (g->ndq >= (int)(sizeof g->dq / sizeof g->dq[0])) {
        game_fail(g, "too many decisions pending");
        return -1;
    }
    if (++g->turn.asked > MAX_DECISIONS_PER_TURN) {
        game_fail(g, "%s asked more than %d decisions in one turn (a phase that asks for ever?)",
                  option_owner(g, owner)->name, MAX_DECISIONS_PER_TURN);
        return -1;
    }
    decision *d = &g->dq[g->ndq++];
    d->player = player;
    d->owner = owner;
    d->first = first;
    d->n = n;
    /* A bounded copy: snprintf's machinery cost an eighth of a random base
     * game (one decision is posed every turn). */
    size_t len = strnlen(label, sizeof d->label - 1);
    memcpy(d->label, label, len);
    d->label[len] = 0;
    return 0;
}

/* Poses a decision of `owner` with a copy of opts (api ask). */
int decision_ask(carc_game *g, int player, int owner, const char *label, const carc_option *opts, int n)
{
    if (n <= 0) return 0; /* a decision without options is not asked */
    int first = g->nopts;
    for (int i = 0; i < n; i++) {
        carc_option *o = opt_push(g);
        if (!o) return -1;
        *o = opts[i];
        o->owner = (uint16_t)owner;
    }
    return pose(g, player, owner, label, first, n);
}

int decision_pose_built(carc_game *g, int player, int owner, const char *label, int first)
{
    return g->nopts > first ? pose(g, player, owner, label, first, g->nopts - first) : 0;
}

/* ---- the action decision, built in rounds ----------------------------------- */

/* Starts collecting the action decision's options (at the end of opts). */
void decision_build_begin(carc_game *g)
{
    if (g->ndq == 0) g->nwalk_rules = 0; /* no pending option needs a walk rule */
    g->building = true;
    g->build_place = false;
    g->build_first = g->nopts;
    g->offer_owner = -1, g->offer_run = 0;
}

void decision_build_place_begin(carc_game *g, int first)
{
    g->building = true;
    g->build_place = true;
    g->build_first = first;
    g->offer_owner = -1, g->offer_run = 0;
}

/* Options collected so far while the action decision is built. */
int decision_offered(const carc_game *g) { return g->building ? g->nopts - g->build_first : 0; }

const carc_option *decision_offered_at(const carc_game *g, int i)
{
    return g->building && i >= 0 && i < g->nopts - g->build_first ? &g->opts[g->build_first + i] : NULL;
}

/* Adds an option of `owner` to the action decision being built. */
int decision_offer(carc_game *g, const carc_option *opt, int owner)
{
    carc_option *o = opt_push(g);
    if (!o) return -1;
    *o = *opt;
    o->owner = (uint16_t)owner;
    return 0;
}

/* Marks offered option i vetoed; action-filter's vetoes are dropped when
 * the filter round ends. */
void decision_veto(carc_game *g, int i) { g->opts[g->build_first + i].owner = OPTION_VETOED; }

void decision_drop_vetoed(carc_game *g)
{
    int w = g->build_first;
    for (int i = g->build_first; i < g->nopts; i++)
        if (g->opts[i].owner != OPTION_VETOED) g->opts[w++] = g->opts[i];
    g->nopts = w;
}

void decision_build_end(carc_game *g) { g->building = g->build_place = false; }

/* ---- choosing ---------------------------------------------------------------- */

/* The chosen option, its decision already dropped: its owner applies it,
 * then option-chosen. */
static int apply_chosen(carc_game *g, carc_option opt, int player)
{
    const plugin_slot *ps = option_owner(g, opt.owner);
    struct carc_ctx ctx = GAME_CTX(g, opt.owner, ps->user);
    g->answered++;
    int rc = opt.seg == CARC_SEG_WALK ? tile_walk_apply(&ctx, &opt) : ps->apply ? ps->apply(&ctx, &opt, player) : -1;
    if (rc < 0) game_fail(g, "%s: could not apply its option", ps->name);
    if (rc < 0 || g->failed) return -1;
    carc_event e = {0};
    e.player = player;
    e.option = &opt;
    e.tile = opt.tile;
    if (dispatch(g, CARC_EV_OPTION_CHOSEN, &e) < 0) return -1;
    check_move(g);
    return g->failed ? -1 : 0;
}

int carc_choose(carc_game *g, int index)
{
    if (!g->ndq || index < 0 || index >= g->dq[0].n) {
        game_fail(g, "option %d is not on offer", index);
        return -1;
    }
    int first = g->dq[0].first, n = g->dq[0].n, player = g->dq[0].player;
    assert(first >= 0 && first + n <= g->nopts);
    carc_option opt = g->opts[first + index];
    /* Drop the answered decision and its options (usually the only ones:
     * then nothing moves). */
    g->ndq--;
    if (g->ndq > 0) memmove(&g->dq[0], &g->dq[1], (size_t)g->ndq * sizeof g->dq[0]);
    int tail = g->nopts - (first + n);
    if (tail > 0) memmove(&g->opts[first], &g->opts[first + n], (size_t)tail * sizeof *g->opts);
    g->nopts -= n;
    for (int i = 0; i < g->ndq; i++)
        if (g->dq[i].first > first) g->dq[i].first -= n;
    return apply_chosen(g, opt, player);
}

int carc_game_try(carc_game *dst, const carc_game *src, int index)
{
    if (!src->ndq || index < 0 || index >= src->dq[0].n) {
        if (game_copy(dst, src, false) < 0) return -2;
        game_fail(dst, "option %d is not on offer", index);
        return -1;
    }
    carc_option opt = src->opts[src->dq[0].first + index];
    int player = src->dq[0].player;
    if (game_copy(dst, src, true) < 0) return -2;
    return apply_chosen(dst, opt, player);
}

static void memo_see(const carc_game *g, const carc_option *o, const char *text);
typedef struct shape_memo shape_memo;
static shape_memo *memo_of(const carc_game *g, bool make);
static uint64_t option_shape(const carc_game *g, shape_memo *m, const carc_option *o);

/* ---- record texts ------------------------------------------------------------ */

int option_format(const carc_game *g, const carc_option *o, char *buf, size_t n)
{
    const plugin_slot *ps = option_owner(g, o->owner);
    struct carc_ctx ctx = GAME_CTX((carc_game *)g, o->owner, ps->user);
    if (o->owner == 0) return ps->format(&ctx, o, buf, n); /* the base game's texts are clean */
    if (!ps->format || ps->format(&ctx, o, buf, n) < 0) return snprintf(buf, n, "%s?", ps->name);
    /* The text becomes one line of a saved game: a plugin's or script's
     * format must not break it (a newline would add lines, '#' starts a
     * comment, a NUL cuts it, a blank line or `end` means something else). */
    if (n == 0) return 0;
    buf[n - 1] = 0;
    size_t len = strlen(buf);
    if (len > CARC_OPTION_TEXT_MAX) buf[len = CARC_OPTION_TEXT_MAX] = 0; /* records refuse lines over 1000 */
    bool blank = true;
    for (char *c = buf; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '#') *c = '?';
        if (*c != ' ') blank = false;
    }
    if (blank) return snprintf(buf, n, "%s?", ps->name);
    char word[8];
    size_t pre = strlen(ps->name) + 1;
    if (sscanf(buf, " %7s", word) == 1 && strcmp(word, "end") == 0 && pre + 1 < n && pre < CARC_OPTION_TEXT_MAX) {
        /* "NAME:end ...", still within CARC_OPTION_TEXT_MAX and the buffer */
        if (len + pre > CARC_OPTION_TEXT_MAX) len = CARC_OPTION_TEXT_MAX - pre;
        if (len + pre >= n) len = n - pre - 1;
        buf[len] = 0;
        memmove(buf + pre, buf, len + 1);
        memcpy(buf, ps->name, strlen(ps->name));
        buf[strlen(ps->name)] = ':';
    }
    return (int)strlen(buf);
}

int carc_option_text(const carc_game *g, int i, char *buf, size_t n)
{
    const carc_option *o = carc_option_at(g, i);
    if (!o) return -1;
    int len = option_format(g, o, buf, n);
    if (len >= 0 && (size_t)len < n && g->shape_memo) memo_see(g, o, buf); /* whole texts only */
    return len;
}

static int tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return -1;
        tok[n++] = t;
    }
    return n;
}

/* A record line is at most 1000 characters (records.md), so at most 500
 * words; option texts are cut to 900 (option_format). */
#define LINE_MAX_CHARS 1000
#define LINE_MAX_WORDS (LINE_MAX_CHARS / 2 + 1)

/* Whether a word names a segment (`kind@port`), which any name of the
 * segment matches; `corner@NE` names a tile corner (CARC_AT_CORNER), one
 * name for each, matched as written. */
static bool segment_word(const char *w, size_t len)
{
    return memchr(w, '@', len) != NULL && !(len >= 7 && memcmp(w, "corner@", 7) == 0);
}

/* Whether a record line of words lt[0..nl) chooses option o, whose text
 * has the words ot[0..no): the same words, except that a `kind@port` word
 * of an option on a board tile matches any name of its segment. */
static bool words_choose(const carc_game *g, const carc_option *o, char **ot, int no, char **lt, int nl)
{
    if (no != nl) return false;
    for (int k = 0; k < no; k++) {
        if (strcmp(ot[k], lt[k]) == 0) continue;
        if (!(segment_word(ot[k], strlen(ot[k])) && o->tile >= 0 && seg_by_name(g, o->tile, lt[k]) == o->seg))
            return false;
    }
    return true;
}

int carc_option_match(const carc_game *g, const char *line)
{
    char lbuf[LINE_MAX_CHARS + 1];
    if (strlen(line) >= sizeof lbuf) return -1;
    snprintf(lbuf, sizeof lbuf, "%s", line);
    char *lt[LINE_MAX_WORDS];
    int nl = tokens(lbuf, lt, LINE_MAX_WORDS);
    if (nl <= 0) return -1;
    int n = carc_option_count(g);
    for (int i = 0; i < n; i++) {
        char obuf[LINE_MAX_CHARS + 1];
        carc_option_text(g, i, obuf, sizeof obuf);
        char *ot[LINE_MAX_WORDS];
        int no = tokens(obuf, ot, LINE_MAX_WORDS);
        if (no > 0 && words_choose(g, carc_option_at(g, i), ot, no, lt, nl)) return i;
    }
    return -1;
}

const char *carc_option_owner(const carc_game *g, int i)
{
    const carc_option *o = carc_option_at(g, i);
    return o ? option_owner(g, o->owner)->name : NULL;
}

static bool same_option(const carc_option *a, const carc_option *b)
{
    return a->owner == b->owner && a->code == b->code && a->tile == b->tile && a->seg == b->seg &&
           memcmp(a->arg, b->arg, sizeof a->arg) == 0;
}

/* Whether one record line could choose either of options a and b: the
 * text of one chooses the other (carc_option_match would take the first
 * of them, whichever the line meant). Options that do the same are no
 * harm. */
static bool options_confusable(const carc_game *g, const carc_option *a, const carc_option *b)
{
    if (same_option(a, b)) return false;
    char abuf[LINE_MAX_CHARS + 1], bbuf[LINE_MAX_CHARS + 1];
    option_format(g, a, abuf, sizeof abuf);
    option_format(g, b, bbuf, sizeof bbuf);
    char *at[LINE_MAX_WORDS], *bt[LINE_MAX_WORDS];
    int na = tokens(abuf, at, LINE_MAX_WORDS), nb = tokens(bbuf, bt, LINE_MAX_WORDS);
    if (na <= 0 || na != nb) return false;
    return words_choose(g, b, bt, nb, at, na) || words_choose(g, a, at, na, bt, nb);
}

int carc_option_duplicate(const carc_game *g, int k)
{
    const carc_option *b = carc_option_at(g, k);
    if (!b) return -1;
    /* The base game's own texts differ from each other; only a plugin's can
     * collide (with another, or with the base game's). */
    int count = carc_option_count(g);
    bool plugin = false;
    for (int i = 0; i < count && !plugin; i++) plugin = carc_option_at(g, i)->owner != 0;
    if (!plugin) return -1;
    /* Options one line could choose have the same shape (a `kind@port`
     * word matches only another such word: seg_by_name), so only options
     * of k's shape are compared by their texts; the shapes are those the
     * check of the posed decision kept (formatted here when none are). */
    shape_memo *m = memo_of(g, false);
    uint64_t shape = option_shape(g, m, b);
    for (int i = 0; i < count; i++) {
        const carc_option *a = carc_option_at(g, i);
        if (i != k && option_shape(g, m, a) == shape && options_confusable(g, a, b)) return i;
    }
    return -1;
}

/* ---- options a record could not tell apart ------------------------------------ */

/* The hash of an option text's shape: its words, each `kind@port` word as
 * one mark. Two options one line could choose have the same shape. */
static uint64_t text_shape(const char *text)
{
    uint64_t h = 1469598103934665603ull;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *w = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        bool at = segment_word(w, (size_t)(p - w));
        if (at) h = (h ^ '@') * 1099511628211ull;
        else
            for (const char *c = w; c < p; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
        h = (h ^ ' ') * 1099511628211ull;
    }
    return h;
}

/* ---- the shapes of option texts, kept per game ------------------------------ */

/* Every decision a game with plugins poses is checked, and a check needs
 * the shape of every option's text: formatting them all at each decision
 * (a call into a script for each of the Ark's few hundred moves) made
 * random games of script variants ten times slower. An option's text is
 * a function of the option and of what never changes during a game (the
 * positions of placed tiles, segment names, player names, the rules'
 * options: plugin-guide.md, lua-guide.md), so each option's shape is
 * formatted once a game and kept here, by the option's fields. A text
 * later seen to differ from its kept shape (carc_option_text, which every
 * record line and replay goes through) marks its owner unsteady: from then
 * on that owner's texts are formatted at every decision. Options whose
 * shapes agree are still compared by their texts, formatted afresh. */
#define SHAPE_MEMO_SLOTS 4096 /* a power of two; an entry is replaced by another of its slot */

struct shape_memo {
    uint64_t serial;   /* the game contents the entries belong to (engine.c: serial) */
    uint32_t unsteady; /* owners (bit per owner) whose texts are not kept */
    uint8_t used[SHAPE_MEMO_SLOTS];
    carc_option key[SHAPE_MEMO_SLOTS];
    uint64_t shape[SHAPE_MEMO_SLOTS];
};

void shape_memo_free(shape_memo *m) { free(m); }

/* The slot of option o (its fields, all of them, hashed). */
static unsigned memo_slot(const carc_option *o)
{
    uint64_t h = ((uint64_t)o->owner << 48 | (uint64_t)o->code << 32 | (uint32_t)o->tile) * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)o->seg << 32 | (uint32_t)o->arg[0]) * 0xc2b2ae3d27d4eb4full;
    h ^= ((uint64_t)(uint32_t)o->arg[1] << 32 | (uint32_t)o->arg[2]) * 0x165667b19e3779f9ull;
    return (unsigned)(h >> 40) & (SHAPE_MEMO_SLOTS - 1);
}

/* The memo of g's present contents, or NULL (none made yet, or it holds
 * another contents' entries: then it is emptied when `make`). */
static shape_memo *memo_of(const carc_game *g, bool make)
{
    shape_memo *m = g->shape_memo;
    if (m && m->serial == g->serial) return m;
    if (!make) return NULL;
    if (!m) {
        m = malloc(sizeof *m);
        if (!m) return NULL; /* then every text is formatted */
        ((carc_game *)g)->shape_memo = m;
    }
    memset(m->used, 0, sizeof m->used);
    m->serial = g->serial;
    m->unsteady = 0;
    return m;
}

/* The shape of option o's text: kept, or formatted (and kept when m). */
static uint64_t option_shape(const carc_game *g, shape_memo *m, const carc_option *o)
{
    unsigned slot = 0;
    bool keep = m && o->owner < 32 && !(m->unsteady >> o->owner & 1);
    if (keep) {
        slot = memo_slot(o);
        if (m->used[slot] && memcmp(&m->key[slot], o, sizeof *o) == 0) return m->shape[slot];
    }
    char text[LINE_MAX_CHARS + 1];
    option_format(g, o, text, sizeof text);
    uint64_t shape = text_shape(text);
    if (keep) {
        m->used[slot] = 1;
        m->key[slot] = *o;
        m->shape[slot] = shape;
    }
    return shape;
}

/* A text of option o was formatted for a record or a match: when it has
 * another shape than the one kept, o's owner is unsteady. */
static void memo_see(const carc_game *g, const carc_option *o, const char *text)
{
    shape_memo *m = memo_of(g, false);
    if (!m || o->owner >= 32 || (m->unsteady >> o->owner & 1)) return;
    unsigned slot = memo_slot(o);
    if (m->used[slot] && memcmp(&m->key[slot], o, sizeof *o) == 0 && m->shape[slot] != text_shape(text))
        m->unsteady |= 1u << o->owner;
}

/* A decision is posed: two of its options (one of them a plugin's) that one
 * record line could choose stop the game, naming the plugin, before any
 * player or record meets them. Only decisions with a plugin's options are
 * looked at (the base game's texts differ by construction); options are
 * compared only within the same shape (kept per game: above), so the cost
 * is a look-up per option, and a text for an option not seen before. */
static int ambiguity_check(carc_game *g, int first, int n, const char *label)
{
    const carc_option *opts = g->opts + first;
    bool plugin = false;
    for (int i = 0; i < n && !plugin; i++) plugin = opts[i].owner != 0;
    if (!plugin || n < 2) return 0;
    /* The options grouped by shape: a hash table of twice their number
     * (slot -> the first option of a shape), each option linked to the
     * next of its shape in option order. */
    int slots = 16;
    while (slots < 2 * n) slots *= 2;
    enum { LOCAL_OPTIONS = 128, LOCAL_SLOTS = 256 };
    uint64_t local_shape[LOCAL_OPTIONS];
    int local_next[LOCAL_OPTIONS], local_slot[LOCAL_SLOTS];
    uint64_t *shape = local_shape;
    int *next = local_next, *slot = local_slot;
    void *heap = NULL;
    if (n > LOCAL_OPTIONS || slots > LOCAL_SLOTS) {
        heap = malloc((size_t)n * (sizeof *shape + sizeof *next) + (size_t)slots * sizeof *slot);
        if (!heap) {
            game_fail(g, "out of memory");
            return -1;
        }
        shape = heap;
        next = (int *)(shape + n);
        slot = next + n;
    }
    for (int s = 0; s < slots; s++) slot[s] = -1;
    shape_memo *m = memo_of(g, true);
    bool repeated = false; /* some shape is had by two options */
    for (int i = n - 1; i >= 0; i--) { /* backwards: each shape's list in option order */
        shape[i] = option_shape(g, m, &opts[i]);
        next[i] = -1;
        unsigned s = (unsigned)(shape[i] ^ shape[i] >> 29) & (unsigned)(slots - 1);
        while (slot[s] >= 0 && shape[slot[s]] != shape[i]) s = (s + 1) & (unsigned)(slots - 1);
        if (slot[s] >= 0) {
            next[i] = slot[s];
            repeated = true;
        }
        slot[s] = i;
    }
    int rc = 0;
    /* Every pair of options of one shape: each option with those after it
     * in its list. */
    for (int a = 0; repeated && a < n && rc == 0; a++)
        for (int b = next[a]; b >= 0 && rc == 0; b = next[b]) {
            const carc_option *x = &opts[a], *y = &opts[b];
            if ((x->owner == 0 && y->owner == 0) || !options_confusable(g, x, y)) continue;
            /* Blame the plugin: the later one when both are plugins'. */
            const carc_option *blame = y->owner != 0 ? y : x;
            char tx[LINE_MAX_CHARS + 1], ty[LINE_MAX_CHARS + 1];
            option_format(g, x, tx, sizeof tx);
            option_format(g, y, ty, sizeof ty);
            const char *who = option_owner(g, blame->owner)->name;
            if (strcmp(tx, ty) == 0)
                game_fail(g, "%s offered two options with one text, '%s', in one decision (%s): a record could not "
                             "tell them apart (options must read differently)", who, tx, label);
            else
                game_fail(g, "%s offered two options one record line could choose, '%s' and '%s', in one decision (%s): "
                             "a kind@port word names its segment by any of its ports (options must read differently)",
                          who, tx, ty, label);
            rc = -1;
        }
    free(heap);
    return rc;
}
