// cqld: the Cassandra-compatible database server.
//
//   cqld [--data DIR] [--address ADDR] [--port N] [--durability batch|periodic]
//        [--io-threads N] [--max-connections N] [--max-requests-per-connection N]
//        [--max-frame-size-mb N] [--max-request-memory-mb N] [--handshake-timeout-ms N]
//        [--idle-timeout-ms N] [--min-free-space-mb N] [--row-cache-size-mb N]
//        [--authenticator NAME] [--authorizer NAME] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]
//        [--tls-require-client-cert] [--tls-optional]] [--admin-address ADDR]
//        [--admin-port N|-1] [--audit-log [--audit-log-dir DIR] [--audit-log-*-keyspaces L]
//        [--audit-log-*-categories L] [--audit-log-*-users L]] [--config FILE]
//   cqld --data DIR --check
//   cqld admin [--host H] [--admin-port N] [-u USER -pw PASSWORD] COMMAND [ARGS] (admin_tool.h)
//
// Opens (or creates) the data directory with the embedded engine and serves the CQL native
// protocol (v4, v5) on ADDR:N (server/server.h), over TLS with --tls-cert and --tls-key
// (docs/security.md). Once listening it prints exactly one line to standard output, `cqld
// listening on ADDR:PORT (data DIR, durability MODE, authenticator NAME, authorizer NAME, tls
// on|optional|off, admin ADDR:PORT|off)`, with the real ports (`--port 0` and `--admin-port 0`
// pick free ones). The admin listener (server/admin_server.h: /metrics and the admin API) is on
// 127.0.0.1:9180 unless `--admin-port -1` turns it off. While the data
// directory's disk has less free space than the floor (`--min-free-space-mb`), writes fail with
// WriteFailure and reads go on; on such a disk it starts read-only; both end by themselves once
// space is freed (docs/reliability.md). SIGINT or SIGTERM stop it gracefully: requests in flight
// are answered, connections closed, the database closed (its write-ahead log synced); exit 0.
// SIGHUP re-reads the TLS certificate, key and CA files for new connections; when they cannot
// be used, the previous ones stay and an ERROR is logged.
//
// `--config FILE` reads a YAML file (server/config.h): cassandra.yaml's keys where cqld has the
// setting (`native_transport_port: 9042`, `client_encryption_options: {enabled: true, ...}`),
// and the long flags without dashes for the rest (`min-free-space-mb: 512`); an unknown key is
// a usage error naming it. Flags given on the command line override the file.
//
// `--audit-log` writes Cassandra's audit log (server/audit_log.h) to --audit-log-dir/audit.log:
// logins, statements and failed requests, filtered by keyspace, category and user; `cqld admin
// enableauditlog` turns it on at run time.
//
// Logs go to stderr, or with `--log-file` to a file rotated by size (`--log-file-max-mb`,
// `--log-file-count`), as text or JSON lines (`--log-format`), at `--log-level` and above
// (common/logging.h).
//
// A table, view, type or keyspace whose stored definition cannot be read is quarantined when the
// directory is opened (an ERROR log line names it; its definition and data stay on disk) and the
// rest is served. `--check` reports every keyspace, type, table, index and view of DIR and what
// is damaged, without serving or changing it (engine/data_check.h).
//
// Exit status: 0 after a signal; 1 when the database cannot be opened or the address bound;
// 2 on a usage error. With --check: 0 when nothing is damaged, 1 otherwise (or when DIR
// cannot be read).

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "admin_tool.h"
#include "common/logging.h"
#include "engine/data_check.h"
#include "engine/database.h"
#include "server/admin_api.h"
#include "server/admin_server.h"
#include "server/audit_log.h"
#include "server/config.h"
#include "server/server.h"

