#!/bin/sh
# serve_proxy_test.sh - carc serve behind nginx with TLS, with the
# configuration docs/serve.md shows, taken from the document as written
# (its names, certificate files and ports replaced): a self-signed
# certificate made here, curl through the proxy over TLS: the key still
# asked for, a foreign Host refused, a game made, a move with a seat's link,
# the live stream passed on at once. Needs nginx (Debian's nginx-light;
# make deps installs it) and openssl. CARC and CARC_DATA as make test sets.
set -u
: "${CARC:?}" "${CARC_DATA:?}"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
T=$(mktemp -d "${TMPDIR:-/tmp}/carc-proxy.XXXXXX")
SERVER= PROXY=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
    [ -n "$PROXY" ] && kill "$PROXY" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
passed=0
fail() { echo "FAIL: serve_proxy_test: $*"; exit 1; }
ok() { echo "ok   $1"; passed=$((passed + 1)); }
[ -x "$NGINX" ] || fail "no nginx (apt-get install nginx-light, or make deps)"
command -v openssl >/dev/null || fail "no openssl"

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=carc.test" -addext "subjectAltName=DNS:carc.test" \
    -keyout "$T/key.pem" -out "$T/cert.pem" >/dev/null 2>&1 || fail "openssl could not make a certificate"

: >"$T/serve.out"
"$CARC" serve --listen 127.0.0.1 --port 0 --allow-host carc.test --db "$T/games.db" --save-dir "$T" \
    >"$T/serve.out" 2>"$T/serve.err" &
SERVER=$!
for i in $(seq 100); do
    PORT=$(sed -n 's/.*port \([0-9][0-9]*\),.*/\1/p' "$T/serve.out" | head -n 1)
    [ -n "$PORT" ] && break
    sleep 0.1
done
KEY=$(sed -n 's/.*?key=\([0-9a-f]\{32\}\).*/\1/p' "$T/serve.out" | head -n 1)
[ -n "$PORT" ] && [ -n "$KEY" ] || fail "carc serve did not start with a key: $(cat "$T/serve.out" "$T/serve.err")"

# The server block of docs/serve.md, as written, in a configuration of its own.
sed -n '/^```nginx$/,/^```$/p' "$CARC_DATA/docs/serve.md" | sed '1d;$d' >"$T/site.conf"
grep -q 'proxy_pass http://127.0.0.1:8017;' "$T/site.conf" || fail "docs/serve.md has no nginx server block"
for try in 1 2 3 4 5; do
    NPORT=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000))
    sed -e "s/listen 443 ssl;/listen 127.0.0.1:$NPORT ssl;/" -e "s/games\.example\.org;/carc.test;/" \
        -e "s|/etc/letsencrypt/live/games.example.org/fullchain.pem|$T/cert.pem|" \
        -e "s|/etc/letsencrypt/live/games.example.org/privkey.pem|$T/key.pem|" \
        -e "s|127.0.0.1:8017|127.0.0.1:$PORT|" "$T/site.conf" >"$T/site.test.conf"
    cat >"$T/nginx.conf" <<CONF
worker_processes 1;
pid $T/nginx.pid;
error_log $T/error.log;
events { worker_connections 256; }
http {
    access_log $T/access.log;
    client_body_temp_path $T/body;
    proxy_temp_path $T/proxy;
    fastcgi_temp_path $T/fastcgi;
    uwsgi_temp_path $T/uwsgi;
    scgi_temp_path $T/scgi;
    include $T/site.test.conf;
}
CONF
    "$NGINX" -p "$T" -c "$T/nginx.conf" -g 'daemon off;' 2>>"$T/nginx.err" &
    PROXY=$!
    sleep 0.5
    kill -0 "$PROXY" 2>/dev/null && break
    PROXY=
done
[ -n "$PROXY" ] || fail "nginx did not start: $(cat "$T/nginx.err" "$T/error.log" 2>/dev/null | tail -5)"
B="https://carc.test:$NPORT"
C="curl -s --max-time 10 --cacert $T/cert.pem --resolve carc.test:$NPORT:127.0.0.1"
for i in $(seq 50); do $C -o /dev/null "$B/" && break; sleep 0.1; done

[ "$($C -o /dev/null -w '%{http_code}' "$B/api/variants")" = 403 ] &&
    [ "$($C -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$B/api/variants")" = 200 ] &&
    ok "through nginx over TLS the API asks for the server's key" || fail "the key through the proxy"
[ "$($C -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$B/")" = 200 ] && ok "the page through the proxy" ||
    fail "the page through the proxy"
# a Host naming another site, passed on by a proxy that is not told the name: refused
[ "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H 'Host: evil.example' -H "Authorization: Bearer $KEY" \
    "http://127.0.0.1:$PORT/api/variants")" = 403 ] && ok "a foreign Host is still refused" || fail "a foreign Host"

new='{"variant": "base", "seed": 9, "seats": [{"name": "Ann", "agent": "human"}, {"name": "Bob", "agent": "human"}]}'
$C -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d "$new" "$B/api/games" >"$T/new.json"
ID=$(sed -n 's/^{"id":"\([0-9a-f]\{16\}\)".*/\1/p' "$T/new.json")
ANN=$(grep -o '"seat":0,"name":"Ann","link":"/#game=[0-9a-f]*&key=[0-9a-f]*' "$T/new.json" | sed 's/.*key=//')
BOB=$(grep -o '"seat":1,"name":"Bob","link":"/#game=[0-9a-f]*&key=[0-9a-f]*' "$T/new.json" | sed 's/.*key=//')
[ -n "$ID" ] && [ -n "$ANN" ] && [ -n "$BOB" ] && ok "a game made through the proxy gives each seat its link" ||
    fail "new game: $(head -c 300 "$T/new.json")"
# Bob follows the game live through the proxy while Ann moves with her link
$C -N --max-time 6 -H "X-Carc-Key: $BOB" "$B/api/games/$ID/events" >"$T/events" 2>/dev/null &
LISTEN=$!
sleep 1
[ "$($C -o /dev/null -w '%{http_code}' -H "X-Carc-Key: $BOB" -H 'Content-Type: application/json' \
    -d '{"serial": 1, "option": 0}' "$B/api/games/$ID/choose")" = 403 ] && ok "Bob's link cannot make Ann's move" ||
    fail "Bob's link made Ann's move"
[ "$($C -o "$T/move.json" -w '%{http_code}' -H "X-Carc-Key: $ANN" -H 'Content-Type: application/json' \
    -d '{"serial": 1, "option": 0}' "$B/api/games/$ID/choose")" = 200 ] && ok "Ann's link makes her move" ||
    fail "Ann's move: $(cat "$T/move.json")"
wait "$LISTEN"
grep -q '^id: 1$' "$T/events" && grep -q '^id: 2$' "$T/events" && grep -q '"kind":"move","seat":0' "$T/events" &&
    ok "Bob's live stream got Ann's move through nginx" || fail "the live stream through the proxy: $(cat "$T/events")"
grep -q "$ANN\|$BOB\|$KEY" "$T/access.log" && fail "a secret in the proxy's access log"
ok "no secret in the proxy's access log"
echo "serve_proxy_test: $passed passed"
