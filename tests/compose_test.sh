#!/bin/sh
# compose_test.sh - combining expansions, from the command line: variants
# that add up (includes, lists, without, conflicts), compositions such as
# --variant base+robbers+fairy, `carc variant show` round trips, records that
# replay from any directory, reports that say what they ran, flags that are
# never silently ignored, help at the first typo, and every ```ini snippet of
# docs/*.md loading. Each check's name starts with what it covers.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/compose_test.sh
set -u

# pass, fail, run, check, lacks, same; checks_setup.
. "$(dirname "$0")/checks.sh"
checks_setup compose
ROOT=$(pwd)

# ---- 1. the composition model ----------------------------------------------------------
cat >"$T/robbers-fairy.ini" <<EOF
[variant]
include = robbers
name = robbers-fairy

[plugins]
scripts = fairy
EOF
check "combine: 'scripts = fairy' under an include adds the fairy" 0 "scripts = fairy" \
    "$CARC" variant show "$T/robbers-fairy.ini"
check "combine: ... and keeps the robbers' script" 0 "scripts = robbers" "$CARC" variant show "$T/robbers-fairy.ini"
check "combine: ... and the robbers' tiles" 0 "sets = robbers" "$CARC" variant show "$T/robbers-fairy.ini"
check "combine: a module included twice loads once (base through robbers and fairy)" 0 "" \
    "$CARC" variant show base+robbers+fairy
n=$(grep -c '^sets = base$' "$T/out")
[ "$n" = 1 ] && pass "combine: ... one 'sets = base'" || fail "combine: ... one 'sets = base'" "$n of them"

printf '[variant]\ninclude = robbers\n\n[plugins]\nscripts =\n' >"$T/empty.ini"
check "combine: an empty list under an include is an error saying how to take out" 1 "without = NAME" \
    "$CARC" variant show "$T/empty.ini"
printf '[variant]\ninclude = princess-dragon\n\n[plugins]\nwithout = fairy\n' >"$T/no-fairy.ini"
check "combine: [plugins] without = fairy loads" 0 "load = princess-dragon" "$CARC" variant show "$T/no-fairy.ini"
lacks "combine: ... and the fairy is out" "scripts = fairy"
printf '[variant]\ninclude = princess-dragon\nwithout = fairy\n' >"$T/no-fairy-module.ini"
check "combine: [variant] without = fairy takes the module out" 0 "load = princess-dragon" \
    "$CARC" variant show "$T/no-fairy-module.ini"
lacks "combine: ... and its script with it" "scripts = fairy"
printf '[variant]\ninclude = princess-dragon\nwithout = fary\n' >"$T/no-fary.ini"
check "combine: without = a module not in the variant names the closest" 1 "did you mean \`fairy\`" \
    "$CARC" variant show "$T/no-fary.ini"

printf '[variant]\ninclude = base\n\n[options]\nfarm-scoring = none\n' >"$T/farms-none.ini"
printf '[variant]\ninclude = base\n\n[options]\nfarm-scoring = per-city-once\n' >"$T/farms-once.ini"
check "combine: two modules setting one option to two values is an error naming both" 1 \
    "disagree on option 'farm-scoring'" "$CARC" variant show "$T/farms-none.ini+$T/farms-once.ini"
check "combine: ... naming the first file" 1 "farms-none.ini:5" "$CARC" variant show "$T/farms-none.ini+$T/farms-once.ini"
check "combine: ... and the second" 1 "farms-once.ini:5" "$CARC" variant show "$T/farms-none.ini+$T/farms-once.ini"
check "combine: --option settles the disagreement" 0 "farm-scoring=per-farm" \
    "$CARC" sim --variant "$T/farms-none.ini+$T/farms-once.ini" --option farm-scoring=per-farm --games 1
check "combine: two plugins of one name are refused, naming both modules" 1 "module house/road-closer-lua" \
    "$CARC" variant show house/road-closer+house/road-closer-lua
mkdir -p "$T/fan"
cp tiles/base.ini "$T/fan/base.ini"
printf '[variant]\ninclude = base\n\n[tiles]\nsets = fan/base.ini\n' >"$T/twobase.ini"
check "combine: one tile-set name for two files is refused, naming both" 1 "two files for one tile set" \
    "$CARC" variant show "$T/twobase.ini"
