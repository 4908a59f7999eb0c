/* shard.c - shard files: the header with the study's identity, one JSON line
 * a game, and the merge that checks every line belongs. */
#include "shard.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "content_hash.h"
#include "json_io.h"
#include "measures.h"
#include "report.h"
#include "regular_file.h"

static void out_of_memory(void)
{
    fprintf(stderr, "carc: out of memory\n");
    exit(1);
}

/* ---- identity ------------------------------------------------------------------------ */

static void put(shard_identity *id, const char *key, const char *fmt, ...)
{
    if (id->n == SHARD_MAX_KEYS) return;
    snprintf(id->key[id->n], sizeof id->key[0], "%s", key);
    char raw[sizeof id->value[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* As the header's JSON carries it (valid UTF-8), so that the id the
     * merge computes from the header read back is the one written. */
    char *utf8 = text_utf8(raw);
    snprintf(id->value[id->n], sizeof id->value[0], "%s", utf8 ? utf8 : raw);
    free(utf8);
    id->n++;
}

static void identity_hash(shard_identity *id)
{
    size_t cap = (size_t)id->n * (sizeof id->key[0] + sizeof id->value[0] + 2) + 1, u = 0;
    char *text = malloc(cap);
    if (!text) out_of_memory();
    for (int i = 0; i < id->n; i++) u += (size_t)snprintf(text + u, cap - u, "%s=%s\n", id->key[i], id->value[i]);
    char hex[CONTENT_HASH_HEX];
    content_hash_text(text, u, hex);
    free(text);
    snprintf(id->id, sizeof id->id, "%.16s", hex);
}

static void side_identity(shard_identity *id, const char *side, const study *s)
{
    char key[48];
    snprintf(key, sizeof key, "%svariant", side);
    put(id, key, "%s", s->variant);
    for (int i = 0; i < s->noverrides; i++) {
        snprintf(key, sizeof key, "%soption %d", side, i + 1);
        put(id, key, "%s", s->overrides[i]);
    }
    snprintf(key, sizeof key, "%sseed", side);
    put(id, key, "%llu", (unsigned long long)s->seed);
    /* By content, not by place: shards played where carc is installed in
     * other folders still merge; a changed file does not. */
    for (int i = 0; i < s->nsources; i++) {
        snprintf(key, sizeof key, "%sfile %d", side, i + 1);
        put(id, key, "%s sha256:%s", s->source_name[i], s->source_hash[i]);
    }
}

void shard_identity_of(const char *kind, const study *a, const study *b, shard_identity *id)
{
    id->n = 0;
    put(id, "kind", "%s", kind);
    put(id, "carc version", "%s", a->version[0] ? a->version : CARC_VERSION);
    put(id, "games", "%d", a->games);
    put(id, "seats rotated", "%s", a->rotate ? "yes" : "no");
    for (int p = 0; p < a->nagents; p++) {
        char key[48];
        snprintf(key, sizeof key, "player %d", p + 1);
        put(id, key, "%s", a->agents[p]);
    }
    side_identity(id, b ? "A " : "", a);
    if (b) side_identity(id, "B ", b);
    identity_hash(id);
}

/* ---- writing ------------------------------------------------------------------------- */

/* One JSON line a game: the shard's kind, study id and side, what was
 * played (study_about_json, as the report's header names it), then the
 * game: its number, seed, turns, players, scores, points by reason, how it
 * went (trace, game_trace.h) and its measures (measures.h). */
static void write_games(const study *s, FILE *f, const char *kind, const char *side, const char *study_id)
{
    json_t *about = study_about_json(s);
    if (!about) out_of_memory();
    for (int i = 0; i < s->nresults; i++) {
        const study_game *r = &s->results[i];
        json_t *agents = json_array(), *scores = json_array(), *points = json_object();
        for (int p = 0; p < s->nplayers; p++) {
            json_array_append_new(agents, json_text(s->agents[r->agent[p]]));
            json_array_append_new(scores, json_integer(r->score[p]));
        }
        /* Every reason, zeros too: a merge then lists them in the rules' order. */
        for (int k = 0; k < s->nreasons; k++) json_object_set_new(points, s->reasons[k], json_integer(r->points[k]));
        json_t *g = json_pack("{s:o, s:o, s:o}", "kind", json_text(kind), "study", json_text(study_id), "side",
                              json_text(side));
        if (!g || json_object_update(g, about) < 0) out_of_memory();
        json_object_set_new(g, "study_seed", json_u64(s->seed));
        json_object_set_new(g, "games", json_integer(s->games));
        json_object_set_new(g, "index", json_integer(r->index));
        json_object_set_new(g, "seed", json_u64(r->seed));
        json_object_set_new(g, "turns", json_integer(r->turns));
        json_object_set_new(g, "agents", agents);
        json_object_set_new(g, "scores", scores);
        json_object_set_new(g, "points", points);
        json_t *trace = json_object();
        for (int k = 0; trace && k < GAME_TRACE_FIELDS; k++)
            json_object_set_new(trace, game_trace_field_name(k), json_integer(game_trace_field(&r->trace, k)));
        json_object_set_new(g, "trace", trace);
        /* made from the fields above: a merge reads them again from those */
        json_object_set_new(g, "measures", measures_game_json(s, r));
        if (json_print_new(f, g) < 0) out_of_memory();
        fputc('\n', f);
    }
    json_decref(about);
}

void shard_write(FILE *f, const char *kind, const study *a, const study *b)
{
    shard_identity *id = malloc(sizeof *id);
    if (!id) out_of_memory();
    shard_identity_of(kind, a, b, id);
    char part[32];
    snprintf(part, sizeof part, "%d/%d", a->shard_k, a->shard_n);
    json_t *identity = json_object();
    for (int i = 0; i < id->n; i++) json_object_set_new(identity, id->key[i], json_string(id->value[i]));
    json_t *h = json_pack("{s:s, s:o, s:s, s:i, s:o, s:o}", "carc_shard", part, "kind", json_text(kind), "study", id->id,
                          "games_in_shard", a->nresults, "seconds", json_fixed(a->seconds + (b ? b->seconds : 0), 6),
                          "identity", identity);
    if (json_print_new(f, h) < 0) out_of_memory();
    fputc('\n', f);
    write_games(a, f, kind, b ? "A" : "", id->id);
    if (b) write_games(b, f, kind, "B", id->id);
    free(id);
}

void shard_write_side(FILE *f, const char *kind, const study *s, const char *side, const char *study_id)
{
    write_games(s, f, kind, side, study_id);
}

void shard_write_games(FILE *f, const char *kind, const study *a, const study *b)
{
    shard_identity *id = malloc(sizeof *id);
    if (!id) out_of_memory();
    shard_identity_of(kind, a, b, id);
    write_games(a, f, kind, b ? "A" : "", id->id);
    if (b) write_games(b, f, kind, "B", id->id);
    free(id);
}

/* ---- reading: every line through jansson -------------------------------------------- */

/* One shard's header. */
typedef struct header {
    char kind[32], study[32];
    int k, n, games_in_shard;
    double seconds;
    shard_identity *id;
} header;

/* The string member key of o into out; false when it is missing, not a
 * string or longer than out holds. */
static bool get_text(const json_t *o, const char *key, char *out, size_t n)
{
    const char *v = json_string_value(json_object_get(o, key));
    if (!v || strlen(v) >= n) return false;
    memcpy(out, v, strlen(v) + 1);
    return true;
}

static bool get_int(const json_t *o, const char *key, long long *v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_integer(x)) return false;
    *v = json_integer_value(x);
    return true;
}

static bool parse_header(const json_t *o, header *h)
{
    static const char *const known[] = {"carc_shard", "kind", "study", "games_in_shard", "seconds", "identity"};
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] && strcmp(known[i], key) != 0) i++;
        if (i == sizeof known / sizeof known[0]) return false;
    }
    char part[32], tail;
    long long games = 0;
    h->k = h->n = -1;
    if (!get_text(o, "carc_shard", part, sizeof part) || sscanf(part, "%d/%d%c", &h->k, &h->n, &tail) != 2 ||
        !get_text(o, "kind", h->kind, sizeof h->kind) || !get_text(o, "study", h->study, sizeof h->study))
        return false;
    if (json_object_get(o, "games_in_shard") && !get_int(o, "games_in_shard", &games)) return false;
    h->games_in_shard = (int)games;
    const json_t *sec = json_object_get(o, "seconds"), *idj = json_object_get(o, "identity");
    if (sec && !json_is_number(sec)) return false;
    h->seconds = sec ? json_number_value(sec) : 0;
    if (!json_is_object(idj)) return false;
    shard_identity *id = h->id;
    id->n = 0;
    json_object_foreach((json_t *)idj, key, v) { /* in the order written: the id hashes them in it */
        const char *text = json_string_value(v);
        if (id->n == SHARD_MAX_KEYS || !text || strlen(key) >= sizeof id->key[0] || strlen(text) >= sizeof id->value[0])
            return false;
        memcpy(id->key[id->n], key, strlen(key) + 1);
        memcpy(id->value[id->n], text, strlen(text) + 1);
        id->n++;
    }
    return h->n >= 1 && h->k >= 1 && h->k <= h->n && id->n > 0;
}

