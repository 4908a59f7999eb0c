#!/bin/sh
# cli_test.sh - command-line checks of carc: argument errors, help texts,
# sim determinism, replay, tiles check, variants, records written by sim and
# play, a game killed mid-way and resumed, training and analysis.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/cli_test.sh
# Prints one line per check and ends with "N passed, M failed"; exits
# non-zero when a check failed.
set -u

CARC=${CARC:-./build/carc}
CARC_DATA=${CARC_DATA:-$(pwd)}
export CARC_DATA

PASSED=0
FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-cli.XXXXXX") || exit 1
# carc serve keeps its games under the data directory: the test's own
export XDG_DATA_HOME="$T/data"
PLAY_PID=
cleanup() {
    [ -n "$PLAY_PID" ] && kill -9 "$PLAY_PID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# pass, fail, run, check, lacks.
. "$(dirname "$0")/checks.sh"

# The "name=score" pairs of a `carc replay --json` line (stdin).
json_scores() {
    sed 's/"events".*//' | tr '{' '\n' |
        sed -n 's/^"name": "\([^"]*\)", "score": \(-\{0,1\}[0-9][0-9]*\)}.*/\1=\2/p' | tr '\n' ' '
}

# The "name=score" pairs of the last score line that `carc play` printed
# ("turn 71, 0 tiles left | 1:Red 12 (0 in supply) 2:Blue 24 (...)").
play_scores() {
    grep '^turn .* | ' | tail -n 1 | sed 's/^[^|]*| //' |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+:/) { sub(/^[0-9]+:/, "", $i); printf "%s=%s ", $i, $(i + 1) } }'
}

nap() { sleep 0.1 2>/dev/null || sleep 1; }

# ---- the command and its usage ---------------------------------------------

check "no arguments: exit 2 with the usage" 2 "usage" "$CARC"
check "unknown command: exit 2" 2 "unknown command" "$CARC" frobnicate
check "carc --help: exit 0" 0 "usage" "$CARC" --help
check "carc help: exit 0" 0 "usage" "$CARC" help
for cmd in play sim tournament compare stats replay render tiles variants variant test new serve; do
    check "carc $cmd --help: exit 0" 0 "usage" "$CARC" "$cmd" --help
done
# --help after a subcommand is help too, never a file or variant name.
check "carc tiles check --help: exit 0" 0 "usage: carc tiles check" "$CARC" tiles check --help
check "carc variant show --help: exit 0" 0 "usage: carc variant show" "$CARC" variant show --help
check "carc stats merge --help: exit 0" 0 "usage: carc stats merge" "$CARC" stats merge --help
check "carc new plugin --help: exit 0" 0 "usage: carc new" "$CARC" new plugin --help

# ---- carc sim: argument errors -----------------------------------------------

check "sim --games 0 is refused" nz "--games" "$CARC" sim --games 0
check "sim --games abc is refused" nz "'abc'" "$CARC" sim --games abc
check "sim --players random,nosuchagent is refused" nz "unknown agent 'nosuchagent'" \
    "$CARC" sim --players random,nosuchagent --games 1
check "sim --players with 7 agents is refused" nz "1 to 6 agents" \
    "$CARC" sim --players random,random,random,random,random,random,random --games 1
check "sim --jobs 0 is refused" nz "--jobs" "$CARC" sim --jobs 0 --games 1
check "sim --variant nosuch is refused" nz "nosuch" "$CARC" sim --variant nosuch --games 1
check "sim --option farm-scoring=bogus is refused" nz "bogus" \
    "$CARC" sim --option farm-scoring=bogus --games 1
check "sim --option nosuch-option=1 is refused" nz "unknown option" \
    "$CARC" sim --option nosuch-option=1 --games 1
check "sim with an unknown flag is refused" 2 "unknown flag '--frobnicate'" \
    "$CARC" sim --frobnicate 3 --games 1
check "sim with an unknown flag last is refused" nz "--frobnicate" "$CARC" sim --games 1 --frobnicate
check "sim --turn names the commands that take it" 2 "it is taken by: analyse, render" "$CARC" sim --turn 3
check "train --shard names the commands that take it" 2 "it is taken by: sim, tournament, compare" \
    "$CARC" train --shard 1/2 --out "$T/w.ini"
check "an operand too many is bad usage" 2 "unexpected argument 'b.rec'" "$CARC" replay a.rec b.rec
check "carc stats without merge is bad usage" 2 "usage: carc stats merge" "$CARC" stats
check "carc analyze is carc analyse" 0 "usage: carc analyse" "$CARC" analyze --help
check "sim --players with one agent for a 2-6 variant is refused" nz "2 to 6 players" \
    "$CARC" sim --players random --games 1

# ---- carc sim: results ---------------------------------------------------------

check "sim --games 20 --seed 5 prints win rates" 0 "win rate" "$CARC" sim --games 20 --seed 5
# docs/architecture.md's map matches the code: it names every file of
# libcarc (kernel/, host/, formats/), and every function or field it names in
# backquotes exists there or in cli/ (or is a test program).
missing=
for f in kernel/*.c host/*.c formats/*.c; do grep -q "\`${f#*/}\`" docs/architecture.md || missing="$missing $f"; done
for w in $(grep -oE '`[a-z][a-z0-9_]*_[a-z0-9_]*`' docs/architecture.md | tr -d '`' | sort -u); do
    case $w in test_*) [ -e "tests/$w.c" ] && continue;; esac
    grep -qw "$w" kernel/*.c kernel/*.h host/*.c host/*.h formats/*.c formats/*.h cli/*/*.c cli/*/*.h ||
        missing="$missing $w"
done
if [ -z "$missing" ]; then pass "docs/architecture.md names every libcarc file and only functions that exist"
else fail "docs/architecture.md's map" "not matching the code:$missing"; fi
# docs/architecture.md: the self-check mode, as the document runs it.
check "CARC_CHECK=1 sim --games 100 plays self-checked games" 0 "win rate" env CARC_CHECK=1 "$CARC" sim --games 100

run "$CARC" sim --games 20 --seed 5 --json
if [ "$RC" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && [ "$(head -c 1 "$T/out")" = "{" ]; then
    pass "sim --json prints one line starting with {"
else
    fail "sim --json prints one line starting with {" "exit $RC, output: $(head -c 300 "$T/out")"
fi
sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/sim-a.json"

run "$CARC" sim --games 20 --seed 5 --json
sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/sim-b.json"
if [ "$RC" -eq 0 ] && [ -s "$T/sim-a.json" ] && cmp -s "$T/sim-a.json" "$T/sim-b.json"; then
    pass "the same sim twice gives the same output (time aside)"
else
    fail "the same sim twice gives the same output (time aside)" "$(cat "$T/sim-a.json" "$T/sim-b.json")"
fi

win_rates() { tr '{' '\n' <"$1" | sed -n 's/.*"win_rate": \([0-9.]*\).*/\1/p' | tr '\n' ' '; }
run "$CARC" sim --games 40 --seed 11 --jobs 1 --json
sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/jobs1.json"
run "$CARC" sim --games 40 --seed 11 --jobs 2 --json
sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/jobs2.json"
w1=$(win_rates "$T/jobs1.json")
w2=$(win_rates "$T/jobs2.json")
if [ -n "$w1" ] && [ "$w1" = "$w2" ]; then
    pass "sim --jobs 2 gives the win rates of --jobs 1 ($w1)"
else
    fail "sim --jobs 2 gives the win rates of --jobs 1" "jobs 1: '$w1', jobs 2: '$w2'"
fi
if [ -s "$T/jobs1.json" ] && cmp -s "$T/jobs1.json" "$T/jobs2.json"; then
    pass "sim --jobs 2 gives the whole report of --jobs 1 (time aside)"
