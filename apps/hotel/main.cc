// `hotel`: the reservation service (docs/data-model.md).
//
//   hotel serve [--data DIR] [--address 127.0.0.1] [--port 8080] [--keyspace-prefix P]
//               [--web DIR] [--threads N] [--max-connections N] [--header-timeout S]
//               [--body-timeout S] [--idle-timeout S] [--tls-cert FILE --tls-key FILE]
//               [--access-log FILE | --no-access-log]
//       Opens the embedded database in DIR (default ./data), creates the schema if missing,
//       loads the small sample when the hotel keyspace is empty, and serves the HTTP API and
//       the web UI until SIGINT/SIGTERM. The UI is compiled in (src/hotel/web_assets.h);
//       --web DIR serves the files of DIR instead (to work on the UI without rebuilding). One
//       access-log line per request goes to stderr, or to FILE (src/hotel/access_log.h). The
//       connection limit and the deadlines (seconds) are HttpServerOptions'
//       (src/hotel/http_server.h; docs/reliability.md section 4). With
//       --tls-cert and --tls-key (PEM), it serves HTTPS instead of HTTP (docs/security.md).
//   hotel load [--data DIR] [--scale small|seed] [--seed N] [--keyspace-prefix P]
//              [--hotels N] [--rooms N] [--days N] [--pois N] [--guests N] [--reservations N]
//              [--writers N] [--first-day YYYY-MM-DD]
//       Creates the schema and loads a deterministic sample (src/hotel/data_generator.h) with a
//       progress bar; explicit counts override the scale's. Into the embedded engine it writes
//       in bulk-load durability and flushes at the end (docs/reliability.md §5).
//   hotel bench [--url http://HOST:PORT | --data DIR] [--mix workflow|lookup|availability]
//               [--concurrency N] [--duration SECONDS] [--rate R|half] [--seed N]
//               [--scale S] [--days N] [--first-day YYYY-MM-DD]
//       The workflow as a load (src/hotel/load_bench.h), over HTTP against a running `hotel
//       serve`, or in-process on the embedded engine; prints throughput and latencies per
//       operation and the double-booking check. --rate R: open loop at R ops/s; --rate half:
//       closed loop, then open loop at half the throughput it reached.
//
//   hotel notify [--data DIR | --cassandra ...] [--keyspace-prefix P] [--once]
//                [--maildir DIR | --smtp-host HOST [--smtp-port N] [--smtp-starttls |
//                --smtp-tls] [--smtp-ca FILE] [--smtp-user NAME [--smtp-password-file FILE]
//                [--smtp-auth auto|plain|login] [--smtp-insecure-auth]]]
//                [--mail-from ADDRESS] [--notify-interval S]
//       The notification worker (src/hotel/notification_worker.h): delivers the confirmation,
//       change and cancellation emails the service wrote to its outbox, into a maildir
//       (default ./mail) or to an SMTP server (logging in with --smtp-user after TLS, the
//       password from --smtp-password-file or HOTEL_SMTP_PASSWORD); --once delivers what is due and
//       exits (cron, tests), else it polls every --notify-interval seconds (default 2) until
//       SIGINT/SIGTERM. `hotel serve --notify-maildir DIR` (or --smtp-host HOST) runs the same
//       worker in-process (docs/operations.md, "Notifications").
//
//   hotel backfill [--data DIR | --cassandra ...] [--keyspace-prefix P] [--page-size N]
//                  [--from CURSOR]
//       Writes the departures/in-house rows (Q11) and the search-by-email rows (Q12) of
//       reservations written before those tables existed (src/hotel/backfill.h): paged,
//       idempotent, safe while the service runs; prints a cursor to resume from after every
//       page (docs/operations.md, "Backfilling the derived tables").
//
//   hotel users add|passwd|remove NAME [--data DIR | --cassandra ...] [--keyspace-prefix P]
//   hotel users list [--data DIR | --cassandra ...] [--keyspace-prefix P]
//       Manages the staff accounts of the web UI and the API (docs/security.md). The password
//       comes from the environment variable HOTEL_USER_PASSWORD or, at a terminal, from a
//       prompt that does not echo (asked twice); never from the command line.
//
// All take `--cassandra host:port[,host:port...]` instead of `--data`: the same service on any
// Cassandra-compatible cluster (cqld, Apache Cassandra, ScyllaDB) through the C++ driver
// (src/client), with `--replication '{...}'` for the keyspaces it creates (default
// SimpleStrategy, replication_factor 1), and `--username NAME` with the password in
// HOTEL_CASSANDRA_PASSWORD (or `--password`, which other users see in `ps` until it is read)
// for a cluster that asks for a login (PasswordAuthenticator).
//
// `--bucketing none|month` (default none) selects the availability table: one partition per
// hotel, or the seeds' month-bucketed table (docs/data-model.md). `hotel serve` runs the repair
// pass (orphan holds, stale pending confirmations) in the background every minute.

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "client/remote_session.h"
#include "engine/database.h"
#include "engine/node_operations.h"
#include "hotel/backfill.h"
#include "hotel/data_generator.h"
#include "hotel/hotel_service.h"
#include "hotel/http_router.h"
#include "hotel/http_server.h"
#include "hotel/load_bench.h"
#include "hotel/maildir_sender.h"
#include "hotel/notification_worker.h"
#include "hotel/progress_bar.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"
#include "hotel/smtp_client.h"
#include "hotel/staff_accounts.h"
#include "hotel/staff_auth.h"

