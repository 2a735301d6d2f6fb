#include "server/memory_budget.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace server {
namespace {

void RunAll(std::vector<std::function<void()>> callbacks) {
  for (std::function<void()>& callback : callbacks) callback();
}

}  // namespace

bool MemoryBudget::Fits(const Account& account, size_t total) const {
  size_t more = total - account.balance_;
  return used_ + more <= limit_ || used_ == account.balance_;
}

void MemoryBudget::Grow(Account* account, size_t bytes) {
  account->balance_ += bytes;
  used_ += bytes;
  high_water_ = std::max(high_water_, used_);
}

std::vector<std::function<void()>> MemoryBudget::GrantWaiters() {
  std::vector<std::function<void()>> granted;
  while (!waiters_.empty()) {
    Waiter& head = waiters_.front();
    if (head.account->balance_ < head.total) {
      if (!Fits(*head.account, head.total)) break;
      Grow(head.account, head.total - head.account->balance_);
    }
    granted.push_back(std::move(head.on_granted));
    waiters_.pop_front();
  }
  return granted;
}

std::vector<std::function<void()>> MemoryBudget::Dequeue(const Account* account) {
  auto queued = std::find_if(waiters_.begin(), waiters_.end(),
                             [account](const Waiter& waiter) { return waiter.account == account; });
  if (queued == waiters_.end()) return {};
  bool was_head = queued == waiters_.begin();
  waiters_.erase(queued);
  // The head may have been what blocked the others (design 1).
  return was_head ? GrantWaiters() : std::vector<std::function<void()>>();
}

void MemoryBudget::RecordResponse(size_t bytes) {
  size_t current = response_estimate_.load(std::memory_order_relaxed);
  size_t next;
  do {
    next = bytes >= current ? bytes : std::max(kMinResponseEstimate, current - current / 64);
  } while (next != current &&
           !response_estimate_.compare_exchange_weak(current, next, std::memory_order_relaxed));
}

size_t MemoryBudget::used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

size_t MemoryBudget::high_water() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return high_water_;
}

size_t MemoryBudget::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiters_.size();
}

MemoryBudget::Account::~Account() {
  CancelWait();
  Set(0);
}

bool MemoryBudget::Account::Reserve(size_t total, std::function<void()> on_granted) {
  std::vector<std::function<void()>> granted;
  std::unique_lock<std::mutex> lock(budget_->mutex_);
  auto queued = std::find_if(budget_->waiters_.begin(), budget_->waiters_.end(),
                             [this](const Waiter& waiter) { return waiter.account == this; });
  if (balance_ >= total) {
    // Enough already (memory was given back meanwhile): a queued reservation is dropped.
    granted = budget_->Dequeue(this);
    lock.unlock();
    RunAll(std::move(granted));
    return true;
  }
  if (queued != budget_->waiters_.end()) {
    queued->total = total;
    queued->on_granted = std::move(on_granted);
    return false;
  }
  if (budget_->waiters_.empty() && budget_->Fits(*this, total)) {
    budget_->Grow(this, total - balance_);
    return true;
  }
  budget_->waiters_.push_back(Waiter{this, total, std::move(on_granted)});
  return false;
}

void MemoryBudget::Account::Set(size_t total) {
  std::vector<std::function<void()>> granted;
  {
    std::lock_guard<std::mutex> lock(budget_->mutex_);
    if (total >= balance_) {
      budget_->Grow(this, total - balance_);
      return;
    }
    budget_->used_ -= balance_ - total;
    balance_ = total;
    granted = budget_->GrantWaiters();
  }
  RunAll(std::move(granted));
}

void MemoryBudget::Account::CancelWait() {
  std::vector<std::function<void()>> granted;
  {
    std::lock_guard<std::mutex> lock(budget_->mutex_);
    granted = budget_->Dequeue(this);
  }
  RunAll(std::move(granted));
}

size_t MemoryBudget::Account::balance() const {
  std::lock_guard<std::mutex> lock(budget_->mutex_);
  return balance_;
}

}  // namespace server
