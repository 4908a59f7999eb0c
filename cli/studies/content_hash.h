/* content_hash.h - SHA-256 of a file or a text (Nettle), as 64 hex digits:
 * what a study records of every variant, script and plugin it played. */
#ifndef CARC_CONTENT_HASH_H
#define CARC_CONTENT_HASH_H
#include <stddef.h>

#define CONTENT_HASH_HEX 65 /* 64 hex digits and the terminator */

/* The hash of the file's bytes into hex; -1 if it cannot be read. */
int content_hash_file(const char *path, char hex[CONTENT_HASH_HEX]);
/* The hash of n bytes of text. */
void content_hash_text(const char *text, size_t n, char hex[CONTENT_HASH_HEX]);
#endif
