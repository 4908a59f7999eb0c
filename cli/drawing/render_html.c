/* render_html.c - one self-contained HTML page that replays a game: the board
 * as inline SVG (every tile of the end, hidden until its turn; one group of
 * figures, markers and scores per turn), a slider and step buttons, the
 * moves and the scores turn by turn, and each turn's scoring highlighted.
 * No network: the style and script are inline. The page honours
 * ?turn=N|last and ?play=all (steps from the start to the end with the
 * "next" button's code); see docs/render.md. */
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "render.h"
#include "json_io.h"

/* The page being built: parts that grow turn by turn go to memory first. */
typedef struct page {
    const carc_record *rec;
    const carc_rules *rules;
    svg_layout layout;
    FILE *frames, *json, *rows;  /* open_memstream buffers */
    char *frames_buf, *json_buf, *rows_buf;
    size_t frames_len, json_len, rows_len;
    int nframes, finished;
    int failed, too_large;
    long max_bytes;
} page;

static const char page_style[] =
    "body{font-family:sans-serif;margin:12px;background:#f3f1ea;color:#222}"
    "h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:12px 0 4px}"
    "#controls{display:flex;gap:6px;align-items:center;margin:8px 0}"
    "#controls button{font-size:14px;padding:3px 9px}#slider{flex:1;max-width:520px}"
    "#turn-label{font-weight:bold;min-width:220px}"
    "#main{display:flex;gap:14px;align-items:flex-start}"
    "#board{overflow:auto;max-width:calc(100vw - 470px);max-height:88vh;border:1px solid #bbb;background:#fbfaf6}"
    "#side{width:440px;flex:none}"
    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 5px;text-align:left}"
    "#scores td.score{font-weight:bold;text-align:right;min-width:40px}"
    ".swatch{display:inline-block;width:11px;height:11px;border:1px solid #000}"
    "#moves-box{max-height:55vh;overflow:auto}#moves td.moves{font-family:monospace;font-size:12px}"
    "#moves tr.current{background:#fff3a8}#moves td.num{text-align:right}"
    "#awards{margin:0;padding-left:18px;font-size:13px;min-height:18px}"
    ".tile.newest>.ground{stroke:#ff2d2d;stroke-width:4}";

static const char page_script[] =
    "(function(){\n"
    "var N=FRAMES.length,cur=-1,timer=null;\n"
    "var tiles=document.querySelectorAll('g.tile');\n"
    "var groups=document.querySelectorAll('g.frame');\n"
    "var rows=document.querySelectorAll('#moves tbody tr');\n"
    "var slider=document.getElementById('slider');\n"
    "function $(id){return document.getElementById(id);}\n"
    "function label(k){var f=FRAMES[k];\n"
    "  if(k===0)return 'start: the start tile';\n"
    "  var s='turn '+k+' of '+(N-1)+' ('+NAMES[f.active]+')';\n"
    "  if(f.last)s+=FINISHED?' \\u2014 game over, final scoring':' \\u2014 game in progress';\n"
    "  return s;}\n"
    "function show(k){\n"
    "  k=Math.max(0,Math.min(N-1,k|0));var f=FRAMES[k];\n"
    "  tiles.forEach(function(t,i){t.style.display=i<f.tiles?'':'none';\n"
    "    t.classList.toggle('newest',k>0&&i===f.tiles-1);});\n"
    "  groups.forEach(function(g){g.style.display=(+g.getAttribute('data-frame'))===k?'':'none';});\n"
    "  document.querySelectorAll('.scored').forEach(function(e){e.classList.remove('scored');});\n"
    "  f.scored.forEach(function(id){var e=$(id);if(e)e.classList.add('scored');});\n"
    "  f.scores.forEach(function(s,p){$('score-'+p).textContent=s;});\n"
    "  var ul=$('awards');ul.textContent='';\n"
    "  f.awards.forEach(function(a){var li=document.createElement('li');\n"
    "    li.textContent=NAMES[a[0]]+' +'+a[1]+' '+a[2]+(a[3]?' (final)':'');ul.appendChild(li);});\n"
    "  if(!f.awards.length){var li=document.createElement('li');li.textContent='no points';ul.appendChild(li);}\n"
    "  rows.forEach(function(r,i){r.classList.toggle('current',i===k);});\n"
    "  var box=$('moves-box');if(rows[k])box.scrollTop=rows[k].offsetTop-box.clientHeight/2;\n"
    "  slider.value=k;$('turn-label').textContent=label(k);\n"
    "  cur=k;document.body.setAttribute('data-frame',k);}\n"
    "function next(){show(cur+1);}\n"
    "function stop(){if(timer){clearInterval(timer);timer=null;$('play').textContent='play';}}\n"
    "$('first').onclick=function(){stop();show(0);};\n"
    "$('prev').onclick=function(){stop();show(cur-1);};\n"
    "$('next').onclick=function(){stop();next();};\n"
    "$('last').onclick=function(){stop();show(N-1);};\n"
    "$('play').onclick=function(){if(timer){stop();return;}if(cur>=N-1)show(0);\n"
    "  $('play').textContent='pause';timer=setInterval(function(){if(cur>=N-1)stop();else next();},700);};\n"
    "slider.oninput=function(){stop();show(+slider.value);};\n"
    "document.addEventListener('keydown',function(e){if(e.key==='ArrowRight')next();\n"
    "  else if(e.key==='ArrowLeft')show(cur-1);});\n"
    "var q=new URLSearchParams(location.search),t=q.get('turn');\n"
    "if(q.get('play')==='all'){show(0);var steps=0;while(cur<N-1){next();steps++;}\n"
    "  document.body.setAttribute('data-stepped',steps);}\n"
    "else if(t==='last')show(N-1);\n"
    "else if(t!==null&&t!==''&&!isNaN(+t))show(+t);\n"
    "else show(START);\n"
    "})();\n";

