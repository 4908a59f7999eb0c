/* json_text.c - text as JSON (json_text.h). */
#include "json_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte
 * there does not start one. */
static size_t utf8_valid_at(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07, min = 0x10000;
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the NUL */
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

char *text_utf8(const char *s)
{
    if (!s) s = "";
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    /* at worst every byte becomes three (U+FFFD) */
    char *out = malloc(3 * len + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_valid_at(u + i);
        if (n) {
            memcpy(o, u + i, n);
            o += n;
            i += n;
            continue;
        }
        unsigned char c = u[i++];
        if (c >= 0xA0) { /* Latin-1 */
            *o++ = (char)(0xC0 | (c >> 6));
            *o++ = (char)(0x80 | (c & 0x3F));
        } else { /* U+FFFD */
            *o++ = (char)0xEF;
            *o++ = (char)0xBF;
            *o++ = (char)0xBD;
        }
    }
    *o = 0;
    return out;
}

json_t *json_text(const char *s)
{
    char *t = text_utf8(s);
    json_t *j = t ? json_string(t) : NULL;
    free(t);
    return j;
}

void json_write_string(FILE *f, const char *s)
{
    char *t = text_utf8(s);
    fputc('"', f);
    for (const char *p = t ? t : "?"; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&') fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
    free(t);
}
