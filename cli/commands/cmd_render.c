/* cmd_render.c - carc render: a game record as an SVG picture of the board,
 * or as an HTML page that replays it; a tile set as a sheet of its tiles. */
#include <stdio.h>
#include <string.h>

#include "term_text.h"
#include "commands.h"
#include "frames.h"
#include "render.h"

typedef struct render_args {
    const char *record, *tiles, *svg, *html;
    int turn;           /* -1: the end */
} render_args;

/* The flags that need each other: a record or a tile set, and where to draw. */
static int read_args(const cli_args *args, render_args *a)
{
    *a = (render_args){args->noperands ? args->operands[0] : NULL, cli_text(args, "--tiles", NULL),
                       cli_text(args, "--svg", NULL), cli_text(args, "--html", NULL), cli_int(args, "--turn", -1)};
    if ((!a->record == !a->tiles) || (!a->svg && !a->html) || (a->tiles && (a->html || a->turn >= 0))) {
        fprintf(stderr, "carc render: %s\n",
                !a->record == !a->tiles ? "give a record FILE or --tiles TILESET.ini (one of them)"
                : a->tiles && a->html   ? "--tiles draws an SVG sheet: give --svg, not --html"
                : a->tiles              ? "--turn is a turn of a game record; a tile set has none"
                                        : "give --svg OUT.svg or --html OUT.html (or both)");
        cli_usage_line(&command_render, stderr);
        return 2;
    }
    return 0;
}

static FILE *open_out(const char *path)
{
    if (strcmp(path, "-") == 0) return stdout;
    FILE *f = fopen(path, "w");
    if (!f) perror(path);
    return f;
}

/* Closes the output; a failed write (full disk) is an error. */
static int close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout) bad |= fclose(f) != 0;
    else bad |= fflush(f) != 0;
    if (bad) fprintf(stderr, "carc render: cannot write %s\n", path);
    return bad ? -1 : 0;
}

static int write_svg(const view *v, const char *path)
{
    FILE *f = open_out(path);
    if (!f) return -1;
    render_svg(f, v);
    return close_out(f, path);
}

static int render_tiles(const render_args *a)
{
    char err[1024] = "";
    carc_rules *r = carc_rules_from_tileset(a->tiles, err, sizeof err);
    if (!r) {
        term_error("carc render", err);
        return 1;
    }
    view v;
    int rc = view_of_types(&v, r, 8) < 0 ? -1 : write_svg(&v, a->svg);
    view_free(&v);
    carc_rules_free(r);
    return rc < 0 ? 1 : 0;
}

/* Keeps the view of the frame asked for, or of the last one. */
typedef struct pick {
    int turn;
    int have;
    view v;
} pick;

static int pick_frame(void *user, const carc_game *g, const frame_info *fi)
{
    pick *p = user;
    if (fi->frame != p->turn && !fi->last) return 0;
    if (view_of_game(&p->v, g) == 0) p->have = 1;
    return 1;
}

static int svg_of_record(const carc_record *rec, const carc_rules *rules, const render_args *a)
{
    char err[8192] = "";
    pick p = {a->turn, 0, {0}};
    if (frames_replay(rec, rules, pick_frame, &p, err, sizeof err) < 0) {
        term_error("carc render", err);
        if (p.have) view_free(&p.v);
        return -1;
    }
    int rc = p.have ? write_svg(&p.v, a->svg) : -1;
    if (p.have) view_free(&p.v);
    return rc;
}

static int html_of_record(const carc_record *rec, const carc_rules *rules, const render_args *a)
{
    char err[8192] = "";
    FILE *f = open_out(a->html);
    if (!f) return -1;
    int rc = render_html(f, rec, rules, a->turn, err, sizeof err);
    if (rc < 0) term_error("carc render", err);
    return close_out(f, a->html) < 0 ? -1 : rc;
}

static int count_frame(void *user, const carc_game *g, const frame_info *fi)
{
    (void)g;
    *(int *)user = fi->frame;
    return 0;
}

/* --turn N must be a turn of the game: 0 (the start tile) to its last. */
static int check_turn(const carc_record *rec, const carc_rules *rules, const render_args *a)
{
    if (a->turn < 0) return 0;
    char err[8192] = "";
    int last = 0;
    if (frames_replay(rec, rules, count_frame, &last, err, sizeof err) < 0) {
        fprintf(stderr, "carc render: %s\n", err);
        return 1;
    }
    if (a->turn > last) {
        fprintf(stderr, "carc render: --turn %d: the game of %s ends at turn %d (--turn 0 is the start tile alone)\n",
                a->turn, a->record, last);
        return 2;
    }
    return 0;
}

/* The record is replayed once whole first, for carc replay's messages. */
static int render_record(const render_args *a)
{
    char err[8192] = "";
    carc_record rec;
    if (carc_record_load(a->record, &rec, err, sizeof err) < 0) {
        term_error("carc render", err);
        return 1;
    }
    carc_rules *rules = carc_record_rules(&rec, err, sizeof err);
    carc_game *g = NULL;
    int rc = rules ? carc_replay(&rec, rules, &g, err, sizeof err) : -1;
    carc_game_free(g);
    if (rc < 0) term_error("carc render", err);
    int bad_turn = rc == 0 ? check_turn(&rec, rules, a) : 0;
    if (bad_turn) {
        carc_rules_free(rules);
        carc_record_free(&rec);
        return bad_turn;
    }
    if (rc == 0 && a->svg) rc = svg_of_record(&rec, rules, a);
    if (rc == 0 && a->html) rc = html_of_record(&rec, rules, a);
    if (rules) carc_rules_free(rules);
    carc_record_free(&rec);
    return rc < 0 ? 1 : 0;
}

static int run(const cli_args *args)
{
    render_args a;
    int rc = read_args(args, &a);
    if (rc) return rc;
    return a.tiles ? render_tiles(&a) : render_record(&a);
}

static const cli_flag flags[] = {
    FLAG_INT("--turn", "N", 0, 1000000, "the board after turn N (0: the start tile alone;\n"
                                        "default: the end); with --html, where the page opens"),
    FLAG_TEXT("--svg", "OUT.svg", "draw the board (or the tile set) as SVG into OUT.svg"),
    FLAG_TEXT("--html", "OUT.html", "write a self-contained page that replays the game"),
    FLAG_TEXT("--tiles", "TILESET.ini", "draw every tile type of a tile-set file instead,\n"
                                        "eight to a row (with --svg)"),
    FLAG_ALLOW_PLUGIN_PATHS("the record's variant"),
};

const cli_command command_render = {
    .name = "render",
    .operands = "[FILE]",
    .min_operands = 0,
    .max_operands = 1,
    .summary = "draw a game record: an SVG board or an HTML replay page",
    .about = "Draws a game record FILE: --svg the board at the end of the game (or after\n"
             "turn N: 0 is the start tile alone) with its figures, scores and score track;\n"
             "--html one self-contained page that replays the game turn by turn (slider,\n"
             "step buttons, moves, scores; it opens at turn N, or at the end). --tiles\n"
             "TILESET.ini --svg OUT.svg draws every tile type of a tile-set file instead.\n"
             "OUT may be '-' for standard output. See docs/render.md.\n",
    CLI_FLAGS(flags),
    .run = run,
};
