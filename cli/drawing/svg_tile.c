/* svg_tile.c - one tile drawn from its segments alone, in tile units (0..100,
 * north up, board ports after rotation), so that any tile set draws, a fan's
 * included:
 *   - a field is the fan of its ports seen from the centre (the tile's ground
 *     is field-coloured, so the fan matters for highlighting and clicks);
 *   - a city runs along the edges it covers and closes between them with a
 *     curve, its wall;
 *   - a road joins the middles of its edges through the centre; a road with
 *     one edge ends in the centre (at a cloister, a volcano, a junction);
 *   - a segment touching no edge (cloister, temple, enclosed field, a fan's
 *     kind) stands in the middle;
 *   - any other kind on edges is drawn as a field of its own colour.
 * Marks stand near their segment's anchor, tile marks in the corners. */
#include <math.h>
#include <string.h>

#include "render.h"

#define C 50.0            /* the centre */
#define MID0 42.0         /* a side's middle port spans 42..58 of its 100 */
#define MID1 58.0

enum shape { SHAPE_FAN, SHAPE_CITY, SHAPE_ROAD, SHAPE_INNER };

static const double normal[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};

/* A point of the border by its distance clockwise from the north-west
 * corner (0..400). */
static void border_point(double t, double *x, double *y)
{
    int side = (int)(t / TILE_UNITS) % 4; /* 400 is the corner 0 again */
    double u = t - floor(t / TILE_UNITS) * TILE_UNITS;
    double xs[4] = {u, TILE_UNITS, TILE_UNITS - u, 0}, ys[4] = {0, u, TILE_UNITS, TILE_UNITS - u};
    *x = xs[side];
    *y = ys[side];
}

/* The stretch of border a port covers, clockwise. */
static void port_span(int port, double *t0, double *t1)
{
    static const double from[3] = {0, MID0, MID1}, to[3] = {MID0, MID1, TILE_UNITS};
    *t0 = (port / 3) * TILE_UNITS + from[port % 3];
    *t1 = (port / 3) * TILE_UNITS + to[port % 3];
}

static void port_point(int port, double *x, double *y)
{
    double t0, t1;
    port_span(port, &t0, &t1);
    border_point((t0 + t1) / 2, x, y);
}

static int popcount12(unsigned m)
{
    int n = 0;
    for (int p = 0; p < CARC_PORTS; p++) n += (m >> p) & 1u;
    return n;
}

static enum shape seg_shape(const view_seg *s)
{
    if (!s->ports) return SHAPE_INNER;
    if (strcmp(s->kind_name, "city") == 0) return SHAPE_CITY;
    if (strcmp(s->kind_name, "road") == 0) return SHAPE_ROAD;
    return SHAPE_FAN;
}

static bool covers_side(unsigned ports, int side) { return (ports >> (side * 3)) & 7u; }

/* ---- where things stand ------------------------------------------------------ */

/* Inner segments stand side by side in the middle. */
static void inner_slot(const view_tile *t, int seg, double *x, double *y)
{
    int n = 0, k = 0;
    for (int s = 0; s < t->nsegs; s++)
        if (!t->segs[s].ports) {
            if (s == seg) k = n;
            n++;
        }
    *x = C + (k - (n - 1) / 2.0) * 30;
    *y = C;
}

static void city_anchor(unsigned ports, double *x, double *y)
{
    double nx = 0, ny = 0;
    int n = 0;
    for (int side = 0; side < 4; side++)
        if (covers_side(ports, side)) nx += normal[side][0], ny += normal[side][1], n++;
    *x = C + 34 * nx / (n ? n : 1);
    *y = C + 34 * ny / (n ? n : 1);
}

/* The middle of a road through two edges, or part-way along a road that
 * ends in the centre. */
static void road_anchor(unsigned ports, double *x, double *y)
{
    double px[CARC_PORTS], py[CARC_PORTS];
    int n = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if ((ports >> p) & 1u) port_point(p, &px[n], &py[n]), n++;
    if (n == 2) {
        *x = 0.25 * px[0] + 0.5 * C + 0.25 * px[1];
        *y = 0.25 * py[0] + 0.5 * C + 0.25 * py[1];
    } else {
        *x = 0.55 * px[0] + 0.45 * C;
        *y = 0.55 * py[0] + 0.45 * C;
    }
}

/* Towards the mean of the field's ports, at a distance that keeps clear of
 * the centre (where cloisters and junctions are). */