printf 'carc.define_mark("gem")\n' >"$T/gem1.lua"
printf 'carc.define_mark("gem")\n' >"$T/gem2.lua"
printf '[variant]\ninclude = base\n[plugins]\nscripts = gem1.lua\n' >"$T/gem1.ini"
printf '[variant]\ninclude = base\n[plugins]\nscripts = gem2.lua\n' >"$T/gem2.ini"
check "combine: one mark defined by two modules is refused, naming both" 1 "defined by both gem1 and gem2" \
    "$CARC" variant show "$T/gem1.ini+$T/gem2.ini"
printf 'carc.define_figure("mayor", 1, {})\n' >"$T/mayor1.lua"
printf 'carc.define_figure("mayor", 1, {})\n' >"$T/mayor2.lua"
printf '[variant]\ninclude = base\n[plugins]\nscripts = mayor1.lua mayor2.lua\n' >"$T/mayors.ini"
check "combine: one figure kind defined twice names both" 1 \
    "the figure kind 'mayor' is defined by both mayor1 and mayor2 (mayor1 from module mayors" \
    "$CARC" variant show "$T/mayors.ini"
printf 'carc.define_kind("moat", "never")\n' >"$T/moat1.lua"
printf 'carc.define_kind("moat", "never")\n' >"$T/moat2.lua"
printf '[variant]\ninclude = base\n[plugins]\nscripts = moat1.lua\n' >"$T/moat1.ini"
printf '[variant]\ninclude = base\n[plugins]\nscripts = moat2.lua\n' >"$T/moat2.ini"
check "combine: one segment kind defined by two modules names both, with their files" 1 \
    "the kind 'moat' is defined by both moat1 and moat2 (moat1 from module" \
    "$CARC" variant show "$T/moat1.ini+$T/moat2.ini"
check "combine: ... and says they cannot be combined" 1 "so these two cannot be combined" \
    "$CARC" variant show "$T/moat1.ini+$T/moat2.ini"
printf 'carc.define_kind("road", "never")\n' >"$T/road.lua"
printf '[variant]\ninclude = base\n[plugins]\nscripts = road.lua\n' >"$T/road.ini"
check "combine: a kind of the kernel's defined again is refused as the kernel's" 1 \
    "define_kind: 'road' is one of the kernel's kinds" "$CARC" variant show "$T/road.ini"
check "combine: an option of a module not in the variant says how to add it" 1 \
    "fairy is not in this variant; add it with \`--variant base+fairy\`" \
    "$CARC" sim --option fairy.turn-bonus=2 --games 1
printf '[variant]\ninclude = base\nplayers = 6\n' >"$T/six.ini"
check "combine: ... (ark 2-5 and a 6-player module)" 1 "cannot be combined" \
    "$CARC" variant show "ark+$T/six.ini"

# What a module requires of a composition ([variant] requires, after,
# conflicts), checked when the variant loads.
printf '[variant]\nname = first-one\nrequires = first\n[tiles]\nsets = base\n' >"$T/first-one.ini"
check "requires = first: the module first loads" 0 "first-one" "$CARC" variant show "$T/first-one.ini+robbers"
check "requires = first: after another module's sets it is refused, naming the line" 1 \
    "first-one.ini:3: module first-one requires = first (its tile sets before every other's), but base comes before it" \
    "$CARC" variant show "robbers+$T/first-one.ini"
printf '[variant]\nname = after-robbers\nafter = robbers\n[tiles]\nsets = base\n' >"$T/after-robbers.ini"
check "after = robbers: with the robbers before it, it loads" 0 "after-robbers" \
    "$CARC" variant show "robbers+$T/after-robbers.ini"
check "after = robbers: without the robbers it is refused" 1 \
    "module after-robbers needs robbers before it (after = robbers), which this composition lacks" \
    "$CARC" variant show "base+$T/after-robbers.ini"
check "after = robbers: with the robbers after it, it is refused" 1 "which comes after it" \
    "$CARC" variant show "$T/after-robbers.ini+robbers"
printf '[variant]\nname = no-fairy\nconflicts = fairy\n[tiles]\nsets = base\n' >"$T/no-fairy.ini"
check "conflicts = fairy: with the fairy it is refused" 1 "modules no-fairy and fairy cannot be combined (conflicts = fairy)" \
    "$CARC" variant show "$T/no-fairy.ini+fairy"