/* The value of key in an identity, or NULL. */
static const char *id_get(const shard_identity *id, const char *key)
{
    for (int i = 0; i < id->n; i++)
        if (strcmp(id->key[i], key) == 0) return id->value[i];
    return NULL;
}

/* The first difference between two identities, as "K: X here, Y there";
 * false when they are the same. */
static bool id_differs(const shard_identity *here, const shard_identity *there, char *out, size_t n)
{
    for (int pass = 0; pass < 2; pass++) {
        const shard_identity *x = pass ? there : here, *y = pass ? here : there;
        for (int i = 0; i < x->n; i++) {
            const char *v = id_get(y, x->key[i]);
            if (v && strcmp(v, x->value[i]) == 0) continue;
            const char *mine = pass ? v : x->value[i], *theirs = pass ? x->value[i] : v;
            snprintf(out, n, "%s: %s here, %s there", x->key[i], mine ? mine : "not given",
                     theirs ? theirs : "not given");
            return true;
        }
    }
    return false;
}

/* Sets up a study (one side) from the identity of the first shard. */
static void study_from_identity(study *s, const shard_identity *id, const char *side, int k, int n)
{
    char key[48];
    const char *v;
    snprintf(s->version, sizeof s->version, "%s", (v = id_get(id, "carc version")) ? v : "");
    s->games = (v = id_get(id, "games")) ? atoi(v) : 0;
    s->rotate = (v = id_get(id, "seats rotated")) && strcmp(v, "yes") == 0;
    s->nagents = 0;
    for (int p = 0; p < CARC_MAX_PLAYERS; p++) {
        snprintf(key, sizeof key, "player %d", p + 1);
        if (!(v = id_get(id, key))) break;
        snprintf(s->agents[s->nagents++], sizeof s->agents[0], "%s", v);
    }
    s->nplayers = s->nagents;
    snprintf(key, sizeof key, "%svariant", side);
    snprintf(s->variant, sizeof s->variant, "%s", (v = id_get(id, key)) ? v : "");
    s->noverrides = 0;
    for (int i = 0; i < 32; i++) {
        snprintf(key, sizeof key, "%soption %d", side, i + 1);
        if (!(v = id_get(id, key))) break;
        snprintf(s->overrides[s->noverrides++], sizeof s->overrides[0], "%s", v);
    }
    snprintf(key, sizeof key, "%sseed", side);
    s->seed = (v = id_get(id, key)) ? strtoull(v, NULL, 10) : 0;
    s->nsources = 0;
    for (int i = 0; i < STUDY_MAX_SOURCES; i++) {
        snprintf(key, sizeof key, "%sfile %d", side, i + 1);
        const char *sha = (v = id_get(id, key)) ? strstr(v, " sha256:") : NULL;
        if (!sha) break;
        snprintf(s->source_name[i], sizeof s->source_name[0], "%.*s", (int)(sha - v), v);
        memcpy(s->sources[i], s->source_name[i], sizeof s->sources[i]); /* the same size */
        snprintf(s->source_hash[i], sizeof s->source_hash[0], "%s", sha + 8);
        s->nsources++;
    }
    s->shard_k = k;
    s->shard_n = n;
    s->shards = 0;
    s->seconds = 0;
}

