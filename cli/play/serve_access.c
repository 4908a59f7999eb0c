/* serve_access.c - who may use carc serve (serve_access.h). */
#include "serve_access.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>

typedef struct access_key {
    char key[ACCESS_KEY_CHARS + 1];
    access_scope scope;
} access_key;

struct serve_access {
    char hosts[ACCESS_MAX_HOSTS][ACCESS_MAX_HOST_NAME + 3]; /* lower case; IPv6 in brackets */
    int nhosts;
    bool needs_key;
    access_key keys[ACCESS_MAX_KEYS];
    int nkeys;
};

bool access_is_loopback(const char *listen)
{
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, listen, &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, listen, &a6) != 1) return false;
    if (IN6_IS_ADDR_LOOPBACK(&a6)) return true;
    return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
}

static bool is_wildcard(const char *listen)
{
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, listen, &a4) == 1) return a4.s_addr == htonl(INADDR_ANY);
    return inet_pton(AF_INET6, listen, &a6) == 1 && IN6_IS_ADDR_UNSPECIFIED(&a6);
}

/* A host name as a Host header holds it: letters, digits, '-', '.', or an
 * IPv6 address in brackets. */
static bool host_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > ACCESS_MAX_HOST_NAME) return false;
    if (s[0] == '[') {
        struct in6_addr a6;
        char inner[64];
        if (s[n - 1] != ']' || n - 2 >= sizeof inner) return false;
        snprintf(inner, sizeof inner, "%.*s", (int)(n - 2), s + 1);
        return inet_pton(AF_INET6, inner, &a6) == 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-' || s[i] == '.'))
            return false;
    return true;
}

static int add_host(serve_access *a, const char *name, bool v6)
{
    if (a->nhosts == ACCESS_MAX_HOSTS) return -1;
    char *h = a->hosts[a->nhosts];
    snprintf(h, sizeof a->hosts[0], v6 ? "[%s]" : "%s", name);
    for (char *p = h; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    for (int i = 0; i < a->nhosts; i++)
        if (strcmp(a->hosts[i], h) == 0) return 0;
    a->nhosts++;
    return 0;
}

/* Every address of this machine's interfaces: what a Host header holds
 * when another machine opens the server of a wildcard bind by address. */
static void add_own_addresses(serve_access *a)
{
    struct ifaddrs *list = NULL;
    if (getifaddrs(&list) < 0) return;
    for (struct ifaddrs *i = list; i; i = i->ifa_next) {
        char text[INET6_ADDRSTRLEN];
        if (!i->ifa_addr) continue;
        if (i->ifa_addr->sa_family == AF_INET &&
            inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, text, sizeof text))
            add_host(a, text, false);
        else if (i->ifa_addr->sa_family == AF_INET6 &&
                 inet_ntop(AF_INET6, &((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr, text, sizeof text))
            add_host(a, text, true);
    }
    freeifaddrs(list);
}

static bool hex_key_ok(const char *k)
{
    if (strlen(k) != ACCESS_KEY_CHARS) return false;
    for (const char *p = k; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    return true;
}

int access_add_server_key(serve_access *a, const char *key)
{
    if (a->nkeys == ACCESS_MAX_KEYS || !hex_key_ok(key)) return -1;
    snprintf(a->keys[a->nkeys].key, sizeof a->keys[0].key, "%s", key);
    a->keys[a->nkeys++].scope = ACCESS_SERVER;
    a->needs_key = true;
    return 0;
}

serve_access *access_new(const char *listen, const char *const *allow, int nallow, bool needs_key, char *err,
                         size_t errn)
{
    serve_access *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errn, "out of memory");
        return NULL;
    }
    add_host(a, "localhost", false);
    add_host(a, "127.0.0.1", false);
    add_host(a, "::1", true);
    struct in6_addr a6;
    bool v6 = inet_pton(AF_INET6, listen, &a6) == 1;
    add_host(a, listen, v6);
    if (is_wildcard(listen)) add_own_addresses(a);
    for (int i = 0; i < nallow; i++) {
        if (!host_name_ok(allow[i])) {
            snprintf(err, errn,
                     "--allow-host '%.80s' is not a host name (letters, digits, '-' and '.', at most %d "
                     "characters; an IPv6 address in brackets)",
                     allow[i], ACCESS_MAX_HOST_NAME);
            free(a);
            return NULL;
        }
        if (add_host(a, allow[i], false) < 0) {
            snprintf(err, errn, "too many names for one server (at most %d, its own addresses included)",
                     ACCESS_MAX_HOSTS);
            free(a);
            return NULL;
        }
    }
    if (needs_key) {
        unsigned char r[ACCESS_KEY_BYTES];
        char key[ACCESS_KEY_CHARS + 1];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
            snprintf(err, errn, "no random bytes for the server's key (getrandom failed)");
            free(a);
            return NULL;
        }
        for (int i = 0; i < ACCESS_KEY_BYTES; i++) snprintf(key + 2 * i, 3, "%02x", r[i]);
        access_add_server_key(a, key);
    }
    return a;
}

