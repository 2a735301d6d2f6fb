// Every error that quotes user input is valid UTF-8, whatever the input: multi-byte text in
// literals, JSON, identifiers and statement text, and ill-formed bytes in bound values. A
// message with a broken character makes drivers drop the connection.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/utf8.h"
#include "engine/session_testing.h"

namespace engine::testing {
namespace {

class ErrorTextTest : public SessionTest {
 protected:
  void ExpectValidError(const std::string& statement, const cql::QueryOptions& options = {}) {
    auto result = session_->Execute(statement, options);
    ASSERT_FALSE(result.ok()) << statement;
    EXPECT_TRUE(common::IsValidUtf8(result.status().message()))
        << statement << " -> " << result.status().message();
  }
};

TEST_F(ErrorTextTest, MultiByteInputInEveryKindOfError) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, a ascii, t text, i int, tu frozen<tuple<int, text>>, "
      "m map<int, text>)");
  Run("INSERT INTO ks.t (k) VALUES (0)");
  // Each Greek letter is two bytes: cutting the text at any byte count may split one.
  std::string greek;
  for (int i = 0; i < 40; ++i) greek += "\xCE\x8E\xCE\x94\xCE\xB4\xCF\xA0";
  std::vector<std::string> statements = {
      "INSERT INTO ks.t (k, a) VALUES (1, fromJson('" + greek + "'))",
      "INSERT INTO ks.t (k, a) VALUES (1, fromJson('\"" + greek + "\"'))",
      "INSERT INTO ks.t (k, a) VALUES (1, '" + greek + "')",
      "INSERT INTO ks.t (k, i) VALUES (1, '" + greek + "')",
      "INSERT INTO ks.t (k, tu) VALUES (1, '" + greek + "')",
      "INSERT INTO ks.t (k, m) VALUES (1, {1: 2, '" + greek + "': 'x'})",
      "INSERT INTO ks.t JSON '{\"k\": 1, \"" + greek + "\": 2}'",
      "INSERT INTO ks.t JSON '{\"k\": 1, \"a\": \"" + greek + "\"}'",
      "INSERT INTO ks.t JSON '" + greek + "'",
      "SELECT \"" + greek + "\" FROM ks.t",
      "SELECT * FROM ks.t WHERE \"" + greek + "\" = 1",
      "SELECT * FROM ks.\"" + greek + "\"",
      "UPDATE ks.t SET t = '" + greek + "' WHERE k = '" + greek + "'",
      "CREATE FUNCTION ks.f (a text) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE java AS '" +
          greek + "'",
      "CREATE AGGREGATE ks.g (int) SFUNC f STYPE int INITCOND '" + greek + "'",
      "DROP FUNCTION ks.f",
      "SELECT blobAsInt(textAsBlob('" + greek + "')) FROM ks.t",
      "SELECT " + greek + " FROM ks.t",
  };
  for (const std::string& statement : statements) ExpectValidError(statement);
}

TEST_F(ErrorTextTest, IllFormedBoundBytes) {
  Run("CREATE TABLE ks.b (k int PRIMARY KEY, a ascii, t text)");
  for (const std::string column : {"a", "t"}) {
    cql::QueryOptions options;
    options.values = {cql::BoundValue::Of("\xCE"), cql::BoundValue::Of("\xFF\xFE\xCE\x8E\xE2\x82")};
    ExpectValidError("INSERT INTO ks.b (k, " + column + ") VALUES (1, ?)", options);
    options.values = {cql::BoundValue::Of(std::string("\x00\x00\x00\x01", 4)),
                      cql::BoundValue::Of("\xFF\xCE")};
    ExpectValidError("INSERT INTO ks.b (k, " + column + ") VALUES (?, fromJson(?))", options);
  }
}

}  // namespace
}  // namespace engine::testing
