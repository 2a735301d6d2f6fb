// PreparedStatementCache: the query processor's (query_processor.h) prepared statements by id,
// bounded, evicting the least recently used.
//
// Both PREPAREd statements and the text queries the processor parses through the cache live
// here, so the hot path never re-parses. When the cache is full, adding a statement evicts the
// one least recently found or added: statements in use stay, one-off text queries go first. A
// client whose prepared statement was evicted gets Unprepared and prepares it again (drivers do
// that by themselves).
//
// Invariants:
//   1. `size() <= capacity()` after every call.
//   2. `order_` lists every entry of `entries_` exactly once, most recently used first; each
//      entry holds its own position in `order_`.
//
// Thread-safety: thread-safe (one mutex; every operation is O(1) expected).

#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace engine {

struct PreparedStatement;

class PreparedStatementCache {
 public:
  // A capacity of 0 is taken as 1.
  explicit PreparedStatementCache(size_t capacity);
  PreparedStatementCache(const PreparedStatementCache&) = delete;
  PreparedStatementCache& operator=(const PreparedStatementCache&) = delete;

  // The statement with `id`, made the most recently used; nullptr when absent (never added, or
  // evicted).
  std::shared_ptr<const PreparedStatement> Find(std::string_view id);

  // Adds `statement` under `id` as the most recently used, replacing any statement of that id
  // (a re-bind after a schema change keeps the id). Evicts the least recently used entry when
  // the cache would exceed its capacity. Holders of an evicted statement keep it alive.
  void Put(const std::string& id, std::shared_ptr<const PreparedStatement> statement);

  size_t size() const;
  size_t capacity() const { return capacity_; }
  // Since construction: Find calls that found a statement, that did not, and statements
  // evicted to make room.
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  uint64_t evictions() const { return evictions_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::shared_ptr<const PreparedStatement> statement;
    std::list<std::string>::iterator position;  // in order_
  };

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<std::string> order_;                    // GUARDED_BY(mutex_)
  std::unordered_map<std::string, Entry> entries_;  // GUARDED_BY(mutex_)
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> evictions_{0};
};

}  // namespace engine