void access_free(serve_access *a) { free(a); }

const char *access_server_key(const serve_access *a)
{
    for (int i = 0; i < a->nkeys; i++)
        if (a->keys[i].scope == ACCESS_SERVER) return a->keys[i].key;
    return NULL;
}

bool access_host_ok(const serve_access *a, const char *host, int port)
{
    if (!host) return false;
    char name[ACCESS_MAX_HOST_NAME + 3];
    const char *colon;
    size_t n;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close) return false;
        n = (size_t)(close - host) + 1;
        colon = close[1] == ':' ? close + 1 : NULL;
        if (close[1] && !colon) return false;
    } else {
        colon = strchr(host, ':');
        n = colon ? (size_t)(colon - host) : strlen(host);
    }
    if (n == 0 || n >= sizeof name) return false;
    if (colon) { /* the port, when given, is ours */
        char *end;
        long p = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || p != port) return false;
    }
    memcpy(name, host, n);
    name[n] = 0;
    if (n > 1 && name[n - 1] == '.') name[--n] = 0; /* "localhost." */
    for (int i = 0; i < a->nhosts; i++)
        if (strcasecmp(a->hosts[i], name) == 0) return true;
    return false;
}

/* a equals the key, in time that depends on the key's length only. */
static bool same_key(const char *a, const char *key)
{
    size_t an = strlen(a);
    unsigned diff = an != ACCESS_KEY_CHARS;
    for (size_t i = 0; i < ACCESS_KEY_CHARS; i++)
        diff |= (unsigned char)key[i] ^ (unsigned char)(i < an ? a[i] : 0);
    return diff == 0;
}

/* The scope of the key given, trying every key of the table (the time
 * does not say which came close). */
static access_scope scope_of(const serve_access *a, const char *given)
{
    access_scope found = ACCESS_NOTHING;
    for (int i = 0; given && i < a->nkeys; i++)
        if (same_key(given, a->keys[i].key) && found == ACCESS_NOTHING) found = a->keys[i].scope;
    return found;
}

bool access_key_known(const serve_access *a, const char *key) { return scope_of(a, key) != ACCESS_NOTHING; }

serve_caller access_caller(const serve_access *a, const char *cookie, const char *authorization)
{
    serve_caller c = {ACCESS_NOTHING};
    if (!a->needs_key) {
        c.scope = ACCESS_SERVER;
        return c;
    }
    if (authorization && strncasecmp(authorization, "Bearer ", 7) == 0) c.scope = scope_of(a, authorization + 7);
    if (c.scope == ACCESS_NOTHING) c.scope = scope_of(a, cookie);
    return c;
}

void access_cookie_name(char *buf, size_t n, int port) { snprintf(buf, n, "carc_key_%d", port); }