static int agent_of(const study *s, int index, int seat)
{
    return s->rotate ? (seat + index) % s->nagents : seat;
}

/* One game line into its side. NULL on success, else what is wrong. */
static const char *parse_game(const json_t *o, const header *h, study *a, study *b, bool compare)
{
    char kind[32], sid[32], side[8], vname[256] = "", title[512] = "", modules[1024] = "";
    char agents[CARC_MAX_PLAYERS][64];
    int nag = 0, nsc = 0, scores[CARC_MAX_PLAYERS], points_n = 0, pts[STUDY_MAX_REASONS];
    const char *ptnames[STUDY_MAX_REASONS];
    long long index = -1, seed = 0, turns = 0;
    game_trace trace;
    game_trace_begin(&trace);
    const char *bad = "not a game line written by carc sim, tournament or compare --shard";
    if (json_is_string(json_object_get(o, "modules")) || json_object_get(o, "settings"))
        return "a game line in an older carc's layout (modules as one text, settings as a list): run that shard again";
    const json_t *ag = json_object_get(o, "agents"), *sc = json_object_get(o, "scores"),
                 *pt = json_object_get(o, "points"), *mods = json_object_get(o, "modules"),
                 *opts = json_object_get(o, "options_not_default");
    if (!get_text(o, "kind", kind, sizeof kind) || !get_text(o, "study", sid, sizeof sid) ||
        !get_text(o, "side", side, sizeof side) || !get_int(o, "index", &index) || !get_int(o, "seed", &seed) ||
        !get_int(o, "turns", &turns) || !json_is_array(ag) || !json_is_array(sc) || !json_is_object(pt) ||
        !get_text(o, "variant", vname, sizeof vname) || !get_text(o, "title", title, sizeof title) ||
        !json_is_array(mods) || !json_is_object(opts) || index < 0 || seed < 0)
        return bad;
    size_t i;
    const json_t *v;
    json_array_foreach(ag, i, v) {
        const char *t = json_string_value(v);
        if (nag == CARC_MAX_PLAYERS || !t || strlen(t) >= sizeof agents[0]) return bad;
        memcpy(agents[nag++], t, strlen(t) + 1);
    }
    json_array_foreach(sc, i, v) {
        if (nsc == CARC_MAX_PLAYERS || !json_is_integer(v)) return bad;
        scores[nsc++] = (int)json_integer_value(v);
    }
    const char *key;
    json_object_foreach((json_t *)pt, key, v) {
        if (points_n == STUDY_MAX_REASONS || !json_is_integer(v) || strlen(key) >= sizeof a->reasons[0]) return bad;
        ptnames[points_n] = key;
        pts[points_n++] = (int)json_integer_value(v);
    }
    json_array_foreach(mods, i, v) {
        size_t u = strlen(modules);
        if (!json_is_string(v)) return bad;
        snprintf(modules + u, sizeof modules - u, "%s%s", u ? " " : "", json_string_value(v));
    }
    const json_t *tr = json_object_get(o, "trace"), *ms = json_object_get(o, "measures");
    if ((tr && !json_is_object(tr)) || (ms && !json_is_object(ms))) return bad;
    json_object_foreach((json_t *)tr, key, v)
        if (!json_is_integer(v) || !game_trace_set_field(&trace, key, (long)json_integer_value(v))) return bad;
    json_object_foreach((json_t *)ms, key, v) /* computed again from the fields above */
        if (!json_is_number(v)) return bad;
    if (nsc == 0 || nsc != nag) return bad;
    if (strcmp(sid, h->study) != 0 || strcmp(kind, h->kind) != 0)
        return "this game is not of the study its shard header names (lines of two files put together?)";
    if (compare ? strcmp(side, "A") != 0 && strcmp(side, "B") != 0 : side[0] != 0)
        return compare ? "a game without side A or B in a compare shard" : "a game with a side in a shard that has none";
    study *s = strcmp(side, "B") == 0 ? b : a;
    if (index >= s->games) return "a game number past the study's --games";
    if (index % h->n != h->k - 1) return "a game that does not belong to this shard (its number mod N is not K - 1)";
    if (nsc != s->nplayers) return "a game with another number of players than the study";
    for (int p = 0; p < nsc; p++)
        if (strcmp(agents[p], s->agents[agent_of(s, (int)index, p)]) != 0)
            return "a game whose players are not the study's (in their seats)";
    if (s->nresults == 0) {
        snprintf(s->variant_name, sizeof s->variant_name, "%s", vname);
        snprintf(s->title, sizeof s->title, "%s", title);
        snprintf(s->modules, sizeof s->modules, "%s", modules);
        s->nsettings = 0;
        json_object_foreach((json_t *)opts, key, v) {
            if (s->nsettings == (int)(sizeof s->settings / sizeof s->settings[0])) break;
            snprintf(s->settings[s->nsettings++], sizeof s->settings[0], "%s=%s", key,
                     json_string_value(v) ? json_string_value(v) : "");
        }
    }
    study_game *r = realloc(s->results, (size_t)(s->nresults + 1) * sizeof *r);
    if (!r) return "out of memory";
    s->results = r;
    study_game *gm = &r[s->nresults++];
    memset(gm, 0, sizeof *gm);
    gm->index = (int)index;
    gm->seed = (uint64_t)seed;
    gm->turns = (int)turns;
    gm->trace = trace;
    for (int p = 0; p < nsc; p++) {
        gm->score[p] = scores[p];
        gm->agent[p] = agent_of(s, (int)index, p);
    }
    for (int k = 0; k < points_n; k++) {
        int rn = study_reason(s, ptnames[k]);
        if (rn < 0) return "more reasons for points than a study keeps";
        gm->points[rn] = pts[k];
    }
    return NULL;
}

