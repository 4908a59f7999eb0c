#!/bin/sh
# browser_test.sh - the HTML replay page of carc render in a real browser
# (Debian's chromium, headless): it steps through a whole game with the
# page's own "next" code and shows the scores `carc replay --json` gives;
# ?turn=0 and ?turn=K show the start and turn K as `carc render --turn K`
# draws them; a screenshot shows a board (many colours, field and city
# among them); the page loads nothing from the network; carc serve's page
# plays whole games by clicks, and its board shows each option's figure,
# feature and points as the server computes them, wide and on a phone. The
# HTML report of carc stats report (compare, sim, tournament, a sweep):
# every mark of its charts read back through the chart's axis equals the
# report's JSON, each SVG file is the page's chart, a screenshot
# (docs/report.png).
#
# Run from the project root (make test-browser):
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/browser_test.sh
# Prints one line per check and ends with "N passed, M failed".
set -u

CARC=${CARC:-./build/carc}
CARC_DATA=${CARC_DATA:-$(pwd)}
export CARC_DATA
CHROMIUM=${CHROMIUM:-chromium}
NODE=${NODE:-node}

PASSED=0
FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-browser.XXXXXX") || exit 1
# carc serve keeps its games under the data directory: the test's own
export XDG_DATA_HOME="$T/data"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1: $2"; }
finish() {
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
    exit
}

if command -v timeout >/dev/null 2>&1; then LIMIT="timeout 120"; else LIMIT=; fi

# browser ARGS...: headless chromium with a profile of its own each time.
browser() {
    profile=$(mktemp -d "$T/profile.XXXXXX")
    $LIMIT "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" "$@" 2>>"$T/chromium.log"
}

# The DOM of a page after its script ran.
dom() { browser --virtual-time-budget=5000 --dump-dom "$1" >"$T/dom.html"; }

# The value of attribute $1 of the <body> in $T/dom.html.
body_attr() { grep -o "<body[^>]*" "$T/dom.html" | sed -n "s/.* $1=\"\([^\"]*\)\".*/\1/p"; }

# The scores the page shows: "name=score " pairs from the #scores table.
page_scores() {
    tr -d '\n' <"$T/dom.html" | sed 's/<tr>/\n<tr>/g' |
        sed -n 's/.*<\/span> \([^<]*\)<\/td><td class="score" id="score-[0-9]*" data-seat="[0-9]*">\(-\{0,1\}[0-9]*\)<.*/\1=\2/p' |
        tr '\n' ' '
}

# The "name=score" pairs of `carc replay --json` (stdin).
json_scores() {
    sed 's/"events".*//' | tr '{' '\n' |
        sed -n 's/^"name": "\([^"]*\)", "score": \(-\{0,1\}[0-9][0-9]*\)}.*/\1=\2/p' | tr '\n' ' '
}

if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    fail "chromium is installed" "no '$CHROMIUM' on PATH (apt-get install chromium)"
    finish
fi

# ---- a game and its page ------------------------------------------------------------

REC="$T/game-000000.rec"
if $LIMIT "$CARC" sim --games 1 --players greedy,greedy --seed 11 --records "$T" >/dev/null 2>"$T/err" && [ -s "$REC" ]; then
    pass "a greedy base game to draw"
else
    fail "a greedy base game to draw" "$(head -c 300 "$T/err")"
    finish
fi
if $LIMIT "$CARC" render "$REC" --html "$T/game.html" --svg "$T/game.svg" 2>"$T/err" && [ -s "$T/game.html" ]; then
    pass "carc render writes the page and the picture"
else
    fail "carc render writes the page and the picture" "$(head -c 300 "$T/err")"
    finish
fi
want=$("$CARC" replay --json "$REC" | json_scores)
frames=$(grep -c '<g class="frame"' "$T/game.html")
URL="file://$T/game.html"

if grep -q -i -e 'http:' -e 'https:' -e ' src=' -e '<link' "$T/game.html"; then
    fail "the page is self-contained" "$(grep -o -i -e 'https\{0,1\}:[^"]*' -e ' src=[^ ]*' -e '<link[^>]*' "$T/game.html" | head -3)"
else
    pass "the page is self-contained (no http:, src= or <link)"
fi

# ---- stepping through the game ------------------------------------------------------