check "conflicts = fairy: without it, it loads" 0 "no-fairy" "$CARC" variant show "$T/no-fairy.ini+robbers"

# ---- 2. composition on the command line ---------------------------------------------------
check "command-line composition: sim --variant base+robbers+fairy plays" 0 "win rate" \
    "$CARC" sim --variant base+robbers+fairy --games 2
check "command-line composition: its title joins the modules' titles" 0 \
    "Carcassonne, base game (1st edition) + The Robbers (2nd edition) + The fairy" \
    "$CARC" sim --variant base+robbers+fairy --games 2
check "command-line composition: tournament takes one" 0 "modules   base robbers" \
    "$CARC" tournament --variant robbers+prophet --players random,greedy --games 2
check "command-line composition: compare takes two" 0 "B modules   base fairy" \
    "$CARC" compare base base+fairy --games 4
check "command-line composition: play takes one" 0 "game over" \
    "$CARC" play --variant robbers+fairy --players random,random --save "$T/composed.rec"
check "command-line composition: a file in a composition" 0 "modules   base robbers robbers-fairy" \
    "$CARC" sim --variant "base+$T/robbers-fairy.ini" --games 1

# ---- 4. carc variant show: loads anywhere, round trips -------------------------------------
# show(load(show(v))) == show(v), the second load from another directory.
roundtrip() {
    v=$1 opt=${2:-}
    # shellcheck disable=SC2086
    if ! $CARC variant show $opt "$v" >"$T/show-a.ini" 2>"$T/err"; then
        fail "variant show round trip: $v" "$(head -c 300 "$T/err")"
        return
    fi
    # shellcheck disable=SC2086
    if ! (cd / && $CARC variant show $opt "$T/show-a.ini") >"$T/show-b.ini" 2>"$T/err"; then
        fail "variant show round trip: $v" "its output does not load: $(head -c 300 "$T/err")"
        return
    fi
    if cmp -s "$T/show-a.ini" "$T/show-b.ini"; then pass "variant show round trip: $v"
    else fail "variant show round trip: $v" "$(diff "$T/show-a.ini" "$T/show-b.ini" | head -c 400)"; fi
}
for v in $($CARC variants | awk '{print $1}'); do roundtrip "$v"; done
roundtrip base+robbers+princess-dragon+ark
roundtrip "$T/no-fairy-module.ini"
# A fan's variant: a tile set and a script given by path, next to the file.
cp tests/tiles/test-pennant-cap.ini "$T/fan/cap.ini"
cp scripts/examples/road-closer.lua "$T/fan/road-closer.lua"
cat >"$T/fan/fan.ini" <<EOF
[variant]
include = robbers
name = fan
title = A fan's variant: The Robbers, a pennant cap, a road bonus

[tiles]
sets = cap.ini
base:E = 2

[plugins]
scripts = ./road-closer.lua

[options]
road-closer.points-per-tile = 2
EOF
roundtrip "$T/fan/fan.ini"
(cd "$T/fan" && $CARC variant show fan.ini) >"$T/show-fan.ini"
if grep -q "^sets = $T/fan/cap.ini$" "$T/show-fan.ini" && grep -q "^scripts = $T/fan/road-closer.lua$" "$T/show-fan.ini"; then
    pass "variant show: a fan's sets and scripts by absolute path"
else
    fail "variant show: a fan's sets and scripts by absolute path" "$(grep -e '^sets' -e '^scripts' "$T/show-fan.ini")"
fi
check "variant show: where each value came from" 0 "# from robbers (" "$CARC" variant show "$T/fan/fan.ini"
check "variant show: ... options set by the file" 0 "# from this variant" "$CARC" variant show "$T/fan/fan.ini"

# ---- 5. records replay from anywhere -------------------------------------------------------
(cd "$T/fan" && $CARC sim --variant fan.ini --games 2 --records recs >/dev/null 2>&1)
check "replay from anywhere: a record of a variant file given by a relative path" 0 "game over" \
    sh -c "cd / && $CARC replay $T/fan/recs/game-000001.rec"
(cd "$T/fan" && $CARC sim --variant "fan.ini+fairy" --games 1 --records recs2 >/dev/null 2>&1)
check "replay from anywhere: a composition with a file in it" 0 "game over" \
    sh -c "cd / && $CARC replay $T/fan/recs2/game-000000.rec"