static int by_index(const void *x, const void *y)
{
    const study_game *a = x, *b = y;
    return (a->index > b->index) - (a->index < b->index);
}

/* Appends ", N" to a list of at most 10 numbers ("..." after). */
static void list_add(char *out, size_t n, int *count, int v)
{
    if (*count == 10) {
        size_t u = strlen(out);
        snprintf(out + u, n - u, ", ...");
    } else if (*count < 10) {
        size_t u = strlen(out);
        snprintf(out + u, n - u, "%s", *count ? ", " : "");
        u = strlen(out);
        snprintf(out + u, n - u, "%d", v);
    }
    (*count)++;
}

/* Every game of the study once: the shards all there, no game twice, none
 * missing. owner[k-1]: the file holding shard k (-1: none). */
static int check_complete(const study *s, const char *side, char *const *paths, const int *owner, char *err,
                          size_t errn)
{
    const char *on = *side ? " of side " : "";
    for (int i = 1; i < s->nresults; i++)
        if (s->results[i].index == s->results[i - 1].index) {
            int k = s->results[i].index % s->shard_n;
            snprintf(err, errn, "%s: game %d%s%s appears twice", paths[owner[k]], s->results[i].index, on, side);
            return -1;
        }
    if (s->nresults == s->games) return 0;
    /* The first file that lacks a game, and every game it lacks. */
    char list[400] = "";
    int count = 0, k = -1;
    for (int i = 0, r = 0; i < s->games; i++) {
        if (r < s->nresults && s->results[r].index == i) {
            r++;
            continue;
        }
        if (k < 0) k = i % s->shard_n;
        if (i % s->shard_n == k) list_add(list, sizeof list, &count, i);
    }
    snprintf(err, errn, "%s (shard %d/%d) lacks %d of its games%s%s: %s (cut short? run that shard again)",
             paths[owner[k]], k + 1, s->shard_n, count, on, side, list);
    return -1;
}

