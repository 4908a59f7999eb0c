/* svg_icons.c - the small pictures: segment marks (pennant, scroll, oasis,
 * sheep, wolf, princess), tile marks (volcano, dragon symbol, portal, bag) and
 * figures (meeples in their owner's colour; dragon, fairy, Ark, robber). A
 * name nobody drew gets a badge with its initial in a colour of its own, so
 * a fan's marks and figures show too. Each is centred on (x, y). */
#include <math.h>
#include <string.h>

#include "render.h"

void name_colour(const char *name, char *buf, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a: the same name, the same colour */
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    double hue = (h % 360) / 60.0, c = 0.5, x = c * (1 - fabs(fmod(hue, 2) - 1)), m = 0.35;
    double rgb[6][3] = {{c, x, 0}, {x, c, 0}, {0, c, x}, {0, x, c}, {x, 0, c}, {c, 0, x}};
    const double *k = rgb[(int)hue % 6];
    snprintf(buf, n, "#%02x%02x%02x", (int)((k[0] + m) * 255), (int)((k[1] + m) * 255), (int)((k[2] + m) * 255));
}

static void title(FILE *out, const char *name, int count)
{
    fprintf(out, "<title>");
    xml_text(out, name);
    if (count > 1) fprintf(out, " x%d", count);
    fprintf(out, "</title>");
}

/* A round badge with the name's initial: for names with no picture. */
static void badge(FILE *out, const char *name, double x, double y, double r)
{
    char col[16], first[2] = {name[0], 0};
    name_colour(name, col, sizeof col);
    fprintf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"%g\" fill=\"%s\" stroke=\"#222\"/>", x, y, r, col);
    fprintf(out, "<text class=\"initial\" x=\"%g\" y=\"%g\" font-size=\"%g\">", x, y + r * 0.45, r * 1.3);
    xml_text(out, first);
    fprintf(out, "</text>");
}

void icon_mark(FILE *out, const char *name, int count, double x, double y)
{
    title(out, name, count);
    if (strcmp(name, "pennant") == 0)
        fprintf(out, "<path fill=\"#2b58b0\" stroke=\"#fff\" d=\"M%g %gh10v5q0 5-5 8q-5-3-5-8z\"/>", x - 5, y - 6);
    else if (strcmp(name, "scroll") == 0)
        fprintf(out, "<rect fill=\"#f6e7b5\" stroke=\"#8b6b2e\" x=\"%g\" y=\"%g\" width=\"12\" height=\"8\" rx=\"3\"/>",
                x - 6, y - 4);
    else if (strcmp(name, "oasis") == 0)
        fprintf(out, "<ellipse fill=\"#3aa0d8\" cx=\"%g\" cy=\"%g\" rx=\"6\" ry=\"3\"/>"
                     "<path fill=\"none\" stroke=\"#2e7d32\" stroke-width=\"2\" d=\"M%g %gv-8l-4 2m4-2l4 2\"/>",
                x, y + 3, x, y + 2);
    else if (strcmp(name, "sheep") == 0)
        fprintf(out, "<ellipse fill=\"#fff\" stroke=\"#555\" cx=\"%g\" cy=\"%g\" rx=\"6\" ry=\"4\"/>"
                     "<circle fill=\"#333\" cx=\"%g\" cy=\"%g\" r=\"2\"/>",
                x, y, x + 5, y - 2);
    else if (strcmp(name, "wolf") == 0)
        fprintf(out, "<path fill=\"#6b6b6b\" stroke=\"#222\" d=\"M%g %gl2-8l2 3h4l2-3l2 8z\"/>", x - 6, y + 4);
    else if (strcmp(name, "princess") == 0)
        fprintf(out, "<path fill=\"#f28ec4\" stroke=\"#8b2c5c\" d=\"M%g %gv-7l3 3l3-5l3 5l3-3v7z\"/>", x - 6, y + 4);
    else
        badge(out, name, x, y, 5);
    if (count > 1) fprintf(out, "<text class=\"count\" x=\"%g\" y=\"%g\">x%d</text>", x + 5, y + 9, count);
}