/* The segments of the features scored in this frame, as "t<tile>s<seg>". */
static json_t *scored_json(const carc_game *g, const frame_info *fi)
{
    json_t *ids = json_array();
    for (int e = fi->first_award; e < fi->end_award; e++) {
        int feature = carc_award_at(g, e)->feature, seen = 0;
        for (int d = fi->first_award; d < e; d++) seen |= carc_award_at(g, d)->feature == feature;
        if (feature < 0 || seen) continue;
        for (int t = 0; t < carc_tiles_placed(g); t++)
            for (int s = 0; s < carc_segment_count(g, t); s++)
                if (carc_feature_of(g, t, s) == feature) {
                    char id[32];
                    snprintf(id, sizeof id, "t%ds%d", t, s);
                    json_array_append_new(ids, json_string(id));
                }
    }
    return ids;
}

/* One element of FRAMES: the tiles laid, whose turn, the scores, the
 * awards as [seat, points, reason, final], the scored segments. */
static void frame_json(page *pg, const carc_game *g, const frame_info *fi)
{
    json_t *scores = json_array(), *awards = json_array();
    for (int p = 0; p < carc_players(g); p++) json_array_append_new(scores, json_integer(carc_score(g, p)));
    for (int e = fi->first_award; e < fi->end_award; e++) {
        const carc_award *a = carc_award_at(g, e);
        json_array_append_new(awards, json_pack("[i, i, o, i]", a->player, a->points,
                                                json_text(carc_reason_name(pg->rules, a->reason)),
                                                (a->flags & CARC_AWARD_FINAL) ? 1 : 0));
    }
    json_t *f = json_pack("{s:i, s:i, s:b, s:o, s:o, s:o}", "tiles", carc_tiles_placed(g), "active", fi->active, "last",
                          fi->last, "scores", scores, "awards", awards, "scored", scored_json(g, fi));
    if (fi->frame) fputs(",\n", pg->json);
    if (json_print_new(pg->json, f) < 0) pg->failed = 1;
}

/* One row of the moves table: the turn, whose it was, its record lines, the
 * points it brought and the scores after it. */