namespace {

constexpr const char* kUsage =
    "usage: hotel serve [--data DIR] [--address ADDR] [--port N] [--keyspace-prefix P] "
    "[--web DIR] [--threads N]\n"
    "                   [--max-connections N] [--header-timeout S] [--body-timeout S]\n"
    "                   [--idle-timeout S] [--access-log FILE | --no-access-log]\n"
    "       hotel load [--data DIR] [--scale small|seed] [--seed N] [--keyspace-prefix P]\n"
    "                  [--hotels N] [--rooms N] [--days N] [--pois N] [--guests N]\n"
    "                  [--reservations N] [--writers N] [--first-day YYYY-MM-DD]\n"
    "       hotel bench [--url http://HOST:PORT | --data DIR] [--mix workflow|lookup|"
    "availability]\n"
    "                   [--concurrency N] [--duration SECONDS] [--rate R|half] [--seed N]\n"
    "                   [--scale S] [--days N] [--first-day YYYY-MM-DD]\n"
    "                   [--service-threads N] (with --data: operations running at once,\n"
    "                    default the machine's hardware threads, 0 no limit)\n"
    "                   [--staff-user NAME] (with --url: the staff login the workflow needs)\n"
    "       hotel notify [--data DIR] [--keyspace-prefix P] [--once] [--maildir DIR]\n"
    "                    [--smtp-host HOST [--smtp-port N] [--smtp-starttls | --smtp-tls]\n"
    "                     [--smtp-ca FILE] [--smtp-user NAME [--smtp-password-file FILE]\n"
    "                     [--smtp-auth auto|plain|login] [--smtp-insecure-auth]]]\n"
    "                    [--mail-from ADDRESS] [--notify-interval S]\n"
    "       hotel backfill [--data DIR] [--keyspace-prefix P] [--page-size N] [--from CURSOR]\n"
    "       hotel users add|passwd|remove NAME [--data DIR] [--keyspace-prefix P]\n"
    "       hotel users list [--data DIR] [--keyspace-prefix P]\n"
    "       (any command: --cassandra HOST:PORT[,HOST:PORT...] [--replication MAP]\n"
    "        [--username NAME] instead of --data; the password from HOTEL_CASSANDRA_PASSWORD,\n"
    "        or --password PASSWORD, which `ps` shows: prefer the variable;\n"
    "        [--tls-ca FILE] connects with TLS, verifying the cluster against the PEM CA FILE)\n"
    "       (any command: --bucketing none|month selects the availability table)\n"
    "  serve: --threads N           io threads (default 4)\n"
    "         --max-connections N   connections served at once; more are answered 503\n"
    "                               (default min(1024, RLIMIT_NOFILE / 2))\n"
    "         --header-timeout S    request line and headers must arrive within S seconds,\n"
    "                               else 408 (default 10)\n"
    "         --body-timeout S      the body within S more seconds, else 408 (default 30)\n"
    "         --idle-timeout S      an idle keep-alive connection closes after S seconds\n"
    "                               (default 30)\n"
    "         --tls-cert FILE --tls-key FILE\n"
    "                               serve HTTPS (TLS 1.2+) with this PEM certificate (chain)\n"
    "                               and PEM private key\n"
    "         --web DIR             serve the UI from DIR (default: the UI compiled in)\n"
    "         --access-log FILE     append the access log to FILE (default: stderr)\n"
    "         --no-access-log       no access log\n"
    "         --notify-maildir DIR  run the notify worker in-process, mail into the maildir DIR\n"
    "                               (or --smtp-host HOST ...: to an SMTP server, as notify)\n"
    "  notify: --maildir DIR        deliver into the maildir DIR (default ./mail)\n"
    "          --smtp-host HOST     deliver to the SMTP server HOST instead (--smtp-port, default\n"
    "                               25; --smtp-starttls requires STARTTLS, verifying the server\n"
    "                               against the system's CAs or --smtp-ca FILE; --smtp-tls:\n"
    "                               TLS from the first byte, SMTPS, usually port 465)\n"
    "          --smtp-user NAME     log in (AUTH PLAIN or LOGIN: --smtp-auth) after TLS; the\n"
    "                               password from --smtp-password-file FILE (first line) or\n"
    "                               HOTEL_SMTP_PASSWORD, never the command line\n"
    "          --smtp-insecure-auth allow the login without TLS: the password travels in\n"
    "                               clear (a server on the loopback only)\n"
    "          --mail-from ADDRESS  the From address (default reservations@localhost)\n"
    "          --once               deliver what is due, print what was done, exit\n"
    "          --notify-interval S  seconds between passes (default 2)\n"
    "  users, bench --staff-user: the password comes from HOTEL_USER_PASSWORD or a prompt\n"
    "                               without echo, never from the command line\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "hotel: %s\n", message.c_str());
  return 1;
}

// An integer flag; unset ("") leaves `value` as is. False when malformed or out of range.
bool IntFlag(const std::string& text, long low, long high, int* value) {
  if (text.empty()) return true;
  char* end = nullptr;
  long parsed = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || parsed < low || parsed > high) return false;
  *value = static_cast<int>(parsed);
  return true;
}

