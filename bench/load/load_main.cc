// cqld_load: a cassandra-stress-like load generator speaking the native protocol (bench/load/).
//
// It drives prepared point writes, point reads or a 50/50 mix against any server speaking
// protocol v4/v5 (cqld, Apache Cassandra, ScyllaDB) with N connections × M requests in flight for
// a fixed duration, and reports ops/s, latency percentiles (p50/p99/p99.9) and, when it knows the
// server's pid, the server's CPU time per operation read from /proc/<pid>/stat. With
// --half-peak it then offers each workload open-loop at half of the peak it measured and reports
// the latencies there (measured from each request's intended start, so a stalled server is not
// hidden by the generator waiting for it).
//
//   cqld_load --start-cqld build/release/apps/cqld --connections 4 --in-flight 32 --duration 10
//   cqld_load --port 9042 --server-pid $(pidof cqld) --workload read
//
// The schema is cassandra-stress's standard1: `key blob PRIMARY KEY` and five 34-byte blob
// columns, in keyspace cqld_load; reads and writes pick keys uniformly from --rows keys, all
// written once before the timed phases.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/asio.hpp>

#include "client/connection.h"
#include "cql/types/value_codec.h"

// RETURN_IF_ERROR for coroutines returning awaitable<Status>.
#define RETURN_IF_ERROR_CO(expr)          \
  do {                                    \
    Status status_ = (expr);              \
    if (!status_.ok()) co_return status_; \
  } while (false)

namespace {

namespace asio = boost::asio;
using common::Result;
using common::Status;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string host = "127.0.0.1";
  uint16_t port = 9042;
  int connections = 4;
  int in_flight = 32;
  double duration_seconds = 10;
  int64_t rows = 100000;
  uint8_t protocol_version = 4;
  std::vector<std::string> workloads = {"write", "read", "mixed"};
  bool half_peak = false;
  pid_t server_pid = 0;
  std::string start_cqld;  // a cqld binary to start on a temporary directory
  std::vector<std::string> cqld_args;
};

void Usage() {
  std::fprintf(stderr,
               "usage: cqld_load [--host H] [--port P] [--connections N] [--in-flight M]\n"
               "                 [--duration SECONDS] [--rows R] [--protocol 4|5]\n"
               "                 [--workload write,read,mixed] [--half-peak]\n"
               "                 [--server-pid PID | --start-cqld BINARY [--cqld-arg ARG]...]\n");
}

std::optional<Options> ParseFlags(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::optional<std::string> v;
    try {
      if (flag == "--half-peak") {
        options.half_peak = true;
        continue;
      }
      if (!(v = value())) return std::nullopt;
      if (flag == "--host") {
        options.host = *v;
      } else if (flag == "--port") {
        options.port = static_cast<uint16_t>(std::stoi(*v));
      } else if (flag == "--connections") {
        options.connections = std::stoi(*v);
      } else if (flag == "--in-flight") {
        options.in_flight = std::stoi(*v);
      } else if (flag == "--duration") {
        options.duration_seconds = std::stod(*v);
      } else if (flag == "--rows") {
        options.rows = std::stoll(*v);
      } else if (flag == "--protocol") {
        options.protocol_version = static_cast<uint8_t>(std::stoi(*v));
      } else if (flag == "--workload") {
        options.workloads.clear();
        std::stringstream list(*v);
        for (std::string item; std::getline(list, item, ',');) options.workloads.push_back(item);
      } else if (flag == "--server-pid") {
        options.server_pid = static_cast<pid_t>(std::stoi(*v));
      } else if (flag == "--start-cqld") {
        options.start_cqld = *v;
      } else if (flag == "--cqld-arg") {
        options.cqld_args.push_back(*v);
      } else {
        return std::nullopt;
      }
    } catch (const std::exception&) {  // std::stoi on a non-number
      return std::nullopt;
    }
  }
  if (options.connections < 1 || options.in_flight < 1 || options.in_flight > 32768 ||
      options.duration_seconds <= 0 || options.rows < 1 ||
      (options.protocol_version != 4 && options.protocol_version != 5)) {
    return std::nullopt;
  }
  for (const std::string& workload : options.workloads) {
    if (workload != "write" && workload != "read" && workload != "mixed") return std::nullopt;
  }
  return options;
}