namespace {

constexpr int kUsageError = 2;
constexpr int kStartFailed = 1;
// When the process started, for the admin tool's uptime.
const std::chrono::steady_clock::time_point kStarted = std::chrono::steady_clock::now();

// The long flags that take a value (also the keys of the config file).
constexpr const char* kKeys[] = {"data",
                                 "address",
                                 "port",
                                 "durability",
                                 "io-threads",
                                 "max-connections",
                                 "max-requests-per-connection",
                                 "max-frame-size-mb",
                                 "max-request-memory-mb",
                                 "handshake-timeout-ms",
                                 "idle-timeout-ms",
                                 "min-free-space-mb",
                                 "row-cache-size-mb",
                                 "slow-query-log-ms",
                                 "tombstone-warn-threshold",
                                 "tombstone-failure-threshold",
                                 "batch-size-warn-threshold-kb",
                                 "batch-size-fail-threshold-kb",
                                 "unlogged-batch-across-partitions-warn-threshold",
                                 "authenticator",
                                 "authorizer",
                                 "tls-cert",
                                 "tls-key",
                                 "tls-ca",
                                 "cluster-name",
                                 "log-level",
                                 "log-file",
                                 "log-format",
                                 "log-file-max-mb",
                                 "log-file-count",
                                 "admin-address",
                                 "admin-port",
                                 "audit-log-logger",
                                 "audit-log-dir",
                                 "audit-log-included-keyspaces",
                                 "audit-log-excluded-keyspaces",
                                 "audit-log-included-categories",
                                 "audit-log-excluded-categories",
                                 "audit-log-included-users",
                                 "audit-log-excluded-users",
                                 "audit-log-max-log-size",
                                 "audit-log-max-queue-weight",
                                 "config"};

// Flags without a value on the command line; `true` or `false` in the config file.
constexpr const char* kSwitches[] = {"tls-optional", "tls-require-client-cert", "audit-log",
                                     "audit-log-block"};

void Usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: cqld [options]\n"
      "\n"
      "  --data DIR                       data directory, created when missing (default ./data)\n"
      "  --address ADDR                   address to listen on (default 127.0.0.1)\n"
      "  --port N                         port to listen on; 0 picks a free one (default 9042)\n"
      "  --durability MODE                'periodic' (default): the OS syncs the write-ahead\n"
      "                                   log; 'batch': every write waits for a (shared) sync\n"
      "  --io-threads N                   network threads; 0 = one per core (default 0)\n"
      "  --max-connections N              connections served at once (default 1024)\n"
      "  --max-requests-per-connection N  requests in flight per connection (default 1024)\n"
      "  --max-frame-size-mb N            largest request body in MiB (default 16)\n"
      "  --max-request-memory-mb N        memory for requests in flight and unsent responses,\n"
      "                                   all connections together; when it is used up,\n"
      "                                   connections stop reading until it frees (default 256)\n"
      "  --handshake-timeout-ms N         close connections that have not completed STARTUP\n"
      "                                   after N ms; 0 = never (default 10000)\n"
      "  --idle-timeout-ms N              close connections without requests for N ms;\n"
      "                                   0 = never (default 0)\n"
      "  --min-free-space-mb N            refuse writes (WriteFailure) while the data disk has\n"
      "                                   less free space; 0 = never (default: 64 MiB or 1%%\n"
      "                                   of the disk, whichever is larger)\n"
      "  --row-cache-size-mb N            memory for the row cache of partition slices that\n"
      "                                   single-partition SELECTs read; 0 = off (default 64)\n"
      "  --slow-query-log-ms N            log a WARN line for each request slower than N ms\n"
      "                                   (statement text, passwords redacted, never bound\n"
      "                                   values); 0 = off (default 500, as Cassandra)\n"
      "  --tombstone-warn-threshold N     warn the client of a read scanning more tombstones\n"
      "                                   (default 1000, as Cassandra)\n"
      "  --tombstone-failure-threshold N  fail such a read with ReadFailure (default 100000)\n"
      "  --batch-size-warn-threshold-kb N warn the client of a multi-partition batch larger\n"
      "                                   than N KiB (default 5, as Cassandra)\n"
      "  --batch-size-fail-threshold-kb N refuse such a batch (default 50)\n"
      "  --unlogged-batch-across-partitions-warn-threshold N\n"
      "                                   warn of an unlogged batch over more than N\n"
      "                                   partitions (default 10)\n"
      "  --authenticator NAME             who may connect, as cassandra.yaml's authenticator:\n"
      "                                   AllowAllAuthenticator (default: anyone, no login) or\n"
      "                                   PasswordAuthenticator (roles log in with a password;\n"
      "                                   the first start creates the superuser 'cassandra'\n"
      "                                   with $CQLD_SUPERUSER_PASSWORD, else 'cassandra')\n"
      "  --authorizer NAME                who may do what, as cassandra.yaml's authorizer:\n"
      "                                   AllowAllAuthorizer (default) or CassandraAuthorizer\n"
      "                                   (GRANT/REVOKE permissions; needs the\n"
      "                                   PasswordAuthenticator)\n"
      "  --tls-cert FILE                  serve TLS 1.2/1.3 with this PEM certificate chain;\n"
      "                                   needs --tls-key (default: plaintext only)\n"
      "  --tls-key FILE                   the certificate's private key (PEM, unencrypted)\n"
      "  --tls-ca FILE                    PEM CA certificates that client certificates must\n"
      "                                   chain to: clients are asked for one, and one that\n"
      "                                   does not is refused\n"
      "  --tls-require-client-cert        refuse clients without a valid certificate (mutual\n"
      "                                   TLS; needs --tls-ca)\n"
      "  --tls-optional                   serve plaintext clients too, on the same port\n"
      "  --admin-address ADDR             address of the admin listener: /metrics and the\n"
      "                                   API `cqld admin` calls (default 127.0.0.1; beyond\n"
      "                                   loopback it exposes the metrics to that network)\n"
      "  --admin-port N                   its port; 0 picks a free one, -1 turns it off\n"
      "                                   (default 9180)\n"
      "  --cluster-name NAME              the cluster name system.local reports (default\n"
      "                                   'Test Cluster', as Cassandra's)\n"
      "  --log-level LEVEL                DEBUG, INFO (default), WARN, ERROR or OFF\n"
      "  --log-file FILE                  log to FILE instead of stderr, rotated by size\n"
      "  --log-file-max-mb N              rotate the log file at N MiB (default 50)\n"
      "  --log-file-count N               rotated log files kept: FILE.1..FILE.N (default 7)\n"
      "  --log-format text|json           one line of text (default) or one JSON object per\n"
      "                                   line\n"
      "  --audit-log                      audit logins, statements and failed requests, one\n"
      "                                   line each, as Cassandra's FileAuditLogger (default\n"
      "                                   off; `cqld admin enableauditlog` at run time)\n"
      "  --audit-log-dir DIR              its directory: DIR/audit.log (default: audit/ beside\n"
      "                                   --log-file, else ./audit)\n"
      "  --audit-log-included-keyspaces L, --audit-log-excluded-keyspaces L\n"
      "  --audit-log-included-categories L, --audit-log-excluded-categories L\n"
      "  --audit-log-included-users L, --audit-log-excluded-users L\n"
      "                                   comma-separated filters (categories: QUERY, DML,\n"
      "                                   DDL, DCL, OTHER, AUTH, ERROR, PREPARE; excluded\n"
      "                                   keyspaces default to system,system_schema,\n"
      "                                   system_virtual_schema)\n"
      "  --audit-log-max-log-size BYTES   the audit files together, rotated by size (default\n"
      "                                   16 GiB)\n"
      "  --audit-log-max-queue-weight BYTES\n"
      "                                   entries waiting to be written before new ones are\n"
      "                                   dropped and counted (default 256 MiB)\n"
      "  --audit-log-logger NAME          FileAuditLogger, the only one cqld has\n"
      "  --config FILE                    read a YAML config file: cassandra.yaml's keys where\n"
      "                                   cqld has the setting, else the flags above without\n"
      "                                   dashes (docs/operations.md); flags override the file\n"
      "  --check                          report every keyspace, type, table, index and view\n"
      "                                   of --data and what is damaged (quarantined), then\n"
      "                                   exit: 0 when clean, 1 otherwise; serves nothing\n"
      "  -h, --help                       this text\n"
      "\n"
      "`cqld admin ...` is the admin tool (nodetool's commands): `cqld admin --help`.\n"
      "Prints `cqld listening on ADDR:PORT (data DIR, durability MODE, authenticator NAME,\n"
      "authorizer NAME, tls on|optional|off, admin ADDR:PORT|off)` once ready.\n"
      "SIGINT/SIGTERM stop it gracefully; SIGHUP re-reads the TLS files for new connections.\n"
      "Exit status: 0; 1 when the data directory cannot be opened or the address bound; 2 on\n"
      "a usage error. A table whose stored definition cannot be read is quarantined (logged\n"
      "as an ERROR, kept on disk, not served).\n");
}

