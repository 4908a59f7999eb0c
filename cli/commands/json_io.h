/* json_io.h - JSON in and out of the carc command, through jansson: every
 * JSON it prints (reports, shard lines, replay --json, the replay page, the
 * HTML report) is built as jansson values and printed by json_print; shard
 * lines and reports are read back with json_loads. Text from files and
 * scripts (titles, names, option texts, messages) need not be UTF-8, and
 * jansson takes only UTF-8: it goes through one conversion (text_utf8). */
#ifndef CARC_JSON_IO_H
#define CARC_JSON_IO_H

#include <stdio.h>

#include <jansson.h>

/* s as valid UTF-8: valid sequences are kept; every byte of anything else
 * (Latin-1 text, overlong forms, surrogates, sequences cut short) on its
 * own: 0xA0..0xFF read as Latin-1 (U+00A0..U+00FF, so a name saved in
 * Latin-1 reads right), 0x80..0x9F as U+FFFD. A new string the caller
 * frees; NULL only when out of memory. */
char *text_utf8(const char *s);

/* A new jansson string of s made valid UTF-8 (text_utf8); NULL only when
 * out of memory. NULL s gives "". */
json_t *json_text(const char *s);

/* A new jansson real of x rounded to `decimals` places (at most 9), so that
 * it prints as the shortest text of that value (0.577, not 0.57699999...);
 * NaN and infinities (which JSON lacks) as 0. */
json_t *json_fixed(double x, int decimals);
/* A new jansson real of x rounded to `digits` significant digits (p-values). */
json_t *json_sig(double x, int digits);

/* A whole number from 0 to 2^64 - 1 (a seed) as a JSON integer; past 2^63 - 1
 * (what jansson and most JSON readers hold exactly) its decimal digits as a
 * string. */
json_t *json_u64(unsigned long long v);

/* Prints j (not consumed) on one line, members in the order they were set,
 * ", " and ": " between them; '<', '>' and '&' in strings as \u003c,
 * \u003e, \u0026 so the text is also safe inside an HTML <script>. -1 when
 * out of memory or the write fails. */
int json_print(FILE *f, const json_t *j);
/* json_print, then consumes j; -1 also when j is NULL (a jansson call
 * before it ran out of memory). */
int json_print_new(FILE *f, json_t *j);

#endif
