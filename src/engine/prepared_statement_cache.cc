#include "engine/prepared_statement_cache.h"

#include <algorithm>
#include <utility>

namespace engine {

PreparedStatementCache::PreparedStatementCache(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)) {}

std::shared_ptr<const PreparedStatement> PreparedStatementCache::Find(std::string_view id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(std::string(id));
  if (it == entries_.end()) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  order_.splice(order_.begin(), order_, it->second.position);
  return it->second.statement;
}

void PreparedStatementCache::Put(const std::string& id,
                                 std::shared_ptr<const PreparedStatement> statement) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(id);
  if (it != entries_.end()) {
    it->second.statement = std::move(statement);
    order_.splice(order_.begin(), order_, it->second.position);
    return;
  }
  if (entries_.size() >= capacity_) {
    entries_.erase(order_.back());
    order_.pop_back();
    evictions_.fetch_add(1, std::memory_order_relaxed);
  }
  order_.push_front(id);
  entries_.emplace(id, Entry{std::move(statement), order_.begin()});
}

size_t PreparedStatementCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace engine
