/* serve_docs.h - the rules pages of the expansions in a game, for the page
 * of carc serve: docs/NAME.md of the data folder, by plain name only. */
#ifndef CARC_SERVE_DOCS_H
#define CARC_SERVE_DOCS_H
#include <stdbool.h>
#include <stddef.h>

/* The largest page served. */
#define SERVE_DOC_MAX_BYTES (512 * 1024)

/* Whether name may name a page: 1 to 63 of a-z, 0-9, '-' and '_', starting
 * with a letter or digit (no folder, no dot). */
bool serve_doc_name_ok(const char *name);
/* The Markdown text of docs/NAME.md (the caller frees it), or NULL with err
 * and *status (400 for a bad name, 404 for no such page). */
char *serve_doc_text(const char *name, size_t *len, char *err, size_t errn, int *status);
#endif