// A duration flag in seconds (decimals allowed, 0.001 to 3600); unset ("") leaves `value` as is.
// False when malformed or out of range.
bool SecondsFlag(const std::string& text, std::chrono::milliseconds* value) {
  if (text.empty()) return true;
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(seconds >= 0.001 && seconds <= 3600)) return false;
  *value = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000 + 0.5));
  return true;
}

// `hotel serve`'s HTTP server options from its flags; "" when they are valid, else the error.
std::string ServerOptionsFromFlags(std::map<std::string, std::string>& flags,
                                   hotel::HttpServerOptions* options) {
  if (!IntFlag(flags["--max-connections"], 1, 1000000, &options->max_connections)) {
    return "bad --max-connections";
  }
  if (!SecondsFlag(flags["--header-timeout"], &options->header_timeout)) {
    return "bad --header-timeout";
  }
  if (!SecondsFlag(flags["--body-timeout"], &options->body_timeout)) return "bad --body-timeout";
  if (!SecondsFlag(flags["--idle-timeout"], &options->idle_timeout)) return "bad --idle-timeout";
  options->tls_certificate_file = flags["--tls-cert"];
  options->tls_key_file = flags["--tls-key"];
  if (options->tls_certificate_file.empty() != options->tls_key_file.empty()) {
    return "--tls-cert and --tls-key go together";
  }
  options->access_log = flags["--no-access-log"].empty();
  options->access_log_file = flags["--access-log"];
  if (!options->access_log && !options->access_log_file.empty()) {
    return "--access-log and --no-access-log exclude each other";
  }
  return "";
}

// `hotel bench`: runs the phases and the integrity check (0 when it passes).
int Bench(const hotel::BenchClientFactory& factory, std::map<std::string, std::string>& flags,
          uint64_t seed) {
  hotel::BenchOptions options;
  auto mix = hotel::ParseBenchMix(flags["--mix"]);
  if (!mix.ok()) return Fail(mix.status().message());
  options.mix = *mix;
  options.seed = seed;
  auto scale = hotel::GeneratorOptionsForScale(flags["--scale"]);
  if (!scale.ok()) return Fail(scale.status().message());
  options.days = scale->days;
  if (!IntFlag(flags["--concurrency"], 1, 1024, &options.concurrency)) {
    return Fail("bad --concurrency");
  }
  if (!IntFlag(flags["--days"], 8, 3660, &options.days)) return Fail("bad --days");
  char* end = nullptr;
  options.duration_seconds = std::strtod(flags["--duration"].c_str(), &end);
  if (*end != '\0' || !(options.duration_seconds > 0)) return Fail("bad --duration");
  bool half_peak = flags["--rate"] == "half";
  double rate = half_peak ? 0 : std::strtod(flags["--rate"].c_str(), &end);
  if (!half_peak && (*end != '\0' || !(rate >= 0))) return Fail("bad --rate");
  if (!flags["--first-day"].empty()) {
    auto day = hotel::ParseDay(flags["--first-day"]);
    if (!day.ok()) return Fail("bad --first-day");
    options.first_day = *day;
  }
  hotel::LoadBench bench(factory, options);
  common::Status status = hotel::RunBenchCommand(bench, rate, half_peak, stdout);
  if (!status.ok()) return Fail("bench: " + status.ToString());
  return 0;
}

// Every flag a command takes, with its default ("": none, or the options' own default).
std::map<std::string, std::string> DefaultFlags() {
  std::map<std::string, std::string> flags = {{"--data", "data"},     {"--address", "127.0.0.1"},
                                              {"--port", "8080"},     {"--keyspace-prefix", ""},
                                              {"--web", ""},          {"--threads", "4"},
                                              {"--scale", "small"},   {"--seed", "42"},
                                              {"--cassandra", ""},    {"--replication", ""},
                                              {"--hotels", ""},       {"--rooms", ""},
                                              {"--days", ""},         {"--pois", ""},
                                              {"--guests", ""},       {"--reservations", ""},
                                              {"--writers", "2"},     {"--first-day", ""},
                                              {"--url", ""},          {"--mix", "workflow"},
                                              {"--concurrency", "8"}, {"--duration", "10"},
                                              {"--rate", "0"},        {"--bucketing", "none"},
                                              {"--staff-user", ""},   {"--username", ""},
                                              {"--password", ""},     {"--tls-ca", ""},
                                              {"--page-size", "100"}, {"--from", ""}};
  flags["--service-threads"] = "";  // `hotel bench --data`: OperationGate slots
  // The notify worker's flags (`hotel notify`, and `hotel serve` with --notify-maildir or
  // --smtp-host); the switches --once, --smtp-starttls, --smtp-tls and --smtp-insecure-auth are
  // "" until given.
  for (const auto& [flag, value] :
       std::map<std::string, std::string>{{"--maildir", "mail"},
                                          {"--notify-maildir", ""},
                                          {"--smtp-host", ""},
                                          {"--smtp-port", "25"},
                                          {"--smtp-starttls", ""},
                                          {"--smtp-ca", ""},
                                          {"--smtp-tls", ""},
                                          {"--smtp-user", ""},
                                          {"--smtp-password-file", ""},
                                          {"--smtp-auth", "auto"},
                                          {"--smtp-insecure-auth", ""},
                                          {"--mail-from", "reservations@localhost"},
                                          {"--once", ""},
                                          {"--notify-interval", "2"}}) {
    flags[flag] = value;
  }
  // `hotel serve`'s HTTP server flags ("": HttpServerOptions' default).
  for (const char* flag :
       {"--max-connections", "--header-timeout", "--body-timeout", "--idle-timeout", "--tls-cert",
        "--tls-key", "--access-log", "--no-access-log"}) {
    flags[flag] = "";
  }
  return flags;
}

