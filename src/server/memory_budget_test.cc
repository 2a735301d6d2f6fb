// Tests of MemoryBudget: reservations within the limit, waits granted in order on release,
// a request larger than the budget let through alone, memory already held recorded over the
// limit, cancelled waits, and the high-water mark.

#include "server/memory_budget.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace server {
namespace {

using Account = MemoryBudget::Account;

TEST(MemoryBudgetTest, ReservationsWithinTheLimitAreGrantedAtOnce) {
  MemoryBudget budget(100);
  Account a(&budget);
  Account b(&budget);
  EXPECT_TRUE(a.Reserve(60, [] { FAIL() << "not queued"; }));
  EXPECT_TRUE(b.Reserve(40, [] { FAIL() << "not queued"; }));
  EXPECT_TRUE(a.Reserve(50, [] { FAIL() << "already held"; }));  // balance is 60 already
  EXPECT_EQ(budget.used(), 100u);
  EXPECT_EQ(a.balance(), 60u);
  a.Set(10);
  EXPECT_EQ(budget.used(), 50u);
  EXPECT_EQ(budget.high_water(), 100u);
}

TEST(MemoryBudgetTest, WaitsAreGrantedInOrderAsMemoryIsReleased) {
  MemoryBudget budget(100);
  Account holder(&budget);
  Account first(&budget);
  Account second(&budget);
  ASSERT_TRUE(holder.Reserve(90, [] {}));
  std::vector<std::string> granted;
  EXPECT_FALSE(first.Reserve(50, [&] { granted.push_back("first"); }));
  // Fits, but queued behind `first`: a large reservation is not starved by small ones.
  EXPECT_FALSE(second.Reserve(5, [&] { granted.push_back("second"); }));
  EXPECT_EQ(budget.waiting(), 2u);
  holder.Set(60);
  EXPECT_TRUE(granted.empty());
  holder.Set(40);
  EXPECT_EQ(granted, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(first.balance(), 50u);
  EXPECT_EQ(second.balance(), 5u);
  EXPECT_EQ(budget.used(), 95u);
  EXPECT_LE(budget.high_water(), budget.limit());
}

TEST(MemoryBudgetTest, ARequestLargerThanTheBudgetGoesThroughAlone) {
  MemoryBudget budget(100);
  Account big(&budget);
  Account other(&budget);
  ASSERT_TRUE(big.Reserve(30, [] {}));  // what it already buffered counts as its own
  ASSERT_TRUE(other.Reserve(10, [] {}));
  bool granted = false;
  EXPECT_FALSE(big.Reserve(250, [&] { granted = true; }));
  other.Set(0);
  EXPECT_TRUE(granted);
  EXPECT_EQ(budget.used(), 250u);
  // Alone, the next one is granted at once too.
  EXPECT_TRUE(big.Reserve(300, [] {}));
}

TEST(MemoryBudgetTest, MemoryAlreadyHeldIsRecordedAboveTheLimitAndBlocksReservations) {
  MemoryBudget budget(100);
  Account producer(&budget);
  Account reader(&budget);
  producer.Set(150);
  EXPECT_EQ(budget.used(), 150u);
  EXPECT_EQ(budget.high_water(), 150u);
  bool granted = false;
  EXPECT_FALSE(reader.Reserve(10, [&] { granted = true; }));
  producer.Set(95);  // 95 + 10 still does not fit
  EXPECT_FALSE(granted);
  producer.Set(90);
  EXPECT_TRUE(granted);
}

TEST(MemoryBudgetTest, CancelledAndDestroyedWaitersAreNeverCalledAndUnblockOthers) {
  MemoryBudget budget(100);
  Account holder(&budget);
  ASSERT_TRUE(holder.Reserve(80, [] {}));
  bool small_granted = false;
  Account small(&budget);
  {
    Account big(&budget);
    EXPECT_FALSE(big.Reserve(90, [] { FAIL() << "destroyed before the grant"; }));
    EXPECT_FALSE(small.Reserve(10, [&] { small_granted = true; }));
  }
  // The big waiter at the head went away: the small one behind it fits and is granted.
  EXPECT_TRUE(small_granted);
  Account cancelled(&budget);
  EXPECT_FALSE(cancelled.Reserve(50, [] { FAIL() << "cancelled"; }));
  cancelled.CancelWait();
  holder.Set(0);
  EXPECT_EQ(budget.waiting(), 0u);
  EXPECT_EQ(budget.used(), 10u);
}

TEST(MemoryBudgetTest, ARequeuedReservationKeepsItsPlaceWithItsNewSize) {
  MemoryBudget budget(100);
  Account holder(&budget);
  ASSERT_TRUE(holder.Reserve(100, [] {}));
  Account a(&budget);
  Account b(&budget);
  int a_grants = 0;
  bool b_granted = false;
  EXPECT_FALSE(a.Reserve(40, [&] { ++a_grants; }));
  EXPECT_FALSE(b.Reserve(20, [&] { b_granted = true; }));
  EXPECT_FALSE(a.Reserve(70, [&] { a_grants += 10; }));
  EXPECT_EQ(budget.waiting(), 2u);
  holder.Set(50);  // 50 free: `a` (now 70) still does not fit and `b` waits behind it
  EXPECT_EQ(a_grants, 0);
  EXPECT_FALSE(b_granted);
  holder.Set(0);
  EXPECT_EQ(a_grants, 10);
  EXPECT_TRUE(b_granted);
}

}  // namespace
}  // namespace server
