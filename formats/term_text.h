/* term_text.h - text from elsewhere (names, record lines, option texts,
 * script output, error messages quoting them) written to a terminal:
 * control characters would move the cursor, retitle the window or clear
 * the screen, so they are shown escaped. */
#ifndef CARC_TERM_TEXT_H
#define CARC_TERM_TEXT_H
#include <stddef.h>
#include <stdio.h>

/* Writes n bytes of s to f, each control character but newline and tab (C0,
 * DEL, and C1 in UTF-8, U+0080 to U+009F) as \xNN. */
void term_write(FILE *f, const char *s, size_t n);

/* term_write of a NUL-terminated string. */
void term_puts(FILE *f, const char *s);

/* "PREFIX: MESSAGE\n" to the standard error, the message escaped (it may
 * quote a file from elsewhere). */
void term_error(const char *prefix, const char *msg);
#endif
