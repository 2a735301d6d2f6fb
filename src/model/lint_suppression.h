// Suppressions for `cqlmodel lint` (docs/cqlmodel.md, "Accepting a finding"): a design choice
// the rules flag but the schema's author made on purpose is accepted in the schema itself, next
// to the table, with the reason, the way linters of other languages take inline directives:
//
//   -- cqlmodel: allow key-uniqueness POIs are keyed by name on purpose: ...
//   CREATE TABLE hotel.pois_by_hotel (...);
//
// A `cqlmodel: allow RULE REASON` line comment (`--` or `//`) belongs to the statement it is
// written in or directly above: the comments after the previous statement's `;` up to this
// statement's `;`. That statement must be a CREATE TABLE, CREATE MATERIALIZED VIEW or CREATE
// INDEX (whose findings are its table's); the suppression covers that table's findings of RULE.
// `--allow RULE[:TABLE]` on the command line does the same without editing the schema. The
// suppressed findings are still reported, apart, and do not set the exit status; a comment that
// matches no finding is reported as unused, so stale ones are noticed.
//
// Thread-safety: pure functions over plain data.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/lint.h"

namespace model {

// The `cqlmodel: allow` comments of a schema's CQL text; `file` names it in each origin
// ("FILE:LINE"). Unqualified table names take the keyspace of the last `USE`. Fails with Invalid
// ("FILE:LINE: ...") on an unknown rule, a missing reason, a malformed directive, or one that is
// not in or above a CREATE TABLE, MATERIALIZED VIEW or INDEX statement.
common::Result<std::vector<Suppression>> ReadSuppressions(std::string_view cql_text,
                                                          const std::string& file);

// `--allow RULE` (every object) or `--allow RULE:TABLE` (`table` or `keyspace.table`). Invalid
// on an unknown rule.
common::Result<Suppression> ParseAllowFlag(const std::string& text);

// Splits `findings` into those in force and those a suppression matches (the first that does),
// and lists the suppressions written in the schema (not `--allow`) that matched none.
LintReport ApplySuppressions(std::vector<Finding> findings,
                             const std::vector<Suppression>& suppressions);

}  // namespace model
