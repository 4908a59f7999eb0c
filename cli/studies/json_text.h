/* json_text.h - text as JSON: a JSON string written to a file, for every
 * JSON the carc command prints (reports, shard lines, replay --json, the
 * replay page), and as a jansson string (carc serve). Text from files and
 * scripts (titles, names, option texts, messages) need not be UTF-8: both
 * go through one conversion to valid UTF-8 (text_utf8). */
#ifndef CARC_JSON_TEXT_H
#define CARC_JSON_TEXT_H

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

/* Writes s as a quoted JSON string, made valid UTF-8 (text_utf8): '"' and
 * '\' escaped, control characters and '<', '>', '&' as \u00XX, so the text
 * is also safe inside an HTML <script>. */
void json_write_string(FILE *f, const char *s);

#endif