else
    fail "sim --jobs 2 gives the whole report of --jobs 1 (time aside)" "$(cat "$T/jobs1.json" "$T/jobs2.json")"
fi
# The same with scripts (docs/security.md, "A game depends on the game
# alone"): one Lua state serves every game of a thread and the greedy bot's
# trial moves, yet --jobs changes nothing and every record replays.
for v in princess-dragon robbers traders-builders; do
    rm -rf "$T/lua-rec-1" "$T/lua-rec-2"
    run "$CARC" sim --variant "$v" --players greedy,random --games 6 --seed 5 --jobs 1 --json --records "$T/lua-rec-1"
    sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/lua-jobs1.json"
    run "$CARC" sim --variant "$v" --players greedy,random --games 6 --seed 5 --jobs 2 --json --records "$T/lua-rec-2"
    sed 's/"seconds": [0-9.]*, //' "$T/out" >"$T/lua-jobs2.json"
    if [ -s "$T/lua-jobs1.json" ] && cmp -s "$T/lua-jobs1.json" "$T/lua-jobs2.json" &&
        diff -r "$T/lua-rec-1" "$T/lua-rec-2" >/dev/null; then
        pass "$v: sim --jobs 2 gives the report and records of --jobs 1"
    else
        fail "$v: sim --jobs 2 gives the report and records of --jobs 1" "$(diff "$T/lua-jobs1.json" "$T/lua-jobs2.json" | head -c 400)"
    fi
    bad=
    for r in "$T"/lua-rec-1/*.rec; do "$CARC" replay "$r" >/dev/null 2>&1 || bad="$bad $(basename "$r")"; done
    if [ -z "$bad" ] && [ -n "$(ls "$T"/lua-rec-1/*.rec 2>/dev/null)" ]; then pass "$v: every greedy game's record replays"
    else fail "$v: every greedy game's record replays" "not replaying:$bad"; fi
done

# ---- carc replay ---------------------------------------------------------------

check "replay of a missing file fails" nz "cannot open" "$CARC" replay "$T/no-such-record.rec"
check "replay without a file: exit 2" 2 "usage" "$CARC" replay
check "replay of an illegal line names file:line and the options" nz \
    "tests/bad/records/illegal-place.rec:11:" "$CARC" replay tests/bad/records/illegal-place.rec
if grep -F -q "place 1,0 r0" "$T/err" && grep -F -q "'place 40,40 r0'" "$T/err"; then
    pass "replay of an illegal line quotes it and lists the legal 'place' options"
else
    fail "replay of an illegal line quotes it and lists the legal 'place' options" "$(head -c 400 "$T/err")"
fi
check "replay of a record with an unknown header line names file:line" nz \
    "tests/bad/records/unknown-header.rec:4:" "$CARC" replay tests/bad/records/unknown-header.rec
check "replay of a record without '---' names file:line" nz \
    "tests/bad/records/no-separator.rec:6:" "$CARC" replay tests/bad/records/no-separator.rec
check "replay of a record of format version 2 says which version" nz \
    "version 2" "$CARC" replay tests/bad/records/version-2.rec
check "replay of a record with a NUL byte is refused" nz "NUL" "$CARC" replay tests/bad/records/nul-byte.rec
check "replay of a draw of a tile no longer in the pile names file:line" nz \
    "tests/bad/records/draw-none-left.rec:10:" "$CARC" replay tests/bad/records/draw-none-left.rec
check "replay of a line after the end names file:line" nz \
    "tests/bad/records/after-end.rec:11:" "$CARC" replay tests/bad/records/after-end.rec

run "$CARC" replay --json tests/scenarios/base-city-2tiles.rec
if [ "$RC" -eq 0 ] && grep -F -q '"finished": true' "$T/out" &&
    grep -F -q '{"name": "Red", "score": 4}' "$T/out"; then
    pass "replay --json of base-city-2tiles.rec: finished, Red 4"
else
    fail "replay --json of base-city-2tiles.rec: finished, Red 4" "exit $RC: $(head -c 300 "$T/out" "$T/err")"
fi
check "replay (text) of base-city-2tiles.rec says game over" 0 "game over" \
    "$CARC" replay tests/scenarios/base-city-2tiles.rec
# Figures a player holds (The Tower's prisoners): replay says who holds
# whom, --json lists them, render draws them beside the holder.
check "replay (text) of tower-capture.rec says who holds whom" 0 "held: Blue holds 1 follower of Red" \
    "$CARC" replay tests/scenarios/tower-capture.rec
run "$CARC" replay --json tests/scenarios/tower-capture.rec
if [ "$RC" -eq 0 ] && grep -F -q '{"name": "Blue", "score": 0, "held": [{"owner": "Red", "seat": 0, "kind": "follower"}]}' "$T/out" &&
    grep -F -q '{"name": "Red", "score": 0}' "$T/out"; then
    pass "replay --json of tower-capture.rec: Blue holds Red's follower"
else
    fail "replay --json of tower-capture.rec: Blue holds Red's follower" "exit $RC: $(head -c 300 "$T/out" "$T/err")"
fi
check "render draws a held figure beside its holder" 0 'data-where="held" data-holder="1"' \
    "$CARC" render tests/scenarios/tower-capture.rec --svg -

# ---- carc tiles check, variants, variant show -------------------------------------

check "tiles check tiles/base.ini" 0 "24 tile types, 72 tiles" "$CARC" tiles check tiles/base.ini
check "tiles check tiles/ark.ini" 0 "61 tile types, 72 tiles" "$CARC" tiles check tiles/ark.ini
check "tiles check tiles/robbers.ini" 0 "6 tile types, 8 tiles" "$CARC" tiles check tiles/robbers.ini
check "tiles check tiles/princess-dragon.ini" 0 "29 tile types, 30 tiles" \
    "$CARC" tiles check tiles/princess-dragon.ini
check "tiles check tiles/inns-cathedrals.ini" 0 "17 tile types, 18 tiles" "$CARC" tiles check tiles/inns-cathedrals.ini
check "tiles check tiles/traders-builders.ini" 0 "24 tile types, 24 tiles" "$CARC" tiles check tiles/traders-builders.ini
check "tiles check of a bad set names file:line" nz "tests/bad/tiles/port-twice.ini:11:" \
    "$CARC" tiles check tests/bad/tiles/port-twice.ini
check "tiles check of a bad set says why" nz "covered twice" "$CARC" tiles check tests/bad/tiles/port-twice.ini
check "tiles check of a missing file fails" nz "cannot open" "$CARC" tiles check "$T/no-such-set.ini"
check "tiles check of a good and a bad set fails" nz "tests/bad/tiles/unknown-kind.ini:8:" \
    "$CARC" tiles check tiles/base.ini tests/bad/tiles/unknown-kind.ini
check "tiles without 'check': exit 2" 2 "usage" "$CARC" tiles

check "variants lists base" 0 "base" "$CARC" variants
if grep -q '^base ' "$T/out"; then pass "variants prints base on a line of its own"; else
    fail "variants prints base on a line of its own" "$(head -c 300 "$T/out")"; fi
check "variant show base prints farm-scoring = per-farm" 0 "farm-scoring = per-farm" "$CARC" variant show base
check "variant show of an including variant applies its option" 0 "farm-scoring = none" \
    "$CARC" variant show tests/good/farms-none.ini
check "variant show nosuch fails" nz "nosuch" "$CARC" variant show nosuch
check "variant show of a bad variant names file:line" nz "unknown-key.ini:4:" \
    "$CARC" variant show tests/bad/variants/unknown-key.ini

# ---- records written by sim ---------------------------------------------------------

RECS=$T/records
run "$CARC" sim --records "$RECS" --games 3 --seed 7 --json
cp "$T/out" "$T/sim-records.json"
n=$(ls "$RECS" 2>/dev/null | grep -c '\.rec$')
n=${n:-0}
if [ "$RC" -eq 0 ] && [ "$n" -eq 3 ]; then
    pass "sim --records DIR --games 3 writes 3 records"
else
    fail "sim --records DIR --games 3 writes 3 records" "exit $RC, $n records: $(head -c 300 "$T/err")"
fi
: >"$T/replayed"
all_ok=yes
for f in "$RECS"/*.rec; do
    [ -f "$f" ] || continue
    run "$CARC" replay --json "$f"
    if [ "$RC" -ne 0 ] || ! grep -F -q '"finished": true' "$T/out"; then
        all_ok=no
        fail "sim record $(basename "$f") replays to a finished game" "exit $RC: $(head -c 300 "$T/err" "$T/out")"
    fi
    json_scores <"$T/out" >>"$T/replayed"
    echo >>"$T/replayed"
done
[ "$all_ok" = yes ] && [ "$n" -gt 0 ] && pass "every sim record replays to a finished game"
# The mean score and win rate of each seat over the replayed records must be
# those that sim reported for the same games.
implied=$(awk '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); s[NR, i] = kv[2]; if (i > seats) seats = i } games = NR }
    END {
        for (g = 1; g <= games; g++) {
            best = s[g, 1]; nb = 0
            for (p = 1; p <= seats; p++) if (s[g, p] + 0 > best + 0) best = s[g, p]
            for (p = 1; p <= seats; p++) nb += (s[g, p] + 0 == best + 0)
            for (p = 1; p <= seats; p++) { sum[p] += s[g, p]; if (s[g, p] + 0 == best + 0) win[p] += 1 / nb }
        }
        for (p = 1; p <= seats; p++) printf "%.6f/%.4f ", win[p] / games, sum[p] / games
    }' "$T/replayed")
reported=$(tr '{' '\n' <"$T/sim-records.json" |
    sed -n 's/.*"win_rate": \([0-9.]*\),.*"mean_score": \([0-9.-]*\),.*/\1\/\2/p' |
    awk -F/ '{ printf "%.6f/%.4f ", $1, $2 }') # JSON prints each number as short as it is
