/* game_log.c - awards in words and the breakdown by player and reason
 * (game_log.h). */
#include "game_log.h"

#include <stdio.h>
#include <string.h>

int log_award_text(const carc_game *g, int i, char *buf, size_t n)
{
    const carc_award *a = carc_award_at(g, i);
    if (!a) return snprintf(buf, n, "?");
    const char *who = a->player >= 0 && a->player < carc_players(g) ? carc_player_name(g, a->player) : "?";
    return snprintf(buf, n, "%s %+d for %s%s%s", who, a->points, carc_reason_name(carc_game_rules(g), a->reason),
                    (a->flags & CARC_AWARD_FINAL) ? " (final scoring)" : "",
                    (a->flags & CARC_AWARD_BONUS) ? " (bonus)" : "");
}

void log_breakdown_of(const carc_game *g, log_breakdown *b)
{
    memset(b, 0, sizeof *b);
    int np = carc_players(g);
    for (int i = 0; i < carc_awards(g); i++) {
        const carc_award *a = carc_award_at(g, i);
        if (!a || a->player < 0 || a->player >= np) continue;
        int k = 0;
        while (k < b->nreasons && b->reasons[k] != a->reason) k++;
        if (k == b->nreasons) {
            if (b->nreasons == LOG_MAX_REASONS) continue;
            b->reasons[b->nreasons++] = a->reason;
        }
        b->points[a->player][k] += a->points;
        b->total[a->player] += a->points;
    }
}
