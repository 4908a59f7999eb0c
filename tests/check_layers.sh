#!/bin/sh
# check_layers.sh [ROOT] - fails when a layer of carc reaches past what it may
# use (docs/architecture.md, "Who may include what"):
#   kernel/   the game: its own headers and the C library's (plus SSE2's);
#             no Lua, no inih, no dlopen, no directories, no other layer,
#             and no call that opens a file or a shared object
#   host/, formats/  their own headers, each other's, and of the kernel only
#             carc.h, carc_plugin.h, kernel_host.h, api.h and rng.h (never
#             core.h); formats/ no Lua
#   cli/      its own headers, the public carc.h, carc_plugin.h and rng.h, and
#             the tools' formats headers record.h, term_text.h, inireader.h,
#             regular_file.h, atomic_file.h
# Prints every reach as "check-layers: FILE:LINE: what", then exits 1; exits
# 0 when there is none.
root=${1:-.}
cd "$root" || exit 2
names() { for f in "$@"; do [ -e "$f" ] && printf ' %s' "${f##*/}"; done; echo ' '; }
awk -v kernel="$(names kernel/*.h)" -v host="$(names host/*.h)" -v formats="$(names formats/*.h)" \
    -v cli="$(names cli/*/*.h)" '
BEGIN {
    kernel_std = " assert.h ctype.h emmintrin.h errno.h float.h inttypes.h limits.h math.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h "
    kernel_for_hosts = " carc.h carc_plugin.h kernel_host.h api.h rng.h "
    for_cli = " carc.h carc_plugin.h rng.h record.h term_text.h inireader.h regular_file.h atomic_file.h "
    lua = " lua.h lauxlib.h lualib.h luaconf.h "
    bad = 0
}
function reach(what) { printf "check-layers: %s:%d: %s\n", FILENAME, FNR, what; bad = 1 }
function has(list, name) { return index(list, " " name " ") > 0 }
{ layer = FILENAME; sub(/\/.*/, "", layer) }
layer == "kernel" && /(^|[^A-Za-z0-9_])(fopen|freopen|fdopen|popen|open|openat|opendir|dlopen|dlsym)[ \t]*\(/ {
    reach("opens a file or a shared object: kernel/ is the game alone")
}
!/^[ \t]*#[ \t]*include[ \t]*[<"]/ { next }
{
    inc = $0; sub(/^[ \t]*#[ \t]*include[ \t]*/, "", inc); sub(/[>"].*/, "&", inc)
    sys = substr(inc, 1, 1) == "<"; name = substr(inc, 2); sub(/[>"].*/, "", name)
    if (!sys && name ~ /\//) { reach("includes " inc ": name a header, not a path"); next }
    if (layer == "kernel") {
        if (sys && !has(kernel_std, name)) reach("includes " inc ": kernel/ is the game alone (no Lua, no files, no dlopen; the C library only)")
        if (!sys && !has(kernel, name)) reach("includes " inc ", which is not in kernel/: kernel/ includes no other layer")
    } else if (layer == "host" || layer == "formats") {
        if (sys && layer == "formats" && has(lua, name)) reach("includes " inc ": formats/ reads files and does not run Lua")
        if (!sys && !has(host, name) && !has(formats, name)) {
            if (!has(kernel, name)) reach("includes " inc ", which is in no library folder")
            else if (!has(kernel_for_hosts, name)) reach("includes kernel/" name ": " layer "/ uses the kernel through kernel_host.h (and carc.h, carc_plugin.h, api.h, rng.h)")
        }
    } else if (layer == "cli") {
        if (sys && has(lua, name)) reach("includes " inc ": the command runs scripts through libcarc")
        if (!sys && !has(cli, name) && !has(for_cli, name)) reach("includes " inc ": the command uses carc.h, carc_plugin.h, rng.h, record.h, term_text.h, inireader.h, regular_file.h and atomic_file.h of libcarc")
    }
}
END {
    if (!bad) print "check-layers: every layer within its headers"
    exit bad
}' kernel/*.c kernel/*.h host/*.c host/*.h formats/*.c formats/*.h cli/*/*.c cli/*/*.h
