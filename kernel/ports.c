/* ports.c - the 12 ports of a tile, rotations and directions. */
#include <string.h>

#include "core.h"

static const char *const port_names[CARC_PORTS] = {
    "Nw", "N", "Ne", "En", "E", "Es", "Se", "S", "Sw", "Ws", "W", "Wn"};

int port_side(int p) { return p / 3; }

int port_rotate(int p, int rot) { return (p + 3 * rot) % CARC_PORTS; }

const char *port_name(int p)
{
    return p >= 0 && p < CARC_PORTS ? port_names[p] : "inner";
}

int port_parse(const char *s)
{
    for (int i = 0; i < CARC_PORTS; i++)
        if (strcmp(s, port_names[i]) == 0) return i;
    return -1;
}

static const char *const dir_names[4] = {"N", "E", "S", "W"};

int dir_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, dir_names[i]) == 0) return i;
    return -1;
}

const char *dir_name(int d) { return dir_names[d & 3]; }

void dir_delta(int d, int *dx, int *dy)
{
    static const int ddx[4] = {0, 1, 0, -1}, ddy[4] = {-1, 0, 1, 0};
    *dx = ddx[d & 3];
    *dy = ddy[d & 3];
}
