/* record_header.h - whether a game's header (variant, player names, option
 * overrides) can be written into a record and read back as written. */
#ifndef CARC_RECORD_HEADER_H
#define CARC_RECORD_HEADER_H
#include <stdbool.h>
#include <stddef.h>

/* A name is one word of 1 to 31 bytes and unique; no text holds '#' (a
 * comment in a record) or a control character. false with the reason in err. */
bool record_header_ok(const char *variant, const char *const *names, int np, const char *const *ov, int nover,
                      char *err, size_t errn);
#endif
