/* serve_docs.c - the rules pages of carc serve (serve_docs.h). */
#include "serve_docs.h"

#include <stdio.h>
#include <string.h>

#include "carc.h"
#include "regular_file.h"

bool serve_doc_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 63 || name[0] == '-' || name[0] == '_') return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    }
    return true;
}

char *serve_doc_text(const char *name, size_t *len, char *err, size_t errn, int *status)
{
    if (!serve_doc_name_ok(name)) {
        *status = 400;
        snprintf(err, errn, "'%.80s' is not the name of a rules page (a module's name: a-z, 0-9, '-')", name ? name : "");
        return NULL;
    }
    char path[1200], why[512];
    snprintf(path, sizeof path, "%s/docs/%s.md", carc_data_dir(), name);
    char *text = regular_file_read(path, "rules page", SERVE_DOC_MAX_BYTES, len, why, sizeof why);
    if (!text) {
        *status = 404;
        snprintf(err, errn, "no rules page '%s' (docs/%s.md)", name, name);
    }
    return text;
}
