#!/bin/sh
# serve_load.sh - carc serve under load (docs/serve.md, "Under load"): GAMES
# games at once (200), two people's seats each, every move through the API
# with the seat's own link, each seat's page following the game live
# (server-sent events), for SECONDS (60); then each game's host ends it.
# Prints the time per move (median, 99th percentile, from the driver's
# side), the server's memory (largest resident size, sampled each second)
# and whether every acknowledged move is in its game's record. A
# benchmark, not a test: nothing here has a time limit.
#   make all build/tests/serve_driver && sh bench/serve_load.sh
set -u
CARC=${CARC:-build/carc}
DRIVER=${SERVE_DRIVER:-build/tests/serve_driver}
GAMES=${GAMES:-200}
SECONDS_LOAD=${SECONDS:-60}
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-load.XXXXXX")
SERVER=
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/records" "$T/saves"
CARC_DATA=${CARC_DATA:-.} "$CARC" serve --port 0 --db "$T/games.db" --save-dir "$T/saves" \
    --max-connections 2000 --max-per-address 2000 --max-streams-per-address 2000 >"$T/serve.out" 2>"$T/serve.err" &
SERVER=$!
for i in $(seq 100); do
    PORT=$(sed -n 's/.*http:[^ ]*:\([0-9][0-9]*\)\/.*/\1/p' "$T/serve.out" | head -n 1)
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || { echo "serve_load: the server did not start: $(cat "$T/serve.err")"; exit 1; }
(
    peak=0
    while kill -0 "$SERVER" 2>/dev/null; do
        rss=$(sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$SERVER/status" 2>/dev/null)
        [ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss && echo "$peak" >"$T/peak"
        sleep 1
    done
) &
"$DRIVER" --port "$PORT" --games "$GAMES" --moves 1000000 --seconds "$SECONDS_LOAD" --streams \
    --acks "$T/acks" --records "$T/records" | tee "$T/driver.out"
rc=$?
threads=$(ls "/proc/$SERVER/task" 2>/dev/null | wc -l)
echo "serve_load: $GAMES games for ${SECONDS_LOAD}s; server's largest resident memory $(($(cat "$T/peak") / 1024)) MiB; database $(du -k "$T/games.db" | cut -f1) KiB (+ its log $(du -k "$T/games.db-wal" 2>/dev/null | cut -f1) KiB); threads at the end $threads; $(nproc) cores"
exit $rc
