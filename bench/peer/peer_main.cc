// hotel_peer_bench: the hotel workflow on cqld and on PostgreSQL, side by side (issue 16, "the
// relational peer"; `make bench-peer` runs it through scripts/bench-peer, which starts both
// servers privately and passes their addresses, pids and data directories).
//
//   hotel_peer_bench --cqld HOST:PORT --cqld-pid PID --cqld-data DIR [--flush-command CMD]
//                    --pg CONNINFO --pg-pid PID --pg-data DIR
//                    [--scale small|seed] [--hotels N] [--rooms N] [--days N] [--seed N]
//                    [--mixes lookup,availability,workflow] [--concurrency N] [--duration S]
//                    [--synchronous-commit off|on] [--embedded-data DIR]
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
//
// With `--embedded-data DIR` a third side runs the same sample and mixes on the hotel service's
// default deployment: the service in this process on the embedded engine (engine::Database in
// DIR, no network, what `make run` and `hotel serve` run). Its engine shares the process with
// the benchmark's clients, so its "server CPU" is the whole process's CPU (service, engine and
// load generator together) and it has no client CPU of its own. Its operations run on at most
// as many threads at once as the machine has hardware threads (hotel::OperationGate, what
// `hotel bench --data` does): the workers offer the same concurrency as on the other sides.

#include <unistd.h>

#include <algorithm>
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
#include "engine/database.h"
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
    "                        [--concurrency N] [--duration S] [--synchronous-commit off|on]\n"
    "                        [--embedded-data DIR]\n";

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
                                               {"--synchronous-commit", "off"},
                                               {"--embedded-data", ""}};
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
  std::string label;  // in the table's header
  pid_t pid = 0;
  hotel::BenchClientFactory factory;
  // The side runs in this process (the embedded engine): its CPU is this process's, and there
  // is no separate client CPU.
  bool in_process = false;
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

// The CPU seconds the side's server has used so far.
double ServerCpuSeconds(const Side& side) {
  return side.in_process ? peer::SelfCpuSeconds() : peer::ProcessTreeCpuSeconds(side.pid);
}

