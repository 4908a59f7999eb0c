#!/bin/sh
# shard_test.sh - a study in shards (`--shard K/N`, `carc stats merge`):
# eight shards merge to the unsharded study byte for byte (sim, tournament,
# compare; table, CSV and JSON); the merge refuses, naming the file and what
# differs, a shard missing, given twice, cut short, a line repeated, and a
# shard of another study (seed, --games, players, options, variant, a sim
# shard among compare shards); --out is written whole or not at all. Each
# check's name starts with what it covers.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/shard_test.sh
set -u

# pass, fail, run, check, lacks, same; checks_setup.
. "$(dirname "$0")/checks.sh"
checks_setup shard


# ---- 1. eight shards are the whole study ------------------------------------------------------
STUDY="base --option-b farm-scoring=none --players greedy,random --games 40 --seed 7"
for k in 1 2 3 4 5 6 7 8; do
    $CARC compare $STUDY --shard $k/8 --out "$T/c$k.jsonl" 2>/dev/null
done
for fmt in table csv json; do
    flag=; [ $fmt = table ] || flag=--$fmt
    $CARC compare $STUDY $flag >"$T/whole.$fmt" 2>/dev/null
    $CARC stats merge $flag "$T"/c?.jsonl >"$T/merged.$fmt" 2>"$T/err"
    same "whole: 8 compare shards merged are the unsharded report ($fmt)" "$T/whole.$fmt" "$T/merged.$fmt"
done
# Given in another order, the shards still pair A and B by game number.
$CARC stats merge --csv "$T/c8.jsonl" "$T/c3.jsonl" "$T/c1.jsonl" "$T/c2.jsonl" "$T/c7.jsonl" "$T/c4.jsonl" \
    "$T/c6.jsonl" "$T/c5.jsonl" >"$T/merged.shuffled" 2>/dev/null
same "whole: ... in any order of the files" "$T/whole.csv" "$T/merged.shuffled"

SIM="--variant robbers --players greedy,random --games 24 --seed 3"
for k in 1 2 3 4 5 6 7 8; do $CARC sim $SIM --shard $k/8 --out "$T/s$k.jsonl" 2>/dev/null; done
$CARC sim $SIM --csv >"$T/whole.csv" 2>/dev/null
$CARC stats merge --csv "$T"/s?.jsonl >"$T/merged.csv"
same "whole: 8 sim shards merged are the unsharded report (CSV)" "$T/whole.csv" "$T/merged.csv"
$CARC sim $SIM >"$T/whole.txt" 2>/dev/null
$CARC stats merge "$T"/s?.jsonl >"$T/merged.txt"
tail -n +2 "$T/whole.txt" >"$T/whole.rest"
tail -n +2 "$T/merged.txt" >"$T/merged.rest"
same "whole: ... and as a table, below its first line (the time)" "$T/whole.rest" "$T/merged.rest"
check "whole: the merged table gives the shards' time added up" 0 "the time of 8 shards added up" \
    "$CARC" stats merge "$T"/s?.jsonl
seconds=$(sed -n 's/.*"seconds": \([0-9.]*\),.*/\1/p' "$T"/s?.jsonl | awk '{ t += $1 } END { printf "%.3f", t }')
# JSON prints a number as its shortest text (0.360 is 0.36): compare values.
merged_seconds=$("$CARC" stats merge --json "$T"/s?.jsonl | sed -n 's/.*"seconds": \([0-9.]*\), "shards": 8.*/\1/p')
if [ -n "$merged_seconds" ] && awk -v a="$merged_seconds" -v b="$seconds" 'BEGIN { exit !(a - b < 0.0005 && b - a < 0.0005) }'; then
    pass "whole: ... and its JSON the seconds of the shards summed ($seconds)"
else
    fail "whole: ... and its JSON the seconds of the shards summed" "$seconds expected, '$merged_seconds' given"
fi

# A tournament with the same agent twice: its two seats stay two rows.
for k in 1 2; do
    $CARC tournament --players greedy,greedy --games 10 --seed 3 --shard $k/2 --out "$T/t$k.jsonl" 2>/dev/null
done
$CARC tournament --players greedy,greedy --games 10 --seed 3 >"$T/whole.t" 2>/dev/null
$CARC stats merge "$T"/t?.jsonl >"$T/merged.t"
same "whole: a tournament of greedy against greedy merged keeps both players apart" "$T/whole.t" "$T/merged.t"
[ "$(grep -c '^greedy ' "$T/merged.t")" = 2 ] && pass "whole: ... two rows, one a player" ||
    fail "whole: ... two rows, one a player" "$(cat "$T/merged.t")"

# ---- 2. what does not belong is refused, and named -----------------------------------------------
check "refused: a shard missing (exit 1, which one)" 1 "1 of the 8 shards missing: K = 5 of --shard K/8" \
    "$CARC" stats merge "$T/c1.jsonl" "$T/c2.jsonl" "$T/c3.jsonl" "$T/c4.jsonl" "$T/c6.jsonl" "$T/c7.jsonl" "$T/c8.jsonl"
check "refused: a shard given twice (both files named)" 1 "c3.jsonl:1: shard 3/8 is also in $T/c3.jsonl:1" \
    "$CARC" stats merge "$T"/c?.jsonl "$T/c3.jsonl"
cp "$T/c3.jsonl" "$T/copy.jsonl"
check "refused: ... also under another name" 1 "copy.jsonl:1: shard 3/8 is also in" \
    "$CARC" stats merge "$T"/c?.jsonl "$T/copy.jsonl"
