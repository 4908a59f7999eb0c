#!/bin/sh
# sweep_test.sh - carc sweep and the designer measures from the command
# line: the baseline played once and every point on its seeds (records and
# game lines counted), one row per (point, measure) in the table, CSV and
# JSON, script options swept, a sweep written in a study file, bad axes
# refused; compare --skill-gap with seats rotated, restricted agents, the
# measures in sim's JSON and in the game lines. Each check's name starts
# with what it covers.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/sweep_test.sh
set -u

# pass, fail, run, check, lacks, same; checks_setup.
. "$(dirname "$0")/checks.sh"
checks_setup sweep

# has DESC PHRASE: the last command's output holds PHRASE.
has() {
    if cat "$T/out" "$T/err" | grep -F -q -e "$2"; then pass "$1"; else fail "$1" "no '$2' in: $(head -c 300 "$T/out")"; fi
}

# equal DESC GOT WANT
equal() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}

# --- the baseline once, the points on its seeds -----------------------------------
check "sweep: a script option over a range" 0 "road-closer.points-per-tile=2" \
    "$CARC" sweep base house/road-closer-lua --vary road-closer.points-per-tile=0..2 --games 30 \
    --records "$T/rec" --games-jsonl "$T/games.jsonl" --measures margin,points:road-closer
equal "sweep: the baseline's games recorded once" "$(find "$T/rec/baseline" -name '*.rec' | wc -l | tr -d ' ')" 30
equal "sweep: three points of 30 games each" "$(find "$T"/rec/point-* -name '*.rec' | wc -l | tr -d ' ')" 90
equal "sweep: 120 game lines (30 + 3 x 30)" "$(wc -l <"$T/games.jsonl" | tr -d ' ')" 120
# every point's game i has the baseline's seed: 30 distinct (index, seed) pairs over all 120 lines
equal "sweep: every point on the baseline's seeds" \
    "$(sed 's/.*"index": \([0-9]*\), "seed": \([0-9]*\).*/\1 \2/' "$T/games.jsonl" | sort -u | wc -l | tr -d ' ')" 30
equal "sweep: the game lines name their point" \
    "$(grep -c '"side": "road-closer.points-per-tile=1"' "$T/games.jsonl")" 30
has "sweep: the table says the baseline was played once" "120 games played"
# points by reason: point 0 pays none (no row), points 1 and 2 a row each; margin: 3 rows
check "sweep: --csv, one row per (point, measure)" 0 "point,key,metric" \
    "$CARC" sweep base house/road-closer-lua --vary road-closer.points-per-tile=0..2 --games 30 --csv \
    --measures margin,points:road-closer
equal "sweep: 5 rows in the CSV" "$(grep -c '^road-closer' "$T/out")" 5
has "sweep: the CSV names the script with its hash" "points file: variants/house/../../scripts/examples/road-closer.lua sha256:"
check "sweep: --json" 0 '"games_played": 120' \
    "$CARC" sweep base house/road-closer-lua --vary road-closer.points-per-tile=0..2 --games 30 --json
has "sweep: the JSON rows carry key, unit and both intervals" '"key": "lead-changes", "metric": "lead changes", "unit": "count"'
check "sweep: a grid of two axes, lists and steps" 0 "farm-scoring=none,followers-per-player=9" \
    "$CARC" sweep base --vary farm-scoring=per-farm,none --vary followers-per-player=5..9:2 --games 20 --measures margin
equal "sweep: 2 x 3 points" "$(grep -c 'followers-per-player=' "$T/out")" 6

# --- refused ---------------------------------------------------------------------
check "sweep: a reversed range" 2 "FROM <= TO" "$CARC" sweep base --vary followers-per-player=4..1
check "sweep: no axis" 2 "nothing to vary" "$CARC" sweep base --games 10
check "sweep: an option the variant lacks, before any game" 1 "point farm-scorin=none" \
    "$CARC" sweep base --vary farm-scorin=none --games 10