check "replay from anywhere: a composition of shipped modules" 0 "game over" \
    sh -c "cd / && $CARC replay $T/composed.rec"
(cd "$T/fan" && $CARC play --variant fan.ini --players random,random --save "$T/fan/played.rec" >/dev/null 2>&1)
check "replay from anywhere: a record that play wrote" 0 "game over" sh -c "cd / && $CARC replay $T/fan/played.rec"

# ---- 6. reports say what they ran ------------------------------------------------------------
V=base+robbers+princess-dragon+ark
check "report: sim names every module" 0 "modules   base robbers fairy princess-dragon ark" \
    "$CARC" sim --variant $V --games 2 --option ark.place-bonus=2
check "report: ... every option not at its default" 0 "not at their default: ark.place-bonus=2" \
    "$CARC" sim --variant $V --games 2 --option ark.place-bonus=2
check "report: ... the players" 0 "P1 random, P2 greedy, P3 mcts:20it" \
    "$CARC" sim --games 1 --players random,greedy,mcts:20it
check "report: ... the games and seed" 0 "games     2, study seed 9" "$CARC" sim --games 2 --seed 9
check "report: ... the version" 0 "carc 0.1.0 sim" "$CARC" sim --games 2
check "report: sim --json" 0 '"options_not_default": {"farm-scoring": "none"}' \
    "$CARC" sim --games 2 --json --option farm-scoring=none
check "report: sim --json modules" 0 '"modules": ["base", "robbers"]' "$CARC" sim --variant robbers --games 2 --json
check "report: sim --csv" 0 "# options not at their default: farm-scoring=none" \
    "$CARC" sim --games 2 --csv --option farm-scoring=none
check "report: sim --csv table" 0 "win rate,1,random,2," "$CARC" sim --games 2 --csv
check "report: tournament --csv" 0 "# players: random, greedy (2 seats, rotated" \
    "$CARC" tournament --players random,greedy --games 2 --csv
check "report: tournament --json" 0 '"players": ["random", "greedy"]' \
    "$CARC" tournament --players random,greedy --games 2 --json
check "report: compare names both sides" 0 "B options   not at their default: farm-scoring=none" \
    "$CARC" compare base --option-b farm-scoring=none --games 10 --seed 3 --players random,greedy
check "report: compare names the players" 0 "A players   P1 random, P2 greedy" \
    "$CARC" compare base --option-b farm-scoring=none --games 10 --seed 3 --players random,greedy
check "report: compare says how often the winner changed" 0 "the winner changed between A and B in" \
    "$CARC" compare base --option-b farm-scoring=none --games 10 --seed 3
check "report: compare --json" 0 '"winner_changed": {' "$CARC" compare base --option-b farm-scoring=none --games 10 --json
check "report: compare --csv" 0 "# B options not at their default: farm-scoring=none" \
    "$CARC" compare base --option-b farm-scoring=none --games 10 --csv
check "report: compare --csv winner changed" 0 "winner changed between A and B (share of games)" \
    "$CARC" compare base --option-b farm-scoring=none --games 10 --csv
# The winner changed: by hand from the JSON lines of both sides, game by game.
run "$CARC" compare base --option-b farm-scoring=none --games 30 --seed 5 --shard 1/1
awk -F'"scores": \\[' '{ split($2, s, "]"); n = split(s[1], v, ", "); best = -1; w = "";
        for (i = 1; i <= n; i++) if (v[i] + 0 > best) best = v[i] + 0;
        for (i = 1; i <= n; i++) if (v[i] + 0 == best) w = w i;
        side = ($0 ~ /"side": "A"/) ? "A" : "B"; idx = $0; sub(/.*"index": /, "", idx); sub(/,.*/, "", idx);
        win[side, idx] = w }
     END { for (k in win) { split(k, p, SUBSEP); if (p[1] == "A" && win["B", p[2]] != win[k]) c++ } print c + 0 }' \
    "$T/out" >"$T/changed"
run "$CARC" compare base --option-b farm-scoring=none --games 30 --seed 5
if grep -q "winner changed between A and B in $(cat "$T/changed") of 30 games" "$T/out"; then
    pass "report: compare's winner-changed count is the games' ($(cat "$T/changed") of 30)"
else
    fail "report: compare's winner-changed count is the games'" "by hand $(cat "$T/changed"): $(grep winner "$T/out")"