// A cqld child on a temporary data directory, stopped with SIGTERM when destroyed.
class CqldProcess {
 public:
  static Result<std::unique_ptr<CqldProcess>> Start(const std::string& binary,
                                                    const std::vector<std::string>& extra) {
    char pattern[] = "/tmp/cqld_load.XXXXXX";
    if (mkdtemp(pattern) == nullptr) return Status::IOError("mkdtemp failed");
    auto process = std::unique_ptr<CqldProcess>(new CqldProcess());
    process->directory_ = pattern;
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return Status::IOError("pipe failed");
    std::vector<std::string> args = {
        binary, "--data", process->directory_ + "/data", "--port", "0", "--admin-port", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    int rc = posix_spawn(&process->pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    if (rc != 0) {
      close(pipe_fds[0]);
      process->pid_ = 0;
      return Status::IOError(fmt::format("cannot start {}", binary));
    }
    // The first line says where it listens: "cqld listening on 127.0.0.1:PORT (...)".
    std::string line;
    char c;
    while (read(pipe_fds[0], &c, 1) == 1 && c != '\n') line.push_back(c);
    close(pipe_fds[0]);
    size_t colon = line.find(':', line.find("listening on "));
    if (colon == std::string::npos) return Status::IOError("cqld did not start: " + line);
    process->port_ = static_cast<uint16_t>(std::atoi(line.c_str() + colon + 1));
    return process;
  }
  ~CqldProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  pid_t pid() const { return pid_; }
  uint16_t port() const { return port_; }

 private:
  CqldProcess() = default;
  pid_t pid_ = 0;
  uint16_t port_ = 0;
  std::string directory_;
};

// CPU time (user + system) of a process so far, in microseconds; 0 when unknown.
double ProcessCpuMicros(pid_t pid) {
  if (pid <= 0) return 0;
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  size_t close_paren = content.rfind(')');
  if (close_paren == std::string::npos) return 0;
  std::istringstream fields(content.substr(close_paren + 2));
  std::string field;
  // Fields after the command: state(3) ... utime(14) stime(15).
  double utime = 0, stime = 0;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) utime = std::stod(field);
    if (index == 15) stime = std::stod(field);
  }
  return (utime + stime) * 1e6 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double SelfCpuMicros() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + usage.ru_utime.tv_usec +
         usage.ru_stime.tv_usec;
}

struct PhaseResult {
  std::string name;
  int64_t ops = 0;
  int64_t errors = 0;
  double seconds = 0;
  std::vector<int64_t> latencies_ns;
  double server_cpu_us = 0;
  double client_cpu_us = 0;
  double ops_per_second() const { return seconds > 0 ? ops / seconds : 0; }
  double Percentile(double p) {
    if (latencies_ns.empty()) return 0;
    size_t index =
        std::min(latencies_ns.size() - 1, static_cast<size_t>(p / 100.0 * latencies_ns.size()));
    std::nth_element(latencies_ns.begin(), latencies_ns.begin() + index, latencies_ns.end());
    return latencies_ns[index] / 1000.0;
  }
};

class LoadRun {
 public:
  // A request not answered in this time counts as an error.
  static constexpr std::chrono::milliseconds kRequestTimeout{10000};

  LoadRun(asio::io_context& io, const Options& options, pid_t server_pid)
      : io_(io), options_(options), server_pid_(server_pid), random_(42) {}

  asio::awaitable<Status> Setup(uint16_t port) {
    for (int i = 0; i < options_.connections; ++i) {
      std::shared_ptr<client::Connection> connection = client::Connection::Create(io_);
      client::ConnectionSettings settings;
      settings.host = options_.host;
      settings.port = port;
      settings.version = options_.protocol_version;
      settings.max_in_flight = static_cast<size_t>(options_.in_flight);
      settings.request_timeout = kRequestTimeout;
      Status status = co_await connection->Open(std::move(settings));
      if (!status.ok()) co_return status;
      connections_.push_back(std::move(connection));
    }
    client::Connection& first = *connections_[0];
    for (const char* ddl :
         {"CREATE KEYSPACE IF NOT EXISTS cqld_load WITH replication = "
          "{'class': 'SimpleStrategy', 'replication_factor': 1}",
          "CREATE TABLE IF NOT EXISTS cqld_load.standard1 (key blob PRIMARY KEY, c0 blob, "
          "c1 blob, c2 blob, c3 blob, c4 blob)"}) {
      protocol::QueryRequest query;
      query.query = ddl;
      RETURN_IF_ERROR_CO(co_await CheckedCall(first, query));
    }
    Result<common::Bytes> insert = co_await PrepareId(
        first,
        "INSERT INTO cqld_load.standard1 (key, c0, c1, c2, c3, c4) VALUES (?, ?, ?, ?, ?, ?)");
    if (!insert.ok()) co_return insert.status();
    insert_id_ = *insert;
    Result<common::Bytes> select =
        co_await PrepareId(first, "SELECT * FROM cqld_load.standard1 WHERE key = ?");
    if (!select.ok()) co_return select.status();
    select_id_ = *select;
    co_return Status::Ok();
  }