// A cluster login: --username, and the password from --password or else
// HOTEL_CASSANDRA_PASSWORD. Both empty: no login. Errors: kInvalid for half a login, or a login
// without --cassandra. Warns (without the password) when it came from the command line.
struct ClusterLogin {
  std::string username;
  std::string password;
  std::string tls_ca;  // non-empty: TLS to the cluster, verified against this CA file
};
common::Result<ClusterLogin> ClusterLoginFromFlags(std::map<std::string, std::string>& flags) {
  ClusterLogin login{flags["--username"], flags["--password"], flags["--tls-ca"]};
  if (!login.password.empty()) {
    std::fprintf(stderr,
                 "hotel: warning: --password shows in `ps` and in shell history; prefer the "
                 "environment variable HOTEL_CASSANDRA_PASSWORD\n");
  } else if (const char* value = std::getenv("HOTEL_CASSANDRA_PASSWORD");
             value != nullptr && !login.username.empty()) {
    login.password = value;
  }
  if (!login.password.empty() && login.username.empty()) {
    return common::Status::Invalid("--password needs --username");
  }
  if (!login.username.empty() && login.password.empty()) {
    return common::Status::Invalid(
        "--username needs a password: HOTEL_CASSANDRA_PASSWORD (preferred) or --password");
  }
  if (!login.username.empty() && flags["--cassandra"].empty()) {
    return common::Status::Invalid("--username and --password go with --cassandra");
  }
  if (!login.tls_ca.empty() && flags["--cassandra"].empty()) {
    return common::Status::Invalid("--tls-ca goes with --cassandra");
  }
  return login;
}

// Opens the embedded database in `data` (kept in `*database`; in bulk-load durability when
// `bulk_load`, docs/reliability.md §5) or connects to the `cassandra` contact points
// (comma-separated) when given, logging in as `login` when it has a username; returns the
// session the service runs on.
common::Result<std::unique_ptr<cql::Session>> OpenSession(
    const std::string& data, const std::string& cassandra, const ClusterLogin& login,
    bool bulk_load, std::unique_ptr<engine::Database>* database) {
  if (cassandra.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(data, ignored);
    engine::DatabaseOptions database_options;
    if (bulk_load) database_options.durability = engine::DatabaseOptions::Durability::kBulkLoad;
    auto opened = engine::Database::Open(data, database_options);
    if (!opened.ok()) {
      return common::Status::IOError("cannot open " + data + ": " + opened.status().ToString());
    }
    *database = std::move(opened).value();
    return (*database)->NewSession();
  }
  client::ClientOptions options;
  options.username = login.username;
  options.password = login.password;
  if (!login.tls_ca.empty()) {
    options.tls.enabled = true;
    options.tls.ca_file = login.tls_ca;
  }
  options.contact_points.clear();
  for (size_t start = 0; start <= cassandra.size();) {
    size_t comma = cassandra.find(',', start);
    if (comma == std::string::npos) comma = cassandra.size();
    if (comma > start) options.contact_points.push_back(cassandra.substr(start, comma - start));
    start = comma + 1;
  }
  auto connected = client::RemoteSession::Connect(options);
  if (!connected.ok()) {
    return common::Status::IOError("cannot connect to " + cassandra + ": " +
                                   connected.status().ToString());
  }
  return std::unique_ptr<cql::Session>(std::move(connected).value());
}

// `hotel load` (and the sample `serve` loads into an empty database): generates the data the
// flags ask for through the service. Returns the exit status.
int LoadSample(hotel::Repository& repository, hotel::HotelService& service,
               std::map<std::string, std::string>& flags, unsigned long long seed,
               const std::string& where, bool verbose) {
  auto options = hotel::GeneratorOptionsForScale(flags["--scale"]);
  if (!options.ok()) return Fail(options.status().message());
  options->seed = seed;
  if (!IntFlag(flags["--hotels"], 0, 1000000, &options->hotels) ||
      !IntFlag(flags["--rooms"], 1, 3000, &options->rooms_per_hotel) ||
      !IntFlag(flags["--days"], 0, 3660, &options->days) ||
      !IntFlag(flags["--pois"], 0, 1000000, &options->pois) ||
      !IntFlag(flags["--guests"], 0, 100000000, &options->guests) ||
      !IntFlag(flags["--reservations"], 0, 100000000, &options->reservations) ||
      !IntFlag(flags["--writers"], 1, 64, &options->threads)) {
    return Fail("bad count flag (see --help for the ranges in src/hotel/data_generator.h)");
  }
  if (!flags["--first-day"].empty()) {
    auto day = hotel::ParseDay(flags["--first-day"]);
    if (!day.ok()) return Fail("bad --first-day");
    options->first_day = *day;
  }
  if (verbose) {
    // A bar redrawn in place on a terminal; a line every 5 s in a log.
    bool terminal = isatty(STDERR_FILENO) != 0;
    options->progress_interval_millis = terminal ? 250 : 5000;
    options->progress = [terminal](const hotel::GeneratorProgress& progress) {
      std::string line =
          hotel::FormatProgress(progress.rows_done, progress.rows_total, progress.seconds,
                                progress.finished, terminal ? 24 : 0);
      std::fprintf(stderr, terminal ? "\rhotel load: %s\033[K" : "hotel load: %s\n", line.c_str());
      if (terminal && progress.finished) std::fputc('\n', stderr);
    };
  }
  auto report = hotel::Generate(repository, service, *options);
  if (!report.ok()) return Fail("load failed: " + report.status().ToString());
  std::printf(
      "hotel load: %lld rows (%lld availability) in %.1f s, %.0f rows/s; availability phase "
      "%.1f s, %.0f rows/s; %d reservations into %s\n",
      static_cast<long long>(report->rows), static_cast<long long>(report->availability_rows),
      report->seconds, report->seconds > 0 ? report->rows / report->seconds : 0,
      report->availability_seconds,
      report->availability_seconds > 0 ? report->availability_rows / report->availability_seconds
                                       : 0,
      report->reservations, where.c_str());
  return 0;
}