fi
check "report: compare judges over blocks and says which correction" 0 "correction for testing 16 measures at once is Holm's" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --seed 3
check "report: ... a farm rule is a finding on the farm points" 0 "points/game: farm" "$CARC" compare base \
    --option-b farm-scoring=none --games 40 --seed 3
grep -q "^points/game: farm .* 10/10  yes$" "$T/out" && pass "report: ... (10 of 10 blocks agree, a finding)" ||
    fail "report: ... (10 of 10 blocks agree, a finding)" "$(grep farm "$T/out")"
check "report: compare --blocks 5" 0 "in 5 blocks" "$CARC" compare base --option-b farm-scoring=none --games 40 --blocks 5
check "report: compare --blocks 1 is refused" 2 "--blocks expects a whole number from 2 to 256" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --blocks 1
check "report: compare --min-effect with an unknown unit is refused" 2 "--min-effect expects points=X" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --min-effect goals=2
check "report: compare --min-effect points=50 turns the farm finding into 'no, small'" 0 "" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --seed 3 --min-effect points=50
grep -q "^points/game: farm .*no, small$" "$T/out" && pass "report: ... (no, small)" ||
    fail "report: ... (no, small)" "$(grep farm "$T/out")"
check "report: compare --until-width runs past the first stage" 0 "Run until the 95% interval of first-win was at most 0.1 wide" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --seed 3 --until-width first-win=0.1
check "report: compare --until-width with an unknown measure lists the measures" 2 "the measures: mean-score, spread" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --until-width goals=1
check "report: compare --until-width with --shard is refused" 2 "runs in one piece" \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --until-width first-win=0.1 --shard 1/2
check "report: compare --json carries the correction" 0 '"correction": "holm"' \
    "$CARC" compare base --option-b farm-scoring=none --games 40 --json
check "report: compare --records keeps both sides" 0 "" \
    "$CARC" compare base --option-b farm-scoring=none --games 3 --records "$T/cmp"
na=$(ls "$T/cmp/a" 2>/dev/null | wc -l) nb=$(ls "$T/cmp/b" 2>/dev/null | wc -l)
[ "$na" = 3 ] && [ "$nb" = 3 ] && pass "report: ... 3 records in DIR/a and 3 in DIR/b" ||
    fail "report: ... 3 records in DIR/a and 3 in DIR/b" "$na and $nb"
grep -q "option farm-scoring=none" "$T/cmp/b/game-000000.rec" && ! grep -q "option" "$T/cmp/a/game-000000.rec" &&
    pass "report: ... B's records carry B's option, A's none" || fail "report: ... B's records carry B's option" "no"
for k in 1 2; do
    $CARC sim --variant robbers+fairy --option fairy.score-bonus=4 --games 6 --seed 2 --shard $k/2 --out "$T/shard-$k.jsonl" 2>/dev/null
done
check "report: stats merge names the modules" 0 "modules   base robbers fairy" \
    "$CARC" stats merge "$T/shard-1.jsonl" "$T/shard-2.jsonl"
check "report: stats merge names the options" 0 "fairy.score-bonus=4" "$CARC" stats merge "$T/shard-1.jsonl" "$T/shard-2.jsonl"
check "report: stats merge --csv" 0 "# modules: base robbers fairy" \
    "$CARC" stats merge --csv "$T/shard-1.jsonl" "$T/shard-2.jsonl"
check "report: stats merge --json" 0 '"carc_version": "0.1.0"' \
    "$CARC" stats merge --json "$T/shard-1.jsonl" "$T/shard-2.jsonl"
run "$CARC" sim --variant robbers+fairy --option fairy.score-bonus=4 --games 6 --seed 2
sed -n '/^seat/,$p' "$T/out" >"$T/whole"
run "$CARC" stats merge "$T/shard-1.jsonl" "$T/shard-2.jsonl"
sed -n '/^seat/,$p' "$T/out" >"$T/merged"
cmp -s "$T/whole" "$T/merged" && pass "report: stats merge gives the whole study's tables" ||
    fail "report: stats merge gives the whole study's tables" "$(diff "$T/whole" "$T/merged" | head -c 300)"

# ---- 7. no silent flags ------------------------------------------------------------------------
check "no silent flags: compare --variant is an error saying how" 2 "name the variants as arguments" \
    "$CARC" compare base --variant fairy
check "no silent flags: sim --option-b says which command takes it" 2 "it is taken by: compare" \
    "$CARC" sim --option-b farm-scoring=none
