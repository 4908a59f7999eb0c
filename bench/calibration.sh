#!/bin/sh
# bench/calibration.sh - the A/A calibration of carc compare, long form: the
# base game against itself under another name (tests/variants/base-again.ini)
# on independent seeds, CALIB_REPS times; how often a study calls a finding
# where there is none (Holm-corrected; with the default practical thresholds
# and with none), and how often an uncorrected 95% interval would have cried
# wolf. `make calibration` runs it; the environment sizes it:
#
#   CALIB_REPS     studies (default 500)
#   CALIB_GAMES    games a side (default 1000)
#   CALIB_BLOCKS   blocks (default 10)
#   CALIB_PLAYERS  the players (default random,random)
#   CALIB_JOBS     threads (default 2)
#
# docs/house-rules.md gives its numbers. make test runs a short form
# (test_stats: 200 studies of 100 games a side).
set -u
CARC=${CARC:-build/carc}
REPS=${CALIB_REPS:-500}
GAMES=${CALIB_GAMES:-1000}
BLOCKS=${CALIB_BLOCKS:-10}
PLAYERS=${CALIB_PLAYERS:-random,random}
JOBS=${CALIB_JOBS:-2}
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-calibration.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "A/A: base against tests/variants/base-again.ini, $REPS studies of $GAMES games a side, $BLOCKS blocks, $PLAYERS"
echo "each: $CARC compare base tests/variants/base-again.ini --seed R --seed-b 1000000+R --games $GAMES --blocks $BLOCKS --players $PLAYERS --json"
start=$(date +%s)
r=1
while [ "$r" -le "$REPS" ]; do
    "$CARC" compare base tests/variants/base-again.ini --seed "$r" --seed-b $((1000000 + r)) --games "$GAMES" \
        --blocks "$BLOCKS" --players "$PLAYERS" --jobs "$JOBS" --json --min-effect points=0 --min-effect share=0 \
        --min-effect turns=0 --min-effect count=0 2>/dev/null >"$T/zero.json" || { echo "compare failed at study $r"; exit 1; }
    # The same games judged with the default thresholds: carc stats merge
    # is not needed, the thresholds only change the verdicts, so read both
    # from the measures: finding with a threshold = finding without it and
    # |diff| >= the unit's default.
    tr '{' '\n' <"$T/zero.json" | awk -v r="$r" '
        /"metric"/ {
            n++
            if ($0 ~ /"finding": true/) { f0++
                split($0, u, "\"unit\": \""); split(u[2], uu, "\""); unit = uu[1]
                split($0, d, "\"diff\": "); diff = d[2] + 0; if (diff < 0) diff = -diff
                min = unit == "share" ? 0.02 : unit == "count" ? 0.5 : 1
                if (diff >= min) f1++ }
            if ($0 ~ /"significant": true/) s++
        }
        END { printf "%d %d %d %d %d\n", r, n, f0 + 0, f1 + 0, s + 0 }' >>"$T/rows"
    r=$((r + 1))
done
awk -v reps="$REPS" '
    { measures += $2; if ($3 > 0) any0++; if ($4 > 0) any1++; if ($5 > 0) anys++; sig += $5 }
    END {
        printf "studies with a finding, no practical threshold:      %4d of %d (%.1f%%)\n", any0, reps, 100 * any0 / reps
        printf "studies with a finding, default thresholds:          %4d of %d (%.1f%%)\n", any1, reps, 100 * any1 / reps
        printf "studies with some uncorrected 95%% interval without 0: %4d of %d (%.1f%%)\n", anys, reps, 100 * anys / reps
        printf "measures with an uncorrected 95%% interval without 0:  %4d of %d (%.1f%%)\n", sig, measures, 100 * sig / measures
    }' "$T/rows"
echo "time: $(( $(date +%s) - start )) s"
