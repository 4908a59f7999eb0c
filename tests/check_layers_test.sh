#!/bin/sh
# check_layers_test.sh - make check-layers sees each kind of reach: in a copy
# of the source folders (under mktemp -d), a clean copy passes, and each
# planted violation alone makes the check fail naming the file and the reach.
here=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-layers.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
no() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
fresh() { rm -rf "$T/src"; mkdir -p "$T/src"; cp -r "$here/kernel" "$here/host" "$here/formats" "$here/cli" "$T/src/"; }

fresh
if out=$(sh "$here/tests/check_layers.sh" "$T/src" 2>&1); then ok "a clean copy passes"
else no "a clean copy passes" "$out"; fi

# plant FILE LINE-TO-APPEND EXPECTED-TEXT DESCRIPTION
plant() {
    fresh
    printf '%s\n' "$2" >>"$T/src/$1"
    if out=$(sh "$here/tests/check_layers.sh" "$T/src" 2>&1); then
        no "$4" "the check passed"
    elif echo "$out" | grep -q "^check-layers: $1:[0-9]*: .*$3"; then
        ok "$4"
    else
        no "$4" "the check failed without naming $1 and '$3': $out"
    fi
}
plant kernel/rng.c '#include <lua.h>' '<lua.h>' "kernel/ including Lua fails"
plant kernel/board.c '#include <dlfcn.h>' '<dlfcn.h>' "kernel/ including dlfcn.h fails"
plant kernel/board.c '#include "plugin.h"' '"plugin.h"' "kernel/ including a host header fails"
plant kernel/query.c '#include "../formats/record.h"' 'record.h' "kernel/ including a formats header by path fails"
plant kernel/query.c 'static void f(void) { fopen("x", "r"); }' 'opens a file' "kernel/ opening a file fails"
plant host/plugin.c '#include "core.h"' 'kernel/core.h' "host/ including core.h fails"
plant formats/variant.c '#include "core.h"' 'kernel/core.h' "formats/ including core.h fails"
plant formats/record.c '#include <lauxlib.h>' '<lauxlib.h>' "formats/ including Lua fails"
plant cli/commands/main.c '#include "lua_host.h"' '"lua_host.h"' "cli/ including a host header fails"
plant cli/studies/runner.c '#include "kernel_host.h"' '"kernel_host.h"' "cli/ including kernel_host.h fails"

echo "check-layers test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
