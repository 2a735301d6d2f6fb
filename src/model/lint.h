// `cqlmodel lint` (docs/cqlmodel.md, "lint"): the seeds' review of a design as rules over the
// schema model (schema_model.h) and, when given, the application's queries. Each finding names
// its rule, a severity, the reasoning (the seeds' or Cassandra's) and a fix.
//
// The rules read names and types the way a reviewer does (`pois_by_hotel` holds pois, `poi_id`
// identifies one, `poi_name` only names it), so they are heuristics: every rule can be turned off
// by id (`--disable`), and one finding accepted with its reason (`Suppression`, read from the
// schema's comments by lint_suppression.h). docs/cqlmodel.md lists them with an example each.
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

// A finding the schema's author accepts, with the reason: a `-- cqlmodel: allow RULE REASON`
// comment in the CREATE statement of the object (lint_suppression.h), or `--allow RULE[:TABLE]`.
struct Suppression {
  std::string rule;
  std::string object;  // "keyspace.table"; "" for every object; a bare "table" any keyspace's
  std::string reason;
  std::string origin;  // where it was written: "FILE:LINE", or "--allow"
};

struct SuppressedFinding {
  Finding finding;
  Suppression by;
};

// What `cqlmodel lint` reports: the findings in force, the suppressed ones apart (they do not set
// the exit status), and the suppression comments that matched no finding (stale).
struct LintReport {
  std::vector<Finding> findings;
  std::vector<SuppressedFinding> suppressed;
  std::vector<Suppression> unused;
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

// The report as text: the findings as FormatFindings prints them, then the suppressed findings
// (each with its reason and origin) and the unused suppressions, and the closing count (which
// adds "N suppressed" when there are some). As JSON: an object {"findings": [...],
// "suppressed": [{...finding, "reason", "allowed_at"}], "unused_suppressions": [{rule, object,
// reason, allowed_at}]}.
std::string FormatLintReport(const LintReport& report);
std::string LintReportJson(const LintReport& report);

}  // namespace model
