#!/usr/bin/env bash
# Test certificates for TLS on cqld's native port, made with the `openssl` CLI
# (docs/security.md, "TLS on the native port"; tests/drivers/run_suite.sh python_tls).
#
#   make_certs.sh DIR
#
# Writes into DIR (ECDSA P-256 keys, unencrypted PEM, valid for 2 days):
#   ca.pem, ca.key           a test CA ("cqld test CA")
#   server.pem, server.key   the server's certificate, signed by the CA, for IP 127.0.0.1 and
#                            DNS localhost (subjectAltName), CN cqld-test-server
#   client.pem, client.key   a client certificate signed by the CA, CN app
#   other_ca.pem             another CA, which cqld does not trust
#   stranger.pem, stranger.key  a client certificate signed by that other CA
# Exits non-zero when openssl fails.
set -euo pipefail

dir=$1
mkdir -p "$dir"
cd "$dir"

# ca NAME CN: a self-signed CA certificate NAME.pem with its key NAME.key.
ca() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
    -subj "/CN=$2" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" -keyout "$1.key" -out "$1.pem" 2>/dev/null
}

# issue NAME CN CA USAGE [SAN]: NAME.pem and NAME.key, signed by CA.pem/CA.key, with the
# extended key usage USAGE (serverAuth or clientAuth) and the subjectAltName SAN.
issue() {
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
    -keyout "$1.key" -out "$1.csr" 2>/dev/null
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "extendedKeyUsage=$4"
    if [ -n "${5:-}" ]; then echo "subjectAltName=$5"; fi
  } >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -days 2 \
    -extfile "$1.ext" -out "$1.pem" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

ca ca "cqld test CA"
issue server cqld-test-server ca serverAuth "IP:127.0.0.1,DNS:localhost"
issue client app ca clientAuth
ca other_ca "another CA"
issue stranger app other_ca clientAuth
