// A scripted `cql::Session` for the tests of what `cqlmodel` asks a live server
// (partition_measure_test.cc, schema_model_test.cc): no server, no driver.
//
// Thread-safety: none; one test thread.

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cql/session.h"

namespace model::testing {

// A session that answers the n-th query with the n-th page; a page followed by its table's next
// page carries a paging state, which the next query must send back. Records the queries.
class PagedSession : public cql::Session {
 public:
  struct Answer {
    cql::ResultSet page;
    bool more = false;  // the next answer continues this table
  };
  explicit PagedSession(std::vector<Answer> answers) : answers_(std::move(answers)) {}

  common::Result<cql::ResultSet> Execute(std::string_view query,
                                         const cql::QueryOptions& options) override {
    queries_.emplace_back(query);
    bool continues = next_ > 0 && answers_[next_ - 1].more;
    if (options.paging_state.has_value() != continues) {
      return common::Status::Invalid("wrong paging state");
    }
    if (next_ >= answers_.size()) return common::Status::Invalid("unexpected page");
    cql::ResultSet page = answers_[next_].page;
    if (answers_[next_].more) page.set_paging_state("more");
    ++next_;
    return page;
  }
  common::Result<std::shared_ptr<const cql::PreparedMetadata>> Prepare(std::string_view) override {
    return common::Status::Invalid("not used");
  }
  common::Result<cql::ResultSet> ExecutePrepared(const cql::PreparedMetadata&,
                                                 const cql::QueryOptions&) override {
    return common::Status::Invalid("not used");
  }
  common::Result<cql::ResultSet> ExecuteBatch(const cql::BatchRequest&) override {
    return common::Status::Invalid("not used");
  }
  std::string keyspace() const override { return ""; }

  const std::vector<std::string>& queries() const { return queries_; }

 private:
  std::vector<Answer> answers_;
  size_t next_ = 0;
  std::vector<std::string> queries_;
};

}  // namespace model::testing