check "no silent flags: render --games says which commands take it" 2 "taken by: sim, tournament, compare" \
    "$CARC" render tests/scenarios/base-city-2tiles.rec --games 3 --svg "$T/x.svg"
check "no silent flags: render --turn past the end is an error" 2 "ends at turn" \
    "$CARC" render tests/scenarios/base-city-2tiles.rec --turn 999 --svg "$T/x.svg"
check "no silent flags: render --turn within the game draws" 0 "" \
    "$CARC" render tests/scenarios/base-city-2tiles.rec --turn 1 --svg "$T/x.svg"
# What it draws is the board and scores after that turn: after turn 1 the
# start tile and Red's E with its 4 points, before it the start tile alone.
svg_tiles() { grep -o 'class="tile"' "$1" | wc -l | tr -d ' '; }
if [ "$(svg_tiles "$T/x.svg")" = 2 ] && grep -q '<title>base:E r180 at 0,-1</title>' "$T/x.svg" &&
    grep -q '<title>Red: 4</title>' "$T/x.svg"; then
    pass "no silent flags: ... the board after turn 1: D and Red's E, Red 4"
else
    fail "no silent flags: ... the board after turn 1" "$(svg_tiles "$T/x.svg") tiles; $(grep -o '<title>[^<]*</title>' "$T/x.svg" | head -c 300)"
fi
run "$CARC" render tests/scenarios/base-city-2tiles.rec --turn 0 --svg "$T/x0.svg"
if [ "$RC" = 0 ] && [ "$(svg_tiles "$T/x0.svg")" = 1 ] && grep -q '<title>base:D r0 at 0,0</title>' "$T/x0.svg" &&
    grep -q '<title>Red: 0</title>' "$T/x0.svg"; then
    pass "no silent flags: ... --turn 0 draws the start tile alone, Red 0"
else
    fail "no silent flags: ... --turn 0" "exit $RC; $(svg_tiles "$T/x0.svg" 2>/dev/null) tiles; $(head -c 300 "$T/err")"
fi
check "no silent flags: stats merge --frobnicate is an error" 2 "unknown flag '--frobnicate'" "$CARC" stats merge --frobnicate x
check "no silent flags: --json with --csv is an error" 2 "choose one" "$CARC" sim --json --csv --games 1
check "no silent flags: sim --out writes the report there" 0 "" "$CARC" sim --games 2 --out "$T/report.txt"
grep -q "win rate" "$T/report.txt" && pass "no silent flags: ... and it holds the report" ||
    fail "no silent flags: ... and it holds the report" "$(head -c 200 "$T/report.txt")"

# ---- 8. help at the first typo -----------------------------------------------------------------
check "typo help: unknown variant" 1 "did you mean \`robbers\`" "$CARC" sim --variant robers --games 1
check "typo help: ... and how to list them all" 1 "carc variants" "$CARC" sim --variant robers --games 1
check "typo help: unknown module in a composition" 1 "did you mean \`fairy\`" "$CARC" sim --variant base+fary --games 1
check "typo help: unknown option key" 1 "did you mean \`farm-scoring\`" \
    "$CARC" sim --option farm_scoring=none --games 1
check "typo help: ... and how to list them all" 1 "carc variant show base" \
    "$CARC" sim --option farm_scoring=none --games 1
check "typo help: unknown option value" 1 "did you mean \`none\`" "$CARC" sim --option farm-scoring=nnoe --games 1
check "typo help: unknown agent" 2 "did you mean \`random\`" "$CARC" sim --players radnom,greedy
check "typo help: unknown agent setting" 2 "mcts takes a budget" "$CARC" sim --players mcts:200
check "typo help: sim --players human" 2 "carc play --players human" "$CARC" sim --players human,greedy
check "typo help: play --players of an unknown agent (exit 2)" 2 "did you mean \`random\`" "$CARC" play --players randm,greedy
check "typo help: play --players of a bad mcts setting (exit 2)" 2 "mcts takes a budget" "$CARC" play --players mcts:200,greedy
check "exit codes: variant show of an unknown flag is usage (exit 2)" 2 "unknown flag '--bogus'" "$CARC" variant show --bogus
check "exit codes: carc test of a missing file is bad input (exit 1)" 1 "no such file" "$CARC" test /nonexistent/x.rec
check "typo help: unknown flag" 2 "did you mean \`--json\`" "$CARC" sim --jsn
check "typo help: variant show of a typo" 1 "did you mean \`princess-dragon\`" "$CARC" variant show princess-dragn
check "typo help: the prefix is 'carc COMMAND:'" 1 "carc tournament: no variant" \
    "$CARC" tournament --variant robers --players random,greedy

