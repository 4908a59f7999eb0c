#!/bin/sh
# records_replay_test.sh - the property behind every record: each record
# `carc sim --records` writes replays, with `carc replay`, to the scores the
# game was played to. For every shipped module (variants/NAME.ini and
# variants/SUB/NAME.ini) and every test plugin's variant, random and greedy
# players: RECORDS_GAMES games with random players (default 4) and 2 with
# greedy against random.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD CARC_PLUGIN_PATH=$PWD/build/tests/plugins sh tests/records_replay_test.sh
set -u

# pass, fail, run, check, lacks, same; checks_setup.
. "$(dirname "$0")/checks.sh"
checks_setup records
GAMES=${RECORDS_GAMES:-4}

# "seat=score" pairs from sim's shard lines ("index": i ... "scores": [a, b]),
# one line per game, and from `carc replay --json`.
sim_scores() {
    sed -n 's/.*"index": \([0-9]*\),.*"scores": \[\([^]]*\)\].*/\1 \2/p' | tr -d ','
}
replay_scores() {
    sed 's/"events".*//' | grep -o '"score": -\{0,1\}[0-9]*' | sed 's/"score": //' | tr '\n' ' ' | sed 's/ $//'
}

check_variant() {
    v=$1 players=$2 games=$3
    dir="$T/rec"
    rm -rf "$dir"
    run "$CARC" sim --variant "$v" --players "$players" --games "$games" --seed 3 --shard 1/1 --records "$dir"
    if [ "$RC" -ne 0 ]; then
        fail "$v ($players): sim --records" "exit $RC: $(head -c 300 "$T/err")"
        return
    fi
    sim_scores <"$T/out" >"$T/scores"
    bad=
    while read -r index scores; do
        rec=$(printf '%s/game-%06d.rec' "$dir" "$index")
        run "$CARC" replay --json "$rec"
        got=$(replay_scores <"$T/out")
        if [ "$RC" -ne 0 ] || [ "$got" != "$scores" ]; then
            bad="game $index: played to '$scores', replayed to '$got' $(head -c 300 "$T/err")"
            break
        fi
    done <"$T/scores"
    if [ "$(wc -l <"$T/scores")" -ne "$games" ]; then bad="${bad}sim reported $(wc -l <"$T/scores") games"; fi
    if [ -n "$bad" ]; then fail "$v ($players): records replay to the scores played" "$bad"
    else pass "$v ($players): records replay to the scores played"; fi
}

for v in variants/*.ini variants/*/*.ini tests/variants/trace-c.ini tests/variants/trace-lua.ini \
         tests/variants/test-placing.ini tests/variants/test-placing-lua.ini tests/variants/test-abbey-like.ini tests/variants/test-strength.ini \
         tests/variants/test-river.ini tests/variants/test-river-after.ini tests/variants/test-v1compat.ini tests/variants/test-large-c.ini; do
    check_variant "$v" random,random "$GAMES"
    check_variant "$v" greedy,random 2
done
# The ambiguous plugin with texts that read differently: its records replay.
sed 's/^load = ambiguous/load = ambiguous\n[options]\nambiguous.texts = distinct/' tests/variants/test-ambiguous.ini \
    >"$T/ambiguous-distinct.ini"
sed -i "s#../../variants/base.ini#$CARC_DATA/variants/base.ini#" "$T/ambiguous-distinct.ini"
check_variant "$T/ambiguous-distinct.ini" random,random "$GAMES"

echo "records replay: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
