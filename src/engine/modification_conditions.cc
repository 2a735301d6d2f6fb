// ModificationStatement's conditions (lightweight transactions): reading the current row under
// the partition lock, evaluating `IF` conditions and reporting `[applied]` with the current
// values as Cassandra does. The rest of the statement is in modification_statement.cc
// (execution) and modification_prepare.cc (binding).

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/modification_internal.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using cql::CqlType;
using cql::Operator;
using cql::TypeKind;

namespace {

// Reads the current row (or the static row when `clustering` is empty and the table has
// clustering columns) for read-before-write operations and conditions.
Result<std::optional<RowData>> ReadCurrentRow(const ExecutionContext& context,
                                              const TableSchema& table,
                                              const PartitionKey& partition,
                                              const std::vector<Bytes>& clustering) {
  RowReader reader(context.store, &table, context.NowSeconds());
  std::vector<KeyInterval> intervals;
  PartitionReadOptions options;
  if (!clustering.empty() || table.clustering.empty()) {
    Bytes key = storage::RowKey(table.shape, partition.prefix, clustering);
    Bytes end = key;
    end.push_back('\0');
    intervals.push_back(KeyInterval{std::move(key), std::move(end)});
  } else {
    options.static_only_when_empty = true;
  }
  options.intervals = intervals;
  std::optional<RowData> found;
  bool static_only_wanted = clustering.empty() && !table.clustering.empty();
  RETURN_IF_ERROR(reader
                      .ReadPartition(partition.prefix, partition.values, options,
                                     [&](RowData& row) -> Result<bool> {
                                       found = row;
                                       return false;
                                     })
                      .status());
  if (!found && static_only_wanted) return found;
  if (!found && !clustering.empty() && table.has_statics()) {
    // The row is absent; its static values still matter to conditions on static columns.
    PartitionReadOptions statics;
    statics.static_only_when_empty = true;
    RETURN_IF_ERROR(reader
                        .ReadPartition(partition.prefix, partition.values, statics,
                                       [&](RowData& row) -> Result<bool> {
                                         row.static_only = true;
                                         found = row;
                                         return false;
                                       })
                        .status());
  }
  return found;
}

}  // namespace

namespace {

Result<bool> EvaluateCondition(const ModificationStatement::Condition& c, const TableSchema& table,
                               const std::optional<RowData>& row, const EvalContext& eval);

}  // namespace

Result<ModificationStatement::ConditionTarget> ModificationStatement::ConditionRowKey(
    const ExecutionContext& context, const EvalContext& eval) const {
  const TableSchema& table = *table_;
  ConditionTarget target;
  target.static_only = static_only_;
  std::vector<PartitionKey> partitions;
  if (json_) {
    // INSERT JSON: the row is the one its mutations write (building them reads nothing).
    ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, WriteParams{}));
    if (mutations.empty()) return Status::Internal("INSERT JSON without a mutation");
    const Mutation& m = mutations.front();
    partitions.push_back(PartitionKey{m.partition_prefix, m.partition_key});
    ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(table.shape, m.key));
    if (parsed.section == storage::KeySection::kRow) {
      target.clustering = std::move(parsed.clustering);
    } else {
      target.static_only = true;
    }
  } else {
    ASSIGN_OR_RETURN(partitions, EvaluatePartitionKeys(table, restrictions_, eval));
    if (!static_only_) {
      ASSIGN_OR_RETURN(std::vector<std::vector<Bytes>> cks,
                       EvaluateClusteringKeys(table, restrictions_, eval));
      if (cks.size() != 1) {
        return Status::Invalid(
            "IN on the clustering key columns is not supported with conditional updates");
      }
      target.clustering = std::move(cks[0]);
    }
  }
  if (partitions.size() != 1) {
    return Status::Invalid("IN on the partition key is not supported with conditional updates");
  }
  target.partition = std::move(partitions[0]);
  return target;
}

Result<ModificationStatement::ConditionCheck> ModificationStatement::Evaluate(
    const ExecutionContext& context, const EvalContext& eval) const {
  ASSIGN_OR_RETURN(ConditionTarget target, ConditionRowKey(context, eval));
  ConditionCheck check;
  ASSIGN_OR_RETURN(check.row,
                   ReadCurrentRow(context, *table_, target.partition, target.clustering));
  check.exists = check.row.has_value() &&
                 !(check.row->static_only && !target.static_only && !target.clustering.empty());
  if (if_not_exists_) {
    check.applied = !check.exists;
  } else if (if_exists_) {
    check.applied = check.exists;
  } else {
    for (const Condition& c : conditions_) {
      ASSIGN_OR_RETURN(bool ok, EvaluateCondition(c, *table_, check.row, eval));
      if (!ok) {
        check.applied = false;
        break;
      }
    }
  }
  return check;
}

std::vector<int> ModificationStatement::ConditionColumns() const {
  std::vector<int> columns;
  if (if_not_exists_ || if_exists_) return columns;
  for (const Condition& c : conditions_) {
    if (std::find(columns.begin(), columns.end(), c.column) == columns.end()) {
      columns.push_back(c.column);
    }
  }
  return columns;
}

