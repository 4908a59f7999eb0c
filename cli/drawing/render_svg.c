/* render_svg.c - the board as an SVG picture: the tiles (svg_tile.c) at their
 * board positions, the figures on their segments or tiles, the coordinates,
 * the players and scores with the figures each holds (prisoners), and the
 * score track (spaces 0-49) with each player's marker and the robbers. Every shape names what it shows in
 * attributes (class, data-x, data-y, data-owner...), see docs/render.md. */
#include <string.h>

#include "render.h"

#define TILE_PX 60.0
#define MARGIN 28.0
#define SPACE_PX 22.0
#define TRACK_SPACES 50
#define TRACK_COLS 25
#define LEGEND_ROW 18.0
/* Where the row of a player's prisoners starts after the legend's text,
 * and the step from one to the next. */
#define HELD_X 230.0
#define HELD_STEP 14.0

void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') fputc(*s, out);
        }
    }
}

void svg_layout_of(svg_layout *l, const view *v)
{
    memset(l, 0, sizeof *l);
    l->minx = v->minx;
    l->miny = v->miny;
    l->cols = v->maxx - v->minx + 1;
    l->rows = v->maxy - v->miny + 1;
    l->nplayers = v->nplayers;
    l->tile = TILE_PX;
    l->board_x = MARGIN;
    l->board_y = MARGIN;
    double board_w = l->cols * l->tile, track_w = v->nplayers ? TRACK_COLS * SPACE_PX : 0;
    l->legend_y = l->board_y + l->rows * l->tile + 16;
    l->track_x = MARGIN;
    l->track_y = l->legend_y + LEGEND_ROW * (v->nplayers ? v->nplayers : 0) + 10;
    l->width = MARGIN + (board_w > track_w ? board_w : track_w) + 12;
    l->height = v->nplayers ? l->track_y + 2 * SPACE_PX + 12 : l->legend_y;
}

static const char style[] =
    ".ground{fill:#9cc46c;stroke:#4f6f32;stroke-width:.8}"
    ".seg.field{fill:#9cc46c}"
    ".seg.field.inner{stroke:#4f6f32;stroke-dasharray:3 2}"
    ".seg.city{fill:#d9b47c}"
    ".wall{fill:none;stroke:#6e4a26;stroke-width:3}"
    ".seg.road{fill:none;stroke:#f4ecd6;stroke-width:7}"
    ".road-edge{fill:none;stroke:#6a5f50;stroke-width:10}"
    ".junction{fill:#8d6e4f;stroke:#3b2e20}"
    ".seg.cloister{fill:#eadfc6;stroke:#5a4630;stroke-width:1.5}"
    ".roof{fill:#b5523b;stroke:#5a2a1e}.door{fill:#5a4630}"
    ".seg.temple{fill:#f1e4a6;stroke:#7d6a2a;stroke-width:1.5}"
    ".columns{fill:none;stroke:#7d6a2a;stroke-width:2}"
    ".seg.inner{stroke:#222}"
    "text{font-family:sans-serif}"
    ".initial,.kind-letter{font-size:12px;text-anchor:middle;fill:#fff;font-weight:bold}"
    ".fig-initial{font-size:10px}"
    ".count{font-size:8px;fill:#000}"
    ".coord{font-size:11px;fill:#555;text-anchor:middle}"
    ".space{fill:#f4f1e8;stroke:#999}.space-label{font-size:8px;fill:#777;text-anchor:middle}"
    ".legend{font-size:12px;fill:#222}"
    ".tile-id{font-size:13px;fill:#000;stroke:#fff;stroke-width:3px;paint-order:stroke}"
    ".seg.scored{stroke:#ffe600;stroke-width:5}"
    ".seg.road.scored{stroke:#ffe600}";

