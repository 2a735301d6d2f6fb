// Cqlrc: the `cql` shell's configuration file (`~/.cql/cqlrc`, or `--cqlrc FILE`) and how its
// settings combine with the command line and the environment into the connection `cql` opens.
//
// The file is an INI file with cqlsh's cqlshrc sections and keys, so an existing cqlshrc works:
//   [authentication]  username, password, keyspace
//   [connection]      hostname, port, ssl (true/false)
//   [ssl]             certfile (the CA file), validate (true/false), usercert, userkey
// Other sections and keys (cqlsh's [ui], [csv], [copy], ...) are ignored.
//
// Precedence, highest first: the command line, the environment (CQL_PASSWORD, and cqlsh's
// SSL_CERTFILE and SSL_VALIDATE), the file, the defaults (127.0.0.1, 9042, no TLS). The file's
// password belongs to the file's username: it is not sent for another user named with `-u`.
//
// Thread-safety: plain values and functions; `LoadCqlrc` and `EnvironmentFromProcess` read the
// file system and the process environment.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client_options.h"
#include "common/result.h"

namespace shell {

// The settings a cqlrc file gives; unset: the file does not say.
struct Cqlrc {
  std::optional<std::string> username;  // [authentication]
  std::optional<std::string> password;
  std::optional<std::string> keyspace;
  std::optional<std::string> hostname;  // [connection]
  std::optional<uint16_t> port;
  std::optional<bool> ssl;
  std::optional<std::string> ssl_certfile;  // [ssl]
  std::optional<bool> ssl_validate;
  std::optional<std::string> ssl_usercert;
  std::optional<std::string> ssl_userkey;
};

// Parses cqlrc text read from `source` (for messages), as Python's configparser reads a
// cqlshrc: `[section]` lines, `key = value` or `key: value` lines (section and key names
// case-insensitive, values trimmed), blank lines, and comment lines starting with `#` or `;`.
// Booleans are true/yes/on/1 or false/no/off/0. A leading `~/` in a file path means $HOME.
// Errors: Invalid "SOURCE:LINE: ..." for a line that is none of these, a key outside any
// section, a bad boolean, or a port outside 1..65535.
common::Result<Cqlrc> ParseCqlrc(std::string_view text, std::string_view source);

struct LoadedCqlrc {
  Cqlrc settings;
  // Printed before connecting, e.g. that the file holds a password and other users may read it.
  std::vector<std::string> warnings;
};

// Reads and parses the file at `path`. A missing file is an empty Cqlrc unless `required` (the
// file was named with --cqlrc), when it is an IOError. Errors: IOError when the file cannot be
// read; ParseCqlrc's. Warns when the file holds a password and its mode lets the group or
// others read it.
common::Result<LoadedCqlrc> LoadCqlrc(const std::string& path, bool required);

// $HOME/.cql/cqlrc; empty when HOME is not set.
std::string DefaultCqlrcPath();

// The connection settings the command line gave; unset: not given.
struct ConnectionFlags {
  std::optional<std::string> host;
  std::optional<std::string> port;
  std::optional<std::string> username;
  std::optional<std::string> password;
  std::optional<std::string> keyspace;
  bool ssl = false;
  std::optional<std::string> ssl_ca;
  std::optional<std::string> ssl_cert;
  std::optional<std::string> ssl_key;
};

// The environment variables `cql` reads; unset: not set.
struct ConnectionEnvironment {
  std::optional<std::string> password;      // CQL_PASSWORD
  std::optional<std::string> ssl_certfile;  // SSL_CERTFILE (as cqlsh)
  std::optional<std::string> ssl_validate;  // SSL_VALIDATE (as cqlsh)
};

// The process's CQL_PASSWORD, SSL_CERTFILE and SSL_VALIDATE.
ConnectionEnvironment EnvironmentFromProcess();

// What `cql` connects with.
struct ConnectionConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 9042;
  std::string username;  // empty: no credentials
  // Unset with a username: `cql` asks for it on the terminal.
  std::optional<std::string> password;
  std::optional<std::string> keyspace;
  client::TlsOptions tls;
};

// Combines the three sources by the precedence above. Errors: Invalid, worded for the user,
// for a port that is not a number in 1..65535, a bad SSL_VALIDATE, --ssl-ca/--ssl-cert/--ssl-key
// without TLS on, a client certificate without its key or the other way round, or -p without
// a username. Messages never contain a password.
common::Result<ConnectionConfig> ResolveConnection(const ConnectionFlags& flags,
                                                   const ConnectionEnvironment& environment,
                                                   const Cqlrc& file);

}  // namespace shell
