/* content_hash.c - SHA-256 with Nettle. */
#include "content_hash.h"

#include <nettle/sha2.h>
#include <stdio.h>

static void to_hex(struct sha256_ctx *ctx, char hex[CONTENT_HASH_HEX])
{
    unsigned char d[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

int content_hash_file(const char *path, char hex[CONTENT_HASH_HEX])
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&ctx, n, buf);
    int bad = ferror(f);
    fclose(f);
    if (bad) return -1;
    to_hex(&ctx, hex);
    return 0;
}

void content_hash_text(const char *text, size_t n, char hex[CONTENT_HASH_HEX])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, n, (const unsigned char *)text);
    to_hex(&ctx, hex);
}