if [ -n "$reported" ] && [ "$implied" = "$reported" ]; then
    pass "the replayed sim records give the win rates and mean scores sim reported ($reported)"
else
    fail "the replayed sim records give the win rates and mean scores sim reported" \
        "sim: '$reported', replays: '$implied'"
fi

# ---- carc play without a terminal ---------------------------------------------------

P9=$T/p9.rec
run "$CARC" play --players random,random --seed 9 --save "$P9"
cp "$T/out" "$T/p9.out"
if [ "$RC" -eq 0 ] && grep -q "game over" "$T/p9.out"; then
    pass "play --players random,random --seed 9 plays a whole game"
else
    fail "play --players random,random --seed 9 plays a whole game" "exit $RC: $(tail -c 300 "$T/err")"
fi
played=$(play_scores <"$T/p9.out")
run "$CARC" replay --json "$P9"
replayed=$(json_scores <"$T/out")
if [ "$RC" -eq 0 ] && grep -F -q '"finished": true' "$T/out" && [ -n "$played" ] && [ "$played" = "$replayed" ]; then
    pass "play's record replays to a finished game with the scores play printed ($played)"
else
    fail "play's record replays to a finished game with the scores play printed" \
        "exit $RC, play printed '$played', replay '$replayed' $(head -c 200 "$T/err")"
fi
check "play with an unknown agent is refused" nz "unknown agent" \
    "$CARC" play --players random,nosuchagent --seed 1 --save "$T/bad.rec"
check "play --resume of a missing file fails" nz "cannot open" "$CARC" play --resume "$T/no-such-game.rec"
check "play --resume of a malformed record names file:line" nz "tests/bad/records/unknown-header.rec:4:" \
    "$CARC" play --resume tests/bad/records/unknown-header.rec

# ---- a game killed mid-way, then resumed ---------------------------------------------

K=$T/kill
mkdir "$K"
F=$K/game.rec
mkfifo "$K/in" || fail "mkfifo" "cannot create a FIFO"
"$CARC" play --players human,random --seed 3 --save "$F" <"$K/in" >"$K/play.out" 2>"$K/play.err" &
PLAY_PID=$!
exec 3<>"$K/in" # read-write: never blocks, even if carc is already gone
answers=0
prompts() {
    c=$(grep -c "choice (" "$K/play.out" 2>/dev/null)
    echo "${c:-0}"
}
# Answer "1" to 6 prompts, one at a time, waiting for each prompt first.
while [ "$answers" -lt 6 ]; do
    tries=0
    while [ "$(prompts)" -le "$answers" ] && [ $tries -lt 100 ] && kill -0 "$PLAY_PID" 2>/dev/null; do
        nap
        tries=$((tries + 1))
    done
    [ "$(prompts)" -le "$answers" ] && break
    echo 1 >&3
    answers=$((answers + 1))
done
# Wait for the 7th prompt: the answers are applied and saved; then kill.
tries=0
while [ "$(prompts)" -le "$answers" ] && [ $tries -lt 100 ] && kill -0 "$PLAY_PID" 2>/dev/null; do
    nap
    tries=$((tries + 1))
done
if kill -0 "$PLAY_PID" 2>/dev/null; then
    kill -9 "$PLAY_PID"
    wait "$PLAY_PID" 2>/dev/null
    pass "play --players human,random read $answers answers from a FIFO and was killed"
else
    wait "$PLAY_PID" 2>/dev/null
    fail "play --players human,random read answers from a FIFO" \
        "it ended by itself after $answers answers: $(tail -c 300 "$K/play.err" "$K/play.out")"
fi
PLAY_PID=
exec 3>&-

# F must be a whole record: header, '---', whole lines, replayable.
if [ -f "$F" ] && [ "$(head -n 1 "$F")" = "carcassonne-record 1" ] && grep -q '^---$' "$F" &&
    [ "$(tail -c 1 "$F" | od -An -c | tr -d ' ')" = '\n' ]; then
    pass "the killed game's record is complete (header, ---, whole lines)"
else
    fail "the killed game's record is complete (header, ---, whole lines)" "$(cat "$F" 2>/dev/null | head -c 300)"
fi
moves=$(sed '1,/^---$/d' "$F" 2>/dev/null | grep -c -v -e '^draw ' -e '^$')
if [ "$moves" -ge "$answers" ] && [ "$answers" -gt 0 ]; then
    pass "the killed game's record holds every answer given ($moves choices for $answers answers)"
else
    fail "the killed game's record holds every answer given" "$moves choices for $answers answers"
fi
leftover=$(ls "$K" | grep -c 'game\.rec\.tmp')
leftover=${leftover:-0}
if [ "$leftover" -eq 0 ]; then pass "no temporary record file left behind"; else
    fail "no temporary record file left behind" "$(ls "$K")"; fi
run "$CARC" replay --json "$F"
if [ "$RC" -eq 0 ] && grep -F -q '"finished": false' "$T/out"; then
    pass "the killed game's record replays to a game in progress"
else
    fail "the killed game's record replays to a game in progress" "exit $RC: $(head -c 300 "$T/err" "$T/out")"
fi
cp "$F" "$K/killed.rec"

# Resume with plenty of answers: the game goes on to its end.
i=0
while [ $i -lt 1000 ]; do echo 1; i=$((i + 1)); done >"$K/answers"
$LIMIT "$CARC" play --resume "$F" <"$K/answers" >"$K/resume.out" 2>"$K/resume.err"
RC=$?
if [ "$RC" -eq 0 ] && grep -q "game over" "$K/resume.out"; then
    pass "play --resume continues the killed game to its end"
