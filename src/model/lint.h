// `cqlmodel lint` (docs/cqlmodel.md, "lint"): the seeds' review of a design as rules over the
// schema model (schema_model.h) and, when given, the application's queries. Each finding names
// its rule, a severity, the reasoning (the seeds' or Cassandra's) and a fix.
//
// The rules read names and types the way a reviewer does (`pois_by_hotel` holds pois, `poi_id`
// identifies one, `poi_name` only names it), so they are heuristics: every rule can be turned off
// by id (`--disable`). docs/cqlmodel.md lists them with an example each.
//
// Thread-safety: pure functions over plain data.

#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement.h"
#include "model/schema_model.h"

namespace model {

enum class Severity { kInfo, kWarning, kError };

struct Finding {
  std::string rule;  // e.g. "key-uniqueness"
  Severity severity = Severity::kWarning;
  std::string object;   // "keyspace.table", or the query's CQL
  std::string message;  // what is wrong and why
  std::string fix;      // what to do instead
};

// One query of the application: a SELECT from the queries file.
struct Query {
  cql::Select select;
  std::string text;  // canonical CQL of the statement
};

// The rule ids, in the order findings are reported for one object.
const std::vector<std::string>& LintRules();

// Reads the SELECT statements of a CQL file (others are skipped). Fails with the parser's
// SyntaxError, or IOError when the file cannot be read.
common::Result<std::vector<Query>> LoadQueriesFile(const std::string& path);
common::Result<std::vector<Query>> LoadQueries(std::string_view cql_text);

// All findings for the tables of `keyspace` (all keyspaces when empty) and for `queries`, minus
// the rules in `disabled`: schema findings in table order, then query findings in query order.
std::vector<Finding> Lint(const SchemaModel& schema, const std::vector<Query>& queries,
                          const std::string& keyspace,
                          const std::vector<std::string>& disabled = {});

// Whether a finding has severity error (`cqlmodel lint` then exits 1).
bool HasErrors(const std::vector<Finding>& findings);

// The findings as text, one block each, with a closing count; or as a JSON array.
std::string FormatFindings(const std::vector<Finding>& findings);
std::string FindingsJson(const std::vector<Finding>& findings);

}  // namespace model
