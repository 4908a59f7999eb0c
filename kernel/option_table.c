/* option_table.c - the rules' option table read back: each option's key,
 * type, values or bounds, default, current value and help text, for forms
 * that let a player set them (carc serve's new-game form). */
#include <stdio.h>
#include <string.h>

#include "core.h"

int carc_rules_option_count(const carc_rules *r) { return r->nopts; }

int carc_rules_option_info(const carc_rules *r, int i, carc_option_info *out)
{
    if (i < 0 || i >= r->nopts) return -1;
    const option_def *o = &r->opts[i];
    memset(out, 0, sizeof *out);
    out->key = o->key;
    out->help = o->help;
    out->is_int = o->type == OPT_INT;
    out->value = o->value;
    out->def = o->def;
    out->min = o->min;
    out->max = o->max;
    out->nvalues = o->type == OPT_ENUM ? o->nvalues : 0;
    for (int v = 0; v < out->nvalues && v < 8; v++) out->values[v] = o->values[v];
    return 0;
}