Result<bool> ModificationStatement::Check(const ExecutionContext& context, const EvalContext& eval,
                                          cql::ResultSet* report) const {
  const TableSchema& table = *table_;
  ASSIGN_OR_RETURN(ConditionCheck check, Evaluate(context, eval));
  if (report == nullptr || check.applied) return check.applied;
  // Not applied: report the current values as Cassandra does.
  std::vector<cql::ColumnSpec> columns;
  columns.push_back(
      cql::ColumnSpec{table.table->keyspace, table.table->name, "[applied]", CqlType::Boolean()});
  std::vector<int> shown;
  if (if_not_exists_ || if_exists_) {
    for (size_t i = 0; i < table.table->columns.size(); ++i) shown.push_back(static_cast<int>(i));
  } else {
    std::set<int> seen;
    for (const Condition& c : conditions_) seen.insert(c.column);
    shown.assign(seen.begin(), seen.end());
  }
  if (!check.row) {
    *report = cql::ResultSet::Rows({columns[0]});
    report->AddCell(cql::SerializeBoolean(false));
    return false;
  }
  for (int index : shown) {
    columns.push_back(cql::ColumnSpec{table.table->keyspace, table.table->name,
                                      table.column(index).name, table.column(index).type});
  }
  *report = cql::ResultSet::Rows(columns);
  report->AddCell(cql::SerializeBoolean(false));
  for (int index : shown) report->AddCell(check.row->cells[index].value);
  return false;
}

Result<ModificationStatement::ConditionCheck> ModificationStatement::CheckConditions(
    const ExecutionContext& context, std::span<const BoundValue> values) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  return Evaluate(context, eval);
}

namespace {

Result<bool> EvaluateCondition(const ModificationStatement::Condition& c, const TableSchema& table,
                               const std::optional<RowData>& row, const EvalContext& eval) {
  const schema::ColumnMetadata& column = table.column(c.column);
  std::optional<Bytes> actual;
  if (row) actual = row->cells[c.column].value;
  const CqlType& type = column.type;
  if (c.element && actual) {
    ASSIGN_OR_RETURN(BoundValue key, c.element->Evaluate(eval));
    std::optional<Bytes> element;
    if (key.is_value()) {
      if (type.kind() == TypeKind::kList) {
        ASSIGN_OR_RETURN(int32_t index, cql::DeserializeInt(key.bytes));
        ASSIGN_OR_RETURN(auto elements, cql::SplitListOrSet(type, *actual));
        if (index >= 0 && static_cast<size_t>(index) < elements.size()) {
          element = Bytes(elements[index]);
        }
      } else {
        ASSIGN_OR_RETURN(auto entries, cql::SplitMap(*actual));
        for (const auto& e : entries) {
          if (cql::CompareValues(type.key(), e.key, key.bytes) == 0) element = Bytes(e.value);
        }
      }
    }
    actual = std::move(element);
  } else if (c.field >= 0 && actual) {
    ASSIGN_OR_RETURN(auto fields, cql::SplitTupleOrUdt(*actual, type.params().size()));
    if (static_cast<size_t>(c.field) < fields.size() && fields[c.field]) {
      actual = Bytes(*fields[c.field]);
    } else {
      actual.reset();
    }
  }
  const CqlType& value_type = c.value_type;
  // Expected values (null allowed for = and !=).
  std::vector<std::optional<Bytes>> expected;
  if (c.values.list) {
    ASSIGN_OR_RETURN(BoundValue v, c.values.list->Evaluate(eval));
    if (v.is_value()) {
      ASSIGN_OR_RETURN(auto elements, cql::SplitListOrSet(CqlType::List(value_type), v.bytes));
      for (std::string_view e : elements) expected.emplace_back(Bytes(e));
    }
  } else {
    for (const ValueExpr& e : c.values.values) {
      ASSIGN_OR_RETURN(BoundValue v, e.Evaluate(eval));
      if (v.is_unset()) {
        return Status::Invalid(fmt::format("Invalid 'unset' value in condition"));
      }
      expected.push_back(v.is_value() ? std::optional<Bytes>(std::move(v.bytes)) : std::nullopt);
    }
  }
  auto equal = [&](const std::optional<Bytes>& a, const std::optional<Bytes>& b) {
    if (!a || !b) return !a && !b;
    return cql::CompareValues(value_type, *a, *b) == 0;
  };
  switch (c.op) {
    case Operator::kEq:
      return equal(actual, expected[0]);
    case Operator::kNeq:
      return !equal(actual, expected[0]);
    case Operator::kIn:
      return std::any_of(expected.begin(), expected.end(),
                         [&](const std::optional<Bytes>& e) { return equal(actual, e); });
    case Operator::kLt:
    case Operator::kLte:
    case Operator::kGt:
    case Operator::kGte: {
      if (!expected[0]) {
        return Status::Invalid(fmt::format("Invalid comparison with null for operator \"{}\"",
                                           cql::OperatorToCql(c.op)));
      }
      if (!actual) return false;
      return ComparisonHolds(c.op, cql::CompareValues(value_type, *actual, *expected[0]));
    }
    case Operator::kContains:
    case Operator::kContainsKey: {
      if (!actual || !expected[0]) return false;
      std::vector<std::string_view> items;
      if (type.kind() == TypeKind::kMap) {
        ASSIGN_OR_RETURN(auto entries, cql::SplitMap(*actual));
        for (const auto& e : entries) {
          items.push_back(c.op == Operator::kContainsKey ? e.key : e.value);
        }
      } else {
        ASSIGN_OR_RETURN(items, cql::SplitListOrSet(type, *actual));
      }
      return std::any_of(items.begin(), items.end(), [&](std::string_view item) {
        return cql::CompareValues(value_type, item, *expected[0]) == 0;
      });
    }
    default:
      return Status::Invalid(
          fmt::format("Unsupported operator {} in condition", cql::OperatorToCql(c.op)));
  }
}

}  // namespace

}  // namespace engine