static void fan_anchor(unsigned ports, double *x, double *y)
{
    double sx = 0, sy = 0, fx = 0, fy = 0;
    int n = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if ((ports >> p) & 1u) {
            double px, py;
            port_point(p, &px, &py);
            if (!n) fx = px - C, fy = py - C;
            sx += px, sy += py, n++;
        }
    double dx = sx / n - C, dy = sy / n - C, d = sqrt(dx * dx + dy * dy), r;
    if (d < 1) {
        dx = fx, dy = fy, d = sqrt(dx * dx + dy * dy), r = 34;
    } else {
        r = fmin(fmax(d * 0.7, 24), 36);
    }
    *x = C + dx / d * r;
    *y = C + dy / d * r;
}

void svg_seg_anchor(const view_tile *t, int seg, double *x, double *y)
{
    *x = *y = C;
    if (seg < 0 || seg >= t->nsegs) return;
    const view_seg *s = &t->segs[seg];
    switch (seg_shape(s)) {
    case SHAPE_INNER: inner_slot(t, seg, x, y); break;
    case SHAPE_CITY: city_anchor(s->ports, x, y); break;
    case SHAPE_ROAD: road_anchor(s->ports, x, y); break;
    case SHAPE_FAN: fan_anchor(s->ports, x, y); break;
    }
}

/* ---- path data --------------------------------------------------------------- */

/* The fans of each run of neighbouring ports: centre, then along the border. */
static void fan_path(FILE *out, unsigned ports)
{
    ports &= 0xfffu;
    for (int a = 0; a < CARC_PORTS; a++) {
        int prev = (a + CARC_PORTS - 1) % CARC_PORTS;
        bool starts = ((ports >> a) & 1u) && (!((ports >> prev) & 1u) || (ports == 0xfffu && a == 0));
        if (!starts) continue;
        double t0, t1, x, y;
        port_span(a, &t0, &t1);
        border_point(t0, &x, &y);
        fprintf(out, "M%g %gL%.1f %.1f", C, C, x, y);
        for (int i = 0, p = a; i < CARC_PORTS && ((ports >> p) & 1u); i++, p = (p + 1) % CARC_PORTS) {
            port_span(p, &t0, &t1);
            border_point(t1, &x, &y);
            fprintf(out, "L%.1f %.1f", x, y);
        }
        fputc('Z', out);
    }
}

/* The control point of the curve that closes a city across the sides it
 * leaves out: the centre across one side, pulled away from the city across
 * more, so a cap bulges and a corner city bends. */
static void gap_control(int from_side, int to_side, double *cx, double *cy)
{
    int gap = (to_side - from_side + 3) % 4; /* sides left out between them */
    double nx = 0, ny = 0;
    for (int s = (from_side + 1) % 4, i = 0; i < gap; s = (s + 1) % 4, i++) nx += normal[s][0], ny += normal[s][1];
    double k = gap >= 2 ? 15 : 0;
    *cx = C + k * nx;
    *cy = C + k * ny;
}

static void corner(int side, int end, double *x, double *y)
{
    border_point(((side + end) % 4) * TILE_UNITS, x, y);
}

/* The next covered side after `side`, clockwise (itself when alone). */
static int next_covered(unsigned ports, int side)
{
    for (int i = 1; i <= 4; i++)
        if (covers_side(ports, (side + i) % 4)) return (side + i) % 4;
    return side;
}

/* Along every covered edge; across the left-out sides by a curve. With
 * walls_only, just the curves. */
static void city_path(FILE *out, unsigned ports, bool walls_only)
{
    int first = -1;
    for (int s = 0; s < 4 && first < 0; s++)
        if (covers_side(ports, s) && !covers_side(ports, (s + 3) % 4)) first = s;
    if (first < 0) { /* all four sides */
        if (!walls_only) fprintf(out, "M0 0H100V100H0Z");
        return;
    }
    double x, y, cx, cy;
    int s = first;
    corner(s, 0, &x, &y);
    if (!walls_only) fprintf(out, "M%g %g", x, y);
    do {
        corner(s, 1, &x, &y);
        if (!walls_only) fprintf(out, "L%g %g", x, y);
        while (covers_side(ports, (s + 1) % 4) && (s + 1) % 4 != first) {
            s = (s + 1) % 4;
            corner(s, 1, &x, &y);
            if (!walls_only) fprintf(out, "L%g %g", x, y);
        }
        int t = next_covered(ports, s);
        gap_control(s, t, &cx, &cy);
        if (walls_only) fprintf(out, "M%g %g", x, y);
        corner(t, 0, &x, &y);
        fprintf(out, "Q%g %g %g %g", cx, cy, x, y);
        s = t;
    } while (s != first);
    if (!walls_only) fputc('Z', out);
}

