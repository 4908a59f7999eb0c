/* serve_access.h - who may use carc serve (docs/security.md, "The server").
 * Two checks, on every request, before its body is read:
 *  - the Host header names this server: a loopback name (localhost,
 *    127.0.0.1, [::1]), the address it listens on, for a wildcard bind
 *    (0.0.0.0, ::) an address of this machine, or a name the user allowed
 *    (--allow-host); a web page whose name was pointed at this machine (DNS
 *    rebinding) names its own site and is refused;
 *  - a request of the API holds a key the server knows: the server's key,
 *    made at start for a bind beyond this machine and printed in the
 *    address to open. The page gets it as a cookie when it is first opened
 *    with ?key=KEY; a script sends "Authorization: Bearer KEY". A server on
 *    a loopback address needs no key. Keys are compared in constant time
 *    and never written anywhere but the start-up line.
 * The keys are a table, each with what it opens (today the whole server):
 * a key for one seat of one game can be added beside it. */
#ifndef CARC_SERVE_ACCESS_H
#define CARC_SERVE_ACCESS_H
#include <stdbool.h>
#include <stddef.h>

#define ACCESS_MAX_HOSTS 64          /* names a server answers to, its own included */
#define ACCESS_MAX_HOST_NAME 253     /* a DNS name's length */
#define ACCESS_KEY_BYTES 16          /* 128 random bits, written as 32 hex digits */
#define ACCESS_KEY_CHARS (2 * ACCESS_KEY_BYTES)
#define ACCESS_MAX_KEYS 8

typedef struct serve_access serve_access;

/* What a key opens. */
typedef enum access_scope {
    ACCESS_NOTHING = 0,
    ACCESS_SERVER, /* every game and request: a loopback server's caller, or one holding the server's key */
} access_scope;

/* Who a request speaks for: what its key opens. */
typedef struct serve_caller {
    access_scope scope;
} serve_caller;

/* The check for a server listening on `listen` (an IPv4 or IPv6 address),
 * answering to the names in allow[] as well. needs_key: the API asks for a
 * key (false for a loopback address, which only this machine reaches).
 * NULL with err (a name that is no host name, too many names, no random
 * bytes for the key). */
serve_access *access_new(const char *listen, const char *const *allow, int nallow, bool needs_key, char *err,
                         size_t errn);
void access_free(serve_access *a);

/* Whether listen is a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.x.x). */
bool access_is_loopback(const char *listen);

/* The server's key (ACCESS_KEY_CHARS hex digits), or NULL when it needs
 * none. Valid while a lives. */
const char *access_server_key(const serve_access *a);
/* Adds a key of the caller's choosing for the whole server (tests). 0; -1
 * when the table is full or the key is not ACCESS_KEY_CHARS hex digits. */
int access_add_server_key(serve_access *a, const char *key);

/* Whether the Host header (NULL when missing) names this server at port. */
bool access_host_ok(const serve_access *a, const char *host, int port);

/* What a request holding `cookie` (the value of its key cookie, or NULL)
 * and `authorization` (its Authorization header, or NULL) may do. */
serve_caller access_caller(const serve_access *a, const char *cookie, const char *authorization);
/* Whether `key` is a key of this server (for ?key= on the page's address). */
bool access_key_known(const serve_access *a, const char *key);

/* The name of the cookie holding the key, per port (two servers on one
 * machine keep theirs apart): "carc_key_PORT". */
void access_cookie_name(char *buf, size_t n, int port);
#endif
