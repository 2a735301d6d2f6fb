// Staff sessions and logins (docs/security.md): session expiry and the bound on their number,
// the back-off after failed logins, the limit on concurrent password checks, and sessions that
// end when their account changes. The accounts are staff_accounts_test.cc's; the HTTP side
// (cookies, 401, 429) HttpApiTest's.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "hotel/hotel_testing.h"
#include "hotel/login_throttle.h"
#include "hotel/session_store.h"
#include "hotel/staff_auth.h"

namespace hotel {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

TEST(SessionStoreTest, SessionsEndWhenIdleOrOld) {
  SessionOptions options;
  options.idle_timeout = seconds(100);
  options.lifetime = seconds(250);
  SessionStore store(options);
  Clock::time_point start = Clock::now();
  auto token = store.Create("ana", "hash", start);
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(token->size(), 64u);
  EXPECT_NE(*store.Create("ana", "hash", start), *token) << "tokens are random";

  auto session = store.Use(*token, start + seconds(99));
  ASSERT_TRUE(session.has_value());
  EXPECT_EQ(session->username, "ana");
  EXPECT_EQ(session->remaining_lifetime, seconds(151));
  // Used every 99 s, it lives until its lifetime ends.
  EXPECT_TRUE(store.Use(*token, start + seconds(198)).has_value());
  EXPECT_FALSE(store.Use(*token, start + seconds(250)).has_value());
  EXPECT_FALSE(store.Use(*token, start + seconds(1)).has_value()) << "forgotten";

  auto idle = store.Create("bob", "hash", start);
  EXPECT_FALSE(store.Use(*idle, start + seconds(100)).has_value());
  auto removed = store.Create("bob", "hash", start);
  store.Remove(*removed);
  EXPECT_FALSE(store.Use(*removed, start).has_value());
  EXPECT_FALSE(store.Use("not a token", start).has_value());
  EXPECT_FALSE(store.Use(std::string(64, '0'), start).has_value());
}

TEST(SessionStoreTest, AtMostMaxSessionsTheLeastRecentlyUsedGoes) {
  SessionOptions options;
  options.max_sessions = 3;
  SessionStore store(options);
  Clock::time_point start = Clock::now();
  std::string a = *store.Create("a", "h", start);
  std::string b = *store.Create("b", "h", start + seconds(1));
  std::string c = *store.Create("c", "h", start + seconds(2));
  ASSERT_TRUE(store.Use(a, start + seconds(3)).has_value());
  std::string d = *store.Create("d", "h", start + seconds(4));
  EXPECT_EQ(store.size(), 3u);
  EXPECT_FALSE(store.Use(b, start + seconds(5)).has_value()) << "least recently used";
  EXPECT_TRUE(store.Use(a, start + seconds(5)).has_value());
  EXPECT_TRUE(store.Use(c, start + seconds(5)).has_value());
  EXPECT_TRUE(store.Use(d, start + seconds(5)).has_value());
}

TEST(LoginThrottleTest, BacksOffPerAddressAndPerUsername) {
  LoginThrottle throttle;
  Clock::time_point now = Clock::now();
  for (int i = 0; i < 4; ++i) throttle.Failed("10.0.0.1", "ana", now);
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(0)) << "four failures are free";
  throttle.Failed("10.0.0.1", "ana", now);
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(1));
  EXPECT_EQ(throttle.Wait("10.0.0.2", "ana", now), seconds(1)) << "the username is counted";
  EXPECT_EQ(throttle.Wait("10.0.0.1", "bob", now), seconds(1)) << "the address is counted";
  EXPECT_EQ(throttle.Wait("10.0.0.2", "bob", now), seconds(0));
  now += seconds(1);
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(0));
  throttle.Failed("10.0.0.1", "ana", now);
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(2));
  for (int i = 0; i < 20; ++i) throttle.Failed("10.0.0.1", "ana", now);
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(15 * 60)) << "capped";
  throttle.Succeeded("10.0.0.1", "ana");
  EXPECT_EQ(throttle.Wait("10.0.0.1", "ana", now), seconds(0));

  // A count that stops growing is forgotten after forget_after.
  for (int i = 0; i < 4; ++i) throttle.Failed("10.0.0.3", "", now);
  now += seconds(15 * 60);
  throttle.Failed("10.0.0.3", "", now);
  EXPECT_EQ(throttle.Wait("10.0.0.3", "", now), seconds(0));
}

TEST(LoginThrottleTest, TablesAreBounded) {
  LoginThrottleOptions options;
  options.max_entries = 2;
  options.free_failures = 1;
  options.first_wait = seconds(10);
  LoginThrottle throttle(options);
  Clock::time_point now = Clock::now();
  throttle.Failed("a", "", now);
  throttle.Failed("b", "", now + seconds(1));
  throttle.Failed("c", "", now + seconds(2));  // "a" failed longest ago: it goes
  EXPECT_EQ(throttle.Wait("a", "", now + seconds(2)), seconds(0));
  EXPECT_GT(throttle.Wait("b", "", now + seconds(2)), seconds(0));
  EXPECT_GT(throttle.Wait("c", "", now + seconds(2)), seconds(0));
}

// Logins need an account: SetUpStaff in each test, with the options it needs.
class StaffAuthTest : public HotelTest {};

// `hotel users passwd` or `remove` (possibly in another process) ends the account's sessions at
// their next recheck.
TEST_F(StaffAuthTest, SessionsEndWhenTheirAccountChanges) {
  StaffAuthOptions options;
  options.sessions.recheck_interval = seconds(0);
  SetUpStaff(/*add_account=*/true, options);
  std::string token = StaffToken();
  auto session = auth_->Authenticate(token);
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE(session->has_value());
  EXPECT_EQ(session->value().username, kStaffUser);

  ASSERT_TRUE(accounts_->SetPassword(kStaffUser, "a new password").ok());
  EXPECT_FALSE(auth_->Authenticate(token)->has_value());
  auto again = auth_->Login("192.0.2.1", kStaffUser, "a new password");
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(auth_->Authenticate(again->token)->has_value());
  ASSERT_TRUE(accounts_->Remove(kStaffUser).ok());
  EXPECT_FALSE(auth_->Authenticate(again->token)->has_value());
  EXPECT_EQ(auth_->Login("192.0.2.1", kStaffUser, "a new password").status().code(),
            common::StatusCode::kAuthenticationError);
}

TEST_F(StaffAuthTest, LoginsBeyondTheConcurrentChecksAreRefused) {
  StaffAuthOptions options;
  options.max_concurrent_checks = 0;
  SetUpStaff(/*add_account=*/true, options);
  auto refused = auth_->Login("192.0.2.1", kStaffUser, kStaffPassword);
  EXPECT_EQ(refused.status().code(), common::StatusCode::kOverloaded);
  EXPECT_EQ(auth_->RetryAfter("192.0.2.1", kStaffUser), seconds(0)) << "not counted as a failure";
}

}  // namespace
}  // namespace hotel