// The end of `hotel load` into the embedded database: the rows were written without the
// write-ahead log (bulk-load durability), so they are flushed to synced SST files before the
// load reports success. Returns the exit status.
int FinishBulkLoad(engine::Database* database) {
  auto start = std::chrono::steady_clock::now();
  common::Status flushed = engine::NodeOperations(database).Flush("", {});
  if (!flushed.ok()) return Fail("load failed: flushing the loaded rows: " + flushed.ToString());
  std::printf("hotel load: flushed to disk in %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}

// --- Passwords ---------------------------------------------------------------------------
//
// A password is read from an environment variable or typed at the terminal without echo; it
// is never a command-line argument (visible in `ps`) and never printed or logged.

termios saved_terminal;
volatile sig_atomic_t terminal_fd = -1;  // set while echo is off

// SIGINT/SIGTERM at the prompt: give the terminal its echo back before dying.
void RestoreTerminalAndExit(int signal) {
  if (terminal_fd >= 0) tcsetattr(terminal_fd, TCSAFLUSH, &saved_terminal);
  _exit(128 + signal);
}

// Asks `prompt` on the controlling terminal with echo off; nullopt when there is no terminal.
std::optional<std::string> Prompt(const char* prompt) {
  int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  if (tcgetattr(fd, &saved_terminal) != 0) {
    close(fd);
    return std::nullopt;
  }
  termios quiet = saved_terminal;
  quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
  quiet.c_lflag |= ECHONL;
  terminal_fd = fd;
  std::signal(SIGINT, RestoreTerminalAndExit);
  std::signal(SIGTERM, RestoreTerminalAndExit);
  tcsetattr(fd, TCSAFLUSH, &quiet);
  if (write(fd, prompt, std::strlen(prompt)) < 0) {
    // The prompt is a courtesy: the read below still works.
  }
  std::string line;
  char c = 0;
  while (read(fd, &c, 1) == 1 && c != '\n') line.push_back(c);
  tcsetattr(fd, TCSAFLUSH, &saved_terminal);
  terminal_fd = -1;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  close(fd);
  return line;
}

// The password from HOTEL_USER_PASSWORD, else typed at the terminal (twice with `confirm`).
common::Result<std::string> ReadPassword(const char* prompt, bool confirm) {
  if (const char* value = std::getenv("HOTEL_USER_PASSWORD"); value != nullptr && *value) {
    return std::string(value);
  }
  std::optional<std::string> typed = Prompt(prompt);
  if (!typed) {
    return common::Status::Invalid(
        "no password: set HOTEL_USER_PASSWORD or run at a terminal (passwords are never "
        "command-line arguments)");
  }
  if (confirm && Prompt("Repeat the password: ") != typed) {
    return common::Status::Invalid("the two passwords differ");
  }
  return *typed;
}

// `hotel users ACTION [NAME]`: manages the staff accounts. Returns the exit status.
int Users(const std::string& action, const std::string& name, hotel::Repository& repository) {
  auto accounts = hotel::StaffAccounts::Create(&repository);
  if (!accounts.ok()) return Fail(accounts.status().ToString());
  if (action == "list") {
    auto names = (*accounts)->List();
    if (!names.ok()) return Fail(names.status().ToString());
    for (const std::string& username : *names) std::printf("%s\n", username.c_str());
    return 0;
  }
  auto normalized = hotel::NormalizeUsername(name);
  if (!normalized.ok()) return Fail(normalized.status().message());
  common::Status done;
  if (action == "remove") {
    done = (*accounts)->Remove(*normalized);
  } else {
    auto password = ReadPassword("New password: ", true);
    if (!password.ok()) return Fail(password.status().message());
    done = action == "add" ? (*accounts)->Add(*normalized, *password)
                           : (*accounts)->SetPassword(*normalized, *password);
  }
  if (!done.ok()) return Fail(done.message());
  const char* what = action == "add"      ? "added"
                     : action == "remove" ? "removed"
                                          : "changed the password of";
  std::printf("hotel users: %s %s\n", what, normalized->c_str());
  return 0;
}

// `hotel bench --url`'s staff session: logs in as --staff-user. Returns the bearer token.
common::Result<std::string> BenchLogin(const std::string& url, const std::string& user) {
  if (user.empty()) {
    return common::Status::Invalid(
        "hotel bench --url needs --staff-user NAME: the workflow reads arrivals and guests, "
        "which need a staff login (password from HOTEL_USER_PASSWORD or a prompt)");
  }
  ASSIGN_OR_RETURN(std::string password, ReadPassword("Password: ", false));
  return hotel::HttpStaffLogin(url, user, password);
}

// --- Backfill --------------------------------------------------------------------------------

// `hotel backfill`: writes the Q11 and Q12 rows of reservations older than those tables
// (src/hotel/backfill.h). Prints where to resume after every page.
int RunBackfill(hotel::Repository& repository, std::map<std::string, std::string>& flags) {
  hotel::BackfillOptions options;
  int page_size = 100;
  if (!IntFlag(flags["--page-size"], 1, 5000, &page_size)) return Fail("bad --page-size");
  options.page_size = page_size;
  options.from = flags["--from"];
  options.progress = [](const hotel::BackfillProgress& progress) {
    if (progress.next_cursor.empty()) return;
    std::fprintf(stderr, "hotel backfill: %lld reservations; to resume: --from %s\n",
                 static_cast<long long>(progress.reservations), progress.next_cursor.c_str());
  };
  auto done = hotel::Backfill(repository, options);
  if (!done.ok()) return Fail(done.status().ToString());
  std::printf("hotel backfill: %lld reservations rewritten, %lld pending skipped, %lld pages\n",
              static_cast<long long>(done->reservations), static_cast<long long>(done->pending),
              static_cast<long long>(done->pages));
  return 0;
}

// --- Notifications -------------------------------------------------------------------------

// The SMTP login of the flags into `options`: --smtp-user, the password from the file
// --smtp-password-file (its first line) or else HOTEL_SMTP_PASSWORD — never a flag, so `ps`
// never shows it, and never in a message — and --smtp-auth. Refuses a login without TLS unless
// --smtp-insecure-auth, which warns on every start.
common::Status SmtpLoginFromFlags(std::map<std::string, std::string>& flags,
                                  hotel::SmtpOptions& options) {
  options.username = flags["--smtp-user"];
  ASSIGN_OR_RETURN(options.auth, hotel::ParseSmtpAuth(flags["--smtp-auth"]));
  const std::string& file = flags["--smtp-password-file"];
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in || !std::getline(in, options.password)) {
      return common::Status::Invalid("cannot read the SMTP password from " + file);
    }
    if (!options.password.empty() && options.password.back() == '\r') options.password.pop_back();
  } else if (const char* value = std::getenv("HOTEL_SMTP_PASSWORD"); value != nullptr) {
    options.password = value;
  }
  if (options.username.empty()) {
    if (!file.empty()) return common::Status::Invalid("--smtp-password-file needs --smtp-user");
    return common::Status::Ok();
  }
  if (options.password.empty()) {
    return common::Status::Invalid(
        "--smtp-user needs a password: --smtp-password-file FILE or HOTEL_SMTP_PASSWORD");
  }
  options.allow_auth_without_tls = !flags["--smtp-insecure-auth"].empty();
  if (!options.starttls && !options.implicit_tls) {
    if (!options.allow_auth_without_tls) {
      return common::Status::Invalid(
          "--smtp-user sends a password: it needs --smtp-starttls or --smtp-tls (or, for a "
          "server on the loopback only, --smtp-insecure-auth)");
    }
    std::fprintf(stderr,
                 "hotel: WARNING: --smtp-insecure-auth: the SMTP password of '%s' goes to %s "
                 "without TLS; anyone on the path can read it\n",
                 options.username.c_str(), options.host.c_str());
  }
  return common::Status::Ok();
}