bool IsKey(const std::string& key) {
  for (const char* known : kKeys) {
    if (key == known) return true;
  }
  return false;
}

bool IsSwitch(const std::string& key) {
  for (const char* known : kSwitches) {
    if (key == known) return true;
  }
  return false;
}

// Reads the config file `path` (server/config.h) into `values`: flags already there win.
std::string ReadConfig(const std::string& path, std::map<std::string, std::string>* values) {
  auto is_setting = [](const std::string& key) {
    return (IsKey(key) && key != "config") || IsSwitch(key) || key == "tls-enabled";
  };
  auto is_switch = [](const std::string& key) { return IsSwitch(key) || key == "tls-enabled"; };
  return server::ReadConfigFile(path, is_setting, is_switch, values);
}

// Parses a non-negative integer no larger than `max`.
std::optional<size_t> ParseCount(const std::string& text, size_t max) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "cqld: %s\n", message.c_str());
  Usage(stderr);
  return kUsageError;
}

// --authenticator (and CQLD_SUPERUSER_PASSWORD) and --authorizer into `options`. Returns an
// error message or "".
std::string ParseAuth(const std::string& name, const std::string& authorizer,
                      engine::DatabaseOptions* options) {
  if (authorizer == "CassandraAuthorizer" ||
      authorizer == "org.apache.cassandra.auth.CassandraAuthorizer") {
    options->authorizer = engine::DatabaseOptions::Authorizer::kCassandra;
  } else if (authorizer != "AllowAllAuthorizer" &&
             authorizer != "org.apache.cassandra.auth.AllowAllAuthorizer") {
    return "--authorizer must be AllowAllAuthorizer or CassandraAuthorizer";
  }
  // Cassandra accepts the short names and the full class names.
  if (name == "AllowAllAuthenticator" ||
      name == "org.apache.cassandra.auth.AllowAllAuthenticator") {
    options->authenticator = engine::DatabaseOptions::Authenticator::kAllowAll;
  } else if (name == "PasswordAuthenticator" ||
             name == "org.apache.cassandra.auth.PasswordAuthenticator") {
    options->authenticator = engine::DatabaseOptions::Authenticator::kPassword;
  } else {
    return "--authenticator must be AllowAllAuthenticator or PasswordAuthenticator";
  }
  if (const char* password = std::getenv("CQLD_SUPERUSER_PASSWORD")) {
    options->superuser_password = password;
  }
  if (options->authorizer == engine::DatabaseOptions::Authorizer::kCassandra &&
      options->authenticator != engine::DatabaseOptions::Authenticator::kPassword) {
    return "--authorizer CassandraAuthorizer needs --authenticator PasswordAuthenticator";
  }
  return "";
}