static void frame_row(page *pg, const carc_game *g, const frame_info *fi)
{
    FILE *r = pg->rows;
    fprintf(r, "<tr data-frame=\"%d\"><td class=\"num\">%d</td><td>", fi->frame, fi->frame);
    if (fi->active >= 0) {
        fprintf(r, "<span class=\"swatch\" style=\"background:%s\"></span> ", view_seat_colour(fi->active));
        xml_text(r, carc_player_name(g, fi->active));
    } else {
        fprintf(r, "start");
    }
    fprintf(r, "</td><td class=\"moves\">");
    for (int i = fi->first_line; i < fi->end_line; i++) {
        if (i > fi->first_line) fprintf(r, "<br>");
        xml_text(r, pg->rec->lines[i].text);
    }
    fprintf(r, "</td><td>");
    for (int e = fi->first_award; e < fi->end_award; e++) {
        const carc_award *a = carc_award_at(g, e);
        fprintf(r, "%s%+d %s ", e > fi->first_award ? "<br>" : "", a->points, view_seat_colour_name(a->player));
        xml_text(r, carc_reason_name(pg->rules, a->reason));
    }
    fprintf(r, "</td>");
    for (int p = 0; p < carc_players(g); p++) fprintf(r, "<td class=\"num\">%d</td>", carc_score(g, p));
    fprintf(r, "</tr>\n");
}

static int on_frame(void *user, const carc_game *g, const frame_info *fi)
{
    page *pg = user;
    view v;
    if (view_of_game(&v, g) < 0) {
        pg->failed = 1;
        return 1;
    }
    fprintf(pg->frames, "<g class=\"frame\" data-frame=\"%d\"%s>\n", fi->frame, fi->last ? "" : " style=\"display:none\"");
    svg_figures(pg->frames, &pg->layout, &v);
    svg_markers(pg->frames, &pg->layout, &v);
    svg_legend(pg->frames, &pg->layout, &v);
    fprintf(pg->frames, "</g>\n");
    view_free(&v);
    frame_json(pg, g, fi);
    frame_row(pg, g, fi);
    pg->nframes++;
    if (ftell(pg->frames) + ftell(pg->json) + ftell(pg->rows) > pg->max_bytes) {
        pg->too_large = 1;
        return 1;
    }
    pg->finished = carc_is_finished(g);
    return 0;
}

static void head(FILE *out, const page *pg)
{
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>carc: ");
    xml_text(out, carc_rules_title(pg->rules));
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", page_style);
    xml_text(out, carc_rules_title(pg->rules));
    fprintf(out, "</h1>\n<div>record ");
    xml_text(out, pg->rec->path);
    fprintf(out, ", seed %llu:", (unsigned long long)pg->rec->seed);
    for (int p = 0; p < pg->rec->nplayers; p++) {
        fprintf(out, " <span class=\"swatch\" style=\"background:%s\"></span> ", view_seat_colour(p));
        xml_text(out, pg->rec->names[p]);
        fprintf(out, " (");
        xml_text(out, pg->rec->agents[p]);
        fprintf(out, ")");
    }
    fprintf(out, "</div>\n<div id=\"controls\"><button id=\"first\" title=\"start\">|&lt;</button>"
                 "<button id=\"prev\" title=\"previous turn\">&lt;</button>"
                 "<input id=\"slider\" type=\"range\" min=\"0\" max=\"%d\" value=\"%d\">"
                 "<button id=\"next\" title=\"next turn\">&gt;</button>"
                 "<button id=\"last\" title=\"end\">&gt;|</button><button id=\"play\">play</button>"
                 "<span id=\"turn-label\"></span></div>\n",
            pg->nframes - 1, pg->nframes - 1);
}

static void side(FILE *out, const page *pg, const carc_game *end)
{
    fprintf(out, "<div id=\"side\">\n<table id=\"scores\"><tr><th>player</th><th>score</th></tr>\n");
    for (int p = 0; p < carc_players(end); p++) {
        fprintf(out, "<tr><td><span class=\"swatch\" style=\"background:%s\"></span> ", view_seat_colour(p));
        xml_text(out, carc_player_name(end, p));
        fprintf(out, "</td><td class=\"score\" id=\"score-%d\" data-seat=\"%d\">%d</td></tr>\n", p, p,
                carc_score(end, p));
    }
    fprintf(out, "</table>\n<h2>Scoring this turn</h2>\n<ul id=\"awards\"></ul>\n<h2>Moves</h2>\n<div id=\"moves-box\">"
                 "<table id=\"moves\"><thead><tr><th>turn</th><th>player</th><th>moves</th><th>points</th>");
    for (int p = 0; p < carc_players(end); p++) {
        fprintf(out, "<th>");
        xml_text(out, carc_player_name(end, p));
        fprintf(out, "</th>");
    }
    fprintf(out, "</tr></thead>\n<tbody>\n");
    fwrite(pg->rows_buf, 1, pg->rows_len, out);
    fprintf(out, "</tbody></table></div>\n</div>\n");
}