  // Writes every key once, as fast as the connections allow.
  asio::awaitable<PhaseResult> Populate() {
    next_key_ = 0;
    co_return co_await Run("populate", Mode::kPopulate, 0, 0);
  }

  // Closed loop for the duration (rate 0), or open loop at `rate` ops/s.
  asio::awaitable<PhaseResult> Timed(const std::string& workload, double rate) {
    Mode mode = workload == "write"  ? Mode::kWrite
                : workload == "read" ? Mode::kRead
                                     : Mode::kMixed;
    std::string name = rate > 0 ? fmt::format("{} @{:.0f}/s", workload, rate) : workload;
    co_return co_await Run(name, mode, options_.duration_seconds, rate);
  }

 private:
  enum class Mode { kPopulate, kWrite, kRead, kMixed };

  static asio::awaitable<Status> CheckedCall(client::Connection& connection,
                                             const protocol::Request& request) {
    Result<client::Response> response = co_await connection.Call(request, kRequestTimeout);
    co_return response.status();
  }

  static asio::awaitable<Result<common::Bytes>> PrepareId(client::Connection& connection,
                                                          std::string query) {
    protocol::PrepareRequest prepare;
    prepare.query = std::move(query);
    Result<client::Response> response = co_await connection.Call(prepare, kRequestTimeout);
    if (!response.ok()) co_return response.status();
    Result<protocol::ResultResponse> result =
        protocol::DecodeResult(response->body, connection.version(), nullptr);
    if (!result.ok()) co_return result.status();
    co_return result->prepared.id;
  }

  common::Bytes Key(int64_t index) const {
    return fmt::format("{:010d}", index);  // 10 bytes, as cassandra-stress's keys
  }

  protocol::Request MakeRequest(Mode mode) {
    bool write = mode == Mode::kPopulate || mode == Mode::kWrite ||
                 (mode == Mode::kMixed && (random_() & 1) == 0);
    int64_t key =
        mode == Mode::kPopulate ? next_key_++ : static_cast<int64_t>(random_() % options_.rows);
    protocol::ExecuteRequest execute;
    execute.parameters.options.consistency = cql::Consistency::kLocalOne;
    execute.parameters.options.values.push_back(cql::BoundValue::Of(Key(key)));
    if (write) {
      execute.id = insert_id_;
      for (int column = 0; column < 5; ++column) {
        common::Bytes value(34, '\0');
        for (char& c : value) c = static_cast<char>(random_());
        execute.parameters.options.values.push_back(cql::BoundValue::Of(std::move(value)));
      }
    } else {
      execute.id = select_id_;
      execute.parameters.skip_metadata = true;
    }
    return execute;
  }

  asio::awaitable<PhaseResult> Run(std::string name, Mode mode, double seconds, double rate) {
    PhaseResult result;
    result.name = std::move(name);
    result.latencies_ns.reserve(1 << 20);
    Clock::time_point start = Clock::now();
    Clock::time_point end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    double server_cpu_start = ProcessCpuMicros(server_pid_);
    double client_cpu_start = SelfCpuMicros();
    bool stopping = false;
    int64_t outstanding = 0;
    // Open loop: requests due but not yet sent (no free slot), with their intended start.
    std::vector<Clock::time_point> backlog;
    size_t next_connection = 0;

    std::function<void(Clock::time_point)> issue = [&](Clock::time_point intended) {
      // Round-robin over connections with a free slot under the per-connection limit.
      for (size_t tries = 0; tries < connections_.size(); ++tries) {
        client::Connection& connection = *connections_[next_connection];
        next_connection = (next_connection + 1) % connections_.size();
        if (connection.broken() ||
            connection.in_flight() >= static_cast<size_t>(options_.in_flight)) {
          continue;
        }
        ++outstanding;
        connection.Send(
            MakeRequest(mode), kRequestTimeout, [&, intended](Result<client::Response> response) {
              --outstanding;
              Clock::time_point now = Clock::now();
              if (response.ok()) {
                ++result.ops;
                result.latencies_ns.push_back(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(now - intended).count());
              } else {
                ++result.errors;
              }
              if (stopping) return;
              if (!backlog.empty()) {
                Clock::time_point due = backlog.back();
                backlog.pop_back();
                issue(due);
              } else if (rate == 0) {
                if (mode == Mode::kPopulate && next_key_ >= options_.rows) return;
                issue(Clock::now());
              }
            });
        return;
      }
      backlog.push_back(intended);
    };

    if (rate == 0) {
      int64_t slots = static_cast<int64_t>(options_.connections) * options_.in_flight;
      for (int64_t i = 0; i < slots; ++i) {
        if (mode == Mode::kPopulate && next_key_ >= options_.rows) break;
        issue(Clock::now());
      }
    }
    asio::steady_timer timer(io_);
    Clock::time_point next_send = start;
    auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(rate > 0 ? 1.0 / rate : 0.001));
    while (true) {
      Clock::time_point now = Clock::now();
      bool done =
          mode == Mode::kPopulate ? (next_key_ >= options_.rows && outstanding == 0) : now >= end;
      if (done) break;
      if (rate > 0) {
        while (next_send <= now) {
          issue(next_send);
          next_send += interval;
        }
      }
      timer.expires_after(std::chrono::microseconds(rate > 0 ? 200 : 5000));
      co_await timer.async_wait(asio::use_awaitable);
      bool all_broken = std::all_of(connections_.begin(), connections_.end(),
                                    [](const auto& c) { return c->broken(); });
      if (all_broken) break;
    }
    stopping = true;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.server_cpu_us = ProcessCpuMicros(server_pid_) - server_cpu_start;
    result.client_cpu_us = SelfCpuMicros() - client_cpu_start;
    // Let the requests still in flight finish (not counted) before the next phase.
    while (outstanding > 0) {
      timer.expires_after(std::chrono::milliseconds(1));
      co_await timer.async_wait(asio::use_awaitable);
    }
    co_return result;
  }

  asio::io_context& io_;
  const Options& options_;
  pid_t server_pid_;
  std::mt19937_64 random_;
  std::vector<std::shared_ptr<client::Connection>> connections_;
  common::Bytes insert_id_;
  common::Bytes select_id_;
  int64_t next_key_ = 0;
};

