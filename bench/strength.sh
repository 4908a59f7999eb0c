#!/bin/sh
# bench/strength.sh - the bots' strength table of docs/bots.md: tournaments
# with seats rotated, win rates with 95% (Wilson) intervals, and the CPU time
# each took. `make strength` runs it; the environment sizes it:
#
#   STRENGTH_GAMES  games a row (default 200)
#   STRENGTH_JOBS   threads (default 2)
#   STRENGTH_SEED   the tournaments' seed (default 2026)
#   STRENGTH_ROWS   the rows to run (default: all of them, in this order):
#                   calibrate trained-greedy mcts mcts-trained robbers
#                   princess-dragon princess-dragon-plain ark all-expansions
#                   all-expansions-plain 3p 4p 3p-plain 4p-plain fan
#   STRENGTH_BUDGET the search's budget in every row (default: the variant's
#                   own, below, in iterations: about 200 ms of CPU a move on
#                   the shared reference machine when chosen; docs/bots.md)
#   STRENGTH_CALIBRATE the variants the calibrate row times (default base)
#
# Budgets are iterations, not milliseconds, so that a loaded machine gives
# the same games (only slower). An iteration costs more where the rules
# offer many options or run scripts, so each variant has the number of
# iterations that costs about 200 ms of CPU a move there (measured with the
# calibrate row; docs/bots.md). Every command is printed before its result.
set -u
CARC=${CARC:-build/carc}
GAMES=${STRENGTH_GAMES:-200}
JOBS=${STRENGTH_JOBS:-2}
SEED=${STRENGTH_SEED:-2026}
CALIBRATE=${STRENGTH_CALIBRATE:-base}
ROWS=${STRENGTH_ROWS:-calibrate trained-greedy mcts mcts-trained robbers princess-dragon princess-dragon-plain ark all-expansions all-expansions-plain 3p 4p 3p-plain 4p-plain fan}
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-strength.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# run CMD...: prints the command, runs it, prints its table and CPU time.
run() {
    echo "\$ $*"
    if ! /usr/bin/time -f "cpu %U s user, %e s wall" "$@" >"$T/out" 2>"$T/err"; then
        cat "$T/err"
        return 1
    fi
    sed -n '/^agent /,/^$/p' "$T/out"
    tail -n 1 "$T/err"
    echo
}

# budget VARIANT: the search's iterations a move, about 200 ms of CPU.
budget() {
    if [ -n "${STRENGTH_BUDGET:-}" ]; then echo "$STRENGTH_BUDGET"; return; fi
    case $1 in
    robbers) echo 2000it ;;
    princess-dragon) echo 650it ;;
    ark) echo 80it ;;
    all-expansions) echo 50it ;;
    *) echo 3000it ;;
    esac
}

tournament() { # tournament VARIANT PLAYERS [GAMES]
    run "$CARC" tournament --variant "$1" --players "$2" --games "${3:-$GAMES}" --seed "$SEED" --jobs "$JOBS"
}

for row in $ROWS; do
    case $row in
    calibrate)
        for v in $CALIBRATE; do
            echo "== the search's cost a move (CPU), $v, one game each, seed $SEED"
            specs="mcts:$(budget "$v"):trained"
            [ "$v" = base ] && specs="mcts:$(budget base) $specs"
            for spec in $specs; do
                echo "\$ $CARC sim --variant $v --players $spec,$spec --games 1 --seed $SEED"
                /usr/bin/time -f "%U" "$CARC" sim --variant "$v" --players "$spec,$spec" --games 1 --seed "$SEED" \
                    >"$T/out" 2>"$T/err"
                turns=$(sed -n 's/^mean game length: \([0-9.]*\) turns/\1/p' "$T/out")
                awk -v cpu="$(tail -n 1 "$T/err")" -v turns="$turns" -v s="$spec" \
                    'BEGIN { printf "%s: %.0f ms of CPU a turn (%s turns, %.1f s)\n\n", s, 1000 * cpu / turns, turns, cpu }'
            done
        done ;;
    trained-greedy)
        echo "== greedy with the learned judgement against plain greedy, base, 2 players"
        tournament base greedy:trained,greedy 1000 ;;
    mcts)
        echo "== mcts against greedy, base, 2 players"
        tournament base "mcts:$(budget base),greedy" ;;
    mcts-trained)
        echo "== mcts with the learned judgement against greedy, base, 2 players"
        tournament base "mcts:$(budget base):trained,greedy" ;;
    robbers | princess-dragon | ark | all-expansions)
        echo "== mcts with the learned judgement against greedy, $row, 2 players"
        tournament "$row" "mcts:$(budget "$row"):trained,greedy" ;;
    princess-dragon-plain | all-expansions-plain)
        # The hand-written judgement costs less an iteration than the learned
        # one, so the same budget stays under the row's 200 ms a move.
        v=${row%-plain}
        echo "== mcts with the hand-written judgement against greedy, $v, 2 players"
        tournament "$v" "mcts:$(budget "$v"),greedy" ;;
    3p)
        echo "== mcts against two greedy players, base (fair share 33.3%)"
        tournament base "mcts:$(budget base):trained,greedy,greedy" ;;
    4p)
        echo "== mcts against three greedy players, base (fair share 25%)"
        tournament base "mcts:$(budget base):trained,greedy,greedy,greedy" ;;
    3p-plain)
        echo "== mcts with the hand-written judgement against two greedy players, base (fair share 33.3%)"
        tournament base "mcts:$(budget base),greedy,greedy" ;;
    4p-plain)
        echo "== mcts with the hand-written judgement against three greedy players, base (fair share 25%)"
        tournament base "mcts:$(budget base),greedy,greedy,greedy" ;;
    fan)
        echo "== a fan's variant the project never trained: house/base-prophets"
        run "$CARC" train --variant house/base-prophets --games 1000 --generations 3 --jobs "$JOBS" \
            --out "$T/fan.ini" || continue
        echo "what it learned about the Prophet (weight at the start, at the end):"
        grep prophet "$T/fan.ini"
        echo
        tournament house/base-prophets "greedy:eval=$T/fan.ini,greedy" 1000 ;;
    *) echo "strength: unknown row '$row'" >&2; exit 2 ;;
    esac
done
