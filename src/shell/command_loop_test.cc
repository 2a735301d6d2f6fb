#include "shell/command_loop.h"

#include <gtest/gtest.h>

namespace shell {
namespace {

TEST(HistoryEntryTest, KeepsOrdinaryLines) {
  EXPECT_EQ(HistoryEntry("", "SELECT * FROM t;"), "SELECT * FROM t;");
  EXPECT_EQ(HistoryEntry("SELECT *\n", "FROM t;"), "FROM t;");
  // The word alone, or as part of a longer name, holds no password.
  EXPECT_EQ(HistoryEntry("", "SELECT password FROM creds;"), "SELECT password FROM creds;");
  EXPECT_EQ(HistoryEntry("", "UPDATE t SET my_password = 'x';"), "UPDATE t SET my_password = 'x';");
  EXPECT_EQ(HistoryEntry("", "CREATE ROLE r WITH PASSWORD ="), "CREATE ROLE r WITH PASSWORD =");
}

TEST(HistoryEntryTest, LoginLosesItsPassword) {
  EXPECT_EQ(HistoryEntry("", "LOGIN bob 'secret'"), "LOGIN bob");
  EXPECT_EQ(HistoryEntry("", "  login bob secret;"), "login bob");
  EXPECT_EQ(HistoryEntry("", "LOGIN bob 'two words'"), "LOGIN bob");
  EXPECT_EQ(HistoryEntry("", "LOGIN bob"), "LOGIN bob");
}

TEST(HistoryEntryTest, SkipsLinesWithPasswordLiterals) {
  EXPECT_EQ(HistoryEntry("", "CREATE ROLE r WITH PASSWORD = 'secret' AND LOGIN = true;"),
            std::nullopt);
  EXPECT_EQ(HistoryEntry("", "alter user r with password 'it''s';"), std::nullopt);
  EXPECT_EQ(HistoryEntry("", "ALTER ROLE r WITH PASSWORD=$$secret$$;"), std::nullopt);
  EXPECT_EQ(HistoryEntry("", "CREATE ROLE r WITH HASHED PASSWORD = '$2a$10$abc';"), std::nullopt);
  // The literal on the next line, or spanning lines.
  EXPECT_EQ(HistoryEntry("ALTER ROLE r WITH PASSWORD =\n", "  'secret';"), std::nullopt);
  EXPECT_EQ(HistoryEntry("ALTER ROLE r WITH PASSWORD = 'multi\n", "line';"), std::nullopt);
  // A later line after the literal ended is kept.
  EXPECT_EQ(HistoryEntry("CREATE ROLE r WITH PASSWORD = 'x'\n", "AND LOGIN = true;"),
            "AND LOGIN = true;");
}

}  // namespace
}  // namespace shell