other() { # other DESC PHRASE ARGS...: shard 8 of a study that differs in ARGS
    desc=$1 phrase=$2
    shift 2
    rm -f "$T/x8.jsonl"
    $CARC compare "$@" --shard 8/8 --out "$T/x8.jsonl" 2>/dev/null
    check "refused: a shard of $desc" 1 "$phrase" "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
}
other "another seed" "seed: 8 here, 7 there" base --option-b farm-scoring=none --players greedy,random --games 40 --seed 8
other "another --games" "games: 48 here, 40 there" base --option-b farm-scoring=none --players greedy,random --games 48 --seed 7
other "other players" "player 2: greedy here, random there" base --option-b farm-scoring=none --players greedy,greedy --games 40 --seed 7
other "other options" "B option 1: farm-scoring=per-city-once here, farm-scoring=none there" \
    base --option-b farm-scoring=per-city-once --players greedy,random --games 40 --seed 7
other "another variant" "A variant: robbers here, base there" \
    robbers base --option-b farm-scoring=none --players greedy,random --games 40 --seed 7
$CARC sim --players greedy,random --games 40 --seed 7 --shard 8/8 --out "$T/x8.jsonl" 2>/dev/null
check "refused: a sim shard among compare shards" 1 "x8.jsonl:1: a sim shard among compare shards" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
head -n 3 "$T/c8.jsonl" >"$T/x8.jsonl"
check "refused: a shard cut short (the games it lacks named)" 1 "x8.jsonl (shard 8/8) lacks 3 of its games of side A: 23, 31, 39" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
{ cat "$T/c8.jsonl"; sed -n 2p "$T/c8.jsonl"; } >"$T/x8.jsonl"
check "refused: a game line twice" 1 "x8.jsonl: game 7 of side A appears twice" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
{ head -n 1 "$T/c8.jsonl"; sed -n 2p "$T/c7.jsonl"; } >"$T/x8.jsonl"
check "refused: a game of another shard under a header" 1 "x8.jsonl:2: a game that does not belong to this shard" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
sed 1d "$T/c8.jsonl" >"$T/x8.jsonl"
check "refused: game lines without a shard header (an older carc)" 1 "x8.jsonl:1: a game before any shard header" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
sed '1s/"A seed": "7"/"A seed": "9"/' "$T/c8.jsonl" >"$T/x8.jsonl"
check "refused: a header edited by hand" 1 "x8.jsonl:1: the header's study id does not match its identity" \
    "$CARC" stats merge "$T"/c[1-7].jsonl "$T/x8.jsonl"
check "refused: no file" 2 "FILE... missing" "$CARC" stats merge

# ---- 3. --out: whole or nothing ----------------------------------------------------------------
echo "an older file" >"$T/o.jsonl"
check "out: a shard that fails leaves no older file under its name" 1 "" \
    "$CARC" sim --variant no-such-variant --games 4 --shard 1/2 --out "$T/o.jsonl"
[ ! -e "$T/o.jsonl" ] && pass "out: ... (the file is gone)" || fail "out: ... (the file is gone)" "$(cat "$T/o.jsonl")"
echo "an older file" >"$T/o.jsonl"
$CARC sim --players greedy,greedy --games 100000 --shard 1/2 --out "$T/o.jsonl" 2>/dev/null &
pid=$!
sleep 1
kill "$pid"
wait "$pid" 2>/dev/null
left=$(ls "$T" | grep -c '^o\.jsonl')
[ "$left" = 0 ] && pass "out: a shard killed while it plays leaves nothing a merge could take" ||
    fail "out: a shard killed while it plays leaves nothing" "$(ls "$T" | grep '^o\.jsonl')"
check "out: a shard that ends writes its file" 0 "" "$CARC" sim --games 4 --shard 1/2 --out "$T/o.jsonl"
# Lines read through jansson: one that is not JSON, and a game in an older
# layout (modules as one text), each refused at its line.
sed '2s/"modules": \["base"\]/"modules": "base"/' "$T/o.jsonl" >"$T/older.jsonl"
check "refused: a game line in an older layout, at its line" 1 "older.jsonl:2: a game line in an older carc's layout" \
    "$CARC" stats merge "$T/older.jsonl"
sed '3s/}$/,/' "$T/o.jsonl" >"$T/cut.jsonl"
check "refused: a line that is no JSON, at its line" 1 "cut.jsonl:3: not a JSON object" "$CARC" stats merge "$T/cut.jsonl"
[ "$(wc -l <"$T/o.jsonl")" = 3 ] && ! ls "$T" | grep -q partial && pass "out: ... whole, no temporary file left" ||
    fail "out: ... whole, no temporary file left" "$(ls "$T")"

# ---- 4. per-game JSON lines on request ----------------------------------------------------------
check "games-jsonl: compare --games-jsonl prints the report and writes the games" 0 "points/game: farm" \
    "$CARC" compare $STUDY --games-jsonl "$T/games.jsonl"
[ "$(wc -l <"$T/games.jsonl")" = 80 ] && [ "$(grep -c '"side": "B"' "$T/games.jsonl")" = 40 ] &&
    pass "games-jsonl: ... 40 games of A and 40 of B, a line each" || fail "games-jsonl: ... 80 lines" "$(wc -l <"$T/games.jsonl")"
$CARC compare $STUDY --shard 1/1 --out "$T/one.jsonl" 2>/dev/null
tail -n +2 "$T/one.jsonl" >"$T/one.games"
same "games-jsonl: ... the same lines as the whole study's shard, without its header" "$T/one.games" "$T/games.jsonl"
check "games-jsonl: sim --games-jsonl" 0 "win rate" "$CARC" sim --games 5 --games-jsonl "$T/sim.jsonl"
[ "$(grep -c '"kind": "sim"' "$T/sim.jsonl")" = 5 ] && pass "games-jsonl: ... 5 lines" || fail "games-jsonl: sim" "$(cat "$T/sim.jsonl")"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
