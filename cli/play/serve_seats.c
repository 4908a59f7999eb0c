/* serve_seats.c - the secrets of a game's seats (serve_seats.h). */
#include "serve_seats.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "json_io.h"

static int fresh_secret(char out[SESSION_SECRET_CHARS + 1])
{
    unsigned char r[SESSION_SECRET_CHARS / 2];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t k = getrandom(r + got, sizeof r - got, 0);
        if (k <= 0) return -1;
        got += (size_t)k;
    }
    for (size_t i = 0; i < sizeof r; i++) snprintf(out + 2 * i, 3, "%02x", r[i]);
    explicit_bzero(r, sizeof r);
    return 0;
}

int seats_make_secrets(serve_session *s, char *err, size_t errn)
{
    int rc = fresh_secret(s->host_secret) | fresh_secret(s->spectator_secret);
    for (int p = 0; p < s->nplayers; p++) {
        s->seat_secret[p][0] = 0;
        if (strcmp(s->agents[p], "human") == 0) rc |= fresh_secret(s->seat_secret[p]);
    }
    if (rc) snprintf(err, errn, "no random bytes for the game's secrets (getrandom failed)");
    return rc ? -1 : 0;
}

/* given equals secret (SESSION_SECRET_CHARS hex digits, or "" for none), in
 * time that depends on neither's content. */
static bool same_secret(const char *given, size_t gn, const char *secret)
{
    unsigned diff = (gn != SESSION_SECRET_CHARS) | (secret[0] == 0);
    for (size_t i = 0; i < SESSION_SECRET_CHARS; i++)
        diff |= (unsigned char)(i < gn ? given[i] : 0) ^ (unsigned char)(secret[0] ? secret[i] : 0xff);
    return diff == 0;
}

game_caller seats_caller(const serve_session *s, const char *given, bool server_caller)
{
    game_caller c = {ROLE_NONE, -1};
    size_t gn = given ? strnlen(given, SESSION_SECRET_CHARS + 1) : 0;
    const char *g = given ? given : "";
    /* every secret is compared, whichever matches */
    bool host = same_secret(g, gn, s->host_secret), spectator = same_secret(g, gn, s->spectator_secret);
    int seat = -1;
    for (int p = 0; p < s->nplayers; p++)
        if (same_secret(g, gn, s->seat_secret[p]) && seat < 0) seat = p;
    if (seat >= 0) c.role = ROLE_SEAT, c.seat = seat;
    else if (host || (server_caller && !given)) c.role = ROLE_HOST;
    else if (spectator) c.role = ROLE_SPECTATOR;
    else if (server_caller) c.role = ROLE_HOST;
    return c;
}

void seats_cookie_name(char *buf, size_t n, const char *id) { snprintf(buf, n, "carc_game_%s", id); }

static json_t *link_of(const serve_session *s, const char *secret)
{
    char buf[128];
    snprintf(buf, sizeof buf, "/#game=%s&key=%s", s->id, secret);
    return json_string(buf);
}

json_t *seats_links(const serve_session *s)
{
    json_t *seats = json_array();
    for (int p = 0; seats && p < s->nplayers; p++)
        if (s->seat_secret[p][0])
            json_array_append_new(seats, json_pack("{s:i, s:o, s:o}", "seat", p, "name", json_text(s->names[p]), "link",
                                                   link_of(s, s->seat_secret[p])));
    return json_pack("{s:o, s:o, s:o}", "host", link_of(s, s->host_secret), "spectator",
                     link_of(s, s->spectator_secret), "seats", seats);
}
