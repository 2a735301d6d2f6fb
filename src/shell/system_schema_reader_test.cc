#include "shell/system_schema_reader.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/database.h"
#include "shell/captured_stream.h"
#include "shell/command_loop.h"
#include "shell/session_shell.h"

namespace shell {
namespace {

// The rows of `result` as text, one line per row.
std::string Dump(const cql::ResultSet& result) {
  std::string out;
  for (size_t r = 0; r < result.row_count(); ++r) {
    for (size_t c = 0; c < result.column_count(); ++c) {
      std::optional<std::string_view> cell = result.Value(r, c);
      out += cell ? std::string(*cell) : "<null>";
      out += " | ";
    }
    out += "\n";
  }
  return out;
}

// Client-side DESCRIBE (from system_schema rows) gives exactly what the engine's server-side
// DESCRIBE gives, on the seeds' schema with the materialized view, an index and options.
class SystemSchemaReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "cql-describe-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    auto database = engine::Database::Open(directory_, engine::DatabaseOptions());
    ASSERT_TRUE(database.ok()) << database.status().ToString();
    database_ = std::move(database).value();
    session_ = database_->NewSession();
    CapturedStream out;
    CapturedStream err;
    SessionShell shell(session_.get(), out.file(), err.file());
    for (std::string seed : {"003_hotel.cql", "003_reservation_with_view.cql"}) {
      auto script = ReadScriptFile(std::string(CQLD_TEST_DATA_DIR) + "/seeds/" + seed);
      ASSERT_TRUE(script.ok()) << script.status().ToString();
      ASSERT_EQ(shell.RunScript(*script, seed), 0) << err.Take();
    }
    ASSERT_EQ(
        shell.RunScript("CREATE INDEX guests_by_email ON reservation.guests (emails);\n"
                        "CREATE TABLE hotel.\"Odd\" (k int, c int, s int static, v map<text, int>, "
                        "PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC) AND "
                        "gc_grace_seconds = 10 AND default_time_to_live = 60 AND "
                        "compaction = {'class': 'LeveledCompactionStrategy'} AND "
                        "bloom_filter_fp_chance = 0.1 AND caching = {'keys': 'NONE'};\n",
                        "extra.cql"),
        0)
        << err.Take();
  }
  void TearDown() override {
    session_.reset();
    database_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<cql::Session> session_;
};

TEST_F(SystemSchemaReaderTest, MatchesServerSideDescribe) {
  for (std::string statement :
       {"DESCRIBE SCHEMA", "DESCRIBE KEYSPACES", "DESCRIBE TABLES", "DESCRIBE TYPES",
        "DESCRIBE KEYSPACE reservation", "DESCRIBE TABLE hotel.\"Odd\"",
        "DESCRIBE TABLE reservation.guests", "DESCRIBE TYPE reservation.address",
        "DESCRIBE INDEX reservation.guests_by_email",
        "DESCRIBE MATERIALIZED VIEW reservation.reservations_by_confirmation",
        "DESCRIBE reservation.reservations_by_hotel_date", "DESCRIBE CLUSTER"}) {
    auto server = session_->Execute(statement);
    ASSERT_TRUE(server.ok()) << statement << ": " << server.status().ToString();
    auto client = DescribeFromSystemSchema(*session_, statement, "");
    ASSERT_TRUE(client.ok()) << statement << ": " << client.status().ToString();
    EXPECT_EQ(Dump(*client), Dump(*server)) << statement;
    EXPECT_GT(client->row_count(), 0u) << statement;
  }
}

TEST_F(SystemSchemaReaderTest, ErrorsAsTheServerGivesThem) {
  auto missing = DescribeFromSystemSchema(*session_, "DESCRIBE TABLE hotel.nope", "");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "Table 'nope' not found in keyspace 'hotel'");
  auto syntax = DescribeFromSystemSchema(*session_, "DESCRIBE TABL x", "");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.status().code(), common::StatusCode::kSyntaxError);
}

}  // namespace
}  // namespace shell
