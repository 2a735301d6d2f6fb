// hotel_peer_bench: the hotel workflow on cqld and on PostgreSQL, side by side (issue 16, "the
// relational peer"; `make bench-peer` runs it through scripts/bench-peer, which starts both
// servers privately and passes their addresses, pids and data directories).
//
//   hotel_peer_bench --cqld HOST:PORT --cqld-pid PID --cqld-data DIR [--flush-command CMD]
//                    --pg CONNINFO --pg-pid PID --pg-data DIR
//                    [--scale small|seed] [--hotels N] [--rooms N] [--days N] [--seed N]
//                    [--mixes lookup,availability,workflow] [--concurrency N] [--duration S]
//                    [--synchronous-commit off|on]
//
// Both sides get the same sample from the same generator (hotel/data_generator.h): cqld the way
// `hotel load --cassandra` writes it (the service's repository over the driver), PostgreSQL
// through PgLoadSink (COPY for the nights) followed by VACUUM ANALYZE. Then, for each mix,
// `hotel::LoadBench` runs the same closed-loop phase against each: on cqld with the service
// in-process over the native protocol (what `hotel bench --cassandra` runs), on PostgreSQL
// with PgBenchClient (libpq, prepared statements), same workers, weights, seed and duration,
// followed by the same integrity check (and, on PostgreSQL, the SQL-side check over every
// reservation). It prints each side's report, then one table: ops/s, p50/p99 per operation,
// server CPU per operation (from /proc, before and after each phase), client CPU per
// operation, the load, and bytes on disk. Exit status 1 when an integrity check fails.

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench/peer/pg_bench_client.h"
#include "bench/peer/process_cpu.h"
#include "client/remote_session.h"
#include "hotel/data_generator.h"
#include "hotel/hotel_service.h"
#include "hotel/load_bench.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"