// The sender the flags ask for: SMTP with --smtp-host, else the maildir `maildir`.
common::Result<std::unique_ptr<hotel::MailSender>> SenderFromFlags(
    std::map<std::string, std::string>& flags, const std::string& maildir) {
  if (flags["--smtp-host"].empty()) {
    ASSIGN_OR_RETURN(std::unique_ptr<hotel::MaildirSender> sender,
                     hotel::MaildirSender::Open(maildir));
    return std::unique_ptr<hotel::MailSender>(std::move(sender));
  }
  hotel::SmtpOptions options;
  options.host = flags["--smtp-host"];
  int port = 0;
  if (!IntFlag(flags["--smtp-port"], 1, 65535, &port)) {
    return common::Status::Invalid("bad --smtp-port");
  }
  options.port = static_cast<uint16_t>(port);
  options.starttls = !flags["--smtp-starttls"].empty();
  options.implicit_tls = !flags["--smtp-tls"].empty();
  if (options.starttls && options.implicit_tls) {
    return common::Status::Invalid("--smtp-starttls and --smtp-tls exclude each other");
  }
  options.ca_file = flags["--smtp-ca"];
  if (!options.ca_file.empty() && !options.starttls && !options.implicit_tls) {
    return common::Status::Invalid("--smtp-ca goes with --smtp-starttls or --smtp-tls");
  }
  RETURN_IF_ERROR(SmtpLoginFromFlags(flags, options));
  return std::unique_ptr<hotel::MailSender>(std::make_unique<hotel::SmtpSender>(options));
}

// The worker's options from --mail-from; "" when valid, else the error.
std::string WorkerOptionsFromFlags(std::map<std::string, std::string>& flags,
                                   hotel::NotificationWorkerOptions* options,
                                   std::chrono::milliseconds* interval) {
  if (!hotel::IsMailableAddress(flags["--mail-from"])) return "bad --mail-from";
  options->from.address = flags["--mail-from"];
  if (!SecondsFlag(flags["--notify-interval"], interval)) return "bad --notify-interval";
  return "";
}

