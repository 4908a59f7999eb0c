/* query.c - read-only queries of the rules' registries and tile types, for
 * programs that draw a game (carc render, the terminal board). Nothing here
 * changes a game or the rules. */
#include "core.h"

int carc_kinds(const carc_rules *r) { return r->nkinds; }
int carc_marks(const carc_rules *r) { return r->nmarks; }
int carc_tile_marks(const carc_rules *r) { return r->ntmarks; }
int carc_figure_kinds(const carc_rules *r) { return r->nfigkinds; }

const char *carc_mark_name(const carc_rules *r, int mark)
{
    return mark >= 0 && mark < r->nmarks ? r->marks[mark] : "?";
}

const char *carc_tile_mark_name(const carc_rules *r, int tile_mark)
{
    return tile_mark >= 0 && tile_mark < r->ntmarks ? r->tmarks[tile_mark] : "?";
}

static const seg_def *type_seg(const carc_rules *r, int type, int seg)
{
    if (type < 0 || type >= r->ntypes || seg < 0 || seg >= r->types[type].nsegs) return NULL;
    return &r->types[type].segs[seg];
}

int carc_type_segments(const carc_rules *r, int type)
{
    return type >= 0 && type < r->ntypes ? r->types[type].nsegs : -1;
}

int carc_type_segment_kind(const carc_rules *r, int type, int seg)
{
    const seg_def *sd = type_seg(r, type, seg);
    return sd ? sd->kind : -1;
}

unsigned carc_type_segment_ports(const carc_rules *r, int type, int seg)
{
    const seg_def *sd = type_seg(r, type, seg);
    return sd ? sd->ports : 0u;
}

int carc_type_segment_marks(const carc_rules *r, int type, int seg, int mark)
{
    const seg_def *sd = type_seg(r, type, seg);
    int n = 0;
    for (int i = 0; sd && i < sd->nmarks; i++)
        if (sd->mark[i] == mark) n += sd->mark_count[i];
    return n;
}

int carc_type_has_mark(const carc_rules *r, int type, int tile_mark)
{
    if (type < 0 || type >= r->ntypes || tile_mark < 0 || tile_mark >= r->ntmarks) return 0;
    return (int)((r->types[type].tile_marks >> tile_mark) & 1u);
}

int carc_segment_marks(const carc_game *g, int tile, int seg, int mark)
{
    if (tile < 0 || tile >= g->ntiles) return 0;
    return carc_type_segment_marks(g->rules, g->tiles[tile].type, seg, mark);
}