void PrintHeader() {
  std::printf("%-22s %10s %8s %9s %9s %9s %14s %14s\n", "phase", "ops/s", "errors", "p50 µs",
              "p99 µs", "p99.9 µs", "server CPU/op", "client CPU/op");
}

void Print(PhaseResult& result, pid_t server_pid) {
  std::string server_cpu = server_pid > 0 && result.ops > 0
                               ? fmt::format("{:.1f} µs", result.server_cpu_us / result.ops)
                               : "-";
  std::string client_cpu =
      result.ops > 0 ? fmt::format("{:.1f} µs", result.client_cpu_us / result.ops) : "-";
  std::printf("%-22s %10.0f %8lld %9.1f %9.1f %9.1f %14s %14s\n", result.name.c_str(),
              result.ops_per_second(), static_cast<long long>(result.errors), result.Percentile(50),
              result.Percentile(99), result.Percentile(99.9), server_cpu.c_str(),
              client_cpu.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options = ParseFlags(argc, argv);
  if (!options) {
    Usage();
    return 2;
  }
  std::unique_ptr<CqldProcess> cqld;
  uint16_t port = options->port;
  pid_t server_pid = options->server_pid;
  if (!options->start_cqld.empty()) {
    Result<std::unique_ptr<CqldProcess>> started =
        CqldProcess::Start(options->start_cqld, options->cqld_args);
    if (!started.ok()) {
      std::fprintf(stderr, "cqld_load: %s\n", started.status().ToString().c_str());
      return 1;
    }
    cqld = std::move(started).value();
    port = cqld->port();
    server_pid = cqld->pid();
  }
  std::printf(
      "cqld_load: %s:%u, protocol v%d, %d connections x %d in flight, %.0f s per phase, "
      "%lld rows\n",
      options->host.c_str(), port, options->protocol_version, options->connections,
      options->in_flight, options->duration_seconds, static_cast<long long>(options->rows));

  asio::io_context io(1);
  int exit_code = 0;
  LoadRun run(io, *options, server_pid);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        Status status = co_await run.Setup(port);
        if (!status.ok()) {
          std::fprintf(stderr, "cqld_load: setup: %s\n", status.ToString().c_str());
          exit_code = 1;
          io.stop();
          co_return;
        }
        PrintHeader();
        PhaseResult populate = co_await run.Populate();
        Print(populate, server_pid);
        for (const std::string& workload : options->workloads) {
          PhaseResult peak = co_await run.Timed(workload, 0);
          Print(peak, server_pid);
          if (peak.errors > 0) exit_code = 1;
          if (options->half_peak && peak.ops_per_second() > 0) {
            PhaseResult half = co_await run.Timed(workload, peak.ops_per_second() / 2);
            Print(half, server_pid);
            if (half.errors > 0) exit_code = 1;
          }
        }
        io.stop();
      },
      asio::detached);
  io.run();
  return exit_code;
}