/* Two edges: a curve through the centre; one: to the centre; more: a star. */
static void road_path(FILE *out, unsigned ports)
{
    double px[CARC_PORTS], py[CARC_PORTS];
    int n = 0;
    for (int p = 0; p < CARC_PORTS; p++)
        if ((ports >> p) & 1u) port_point(p, &px[n], &py[n]), n++;
    if (n == 2) {
        fprintf(out, "M%g %gQ%g %g %g %g", px[0], py[0], C, C, px[1], py[1]);
        return;
    }
    for (int i = 0; i < n; i++) fprintf(out, "M%g %gL%g %g", px[i], py[i], C, C);
}

/* ---- the shapes ------------------------------------------------------------- */

static const char *const port_names[CARC_PORTS] = {"Nw", "N", "Ne", "En", "E", "Es",
                                                   "Se", "S", "Sw", "Ws", "W", "Wn"};

/* The attributes that name a segment: its kind as a class, its tile's
 * position, its number and its record name. */
static void seg_attrs(FILE *out, const view *v, int tile, int seg, const char *extra)
{
    const view_tile *t = &v->tiles[tile];
    const view_seg *s = &t->segs[seg];
    fprintf(out, " class=\"seg ");
    xml_text(out, s->kind_name);
    fprintf(out, "%s\" id=\"t%ds%d\" data-tile=\"%d\" data-seg=\"%d\" data-x=\"%d\" data-y=\"%d\" data-kind=\"", extra,
            tile, seg, tile, seg, t->x, t->y);
    xml_text(out, s->kind_name);
    fprintf(out, "\" data-name=\"");
    xml_text(out, s->kind_name);
    fprintf(out, "@%s\"", s->canon_port >= 0 ? port_names[s->canon_port] : "inner");
}

/* A kind with no style of its own gets a colour from its name. */
static void own_fill(FILE *out, const char *kind)
{
    static const char *const styled[] = {"city", "road", "field", "cloister", "temple"};
    for (size_t i = 0; i < sizeof styled / sizeof styled[0]; i++)
        if (strcmp(kind, styled[i]) == 0) return;
    char col[16];
    name_colour(kind, col, sizeof col);
    fprintf(out, " fill=\"%s\"", col);
}

static void inner_shape(FILE *out, const view *v, int tile, int seg)
{
    const view_tile *t = &v->tiles[tile];
    const char *k = t->segs[seg].kind_name;
    double x, y;
    inner_slot(t, seg, &x, &y);
    if (strcmp(k, "cloister") == 0) {
        fprintf(out, "<path");
        seg_attrs(out, v, tile, seg, " inner");
        fprintf(out, " d=\"M%g %gv-17l13 -11l13 11v17z\"/>", x - 13, y + 13);
        fprintf(out, "<path class=\"deco roof\" d=\"M%g %gl15 -13l15 13z\"/>", x - 15, y - 3);
        fprintf(out, "<path class=\"deco door\" d=\"M%g %gv-8h6v8z\"/>", x - 3, y + 13);
    } else if (strcmp(k, "temple") == 0) {
        fprintf(out, "<path");
        seg_attrs(out, v, tile, seg, " inner");
        fprintf(out, " d=\"M%g %gh28l-3 -5v-12l3 -4l-14 -7l-14 7l3 4v12z\"/>", x - 14, y + 13);
        fprintf(out, "<path class=\"deco columns\" d=\"M%g %gv11M%g %gv11M%g %gv11\"/>", x - 6, y - 3, x, y - 3, x + 6,
                y - 3);
    } else {
        fprintf(out, "<circle");
        seg_attrs(out, v, tile, seg, " inner");
        own_fill(out, k);
        fprintf(out, " cx=\"%g\" cy=\"%g\" r=\"13\"/>", x, y);
        if (strcmp(k, "field") != 0) {
            fprintf(out, "<text class=\"deco kind-letter\" x=\"%g\" y=\"%g\">", x, y + 5);
            char first[2] = {k[0], 0};
            xml_text(out, first);
            fprintf(out, "</text>");
        }
    }
}

