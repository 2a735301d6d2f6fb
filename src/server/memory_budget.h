// MemoryBudget: the server-wide bound on the memory that clients make the server hold
// (docs/dev/architecture.md §4), in the manner of ScyllaDB's per-shard request memory semaphore and
// Cassandra's `native_transport_max_request_data_in_flight`.
//
// Every connection (connection.h) holds one `MemoryBudget::Account` and keeps its balance equal
// to what it holds or is about to hold: bytes received and not yet decoded, the rest of the body
// an envelope header declares and its declared decompressed size (counted BEFORE the bytes
// arrive or are decompressed), requests in flight with an estimate of their responses, and
// responses queued until they are written to the socket. Growing the balance for work not yet
// done (reading, decompressing, dispatching) goes through `Reserve`, which waits when the budget
// is spent: the connection then stops reading and TCP pushes back on the client. Memory that
// already exists (a response the engine produced) is recorded with `Set`, which never waits and
// may take the total above the limit; the next reservations then wait until it drains.
//
// Design:
//  1. Waiting reservations are granted in FIFO order, so a large request is not starved by a
//     stream of small ones; a reservation that does not fit blocks those queued after it.
//  2. A reservation is granted when it fits under the limit, or when the account asking is the
//     only one holding anything: a request larger than the whole budget is let through alone
//     instead of waiting forever.
//  3. Callbacks of granted waits run on the thread that released the memory, outside the
//     budget's lock; they must only post work elsewhere.
//  4. The size of a response is unknown until the engine produced it, so a request reserves
//     an estimate: `response_estimate()`, learnt from every response the server produced
//     (`RecordResponse`): it rises at once to a larger response and decays slowly (1/64 per
//     smaller one) to no less than kMinResponseEstimate. Once one client's requests have large
//     answers, every request reserves that much, so the budget also bounds how many requests
//     are in flight server-wide, and with them the memory their responses will take.
//
// Thread-safety: MemoryBudget and Account are thread-safe; the budget must outlive its accounts.

#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

namespace server {

class MemoryBudget {
 public:
  static constexpr size_t kMinResponseEstimate = 64 * 1024;

  // REQUIRES: limit > 0.
  explicit MemoryBudget(size_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // One holder's share of the budget (one per connection).
  class Account {
   public:
    explicit Account(MemoryBudget* budget) : budget_(budget) {}
    // Releases the balance and drops a waiting reservation (its callback is never called).
    ~Account();
    Account(const Account&) = delete;
    Account& operator=(const Account&) = delete;

    // Grows the balance to at least `total`. Returns true when the balance is there now (a
    // queued reservation of this account is then dropped). Otherwise queues the reservation
    // (replacing an earlier queued one of this account, which keeps its place) and returns
    // false; `on_granted` is called once the balance has grown to `total` (design 3).
    bool Reserve(size_t total, std::function<void()> on_granted);
    // Sets the balance to exactly `total` without waiting, for memory already held; shrinking
    // may grant queued reservations. A queued reservation of this account stays queued.
    void Set(size_t total);
    // Drops a queued reservation of this account, if any; its callback is not called.
    void CancelWait();
    size_t balance() const;

   private:
    friend class MemoryBudget;
    MemoryBudget* budget_;
    size_t balance_ = 0;  // GUARDED_BY(budget_->mutex_)
  };

  size_t limit() const { return limit_; }
  // Sum of the balances now.
  size_t used() const;
  // The largest `used()` seen since construction.
  size_t high_water() const;
  // Reservations waiting.
  size_t waiting() const;

  // Design 4: the response size a request not yet run should reserve, and the learning.
  size_t response_estimate() const { return response_estimate_.load(std::memory_order_relaxed); }
  void RecordResponse(size_t bytes);

 private:
  struct Waiter {
    Account* account;
    size_t total;
    std::function<void()> on_granted;
  };

  // REQUIRES: mutex_ held. Whether `account` may grow its balance to `total` now (design 2).
  bool Fits(const Account& account, size_t total) const;
  // REQUIRES: mutex_ held. Adds `bytes` to `account` and to used_.
  void Grow(Account* account, size_t bytes);
  // REQUIRES: mutex_ held. Removes `account`'s queued reservation; returns the callbacks of
  // the reservations that removal lets through.
  std::vector<std::function<void()>> Dequeue(const Account* account);
  // REQUIRES: mutex_ held. Grants queued reservations in order while they fit; returns their
  // callbacks, to be called after unlocking.
  std::vector<std::function<void()>> GrantWaiters();

  const size_t limit_;
  mutable std::mutex mutex_;
  size_t used_ = 0;             // GUARDED_BY(mutex_)
  size_t high_water_ = 0;       // GUARDED_BY(mutex_)
  std::deque<Waiter> waiters_;  // GUARDED_BY(mutex_)
  std::atomic<size_t> response_estimate_{kMinResponseEstimate};
};

}  // namespace server
