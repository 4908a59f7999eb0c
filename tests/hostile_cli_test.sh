#!/bin/sh
# hostile_cli_test.sh - the command line against files and names from
# elsewhere (docs/security.md): records with many answers, files that are
# not regular files and folders that loop, terminal escapes in what is
# printed, agent names, compositions, paths with spaces, the modes and
# atomicity of what carc saves. Every command runs under a time limit, so a
# hang fails its check instead of the run.
#
# Run from the project root:
#   CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/hostile_cli_test.sh
set -u

CARC=${CARC:-./build/carc}
CARC_DATA=${CARC_DATA:-$(pwd)}
export CARC_DATA
ROOT=$(pwd)

PASSED=0
FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-hostile.XXXXXX") || exit 1
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
# pass, fail, run, check, lacks.
. "$(dirname "$0")/checks.sh"
# Shorter than checks.sh's own: each command here takes well under a second.
if command -v timeout >/dev/null 2>&1; then LIMIT="timeout 60"; fi

# ---- records with many answers ---------------------------------------------------------
# A phase that asks one-option questions, `asks` a turn, each option's text
# `length` characters long (tests/scripts/ask-many.lua).
many() { # many FILE ASKS LENGTH
    cat >"$1" <<EOI
[variant]
name = ask-many
[tiles]
sets = base
[plugins]
scripts = $ROOT/tests/scripts/ask-many.lua
[options]
ask-many.asks = $2
ask-many.length = $3
EOI
}
many "$T/asks300.ini" 300 10
check "answers per turn: a phase asking 300 questions a turn stops the game, naming it" 1 \
    "ask-many asked more than 256 decisions in one turn" \
    "$CARC" sim --variant "$T/asks300.ini" --games 1 --seed 1 --players random,random
many "$T/asks200.ini" 200 10
check "answers per turn: 200 questions a turn play on" 0 "mean game length" \
    "$CARC" sim --variant "$T/asks200.ini" --games 1 --seed 1 --players random,random
# 200 questions of 900 characters a turn: 8 MiB after some 46 turns. The
# game stops with a message before its record passes what a reader takes,
# and what play saved replays; play appends each move instead of rewriting
# the record (it rewrote 8 MB thousands of times: far over the time limit).
many "$T/long.ini" 200 900
check "record limits: play stops a game before its record passes 8388608 bytes" 1 \
    "the record would pass its limit of 8388608 bytes; the game stops here" \
    "$CARC" play --variant "$T/long.ini" --players random,random --seed 3 --save "$T/long.rec"
check "record limits: what play saved replays, to a game in progress" 0 '"finished": false' \
    "$CARC" replay --json "$T/long.rec"
check "record limits: play --resume of it stops at the same limit" 1 "would pass its limit" \
    "$CARC" play --resume "$T/long.rec"
mkdir "$T/recs"
check "record limits: sim --records stops the game with the same message" 1 "would pass its limit of 8388608 bytes" \
    "$CARC" sim --variant "$T/long.ini" --games 1 --seed 3 --players random,random --records "$T/recs"
check "record limits: ... and keeps the record up to there, which replays" 0 '"finished": false' \
    "$CARC" replay --json "$T/recs/game-000000.rec"
# The option texts are cut at 900 characters; the record holds them whole,
# so a replay matches them (the writer's 512-byte buffer cut them shorter).
many "$T/text.ini" 2 2000
check "record limits: a game of 2000-character option texts is saved" 0 "game over" \
    "$CARC" play --variant "$T/text.ini" --players random,random --seed 3 --save "$T/text.rec"
check "record limits: ... and replays (texts cut at 900 characters, alike when written and read)" 0 \
    '"finished": true' "$CARC" replay --json "$T/text.rec"

# ---- files that are not regular files, folders that loop -------------------------------
# A FIFO given as a record or a shard was opened and waited on for ever; a
# folder holding links back to itself was walked some 10^8 times.
mkdir "$T/fifo"
if mkfifo "$T/fifo/game.rec" "$T/fifo/shard.jsonl" 2>/dev/null; then
    check "regular files: carc test refuses a FIFO given as a record" 1 "game.rec: not a regular file" \
        "$CARC" test "$T/fifo/game.rec"
    check "regular files: carc test refuses a FIFO named .rec in a folder" 1 "not a regular file" \
        "$CARC" test "$T/fifo"
    check "regular files: stats merge refuses a FIFO given as a shard" 1 "shard.jsonl: not a regular file" \
        "$CARC" stats merge "$T/fifo/shard.jsonl"
    check "regular files: serve --resume refuses a FIFO given as a record" 1 "game.rec: not a regular file" \
        "$CARC" serve --port 0 --save-dir "$T/fifo" --resume "$T/fifo/game.rec"