static void seg_shape_svg(FILE *out, const view *v, int tile, int seg)
{
    const view_seg *s = &v->tiles[tile].segs[seg];
    switch (seg_shape(s)) {
    case SHAPE_INNER: inner_shape(out, v, tile, seg); return;
    case SHAPE_FAN:
        fprintf(out, "<path");
        seg_attrs(out, v, tile, seg, "");
        own_fill(out, s->kind_name);
        fprintf(out, " d=\"");
        fan_path(out, s->ports);
        break;
    case SHAPE_CITY:
        fprintf(out, "<path");
        seg_attrs(out, v, tile, seg, "");
        fprintf(out, " d=\"");
        city_path(out, s->ports, false);
        break;
    case SHAPE_ROAD:
        fprintf(out, "<path class=\"deco road-edge\" d=\"");
        road_path(out, s->ports);
        fprintf(out, "\"/><path");
        seg_attrs(out, v, tile, seg, "");
        fprintf(out, " d=\"");
        road_path(out, s->ports);
        break;
    }
    fprintf(out, "\"/>");
    if (seg_shape(s) == SHAPE_CITY && popcount12(s->ports) < CARC_PORTS) {
        fprintf(out, "<path class=\"deco wall\" d=\"");
        city_path(out, s->ports, true);
        fprintf(out, "\"/>");
    }
}

/* ---- marks --------------------------------------------------------------------- */

static void seg_marks(FILE *out, const view *v, const view_tile *t, int seg)
{
    const view_seg *s = &t->segs[seg];
    double ax, ay;
    svg_seg_anchor(t, seg, &ax, &ay);
    for (int m = 0; m < s->nmarks; m++) {
        /* Beside the anchor, where a figure stands, one after the other. */
        double x = ax + 15 + 11 * m, y = ay - 8;
        if (x > 92) x = ax - 15 - 11 * m;
        fprintf(out, "<g class=\"mark ");
        xml_text(out, carc_mark_name(v->rules, s->marks[m].mark));
        fprintf(out, "\" data-mark=\"");
        xml_text(out, carc_mark_name(v->rules, s->marks[m].mark));
        fprintf(out, "\" data-count=\"%d\" data-seg=\"%d\">", s->marks[m].count, seg);
        icon_mark(out, carc_mark_name(v->rules, s->marks[m].mark), s->marks[m].count, x, y);
        fprintf(out, "</g>");
    }
}

/* The volcano fills the middle; the other tile marks take the corners. The
 * start mark is left out: it says one copy of the type started the game. */
static void tile_marks(FILE *out, const view *v, const view_tile *t)
{
    static const double cx[4] = {86, 14, 86, 14}, cy[4] = {86, 86, 14, 14};
    int k = 0;
    for (int m = 0; m < carc_tile_marks(v->rules) && m < 32; m++) {
        if (!((t->tile_marks >> m) & 1u)) continue;
        const char *name = carc_tile_mark_name(v->rules, m);
        if (strcmp(name, "start") == 0) continue;
        bool centre = strcmp(name, "volcano") == 0;
        fprintf(out, "<g class=\"tmark ");
        xml_text(out, name);
        fprintf(out, "\" data-mark=\"");
        xml_text(out, name);
        fprintf(out, "\">");
        icon_tile_mark(out, name, centre ? C : cx[k % 4], centre ? C : cy[k % 4]);
        fprintf(out, "</g>");
        if (!centre) k++;
    }
}

/* Roads that end in the centre with nothing there meet at a junction. */
static void junction(FILE *out, const view_tile *t, const view *v)
{
    int ends = 0;
    for (int s = 0; s < t->nsegs; s++) {
        if (!t->segs[s].ports) return;
        if (seg_shape(&t->segs[s]) == SHAPE_ROAD && popcount12(t->segs[s].ports) != 2) ends++;
    }
    int volcano = -1;
    for (int m = 0; m < carc_tile_marks(v->rules); m++)
        if (strcmp(carc_tile_mark_name(v->rules, m), "volcano") == 0) volcano = m;
    if (volcano >= 0 && ((t->tile_marks >> volcano) & 1u)) return;
    if (ends) fprintf(out, "<rect class=\"deco junction\" x=\"43\" y=\"43\" width=\"14\" height=\"14\"/>");
}

/* Fields first, then roads, cities over them (a road under a city is a
 * tunnel), then what stands inside, then marks. */
void svg_tile(FILE *out, const view *v, int tile)
{
    const view_tile *t = &v->tiles[tile];
    static const enum shape order[4] = {SHAPE_FAN, SHAPE_ROAD, SHAPE_CITY, SHAPE_INNER};
    fprintf(out, "<rect class=\"ground\" width=\"100\" height=\"100\"/>");
    for (int k = 0; k < 4; k++) {
        if (order[k] == SHAPE_CITY) junction(out, t, v);
        for (int s = 0; s < t->nsegs; s++)
            if (seg_shape(&t->segs[s]) == order[k]) seg_shape_svg(out, v, tile, s);
    }
    tile_marks(out, v, t);
    for (int s = 0; s < t->nsegs; s++) seg_marks(out, v, t, s);
}
