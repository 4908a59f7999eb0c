# checks.sh - the check helpers of the command-line tests (sourced; the
# caller calls checks_setup, or sets PASSED=0, FAILED=0 and T, a scratch
# directory, itself).

# checks_setup NAME: CARC (absolute; ./build/carc unless given), CARC_DATA
# (exported; this folder unless given), the counts, and T, a scratch folder
# carc-NAME.XXXXXX removed when the script exits.
checks_setup() {
    CARC=${CARC:-./build/carc}
    case $CARC in /*) ;; *) CARC=$(pwd)/$CARC ;; esac
    CARC_DATA=${CARC_DATA:-$(pwd)}
    export CARC_DATA
    PASSED=0
    FAILED=0
    T=$(mktemp -d "${TMPDIR:-/tmp}/carc-$1.XXXXXX") || exit 1
    trap 'rm -rf "$T"' EXIT
    trap 'exit 1' INT TERM
}

# A limit on every command, so that a hang fails a check instead of the run.
if command -v timeout >/dev/null 2>&1; then LIMIT="timeout 300"; else LIMIT=; fi

pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1: $2"; }

# run CMD...: runs carc-or-anything with stdin from /dev/null; stdout in
# $T/out, stderr in $T/err, the exit status in RC.
run() {
    $LIMIT "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
}

# check DESC WANT PHRASE CMD...: runs CMD; WANT is an exit status or "nz"
# (any non-zero status); PHRASE must appear in its stdout or stderr ("" for
# none).
check() {
    desc=$1 want=$2 phrase=$3
    shift 3
    run "$@"
    if [ "$want" = nz ]; then
        if [ "$RC" -eq 0 ]; then fail "$desc" "exit 0, expected non-zero"; return 1; fi
    elif [ "$RC" -ne "$want" ]; then
        fail "$desc" "exit $RC, expected $want; stderr: $(head -c 300 "$T/err")"
        return 1
    fi
    if [ -n "$phrase" ] && ! cat "$T/out" "$T/err" | grep -F -q -e "$phrase"; then
        fail "$desc" "no '$phrase' in the output: $(cat "$T/out" "$T/err" | head -c 300)"
        return 1
    fi
    pass "$desc"
}

# lacks DESC PHRASE: the last command's output does not hold PHRASE.
lacks() {
    if cat "$T/out" "$T/err" | grep -F -q -e "$2"; then fail "$1" "'$2' is there"; else pass "$1"; fi
}

# same DESC FILE1 FILE2: the two files are equal byte for byte.
same() {
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$2" "$3" | head -c 400)"; fi
}