// `hotel notify`: delivers the outbox once (--once) or until SIGINT/SIGTERM.
int Notify(hotel::Repository& repository, std::map<std::string, std::string>& flags,
           const sigset_t& signals) {
  hotel::NotificationWorkerOptions options;
  std::chrono::milliseconds interval(2000);
  if (std::string bad = WorkerOptionsFromFlags(flags, &options, &interval); !bad.empty()) {
    return Fail(bad);
  }
  auto sender = SenderFromFlags(flags, flags["--maildir"]);
  if (!sender.ok()) return Fail(sender.status().message());
  hotel::NotificationWorker worker(&repository, sender->get(), options);
  if (!flags["--once"].empty()) {
    auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    auto report = worker.RunOnce(now.count());
    if (!report.ok()) return Fail("notify: " + report.status().ToString());
    std::printf("hotel notify: %d delivered, %d to retry, %d given up, %d waiting (%s)\n",
                report->delivered, report->failed, report->given_up, report->waiting,
                (*sender)->Describe().c_str());
    return 0;
  }
  worker.Start(interval);
  std::printf("hotel notify: delivering to %s every %.1f s\n", (*sender)->Describe().c_str(),
              static_cast<double>(interval.count()) / 1000);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  std::fprintf(stderr, "hotel: signal %d, shutting down\n", signal);
  worker.Stop();
  return 0;
}

// `hotel serve`'s in-process notify worker, when --notify-maildir or --smtp-host asks for one.
struct ServeNotifier {
  std::unique_ptr<hotel::MailSender> sender;
  std::unique_ptr<hotel::NotificationWorker> worker;
};
common::Result<ServeNotifier> StartServeNotifier(hotel::Repository& repository,
                                                 std::map<std::string, std::string>& flags) {
  ServeNotifier notifier;
  if (flags["--notify-maildir"].empty() && flags["--smtp-host"].empty()) return notifier;
  hotel::NotificationWorkerOptions options;
  std::chrono::milliseconds interval(2000);
  if (std::string bad = WorkerOptionsFromFlags(flags, &options, &interval); !bad.empty()) {
    return common::Status::Invalid(bad);
  }
  ASSIGN_OR_RETURN(notifier.sender, SenderFromFlags(flags, flags["--notify-maildir"]));
  notifier.worker =
      std::make_unique<hotel::NotificationWorker>(&repository, notifier.sender.get(), options);
  notifier.worker->Start(interval);
  std::printf("hotel notify: guests' emails go to %s\n", notifier.sender->Describe().c_str());
  return notifier;
}

// `hotel serve`: serves the HTTP API and the UI until SIGINT/SIGTERM.
int Serve(hotel::HotelService& service, hotel::Repository& repository,
          std::map<std::string, std::string>& flags, hotel::HttpServerOptions server_options,
          const sigset_t& signals, const std::string& mode, const std::string& where) {
  auto accounts = hotel::StaffAccounts::Create(&repository);
  if (!accounts.ok()) return Fail(accounts.status().ToString());
  if (auto names = (*accounts)->List(); names.ok() && names->empty()) {
    std::fprintf(stderr,
                 "hotel: no staff account yet; the staff pages need one: hotel users add NAME "
                 "(with the same --data or --cassandra)\n");
  }
  hotel::StaffAuth auth(accounts->get());
  std::string web = flags["--web"];
  if (!web.empty() && !std::filesystem::exists(web + "/index.html")) {
    std::fprintf(stderr, "hotel: no %s/index.html; / answers 404\n", web.c_str());
  }
  auto notifier = StartServeNotifier(repository, flags);
  if (!notifier.ok()) return Fail(notifier.status().message());
  hotel::ApiRouter router(&service, &auth, web, mode);
  hotel::HttpServer server(&router, server_options);
  if (auto started = server.Start(); !started.ok()) return Fail(started.message());
  const char* scheme = server_options.tls_certificate_file.empty() ? "http" : "https";
  std::printf("hotel serving %s://%s:%u (%s %s)\n", scheme, server_options.address.c_str(),
              server.port(), mode.c_str(), where.c_str());
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  std::fprintf(stderr, "hotel: signal %d, shutting down\n", signal);
  server.Stop();
  if (notifier->worker) notifier->worker->Stop();
  return 0;
}

// Reads argv into `flags` from `first`; false on an unknown flag. Every flag takes a value but
// the switches (`--no-access-log`, `--once`, `--smtp-starttls`, `--smtp-tls`,
// `--smtp-insecure-auth`), which are set to "true". The value
// of --password is blanked in argv once read, so `ps` shows it no longer.
bool ParseFlags(int argc, char** argv, int first, std::map<std::string, std::string>& flags) {
  for (int i = first; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--no-access-log" || flag == "--once" || flag == "--smtp-starttls" ||
        flag == "--smtp-tls" || flag == "--smtp-insecure-auth") {
      flags[flag] = "true";
      continue;
    }
    if (flags.count(flag) == 0 || i + 1 >= argc) return false;
    flags[flag] = argv[++i];
    if (flag == "--password") std::memset(argv[i], 'x', std::strlen(argv[i]));
  }
  return true;
}

