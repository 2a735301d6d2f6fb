// A test fixture for engine tests that run CQL through an in-process session: a Database in a
// fresh temporary directory (removed afterwards) with keyspace `ks`, and helpers to run
// statements and to fetch every page of a query. Header-only, for *_test.cc files.
//
// Thread-safety: as a GoogleTest fixture, used by one test thread.

#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "engine/database.h"

namespace engine::testing {

// Result rows as raw cell bytes (nullopt for null), in result order.
using Rows = std::vector<std::vector<std::optional<std::string>>>;

// `query` paged with `page_size` returns a paging state, and every single-byte corruption
// of it, and its first half alone, make the next page fail with Invalid.
inline void ExpectTamperedPagingStatesRejected(cql::Session* session, const std::string& query,
                                               int page_size) {
  cql::QueryOptions options;
  options.page_size = page_size;
  auto first = session->Execute(query, options);
  ASSERT_TRUE(first.ok()) << query << ": " << first.status().ToString();
  ASSERT_TRUE(first->paging_state()) << query;
  common::Bytes state = *first->paging_state();
  for (size_t i = 0; i < state.size(); ++i) {
    common::Bytes bad = state;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    options.paging_state = bad;
    auto result = session->Execute(query, options);
    ASSERT_FALSE(result.ok()) << query << " byte " << i;
    EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid);
  }
  options.paging_state = state.substr(0, state.size() / 2);
  auto truncated = session->Execute(query, options);
  ASSERT_FALSE(truncated.ok()) << query;
  EXPECT_EQ(truncated.status().code(), common::StatusCode::kInvalid);
}

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-session-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    auto db = Database::Open(directory_, options_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = db_->NewSession();
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
  }
  void TearDown() override {
    session_.reset();
    db_.reset();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  void Run(std::string_view query) {
    auto result = session_->Execute(query);
    ASSERT_TRUE(result.ok()) << query << ": " << result.status().ToString();
  }
  cql::ResultSet Query(const std::string& query, const cql::QueryOptions& options = {}) {
    auto result = session_->Execute(query, options);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    return result.ok() ? std::move(result).value() : cql::ResultSet();
  }

  static void Append(const cql::ResultSet& result, Rows* rows) {
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::vector<std::optional<std::string>> row;
      for (size_t c = 0; c < result.column_count(); ++c) {
        std::optional<std::string_view> value = result.Value(r, c);
        row.push_back(value ? std::optional<std::string>(std::string(*value)) : std::nullopt);
      }
      rows->push_back(std::move(row));
    }
  }

  // All rows of `query`, fetched in pages of `page_size` (0: unpaged, and then no paging state
  // may come back). No page may exceed the page size; with `full_pages`, every page that
  // returns a paging state must be full.
  Rows Fetch(const std::string& query, int page_size, bool full_pages = false) {
    cql::QueryOptions options;
    options.page_size = page_size;
    Rows rows;
    for (int pages = 0; pages < 10000; ++pages) {
      auto result = session_->Execute(query, options);
      EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
      if (!result.ok()) break;
      if (page_size > 0) {
        EXPECT_LE(static_cast<int>(result->row_count()), page_size) << query;
        if (full_pages && result->paging_state()) {
          EXPECT_EQ(static_cast<int>(result->row_count()), page_size) << query;
        }
      } else {
        EXPECT_FALSE(result->paging_state()) << query;
      }
      Append(*result, &rows);
      if (!result->paging_state()) break;
      options.paging_state = result->paging_state();
    }
    return rows;
  }

  void ExpectTamperedPagingStatesRejected(const std::string& query, int page_size) {
    testing::ExpectTamperedPagingStatesRejected(session_.get(), query, page_size);
  }

  DatabaseOptions options_;  // a derived fixture's constructor may change them (e.g. the clock)
  std::string directory_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<cql::Session> session_;
};

}  // namespace engine::testing