else
    fail "regular files" "cannot make a FIFO"
fi
check "regular files: carc test refuses a device given as a record" 1 "/dev/zero: not a regular file" \
    "$CARC" test /dev/zero
mkdir -p "$T/loop/a"
cp "$ROOT/tests/scenarios/$(ls "$ROOT/tests/scenarios" | grep '\.rec$' | head -n 1)" "$T/loop/a/one.rec"
for i in 1 2 3 4 5 6 7 8 9; do ln -s .. "$T/loop/a/up$i"; ln -s . "$T/loop/a/here$i"; done
check "folders: carc test walks each real folder once, links looping back included" 0 "1 passed, 0 failed" \
    "$CARC" test "$T/loop"

# ---- terminal escapes from files ---------------------------------------------------------
# carc test and stats merge printed the files' text raw: an escape sequence
# in a record or a shard could clear the screen or retitle the window.
ESC=$(printf '\033')
mkdir "$T/esc"
printf 'carcassonne-record 1\nvariant base\nseed 1\nplayer A random\nplayer B random\n---\n#! rule BASE-1 %s]0;owned%s\\\n#! expect A 0\n#! expect B 0\nbogus %s[2J line\n' \
    "$ESC" "$ESC" "$ESC" >"$T/esc/esc.rec"
run "$CARC" test "$T/esc/esc.rec"
if [ "$RC" -eq 1 ] && ! grep -q "$ESC" "$T/out" "$T/err" && grep -F -q '\x1b[2J' "$T/out"; then
    pass "escapes: carc test shows a record's escape sequence as \\x1b"
else
    fail "escapes: carc test shows a record's escape sequence as \\x1b" "exit $RC: $(od -c "$T/out" | head -5)"
fi
# A shard edited by hand is refused (it no longer matches its study): the
# text comes in through what the study read, a variant's title.
printf '[variant]\nname = esc\ntitle = Evil %s]0;owned%s title\ninclude = base\n' "$ESC" "$(printf '\007')" >"$T/esc/esc.ini"
$LIMIT "$CARC" sim --variant "$T/esc/esc.ini" --games 2 --seed 1 --players random,random --shard 1/1 \
    --out "$T/esc/evil.jsonl" >/dev/null 2>&1
run "$CARC" stats merge "$T/esc/evil.jsonl"
if [ "$RC" -eq 0 ] && ! grep -q "$ESC" "$T/out" "$T/err" && grep -F -q '\x1b]0;owned' "$T/out"; then
    pass "escapes: stats merge shows a shard's escape sequence as \\x1b"
else
    fail "escapes: stats merge shows a shard's escape sequence as \\x1b" "exit $RC: $(od -c "$T/out" | head -5)"
fi

# ---- agent names -------------------------------------------------------------------------
# An agent is a word of the record's `player NAME AGENT` line: one holding
# a blank or '#' wrote a record nothing could read.
cp "$ROOT/weights/base.ini" "$T/my weights.ini"
cp "$ROOT/weights/base.ini" "$T/w#1.ini"
check "agents: play refuses an agent with a blank" 2 "cannot be saved in a record" \
    "$CARC" play --players "greedy:eval=$T/my weights.ini,random" --seed 1 --save "$T/agent1.rec"
if [ -e "$T/agent1.rec" ]; then fail "agents: ... and saves nothing" "$T/agent1.rec exists"; else pass "agents: ... and saves nothing"; fi
check "agents: play refuses an agent with '#'" 2 "cannot be saved in a record" \
    "$CARC" play --players "greedy:eval=$T/w#1.ini,random" --seed 1 --save "$T/agent2.rec"
mkdir "$T/agentrecs"
check "agents: sim refuses an agent with a blank" 2 "cannot be saved in a record" \
    "$CARC" sim --games 1 --players "greedy:eval=$T/my weights.ini,random" --records "$T/agentrecs"
check "agents: an agent with a weights file of a plain path is taken" 0 "mean game length" \
    "$CARC" sim --games 1 --seed 2 --players "greedy:eval=$ROOT/weights/base.ini,random"