dom "$URL?play=all"
stepped=$(body_attr data-stepped)
at=$(body_attr data-frame)
if [ "$stepped" = $((frames - 1)) ] && [ "$at" = $((frames - 1)) ]; then
    pass "?play=all steps through all $stepped turns with the page's next()"
else
    fail "?play=all steps through the game" "stepped '$stepped', at frame '$at', $frames frames"
fi
got=$(page_scores)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
    pass "after the last turn the page shows the scores of carc replay --json ($got)"
else
    fail "after the last turn the page shows the scores of carc replay --json" "page '$got', replay '$want'"
fi

dom "$URL?turn=0"
zero=$(page_scores | sed 's/=[0-9-]*/=0/g')
if [ "$(body_attr data-frame)" = 0 ] && [ "$(page_scores)" = "$zero" ] && grep -q 'start: the start tile' "$T/dom.html"; then
    pass "?turn=0 shows the start tile and no points (the script ran)"
else
    fail "?turn=0 shows the start" "frame '$(body_attr data-frame)', scores '$(page_scores)'"
fi

K=$(((frames - 1) / 2))
"$CARC" render "$REC" --turn "$K" --svg "$T/turn.svg"
svg=$(grep -o 'class="legend score" data-seat="[0-9]*" data-score="-\{0,1\}[0-9]*"' "$T/turn.svg" |
    sed 's/.*data-score="\([^"]*\)"/\1/' | tr '\n' ' ')
dom "$URL?turn=$K"
page=$(page_scores | sed 's/[^ ]*=//g')
if [ -n "$svg" ] && [ "$page" = "$svg" ]; then
    pass "?turn=$K shows the scores carc render --turn $K draws ($svg)"
else
    fail "?turn=$K shows the scores of carc render --turn $K" "page '$page', svg '$svg'"
fi

# ---- the screenshot --------------------------------------------------------------------

browser --virtual-time-budget=5000 --window-size=1280,900 --screenshot="$T/shot.png" "$URL?turn=last" >/dev/null
if [ -s "$T/shot.png" ]; then
    pass "a screenshot of the page"
else
    fail "a screenshot of the page" "$(tail -c 300 "$T/chromium.log")"
    finish
fi
# The browser itself reads the PNG back (a data: image leaves the canvas
# readable) and counts its colours, the field's and the cities' pixels.
{
    printf '<!DOCTYPE html><html><body><img id="shot" src="data:image/png;base64,'
    base64 "$T/shot.png" | tr -d '\n'
    cat <<'EOF'
"><script>
window.onload = function () {
  var img = document.getElementById('shot'), c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  var ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0);
  var d = ctx.getImageData(0, 0, c.width, c.height).data, seen = {}, n = 0, field = 0, city = 0;
  for (var i = 0; i < d.length; i += 4) {
    var k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
    if (!seen[k]) { seen[k] = 1; n++; }
    if (k === 0x9cc46c) field++;
    if (k === 0xd9b47c) city++;
  }
  document.body.setAttribute('data-colours', n);
  document.body.setAttribute('data-field', field);
  document.body.setAttribute('data-city', city);
  document.body.setAttribute('data-size', c.width + 'x' + c.height);
};
</script></body></html>
EOF
} >"$T/check.html"
dom "file://$T/check.html"
colours=$(body_attr data-colours)
field=$(body_attr data-field)
city=$(body_attr data-city)
if [ "${colours:-0}" -ge 50 ] && [ "${field:-0}" -ge 5000 ] && [ "${city:-0}" -ge 500 ]; then
    pass "the screenshot shows a board ($colours colours, $field field and $city city pixels, $(body_attr data-size))"
else
    fail "the screenshot shows a board" "colours '$colours', field pixels '$field', city pixels '$city'"
fi

# ---- carc serve: whole games on its page, by clicks ------------------------------------

if ! command -v "$NODE" >/dev/null 2>&1; then
    fail "node is installed (it drives the browser)" "no '$NODE' on PATH (apt-get install nodejs)"
    finish
fi
SHOTS=${CARC_SHOTS:-$T}
mkdir -p "$SHOTS" "$T/saves"

