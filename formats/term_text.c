/* term_text.c - control characters escaped on the terminal (term_text.h). */
#include "term_text.h"

#include <string.h>

void term_write(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0; /* bytes before i that need no escaping, written in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        size_t bad = 0;
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) bad = 1;
        else if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) bad = 2;
        if (!bad) continue;
        fwrite(p + run, 1, i - run, f);
        for (size_t k = 0; k < bad; k++) fprintf(f, "\\x%02x", p[i + k]);
        i += bad - 1;
        run = i + 1;
    }
    fwrite(p + run, 1, n - run, f);
}

void term_puts(FILE *f, const char *s) { term_write(f, s, strlen(s)); }

void term_error(const char *prefix, const char *msg)
{
    fprintf(stderr, "%s: ", prefix);
    term_puts(stderr, msg);
    fputc('\n', stderr);
}
