#!/bin/sh
# study_test.sh - carc study run FILE: a study written down in a file runs
# from its folder; the folder copied elsewhere reruns to the same report; the
# report names the study file and every file of the rules with its SHA-256;
# a changed variant file shows in the report; bad study files are refused
# with the file and line. Each check's name starts with what it covers.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/study_test.sh
set -u

# pass, fail, run, check, lacks, same; checks_setup.
. "$(dirname "$0")/checks.sh"
checks_setup study


mkdir -p "$T/mine" "$T/elsewhere/deeper"
cat >"$T/mine/my-rule.ini" <<'INI'
[variant]
include = base
name = my-rule
title = Base game, farms score nothing
[options]
farm-scoring = none
INI
cat >"$T/mine/study.ini" <<'INI'
# Farms or not, between a greedy and a random player
[study]
command = compare
a = base
b = my-rule.ini
players = greedy,random
games = 40
seed = 7
blocks = 5
min-effect = share=0.05
INI
check "study run: a compare study from its folder" 0 "points/game: farm" "$CARC" study run "$T/mine/study.ini" --csv
cp "$T/out" "$T/first.csv"
grep -q "^# study file: study.ini sha256:$(sha256sum "$T/mine/study.ini" | cut -c1-64)$" "$T/first.csv" &&
    pass "study run: the report names the study file with its SHA-256" || fail "study run: the study file" "$(grep study "$T/first.csv")"
grep -q "^# B file: my-rule.ini sha256:$(sha256sum "$T/mine/my-rule.ini" | cut -c1-64)$" "$T/first.csv" &&
    pass "study run: ... and the variant file with its SHA-256" || fail "study run: the variant file" "$(grep file "$T/first.csv")"
grep -q "^# B file: scripts/\|^# B file: variants/base.ini sha256:$(sha256sum variants/base.ini | cut -c1-64)$" "$T/first.csv" &&
    pass "study run: ... and the shipped files it read" || fail "study run: the shipped files" "$(grep file "$T/first.csv")"
cp -r "$T/mine" "$T/elsewhere/deeper/copy"
(cd "$T/elsewhere" && "$CARC" study run deeper/copy/study.ini --csv --out ../copied.csv) 2>/dev/null
same "study run: the folder copied elsewhere reruns to the same report" "$T/first.csv" "$T/copied.csv"
(cd "$T/mine" && "$CARC" study run study.ini --csv) >"$T/here.csv" 2>/dev/null
same "study run: ... and from inside the folder" "$T/first.csv" "$T/here.csv"
"$CARC" compare base "$T/mine/my-rule.ini" --players greedy,random --games 40 --seed 7 --blocks 5 \
    --min-effect share=0.05 --csv 2>/dev/null | grep -v '^#' >"$T/direct.table"
grep -v '^#' "$T/first.csv" >"$T/first.table"
same "study run: the same numbers as the compare it stands for" "$T/direct.table" "$T/first.table"
sed -i 's/farm-scoring = none/farm-scoring = per-city-once/' "$T/elsewhere/deeper/copy/my-rule.ini"
(cd "$T/elsewhere" && "$CARC" study run deeper/copy/study.ini --csv) >"$T/changed.csv" 2>/dev/null
if ! grep -q "my-rule.ini sha256:$(sha256sum "$T/mine/my-rule.ini" | cut -c1-64)" "$T/changed.csv" &&
    grep -q "my-rule.ini sha256:$(sha256sum "$T/elsewhere/deeper/copy/my-rule.ini" | cut -c1-64)" "$T/changed.csv"; then
    pass "study run: a variant changed in the copy shows in its report (another hash)"
else
    fail "study run: a changed variant shows in the report" "$(grep my-rule "$T/changed.csv")"
fi
check "study run: --json carries the study file" 0 '"study_file": {"file": "study.ini"' \
    "$CARC" study run "$T/mine/study.ini" --json
check "study run: --games-jsonl relative to where carc was started" 0 "" \
    sh -c "cd '$T' && '$CARC' study run mine/study.ini --games-jsonl games.jsonl"
[ "$(wc -l <"$T/games.jsonl" 2>/dev/null)" = 80 ] && pass "study run: ... 80 game lines there" ||
    fail "study run: --games-jsonl" "$(ls "$T")"

# ---- a study and its records travel (docs/records.md: the variant line) ----
# The study's JSON report and its records are kept in its folder; the folder
# is copied to a new temporary folder and the original moved away: the copy
# reruns to the report's numbers, and its records replay from any directory,
# their variant found next to them.
"$CARC" study run "$T/mine/study.ini" --json --out "$T/mine/report.json" --records "$T/mine/records" 2>/dev/null
(cd "$T/mine" && "$CARC" sim --variant base+./my-rule.ini --players greedy,greedy --games 1 --seed 3 \
    --records composed >/dev/null 2>&1)
