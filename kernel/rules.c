/* rules.c - the registries of a variant's rules (kinds, marks, figures,
 * reasons, options) and the derived tables built when loading is done. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int find_name(const char (*names)[NAME_LEN], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

int rules_kind(const struct carc_rules *r, const char *name)
{
    for (int i = 0; i < r->nkinds; i++)
        if (strcmp(r->kinds[i].name, name) == 0) return i;
    return -1;
}
int rules_mark(const struct carc_rules *r, const char *name) { return find_name(r->marks, r->nmarks, name); }
int rules_tmark(const struct carc_rules *r, const char *name) { return find_name(r->tmarks, r->ntmarks, name); }
int rules_reason(const struct carc_rules *r, const char *name) { return find_name(r->reasons, r->nreasons, name); }

int rules_figkind(const struct carc_rules *r, const char *name)
{
    for (int i = 0; i < r->nfigkinds; i++)
        if (strcmp(r->figkinds[i].name, name) == 0) return i;
    return -1;
}

/* A name defined by the plugin registering now (r->registering) belongs to
 * it; the same name defined by another plugin means two meanings for one
 * name: noted in r->conflict for the loader to report with both sources. */
/* A name a record carries (tile ids, set names, kinds, marks, reasons,
 * figure kinds: in draws and option texts): letters, digits, '-' and '_'
 * only, so none can start a comment ('#'), split a word or end a line. */
bool rules_name_is_record_safe(const char *s)
{
    if (!s || !*s || strlen(s) >= NAME_LEN) return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_') return false;
    return true;
}

void rules_note_conflict(struct carc_rules *r, const char *what, const char *name, int first_owner)
{
    int by = r->registering;
    if (by > 0 && first_owner > 0 && first_owner != by && !r->conflict[0])
        snprintf(r->conflict, sizeof r->conflict, "the %s '%s' is defined by both %s and %s", what, name,
                 r->plugins[first_owner - 1]->name, r->plugins[by - 1]->name);
}

static int add_name(struct carc_rules *r, char (*names)[NAME_LEN], int *owner, int *n, int max, const char *name,
                    const char *what)
{
    int i = find_name(names, *n, name);
    if (i >= 0) {
        rules_note_conflict(r, what, name, owner[i]);
        return i; /* the kernel's own names (pennant, road, ...) are everyone's */
    }
    if (*n >= max || !rules_name_is_record_safe(name)) return -1;
    snprintf(names[*n], NAME_LEN, "%s", name);
    owner[*n] = r->registering > 0 ? r->registering : 0;
    return (*n)++;
}

int rules_add_mark(struct carc_rules *r, const char *name)
{
    return add_name(r, r->marks, r->mark_owner, &r->nmarks, MAX_MARKS, name, "mark");
}
int rules_add_tmark(struct carc_rules *r, const char *name)
{
    return add_name(r, r->tmarks, r->tmark_owner, &r->ntmarks, MAX_TILE_MARKS, name, "tile mark");
}
int rules_add_reason(struct carc_rules *r, const char *name)
{
    return add_name(r, r->reasons, r->reason_owner, &r->nreasons, MAX_REASONS, name, "reason");
}

/* A kind named by a tile set but not yet defined: inner, not deployable, no
 * completion, until a plugin defines it (rules_finish checks that one did). */
int rules_add_kind(struct carc_rules *r, const char *name, int owner)
{
    int i = rules_kind(r, name);
    if (i >= 0) return i;
    /* `corner` names a tile's corners in records (corner@NE), never a kind. */
    if (r->nkinds >= MAX_KINDS || !rules_name_is_record_safe(name) || strcmp(name, "corner") == 0) return -1;
    kind_def *k = &r->kinds[r->nkinds];
    memset(k, 0, sizeof *k);
    snprintf(k->name, NAME_LEN, "%s", name);
    k->completion = CARC_COMPLETE_NEVER;
    k->owner = owner;
    return r->nkinds++;
}

/* A kind a plugin defines (api define_kind): its completion rule, flags and
 * a scoring reason of its name. */
int rules_define_kind(struct carc_rules *r, const char *name, enum carc_completion completion, int flags,
                      int owner)
{
    int k = rules_add_kind(r, name, owner);
    if (k < 0) return -1;
    kind_def *kd = &r->kinds[k];
    kd->owner = owner;
    kd->completion = completion;
    kd->deployable = flags & CARC_KIND_DEPLOYABLE;
    kd->line = flags & CARC_KIND_LINE;
    kd->kernel_scored = flags & CARC_KIND_KERNEL_SCORED;
    rules_add_reason(r, name);
    return k;
}

/* The feature kinds named in a list ("road city", "road,city"); -1 with the
 * unknown name in err. */