static void script(FILE *out, const page *pg, const carc_game *end, int start)
{
    fprintf(out, "<script>\nvar FRAMES=[\n");
    fwrite(pg->json_buf, 1, pg->json_len, out);
    json_t *names = json_array();
    for (int p = 0; p < carc_players(end); p++) json_array_append_new(names, json_text(carc_player_name(end, p)));
    fprintf(out, "];\nvar NAMES=");
    json_print_new(out, names);
    fprintf(out, ";\nvar FINISHED=%s;\nvar START=%d;\n%s</script>\n", pg->finished ? "true" : "false", start,
            page_script);
}

static void write_page(FILE *out, const page *pg, const view *end_view, const carc_game *end, int start)
{
    head(out, pg);
    fprintf(out, "<div id=\"main\">\n<div id=\"board\">\n");
    svg_open(out, &pg->layout, 0);
    svg_coords(out, &pg->layout);
    svg_tiles(out, &pg->layout, end_view);
    svg_track(out, &pg->layout);
    fwrite(pg->frames_buf, 1, pg->frames_len, out);
    svg_close(out);
    fprintf(out, "</div>\n");
    side(out, pg, end);
    fprintf(out, "</div>\n");
    script(out, pg, end, start);
    fprintf(out, "</body>\n</html>\n");
}

static void close_buffers(page *pg)
{
    if (pg->frames) fclose(pg->frames);
    if (pg->json) fclose(pg->json);
    if (pg->rows) fclose(pg->rows);
    pg->frames = pg->json = pg->rows = NULL;
}

int render_html(FILE *out, const carc_record *rec, const carc_rules *rules, int start_turn, char *err,
                size_t errn)
{
    return render_html_limited(out, rec, rules, start_turn, RENDER_HTML_MAX_BYTES, err, errn);
}

/* The whole game first, for the board's extent; then turn by turn. */
int render_html_limited(FILE *out, const carc_record *rec, const carc_rules *rules, int start_turn, long max_bytes,
                        char *err, size_t errn)
{
    carc_game *end = NULL;
    page pg = {rec, rules};
    pg.max_bytes = max_bytes;
    view end_view = {0};
    int rc = carc_replay(rec, rules, &end, err, errn);
    if (rc == 0 && view_of_game(&end_view, end) < 0) rc = -1, snprintf(err, errn, "out of memory");
    if (rc == 0) {
        svg_layout_of(&pg.layout, &end_view);
        pg.frames = open_memstream(&pg.frames_buf, &pg.frames_len);
        pg.json = open_memstream(&pg.json_buf, &pg.json_len);
        pg.rows = open_memstream(&pg.rows_buf, &pg.rows_len);
        if (!pg.frames || !pg.json || !pg.rows) rc = -1, snprintf(err, errn, "out of memory");
    }
    if (rc == 0) rc = frames_replay(rec, rules, on_frame, &pg, err, errn);
    if (pg.too_large)
        rc = -1, snprintf(err, errn,
                          "%s: the replay page would be larger than %ld bytes (at turn %d): render one turn as SVG "
                          "instead (--turn N --svg OUT.svg)",
                          rec->path, max_bytes, pg.nframes - 1);
    else if (rc == 0 && pg.failed) rc = -1, snprintf(err, errn, "out of memory");
    close_buffers(&pg);
    if (rc == 0) {
        int start = start_turn < 0 || start_turn >= pg.nframes ? pg.nframes - 1 : start_turn;
        write_page(out, &pg, &end_view, end, start);
    }
    free(pg.frames_buf);
    free(pg.json_buf);
    free(pg.rows_buf);
    view_free(&end_view);
    carc_game_free(end);
    return rc;
}
