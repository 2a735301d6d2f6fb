// `hotel`: the reservation service (ARCHITECTURE.md §9).
//
//   hotel serve [--data DIR] [--address 127.0.0.1] [--port 8080] [--keyspace-prefix P]
//               [--web DIR] [--threads N]
//       Opens the embedded database in DIR (default ./data), creates the schema if missing,
//       loads the small sample when the hotel keyspace is empty, and serves the HTTP API and
//       the web UI until SIGINT/SIGTERM.
//   hotel load [--data DIR] [--scale small] [--seed N] [--keyspace-prefix P]
//       Creates the schema and loads a deterministic sample.
//
// Both take `--cassandra host:port[,host:port...]` instead of `--data`: the same service on any
// Cassandra-compatible cluster (cqld, Apache Cassandra, ScyllaDB) through the C++ driver
// (src/client), with `--replication '{...}'` for the keyspaces it creates (default
// SimpleStrategy, replication_factor 1).

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "client/remote_session.h"
#include "engine/database.h"
#include "hotel/data_generator.h"
#include "hotel/hotel_service.h"
#include "hotel/http_router.h"
#include "hotel/http_server.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"

namespace {

constexpr const char* kUsage =
    "usage: hotel serve [--data DIR] [--address ADDR] [--port N] [--keyspace-prefix P] "
    "[--web DIR] [--threads N]\n"
    "       hotel load [--data DIR] [--scale small] [--seed N] [--keyspace-prefix P]\n"
    "       (either command: --cassandra HOST:PORT[,HOST:PORT...] [--replication MAP] instead "
    "of --data)\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "hotel: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  if (command != "serve" && command != "load") {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::map<std::string, std::string> flags = {{"--data", "data"},   {"--address", "127.0.0.1"},
                                              {"--port", "8080"},   {"--keyspace-prefix", ""},
                                              {"--web", "web"},     {"--threads", "4"},
                                              {"--scale", "small"}, {"--seed", "42"},
                                              {"--cassandra", ""},  {"--replication", ""}};
  for (int i = 2; i < argc; ++i) {
    std::string flag = argv[i];
    if (flags.count(flag) == 0 || i + 1 >= argc) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    flags[flag] = argv[++i];
  }
  char* end = nullptr;
  long port = std::strtol(flags["--port"].c_str(), &end, 10);
  if (*end != '\0' || port < 0 || port > 65535) return Fail("bad --port");
  long threads = std::strtol(flags["--threads"].c_str(), &end, 10);
  if (*end != '\0' || threads < 1 || threads > 256) return Fail("bad --threads");
  unsigned long long seed = std::strtoull(flags["--seed"].c_str(), &end, 10);
  if (*end != '\0') return Fail("bad --seed");

  // Signals are blocked before any thread starts, and waited for below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const std::string& data = flags["--data"];
  const std::string& cassandra = flags["--cassandra"];
  // Where the data lives, for messages: the embedded directory or the cluster.
  std::string mode = cassandra.empty() ? "embedded" : "cassandra";
  std::string where = cassandra.empty() ? "data " + data : cassandra;
  std::unique_ptr<engine::Database> database;
  std::unique_ptr<cql::Session> session;
  if (cassandra.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(data, ignored);
    auto opened = engine::Database::Open(data, engine::DatabaseOptions());
    if (!opened.ok()) return Fail("cannot open " + data + ": " + opened.status().ToString());
    database = std::move(opened).value();
    session = database->NewSession();
  } else {
    client::ClientOptions options;
    options.contact_points.clear();
    for (size_t start = 0; start <= cassandra.size();) {
      size_t comma = cassandra.find(',', start);
      if (comma == std::string::npos) comma = cassandra.size();
      if (comma > start) options.contact_points.push_back(cassandra.substr(start, comma - start));
      start = comma + 1;
    }
    auto connected = client::RemoteSession::Connect(options);
    if (!connected.ok()) {
      return Fail("cannot connect to " + cassandra + ": " + connected.status().ToString());
    }
    session = std::move(connected).value();
  }
  const std::string& prefix = flags["--keyspace-prefix"];
  auto keyspaces = hotel::KeyspacesForPrefix(prefix);
  if (!keyspaces.ok()) return Fail(keyspaces.status().message());
  common::Status created =
      flags["--replication"].empty()
          ? hotel::CreateServiceSchema(*session, prefix)
          : hotel::CreateServiceSchema(*session, prefix, flags["--replication"]);
  if (!created.ok()) {
    return Fail("cannot create the schema: " + created.ToString());
  }
  auto repository = hotel::Repository::Create(session.get(), *keyspaces);
  if (!repository.ok()) return Fail(repository.status().ToString());
  hotel::HotelServiceOptions service_options;
  hotel::HotelService service(repository->get(), service_options);

  auto load = [&](bool verbose) -> int {
    auto options = hotel::GeneratorOptionsForScale(flags["--scale"]);
    if (!options.ok()) return Fail(options.status().message());
    options->seed = seed;
    if (verbose) {
      options->progress = [](int done, int total) {
        std::fprintf(stderr, "\rhotel load: %d/%d hotels", done, total);
        if (done == total) std::fputc('\n', stderr);
      };
    }
    auto report = hotel::Generate(**repository, service, *options);
    if (!report.ok()) return Fail("load failed: " + report.status().ToString());
    std::printf("hotel load: %lld rows, %d reservations into %s\n",
                static_cast<long long>(report->rows), report->reservations, where.c_str());
    return 0;
  };

  if (command == "load") return load(true);

  auto pois = service.ListPois();
  if (!pois.ok()) return Fail(pois.status().ToString());
  if (pois->empty()) {
    std::fprintf(stderr, "hotel: empty database, loading the small sample\n");
    if (int status = load(false); status != 0) return status;
  }
  std::string web = flags["--web"];
  if (!std::filesystem::exists(web + "/index.html")) {
    std::fprintf(stderr, "hotel: no %s/index.html; / answers 404\n", web.c_str());
  }
  hotel::ApiRouter router(&service, web, mode);
  hotel::HttpServerOptions server_options;
  server_options.address = flags["--address"];
  server_options.port = static_cast<uint16_t>(port);
  server_options.threads = static_cast<int>(threads);
  hotel::HttpServer server(&router, server_options);
  if (auto started = server.Start(); !started.ok()) return Fail(started.message());
  std::printf("hotel serving http://%s:%u (%s %s)\n", server_options.address.c_str(),
              server.port(), mode.c_str(), where.c_str());
  std::fflush(stdout);
  int signal = 0;
  sigwait(&signals, &signal);
  std::fprintf(stderr, "hotel: signal %d, shutting down\n", signal);
  server.Stop();
  return 0;
}