# ---- compositions --------------------------------------------------------------------------
SIX=base+robbers+fairy+princess-dragon+inns-cathedrals+traders-builders
run "$CARC" variant show "$SIX"
cp "$T/out" "$T/six.ini"
long=$(awk 'length($0) > 197' "$T/six.ini" | head -n 1)
if [ "$RC" -eq 0 ] && [ -z "$long" ]; then pass "compositions: variant show of six modules writes lines of at most 197 characters"
else fail "compositions: variant show of six modules writes lines of at most 197 characters" "exit $RC: $long"; fi
check "compositions: ... and its output loads back" 0 "name = $SIX" "$CARC" variant show "$T/six.ini"
LONG=base
while [ ${#LONG} -le 1030 ]; do LONG="$LONG+robbers"; done
check "compositions: one over 190 characters is refused, never cut" 1 "more than the 190 a variant's name may have" \
    "$CARC" variant show "$LONG"
check "compositions: ... in sim too" 1 "more than the 190" "$CARC" sim --variant "$LONG" --games 1

# ---- a starter plugin where carc's path has a space ------------------------------------
if command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
    mkdir -p "$T/carc's bin" "$T/my plugins"
    cp "$CARC" "$T/carc's bin/carc"
    ln -s "$CARC_DATA" "$T/data \$dir #1"
    check "new plugin: written where carc's path and data folder have spaces, quotes, \$ and #" 0 "my-rule/Makefile" \
        sh -c "cd '$T/my plugins' && CARC_DATA='$T/data \$dir #1' '$T/carc'\\''s bin/carc' new plugin my-rule"
    # The starter's Makefile finds carc's header through pkg-config and runs
    # the carc on the PATH: here a carc.pc naming the source tree's header,
    # and the PATH holding a folder whose name has a space and a quote.
    mkdir -p "$T/prefix/lib/pkgconfig"
    printf 'includedir=%s/kernel\n\nName: carc\nDescription: carc\nVersion: 0.1.0\nCflags: -I${includedir}\nLibs:\n' \
        "$ROOT" >"$T/prefix/lib/pkgconfig/carc.pc"
    check "new plugin: ... its Makefile builds the plugin and passes its test" 0 "1 passed, 0 failed" \
        sh -c "cd '$T/my plugins/my-rule' && PATH='$T/carc'\\''s bin':\"\$PATH\" PKG_CONFIG_PATH='$T/prefix/lib/pkgconfig' env -u CARC_PLUGIN_PATH CARC_DATA='$T/data \$dir #1' make -s test"
else
    fail "new plugin" "no make or cc"
fi

# ---- what carc saves: modes and whole files ------------------------------------------
# Records were made 0644 whatever the umask; a failed `carc train` save left
# an empty weights file where the last good one was.
mode_of() { stat -c %a "$1" 2>/dev/null || echo none; }
(umask 077 && $LIMIT "$CARC" play --players random,random --seed 1 --save "$T/private.rec" >/dev/null 2>&1)
if [ "$(mode_of "$T/private.rec")" = 600 ]; then pass "umask: play's record under umask 077 is 600"
else fail "umask: play's record under umask 077 is 600" "it is $(mode_of "$T/private.rec")"; fi
(umask 022 && $LIMIT "$CARC" play --players random,random --seed 1 --save "$T/shared.rec" >/dev/null 2>&1)
if [ "$(mode_of "$T/shared.rec")" = 644 ]; then pass "umask: play's record under umask 022 is 644"
else fail "umask: play's record under umask 022 is 644" "it is $(mode_of "$T/shared.rec")"; fi
mkdir "$T/private"
(umask 027 && $LIMIT "$CARC" sim --games 1 --seed 1 --players random,random --records "$T/private" >/dev/null 2>&1)
if [ "$(mode_of "$T/private/game-000000.rec")" = 640 ]; then pass "umask: sim's records under umask 027 are 640"
else fail "umask: sim's records under umask 027 are 640" "it is $(mode_of "$T/private/game-000000.rec")"; fi
(umask 077 && $LIMIT "$CARC" train --games 4 --generations 1 --seed 1 --out "$T/w.ini" >/dev/null 2>&1)
if [ "$(mode_of "$T/w.ini")" = 600 ]; then pass "umask: train's weights under umask 077 are 600"
else fail "umask: train's weights under umask 077 are 600" "it is $(mode_of "$T/w.ini")"; fi
cp "$T/w.ini" "$T/w-good.ini"
# The next save fails: files may not pass 512 bytes (SIGXFSZ ignored: the
# write fails with EFBIG, as on a full disk).
check "train: a save that fails says so" 1 "w.ini" \
    sh -c "trap '' XFSZ; ulimit -f 1; exec $LIMIT '$CARC' train --games 4 --generations 1 --seed 2 --out '$T/w.ini'"
if cmp -s "$T/w.ini" "$T/w-good.ini"; then pass "train: ... and leaves the weights saved before, whole"
else fail "train: ... and leaves the weights saved before, whole" "$(wc -c <"$T/w.ini") bytes now"; fi
leftover=$(ls "$T" | grep -c 'w\.ini\.tmp')
if [ "${leftover:-0}" -eq 0 ]; then pass "train: ... and no temporary file"; else fail "train: ... and no temporary file" "$(ls "$T")"; fi

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