else
    fail "play --resume continues the killed game to its end" "exit $RC: $(tail -c 300 "$K/resume.err" "$K/resume.out")"
fi
klines=$(wc -l <"$K/killed.rec")
if [ "$(wc -l <"$F")" -gt "$klines" ] && head -n "$klines" "$F" | cmp -s - "$K/killed.rec"; then
    pass "the resumed record extends the killed one"
else
    fail "the resumed record extends the killed one" "$(diff "$K/killed.rec" "$F" | head -5)"
fi
resumed=$(play_scores <"$K/resume.out")
run "$CARC" replay --json "$F"
replayed=$(json_scores <"$T/out")
if [ "$RC" -eq 0 ] && grep -F -q '"finished": true' "$T/out" && [ -n "$resumed" ] && [ "$resumed" = "$replayed" ]; then
    pass "the resumed record replays to a finished game with the scores play printed ($resumed)"
else
    fail "the resumed record replays to a finished game with the scores play printed" \
        "exit $RC, play printed '$resumed', replay '$replayed' $(head -c 200 "$T/err")"
fi
# Every chance draw is a line of the record (records.md: "every choice that
# anyone made, chance included, one per line"): each `place` follows a `draw`.
nodraw=$(sed '1,/^---$/d' "$F" | awk '$1 == "place" && prev != "draw" { n++ } { prev = $1 } END { print n + 0 }')
if [ "$nodraw" -eq 0 ]; then
    pass "the resumed record names every draw"
else
    fail "the resumed record names every draw" \
        "$nodraw 'place' line(s) without their 'draw' line, first: $(sed '1,/^---$/d' "$F" |
            awk '$1 == "place" && prev != "draw" { print "after \"" prevl "\": " $0; exit } { prev = $1; prevl = $0 }')"
fi

# ---- games killed while saving -------------------------------------------------------
# `play` saves after every move (most of its time is the fsync); killed at any
# moment, the record on disk is the last whole one: absent before the first
# save, else complete and replayable.
KS=$T/killsave
mkdir "$KS"
ks_bad=0
ks_saved=0
for d in 0.02 0.05 0.08 0.11 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5; do
    F=$KS/game-$d.rec
    "$CARC" play --players random,random --seed 21 --save "$F" </dev/null >/dev/null 2>&1 &
    PLAY_PID=$!
    sleep "$d" 2>/dev/null || sleep 1
    kill -9 "$PLAY_PID" 2>/dev/null
    wait "$PLAY_PID" 2>/dev/null
    PLAY_PID=
    [ -f "$F" ] || continue
    ks_saved=$((ks_saved + 1))
    run "$CARC" replay --json "$F"
    if [ "$RC" -ne 0 ] || [ "$(tail -c 1 "$F" | od -An -c | tr -d ' ')" != '\n' ]; then
        ks_bad=$((ks_bad + 1))
        echo "  killed after $d s: $(head -c 200 "$T/err")"
    fi
done
if [ "$ks_bad" -eq 0 ] && [ "$ks_saved" -gt 0 ]; then
    pass "games killed while saving leave whole, replayable records ($ks_saved records)"
else
    fail "games killed while saving leave whole, replayable records" "$ks_bad of $ks_saved records are broken"
fi

# ---- what play refuses to save ---------------------------------------------------------
check "play refuses a name with a space (the record could not be read back)" 2 "cannot be saved" \
    "$CARC" play --players random,random --names "Al Bo,Cy" --seed 1 --save "$T/names.rec"
check "play refuses two players with one name" 2 "two players" \
    "$CARC" play --players random,random --names Red,Red --seed 1 --save "$T/names.rec"

# ---- C plugins: by name from the plugin path; by path only with --allow-plugin-paths ----
PLUGIN_SO=$(cd "$(dirname "$CARC")" && pwd)/tests/plugins/noop.so
if [ -f "$PLUGIN_SO" ]; then
    V=$T/by-path.ini
    printf '[variant]\nname = by-path\n[tiles]\nsets = base\n[plugins]\nload = %s\n' "$PLUGIN_SO" >"$V"
    for cmd in "sim --games 1 --variant $V" "variant show $V"; do
        # shellcheck disable=SC2086
        check "carc $cmd refuses a plugin given as a path" nz "--allow-plugin-paths" "$CARC" $cmd
    done
    check "carc play refuses a plugin given as a path" nz "--allow-plugin-paths" \
        "$CARC" play --variant "$V" --players random,random --seed 1 --save "$T/by-path.rec"
    check "carc sim --allow-plugin-paths loads it" 0 "win rate" \
        "$CARC" sim --games 2 --variant "$V" --allow-plugin-paths
    check "carc variant show --allow-plugin-paths loads it" 0 "noop" \
        "$CARC" variant show --allow-plugin-paths "$V"
    check "carc play --allow-plugin-paths loads it" 0 "game over" \
        "$CARC" play --variant "$V" --players random,random --seed 1 --save "$T/by-path.rec" --allow-plugin-paths
    check "carc replay refuses the record of a variant with a plugin path" nz "--allow-plugin-paths" \
        "$CARC" replay "$T/by-path.rec"
    check "carc replay --allow-plugin-paths replays it" 0 "game over" \
        "$CARC" replay --allow-plugin-paths "$T/by-path.rec"
    printf '[variant]\nname = rel\n[tiles]\nsets = base\n[plugins]\nload = noop.so\n' >"$T/rel.ini"
    check "a plugin file name ending in .so is a path too" nz "--allow-plugin-paths" "$CARC" variant show "$T/rel.ini"
else
    fail "plugin path checks" "no test plugin at $PLUGIN_SO"
fi

# ---- carc test: scenario records' #! checks ------------------------------------

check "carc test of a good record: ok and the closing count" 0 "1 passed, 0 failed" \
    "$CARC" test tests/scenarios/base-small-city.rec
check "carc test prints the record and its rules" 0 "ok   tests/scenarios/base-small-city.rec (BASE-" \
    "$CARC" test tests/scenarios/base-small-city.rec
# carc replay counts every figure kind a player has in supply.
check "carc replay counts every figure kind in supply" 0 "(in supply: 7 follower, 1 large-follower" \
    "$CARC" replay tests/scenarios/ic-large-city.rec
# A script's carc.fail in its game_init names the script once.
mkdir -p "$T/fail-init"
printf 'carc.game_init(function() carc.fail("no start tile here") end)\n' >"$T/fail-init/h.lua"
printf '[variant]\ninclude = base\nname = h\n[plugins]\nscripts = h.lua\n' >"$T/fail-init/h.ini"
check "carc.fail in a script's game_init: the message names the script" 1 "h: $T/fail-init/h.lua:1: no start tile here" \
    "$CARC" sim --variant "$T/fail-init/h.ini" --games 1
lacks "carc.fail in a script's game_init: ... once" "h: h: "
# expect-error LINE MESSAGE: a stop at that line for another reason fails.
sed 's/^#! expect-error 16 .*/#! expect-error 16 no tile left/' tests/scenarios/base-one-deploy-per-turn.rec \
    >"$T/other-error.rec"
check "carc test: a stop at the expected line with another message fails" 1 \
    "expected a stop at line 16 with 'no tile left', got: " "$CARC" test "$T/other-error.rec"
check "carc test: a stop with the expected message passes" 0 "1 passed, 0 failed" \
    "$CARC" test tests/scenarios/base-one-deploy-per-turn.rec