// --check: prints the report of `data` on standard output; the exit status.
int CheckData(const std::string& data) {
  auto report = engine::CheckDataDirectory(data);
  if (!report.ok()) {
    std::fprintf(stderr, "cqld: cannot check %s: %s\n", data.c_str(),
                 report.status().ToString().c_str());
    return kStartFailed;
  }
  for (const std::string& line : report->lines) std::printf("%s\n", line.c_str());
  return report->clean() ? 0 : kStartFailed;
}

}  // namespace

// Reads the command line into `values` (flag -> value) and `check`. Returns an exit status to
// leave with (help, a usage error), or nullopt to go on.
std::optional<int> ParseCommandLine(int argc, char** argv,
                                    std::map<std::string, std::string>* values, bool* check) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      Usage(stdout);
      return 0;
    }
    if (arg == "--check") {
      *check = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) return UsageError("unexpected argument '" + arg + "'");
    std::string key = arg.substr(2);
    std::optional<std::string> value;
    if (size_t equals = key.find('='); equals != std::string::npos) {
      value = key.substr(equals + 1);
      key.resize(equals);
    }
    if (IsSwitch(key)) {
      (*values)[key] = value.value_or("true");
      continue;
    }
    if (!IsKey(key)) return UsageError("unknown flag '" + arg + "'");
    if (!value) {
      if (i + 1 >= argc) return UsageError("flag --" + key + " needs a value");
      value = argv[++i];
    }
    (*values)[key] = *value;
  }
  return std::nullopt;
}

