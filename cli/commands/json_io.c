/* json_io.c - JSON through jansson (json_io.h). */
#include "json_io.h"

#include <math.h>
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

static json_t *real_of(double x, const char *fmt, int n)
{
    if (!isfinite(x)) x = 0;
    char buf[64];
    snprintf(buf, sizeof buf, fmt, n, x);
    double v = strtod(buf, NULL);
    return json_real(v == 0 ? 0 : v); /* no "-0.0" */
}

json_t *json_fixed(double x, int decimals)
{
    return real_of(x, "%.*f", decimals < 0 ? 0 : decimals > 9 ? 9 : decimals);
}

json_t *json_sig(double x, int digits)
{
    return real_of(x, "%.*g", digits < 1 ? 1 : digits > 17 ? 17 : digits);
}

json_t *json_u64(unsigned long long v)
{
    if (v <= (unsigned long long)INT64_MAX) return json_integer((json_int_t)v);
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", v);
    return json_string(buf);
}

int json_print(FILE *f, const json_t *j)
{
    /* 15 significant digits print a value rounded by json_fixed or json_sig
     * as its shortest text. */
    char *text = j ? json_dumps(j, JSON_INDENT(0) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) : NULL;
    if (!text) return -1;
    /* Outside strings JSON has no '<', '>' or '&': each is in a string. */
    for (const char *p = text; *p; p++) {
        if (*p == '<') fputs("\\u003c", f);
        else if (*p == '>') fputs("\\u003e", f);
        else if (*p == '&') fputs("\\u0026", f);
        else fputc(*p, f);
    }
    free(text);
    return ferror(f) ? -1 : 0;
}

int json_print_new(FILE *f, json_t *j)
{
    int rc = json_print(f, j);
    json_decref(j);
    return rc;
}