head -n 2 "$T/mine/records/b/game-000000.rec" | tail -n 1 >"$T/variant.line"
head -n 2 "$T/mine/composed/game-000000.rec" | tail -n 1 >>"$T/variant.line"
if [ "$(cat "$T/variant.line" | tr '\n' '|')" = "variant ../../my-rule.ini|variant base+../my-rule.ini|" ]; then
    pass "records: a variant file, alone or in a composition, by its path from the record's folder"
else
    fail "records: the variant line" "$(cat "$T/variant.line")"
fi
# A composition is named by its parts as loaded (paths where they were found):
# compared without the name.
VARIANT_NAME='s|"variant": "base+[^"]*my-rule.ini"|"variant": "base+my-rule"|'
for r in records/b/game-000000.rec records/a/game-000003.rec composed/game-000000.rec; do
    "$CARC" replay --json "$T/mine/$r" 2>&1 | sed "$VARIANT_NAME" >"$T/want-$(echo "$r" | tr / -).json"
done
TRAVEL=$(mktemp -d "$T/travel.XXXXXX")
cp -r "$T/mine" "$TRAVEL/copy"
mv "$T/mine" "$T/mine-away" # nothing of the copy may lean on the original
(cd "$TRAVEL/copy" && "$CARC" study run study.ini --json) >"$T/rerun.json" 2>/dev/null
sed 's/"seconds": [0-9.]*, //' "$TRAVEL/copy/report.json" >"$T/report.numbers"
sed 's/"seconds": [0-9.]*, //' "$T/rerun.json" >"$T/rerun.numbers"
if grep -q '"metrics": \[{"metric": "mean score"' "$T/rerun.numbers"; then
    same "study travels: its report, copied with it, rerun in the copy to the same numbers" "$T/report.numbers" \
        "$T/rerun.numbers"
else
    fail "study travels: rerun in the copy" "$(head -c 300 "$T/rerun.json")"
fi
for r in records/b/game-000000.rec records/a/game-000003.rec composed/game-000000.rec; do
    want="$T/want-$(echo "$r" | tr / -).json" ok=yes
    for dir in / "$TRAVEL" "$TRAVEL/copy/$(dirname "$r")" "$CARC_DATA"; do
        got=$(cd "$dir" && "$CARC" replay --json "$TRAVEL/copy/$r" 2>&1 | sed "$VARIANT_NAME")
        [ "$got" = "$(cat "$want")" ] || { ok=no; break; }
    done
    rel=$(cd "$TRAVEL" && "$CARC" replay --json "copy/$r" 2>&1 | sed "$VARIANT_NAME")
    [ "$rel" = "$(cat "$want")" ] || ok=no
    if [ "$ok" = yes ] && grep -q '"finished": true' "$want"; then
        pass "records travel: $r, copied with its variant, replays from any directory to the same game"
    else
        fail "records travel: $r from $dir" "got $(printf '%s' "$got$rel" | head -c 200), want $(head -c 200 "$want")"
    fi
done
# A record written before records kept relative paths (the variant by its
# absolute path) still replays.
sed "2s|.*|variant $TRAVEL/copy/my-rule.ini|" "$TRAVEL/copy/records/b/game-000000.rec" >"$T/old.rec"
(cd / && "$CARC" replay --json "$T/old.rec") >"$T/old.json" 2>&1
same "records: an older record naming its variant by absolute path replays" "$T/want-records-b-game-000000.rec.json" "$T/old.json"
mv "$T/mine-away" "$T/mine"

cat >"$T/sim.ini" <<'INI'
[study]
command = sim
variant = robbers
option = robbers.end-bonus=5
players = greedy,greedy
games = 4
INI
check "study run: a sim study" 0 "robbers.end-bonus=5" "$CARC" study run "$T/sim.ini"
printf '[study]\ncommand = compare\na = base\ngamez = 4\n' >"$T/bad.ini"
check "study run: an unknown setting names the file and line" 1 "bad.ini:4: unknown setting 'gamez'" \
    "$CARC" study run "$T/bad.ini"
printf '[study]\ncommand = race\n' >"$T/bad.ini"
check "study run: an unknown command" 1 "bad.ini:2: command = compare, sweep, sim or tournament, not 'race'" \
    "$CARC" study run "$T/bad.ini"
