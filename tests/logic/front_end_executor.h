// FrontEndExecutor: runs logic tests against the CQL front end alone (no database).
//
// Statements are parsed; `CREATE TYPE` statements are remembered so that `value` records can
// use the user-defined types a file created. Literals are evaluated by `cql/parser/literal.h` and
// printed by `cql/types/value_format.h`. Queries need an engine: this executor does not support the
// "engine" feature, so files that `require engine` are skipped.
//
// Thread-safety: not thread-safe.

#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cql/types/types.h"
#include "tests/logic/logic_test_runner.h"

namespace logic_test {

class FrontEndExecutor : public Executor {
 public:
  bool Supports(std::string_view feature) const override;
  common::Status Execute(std::string_view statement, const RunOptions& options) override;
  common::Result<std::vector<std::vector<std::string>>> Query(std::string_view statement,
                                                              const RunOptions& options) override;
  common::Result<std::string> Value(std::string_view type, std::string_view literal) override;
  common::Status CheckRoundTrip(std::string_view statement) override;

 private:
  // Replaces UDT references in `type` by the types created so far (by name; the keyspace of
  // the reference is used when it has one).
  common::Result<cql::CqlType> Resolve(const cql::CqlType& type, int depth) const;

  struct UserType {
    std::string keyspace;
    std::vector<std::string> field_names;
    std::vector<cql::CqlType> field_types;
  };
  std::multimap<std::string, UserType> types_;  // by type name
};

}  // namespace logic_test
