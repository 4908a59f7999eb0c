#!/bin/sh
# Installs carc into a temporary prefix, builds a plugin out of tree exactly
# as a fan would (cc -shared -fPIC $(pkg-config --cflags carc) my.c -o my.so),
# and plays games with it through the installed carc.
set -u
pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/carc-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
check() { # check DESCRIPTION COMMAND...
    desc=$1
    shift
    if "$@" >"$tmp/check.out" 2>&1; then
        pass=$((pass + 1))
        echo "ok   $desc"
    else
        fail=$((fail + 1))
        echo "FAIL $desc"
        sed 's/^/     /' "$tmp/check.out" | head -20
    fi
}

prefix=$tmp/prefix
check "make install into a fresh prefix" make -s install PREFIX="$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
check "pkg-config knows carc" pkg-config --exists carc

mkdir -p "$tmp/fan"
sed -e 's/"road-closer"/"my-rule"/' plugins/road-closer/road_closer.c > "$tmp/fan/my.c"
check "a plugin builds out of tree with pkg-config" \
    sh -c "cc -std=c11 -Wall -Wextra -Werror -shared -fPIC \$(pkg-config --cflags carc) '$tmp/fan/my.c' -o '$tmp/fan/my-rule.so'"

cat > "$tmp/fan/my.ini" <<INI
[variant]
include = base
name = my-rule
title = base game with a fan's plugin
[plugins]
load = my-rule
INI
CARC_PLUGIN_PATH="$tmp/fan" "$prefix/bin/carc" sim --variant "$tmp/fan/my.ini" --games 50 --seed 2 >"$tmp/out" 2>&1
check "the installed carc plays with the fan's plugin" grep -q "my-rule" "$tmp/out"
check "the installed carc finds its own data (variants)" sh -c "'$prefix/bin/carc' variants | grep -q '^base'"
check "the installed carc finds its installed plugins" \
    "$prefix/bin/carc" sim --variant house/road-closer --games 5 --seed 1
check "the page of carc serve is installed with it" test -f "$prefix/share/carc/web/index.html" -a -f "$prefix/share/carc/web/carc.js"
check "the headers are installed" test -f "$prefix/include/carc/carc_plugin.h"

# A fan's own checks with the installed carc, from elsewhere: every shipped
# scenario record, and the starters of carc new as generated.
src=$(pwd)
check "the installed carc test passes every shipped scenario" \
    sh -c "cd '$tmp' && env -u CARC_DATA -u CARC_PLUGIN_PATH '$prefix/bin/carc' test '$src/tests/scenarios' | tail -n 1 | grep -q ' passed, 0 failed'"
check "the installed carc's starter plugin builds and passes carc test" \
    sh -c "cd '$tmp/fan' && env -u CARC_DATA -u CARC_PLUGIN_PATH '$prefix/bin/carc' new plugin starter >/dev/null && cd starter && env -u CARC_DATA -u CARC_PLUGIN_PATH PATH='$prefix/bin':\$PATH make -s test | grep -q '1 passed, 0 failed'"
check "the starter's Makefile names no absolute path (pkg-config carc, the carc on the PATH)" \
    sh -c "! grep -v '^#' '$tmp/fan/starter/Makefile' | grep -q -e '$prefix' -e '$src' -e ' /'"
check "the installed carc's starter script passes carc test" \
    sh -c "cd '$tmp/fan' && env -u CARC_DATA -u CARC_PLUGIN_PATH '$prefix/bin/carc' new script starter-lua >/dev/null && cd starter-lua && env -u CARC_DATA -u CARC_PLUGIN_PATH '$prefix/bin/carc' test tests | grep -q '1 passed, 0 failed'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