void icon_tile_mark(FILE *out, const char *name, double x, double y)
{
    title(out, name, 1);
    if (strcmp(name, "volcano") == 0)
        fprintf(out, "<path fill=\"#7b4a2a\" stroke=\"#3b2414\" d=\"M%g %gl10-20h12l10 20z\"/>"
                     "<path fill=\"#e8501b\" d=\"M%g %gl5 7l5-7z\"/>",
                x - 16, y + 12, x - 5, y - 8);
    else if (strcmp(name, "dragon") == 0)
        fprintf(out, "<circle fill=\"#b71c1c\" stroke=\"#fff\" cx=\"%g\" cy=\"%g\" r=\"8\"/>"
                     "<path fill=\"#fff\" d=\"M%g %gl5-8l2 5l4-3l-2 9z\"/>",
                x, y, x - 6, y + 3);
    else if (strcmp(name, "portal") == 0)
        fprintf(out, "<circle fill=\"#d7b8ff\" stroke=\"#7b3fbf\" stroke-width=\"3\" cx=\"%g\" cy=\"%g\" r=\"7\"/>", x, y);
    else if (strcmp(name, "bag") == 0)
        fprintf(out, "<path fill=\"#a57a3c\" stroke=\"#4e361a\" d=\"M%g %gq-2-9 4-11l-2-3h8l-2 3q6 2 4 11z\"/>", x - 6,
                y + 7);
    else
        badge(out, name, x, y, 7);
}

/* A meeple, 20 units tall, centred. */
static const char meeple[] = "M-2.5 -6A4 4 0 1 1 2.5 -6L9 -3L8 1L4 0L7 9H1.5L0 5L-1.5 9H-7L-4 0L-8 1L-9 -3Z";

void icon_figure(FILE *out, const char *kind, int owner, double x, double y, double scale)
{
    const char *fill = view_seat_colour(owner);
    fprintf(out, "<title>");
    xml_text(out, kind);
    fprintf(out, " (%s)</title><g transform=\"translate(%.1f %.1f) scale(%g)\">", view_seat_colour_name(owner), x, y,
            scale);
    if (strcmp(kind, "dragon") == 0)
        fprintf(out, "<path fill=\"#c62828\" stroke=\"#300\" d=\"M-10 6Q-4 -2 0 -4L-3 -10L4 -5Q9 -6 10 -1L5 0Q6 5 "
                     "10 9H-2L-3 4Z\"/>");
    else if (strcmp(kind, "fairy") == 0)
        fprintf(out, "<ellipse fill=\"#bfe9ff\" stroke=\"#2a6f97\" cx=\"-5\" cy=\"-3\" rx=\"5\" ry=\"7\"/>"
                     "<ellipse fill=\"#bfe9ff\" stroke=\"#2a6f97\" cx=\"5\" cy=\"-3\" rx=\"5\" ry=\"7\"/>"
                     "<circle fill=\"#f9d5e5\" stroke=\"#2a6f97\" cx=\"0\" cy=\"2\" r=\"4\"/>");
    else if (strcmp(kind, "ark") == 0)
        fprintf(out, "<rect fill=\"#e0b43c\" stroke=\"#5c4306\" x=\"-10\" y=\"-5\" width=\"20\" height=\"11\"/>"
                     "<path fill=\"none\" stroke=\"#5c4306\" stroke-width=\"2\" d=\"M-13 8H13\"/>");
    else if (strcmp(kind, "robber") == 0)
        fprintf(out, "<path fill=\"%s\" stroke=\"#000\" d=\"M-8 -6H8L0 8Z\"/>"
                     "<path fill=\"#000\" d=\"M-6 -4H6V-1H-6Z\"/>",
                fill);
    else if (owner < 0)
        fprintf(out, "<path fill=\"#fff\" stroke=\"#000\" d=\"M0 -10L10 0L0 10L-10 0Z\"/>");
    else
        fprintf(out, "<path fill=\"%s\" stroke=\"#000\" stroke-width=\"1\" d=\"%s\"/>", fill, meeple);
    /* Figures that are neither followers nor drawn above show their initial. */
    if (strcmp(kind, "follower") != 0 && strcmp(kind, "dragon") != 0 && strcmp(kind, "fairy") != 0 &&
        strcmp(kind, "ark") != 0 && strcmp(kind, "robber") != 0) {
        char first[2] = {kind[0], 0};
        fprintf(out, "<text class=\"initial fig-initial\" x=\"0\" y=\"5\">");
        xml_text(out, first);
        fprintf(out, "</text>");
    }
    fprintf(out, "</g>");
}
