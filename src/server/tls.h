// TLS for the native port: the options (Cassandra's `client_encryption_options`) and the OpenSSL
// context a listener hands to each new connection (docs/security.md, "TLS on the native port").
//
// A context is built from PEM files once (`NewTlsContext`) and never changed afterwards: a
// reload (Server::ReloadTls) builds a new one and swaps it in for the connections accepted next,
// while the connections that hold the old one keep it (shared_ptr) until they end.
//
// What every context enforces, whatever the files:
//  1. TLS 1.2 and 1.3 only (SSLv3, TLS 1.0 and 1.1 are refused with a protocol_version alert).
//  2. TLS 1.2 cipher suites with forward secrecy and authenticated encryption only (kCipherList);
//     TLS 1.3 uses OpenSSL's default suites (all AEAD).
//  3. No compression (CRIME), no renegotiation, no session cache and no session tickets: every
//     connection does a full handshake, and nothing outlives a reload.
//  4. Private keys are unencrypted PEM: an encrypted key is an error, never a terminal prompt.
//
// Thread-safety: NewTlsContext is thread-safe. A built context is immutable and may be used by
// any number of connections on any threads.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/ssl/context.hpp>

#include "common/result.h"

namespace server {

// cassandra.yaml's client_encryption_options, for PEM files.
struct TlsOptions {
  bool enabled = false;  // serve TLS; the files below are then required
  // Also serve plaintext clients on the same port (`optional: true`): a connection whose first
  // byte starts a TLS record is TLS, any other is plaintext.
  bool optional = false;
  std::string certificate_file;  // PEM: the server's certificate, then its chain
  std::string private_key_file;  // PEM: its private key, unencrypted
  // PEM: the CA certificates client certificates must chain to; "" = client certificates are
  // neither asked for nor checked. When set, a client that presents a certificate must present
  // a valid one.
  std::string truststore_file;
  // Refuse clients without a valid certificate (mutual TLS). REQUIRES: truststore_file set.
  bool require_client_auth = false;
};

// The TLS 1.2 cipher suites offered (OpenSSL's cipher-list syntax).
inline constexpr const char* kCipherList =
    "ECDHE+AESGCM:ECDHE+CHACHA20:DHE+AESGCM:DHE+CHACHA20:!aNULL:!eNULL:!MD5:!RC4:!3DES";

// The first byte of a TLS handshake record (a ClientHello); a CQL header starts with its version
// (0x01..0x05, 0x41/0x42 for the beta flag), never with this.
inline constexpr uint8_t kTlsHandshakeRecord = 0x16;

// A server context from `options` (its files read now). Errors: Invalid when the options are
// inconsistent (TLS enabled without a certificate or key, client authentication without a
// truststore) or a file does not hold what it should (no PEM certificate, a key that does not
// match the certificate, an encrypted key); IOError when a file cannot be read. Messages name
// the file and never hold key material. REQUIRES: options.enabled.
common::Result<std::shared_ptr<boost::asio::ssl::context>> NewTlsContext(const TlsOptions& options);

// "on", "optional" or "off": the TLS state the ready line and the logs show.
std::string_view TlsMode(const TlsOptions& options);

}  // namespace server