# ---- 9. every ```ini snippet of docs/*.md loads -------------------------------------------------
# Each is written into variants/house/ of a copy of the data directory (the
# place the docs tell fans to put a house rule) and loaded from there.
D=$T/data
mkdir -p "$D"
cp -r variants "$D/variants"
ln -s "$ROOT/tiles" "$D/tiles"
ln -s "$ROOT/scripts" "$D/scripts"
[ -d plugins ] && ln -s "$ROOT/plugins" "$D/plugins"
k=0
for doc in docs/*.md; do
    awk -v out="$T/snip" -v doc="$(basename "$doc")" '
        /^```ini[ \t]*$/ { n++; f = sprintf("%s-%s-%d.ini", out, doc, n); grab = 1; printf "" > f; next }
        grab && /^```/ { grab = 0; close(f); next }
        grab { print >> f }' "$doc"
done
for s in "$T"/snip-*.ini; do
    [ -f "$s" ] || continue
    k=$((k + 1))
    name=$(basename "$s")
    if grep -q '^\[study\]' "$s"; then
        # A study file: run a sliver of it (--shard 1/1000) beside the
        # variant files it names (variants/house/, as the docs say), taken
        # from the doc's snippets by their name.
        sd=$D/variants/house
        cp "$s" "$sd/study-$k.ini"
        for v in $(sed -n 's/^[ab] *= *\([^ ]*\.ini\)$/\1/p' "$s"); do
            for o in "$T"/snip-*.ini; do
                grep -q "^name = ${v%.ini}\$" "$o" && cp "$o" "$sd/$v"
            done
        done
        if CARC_DATA=$D $CARC study run "$sd/study-$k.ini" --shard 1/1000 >"$T/out" 2>"$T/err"; then
            pass "docs snippet runs: ${name#snip-} (a study file, shard 1/1000)"
        else
            fail "docs snippet runs: ${name#snip-}" "$(head -c 300 "$T/err")"
        fi
        continue
    fi
    cp "$s" "$D/variants/house/$name"
    if CARC_DATA=$D $CARC variant show "$D/variants/house/$name" >"$T/out" 2>"$T/err"; then
        pass "docs snippet loads: ${name#snip-}"
    else
        fail "docs snippet loads: ${name#snip-}" "$(head -c 300 "$T/err")"
    fi
done
[ "$k" -ge 8 ] && pass "docs snippets: $k ini blocks found" || fail "docs snippets" "only $k ini blocks found"

# ---- 10. every ```lua snippet of docs/*.md loads and plays -------------------------------------
# A snippet that is only part of a script says so on the line before it
# ("<!-- fragment ... -->"); every other one is a whole script, run in the
# base rules for two games.
k=0
for doc in docs/*.md; do
    awk -v out="$T/luasnip" -v doc="$(basename "$doc" .md)" '
        /^<!-- fragment/ { skip = 1; next }
        /^```lua[ \t]*$/ { n++; if (!skip) { f = sprintf("%s-%s-%d.lua", out, doc, n); grab = 1; printf "" > f } skip = 0; next }
        grab && /^```/ { grab = 0; close(f); next }
        grab { print >> f; next }
        { skip = 0 }' "$doc"
done
for s in "$T"/luasnip-*.lua; do
    [ -f "$s" ] || continue
    k=$((k + 1))
    name=$(basename "$s" .lua)
    printf '[variant]\nname = %s\n[tiles]\nsets = base\n[plugins]\nscripts = %s\n' "$name" "$s" >"$T/$name.ini"
    if $CARC sim --variant "$T/$name.ini" --games 2 --seed 1 >"$T/out" 2>"$T/err"; then
        pass "docs Lua snippet plays: ${name#luasnip-}"
    else
        fail "docs Lua snippet plays: ${name#luasnip-}" "$(head -c 300 "$T/err")"
    fi
done
[ "$k" -ge 10 ] && pass "docs snippets: $k whole Lua scripts found" || fail "docs Lua snippets" "only $k found"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
