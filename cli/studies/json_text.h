/* json_text.h - a JSON string written to a file, for every JSON the carc
 * command prints (reports, shard lines, replay --json, the replay page). */
#ifndef CARC_JSON_TEXT_H
#define CARC_JSON_TEXT_H

#include <stdio.h>

/* Writes s as a quoted JSON string: '"' and '\' escaped, control characters
 * and '<', '>', '&' as \u00XX, so the text is also safe inside an HTML
 * <script>. */
void json_write_string(FILE *f, const char *s);

#endif