int shard_merge(char *const *paths, int npaths, study *a, study *b, char *kind, size_t kindn, char *err, size_t errn)
{
    shard_identity *ref = calloc(1, sizeof *ref), *cur = calloc(1, sizeof *cur);
    char *line = malloc(65536);
    int *owner = NULL, *owner_line = NULL, rc = -1, ref_file = -1, n = 0, given = 0;
    FILE *f = NULL;
    json_t *obj = NULL;
    if (!ref || !cur || !line) {
        snprintf(err, errn, "out of memory");
        goto done;
    }
    bool compare = false;
    for (int fi = 0; fi < npaths; fi++) {
        /* A FIFO or a device is refused, never waited on; a shard's size is
         * not limited (a study's lines, a few hundred bytes a game). */
        f = regular_file_open(paths[fi], "shard", LLONG_MAX, NULL, err, errn);
        if (!f) goto done;
        header h = {.id = cur};
        bool in_shard = false;
        int lineno = 0;
        while (fgets(line, 65536, f)) {
            lineno++;
            size_t len = strlen(line);
            if (len == 65535 && line[len - 1] != '\n') {
                snprintf(err, errn, "%s:%d: a line longer than 64 KiB: not a shard line", paths[fi], lineno);
                goto done;
            }
            if (line[strspn(line, " \t\r\n")] == 0) continue;
            json_decref(obj);
            obj = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
            if (!json_is_object(obj)) {
                snprintf(err, errn, "%s:%d: not a JSON object: not a line written by carc sim, tournament or compare --shard",
                         paths[fi], lineno);
                goto done;
            }
            if (json_object_get(obj, "carc_shard")) {
                if (!parse_header(obj, &h)) {
                    snprintf(err, errn, "%s:%d: a shard header that does not read", paths[fi], lineno);
                    goto done;
                }
                identity_hash(cur);
                if (strcmp(cur->id, h.study) != 0) {
                    snprintf(err, errn, "%s:%d: the header's study id does not match its identity (edited?)",
                             paths[fi], lineno);
                    goto done;
                }
                if (ref_file < 0) {
                    *ref = *cur;
                    ref_file = fi;
                    n = h.n;
                    snprintf(kind, kindn, "%s", h.kind);
                    compare = strcmp(h.kind, "compare") == 0;
                    if (n > 10000000) {
                        snprintf(err, errn, "%s:%d: %d shards: at most 10,000,000", paths[fi], lineno, n);
                        goto done;
                    }
                    owner = malloc((size_t)n * sizeof *owner);
                    owner_line = malloc((size_t)n * sizeof *owner_line);
                    if (!owner || !owner_line) {
                        snprintf(err, errn, "out of memory");
                        goto done;
                    }
                    for (int k = 0; k < n; k++) owner[k] = -1;
                    study_from_identity(a, ref, compare ? "A " : "", h.k, n);
                    if (compare) study_from_identity(b, ref, "B ", h.k, n);
                } else {
                    char what[1400];
                    if (strcmp(h.kind, kind) != 0) {
                        snprintf(err, errn, "%s:%d: a %s shard among %s shards (%s)", paths[fi], lineno, h.kind, kind,
                                 paths[ref_file]);
                        goto done;
                    }
                    if (id_differs(cur, ref, what, sizeof what)) {
                        snprintf(err, errn, "%s:%d: a shard of another study than %s: %s", paths[fi], lineno,
                                 paths[ref_file], what);
                        goto done;
                    }
                    if (h.n != n) {
                        snprintf(err, errn, "%s:%d: shard %d/%d, but %s is a shard of %d", paths[fi], lineno, h.k, h.n,
                                 paths[ref_file], n);
                        goto done;
                    }
                }
                if (owner[h.k - 1] >= 0) {
                    snprintf(err, errn, "%s:%d: shard %d/%d is also in %s:%d (a shard given twice)", paths[fi], lineno,
                             h.k, n, paths[owner[h.k - 1]], owner_line[h.k - 1]);
                    goto done;
                }
                owner[h.k - 1] = fi;
                owner_line[h.k - 1] = lineno;
                given++;
                a->seconds += h.seconds;
                a->shards++;
                in_shard = true;
                continue;
            }
            if (!in_shard) {
                snprintf(err, errn,
                         "%s:%d: a game before any shard header (written by an older carc, or not by carc "
                         "sim, tournament or compare --shard): run the shard again",
                         paths[fi], lineno);
                goto done;
            }
            const char *why = parse_game(obj, &h, a, b, compare);
            if (why) {
                snprintf(err, errn, "%s:%d: %s", paths[fi], lineno, why);
                goto done;
            }
        }
        fclose(f);
        f = NULL;
        if (!in_shard) {
            snprintf(err, errn, "%s: no shard in the file (empty?)", paths[fi]);
            goto done;
        }
    }
    if (ref_file < 0) {
        snprintf(err, errn, "no shard given");
        goto done;
    }
    if (given < n) {
        char list[400] = "";
        int count = 0;
        for (int k = 0; k < n; k++)
            if (owner[k] < 0) list_add(list, sizeof list, &count, k + 1);
        snprintf(err, errn, "%d of the %d shards missing: K = %s of --shard K/%d (run them and merge again)",
                 n - given, n, list, n);
        goto done;
    }
    if (a->nresults) qsort(a->results, (size_t)a->nresults, sizeof *a->results, by_index);
    if (b->nresults) qsort(b->results, (size_t)b->nresults, sizeof *b->results, by_index);
    if (check_complete(a, compare ? "A" : "", paths, owner, err, errn) < 0) goto done;
    if (compare && check_complete(b, "B", paths, owner, err, errn) < 0) goto done;
    if (compare) { /* the time is the shard's, both sides */
        b->seconds = 0;
        b->shards = a->shards;
    }
    rc = 0;
done:
    json_decref(obj);
    if (f) fclose(f);
    free(ref);
    free(cur);
    free(line);
    free(owner);
    free(owner_line);
    return rc;
}