printf '[study]\ncommand = sim\na = base\n' >"$T/bad.ini"
check "study run: a and b in a sim study" 1 "sim and tournament take 'variant ='" "$CARC" study run "$T/bad.ini"
printf '[study]\ncommand = compare\nb = base\n' >"$T/bad.ini"
check "study run: a compare study without a" 1 "names its variants 'a = ...'" "$CARC" study run "$T/bad.ini"
printf '[options]\ncommand = sim\n' >"$T/bad.ini"
check "study run: another section" 1 "one section, [study], not [options]" "$CARC" study run "$T/bad.ini"
check "study run: a missing file" 1 "no-such.ini" "$CARC" study run "$T/no-such.ini"
check "study run: a flag that is not the command line's" 2 "is not an option of carc study run" "$CARC" study run "$T/sim.ini" --games 4
check "study run: --help" 0 "usage: carc study run FILE" "$CARC" study --help

# ---- carc stats report: a report drawn (the charts checked in a browser: make test-browser)
"$CARC" study run "$T/sim.ini" --json --out "$T/sim.json"
check "stats report: a sim study's report as a page and SVG files" 0 "" \
    "$CARC" stats report "$T/sim.json" --html "$T/sim.html" --svg-dir "$T/charts"
ls "$T/charts" >"$T/charts.list" 2>&1
if [ "$(cat "$T/charts.list" | tr '\n' ' ')" = "mean-score-by-seat.svg points-by-reason.svg scores.svg win-rate-by-seat.svg " ] &&
    [ "$(grep -c '<svg xmlns' "$T/sim.html")" = 4 ] && grep -q 'sim.ini' "$T/sim.html" &&
    ! sed 's|xmlns="http://www.w3.org/2000/svg"||g' "$T/sim.html" | grep -q 'http:\|https:\|<script\|src=\|<link'; then
    pass "stats report: ... four charts, inline and as files; the page names the study file and loads nothing"
else
    fail "stats report: ... four charts" "$(cat "$T/charts.list")"
fi
check "study run --html: the study draws its own report, the page where carc was started" 0 "" \
    sh -c "cd '$T' && '$CARC' study run mine/study.ini --html drawn.html --svg-dir drawn --csv --out drawn.csv"
if [ "$(grep -c '<svg xmlns' "$T/drawn.html" 2>/dev/null)" = 6 ] && [ "$(ls "$T/drawn" | wc -l)" = 6 ] &&
    grep -q 'effects-points.svg' "$T/drawn.html" && grep -q 'effects-count.svg' "$T/drawn.html" &&
    grep -q '^# study file: study.ini' "$T/drawn.csv"; then
    pass "study run --html: ... six charts of the compare (one of the counts: docs/measures.md), inline and as files, beside the CSV report"
else
    fail "study run --html" "$(ls "$T")"
fi
check "sim --html with --shard is refused: a shard is not the study" 2 "draw the merged report" \
    "$CARC" sim --games 4 --shard 1/2 --html "$T/shard.html"
check "stats report: --html or --svg-dir is needed" 2 "say where the pictures go" "$CARC" stats report "$T/sim.json"
printf '{"seats": [\n  {"seat": 1,}\n]}\n' >"$T/broken.json"
check "stats report: JSON that does not read names the file and line" 1 "broken.json:2:" \
    "$CARC" stats report "$T/broken.json" --html "$T/x.html"
printf '{"a": 1}\n' >"$T/other.json"
check "stats report: JSON with nothing to draw" 1 "other.json: nothing to draw" \
    "$CARC" stats report "$T/other.json" --html "$T/x.html"
[ ! -e "$T/x.html" ] && pass "stats report: ... and no page written" || fail "stats report: no page written" "x.html exists"
# A report from a stranger: markup in its names, numbers out of any range,
# strings where numbers belong; drawn with its text escaped, bounded.
cat >"$T/hostile.json" <<'JSON'
{"a": {"variant": "<script>alert(1)</script>"}, "b": {"variant": "x&y"}, "metrics": [{"metric": "<img src=x onerror=alert(1)>", "key": "points:</svg><script>", "unit": "\"><script>", "a": "str", "b": 1e308, "diff": -1e308, "lo": null, "hi": 1e308, "corrected_lo": 5, "corrected_hi": -5, "finding": true}], "score_distribution": {"a": {"bin_width": 0, "bins": [{"from": -2147483647, "count": 1}, {"from": 2147483647, "count": 2}]}, "b": {"bins": "x"}}}
JSON
check "stats report: a hostile report is drawn" 0 "" "$CARC" stats report "$T/hostile.json" --html "$T/hostile.html" --svg-dir "$T/hostile"
if ! grep -q '<script\|<img' "$T/hostile.html" "$T/hostile"/*.svg && grep -q '&lt;img src=x' "$T/hostile.html"; then
    pass "stats report: ... its markup escaped, in the page and the SVG files"
else
    fail "stats report: hostile markup escaped" "$(grep -o '<script[^>]*>\|<img[^>]*>' "$T/hostile.html" | head -3)"
fi
check "stats report: carc stats merge still answers" 1 "no-such" "$CARC" stats merge "$T/no-such.jsonl"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