Result<Measured> RunPhase(Side& side, const hotel::BenchOptions& options) {
  hotel::LoadBench bench(side.factory, options);
  RETURN_IF_ERROR(bench.Prepare());
  Settle();
  Measured measured;
  double server_before = ServerCpuSeconds(side);
  double client_before = peer::SelfCpuSeconds();
  ASSIGN_OR_RETURN(measured.report, bench.Run(side.name, 0));
  if (!side.in_process) measured.client_cpu = peer::SelfCpuSeconds() - client_before;
  Settle();  // the postmaster reaps the benchmark's backends
  measured.server_cpu = ServerCpuSeconds(side) - server_before;
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
  double cpu_before = ServerCpuSeconds(side);
  Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(hotel::GeneratorReport report, load());
  side.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  Settle();
  side.load_server_cpu = ServerCpuSeconds(side) - cpu_before;
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

// One line of the table: the mix, the operation, then `cells` (per side ops/s, p50 and p99,
// then each side's throughput as a multiple of the last side's, the baseline).
std::string Line(const std::string& mix, const std::string& name,
                 const std::vector<std::string>& cells) {
  std::string line = fmt::format("{:<13} {:<20}", mix, name);
  for (const std::string& cell : cells) line += fmt::format(" {:>10}", cell);
  return line + "\n";
}

// One measured operation of one side, for a row of the table.
struct Sample {
  double seconds = 0;
  hotel::OperationStats* stats = nullptr;  // PercentileMicros sorts it
  double rate() const {
    return seconds > 0 ? static_cast<double>(stats->ok + stats->conflicts) / seconds : 0;
  }
};

// One operation's row: ops/s, p50 and p99 of each side, and the ratios to the baseline.
std::string OperationRow(const std::string& mix, const std::string& name,
                         const std::vector<Sample>& samples) {
  std::vector<std::string> cells;
  for (const Sample& sample : samples) {
    cells.push_back(fmt::format("{:.0f}", sample.rate()));
    cells.push_back(fmt::format("{:.0f}", sample.stats->PercentileMicros(50)));
    cells.push_back(fmt::format("{:.0f}", sample.stats->PercentileMicros(99)));
  }
  double baseline = samples.back().rate();
  for (size_t i = 0; i + 1 < samples.size(); ++i) {
    cells.push_back(baseline > 0 ? fmt::format("{:.2f}x", samples[i].rate() / baseline) : "-");
  }
  return Line(mix, name, cells);
}

// A row with one figure per side (in its ops/s column) and no ratio.
std::string FigureRow(const std::string& mix, const std::string& name,
                      const std::vector<std::string>& figures) {
  std::vector<std::string> cells;
  for (const std::string& figure : figures) cells.insert(cells.end(), {figure, "", ""});
  cells.resize(cells.size() + figures.size() - 1);
  return Line(mix, name, cells);
}

// The side-by-side rows of one mix; `measured[i]` is a phase of `sides[i]`.
std::string MixRows(const std::string& mix, const std::vector<const Side*>& sides,
                    std::vector<Measured>& measured) {
  std::string out;
  std::vector<hotel::OperationStats> totals(measured.size());
  for (size_t op = 0; op < hotel::kBenchOperationCount; ++op) {
    std::vector<Sample> samples;
    int64_t count = 0;
    for (Measured& m : measured) {
      hotel::OperationStats& stats = m.report.operations[op];
      count += stats.ok + stats.conflicts;
      samples.push_back({m.report.seconds, &stats});
    }
    if (count == 0) continue;
    out += OperationRow(
        mix, std::string(hotel::BenchOperationName(static_cast<hotel::BenchOperation>(op))),
        samples);
    for (size_t i = 0; i < measured.size(); ++i) {
      totals[i].Merge(hotel::OperationStats(measured[i].report.operations[op]));
    }
  }
  std::vector<Sample> samples;
  for (size_t i = 0; i < measured.size(); ++i)
    samples.push_back({measured[i].report.seconds, &totals[i]});
  out += OperationRow(mix, "total", samples);
  std::vector<std::string> server, client, errors, doubles;
  for (size_t i = 0; i < measured.size(); ++i) {
    const Measured& m = measured[i];
    server.push_back(Micros(m.server_cpu, m.report.total()));
    client.push_back(sides[i]->in_process ? "in server" : Micros(m.client_cpu, m.report.total()));
    errors.push_back(fmt::format("{}", m.report.errors()));
    doubles.push_back(fmt::format("{}", m.integrity.double_bookings));
  }
  out += FigureRow(mix, "server CPU/op", server);
  out += FigureRow(mix, "client CPU/op", client);
  out += FigureRow(mix, "errors", errors);
  out += FigureRow(mix, "double bookings", doubles);
  return out;
}

std::string SummaryRows(const std::vector<const Side*>& sides) {
  std::vector<std::string> rate, cpu, tables, directory;
  for (const Side* side : sides) {
    rate.push_back(
        side->load_seconds > 0 ? fmt::format("{:.0f}", side->load_rows / side->load_seconds) : "-");
    cpu.push_back(Micros(side->load_server_cpu, side->load_rows));
    tables.push_back(Mebibytes(side->bytes_database));
    directory.push_back(Mebibytes(side->bytes_data_dir));
  }
  return FigureRow("load", "rows/s", rate) + FigureRow("load", "server CPU/row", cpu) +
         FigureRow("on disk", "hotel tables", tables) +
         FigureRow("on disk", "data directory", directory);
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// A side that runs the hotel service: over the driver to cqld (`hotel load/bench --cassandra`),
// or in process on the embedded engine (`hotel serve`'s default).
struct ServiceSide {
  std::unique_ptr<engine::Database> database;  // the embedded side only
  std::unique_ptr<cql::Session> session;
  std::unique_ptr<hotel::Repository> repository;
  std::unique_ptr<hotel::HotelService> service;
  std::unique_ptr<hotel::OperationGate> gate;  // the embedded side only
};

Status StartService(ServiceSide& side, uint64_t seed) {
  RETURN_IF_ERROR(hotel::CreateServiceSchema(*side.session, ""));
  ASSIGN_OR_RETURN(hotel::Keyspaces keyspaces, hotel::KeyspacesForPrefix(""));
  ASSIGN_OR_RETURN(side.repository, hotel::Repository::Create(side.session.get(), keyspaces));
  hotel::HotelServiceOptions service_options;
  service_options.seed = seed;
  side.service = std::make_unique<hotel::HotelService>(side.repository.get(), service_options);
  return Status::Ok();
}

Result<ServiceSide> ConnectCqld(const std::string& address, uint64_t seed) {
  client::ClientOptions options;
  options.contact_points = {address};
  ServiceSide side;
  ASSIGN_OR_RETURN(side.session, client::RemoteSession::Connect(options));
  RETURN_IF_ERROR(StartService(side, seed));
  return side;
}

Result<ServiceSide> OpenEmbedded(const std::string& directory, uint64_t seed) {
  ServiceSide side;
  ASSIGN_OR_RETURN(side.database, engine::Database::Open(directory, engine::DatabaseOptions()));
  side.session = side.database->NewSession();
  RETURN_IF_ERROR(StartService(side, seed));
  return side;
}

// Loads the sample into `side` through its service and gives `bench` its clients.
Status LoadService(Side& bench, ServiceSide& side, const hotel::GeneratorOptions& generator) {
  hotel::Repository* repository = side.repository.get();
  hotel::HotelService* service = side.service.get();
  if (side.database) {
    side.gate = std::make_unique<hotel::OperationGate>(
        static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
  }
  hotel::OperationGate* gate = side.gate.get();
  bench.factory = [service, repository, gate]() -> Result<std::unique_ptr<hotel::BenchClient>> {
    return hotel::NewServiceBenchClient(service, repository, gate);
  };
  return Load(bench, [&] { return hotel::Generate(*repository, *service, generator); });
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

// Runs every mix on every side (PostgreSQL, the baseline, last) and prints the table; the exit
// status.
int Compare(Flags& flags, const std::vector<Side*>& sides, const hotel::BenchOptions& base) {
  std::string table;
  bool intact = true;
  for (const std::string& mix_name : Split(flags["--mixes"])) {
    auto mix = hotel::ParseBenchMix(mix_name);
    if (!mix.ok()) return Fail(mix.status().message());
    hotel::BenchOptions options = base;
    options.mix = *mix;
    std::printf("== mix %s, %d clients, %.0f s per side ==\n", mix_name.c_str(),
                options.concurrency, options.duration_seconds);
    std::vector<Measured> measured;
    for (Side* side : sides) {
      Result<Measured> phase = RunPhase(*side, options);
      if (!phase.ok()) return Fail(side->name + ": " + phase.status().ToString());
      intact = intact && phase->integrity.ok();
      measured.push_back(std::move(*phase));
    }
    table += MixRows(mix_name, {sides.begin(), sides.end()}, measured);
  }
  std::printf(
      "== side by side: cqld (native protocol, the service's denormalized tables)%s vs "
      "PostgreSQL 15 (libpq, prepared, normalized schema), synchronous_commit=%s ==\n",
      sides.size() > 2 ? ", embedded (the service in process on the embedded engine)" : "",
      flags["--synchronous-commit"].c_str());
  std::vector<std::string> header;
  for (const Side* side : sides)
    header.insert(header.end(), {side->label + " ops/s", "p50 µs", "p99 µs"});
  for (size_t i = 0; i + 1 < sides.size(); ++i) header.push_back(sides[i]->label + "/PG");
  std::fputs(Line("mix", "operation", header).c_str(), stdout);
  std::printf("%s%s", table.c_str(), SummaryRows({sides.begin(), sides.end()}).c_str());
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
  Side cqld{"cqld", "cqld", static_cast<pid_t>(std::atoi(flags["--cqld-pid"].c_str())), {}};
  Side embedded{"embedded", "embed", getpid(), {}};
  embedded.in_process = true;
  Side pg{"PostgreSQL", "PG", static_cast<pid_t>(std::atoi(flags["--pg-pid"].c_str())), {}};

  Result<ServiceSide> connected = ConnectCqld(flags["--cqld"], generator.seed);
  if (!connected.ok()) return Fail("cqld: " + connected.status().ToString());
  Status loaded = LoadService(cqld, *connected, generator);
  if (!loaded.ok()) return Fail("cqld load: " + loaded.ToString());
  if (!flags["--flush-command"].empty() && std::system(flags["--flush-command"].c_str()) != 0) {
    return Fail("the flush command failed: " + flags["--flush-command"]);
  }
  cqld.bytes_data_dir = peer::DirectoryBytes(flags["--cqld-data"]);
  cqld.bytes_database = cqld.bytes_data_dir;
  std::vector<Side*> sides = {&cqld};

  Result<ServiceSide> in_process = Status::Invalid("no --embedded-data");
  const std::string& embedded_dir = flags["--embedded-data"];
  if (!embedded_dir.empty()) {
    in_process = OpenEmbedded(embedded_dir, generator.seed);
    if (!in_process.ok()) return Fail("embedded: " + in_process.status().ToString());
    loaded = LoadService(embedded, *in_process, generator);
    if (!loaded.ok()) return Fail("embedded load: " + loaded.ToString());
    loaded = in_process->database->store()->FlushAll();
    if (!loaded.ok()) return Fail("embedded flush: " + loaded.ToString());
    embedded.bytes_data_dir = peer::DirectoryBytes(embedded_dir);
    embedded.bytes_database = embedded.bytes_data_dir;
    sides.push_back(&embedded);
  }

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

  sides.push_back(&pg);
  int status = Compare(flags, sides, bench);
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