static int64_t kinds_mask(const struct carc_rules *r, const char *list, char *err, size_t errn)
{
    uint32_t mask = 0;
    char name[NAME_LEN];
    for (const char *p = list; *p;) {
        p += strspn(p, " ,\t");
        size_t l = strcspn(p, " ,\t");
        if (l == 0) break;
        if (l >= sizeof name) {
            snprintf(err, errn, "stands_on: '%.*s' is not a feature kind", (int)l, p);
            return -1;
        }
        memcpy(name, p, l);
        name[l] = 0;
        int k = rules_kind(r, name);
        if (k < 0) {
            snprintf(err, errn, "stands_on: '%s' is not a feature kind (define it first)", name);
            return -1;
        }
        mask |= 1u << k;
        p += l;
    }
    return mask;
}

int rules_define_figkind(struct carc_rules *r, const carc_figure_kind_def *def, int owner, char *err, size_t errn)
{
    if (!def || !def->name || !*def->name || strlen(def->name) >= NAME_LEN || def->per_player < 0 ||
        def->per_player > 99) {
        snprintf(err, errn, "define_figure: bad name or count");
        return -1;
    }
    if (!rules_name_is_record_safe(def->name)) {
        snprintf(err, errn, "define_figure: '%s': a figure name is " RECORD_SAFE_NAME_RULE, def->name);
        return -1;
    }
    if (def->strength < 0 || def->strength > 99) {
        snprintf(err, errn, "define_figure: %s: strength %d is not 0 to 99", def->name, def->strength);
        return -1;
    }
    if ((def->flags & ~(CARC_FIGURE_FOLLOWER | CARC_FIGURE_BOXED_WHEN_SCORED | CARC_FIGURE_DEPLOYABLE |
                        CARC_FIGURE_BOXED_WHEN_REMOVED | CARC_FIGURE_STRENGTH_ZERO)) != 0) {
        snprintf(err, errn, "define_figure: %s: unknown flags %#x", def->name, (unsigned)def->flags);
        return -1;
    }
    if ((def->flags & CARC_FIGURE_DEPLOYABLE) && !(def->flags & CARC_FIGURE_FOLLOWER)) {
        snprintf(err, errn, "define_figure: %s: only a follower kind is deployable", def->name);
        return -1;
    }
    int64_t mask = def->stands_on && *def->stands_on ? kinds_mask(r, def->stands_on, err, errn) : 0;
    if (mask < 0) return -1;
    int existing = rules_figkind(r, def->name);
    if (existing >= 0) {
        rules_note_conflict(r, "figure kind", def->name, r->figkinds[existing].owner);
        snprintf(err, errn, "define_figure: the figure kind '%s' is defined already", def->name);
        return -1;
    }
    if (r->nfigkinds >= MAX_FIGKINDS) {
        snprintf(err, errn, "define_figure: too many figure kinds (at most %d)", MAX_FIGKINDS);
        return -1;
    }
    figkind_def *f = &r->figkinds[r->nfigkinds];
    memset(f, 0, sizeof *f);
    snprintf(f->name, NAME_LEN, "%s", def->name);
    f->per_player = def->per_player;
    f->follower = def->flags & CARC_FIGURE_FOLLOWER;
    f->boxed_when_scored = def->flags & CARC_FIGURE_BOXED_WHEN_SCORED;
    f->boxed_when_removed = def->flags & CARC_FIGURE_BOXED_WHEN_REMOVED;
    f->deployable = def->flags & CARC_FIGURE_DEPLOYABLE;
    f->strength = (def->flags & CARC_FIGURE_STRENGTH_ZERO) ? 0 : def->strength ? def->strength : 1;
    memset(f->by_players, -1, sizeof f->by_players);
    f->stands_on = (uint32_t)mask;
    f->owner = owner;
    return r->nfigkinds++;
}

int rules_phase_find(const phase_def *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].name, name) == 0) return i;
    return -1;
}

/* Puts a phase at index `at` of a phase list (the caller checked the room). */
void rules_phase_insert(phase_def *list, int *n, int at, const char *name, phase_fn fn, int owner, void *user)
{
    memmove(&list[at + 1], &list[at], (size_t)(*n - at) * sizeof *list);
    (*n)++;
    phase_def *p = &list[at];
    memset(p, 0, sizeof *p);
    snprintf(p->name, NAME_LEN, "%s", name);
    p->fn = fn;
    p->owner = owner;
    p->user = user;
}

static option_def *add_option(struct carc_rules *r, const char *key, const char *help)
{
    if (r->nopts >= MAX_OPTIONS) return NULL;
    option_def *o = &r->opts[r->nopts++];
    memset(o, 0, sizeof *o);
    snprintf(o->key, sizeof o->key, "%s", key);
    snprintf(o->help, sizeof o->help, "%s", help);
    return o;
}