// `hotel users`' action and name (argv[2], argv[3]); false when they are missing or unknown.
bool UsersArguments(int argc, char** argv, std::string* action, std::string* name, int* first) {
  if (argc < 3) return false;
  *action = argv[2];
  if (*action == "list") {
    *first = 3;
    return true;
  }
  if ((*action != "add" && *action != "passwd" && *action != "remove") || argc < 4 ||
      argv[3][0] == '-') {
    return false;
  }
  *name = argv[3];
  *first = 4;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  std::string users_action;
  std::string users_name;
  int first_flag = 2;
  if ((command != "serve" && command != "load" && command != "bench" && command != "users" &&
       command != "notify" && command != "backfill") ||
      (command == "users" &&
       !UsersArguments(argc, argv, &users_action, &users_name, &first_flag))) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::map<std::string, std::string> flags = DefaultFlags();
  if (!ParseFlags(argc, argv, first_flag, flags)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  char* end = nullptr;
  long port = std::strtol(flags["--port"].c_str(), &end, 10);
  if (*end != '\0' || port < 0 || port > 65535) return Fail("bad --port");
  long threads = std::strtol(flags["--threads"].c_str(), &end, 10);
  if (*end != '\0' || threads < 1 || threads > 256) return Fail("bad --threads");
  unsigned long long seed = std::strtoull(flags["--seed"].c_str(), &end, 10);
  if (*end != '\0') return Fail("bad --seed");
  hotel::HttpServerOptions server_options;
  if (std::string bad = ServerOptionsFromFlags(flags, &server_options); !bad.empty()) {
    return Fail(bad);
  }
  server_options.address = flags["--address"];
  server_options.port = static_cast<uint16_t>(port);
  server_options.threads = static_cast<int>(threads);

  // Signals are blocked before any thread starts, and waited for below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  // (serve only: load and bench stop on SIGINT as any command does).
  if (command == "serve" || command == "notify") pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  if (command == "bench" && !flags["--url"].empty()) {
    std::string url = flags["--url"];
    auto token = BenchLogin(url, flags["--staff-user"]);
    if (!token.ok()) return Fail(token.status().message());
    return Bench([url, token = *token] { return hotel::ConnectHttpBenchClient(url, token); }, flags,
                 seed);
  }

  const std::string& data = flags["--data"];
  const std::string& cassandra = flags["--cassandra"];
  // Where the data lives, for messages: the embedded directory or the cluster.
  std::string mode = cassandra.empty() ? "embedded" : "cassandra";
  std::string where = cassandra.empty() ? "data " + data : cassandra;
  auto login = ClusterLoginFromFlags(flags);
  if (!login.ok()) return Fail(login.status().message());
  std::unique_ptr<engine::Database> database;
  auto session = OpenSession(data, cassandra, *login, command == "load", &database);
  if (!session.ok()) return Fail(session.status().message());
  const std::string& prefix = flags["--keyspace-prefix"];
  auto keyspaces = hotel::KeyspacesForPrefix(prefix);
  if (!keyspaces.ok()) return Fail(keyspaces.status().message());
  common::Status created =
      flags["--replication"].empty()
          ? hotel::CreateServiceSchema(**session, prefix)
          : hotel::CreateServiceSchema(**session, prefix, flags["--replication"]);
  if (!created.ok()) {
    return Fail("cannot create the schema: " + created.ToString());
  }
  auto repository = hotel::Repository::Create(session->get(), *keyspaces);
  if (!repository.ok()) return Fail(repository.status().ToString());
  if (command == "users") return Users(users_action, users_name, **repository);
  if (command == "notify") return Notify(**repository, flags, signals);
  if (command == "backfill") return RunBackfill(**repository, flags);
  hotel::HotelServiceOptions service_options;
  auto bucketing = hotel::ParseBucketing(flags["--bucketing"]);
  if (!bucketing.ok()) return Fail(bucketing.status().message());
  service_options.availability_bucketing = *bucketing;
  if (command == "serve") service_options.repair_interval_millis = 60 * 1000;
  hotel::HotelService service(repository->get(), service_options);

  auto load = [&](bool verbose) {
    return LoadSample(**repository, service, flags, seed, where, verbose);
  };

  if (command == "load") {
    if (int status = load(true); status != 0) return status;
    return database ? FinishBulkLoad(database.get()) : 0;
  }
  if (command == "bench") {
    // In process on the embedded engine, operations run on at most --service-threads threads
    // at once (load_bench_client.h, OperationGate); over --cassandra they wait on the network.
    int service_threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    if (!IntFlag(flags["--service-threads"], 0, 1024, &service_threads)) {
      return Fail("bad --service-threads");
    }
    std::unique_ptr<hotel::OperationGate> gate;
    if (database && service_threads > 0) {
      gate = std::make_unique<hotel::OperationGate>(service_threads);
    }
    hotel::Repository* repository_pointer = repository->get();
    hotel::OperationGate* gate_pointer = gate.get();
    return Bench(
        [&service, repository_pointer,
         gate_pointer]() -> common::Result<std::unique_ptr<hotel::BenchClient>> {
          return hotel::NewServiceBenchClient(&service, repository_pointer, gate_pointer);
        },
        flags, seed);
  }

  auto pois = service.ListPois();
  if (!pois.ok()) return Fail(pois.status().ToString());
  if (pois->empty()) {
    std::fprintf(stderr, "hotel: empty database, loading the small sample\n");
    if (int status = load(false); status != 0) return status;
  }
  return Serve(service, **repository, flags, server_options, signals, mode, where);
}
