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
#include "json_text.h"
#include "measures.h"
#include "regular_file.h"

/* ---- identity ------------------------------------------------------------------------ */

static void put(shard_identity *id, const char *key, const char *fmt, ...)
{
    if (id->n == SHARD_MAX_KEYS) return;
    snprintf(id->key[id->n], sizeof id->key[0], "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(id->value[id->n], sizeof id->value[0], fmt, ap);
    va_end(ap);
    id->n++;
}

static void identity_hash(shard_identity *id)
{
    size_t cap = (size_t)id->n * (sizeof id->key[0] + sizeof id->value[0] + 2) + 1, u = 0;
    char *text = malloc(cap);
    if (!text) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
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

static void write_games(const study *s, FILE *f, const char *kind, const char *side, const char *study_id)
{
    for (int i = 0; i < s->nresults; i++) {
        const study_game *r = &s->results[i];
        fprintf(f, "{\"kind\": ");
        json_write_string(f, kind);
        fprintf(f, ", \"study\": ");
        json_write_string(f, study_id);
        fprintf(f, ", \"side\": ");
        json_write_string(f, side);
        fprintf(f, ", \"variant\": ");
        json_write_string(f, s->variant);
        fprintf(f, ", \"variant_name\": ");
        json_write_string(f, s->variant_name);
        fprintf(f, ", \"title\": ");
        json_write_string(f, s->title);
        fprintf(f, ", \"modules\": ");
        json_write_string(f, s->modules);
        fprintf(f, ", \"carc_version\": ");
        json_write_string(f, s->version);
        fprintf(f, ", \"options\": [");
        for (int k = 0; k < s->noverrides; k++) {
            if (k) fprintf(f, ", ");
            json_write_string(f, s->overrides[k]);
        }
        fprintf(f, "], \"settings\": [");
        for (int k = 0; k < s->nsettings; k++) {
            if (k) fprintf(f, ", ");
            json_write_string(f, s->settings[k]);
        }
        fprintf(f, "], \"study_seed\": %llu, \"games\": %d, \"index\": %d, \"seed\": %llu, \"turns\": %d, \"agents\": [",
                (unsigned long long)s->seed, s->games, r->index, (unsigned long long)r->seed, r->turns);
        for (int p = 0; p < s->nplayers; p++) {
            if (p) fprintf(f, ", ");
            json_write_string(f, s->agents[r->agent[p]]);
        }
        fprintf(f, "], \"scores\": [");
        for (int p = 0; p < s->nplayers; p++) fprintf(f, "%s%d", p ? ", " : "", r->score[p]);
        fprintf(f, "], \"points\": {");
        /* Every reason, zeros too: a merge then lists them in the rules' order. */
        for (int k = 0; k < s->nreasons; k++) {
            fprintf(f, "%s", k ? ", " : "");
            json_write_string(f, s->reasons[k]);
            fprintf(f, ": %d", r->points[k]);
        }
        fprintf(f, "}, \"trace\": {");
        for (int k = 0; k < GAME_TRACE_FIELDS; k++)
            fprintf(f, "%s\"%s\": %ld", k ? ", " : "", game_trace_field_name(k), game_trace_field(&r->trace, k));
        fprintf(f, "}, \"measures\": {");
        measures_game_json(f, s, r); /* made from the fields above: a merge reads them again from those */
        fprintf(f, "}}\n");
    }
}

void shard_write(FILE *f, const char *kind, const study *a, const study *b)
{
    shard_identity *id = malloc(sizeof *id);
    if (!id) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    shard_identity_of(kind, a, b, id);
    double seconds = a->seconds + (b ? b->seconds : 0);
    fprintf(f, "{\"carc_shard\": \"%d/%d\", \"kind\": ", a->shard_k, a->shard_n);
    json_write_string(f, kind);
    fprintf(f, ", \"study\": \"%s\", \"games_in_shard\": %d, \"seconds\": %.6f, \"identity\": {", id->id,
            a->nresults, seconds);
    for (int i = 0; i < id->n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_write_string(f, id->key[i]);
        fprintf(f, ": ");
        json_write_string(f, id->value[i]);
    }
    fprintf(f, "}}\n");
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
    if (!id) {
        fprintf(stderr, "carc: out of memory\n");
        exit(1);
    }
    shard_identity_of(kind, a, b, id);
    write_games(a, f, kind, b ? "A" : "", id->id);
    if (b) write_games(b, f, kind, "B", id->id);
    free(id);
}

/* ---- reading: a small reader for exactly the lines written above ---------------------- */

typedef struct jp {
    const char *p;
} jp;

static void ws(jp *j)
{
    while (isspace((unsigned char)*j->p)) j->p++;
}

static bool lit(jp *j, char c)
{
    ws(j);
    if (*j->p != c) return false;
    j->p++;
    return true;
}

static bool jstring(jp *j, char *out, size_t n)
{
    if (!lit(j, '"')) return false;
    size_t k = 0;
    while (*j->p && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            c = *j->p++;
            if (c == 'u') { /* \u00XX from our own writer */
                unsigned v;
                if (sscanf(j->p, "%4x", &v) != 1) return false;
                j->p += 4;
                c = (char)v;
            } else if (!c) {
                return false;
            }
        }
        if (k + 1 < n) out[k++] = c;
    }
    out[k] = 0;
    return lit(j, '"');
}

static bool jnumber(jp *j, long long *v)
{
    ws(j);
    char *end;
    *v = strtoll(j->p, &end, 10);
    if (end == j->p) return false;
    j->p = end;
    return true;
}

static bool jdouble(jp *j, double *v)
{
    ws(j);
    char *end;
    *v = strtod(j->p, &end);
    if (end == j->p) return false;
    j->p = end;
    return true;
}

/* One shard's header. */
typedef struct header {
    char kind[32], study[32];
    int k, n, games_in_shard;
    double seconds;
    shard_identity *id;
} header;

static bool is_header(const char *line)
{
    jp j = {line};
    char key[32];
    return lit(&j, '{') && jstring(&j, key, sizeof key) && strcmp(key, "carc_shard") == 0;
}

static bool parse_header(const char *line, header *h)
{
    jp j = {line};
    char key[64], text[32];
    h->id->n = 0;
    h->k = h->n = -1;
    if (!lit(&j, '{')) return false;
    do {
        if (!jstring(&j, key, sizeof key) || !lit(&j, ':')) return false;
        if (strcmp(key, "carc_shard") == 0) {
            char tail;
            if (!jstring(&j, text, sizeof text) || sscanf(text, "%d/%d%c", &h->k, &h->n, &tail) != 2) return false;
        } else if (strcmp(key, "kind") == 0) {
            if (!jstring(&j, h->kind, sizeof h->kind)) return false;
        } else if (strcmp(key, "study") == 0) {
            if (!jstring(&j, h->study, sizeof h->study)) return false;
        } else if (strcmp(key, "games_in_shard") == 0) {
            long long v;
            if (!jnumber(&j, &v)) return false;
            h->games_in_shard = (int)v;
        } else if (strcmp(key, "seconds") == 0) {
            if (!jdouble(&j, &h->seconds)) return false;
        } else if (strcmp(key, "identity") == 0) {
            if (!lit(&j, '{')) return false;
            if (!lit(&j, '}')) {
                do {
                    shard_identity *id = h->id;
                    if (id->n == SHARD_MAX_KEYS || !jstring(&j, id->key[id->n], sizeof id->key[0]) || !lit(&j, ':') ||
                        !jstring(&j, id->value[id->n], sizeof id->value[0]))
                        return false;
                    id->n++;
                } while (lit(&j, ','));
                if (!lit(&j, '}')) return false;
            }
        } else {
            return false;
        }
    } while (lit(&j, ','));
    return lit(&j, '}') && h->n >= 1 && h->k >= 1 && h->k <= h->n && h->id->n > 0;
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
static const char *parse_game(const char *line, const header *h, study *a, study *b, bool compare)
{
    jp j = {line};
    char key[64], kind[32] = "", sid[32] = "", side[8] = "", vname[256] = "", title[512] = "", modules[1024] = "";
    char agents[CARC_MAX_PLAYERS][64], reason[32], options[32][160], variant[512], version[32];
    static _Thread_local char settings[64][160];
    int nopt = 0, nset = 0, nag = 0, nsc = 0, scores[CARC_MAX_PLAYERS], points_n = 0, pts[STUDY_MAX_REASONS];
    char ptnames[STUDY_MAX_REASONS][32];
    long long index = -1, seed = 0, turns = 0, v;
    game_trace trace;
    game_trace_begin(&trace);
    const char *bad = "not a game line written by carc sim, tournament or compare --shard";
    if (!lit(&j, '{')) return bad;
    do {
        if (!jstring(&j, key, sizeof key) || !lit(&j, ':')) return bad;
        bool ok = true;
        if (strcmp(key, "kind") == 0) ok = jstring(&j, kind, sizeof kind);
        else if (strcmp(key, "study") == 0) ok = jstring(&j, sid, sizeof sid);
        else if (strcmp(key, "side") == 0) ok = jstring(&j, side, sizeof side);
        else if (strcmp(key, "variant") == 0) ok = jstring(&j, variant, sizeof variant);
        else if (strcmp(key, "variant_name") == 0) ok = jstring(&j, vname, sizeof vname);
        else if (strcmp(key, "title") == 0) ok = jstring(&j, title, sizeof title);
        else if (strcmp(key, "modules") == 0) ok = jstring(&j, modules, sizeof modules);
        else if (strcmp(key, "carc_version") == 0) ok = jstring(&j, version, sizeof version);
        else if (strcmp(key, "options") == 0 || strcmp(key, "agents") == 0 || strcmp(key, "settings") == 0) {
            int which = key[0] == 'o' ? 0 : key[0] == 'a' ? 1 : 2;
            ok = lit(&j, '[');
            if (ok && !lit(&j, ']')) {
                do {
                    if (which == 0) ok = nopt < 32 && jstring(&j, options[nopt++], 160);
                    else if (which == 1) ok = nag < CARC_MAX_PLAYERS && jstring(&j, agents[nag++], 64);
                    else ok = nset < 64 && jstring(&j, settings[nset++], 160);
                } while (ok && lit(&j, ','));
                ok = ok && lit(&j, ']');
            }
        } else if (strcmp(key, "scores") == 0) {
            ok = lit(&j, '[');
            do {
                ok = ok && nsc < CARC_MAX_PLAYERS && jnumber(&j, &v);
                if (ok) scores[nsc++] = (int)v;
            } while (ok && lit(&j, ','));
            ok = ok && lit(&j, ']');
        } else if (strcmp(key, "points") == 0) {
            ok = lit(&j, '{');
            if (ok && !lit(&j, '}')) {
                do {
                    ok = points_n < STUDY_MAX_REASONS && jstring(&j, reason, sizeof reason) && lit(&j, ':') &&
                         jnumber(&j, &v);
                    if (ok) {
                        snprintf(ptnames[points_n], 32, "%s", reason);
                        pts[points_n++] = (int)v;
                    }
                } while (ok && lit(&j, ','));
                ok = ok && lit(&j, '}');
            }
        } else if (strcmp(key, "measures") == 0) {
            ok = lit(&j, '{');
            if (ok && !lit(&j, '}')) {
                double x;
                do ok = jstring(&j, reason, sizeof reason) && lit(&j, ':') && jdouble(&j, &x);
                while (ok && lit(&j, ','));
                ok = ok && lit(&j, '}');
            }
        } else if (strcmp(key, "trace") == 0) {
            ok = lit(&j, '{');
            if (ok && !lit(&j, '}')) {
                do {
                    ok = jstring(&j, reason, sizeof reason) && lit(&j, ':') && jnumber(&j, &v) &&
                         game_trace_set_field(&trace, reason, (long)v);
                } while (ok && lit(&j, ','));
                ok = ok && lit(&j, '}');
            }
        } else {
            ok = jnumber(&j, &v);
            if (strcmp(key, "index") == 0) index = v;
            else if (strcmp(key, "seed") == 0) seed = v;
            else if (strcmp(key, "turns") == 0) turns = v;
            else if (strcmp(key, "study_seed") != 0 && strcmp(key, "games") != 0) ok = false;
        }
        if (!ok) return bad;
    } while (lit(&j, ','));
    if (!lit(&j, '}') || index < 0 || nsc == 0 || nsc != nag) return bad;
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
        s->nsettings = nset;
        for (int i = 0; i < nset; i++) snprintf(s->settings[i], sizeof s->settings[i], "%s", settings[i]);
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
            if (is_header(line)) {
                if (!parse_header(line, &h)) {
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
            const char *why = parse_game(line, &h, a, b, compare);
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
    if (f) fclose(f);
    free(ref);
    free(cur);
    free(line);
    free(owner);
    free(owner_line);
    return rc;
}
