#!/bin/sh
# run_all.sh - what `make test` runs: the layer check (make check-layers),
# every cmocka program given as an argument, the scenario records (carc
# test), the command-line tests, the composition tests and, with
# INSTALL_TEST=1, the install test. Every entry runs even when one before it
# failed; the last line is "N passed, N failed", after the failed entries'
# names. Exits 1 when any failed. The cmocka programs find the test plugins
# on TEST_PLUGIN_PATH.
#
#   CARC=build/carc CARC_DATA=$PWD TEST_PLUGIN_PATH=build/tests/plugins \
#       INSTALL_TEST=1 sh tests/run_all.sh build/tests/test_*
set -u
: "${CARC:?CARC names the carc binary}" "${CARC_DATA:?CARC_DATA names the source tree}"
export CARC CARC_DATA
passed=0
failed=0
failures=

# entry NAME COMMAND...: runs one entry and counts it.
entry() {
    name=$1
    shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures="$failures$name
"
        echo "== $name: FAILED"
    fi
}

entry "tests/check_layers.sh" sh "$CARC_DATA/tests/check_layers.sh" "$CARC_DATA"
entry "tests/check_layers_test.sh" sh "$CARC_DATA/tests/check_layers_test.sh"
for t in "$@"; do
    entry "$t" env CARC_PLUGIN_PATH="${TEST_PLUGIN_PATH:-}" "$t"
done
entry "carc test tests/scenarios" "$CARC" test --quiet "$CARC_DATA/tests/scenarios"
entry "tests/cli_test.sh" sh "$CARC_DATA/tests/cli_test.sh"
entry "tests/compose_test.sh" sh "$CARC_DATA/tests/compose_test.sh"
entry "tests/shard_test.sh" sh "$CARC_DATA/tests/shard_test.sh"
entry "tests/study_test.sh" sh "$CARC_DATA/tests/study_test.sh"
entry "tests/sweep_test.sh" sh "$CARC_DATA/tests/sweep_test.sh"
entry "tests/hostile_cli_test.sh" sh "$CARC_DATA/tests/hostile_cli_test.sh"
entry "tests/records_replay_test.sh" env CARC_PLUGIN_PATH="${TEST_PLUGIN_PATH:-}" sh "$CARC_DATA/tests/records_replay_test.sh"
entry "tests/serve_proxy_test.sh" sh "$CARC_DATA/tests/serve_proxy_test.sh"
entry "tests/serve_kill_test.sh" env SERVE_DRIVER="${SERVE_DRIVER:-$(dirname "$CARC")/tests/serve_driver}" sh "$CARC_DATA/tests/serve_kill_test.sh"
if [ "${INSTALL_TEST:-0}" = 1 ]; then
    entry "tests/install_test.sh" sh "$CARC_DATA/tests/install_test.sh"
fi

echo "== summary of make test"
printf '%s' "$failures" | sed 's/^/failed: /'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