namespace {

using Values = std::map<std::string, std::string>;

// The numeric flags into `server_options` and `database_options`. Returns an error message or "".
std::string ParseLimits(const Values& values, server::ServerOptions* server_options,
                        engine::DatabaseOptions* database_options) {
  struct Count {
    const char* key;
    size_t* target;
    size_t min;
    size_t max;
  };
  size_t port = 9042;
  size_t frame_mb = 16;
  size_t request_memory_mb = 256;
  size_t handshake_ms = 10000;
  size_t idle_ms = 0;
  size_t slow_query_ms = 500;
  size_t tombstone_warn = 1000;
  size_t tombstone_failure = 100000;
  size_t batch_warn_kb = 5;
  size_t batch_fail_kb = 50;
  size_t unlogged_partitions = 10;
  for (Count count :
       {Count{"port", &port, 0, 65535}, Count{"io-threads", &server_options->io_threads, 0, 1024},
        Count{"max-connections", &server_options->max_connections, 1, 1000000},
        Count{"max-requests-per-connection", &server_options->max_requests_per_connection, 1,
              32768},
        Count{"max-frame-size-mb", &frame_mb, 1, 2047},
        Count{"max-request-memory-mb", &request_memory_mb, 1, size_t{1024} * 1024},
        Count{"handshake-timeout-ms", &handshake_ms, 0, 86400000},
        Count{"idle-timeout-ms", &idle_ms, 0, 86400000},
        Count{"slow-query-log-ms", &slow_query_ms, 0, 86400000},
        Count{"tombstone-warn-threshold", &tombstone_warn, 1, 2000000000},
        Count{"tombstone-failure-threshold", &tombstone_failure, 1, 2000000000},
        Count{"batch-size-warn-threshold-kb", &batch_warn_kb, 1, 2000000},
        Count{"batch-size-fail-threshold-kb", &batch_fail_kb, 1, 2000000},
        Count{"unlogged-batch-across-partitions-warn-threshold", &unlogged_partitions, 1,
              2000000000}}) {
    auto it = values.find(count.key);
    if (it == values.end()) continue;
    std::optional<size_t> parsed = ParseCount(it->second, count.max);
    if (!parsed || *parsed < count.min) {
      return "bad value '" + it->second + "' for " + count.key;
    }
    *count.target = *parsed;
  }
  if (auto it = values.find("row-cache-size-mb"); it != values.end()) {
    std::optional<size_t> megabytes = ParseCount(it->second, size_t{1} << 20);
    if (!megabytes) return "bad value '" + it->second + "' for row-cache-size-mb";
    database_options->row_cache_bytes = *megabytes << 20;
  }
  if (auto it = values.find("min-free-space-mb"); it != values.end()) {
    std::optional<size_t> megabytes = ParseCount(it->second, size_t{1} << 30);
    if (!megabytes) return "bad value '" + it->second + "' for min-free-space-mb";
    database_options->min_free_space_bytes = uint64_t{*megabytes} << 20;
  }
  server_options->port = static_cast<uint16_t>(port);
  server_options->max_envelope_body = frame_mb * 1024 * 1024;
  server_options->max_request_memory = request_memory_mb * 1024 * 1024;
  server_options->handshake_timeout = std::chrono::milliseconds(handshake_ms);
  server_options->idle_timeout = std::chrono::milliseconds(idle_ms);
  database_options->slow_query_log_threshold = std::chrono::milliseconds(slow_query_ms);
  database_options->tombstone_warn_threshold = static_cast<int64_t>(tombstone_warn);
  database_options->tombstone_failure_threshold = static_cast<int64_t>(tombstone_failure);
  database_options->batch_thresholds.warn_bytes = static_cast<int64_t>(batch_warn_kb) * 1024;
  database_options->batch_thresholds.fail_bytes = static_cast<int64_t>(batch_fail_kb) * 1024;
  database_options->batch_thresholds.unlogged_partitions_warn = unlogged_partitions;
  return "";
}

// The --tls-* flags (and tls-enabled) into `tls`. Returns an error message or "".
std::string ParseTls(const Values& values, server::TlsOptions* tls) {
  auto text = [&](const char* key) {
    auto it = values.find(key);
    return it == values.end() ? std::string() : it->second;
  };
  std::string bad_switch;
  auto boolean = [&](const char* key, bool fallback) {
    std::string value = text(key);
    if (value.empty()) return fallback;
    if (value != "true" && value != "false") bad_switch = key;
    return value == "true";
  };
  const bool enabled = boolean("tls-enabled", true);
  tls->optional = boolean("tls-optional", false);
  tls->require_client_auth = boolean("tls-require-client-cert", false);
  if (!bad_switch.empty()) return bad_switch + " must be true or false";
  tls->certificate_file = text("tls-cert");
  tls->private_key_file = text("tls-key");
  tls->truststore_file = text("tls-ca");
  if (!enabled) {  // the config file's `enabled: false`: the other settings wait
    *tls = server::TlsOptions();
    return "";
  }
  if (tls->certificate_file.empty() != tls->private_key_file.empty()) {
    return "--tls-cert and --tls-key go together";
  }
  tls->enabled = !tls->certificate_file.empty();
  if (!tls->enabled && (values.count("tls-enabled") > 0 || !tls->truststore_file.empty() ||
                        tls->optional || tls->require_client_auth)) {
    return "TLS settings need --tls-cert and --tls-key";
  }
  if (tls->require_client_auth && tls->truststore_file.empty()) {
    return "--tls-require-client-cert needs --tls-ca (the CA that signs client certificates)";
  }
  return "";
}

// The --log-* flags: level and sink, set for the whole process. Returns an error message or "".
std::string ConfigureLogging(const Values& values) {
  auto text = [&](const char* key, const char* fallback) {
    auto it = values.find(key);
    return it == values.end() ? std::string(fallback) : it->second;
  };
  std::optional<common::LogLevel> level = common::ParseLogLevel(text("log-level", "INFO"));
  if (!level) return "--log-level must be DEBUG, INFO, WARN, ERROR or OFF";
  common::LogSinkOptions sink;
  sink.file = text("log-file", "");
  std::string format = text("log-format", "text");
  if (format != "text" && format != "json") return "--log-format must be 'text' or 'json'";
  sink.format = format == "json" ? common::LogFormat::kJson : common::LogFormat::kText;
  std::optional<size_t> max_mb = ParseCount(text("log-file-max-mb", "50"), 1 << 20);
  std::optional<size_t> count = ParseCount(text("log-file-count", "7"), 1000);
  if (!max_mb || *max_mb == 0) return "bad value for log-file-max-mb (1 or more MiB)";
  if (!count) return "bad value for log-file-count (0 to 1000)";
  sink.max_file_bytes = uint64_t{*max_mb} << 20;
  sink.max_files = static_cast<int>(*count);
  if (std::string error = common::SetLogSink(sink); !error.empty()) return error;
  common::SetLogLevel(*level);
  return "";
}

// --admin-address and --admin-port into `admin` (nullopt: -1, off). Returns an error message
// or "".
std::string ParseAdmin(const Values& values, std::optional<server::AdminServerOptions>* admin) {
  server::AdminServerOptions options;
  if (auto it = values.find("admin-address"); it != values.end()) options.address = it->second;
  if (auto it = values.find("admin-port"); it != values.end()) {
    if (it->second == "-1") {
      admin->reset();
      return "";
    }
    std::optional<size_t> port = ParseCount(it->second, 65535);
    if (!port) return "bad value '" + it->second + "' for admin-port (0-65535, or -1: off)";
    options.port = static_cast<uint16_t>(*port);
  }
  *admin = options;
  return "";
}

// The --audit-log* flags (cassandra.yaml's audit_logging_options) into `options`. Returns an
// error message or "".
std::string ParseAuditLog(const Values& values, server::AuditLogOptions* options) {
  auto text = [&](const char* key) -> const std::string* {
    auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
  };
  const std::string* enabled = text("audit-log");
  options->enabled = enabled != nullptr && *enabled == "true";
  const std::string* block = text("audit-log-block");
  options->block = block != nullptr && *block == "true";
  if (const std::string* logger = text("audit-log-logger")) options->logger = *logger;
  if (const std::string* dir = text("audit-log-dir")) {
    options->audit_logs_dir = *dir;
  } else if (const std::string* log_file = text("log-file")) {
    options->audit_logs_dir = (std::filesystem::path(*log_file).parent_path() / "audit").string();
  } else {
    options->audit_logs_dir = "./audit";
  }
  const std::pair<const char*, std::string*> lists[] = {
      {"audit-log-included-keyspaces", &options->included_keyspaces},
      {"audit-log-excluded-keyspaces", &options->excluded_keyspaces},
      {"audit-log-included-categories", &options->included_categories},
      {"audit-log-excluded-categories", &options->excluded_categories},
      {"audit-log-included-users", &options->included_users},
      {"audit-log-excluded-users", &options->excluded_users}};
  for (const auto& [key, target] : lists) {
    if (const std::string* value = text(key)) *target = *value;
  }
  const std::pair<const char*, uint64_t*> sizes[] = {
      {"audit-log-max-log-size", &options->max_log_size},
      {"audit-log-max-queue-weight", &options->max_queue_weight}};
  for (const auto& [key, target] : sizes) {
    const std::string* value = text(key);
    if (value == nullptr) continue;
    std::optional<size_t> bytes = ParseCount(*value, size_t{1} << 50);
    if (!bytes || *bytes == 0) return fmt::format("bad value '{}' for {} (bytes)", *value, key);
    *target = *bytes;
  }
  if (common::Status status = server::ValidateAuditLogOptions(*options); !status.ok()) {
    return "audit log: " + status.message();
  }
  return "";
}

// Starts the admin listener over `database` and `server` (drain stops it); nullptr when `admin`
// is nullopt (off). On an error, prints it and returns nullptr with `*failed` set.
std::unique_ptr<server::AdminServer> StartAdmin(
    const std::optional<server::AdminServerOptions>& admin, engine::Database* database,
    server::Server* server, server::AuditLog* audit_log, std::unique_ptr<server::AdminApi>* api,
    bool* failed) {
  if (!admin) return nullptr;
  server::AdminApiOptions api_options;
  api_options.audit_log = audit_log;
  api_options.database = database;
  api_options.started = kStarted;
  api_options.native_address = server->endpoint().address().to_string();
  api_options.native_port = server->port();
  api_options.stop_native_transport = [server] { server->Stop(); };
  *api = std::make_unique<server::AdminApi>(std::move(api_options));
  auto started = server::AdminServer::Start(
      *admin,
      [api = api->get()](const server::AdminRequest& request) { return api->Handle(request); });
  if (!started.ok()) {
    std::fprintf(stderr, "cqld: %s\n", started.status().ToString().c_str());
    *failed = true;
    return nullptr;
  }
  return std::move(started).value();
}

// Opens the database, serves it until SIGINT or SIGTERM, and closes both; the exit status.
// SIGHUP reloads the TLS files.
int Serve(const std::string& data, const std::string& durability,
          const engine::DatabaseOptions& database_options, server::ServerOptions server_options,
          const std::optional<server::AdminServerOptions>& admin,
          const server::AuditLogOptions& audit_options) {
  // Signals first, so a SIGTERM right after the ready line is never lost, nor a SIGHUP fatal.
  boost::asio::io_context signals_io;
  boost::asio::signal_set stop_signals(signals_io, SIGINT, SIGTERM);
  boost::asio::signal_set reload_signals(signals_io, SIGHUP);
  stop_signals.async_wait([&](const boost::system::error_code&, int) { reload_signals.cancel(); });

  std::error_code fs_error;
  std::filesystem::create_directories(data, fs_error);
  auto database = engine::Database::Open(data, database_options);
  if (!database.ok()) {
    std::fprintf(stderr, "cqld: cannot open %s: %s\n", data.c_str(),
                 database.status().ToString().c_str());
    return kStartFailed;
  }
  // Declared before the server, which logs to it until it stops.
  const schema::LocalNodeInfo& node = database_options.local_node;
  server::AuditLog audit_log(fmt::format("{}:{}", node.listen_address, node.listen_port),
                             audit_options);
  if (audit_options.enabled) {
    if (common::Status status = audit_log.Enable(audit_options); !status.ok()) {
      std::fprintf(stderr, "cqld: audit log: %s\n", status.message().c_str());
      return kStartFailed;
    }
  }
  server_options.audit_log = &audit_log;
  auto server = server::Server::Start(database->get(), server_options);
  if (!server.ok()) {
    std::fprintf(stderr, "cqld: %s\n", server.status().ToString().c_str());
    return kStartFailed;
  }
  std::function<void(const boost::system::error_code&, int)> on_reload =
      [&](const boost::system::error_code& ec, int) {
        if (ec) return;  // stopping
        LOG_INFO("SIGHUP: reloading the TLS files");
        if (server_options.tls.enabled) {
          (void)(*server)->ReloadTls();  // logs its outcome; a failure keeps the old files
        } else {
          LOG_INFO("TLS is off: nothing to reload");
        }
        reload_signals.async_wait(on_reload);
      };
  reload_signals.async_wait(on_reload);
  std::unique_ptr<server::AdminApi> admin_api;
  bool admin_failed = false;
  std::unique_ptr<server::AdminServer> admin_server =
      StartAdmin(admin, database->get(), server->get(), &audit_log, &admin_api, &admin_failed);
  if (admin_failed) return kStartFailed;
  const std::string admin_text =
      admin_server ? fmt::format("{}:{}", admin_server->endpoint().address().to_string(),
                                 admin_server->port())
                   : "off";
  const bool login =
      database_options.authenticator == engine::DatabaseOptions::Authenticator::kPassword;
  const bool authorize =
      database_options.authorizer == engine::DatabaseOptions::Authorizer::kCassandra;
  std::printf(
      "cqld listening on %s:%u (data %s, durability %s, authenticator %s, authorizer %s, tls %s, "
      "admin %s)\n",
      (*server)->endpoint().address().to_string().c_str(), static_cast<unsigned>((*server)->port()),
      data.c_str(), durability.c_str(), login ? "PasswordAuthenticator" : "AllowAllAuthenticator",
      authorize ? "CassandraAuthorizer" : "AllowAllAuthorizer",
      std::string(server::TlsMode(server_options.tls)).c_str(), admin_text.c_str());
  std::fflush(stdout);

  signals_io.run();  // returns once a stop signal arrived
  LOG_INFO("stopping");
  if (admin_server) admin_server->Stop();
  (*server)->Stop();
  server->reset();
  database->reset();  // closes the store: the write-ahead log is synced
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "admin") return cqld::RunAdmin(argc - 1, argv + 1);
  Values values;
  bool check = false;
  if (std::optional<int> exit = ParseCommandLine(argc, argv, &values, &check)) return *exit;
  if (auto config = values.find("config"); config != values.end()) {
    std::string error = ReadConfig(config->second, &values);
    if (!error.empty()) return UsageError(error);
  }
  auto get = [&](const std::string& key, const std::string& fallback) {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  };

