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
#             the tools' formats headers record.h, term_text.h, inireader.h
# Prints every reach, then exits 1; exits 0 when there is none.
root=${1:-.}
cd "$root" || exit 2
bad=0
reach() { echo "check-layers: $1: $2"; bad=1; }

kernel_std=" assert.h ctype.h emmintrin.h errno.h float.h inttypes.h limits.h math.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h "
kernel_for_hosts=" carc.h carc_plugin.h kernel_host.h api.h rng.h "
kernel_for_cli=" carc.h carc_plugin.h rng.h "
formats_for_cli=" record.h term_text.h inireader.h "

# Every #include of a file: "FILE:LINE:<h>" or "FILE:LINE:\"h\"".
includes() {
    for f in "$@"; do
        [ -e "$f" ] || continue
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p;=' "$f" |
            sed -n '/^[0-9]*$/{h;d};/^[<"]/{x;G;s/\n/:/;p}' | sed "s|^|$f:|"
    done
}

# kernel/
for hit in $(includes kernel/*.c kernel/*.h); do
    where=${hit%:*}; inc=${hit##*:}; name=$(echo "$inc" | tr -d '<>"')
    case $inc in
    \<*) case "$kernel_std" in *" $name "*) ;; *) reach "$where" "includes $inc: kernel/ is the game alone (no Lua, no files, no dlopen; the C library only)";; esac ;;
    *) case $name in */*) reach "$where" "includes $inc: kernel/ includes no other folder";; *)
           [ -e "kernel/$name" ] || reach "$where" "includes $inc, which is not in kernel/: kernel/ includes no other layer";; esac ;;
    esac
done
calls=$(grep -nE '\b(fopen|freopen|fdopen|popen|open|openat|opendir|dlopen|dlsym)[[:space:]]*\(' kernel/*.c kernel/*.h 2>/dev/null)
[ -z "$calls" ] || echo "$calls" | while IFS= read -r l; do echo "check-layers: ${l%%:*}:$(echo "$l" | cut -d: -f2): opens a file or a shared object: kernel/ is the game alone"; done
[ -z "$calls" ] || bad=1

# host/ and formats/
for layer in host formats; do
    for hit in $(includes $layer/*.c $layer/*.h); do
        where=${hit%:*}; inc=${hit##*:}; name=$(echo "$inc" | tr -d '<>"')
        case $inc in
        \<*) if [ $layer = formats ]; then case $name in lua.h|lauxlib.h|lualib.h|luaconf.h)
                 reach "$where" "includes $inc: formats/ reads files and does not run Lua";; esac; fi ;;
        *) case $name in */*) reach "$where" "includes $inc: name a header, not a path";; *)
               if [ -e "host/$name" ] || [ -e "formats/$name" ]; then :
               elif [ -e "kernel/$name" ]; then
                   case "$kernel_for_hosts" in *" $name "*) ;; *)
                       reach "$where" "includes kernel/$name: $layer/ uses the kernel through kernel_host.h (and carc.h, carc_plugin.h, api.h, rng.h)";; esac
               else reach "$where" "includes $inc, which is in no library folder"; fi;; esac ;;
        esac
    done
done

# cli/
for hit in $(includes cli/*/*.c cli/*/*.h); do
    where=${hit%:*}; inc=${hit##*:}; name=$(echo "$inc" | tr -d '<>"')
    case $inc in
    \<*) case $name in lua.h|lauxlib.h|lualib.h|luaconf.h) reach "$where" "includes $inc: the command runs scripts through libcarc";; esac ;;
    *) case $name in */*) reach "$where" "includes $inc: name a header, not a path";; *)
           if ls cli/*/"$name" >/dev/null 2>&1; then :
           else case "$kernel_for_cli$formats_for_cli" in *" $name "*) ;; *)
               reach "$where" "includes $inc: the command uses carc.h, carc_plugin.h, rng.h, record.h, term_text.h and inireader.h of libcarc";; esac
           fi;; esac ;;
    esac
done

[ $bad -eq 0 ] && echo "check-layers: every layer within its headers"
exit $bad
