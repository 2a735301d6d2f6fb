// Staff accounts (docs/security.md; the bcrypt hashes are common/password_hash_test.cc's): the
// rules for names and passwords, adding, changing and removing accounts, and the same bcrypt work
// for a user who does not exist. The sessions and logins built on them are staff_auth_test.cc's;
// the HTTP side HttpApiTest's.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "hotel/hotel_testing.h"
#include "hotel/staff_accounts.h"

namespace hotel {
namespace {

TEST(StaffAccountRulesTest, NameAndPasswordRules) {
  EXPECT_EQ(*NormalizeUsername("Front.Desk-2@Paris_1"), "front.desk-2@paris_1");
  EXPECT_FALSE(NormalizeUsername("").ok());
  EXPECT_FALSE(NormalizeUsername("front desk").ok());
  EXPECT_FALSE(NormalizeUsername("é").ok());
  EXPECT_FALSE(NormalizeUsername(std::string(65, 'a')).ok());
  EXPECT_TRUE(CheckNewPassword("12345678").ok());
  EXPECT_FALSE(CheckNewPassword("1234567").ok());
  EXPECT_TRUE(CheckNewPassword(std::string(72, 'p')).ok());
  EXPECT_FALSE(CheckNewPassword(std::string(73, 'p')).ok()) << "bcrypt would ignore byte 73";
  EXPECT_FALSE(CheckNewPassword(std::string("abc\0defgh", 9)).ok());
}

class StaffAccountsTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    if (HasFatalFailure()) return;
    SetUpStaff(/*add_account=*/false);
  }
};

TEST_F(StaffAccountsTest, AddChangeAndRemove) {
  ASSERT_TRUE(accounts_->Add("Ana", "first password").ok());
  EXPECT_EQ(accounts_->Add("ana", "another password").code(), common::StatusCode::kAlreadyExists);
  EXPECT_EQ(accounts_->Add("bob", "short").code(), common::StatusCode::kInvalid);
  auto checked = accounts_->Check("ANA", "first password");
  ASSERT_TRUE(checked.ok());
  ASSERT_TRUE(checked->has_value());
  EXPECT_EQ(checked->value().rfind("$2b$04$", 0), 0u) << "only the hash is stored";
  EXPECT_FALSE(accounts_->Check("ana", "wrong password")->has_value());

  ASSERT_TRUE(accounts_->SetPassword("ana", "second password").ok());
  EXPECT_FALSE(accounts_->Check("ana", "first password")->has_value());
  EXPECT_TRUE(accounts_->Check("ana", "second password")->has_value());
  EXPECT_EQ(accounts_->SetPassword("nobody", "second password").code(),
            common::StatusCode::kNotFound);

  ASSERT_TRUE(accounts_->Add("bob", "bob's password").ok());
  auto names = accounts_->List();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(std::set<std::string>(names->begin(), names->end()),
            (std::set<std::string>{"ana", "bob"}));
  ASSERT_TRUE(accounts_->Remove("ana").ok());
  EXPECT_EQ(accounts_->Remove("ana").code(), common::StatusCode::kNotFound);
  EXPECT_FALSE(accounts_->Check("ana", "second password")->has_value());
  EXPECT_FALSE(accounts_->CurrentHash("ana")->has_value());
}

// A failed login does one bcrypt check whether or not the user exists (a dummy hash stands in),
// so its time does not tell which usernames are real.
TEST_F(StaffAccountsTest, EveryCheckDoesTheBcryptWork) {
  ASSERT_TRUE(accounts_->Add("ana", "first password").ok());
  uint64_t before = accounts_->password_checks();
  EXPECT_FALSE(accounts_->Check("ana", "wrong password")->has_value());
  EXPECT_FALSE(accounts_->Check("nobody", "wrong password")->has_value());
  EXPECT_FALSE(accounts_->Check("not a valid name!", "wrong password")->has_value());
  EXPECT_FALSE(accounts_->Check("ana", std::string(100, 'x'))->has_value());
  EXPECT_EQ(accounts_->password_checks(), before + 4);
}

}  // namespace
}  // namespace hotel
