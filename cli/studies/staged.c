/* staged.c - Stein's two-stage comparison. */
#include "staged.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Plays games [from, to) of s and appends them to its results. */
static int extend(study *s, int to, char *err, size_t errn)
{
    static study more; /* large: not on the stack */
    more = *s;
    more.results = NULL;
    more.nresults = 0;
    more.first_game = s->games;
    more.games = to;
    if (study_run(&more) < 0) {
        snprintf(err, errn, "%s", more.error);
        study_free(&more);
        return -1;
    }
    study_game *r = realloc(s->results, (size_t)(s->nresults + more.nresults) * sizeof *r);
    if (!r) {
        study_free(&more);
        snprintf(err, errn, "out of memory");
        return -1;
    }
    memcpy(r + s->nresults, more.results, (size_t)more.nresults * sizeof *r);
    s->results = r;
    s->nresults += more.nresults;
    s->games = to;
    s->seconds += more.seconds;
    study_free(&more);
    return 0;
}

int staged_extend(study *a, study *b, compare_settings *cs, const char *key, double width, int max_games, char *err,
                  size_t errn)
{
    static compare_row rows[COMPARE_MAX_ROWS];
    int n = compare_metrics(a, b, cs, rows, COMPARE_MAX_ROWS), at = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].key, key) == 0) at = i;
    if (at < 0) {
        char known[1024] = "";
        for (int i = 0; i < n; i++) {
            size_t u = strlen(known);
            snprintf(known + u, sizeof known - u, "%s%s", i ? ", " : "", rows[i].key);
        }
        snprintf(err, errn, "--until-width: no measure '%s' in this comparison; the measures: %s", key, known);
        return -1;
    }
    int b1 = rows[at].blocks, size = a->games / cs->blocks;
    double sd = rows[at].block_sd, t = stat_t_quantile(0.975, b1 - 1);
    /* The blocks that give 2 t sd / sqrt(blocks) <= width. */
    double need = ceil(pow(2 * t * sd / width, 2));
    int blocks = need > b1 ? (need > 1e6 ? 1000000 : (int)need) : b1;
    bool capped = (long long)blocks * size > max_games;
    if (capped) blocks = max_games / size > b1 ? max_games / size : b1;
    if (blocks > b1 && (extend(a, blocks * size, err, errn) < 0 || extend(b, blocks * size, err, errn) < 0))
        return -1;
    cs->blocks = blocks;
    snprintf(cs->staged_key, sizeof cs->staged_key, "%s", key);
    cs->staged_sd = sd;
    cs->staged_df = b1 - 1;
    cs->staged_first = b1 * size;
    cs->staged_width = width;
    cs->staged_capped = capped;
    return 0;
}