sed 's/^#! expect Red \([0-9]*\)$/#! expect Red 999/' tests/scenarios/base-small-city.rec >"$T/wrong.rec"
check "carc test of a wrong expectation fails and says why" 1 "Red scored" "$CARC" test "$T/wrong.rec"
check "carc test counts the failure" 1 "0 passed, 1 failed" "$CARC" test "$T/wrong.rec"
printf '#! rule BASE-1\n#! expcet Red 3\n' >"$T/typo.rec"
check "carc test names the line of an unknown directive" 1 "typo.rec:2:" "$CARC" test "$T/typo.rec"
mkdir -p "$T/recs/sub"
cp tests/scenarios/base-small-city.rec "$T/recs/a.rec"
cp tests/scenarios/base-city-pennants.rec "$T/recs/sub/b.rec"
cp "$T/wrong.rec" "$T/recs/sub/c.rec"
check "carc test DIR takes every record below it" 1 "2 passed, 1 failed" "$CARC" test "$T/recs"
check "carc test of a missing file is bad input (exit 1)" 1 "no such file" "$CARC" test "$T/nosuch.rec"
check "carc test without a file: usage" 2 "usage" "$CARC" test

check "replaying two options with one text names the plugin that offered them" nz \
    "api2-probe offered two options with one text" "$CARC" replay tests/scenarios/probe-duplicate-text.rec
check "sim stops a recorded game where two options read the same, naming the plugin" nz \
    "api2-probe offered two options with one text" \
    "$CARC" sim --variant tests/variants/test-probe.ini --option api2-probe.mode=dup --games 1 --seed 1 \
    --records "$T/dup-records"

# ---- carc new: starter plugin and script, as generated -------------------------

mkdir -p "$T/new"
check "carc new refuses a bad name" 2 "is not a name" sh -c "cd '$T/new' && '$CARC' new plugin 'My Rule'"
check "carc new plugin writes a starter" 0 "my-rule/my-rule.c" sh -c "cd '$T/new' && '$CARC' new plugin my-rule"
check "carc new refuses an existing directory" 1 "cannot create" sh -c "cd '$T/new' && '$CARC' new plugin my-rule"
check "carc new plugin: its Makefile uses pkg-config carc and no absolute path" 0 "" \
    sh -c "grep -q 'pkg-config' '$T/new/my-rule/Makefile' && ! grep -v '^#' '$T/new/my-rule/Makefile' | grep -q -e ' /' -e '=/'"
check "the starter plugin builds and passes carc test" 0 "1 passed, 0 failed" \
    sh -c "cd '$T/new/my-rule' && make -s test CARC='$CARC' CARC_CFLAGS='-I$CARC_DATA/kernel'"
check "carc new script writes a starter" 0 "my-lua/my-lua.lua" sh -c "cd '$T/new' && '$CARC' new script my-lua"
check "the starter script passes carc test" 0 "1 passed, 0 failed" sh -c "cd '$T/new/my-lua' && '$CARC' test tests"

# Terminal control characters from a file reach the terminal escaped
# (docs/security.md): an escape sequence in a variant's text is shown as \x1b.
printf '[variant]\nname = x\n[tiles]\nsets = nosuch\033[2J\033]0;pwned\007\n' > "$T/escape.ini"
"$CARC" sim --variant "$T/escape.ini" --games 1 >"$T/escape.out" 2>&1
if grep -q "$(printf '\033')" "$T/escape.out" || grep -q "$(printf '\007')" "$T/escape.out"; then
    fail "control characters in an error are escaped" "raw escape bytes reached the output"
elif grep -q 'nosuch\\x1b\[2J\\x1b\]0;pwned\\x07' "$T/escape.out"; then
    pass "control characters in an error are escaped"
else
    fail "control characters in an error are escaped" "$(cat "$T/escape.out")"
fi

# ---- the terminal game: what it shows ---------------------------------------------------

# A human seat answering "1" at every prompt (stdin and stdout are files:
# the whole board, every line of news).
i=0
while [ $i -lt 400 ]; do echo 1; i=$((i + 1)); done >"$T/ones"
TP=$T/term.rec
$LIMIT "$CARC" play --players human,greedy --seed 7 --save "$TP" <"$T/ones" >"$T/term.out" 2>"$T/term.err"
if grep -q "(the tile you drew):" "$T/term.out" && grep -q "^where (x,y: option number and turn):" "$T/term.out" &&
    grep -E -q '^  -?[0-9]+,-?[0-9]+: [0-9]+=r[0-9]+( [0-9]+=r[0-9]+)*(   |$)' "$T/term.out" &&
    grep -E -q '^  (\(?r0\)? +)\(?r90\)? +\(?r180\)? +\(?r270\)?$' "$T/term.out"; then
    pass "play shows the drawn tile in its four turns and the placements grouped by position"
else
    fail "play shows the drawn tile and the placements grouped by position" "$(grep -A8 'tile you drew' "$T/term.out" | head -12)"
fi
if grep -E -q '^Blue \(greedy\): place -?[0-9]+,-?[0-9]+ r[0-9]+$' "$T/term.out" &&
    grep -E -q '^Blue \(greedy\): (deploy|pass)' "$T/term.out"; then
    pass "play tells every move of the bot"
else
    fail "play tells every move of the bot" "$(grep -c 'Blue (greedy)' "$T/term.out") lines"
fi
told=$(grep -E -c '^  (Red|Blue) [+-][0-9]+ for [a-z-]+' "$T/term.out")
run "$CARC" replay --json "$TP"
events=$(grep -o '"points":' "$T/out" | wc -l)
if [ "$told" -gt 0 ] && [ "$told" -eq "$events" ]; then
    pass "play tells every award with its reason ($told, as many as the record's scoring events)"
else
    fail "play tells every award with its reason" "$told told, $events in the replay"
fi
want=$(json_scores <"$T/out")
got=$(awk '/^points for/ { n = NF - 2; for (i = 3; i <= NF; i++) name[i - 2] = $i } /^score / { for (i = 2; i <= NF; i++) printf "%s=%s ", name[i - 1], $i }' "$T/term.out")
if grep -q '^points for' "$T/term.out" && grep -E -q '^(city|road|farm|cloister) +[0-9]+ +[0-9]+$' "$T/term.out" &&
    [ -n "$got" ] && [ "$got" = "$want" ]; then
    pass "play ends with the points by player and reason, and the scores of the replay ($got)"
else
    fail "play ends with the points by player and reason" "table '$got', replay '$want'"