int rules_define_enum(struct carc_rules *r, const char *key, const char *values,
                      const char *help, int owner)
{
    option_def *o = add_option(r, key, help);
    if (!o) return -1;
    o->type = OPT_ENUM;
    o->owner = owner;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", values);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (o->nvalues >= 8) return -1;
        snprintf(o->values[o->nvalues++], NAME_LEN, "%s", t);
    }
    return (int)(o - r->opts);
}

int rules_define_int(struct carc_rules *r, const char *key, int def, int min, int max,
                     const char *help, int owner)
{
    option_def *o = add_option(r, key, help);
    if (!o) return -1;
    o->type = OPT_INT;
    o->def = o->value = def;
    o->min = min;
    o->max = max;
    o->owner = owner;
    return (int)(o - r->opts);
}

option_def *rules_option(struct carc_rules *r, const char *key)
{
    for (int i = 0; i < r->nopts; i++)
        if (strcmp(r->opts[i].key, key) == 0) return &r->opts[i];
    return NULL;
}

const option_def *rules_option_c(const struct carc_rules *r, const char *key)
{
    return rules_option((struct carc_rules *)r, key);
}

int rules_set_option(struct carc_rules *r, const char *key, const char *value,
                     char *err, size_t errn)
{
    option_def *o = rules_option(r, key);
    if (!o) {
        snprintf(err, errn, "unknown option '%s'", key);
        return -1;
    }
    if (o->type == OPT_INT) {
        char *end;
        long v = strtol(value, &end, 10);
        if (!*value || *end || v < o->min || v > o->max) {
            snprintf(err, errn, "option '%s' expects a whole number from %d to %d, not '%s'",
                     key, o->min, o->max, value);
            return -1;
        }
        o->value = (int)v;
        return 0;
    }
    for (int i = 0; i < o->nvalues; i++)
        if (strcmp(o->values[i], value) == 0) {
            o->value = i;
            return 0;
        }
    char list[256] = "";
    for (int i = 0; i < o->nvalues; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, o->values[i], sizeof list - strlen(list) - 1);
    }
    snprintf(err, errn, "option '%s' expects one of %s, not '%s'", key, list, value);
    return -1;
}

int rules_type(const struct carc_rules *r, const char *set, const char *id)
{
    for (int i = 0; i < r->ntypes; i++)
        if (strcmp(r->types[i].id, id) == 0 && strcmp(r->sets[r->types[i].set].name, set) == 0)
            return i;
    return -1;
}

int edge_class_intern(struct carc_rules *r, int a, int b, int c)
{
    uint32_t key = ((uint32_t)(a + 1) << 16) | ((uint32_t)(b + 1) << 8) | (uint32_t)(c + 1);
    for (int i = 0; i < r->nedge_classes; i++)
        if (r->edge_class_key[i] == key) return i + 1;
    if (r->nedge_classes >= 254) return -1;
    r->edge_class_key[r->nedge_classes++] = key;
    return r->nedge_classes;
}

/* Per tile type and rotation: which segment lies at each board port, and the
 * packed edge classes of the four board sides; per segment, its ports and
 * how its kind completes (the kinds are all defined by now). */
static int derive_type(struct carc_rules *r, tile_type *t)
{
    int side_class[4];
    bool side_wild[4];
    t->wild_sides = false;
    for (int s = 0; s < 4; s++) {
        int k[3];
        for (int o = 0; o < 3; o++) {
            int p = s * 3 + o, seg = -1;
            for (int i = 0; i < t->nsegs; i++)
                if (t->segs[i].ports & (1u << p)) seg = i;
            k[o] = t->segs[seg].kind;
        }
        side_wild[s] = r->kinds[k[1]].wild;
        t->wild_sides |= side_wild[s];
        side_class[s] = edge_class_intern(r, k[0], k[1], k[2]);
        if (side_class[s] < 0) return -1;
        int rev = edge_class_intern(r, k[2], k[1], k[0]);
        if (rev < 0) return -1;
        r->edge_class_rev[side_class[s]] = (uint8_t)rev;
        r->edge_class_rev[rev] = (uint8_t)side_class[s];
    }
    t->ring_segs = t->cross_segs = t->ports_segs = 0;
    for (int i = 0; i < t->nsegs; i++) {
        t->nports[i] = (uint8_t)__builtin_popcount(t->segs[i].ports);
        uint16_t bit = (uint16_t)(1u << i);
        switch (r->kinds[t->segs[i].kind].completion) {
        case CARC_COMPLETE_RING: t->ring_segs |= bit; break;
        case CARC_COMPLETE_CROSS: t->cross_segs |= bit; break;
        case CARC_COMPLETE_PORTS: t->ports_segs |= bit; break;
        default: break;
        }
    }
    for (int rot = 0; rot < 4; rot++) {
        t->sig[rot] = 0;
        t->keep[rot] = 0;
        for (int b = 0; b < 4; b++) {
            t->sig[rot] |= (uint32_t)side_class[(b - rot + 4) % 4] << (8 * b);
            if (!side_wild[(b - rot + 4) % 4]) t->keep[rot] |= 0xffu << (8 * b);
        }
        for (int p = 0; p < CARC_PORTS; p++) {
            int tp = (p - 3 * rot + 3 * CARC_PORTS) % CARC_PORTS;
            t->seg_at[rot][p] = -1;
            for (int i = 0; i < t->nsegs; i++)
                if (t->segs[i].ports & (1u << tp)) t->seg_at[rot][p] = (int8_t)i;
        }
    }
    return 0;
}