# ---- carc stats report: the HTML report and its charts ---------------------------------
# The browser parses the page; tests/report_browser.mjs reads every mark back
# through its chart's own axis and checks it against the report's JSON. The
# screenshot is docs/report.png.

# report_check NAME JSON: draws JSON into NAME.html and svg-NAME/, checks it.
report_check() {
    rm -rf "$T/svg-$1"
    if ! "$CARC" stats report "$2" --html "$T/$1.html" --svg-dir "$T/svg-$1" 2>"$T/report.err"; then
        fail "carc stats report draws the $1 report" "$(cat "$T/report.err")"
        return
    fi
    shot=
    [ "$1" = compare ] && shot="$SHOTS/report.png"
    if $LIMIT "$NODE" tests/report_browser.mjs "$CHROMIUM" "$T/$1.html" "$2" $shot >"$T/report.out" 2>&1; then
        pass "the $1 report in the browser: $(grep -c '^ok' "$T/report.out") checks of its charts against its JSON"
    else
        fail "the $1 report in the browser: its charts against its JSON" "$(grep -v '^ok' "$T/report.out" | head -5)"
    fi
    # Each SVG file is the chart the page shows, byte for byte, and an SVG document of its own.
    n=0 bad=
    for svg in "$T/svg-$1"/*.svg; do
        n=$((n + 1))
        head -n 1 "$svg" | grep -q '^<?xml version="1.0"' || bad="$bad $(basename "$svg"): no XML declaration;"
        tail -n +2 "$svg" >"$T/chart.svg"
        tr -d '\n' <"$T/chart.svg" >"$T/chart.one"
        tr -d '\n' <"$T/$1.html" | grep -qF "$(cat "$T/chart.one")" || bad="$bad $(basename "$svg") is not the page's chart;"
    done
    if [ "$n" -gt 0 ] && [ -z "$bad" ] && [ "$n" = "$(grep -c '<svg xmlns' "$T/$1.html")" ]; then
        pass "the $1 report: each of its $n charts also an SVG file of its own"
    else
        fail "the $1 report: its charts as SVG files" "$n files;$bad"
    fi
}
"$CARC" compare base base --option-b farm-scoring=none --games 200 \
    --players greedy,greedy --seed 7 --jobs 2 --json >"$T/compare.json" 2>/dev/null
report_check compare "$T/compare.json"
"$CARC" sim --games 60 --players greedy,random --seed 3 --json >"$T/sim.json"
report_check sim "$T/sim.json"
"$CARC" tournament --games 30 --players greedy,random,greedy --seed 3 --json >"$T/tournament.json"
report_check tournament "$T/tournament.json"
# A sweep's report (one row a point and measure): made here from compares of
# farm-scoring's values against the base game, in the shape carc sweep prints.
for v in none per-city-once city-majority; do
    "$CARC" compare base base --option-b farm-scoring=$v --games 100 --players greedy,greedy --seed 7 --json \
        >"$T/point-$v.json" 2>/dev/null
done
"$NODE" -e '
const fs = require("fs"), [out, ...files] = process.argv.slice(1);
const rows = [], points = [];
for (const f of files) {
  const c = JSON.parse(fs.readFileSync(f, "utf8")), point = "farm-scoring=" + c.b.options_not_default["farm-scoring"];
  points.push({ point, games: c.games });
  for (const m of c.metrics) rows.push(Object.assign({ point, baseline: m.a, value: m.b }, m));
}
const first = JSON.parse(fs.readFileSync(files[0], "utf8"));
fs.writeFileSync(out, JSON.stringify({ baseline: first.a, vary: [{ option: "farm-scoring" }], points, blocks: first.blocks,
  correction: "holm", findings: rows.filter((r) => r.finding).length, rows }));
' "$T/sweep.json" "$T/point-none.json" "$T/point-per-city-once.json" "$T/point-city-majority.json"
report_check sweep "$T/sweep.json"
: >"$T/serve.out" # there before the server writes to it: the loop below reads it at once
"$CARC" serve --port 0 --save-dir "$T/saves" --db "$T/games.db" >"$T/serve.out" 2>"$T/serve.err" &
SERVE_PID=$!
trap 'kill "$SERVE_PID" 2>/dev/null; rm -rf "$T"' EXIT
for i in 1 2 3 4 5 6 7 8 9 10; do
    SERVE_URL=$(sed -n 's/^carc serve: open \(http:[^ ]*\)$/\1/p' "$T/serve.out")
    [ -n "$SERVE_URL" ] && break
    sleep 0.5
done
if [ -n "$SERVE_URL" ]; then
    pass "carc serve prints the address to open ($SERVE_URL)"
else
    fail "carc serve prints the address to open" "$(cat "$T/serve.out" "$T/serve.err" | head -c 300)"
    finish
fi

# play_on_page VARIANT SEED SHOTS_PREFIX
play_on_page() {
    if $LIMIT "$NODE" tests/serve_browser.mjs "$CHROMIUM" "$SERVE_URL" "$1" "$2" "$3" >"$T/page.json" 2>"$T/page.err"; then
        id=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$T/page.json")
        got=$(sed -n 's/.*"scores":"\([^"]*\)".*/\1 /p' "$T/page.json")
        moves=$(sed -n 's/.*"moves":\([0-9]*\).*/\1/p' "$T/page.json")
        awards=$(sed -n 's/.*"logAwards":\([0-9]*\).*/\1/p' "$T/page.json")
        want=$("$CARC" replay --json "$T/saves/carc-$id.rec" | json_scores)
        if [ -n "$id" ] && [ "$got" = "$want" ] && grep -q '"undone":true,"loaded":true' "$T/page.json" &&
            "$CARC" replay --json "$T/saves/carc-$id.rec" | grep -q '"finished": true'; then
            pass "a whole $1 game by clicks ($moves moves, one undone, $awards awards in the log; downloaded and loaded again): the page's final scores are carc replay --json's ($got)"
        else
            fail "a whole $1 game by clicks: final scores" "page '$got', replay of carc-$id.rec '$want'"
        fi
    else
        fail "a whole $1 game by clicks" "$(tail -c 400 "$T/page.err")"
    fi
}
play_on_page base 3 "$SHOTS/serve-base"
play_on_page all-expansions 5 "$SHOTS/serve-all"
# Two people and a bot, each person in their own browser context from their
# own link, a spectator in a third (tests/serve_friends.mjs): every move seen
# live by the others, nothing moved by the wrong secret or the spectator, no
# seed in any response during the game; the final scores are the record's.
if $LIMIT "$NODE" tests/serve_friends.mjs "$CHROMIUM" "$SERVE_URL" base+robbers+fairy 11 >"$T/friends.json" 2>"$T/friends.err"; then
    id=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$T/friends.json")
    got=$(sed -n 's/.*"scores":"\([^"]*\)".*/\1 /p' "$T/friends.json")
    curl -s "${SERVE_URL%/}/api/games/$id/record" >"$T/friends.rec"
    want=$("$CARC" replay --json "$T/friends.rec" | json_scores)
    if [ -n "$id" ] && [ "$got" = "$want" ]; then
        pass "two people from their own links, a bot and a spectator, each in their own browser context: $(sed 's/.*"moves"/"moves"/; s/}$//' "$T/friends.json"); the pages' final scores are carc replay --json's ($got)"
    else
        fail "two people, a bot and a spectator: final scores" "pages '$got', replay '$want'"
    fi
else
    fail "two people, a bot and a spectator in their own browser contexts" "$(tail -c 600 "$T/friends.err")"
fi
for f in serve-base-form serve-all-board serve-all-final; do
    if [ -s "$SHOTS/$f.png" ]; then pass "screenshot $f.png"; else fail "screenshot $f.png" "not written"; fi
done

# The board read as a person reads it (tests/serve_board.mjs): figures on
# offer, the feature and points shown on hover against the server's, the
# other seat's last move, tiles left, rules pages; a phone's screen and taps.
if $LIMIT "$NODE" tests/serve_board.mjs "$CHROMIUM" "$SERVE_URL" "$SHOTS" >"$T/board.json" 2>"$T/board.err"; then
    pass "the board on the page: $(cat "$T/board.json")"
else
    fail "the board on the page" "$(tail -c 600 "$T/board.err")"
fi
for f in board-wide board-phone; do
    if [ -s "$SHOTS/$f.png" ]; then pass "screenshot $f.png"; else fail "screenshot $f.png" "not written"; fi
done
kill "$SERVE_PID" 2>/dev/null

finish