check "sweep: a value the option refuses" 1 "point farm-scoring=most" "$CARC" sweep base --vary farm-scoring=most --games 10
check "sweep: an unknown measure" 2 "no measure 'marginn'" "$CARC" sweep base --vary farm-scoring=none --games 10 --measures marginn
check "sweep: not in shards" 2 "a sweep runs in one piece" "$CARC" sweep base --vary farm-scoring=none --shard 1/2
check "sweep: too many points" 2 "more than 64" "$CARC" sweep base --vary followers-per-player=1..20 --vary farm-scoring=per-farm,none,city-majority,per-city-once

# --- a sweep in a study file --------------------------------------------------------
mkdir -p "$T/study"
cat >"$T/study/sweep.ini" <<'INI'
[study]
command = sweep
a = base
vary = farm-scoring=per-farm,none
players = greedy,greedy
games = 20
measures = margin,points:farm
INI
check "study run: a sweep study" 0 "study     sweep.ini sha256:" "$CARC" study run "$T/study/sweep.ini"
has "study run: the sweep's rows" "farm-scoring=none"

# --- skill gap, restricted play, measures --------------------------------------------
check "compare --skill-gap: seats rotated" 0 "greedy, random (2 seats, rotated from game to game)" \
    "$CARC" compare base --option-b farm-scoring=none --skill-gap greedy,random --games 20
has "compare --skill-gap: the measure" "skill gap: greedy's win share"
for k in 1 2; do
    run "$CARC" compare base --option-b farm-scoring=none --skill-gap greedy,random --games 20 --shard $k/2 --out "$T/skill-$k.jsonl"
done
run "$CARC" stats merge "$T/skill-1.jsonl" "$T/skill-2.jsonl"
grep -v "paired games" "$T/out" >"$T/merged.txt"
run "$CARC" compare base --option-b farm-scoring=none --skill-gap greedy,random --games 20
grep -v "paired games" "$T/out" >"$T/whole.txt"
if cmp -s "$T/merged.txt" "$T/whole.txt" && grep -q "skill gap" "$T/whole.txt"; then
    pass "compare --skill-gap: two shards merge to the whole study's report (lead changes and all)"
else
    fail "compare --skill-gap: shards" "$(diff "$T/merged.txt" "$T/whole.txt" | head -c 300)"
fi
check "compare --skill-gap: not with --players" 2 "not with --players" \
    "$CARC" compare base --skill-gap greedy,random --players greedy,greedy --games 4
check "compare --skill-gap: two agents at least" 2 "2 to" "$CARC" compare base --skill-gap greedy --games 4
check "restricted play: greedy:no-farmers scores no farm" 0 "mean game length" \
    "$CARC" sim --players greedy:no-farmers,greedy:no-farmers --games 10
lacks "restricted play: no farm points" "  farm "
check "restricted play: mcts:no-farmers scores no farm either" 0 "mean game length" \
    "$CARC" sim --players mcts:40it:no-farmers,mcts:40it:no-farmers --games 2
lacks "restricted play: no farm points for the search" "  farm "
check "restricted play: the human player refuses it" 2 "restricted play is for random, greedy and mcts" \
    "$CARC" sim --players human:no-farmers,greedy --games 1
check "sim --json: the measures, generically" 0 '"key": "led-from", "name": "turn from which the winner led for good", "unit": "turns"' \
    "$CARC" sim --players random,random --games 10 --json
check "sim --games-jsonl: each game's measures" 0 "" \
    "$CARC" sim --players random,random --games 3 --games-jsonl "$T/sim.jsonl"
equal "sim --games-jsonl: a trace and measures a line" "$(grep -c '"trace": {"snapshots": .*"measures": {"relative-margin"' "$T/sim.jsonl")" 3
check "compare: the winner-changed share against unrelated games" 0 "between unrelated games" \
    "$CARC" compare base --option-b farm-scoring=none --games 20

echo "sweep_test: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