static int enum_value(const struct carc_rules *r, const char *key)
{
    const option_def *o = rules_option_c(r, key);
    return o ? o->value : 0;
}

int rules_finish(struct carc_rules *r, char *err, size_t errn)
{
    if (r->nsets == 0) {
        snprintf(err, errn, "%s: no tile set named", r->path[0] ? r->path : r->name);
        return -1;
    }
    for (int i = 0; i < r->nkinds; i++)
        if (r->kinds[i].owner < 0) {
            snprintf(err, errn, "%s: tile kind '%s' is used by a tile set but no loaded plugin defines it",
                     r->path[0] ? r->path : r->name, r->kinds[i].name);
            return -1;
        }
    r->start_type = -1;
    r->pile_size = 0;
    r->pile_order = false;
    /* A set may give the start tile ([set] start): one set at most. */
    for (int i = 0; i < r->nsets; i++) {
        if (r->sets[i].pile_first) r->pile_order = true;
        if (r->sets[i].start_type < 0) continue;
        if (r->start_type >= 0) {
            snprintf(err, errn, "%s: tile sets %s and %s both give the start tile (start = ...): load one of them",
                     r->path[0] ? r->path : r->name, r->sets[r->types[r->start_type].set].name, r->sets[i].name);
            return -1;
        }
        r->start_type = r->sets[i].start_type;
    }
    bool start_given = r->start_type >= 0;
    int start_mark = rules_tmark(r, "start");
    for (int i = 0; i < r->ntypes; i++) {
        tile_type *t = &r->types[i];
        if (derive_type(r, t) < 0) {
            snprintf(err, errn, "too many distinct edge patterns");
            return -1;
        }
        if (!start_given && r->start_type < 0 && t->set == 0 && (t->tile_marks & (1u << start_mark)) && t->count > 0)
            r->start_type = i;
        r->pile_size += t->count;
    }
    if (r->pile_size > MAX_TILES) {
        snprintf(err, errn, "%s: the tile sets hold %d tiles; a game has at most %d", r->path[0] ? r->path : r->name,
                 r->pile_size, MAX_TILES);
        return -1;
    }
    if (start_given && r->types[r->start_type].count <= 0) {
        snprintf(err, errn, "%s: the start tile %s:%s (start = ...) has no copy in the variant",
                 r->path[0] ? r->path : r->name, r->sets[r->types[r->start_type].set].name, r->types[r->start_type].id);
        return -1;
    }
    if (r->start_type < 0 && r->allow_no_start && r->ntypes > 0) {
        r->start_type = 0;
        r->start_assumed = true;
    }
    if (r->start_type < 0) {
        snprintf(err, errn, "%s: the first tile set (%s) has no tile marked 'start' (with a count above 0)",
                 r->path[0] ? r->path : r->name, r->sets[0].name);
        return -1;
    }
    r->pile_size -= 1;
    if (r->pile_size + 1 + r->reserve_tiles > MAX_TILES) {
        snprintf(err, errn, "%s: the tile sets hold %d tiles and plugins reserve %d more; a game has at most %d",
                 r->path[0] ? r->path : r->name, r->pile_size + 1, r->reserve_tiles, MAX_TILES);
        return -1;
    }
    r->max_tiles = r->pile_size + 1 + r->reserve_tiles;
    r->place_hooked = r->nhandlers[CARC_EV_PLACE_OFFER] > 0 || r->nhandlers[CARC_EV_PLACE_FILTER] > 0;
    r->k.farm_scoring = enum_value(r, "farm-scoring");
    r->k.small_city = enum_value(r, "small-city") == 1;
    r->k.incomplete_score = enum_value(r, "incomplete-features") == 0;
    r->k.unplaceable_reshuffle = enum_value(r, "unplaceable-tile") == 1;
    r->k.followers = enum_value(r, "followers-per-player");
    r->figkinds[CARC_FIG_FOLLOWER].per_player = r->k.followers;
    r->frozen = true;
    return 0;
}
