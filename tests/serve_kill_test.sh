#!/bin/sh
# serve_kill_test.sh - games that are never lost (docs/serve.md): 50 games
# played at once through carc serve's API by tests/serve_driver, two people
# a game each with their own links; the server is killed with SIGKILL at
# random moments and started again on its database. Every move it
# acknowledged must be in the game's record at its place, every game must
# be there after each restart, and each record (ended by its host) must
# replay with `carc replay` to the scores the server showed.
# Needs CARC, CARC_DATA, SERVE_DRIVER (make test sets them).
set -u
: "${CARC:?}" "${CARC_DATA:?}" "${SERVE_DRIVER:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-kill.XXXXXX")
SERVER=
cleanup() { [ -n "$SERVER" ] && kill -9 "$SERVER" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: serve_kill_test: $*"; exit 1; }

# start [PORT]: the server on the test's database; sets SERVER and PORT.
start() {
    : >"$T/serve.out"
    CARC_DATA="$CARC_DATA" "$CARC" serve --port "${1:-0}" --db "$T/games.db" --save-dir "$T/saves" \
        >"$T/serve.out" 2>>"$T/serve.err" &
    SERVER=$!
    i=0
    while [ $i -lt 100 ]; do
        PORT=$(sed -n 's/.*http:[^ ]*:\([0-9][0-9]*\)\/.*/\1/p' "$T/serve.out" | head -n 1)
        [ -n "$PORT" ] && grep -q "games are kept" "$T/serve.out" && return 0
        kill -0 "$SERVER" 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    fail "the server did not start: $(cat "$T/serve.out" "$T/serve.err")"
}

mkdir -p "$T/saves" "$T/records"
start 0
"$SERVE_DRIVER" --port "$PORT" --games 50 --moves 40 --acks "$T/acks" --records "$T/records" >"$T/driver.out" 2>&1 &
DRIVER=$!
# three kills at random moments (0.5 to 2.5 s apart), each followed by a restart on the same port
kills=0
for wait in $(od -An -N3 -tu1 /dev/urandom); do
    sleep "$((wait % 20 / 10)).$((wait % 10))"
    sleep 0.5
    kill -0 "$DRIVER" 2>/dev/null || break
    kill -9 "$SERVER"
    wait "$SERVER" 2>/dev/null
    kills=$((kills + 1))
    start "$PORT"
    grep -q "games are kept in .* ([0-9]* in progress, [0-9]* played again)" "$T/serve.out" ||
        fail "restart $kills: $(cat "$T/serve.out")"
    n=$(sed -n 's/.*(\([0-9]*\) in progress, \([0-9]*\) played again).*/\1 \2/p' "$T/serve.out")
    set -- $n
    [ "$1" = "$2" ] || fail "restart $kills: $1 games in progress but $2 played again: $(cat "$T/serve.err")"
done
wait "$DRIVER"
rc=$?
cat "$T/driver.out"
[ $rc -eq 0 ] || fail "the driver found moves lost or games gone (above)"
[ "$kills" -ge 1 ] || fail "the games ended before any kill"
acked=$(wc -l <"$T/acks")
[ "$acked" -ge 200 ] || fail "only $acked moves acknowledged"
grep -q "$acked acknowledged moves checked, 0 lost" "$T/driver.out" || fail "not every acknowledged move was checked"
# each record replays to the scores the server showed
n=0
for rec in "$T"/records/*.rec; do
    want=$(cat "${rec%.rec}.scores")
    got=$(CARC_DATA="$CARC_DATA" "$CARC" replay --json "$rec" | tr -d ' \n' |
          sed 's/.*"players":\[//; s/\].*//' | tr '}' '\n' | sed -n 's/.*"score":\(-*[0-9]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$want" ] || fail "$(basename "$rec"): replay scores '$got', the server showed '$want'"
    grep -q '^end$' "$rec" || fail "$(basename "$rec") was not ended by its host"
    n=$((n + 1))
done
[ "$n" -eq 50 ] || fail "$n records, not 50"
echo "serve_kill_test: 50 games, $kills kills with SIGKILL, $acked acknowledged moves all found, 50 records replay to the server's scores"