fi
# The tile laid last has + in its corners: two lines of every board after
# the first move (the final board marks none).
marks=$(awk '/^ +-?[0-9]+( +-?[0-9]+)* *$/ { inb = 1; c = 0; next }
    inb && /^turn [0-9]+,/ { boards++; if (c == 2) ok++; else if (c != 0) bad++; inb = 0; next }
    inb && /\+[^ ][^ ][^ ]\+/ { c++ }
    END { printf "%d %d %d", boards, ok, bad + 0 }' "$T/term.out")
set -- $marks
if [ "$1" -gt 20 ] && [ "$2" -ge $(($1 - 2)) ] && [ "$3" -eq 0 ]; then
    pass "play marks the tile laid last on the board ($2 of $1 boards)"
else
    fail "play marks the tile laid last on the board" "boards, marked, wrongly marked: $marks"
fi

# Expansion figures and pennants on the board (bots alone: every line as it happens).
$LIMIT "$CARC" play --players random,random --variant all-expansions --seed 3 --save "$T/allx.rec" >"$T/allx.out" 2>&1
if grep -E -q '^figures: .*the dragon \(D\) at -?[0-9]+,-?[0-9]+' "$T/allx.out" &&
    grep -E -q 'the fairy \(F\) at' "$T/allx.out" && grep -E -q "the ark \(A\) at" "$T/allx.out"; then
    pass "play names the dragon, the fairy and the Ark and where they stand"
else
    fail "play names the expansion figures" "$(grep '^figures' "$T/allx.out" | tail -1)"
fi
board=$(awk '/^ +-?[0-9]+( +-?[0-9]+)* *$/ { b = "" } { b = b $0 "\n" } /^figures:/ { print b; exit }' "$T/allx.out")
if echo "$board" | grep -E -q '^ +-?[0-9]+ .*D' && echo "$board" | grep -E -q '^ +-?[0-9]+ .*A' &&
    grep -q '^marks: P pennant' "$T/allx.out" && echo "$board" | grep -q 'CP\|PC'; then
    pass "the board draws the dragon (D), the Ark (A) and pennants (P)"
else
    fail "the board draws the dragon, the Ark and pennants" "$(echo "$board" | tail -20)"
fi

# 80x24: a pseudo-terminal of that size (script); every prompt with the news
# before it fits in 24 lines, no line is wider than 80.
if command -v script >/dev/null 2>&1; then
    $LIMIT script -qfec "stty -echo rows 24 cols 80; exec '$CARC' play --players human,greedy --seed 7 --save '$T/small.rec'" \
        /dev/null <"$T/ones" >"$T/small.out" 2>&1
    tr -d '\r' <"$T/small.out" | grep -v -x 1 >"$T/small.txt" # the answers typed ahead echo before stty
    tallest=$(awk '/choice \(/ { if (n > max) max = n; n = 0; next } { n++ } END { print max + 1 }' "$T/small.txt")
    # (the prompt's line holds the answer in a real terminal; the first line names the save's path)
    widest=$(grep -v -e 'choice (' -e '^carc: ' "$T/small.txt" | awk '{ if (length > w) w = length } END { print w + 0 }')
    if grep -q "game over" "$T/small.txt" && [ "$tallest" -le 24 ] && [ "$widest" -le 80 ] &&
        grep -q "around the last tile" "$T/small.txt"; then
        pass "on an 80x24 terminal every prompt fits ($tallest lines, $widest columns at most; a window of the board)"
    else
        fail "on an 80x24 terminal every prompt fits" "tallest $tallest lines, widest $widest: $(grep -v -e 'choice (' -e '^carc: ' "$T/small.txt" | awk 'length > 80' | head -2)"
    fi
else
    fail "on an 80x24 terminal every prompt fits" "no script(1) for a pseudo-terminal (util-linux)"
fi

# ---- the terminal game: saves ---------------------------------------------------------

echo "keep me" >"$T/existing.rec"
check "play refuses to overwrite an existing save" 1 "--force to overwrite" \
    "$CARC" play --players random,random --seed 1 --save "$T/existing.rec"
if [ "$(cat "$T/existing.rec")" = "keep me" ]; then pass "the existing file is untouched"; else
    fail "the existing file is untouched" "$(head -c 100 "$T/existing.rec")"; fi
check "play --force overwrites it" 0 "game over" "$CARC" play --players random,random --seed 1 --save "$T/existing.rec" --force
check "play --resume refuses --seed: the record's own" 2 "cannot change a saved game" \
    "$CARC" play --resume "$T/existing.rec" --seed 4
check "play --resume refuses --players of the wrong length" 1 "give one for each seat" \
    "$CARC" play --resume "$T/existing.rec" --players random

# The terminal closed mid-game: the pseudo-terminal's side is killed, carc
# gets SIGHUP at its prompt; the record is whole, no temporary file stays.
H=$T/hup
mkdir "$H"
mkfifo "$H/in"
script -qfec "echo \$\$ >'$H/pid'; exec '$CARC' play --players human,greedy --seed 5 --save '$H/game.rec'" /dev/null \
    <"$H/in" >"$H/out" 2>&1 &
SCRIPT_PID=$!
exec 4<>"$H/in"
hprompts() {
    c=$(grep -c "choice (" "$H/out" 2>/dev/null)
    echo "${c:-0}"
}
given=0
while [ $given -lt 5 ]; do
    tries=0
    while [ "$(hprompts)" -le $given ] && [ $tries -lt 100 ]; do nap; tries=$((tries + 1)); done
    [ "$(hprompts)" -le $given ] && break
    echo 1 >&4
    given=$((given + 1))
done
tries=0
while [ "$(hprompts)" -le $given ] && [ $tries -lt 100 ]; do nap; tries=$((tries + 1)); done
CPID=$(cat "$H/pid" 2>/dev/null)
kill -9 "$SCRIPT_PID" 2>/dev/null # the terminal goes away: carc's tty hangs up
wait "$SCRIPT_PID" 2>/dev/null
exec 4>&-
tries=0
while [ -n "$CPID" ] && kill -0 "$CPID" 2>/dev/null && [ $tries -lt 100 ]; do nap; tries=$((tries + 1)); done
hmoves=$(sed '1,/^---$/d' "$H/game.rec" 2>/dev/null | grep -c -v -e '^draw ' -e '^$')
run "$CARC" replay --json "$H/game.rec"
if [ -n "$CPID" ] && ! kill -0 "$CPID" 2>/dev/null && [ "$RC" -eq 0 ] && grep -F -q '"finished": false' "$T/out" &&
    [ "$given" -eq 5 ] && [ "$hmoves" -ge 5 ] && [ "$(ls "$H" | tr '\n' ' ')" = "game.rec in out pid " ]; then
    pass "a terminal closed mid-game (SIGHUP): carc stops, the record is whole ($hmoves moves), no temporary file"
else
    fail "a terminal closed mid-game (SIGHUP)" "pid '$CPID' $(kill -0 "$CPID" 2>/dev/null && echo alive), replay exit $RC, $given answers, $hmoves moves, files: $(ls "$H" | tr '\n' ' ')"
    [ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null
fi
# SIGTERM at the prompt: the same, and the exit status says so.
mkfifo "$H/in2"
"$CARC" play --players human,greedy --seed 6 --save "$H/term.rec" <"$H/in2" >"$H/out2" 2>&1 &
PLAY_PID=$!
exec 4<>"$H/in2"
tries=0
while ! grep -q "choice (" "$H/out2" && [ $tries -lt 100 ]; do nap; tries=$((tries + 1)); done
echo 1 >&4
tries=0
while [ "$(grep -c "choice (" "$H/out2")" -lt 2 ] && [ $tries -lt 100 ]; do nap; tries=$((tries + 1)); done
kill -TERM "$PLAY_PID"
wait "$PLAY_PID"
trc=$?
PLAY_PID=
exec 4>&-
run "$CARC" replay --json "$H/term.rec"
if [ "$trc" -eq 143 ] && [ "$RC" -eq 0 ] && grep -q "game saved to" "$H/out2" && ! ls "$H" | grep -q 'term\.rec\.'; then
    pass "SIGTERM at the prompt: saved, exit 143, no temporary file"
else
    fail "SIGTERM at the prompt" "exit $trc, replay $RC, files: $(ls "$H" | tr '\n' ' ')"
fi
# --resume with --players: the seats take the new agents (a bot for the
# player who left), and the record says so.
$LIMIT "$CARC" play --resume "$H/game.rec" --players random,greedy >"$H/resume.out" 2>&1
if grep -q "game over" "$H/resume.out" && grep -q '^player Red random$' "$H/game.rec" &&
    "$CARC" replay --json "$H/game.rec" | grep -F -q '"finished": true'; then
    pass "play --resume --players random,greedy plays the closed game on with a bot for Red"
else
    fail "play --resume --players honours the new agents" "$(tail -c 300 "$H/resume.out"; grep '^player' "$H/game.rec")"
fi

# ---- carc serve: where it listens ---------------------------------------------------

check "carc serve --help: exit 0" 0 "usage: carc serve" "$CARC" serve --help
check "carc serve --port abc is refused" 2 "--port" "$CARC" serve --port abc
check "carc serve --port 70000 is refused" 2 "--port" "$CARC" serve --port 70000
check "carc serve --listen nonsense is refused" 1 "not an IPv4 or IPv6 address" "$CARC" serve --port 0 --listen nonsense
check "carc serve --save-dir that is no folder is refused" 2 "not a folder" "$CARC" serve --save-dir "$T/nowhere"
check "carc serve --resume of a missing file fails" 1 "cannot open" "$CARC" serve --port 0 --resume "$T/nowhere.rec"

# serve_up ARGS...: starts carc serve in the background; SERVE_PID, and the
# port it printed in SERVE_PORT ("" when it printed none within 5 s).
serve_up() {
    # Emptied here, not only by the redirection below: that happens in the
    # background child, and until then the loop would read the last server's
    # address.
    : >"$T/serve.out"
    : >"$T/serve.err"
    "$CARC" serve --port 0 --save-dir "$T" "$@" >"$T/serve.out" 2>"$T/serve.err" &
    SERVE_PID=$!
    SERVE_PORT=
    for i in $(seq 50); do
        SERVE_PORT=$(sed -n 's/.*http:[^ ]*:\([0-9][0-9]*\)\/.*/\1/p' "$T/serve.out" | head -n 1)
        [ -n "$SERVE_PORT" ] && break
        nap
    done
}
# The local addresses listening on a port, from /proc/net/tcp and tcp6, in hex.
# (Asked again for up to 5 s: on a busy machine the listing can lag the line
# the server printed.)
listening_on() {
    hex=$(printf '%04X' "$1")
    for i in $(seq 50); do
        found=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }')
        [ -n "$found" ] && break
        nap
    done
    echo "$found"
}
serve_up
addr=$(listening_on "$SERVE_PORT")
if [ -n "$SERVE_PORT" ] && [ "$addr" = "0100007F:$(printf '%04X' "$SERVE_PORT")" ] && grep -q "open http://127.0.0.1:$SERVE_PORT/" "$T/serve.out"; then
    pass "carc serve listens on 127.0.0.1 only and prints the address ($addr)"
else
    fail "carc serve listens on 127.0.0.1 only" "port '$SERVE_PORT', listening on '$addr': $(cat "$T/serve.out" "$T/serve.err")"
fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
# http_status URL [CURL ARGS...]: the status of a GET over loopback, within 10 s.
http_status() {
    url=$1
    shift
    timeout 10 curl -s -o /dev/null -w '%{http_code}' "$@" "$url" 2>/dev/null
}
# --listen 127.0.0.1 is this machine only: it says so, and still refuses a
# Host header naming another site (DNS rebinding).
serve_up --listen 127.0.0.1
if [ -n "$SERVE_PORT" ] && grep -q "open http://127.0.0.1:$SERVE_PORT/\$" "$T/serve.out" && ! grep -q "not only" "$T/serve.out"; then
    pass "carc serve --listen 127.0.0.1 says it is reachable from this machine only"
else
    fail "carc serve --listen 127.0.0.1 says it is reachable from this machine only" "$(cat "$T/serve.out" "$T/serve.err")"
fi
u="http://127.0.0.1:$SERVE_PORT/api/variants"
if [ "$(http_status "$u")" = 200 ] && [ "$(http_status "$u" -H 'Host: rebound.example')" = 403 ] &&
    [ "$(http_status "$u" -H "Host: rebound.example:$SERVE_PORT")" = 403 ]; then
    pass "carc serve --listen 127.0.0.1 refuses a Host header naming another site"
else
    fail "carc serve --listen 127.0.0.1 refuses a Host header naming another site" "$(http_status "$u") $(http_status "$u" -H 'Host: rebound.example')"
fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
# --listen 0.0.0.0: the API asks for the key printed in the address; the
# Host check holds; --allow-host adds a name.
serve_up --listen 0.0.0.0 --allow-host carc-box.example
addr=$(listening_on "$SERVE_PORT")
if [ -n "$SERVE_PORT" ] && [ "$addr" = "00000000:$(printf '%04X' "$SERVE_PORT")" ] && grep -q "not only on this machine" "$T/serve.out"; then
    pass "carc serve --listen 0.0.0.0 binds every address and says so"
else
    fail "carc serve --listen 0.0.0.0 binds every address and says so" "listening on '$addr': $(cat "$T/serve.out" "$T/serve.err")"
fi
key=$(sed -n 's/.*?key=\([0-9a-f]\{32\}\).*/\1/p' "$T/serve.out" | head -n 1)
u="http://127.0.0.1:$SERVE_PORT/api/variants"
if [ -n "$key" ] && [ "$(http_status "$u")" = 403 ] && [ "$(http_status "$u" -H "Authorization: Bearer $key")" = 200 ] &&
    [ "$(http_status "$u" -H "Authorization: Bearer 0$key")" = 403 ] &&
    [ "$(http_status "$u" -H "Authorization: Bearer $key" -H 'Host: rebound.example')" = 403 ] &&
    [ "$(http_status "$u" -H "Authorization: Bearer $key" -H "Host: carc-box.example:$SERVE_PORT")" = 200 ]; then
    pass "carc serve --listen 0.0.0.0 answers the API to the printed key only, for its own names"
else
    fail "carc serve --listen 0.0.0.0 answers the API to the printed key only" "key '$key': $(cat "$T/serve.out")"
fi
# the page's address sets the key as a cookie, which opens the API
jar="$T/serve.cookies"
if [ -n "$key" ] && [ "$(http_status "http://127.0.0.1:$SERVE_PORT/?key=$key" -c "$jar")" = 303 ] &&
    [ "$(http_status "$u" -b "$jar")" = 200 ]; then
    pass "carc serve: the printed address gives the page its key"
else
    fail "carc serve: the printed address gives the page its key" "$(cat "$jar" 2>/dev/null)"
fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
# The games' database: by default under the data directory; --max-games
# bounds the games in progress with a clear refusal; --allow-host on a
# loopback bind (a reverse proxy's name) asks for the key; a file that is
# no carc database is refused.
serve_up --max-games 1 --allow-host games.example
key=$(sed -n 's/.*?key=\([0-9a-f]\{32\}\).*/\1/p' "$T/serve.out" | head -n 1)
new='{"variant": "base", "seats": [{"name": "A", "agent": "human"}, {"name": "B", "agent": "greedy"}]}'
u="http://127.0.0.1:$SERVE_PORT/api/games"
first=$(http_status "$u" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$new")
second=$(timeout 10 curl -s -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$new" -w ' %{http_code}' "$u")
if [ -n "$key" ] && [ -f "$T/data/carc/carc.db" ] && [ "$first" = 201 ] &&
    [ "$(http_status "$u" -H 'Content-Type: application/json' -d "$new")" = 403 ] &&
    echo "$second" | grep -q 'limit (carc serve --max-games).* 503$'; then
    pass "carc serve keeps its games in \$XDG_DATA_HOME/carc/carc.db, asks for its key with --allow-host, and refuses a game past --max-games"
else
    fail "carc serve --max-games, --allow-host, the default database" "key '$key' first '$first' second '$second': $(ls "$T/data/carc" 2>&1) $(cat "$T/serve.out" "$T/serve.err")"
fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
echo "not a database, only text" >"$T/not.db"
check "carc serve --db of a file that is no database is refused" 1 "not" "$CARC" serve --port 0 --db "$T/not.db"
check "carc serve --db-sync bogus is refused" 2 "normal or full" "$CARC" serve --port 0 --db-sync bogus
# Text that is not UTF-8 goes into JSON as UTF-8 (json_io.h): a player
# named in Latin-1.
printf 'carcassonne-record 1\nvariant base\nseed 3\nplayer Jos\351 greedy\nplayer Bob greedy\n---\n' >"$T/latin1.rec"
check "carc replay --json writes a Latin-1 name as UTF-8" 0 '"name": "José"' "$CARC" replay --json "$T/latin1.rec"
check "carc serve --allow-host that is no host name is refused" 1 "not a host name" "$CARC" serve --port 0 --allow-host 'a b/c'
# --resume: the record's game is served, and saved back to the same file.
$LIMIT "$CARC" sim --games 1 --players greedy,greedy --seed 4 --records "$T/serve-rec" >/dev/null 2>&1
head -n 40 "$T/serve-rec/game-000000.rec" >"$T/half.rec"
serve_up --resume "$T/half.rec"
if [ -n "$SERVE_PORT" ] && grep -q "#game=[0-9a-f]\{16\}" "$T/serve.out"; then
    pass "carc serve --resume prints the address of the resumed game"
else
    fail "carc serve --resume prints the address of the resumed game" "$(cat "$T/serve.out" "$T/serve.err")"
fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
if grep -q "stopped" "$T/serve.out"; then pass "carc serve stops cleanly on SIGTERM"; else fail "carc serve stops cleanly on SIGTERM" "$(cat "$T/serve.out")"; fi

# ---- the learned judgement and the analysis (docs/bots.md) ----
# carc train's file depends only on its seed, not on --jobs; agents that
# judge with weights, their errors; carc analyse and the hint at carc play.
# ---- carc train ----
check "carc train writes a weights file" 0 "wrote" \
    "$CARC" train --variant base --games 30 --generations 2 --seed 4 --out "$T/w1.ini"
check "carc train again, on 2 threads" 0 "generation 2" \
    "$CARC" train --variant base --games 30 --generations 2 --seed 4 --jobs 2 --out "$T/w2.ini"
if cmp -s "$T/w1.ini" "$T/w2.ini"; then pass "the same seed gives the same weights, whatever --jobs"
else fail "the same seed gives the same weights" "$(diff "$T/w1.ini" "$T/w2.ini" | head -5)"; fi
check "the weights file names the variant and its figures" 0 "held.city" grep -e "variant = base" -e "held.city" "$T/w1.ini"
check "carc train --from continues from weights" 0 "previous weights" \
    "$CARC" train --variant base --games 10 --generations 1 --from "$T/w1.ini" --out "$T/w3.ini"
check "carc train needs --out" 2 "--out FILE is required" "$CARC" train --variant base
check "carc train refuses a bad --explore" 2 "--explore" "$CARC" train --explore 2 --out "$T/x.ini"
check "carc train names a variant that does not load" 1 "nosuch" "$CARC" train --variant nosuch --out "$T/x.ini"

# ---- agents with weights ----
check "greedy:eval=FILE plays a tournament" 0 "greedy:eval=" \
    "$CARC" tournament --players "greedy:eval=$T/w1.ini,greedy" --games 6 --seed 3
check "mcts:40it:eval=FILE plays" 0 "win rate" "$CARC" sim --players "mcts:40it:eval=$T/w1.ini,greedy" --games 1
check "greedy:trained uses the shipped weights" 0 "greedy:trained" \
    "$CARC" tournament --players greedy:trained,greedy --games 4
printf '[evaluator]\nformat = 1\nsigma = 10\n[weights]\nscore = 1\n' >"$T/bad.ini"
check "a bad weights file is named with its line" 2 "bad.ini:5:" "$CARC" sim --players "greedy:eval=$T/bad.ini"
if "$CARC" sim --players "greedy:eval=$T/bad.ini" 2>&1 | grep -q "did you mean"; then
    fail "a bad weights file suggests no other agent" "$("$CARC" sim --players "greedy:eval=$T/bad.ini" 2>&1)"
else
    pass "a bad weights file suggests no other agent"
fi
{ cat "$T/w1.ini"; echo "hand.pig = 1 1"; } >"$T/pig.ini"
check "weights naming a figure the rules lack are refused" 1 "trained for other rules" \
    "$CARC" sim --players "greedy:eval=$T/pig.ini,greedy" --games 1
check "a variant without shipped weights says how to train them" 1 "carc train --variant VARIANT" \
    "$CARC" sim --variant house/road-closer --players greedy:trained,greedy --games 1
check "an unknown agent part is refused" 2 "is not a budget" "$CARC" sim --players mcts:fast
# docs/house-rules.md's farm study with the search, in small: both sides
# play with the trained search (farms under farm-scoring=none are worth
# nothing to its judgement too).
check "carc compare with the trained search (docs/house-rules.md)" 0 "farm" \
    "$CARC" compare base --option-b farm-scoring=none --players mcts:20it:trained,mcts:20it:trained --games 1 --seed 2026

# ---- carc analyse and the hint ----
"$CARC" sim --games 1 --seed 8 --players greedy,greedy --records "$T/recs" >/dev/null 2>&1
REC=$T/recs/game-000000.rec
check "carc analyse --turn N prints the options and the move" 0 "would play" \
    "$CARC" analyse "$REC" --turn 12 --agent mcts:300it
check "carc analyse estimates win and lead" 0 "win     lead  visits" "$CARC" analyse "$REC" --turn 3 --agent mcts:100it
"$CARC" analyse "$REC" --turn 12 --agent mcts:300it --seed 5 >"$T/a1" 2>&1
"$CARC" analyse "$REC" --turn 12 --agent mcts:300it --seed 5 >"$T/a2" 2>&1
if cmp -s "$T/a1" "$T/a2"; then pass "carc analyse with a seed repeats"; else fail "carc analyse repeats" "differs"; fi
(cd "$T" && "$CARC" sim --games 1 --seed 8 --players greedy,greedy --records games >/dev/null 2>&1)
check "the analysis shown in docs/bots.md" 0 "mcts:3000it:trained would play: place -2,0 r180" \
    sh -c "cd '$T' && '$CARC' analyse games/game-000000.rec --turn 12 --top 3"
check "carc analyse of a finished game asks for a turn" 1 "give --turn N" "$CARC" analyse "$REC"
# Weights learned in 2-player games judge games of more players badly, and
# with 3 or 4 players the search does no better with the weights learned
# for that many (docs/bots.md): the default search uses weights in 2-player
# games only.
"$CARC" sim --games 1 --seed 8 --players greedy,greedy,greedy --records "$T/recs3" >/dev/null 2>&1
check "carc analyse of a 3-player game: the hand-written judgement" 0 "search: mcts:3000it" \
    "$CARC" analyse "$T/recs3/game-000000.rec" --turn 3 --top 1
lacks "carc analyse of a 3-player game: not the 3-player weights" "mcts:3000it:trained"
"$CARC" sim --variant robbers --games 1 --seed 8 --players greedy,greedy,greedy --records "$T/recs3r" >/dev/null 2>&1
check "carc analyse of a 3-player game without 3-player weights: the hand-written judgement" 0 \
    "search: mcts:3000it" "$CARC" analyse "$T/recs3r/game-000000.rec" --turn 3 --top 1
lacks "carc analyse of a 3-player game: not the 2-player weights" "mcts:3000it:trained"
check "carc analyse of a turn the game never reached" 1 "no decision at turn 500" "$CARC" analyse "$REC" --turn 500
check "carc analyse needs a search agent" 1 "search agent" "$CARC" analyse "$REC" --turn 3 --agent greedy
printf '1\nq\n' | $LIMIT "$CARC" play --seed 3 --save "$T/saved.rec" >/dev/null 2>&1
check "carc analyse of a saved game in progress" 0 "Red to decide" "$CARC" analyse "$T/saved.rec" --agent mcts:100it
printf 'hint\nq\n' | $LIMIT "$CARC" play --seed 3 --save "$T/hint.rec" >"$T/hint.out" 2>&1
if grep -q "would play" "$T/hint.out" && grep -q "<- plays" "$T/hint.out"; then pass "hint at carc play shows the search's view"
else fail "hint at carc play" "$(tail -5 "$T/hint.out")"; fi


echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
