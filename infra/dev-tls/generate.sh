#!/bin/sh
# Regenerates the OBVIOUSLY FAKE development CA and the server certificates of docker compose
# and the dev overlay (README.md beside this file). The outputs are committed and public:
# never use them outside a local machine or a development cluster.
#
#   sh infra/dev-tls/generate.sh
set -eu
cd "$(dirname "$0")"
days=3650
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days "$days" \
  -subj '/O=Tessera/CN=INSECURE Tessera development CA (compose and dev overlay only)' \
  -addext 'basicConstraints=critical,CA:TRUE,pathlen:0' \
  -addext 'keyUsage=critical,keyCertSign,cRLSign' \
  -keyout "$tmp/ca.key" -out ca.crt

# server <name> <dns...>: a key and a certificate for the in-network host <name>, also valid
# for localhost and 127.0.0.1 (a published port on the host).
server() {
  name=$1; shift
  san="DNS:$name"; for dns in "$@"; do san="$san,DNS:$dns"; done
  mkdir -p "$name"
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 \
    -subj "/O=Tessera/CN=INSECURE $name (development only)" -keyout "$name/tls.key" -out "$tmp/$name.csr"
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=%s,DNS:localhost,IP:127.0.0.1\n' "$san" >"$tmp/$name.ext"
  openssl x509 -req -in "$tmp/$name.csr" -CA ca.crt -CAkey "$tmp/ca.key" -CAcreateserial -CAserial "$tmp/ca.srl" \
    -days "$days" -sha256 -extfile "$tmp/$name.ext" -out "$name/tls.crt"
  chmod 0644 "$name/tls.key"
}

# The CA key is thrown away: nothing new can be signed with it, regenerate everything instead.
server postgres
server nats nats.tessera-dev.svc.cluster.local