namespace {

using common::Result;
using common::Status;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: hotel_peer_bench --cqld HOST:PORT --cqld-pid PID --cqld-data DIR\n"
    "                        [--flush-command CMD] --pg CONNINFO --pg-pid PID --pg-data DIR\n"
    "                        [--scale small|seed] [--hotels N] [--rooms N] [--days N]\n"
    "                        [--seed N] [--mixes lookup,availability,workflow]\n"
    "                        [--concurrency N] [--duration S] [--synchronous-commit off|on]\n";

struct Flags {
  std::map<std::string, std::string> values = {{"--cqld", ""},
                                               {"--cqld-pid", "0"},
                                               {"--cqld-data", ""},
                                               {"--flush-command", ""},
                                               {"--pg", ""},
                                               {"--pg-pid", "0"},
                                               {"--pg-data", ""},
                                               {"--scale", "small"},
                                               {"--hotels", ""},
                                               {"--rooms", ""},
                                               {"--days", ""},
                                               {"--seed", "42"},
                                               {"--mixes", "lookup,availability,workflow"},
                                               {"--concurrency", "8"},
                                               {"--duration", "10"},
                                               {"--synchronous-commit", "off"}};
  std::string& operator[](const std::string& name) { return values[name]; }
};

// An integer flag ("" leaves `value`); false when malformed or out of [low, high].
bool IntFlag(const std::string& text, int low, int high, int* value) {
  if (text.empty()) return true;
  int parsed = 0;
  const char* last = text.data() + text.size();
  auto [end, error] = std::from_chars(text.data(), last, parsed);
  if (error != std::errc() || end != last || parsed < low || parsed > high) return false;
  *value = parsed;
  return true;
}

// The generator's and the benchmark's options from the flags; false when a flag is bad.
bool OptionsFromFlags(Flags& flags, hotel::GeneratorOptions* generator,
                      hotel::BenchOptions* bench) {
  auto scale = hotel::GeneratorOptionsForScale(flags["--scale"]);
  if (!scale.ok()) return false;
  *generator = *scale;
  char* end = nullptr;
  generator->seed = std::strtoull(flags["--seed"].c_str(), &end, 10);
  if (*end != '\0') return false;
  // The scale's sample, resized (`hotel load`'s flags of the same names).
  if (!IntFlag(flags["--hotels"], 1, 1000000, &generator->hotels) ||
      !IntFlag(flags["--rooms"], 1, 3000, &generator->rooms_per_hotel) ||
      !IntFlag(flags["--days"], 8, 3660, &generator->days) ||
      !IntFlag(flags["--concurrency"], 1, 1024, &bench->concurrency)) {
    return false;
  }
  // One first day for both sides, so a run across midnight compares the same window.
  generator->first_day = hotel::Today();
  bench->first_day = generator->first_day;
  bench->days = generator->days;
  bench->seed = generator->seed;
  bench->duration_seconds = std::strtod(flags["--duration"].c_str(), &end);
  return *end == '\0' && bench->duration_seconds > 0 && !flags["--cqld"].empty() &&
         !flags["--pg"].empty() &&
         (flags["--synchronous-commit"] == "on" || flags["--synchronous-commit"] == "off");
}

// One side of the comparison: a server, how to reach it, and what it measured.
struct Side {
  std::string name;
  pid_t pid = 0;
  hotel::BenchClientFactory factory;
  // Filled in by the load.
  double load_seconds = 0;
  double load_server_cpu = 0;
  int64_t load_rows = 0;
  int64_t bytes_data_dir = 0;
  // PostgreSQL: the hotel schema's tables with their indexes and TOAST; cqld: its whole data
  // directory after a flush (SSTables of every keyspace, logs, manifest).
  int64_t bytes_database = 0;
};

// One phase of one side.
struct Measured {
  hotel::BenchReport report;
  double server_cpu = 0;
  double client_cpu = 0;
  hotel::IntegrityReport integrity;
};

void Settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

Result<Measured> RunPhase(Side& side, const hotel::BenchOptions& options) {
  hotel::LoadBench bench(side.factory, options);
  RETURN_IF_ERROR(bench.Prepare());
  Settle();
  Measured measured;
  double server_before = peer::ProcessTreeCpuSeconds(side.pid);
  double client_before = peer::SelfCpuSeconds();
  ASSIGN_OR_RETURN(measured.report, bench.Run(side.name, 0));
  measured.client_cpu = peer::SelfCpuSeconds() - client_before;
  Settle();  // the postmaster reaps the benchmark's backends
  measured.server_cpu = peer::ProcessTreeCpuSeconds(side.pid) - server_before;
  ASSIGN_OR_RETURN(measured.integrity, bench.CheckIntegrity());
  std::printf("%s", hotel::FormatBenchReport(measured.report).c_str());
  std::printf(
      "%s integrity: %lld reservations checked, %lld double bookings, %lld lost, %lld "
      "not held\n\n",
      side.name.c_str(), static_cast<long long>(measured.integrity.reservations_checked),
      static_cast<long long>(measured.integrity.double_bookings),
      static_cast<long long>(measured.integrity.lost),
      static_cast<long long>(measured.integrity.not_held));
  std::fflush(stdout);
  return measured;
}

// Loads the sample through `load` and records time, rows and server CPU on `side`.
Status Load(Side& side, const std::function<Result<hotel::GeneratorReport>()>& load) {
  double cpu_before = peer::ProcessTreeCpuSeconds(side.pid);
  Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(hotel::GeneratorReport report, load());
  side.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  Settle();
  side.load_server_cpu = peer::ProcessTreeCpuSeconds(side.pid) - cpu_before;
  side.load_rows = report.rows;
  std::printf("%s: loaded %lld rows (%lld nights, %d reservations) in %.1f s\n", side.name.c_str(),
              static_cast<long long>(report.rows), static_cast<long long>(report.availability_rows),
              report.reservations, side.load_seconds);
  std::fflush(stdout);
  return Status::Ok();
}

std::string Micros(double seconds, int64_t ops) {
  return ops > 0 ? fmt::format("{:.1f} µs", seconds * 1e6 / static_cast<double>(ops)) : "-";
}

std::string Mebibytes(int64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

constexpr const char* kRow = "{:<13} {:<20} {:>10} {:>8} {:>8} {:>10} {:>8} {:>8} {:>7}\n";

// One operation's row: ops/s, p50, p99 on both sides and the throughput ratio.
std::string OperationRow(const std::string& mix, const std::string& name, double seconds_a,
                         hotel::OperationStats& a, double seconds_b, hotel::OperationStats& b) {
  auto rate = [](const hotel::OperationStats& stats, double seconds) {
    return seconds > 0 ? static_cast<double>(stats.ok + stats.conflicts) / seconds : 0;
  };
  double rate_a = rate(a, seconds_a);
  double rate_b = rate(b, seconds_b);
  return fmt::format(
      kRow, mix, name, fmt::format("{:.0f}", rate_a), fmt::format("{:.0f}", a.PercentileMicros(50)),
      fmt::format("{:.0f}", a.PercentileMicros(99)), fmt::format("{:.0f}", rate_b),
      fmt::format("{:.0f}", b.PercentileMicros(50)), fmt::format("{:.0f}", b.PercentileMicros(99)),
      rate_b > 0 ? fmt::format("{:.2f}x", rate_a / rate_b) : "-");
}

// The side-by-side rows of one mix.
std::string MixRows(const std::string& mix, Measured& a, Measured& b) {
  std::string out;
  hotel::OperationStats all_a;
  hotel::OperationStats all_b;
  for (size_t op = 0; op < hotel::kBenchOperationCount; ++op) {
    hotel::OperationStats& stats_a = a.report.operations[op];
    hotel::OperationStats& stats_b = b.report.operations[op];
    if (stats_a.ok + stats_a.conflicts + stats_b.ok + stats_b.conflicts == 0) continue;
    out += OperationRow(
        mix, std::string(hotel::BenchOperationName(static_cast<hotel::BenchOperation>(op))),
        a.report.seconds, stats_a, b.report.seconds, stats_b);
    all_a.Merge(hotel::OperationStats(stats_a));
    all_b.Merge(hotel::OperationStats(stats_b));
  }
  out += OperationRow(mix, "total", a.report.seconds, all_a, b.report.seconds, all_b);
  int64_t ops_a = a.report.total();
  int64_t ops_b = b.report.total();
  out += fmt::format(kRow, mix, "server CPU/op", Micros(a.server_cpu, ops_a), "", "",
                     Micros(b.server_cpu, ops_b), "", "", "");
  out += fmt::format(kRow, mix, "client CPU/op", Micros(a.client_cpu, ops_a), "", "",
                     Micros(b.client_cpu, ops_b), "", "", "");
  out += fmt::format(kRow, mix, "errors", a.report.errors(), "", "", b.report.errors(), "", "", "");
  out += fmt::format(kRow, mix, "double bookings", a.integrity.double_bookings, "", "",
                     b.integrity.double_bookings, "", "", "");
  return out;
}

std::string SummaryRows(const Side& a, const Side& b) {
  std::string out;
  auto rows_per_second = [](const Side& side) {
    return side.load_seconds > 0 ? fmt::format("{:.0f}", side.load_rows / side.load_seconds) : "-";
  };
  out += fmt::format(kRow, "load", "rows/s", rows_per_second(a), "", "", rows_per_second(b), "", "",
                     "");
  out += fmt::format(kRow, "load", "server CPU/row", Micros(a.load_server_cpu, a.load_rows), "", "",
                     Micros(b.load_server_cpu, b.load_rows), "", "", "");
  out += fmt::format(kRow, "on disk", "hotel tables", Mebibytes(a.bytes_database), "", "",
                     Mebibytes(b.bytes_database), "", "", "");
  out += fmt::format(kRow, "on disk", "data directory", Mebibytes(a.bytes_data_dir), "", "",
                     Mebibytes(b.bytes_data_dir), "", "", "");
  return out;
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// cqld's side: the service over the driver, as `hotel load/bench --cassandra`.
struct CqldSide {
  std::unique_ptr<client::RemoteSession> session;
  std::unique_ptr<hotel::Repository> repository;
  std::unique_ptr<hotel::HotelService> service;
};

Result<CqldSide> ConnectCqld(const std::string& address, uint64_t seed) {
  client::ClientOptions options;
  options.contact_points = {address};
  CqldSide side;
  ASSIGN_OR_RETURN(side.session, client::RemoteSession::Connect(options));
  RETURN_IF_ERROR(hotel::CreateServiceSchema(*side.session, ""));
  ASSIGN_OR_RETURN(hotel::Keyspaces keyspaces, hotel::KeyspacesForPrefix(""));
  ASSIGN_OR_RETURN(side.repository, hotel::Repository::Create(side.session.get(), keyspaces));
  hotel::HotelServiceOptions service_options;
  service_options.seed = seed;
  side.service = std::make_unique<hotel::HotelService>(side.repository.get(), service_options);
  return side;
}

// PostgreSQL's side: schema, load, VACUUM ANALYZE, sizes.
Status LoadPostgres(Side& side, const std::string& conninfo,
                    const hotel::GeneratorOptions& generator, const std::string& data_dir) {
  ASSIGN_OR_RETURN(std::unique_ptr<peer::PgConnection> admin,
                   peer::PgConnection::Connect(conninfo));
  RETURN_IF_ERROR(peer::PgHotel::CreateSchema(*admin));
  peer::PgLoadSink sink(conninfo, generator.seed);
  RETURN_IF_ERROR(Load(side, [&] { return hotel::Generate(sink, generator); }));
  RETURN_IF_ERROR(admin->Execute("VACUUM ANALYZE").status());
  RETURN_IF_ERROR(admin->Execute("CHECKPOINT").status());
  ASSIGN_OR_RETURN(peer::PgResult size,
                   admin->Execute("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                                  "JOIN pg_namespace n ON n.oid = c.relnamespace "
                                  "WHERE n.nspname = 'hotel' AND c.relkind = 'r'"));
  side.bytes_database = size.Integer(0, 0);
  side.bytes_data_dir = peer::DirectoryBytes(data_dir);
  return Status::Ok();
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "hotel_peer_bench: %s\n", message.c_str());
  return 1;
}

// Runs every mix on both sides and prints the table; the exit status.
int Compare(Flags& flags, Side& cqld, Side& pg, const hotel::BenchOptions& base) {
  std::string table;
  bool intact = true;
  for (const std::string& mix_name : Split(flags["--mixes"])) {
    auto mix = hotel::ParseBenchMix(mix_name);
    if (!mix.ok()) return Fail(mix.status().message());
    hotel::BenchOptions options = base;
    options.mix = *mix;
    std::printf("== mix %s, %d clients, %.0f s per side ==\n", mix_name.c_str(),
                options.concurrency, options.duration_seconds);
    Result<Measured> a = RunPhase(cqld, options);
    if (!a.ok()) return Fail("cqld: " + a.status().ToString());
    Result<Measured> b = RunPhase(pg, options);
    if (!b.ok()) return Fail("PostgreSQL: " + b.status().ToString());
    intact = intact && a->integrity.ok() && b->integrity.ok();
    table += MixRows(mix_name, *a, *b);
  }
  std::printf(
      "== side by side: cqld (native protocol, the service's denormalized tables) vs "
      "PostgreSQL 15 (libpq, prepared, normalized schema), synchronous_commit=%s ==\n",
      flags["--synchronous-commit"].c_str());
  std::fputs(fmt::format(kRow, "mix", "operation", "cqld ops/s", "p50 µs", "p99 µs", "PG ops/s",
                         "p50 µs", "p99 µs", "cqld/PG")
                 .c_str(),
             stdout);
  std::printf("%s%s", table.c_str(), SummaryRows(cqld, pg).c_str());
  return intact ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    if (flags.values.count(argv[i]) == 0 || i + 1 >= argc) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    flags[argv[i]] = argv[i + 1];
    ++i;
  }
  hotel::GeneratorOptions generator;
  hotel::BenchOptions bench;
  if (!OptionsFromFlags(flags, &generator, &bench)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::printf(
      "hotel_peer_bench: %d hotels x %d rooms x %d days, %d guests, %d reservations; "
      "%d clients, %.0f s per phase\n",
      generator.hotels, generator.rooms_per_hotel, generator.days, generator.guests,
      generator.reservations, bench.concurrency, bench.duration_seconds);
  Side cqld{"cqld", static_cast<pid_t>(std::atoi(flags["--cqld-pid"].c_str())), {}};
  Side pg{"PostgreSQL", static_cast<pid_t>(std::atoi(flags["--pg-pid"].c_str())), {}};

  Result<CqldSide> connected = ConnectCqld(flags["--cqld"], generator.seed);
  if (!connected.ok()) return Fail("cqld: " + connected.status().ToString());
  hotel::Repository* repository = connected->repository.get();
  hotel::HotelService* service = connected->service.get();
  cqld.factory = [service, repository]() -> Result<std::unique_ptr<hotel::BenchClient>> {
    return hotel::NewServiceBenchClient(service, repository);
  };
  Status loaded = Load(cqld, [&] { return hotel::Generate(*repository, *service, generator); });
  if (!loaded.ok()) return Fail("cqld load: " + loaded.ToString());
  if (!flags["--flush-command"].empty() && std::system(flags["--flush-command"].c_str()) != 0) {
    return Fail("the flush command failed: " + flags["--flush-command"]);
  }
  cqld.bytes_data_dir = peer::DirectoryBytes(flags["--cqld-data"]);
  cqld.bytes_database = cqld.bytes_data_dir;

  std::string conninfo = flags["--pg"];
  std::string synchronous_commit = flags["--synchronous-commit"];
  Status pg_loaded = LoadPostgres(pg, conninfo, generator, flags["--pg-data"]);
  if (!pg_loaded.ok()) return Fail("PostgreSQL load: " + pg_loaded.ToString());
  uint64_t connections = 0;
  pg.factory = [&]() -> Result<std::unique_ptr<hotel::BenchClient>> {
    ASSIGN_OR_RETURN(std::unique_ptr<peer::PgHotel> store,
                     peer::PgHotel::Connect(conninfo, synchronous_commit,
                                            generator.seed * 7919 + ++connections));
    return std::unique_ptr<hotel::BenchClient>(
        std::make_unique<peer::PgBenchClient>(std::move(store)));
  };

  int status = Compare(flags, cqld, pg, bench);
  auto checker = peer::PgHotel::Connect(conninfo, synchronous_commit, 1);
  if (!checker.ok()) return Fail(checker.status().ToString());
  auto sql = (*checker)->CheckIntegrity();
  if (!sql.ok()) return Fail(sql.status().ToString());
  std::printf(
      "PostgreSQL SQL-side integrity over all %lld reservations: %lld double-booked "
      "nights, %lld stays not held, %lld stray holds\n",
      static_cast<long long>(sql->reservations), static_cast<long long>(sql->double_booked_nights),
      static_cast<long long>(sql->stays_not_held), static_cast<long long>(sql->stray_holds));
  return sql->ok() ? status : 1;
}