void svg_open(FILE *out, const svg_layout *l, int standalone)
{
    if (standalone) fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    /* Inside HTML the parser gives <svg> its namespace. */
    fprintf(out,
            "<svg%s class=\"carc-board\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">\n<style>%s</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fbfaf6\"/>\n",
            standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", l->width, l->height, l->width, l->height, style);
}

void svg_close(FILE *out) { fprintf(out, "</svg>\n"); }

void svg_coords(FILE *out, const svg_layout *l)
{
    fprintf(out, "<g class=\"coords\">");
    for (int c = 0; c < l->cols; c++)
        fprintf(out, "<text class=\"coord\" data-x=\"%d\" x=\"%g\" y=\"%g\">%d</text>", l->minx + c,
                l->board_x + (c + 0.5) * l->tile, l->board_y - 8, l->minx + c);
    for (int r = 0; r < l->rows; r++)
        fprintf(out, "<text class=\"coord\" data-y=\"%d\" x=\"%g\" y=\"%g\">%d</text>", l->miny + r, l->board_x - 13,
                l->board_y + (r + 0.5) * l->tile + 4, l->miny + r);
    fprintf(out, "</g>\n");
}

static double tile_px(const svg_layout *l, int x) { return l->board_x + (x - l->minx) * l->tile; }
static double tile_py(const svg_layout *l, int y) { return l->board_y + (y - l->miny) * l->tile; }

void svg_tiles(FILE *out, const svg_layout *l, const view *v)
{
    fprintf(out, "<g class=\"tiles\">\n");
    for (int i = 0; i < v->ntiles; i++) {
        const view_tile *t = &v->tiles[i];
        fprintf(out, "<g class=\"tile\" id=\"tile%d\" data-index=\"%d\" data-x=\"%d\" data-y=\"%d\" data-rot=\"%d\" "
                     "data-type=\"",
                i, i, t->x, t->y, 90 * t->rot);
        xml_text(out, carc_tile_set_of(v->rules, t->type));
        fputc(':', out);
        xml_text(out, carc_tile_id(v->rules, t->type));
        fprintf(out, "\" transform=\"translate(%g %g) scale(%g)\"><title>", tile_px(l, t->x), tile_py(l, t->y),
                l->tile / TILE_UNITS);
        xml_text(out, carc_tile_set_of(v->rules, t->type));
        fputc(':', out);
        xml_text(out, carc_tile_id(v->rules, t->type));
        fprintf(out, " r%d at %d,%d</title>", 90 * t->rot, t->x, t->y);
        svg_tile(out, v, i);
        if (v->sheet) { /* a tile sheet names its tiles */
            fprintf(out, "<text class=\"tile-id\" x=\"3\" y=\"97\">");
            xml_text(out, carc_tile_id(v->rules, t->type));
            fprintf(out, "</text>");
        }
        fprintf(out, "</g>\n");
    }
    fprintf(out, "</g>\n");
}

/* How many figures before f stand on the same place: they step aside. */
static int same_place_before(const view *v, int f)
{
    int n = 0;
    for (int i = 0; i < f; i++)
        n += v->figs[i].where == v->figs[f].where && v->figs[i].tile == v->figs[f].tile &&
             v->figs[i].seg == v->figs[f].seg &&
             (v->figs[f].where != CARC_AT_CORNER || v->figs[i].space == v->figs[f].space);
    return n;
}

static void figure_open(FILE *out, const view *v, const view_figure *fg)
{
    fprintf(out, "<g class=\"figure ");
    xml_text(out, fg->kind_name);
    fprintf(out, "%s\" data-kind=\"", fg->owner < 0 ? " neutral" : "");
    xml_text(out, fg->kind_name);
    fprintf(out, "\" data-owner=\"%d\" data-colour=\"%s\"", fg->owner, view_seat_colour_name(fg->owner));
    if (fg->where == CARC_AT_TRACK) {
        fprintf(out, " data-where=\"track\" data-space=\"%d\">", fg->space);
        return;
    }
    if (fg->where == CARC_AT_HELD) {
        fprintf(out, " data-where=\"held\" data-holder=\"%d\"><title>", fg->space);
        xml_text(out, v->names[fg->owner]);
        fprintf(out, "'s %s, held by ", fg->kind_name);
        xml_text(out, v->names[fg->space]);
        fprintf(out, "</title>");
        return;
    }
    const view_tile *t = &v->tiles[fg->tile];
    fprintf(out, " data-where=\"%s\" data-tile=\"%d\" data-x=\"%d\" data-y=\"%d\"",
            fg->where == CARC_AT_SEGMENT ? "segment" : fg->where == CARC_AT_CORNER ? "corner" : "tile", fg->tile, t->x,
            t->y);
    if (fg->where == CARC_AT_SEGMENT) fprintf(out, " data-seg=\"%d\"", fg->seg);
    if (fg->where == CARC_AT_CORNER) fprintf(out, " data-corner=\"%s\"", view_corner_name(fg->space));
    fprintf(out, ">");
}

void svg_track_space_centre(const svg_layout *l, int space, double *x, double *y)
{
    space = ((space % TRACK_SPACES) + TRACK_SPACES) % TRACK_SPACES;
    *x = l->track_x + (space % TRACK_COLS + 0.5) * SPACE_PX;
    *y = l->track_y + (space / TRACK_COLS + 0.5) * SPACE_PX;
}

void svg_corner_anchor(int corner, double *x, double *y)
{
    corner = ((corner % 4) + 4) % 4;
    *x = corner == CARC_CORNER_NE || corner == CARC_CORNER_SE ? TILE_UNITS : 0;
    *y = corner == CARC_CORNER_SE || corner == CARC_CORNER_SW ? TILE_UNITS : 0;
}

/* How many figures before f the same player holds. */
static int held_before(const view *v, int f)
{
    int n = 0;
    for (int i = 0; i < f; i++) n += v->figs[i].where == CARC_AT_HELD && v->figs[i].space == v->figs[f].space;
    return n;
}

/* Followers on their segment's anchor; figures on a tile (dragon, fairy,
 * Ark) in its corners; figures at a corner (the barn) on the point where
 * the four tiles meet; robbers on their track space; figures a player
 * holds (prisoners) in a row after that player's line of the legend. */
void svg_figures(FILE *out, const svg_layout *l, const view *v)
{
    static const double corner_x[4] = {74, 26, 74, 26}, corner_y[4] = {74, 74, 26, 26};
    fprintf(out, "<g class=\"figures\">");
    for (int f = 0; f < v->nfigs; f++) {
        const view_figure *fg = &v->figs[f];
        int k = same_place_before(v, f);
        double x, y, s = l->tile / TILE_UNITS;
        if (fg->where == CARC_AT_TRACK) {
            svg_track_space_centre(l, fg->space, &x, &y);
            x += (fg->owner % 3 - 1) * 6.0;
            y += 4;
        } else if (fg->where == CARC_AT_HELD) {
            x = l->board_x + HELD_X + HELD_STEP * held_before(v, f);
            y = l->legend_y + fg->space * LEGEND_ROW + 6;
        } else {
            const view_tile *t = &v->tiles[fg->tile];
            if (fg->where == CARC_AT_SEGMENT) {
                svg_seg_anchor(t, fg->seg, &x, &y);
                x += 7 * k;
            } else if (fg->where == CARC_AT_CORNER) {
                svg_corner_anchor(fg->space, &x, &y);
                x += 7 * k;
            } else {
                x = corner_x[k % 4], y = corner_y[k % 4];
            }
            x = tile_px(l, t->x) + x * s;
            y = tile_py(l, t->y) + y * s;
        }
        figure_open(out, v, fg);
        icon_figure(out, fg->kind_name, fg->owner, x, y, view_off_board(fg) ? 0.6 : 0.75);
        fprintf(out, "</g>");
    }
    fprintf(out, "</g>\n");
}

void svg_track(FILE *out, const svg_layout *l)
{
    if (!l->nplayers) return;
    fprintf(out, "<g class=\"track\">");
    for (int s = 0; s < TRACK_SPACES; s++) {
        double x, y;
        svg_track_space_centre(l, s, &x, &y);
        fprintf(out, "<rect class=\"space\" data-space=\"%d\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/>", s,
                x - SPACE_PX / 2, y - SPACE_PX / 2, SPACE_PX, SPACE_PX);
        if (s % 5 == 0) fprintf(out, "<text class=\"space-label\" x=\"%g\" y=\"%g\">%d</text>", x, y - 3, s);
    }
    fprintf(out, "</g>\n");
}

/* Each player's marker on score mod 50, as on the printed track. */
void svg_markers(FILE *out, const svg_layout *l, const view *v)
{
    fprintf(out, "<g class=\"markers\">");
    for (int p = 0; p < v->nplayers; p++) {
        double x, y;
        svg_track_space_centre(l, v->scores[p], &x, &y);
        fprintf(out, "<circle class=\"marker\" data-seat=\"%d\" data-score=\"%d\" cx=\"%g\" cy=\"%g\" r=\"5\" "
                     "fill=\"%s\" stroke=\"#000\"><title>",
                p, v->scores[p], x + (p % 3 - 1) * 6.0, y - 3 + (p / 3) * 6.0, view_seat_colour(p));
        xml_text(out, v->names[p]);
        fprintf(out, ": %d</title></circle>", v->scores[p]);
    }
    fprintf(out, "</g>\n");
}

void svg_legend(FILE *out, const svg_layout *l, const view *v)
{
    fprintf(out, "<g class=\"legend-box\">");
    for (int p = 0; p < v->nplayers; p++) {
        double y = l->legend_y + p * LEGEND_ROW;
        fprintf(out, "<rect x=\"%g\" y=\"%g\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#000\"/>", l->board_x, y,
                view_seat_colour(p));
        fprintf(out, "<text class=\"legend score\" data-seat=\"%d\" data-score=\"%d\" x=\"%g\" y=\"%g\">%s: ", p,
                v->scores[p], l->board_x + 18, y + 10, view_seat_colour_name(p));
        xml_text(out, v->names[p]);
        fprintf(out, " %d</text>", v->scores[p]);
    }
    fprintf(out, "</g>\n");
}

void render_svg(FILE *out, const view *v)
{
    svg_layout l;
    svg_layout_of(&l, v);
    svg_open(out, &l, 1);
    svg_coords(out, &l);
    svg_tiles(out, &l, v);
    svg_figures(out, &l, v);
    svg_legend(out, &l, v);
    svg_track(out, &l);
    svg_markers(out, &l, v);
    svg_close(out);
}
