// BenchClient: what `hotel bench` (load_bench.h) asks of the service, one call per operation
// of the seeds' workflow, with two implementations:
//   - in-process: calls `HotelService` directly (the embedded engine, `--data DIR`): the
//     latencies are the service time;
//   - HTTP: one keep-alive HTTP/1.1 connection (Boost.Beast, blocking) to a running
//     `hotel serve` (`--url http://HOST:PORT`): the latencies include HTTP and JSON.
// Each call returns only what the benchmark needs to go on (ids to follow, room numbers,
// confirmation numbers); errors are the service's status codes (over HTTP mapped back from the
// status: 400 kInvalid, 401 kAuthenticationError, 403 kUnauthorized, 404 kNotFound, 409
// room_unavailable kWriteFailure, 429 kOverloaded, 503 kUnavailable, other failures kInternal /
// kIOError).
//
// Thread-safety: a client is NOT thread-safe; the benchmark gives each worker its own (the
// in-process clients share the thread-safe service).

#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "hotel/domain.h"
#include "hotel/hotel_service.h"
#include "hotel/repository.h"

namespace hotel {

// A booked stay as Q6 answers it.
struct BookedStay {
  std::string confirmation_number;
  std::string hotel_id;
  int16_t room_number = 0;
  Day check_in = 0;
  Day check_out = 0;
  std::string status;
};

class BenchClient {
 public:
  virtual ~BenchClient() = default;

  // The names of every POI.
  virtual common::Result<std::vector<std::string>> ListPois() = 0;
  // Q1: the ids of the hotels near a POI.
  virtual common::Result<std::vector<std::string>> HotelsNearPoi(const std::string& poi) = 0;
  // Q2.
  virtual common::Status GetHotel(const std::string& hotel_id) = 0;
  // Q3.
  virtual common::Status HotelPois(const std::string& hotel_id) = 0;
  // Q4: the room numbers free for the whole stay.
  virtual common::Result<std::vector<int16_t>> Availability(const std::string& hotel_id,
                                                            Day check_in, Day check_out) = 0;
  // Q5.
  virtual common::Status GetRoom(const std::string& hotel_id, int16_t room_number, Day date) = 0;
  // Q6.
  virtual common::Result<BookedStay> GetReservation(const std::string& confirmation) = 0;
  // Q7.
  virtual common::Status ReservationsByHotelDate(const std::string& hotel_id, Day date) = 0;
  // Q8.
  virtual common::Status ReservationsByGuest(const std::string& last_name) = 0;
  // Q9 (`guest_id` as text).
  virtual common::Status GetGuest(const std::string& guest_id) = 0;
  // Creates a guest; returns its id as text.
  virtual common::Result<std::string> CreateGuest(const std::string& first_name,
                                                  const std::string& last_name) = 0;
  // Books; returns the confirmation number. kWriteFailure when a night is taken (HTTP 409).
  virtual common::Result<std::string> Book(const std::string& hotel_id, int16_t room_number,
                                           Day check_in, Day check_out,
                                           const std::string& guest_id) = 0;
  // Cancels. kNotFound when unknown.
  virtual common::Status Cancel(const std::string& confirmation) = 0;
  // The integrity check of one confirmed stay: true when every night is held by its
  // confirmation number. In-process: read from the availability rows; over HTTP (which does
  // not expose holds): true when Q4 does not offer the room for the stay.
  virtual common::Result<bool> StayHeld(const BookedStay& stay) = 0;
};

// Lets at most `slots` in-process operations run at once; the others sleep until a slot frees.
// An operation that finds a slot free takes it even when others sleep (no hand-off to a
// sleeper: strict first-come-first-served made every operation wait for a wake-up and tripled
// the CPU of a 3 µs lookup).
// Why: in process, every bench worker is a thread running the service and the engine, so with
// more workers than cores the scheduler time-slices operations, and one preempted in the middle
// waits for every other worker's slice (the mix's p99 went from 8 ms with 2 workers to 37 ms
// with 8 on 2 cores, docs/benchmarks.md). A server runs requests on a bounded pool of threads
// (`hotel serve --threads`, cqld's io threads); the gate is that pool for the in-process
// client: the workers still offer the same concurrency, and the time an operation waits for a
// slot counts in its latency.
// Thread-safe.
class OperationGate {
 public:
  // REQUIRES: slots >= 1.
  explicit OperationGate(int slots) : slots_(slots), free_(slots) {}

  // Holds a slot for its lifetime.
  class Slot {
   public:
    explicit Slot(OperationGate* gate);  // `gate` may be null: no limit
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    OperationGate* gate_;
  };

  int slots() const { return slots_; }
  // Operations waiting for a slot now.
  int waiting();

 private:
  void Enter();
  void Leave();

  const int slots_;
  std::mutex mutex_;
  std::condition_variable freed_;
  int free_;         // GUARDED_BY(mutex_)
  int waiting_ = 0;  // GUARDED_BY(mutex_)
};

// An in-process client; its operations go through `gate` when it is not null (shared by all
// the workers' clients). REQUIRES: `service`, `repository` (the service's) and `gate` outlive
// it.
std::unique_ptr<BenchClient> NewServiceBenchClient(HotelService* service, Repository* repository,
                                                   OperationGate* gate = nullptr);

// Connects to `url` ("http://HOST:PORT", path ignored); every request carries `token` as
// `Authorization: Bearer` when it is not empty (the workflow's arrivals, guest lookups and
// bookings for a guest_id need a staff session: docs/security.md). Errors: kInvalid for a
// malformed URL or another scheme, kIOError when the connection fails.
common::Result<std::unique_ptr<BenchClient>> ConnectHttpBenchClient(const std::string& url,
                                                                    std::string token = "");

// Logs in to the service at `url` (POST /api/v1/login) and returns the session's bearer token.
// Errors: as ConnectHttpBenchClient; kAuthenticationError for a wrong username or password,
// kOverloaded when the server asks to wait.
common::Result<std::string> HttpStaffLogin(const std::string& url, const std::string& username,
                                           const std::string& password);

}  // namespace hotel