  std::string data = get("data", "./data");
  if (check) return CheckData(data);
  if (std::string error = ConfigureLogging(values); !error.empty()) return UsageError(error);
  std::string durability = get("durability", "periodic");
  engine::DatabaseOptions database_options;
  server::ServerOptions server_options;
  database_options.local_node.cluster_name = get("cluster-name", "Test Cluster");
  if (durability == "batch") {
    database_options.durability = engine::DatabaseOptions::Durability::kBatch;
    server_options.execute_on_workers = true;
  } else if (durability != "periodic") {
    return UsageError("--durability must be 'batch' or 'periodic'");
  }
  const std::string authenticator = get("authenticator", "AllowAllAuthenticator");
  const std::string authorizer = get("authorizer", "AllowAllAuthorizer");
  if (std::string error = ParseAuth(authenticator, authorizer, &database_options); !error.empty()) {
    return UsageError(error);
  }
  server_options.address = get("address", "127.0.0.1");
  if (std::string error = ParseLimits(values, &server_options, &database_options); !error.empty()) {
    return UsageError(error);
  }
  if (std::string error = ParseTls(values, &server_options.tls); !error.empty()) {
    return UsageError(error);
  }
  std::optional<server::AdminServerOptions> admin;
  if (std::string error = ParseAdmin(values, &admin); !error.empty()) return UsageError(error);
  server::AuditLogOptions audit_options;
  if (std::string error = ParseAuditLog(values, &audit_options); !error.empty()) {
    return UsageError(error);
  }
  return Serve(data, durability, database_options, server_options, admin, audit_options);
}
