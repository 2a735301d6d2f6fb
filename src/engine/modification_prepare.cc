// Binding of INSERT, UPDATE and DELETE statements (see modification_statement.h).

#include "engine/modification_statement.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "cql/functions/json.h"
#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/modification_internal.h"
#include "engine/schema_lookup.h"
#include "schema/system_tables.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using cql::CqlType;
using cql::Operator;
using cql::TypeKind;
using schema::ColumnKind;
using storage::Cell;
using storage::CellKind;
using storage::DeletionTime;
using storage::RowFragment;

namespace {

Status CheckWritable(const TableRef& ref) {
  if (ref.is_system && schema::IsVirtualKeyspace(ref.table->keyspace)) {
    // Cassandra's AbstractVirtualTable.apply.
    return Status::Invalid(fmt::format("Modification is not supported by table {}.{}",
                                       ref.table->keyspace, ref.table->name));
  }
  if (ref.is_system) {
    return Status::Unauthorized(
        fmt::format("{} keyspace is not user-modifiable.", ref.table->keyspace));
  }
  if (ref.is_view) {
    return Status::Invalid(fmt::format("Cannot directly modify a materialized view"));
  }
  return Status::Ok();
}

Status Undefined(const TableSchema& table, std::string_view name) {
  return Status::Invalid(fmt::format("Undefined column name {} in table {}.{}",
                                     cql::QuoteIdentifierIfNeeded(name), table.table->keyspace,
                                     table.table->name));
}

}  // namespace

// --- Prepare -------------------------------------------------------------------------------

Result<std::unique_ptr<ModificationStatement>> ModificationStatement::Start(
    Kind kind, std::shared_ptr<const schema::Catalog> catalog, const cql::QualifiedName& name,
    std::string_view keyspace, BindCollector* binds) {
  ASSIGN_OR_RETURN(TableRef ref, LookupTable(*catalog, name, keyspace));
  RETURN_IF_ERROR(CheckWritable(ref));
  std::unique_ptr<ModificationStatement> stmt(new ModificationStatement());
  stmt->kind_ = kind;
  stmt->catalog_ = std::move(catalog);
  stmt->table_ = std::make_unique<TableSchema>(ref.table);
  binds->SetTable(*stmt->table_);
  return stmt;
}

Result<std::unique_ptr<ModificationStatement>> ModificationStatement::PrepareInsert(
    std::shared_ptr<const schema::Catalog> catalog, const cql::Insert& insert,
    std::string_view keyspace, BindCollector* binds) {
  ASSIGN_OR_RETURN(std::unique_ptr<ModificationStatement> stmt,
                   Start(Kind::kInsert, std::move(catalog), insert.table, keyspace, binds));
  const TableSchema& table = *stmt->table_;
  if (table.table->is_counter) {
    return Status::Invalid(
        "INSERT statements are not allowed on counter tables, use UPDATE instead");
  }
  stmt->if_not_exists_ = insert.if_not_exists;
  if (insert.json) {
    ASSIGN_OR_RETURN(ValueExpr json,
                     ValueExpr::Prepare(insert.json_value, CqlType::Text(), "[json]", binds));
    stmt->json_ = std::move(json);
    stmt->json_default_unset_ = insert.default_unset;
  } else {
    if (insert.columns.size() != insert.values.size()) {
      return Status::Invalid("Unmatched column names/values");
    }
    std::vector<bool> seen(table.table->columns.size(), false);
    std::vector<std::optional<ValueSet>> key_values(table.table->columns.size());
    for (size_t i = 0; i < insert.columns.size(); ++i) {
      const std::string& name = insert.columns[i];
      int index = table.IndexOfColumn(name);
      if (index < 0) return Undefined(table, name);
      if (seen[index]) {
        return Status::Invalid(fmt::format("Multiple definitions found for column {}",
                                           cql::QuoteIdentifierIfNeeded(name)));
      }
      seen[index] = true;
      const schema::ColumnMetadata& column = table.column(index);
      ASSIGN_OR_RETURN(ValueExpr value,
                       ValueExpr::Prepare(insert.values[i], column.type, column.name, binds));
      if (IsKeyColumn(column)) {
        ValueSet set;
        set.values.push_back(std::move(value));
        key_values[index] = std::move(set);
        continue;
      }
      Assignment a;
      a.op = Assignment::Op::kSet;
      a.column = index;
      a.value = std::move(value);
      stmt->assignments_.push_back(std::move(a));
    }
    std::vector<std::string> missing;
    for (int index : table.partition_key) {
      if (!key_values[index]) missing.push_back(table.column(index).name);
    }
    if (!missing.empty()) {
      return Status::Invalid(
          fmt::format("Some partition key parts are missing: {}", fmt::join(missing, ", ")));
    }
    bool only_static = !stmt->assignments_.empty();
    for (const Assignment& a : stmt->assignments_) {
      if (table.column(a.column).kind != ColumnKind::kStatic) only_static = false;
    }
    for (int index : table.clustering) {
      if (!key_values[index]) missing.push_back(table.column(index).name);
    }
    if (!missing.empty() && !(only_static && missing.size() == table.clustering.size())) {
      return Status::Invalid(
          fmt::format("Some clustering keys are missing: {}", fmt::join(missing, ", ")));
    }
    stmt->static_only_ = only_static && !missing.empty();
    for (int index : table.partition_key) {
      stmt->restrictions_.partition_values.push_back(std::move(*key_values[index]));
    }
    if (!stmt->static_only_) {
      for (int index : table.clustering) {
        stmt->restrictions_.clustering_prefix.push_back(std::move(*key_values[index]));
      }
    }
    stmt->pk_bind_indexes_ = PartitionKeyBindIndexes(stmt->restrictions_);
  }
  RETURN_IF_ERROR(stmt->PrepareTtl(insert.using_attributes.ttl, binds));
  RETURN_IF_ERROR(stmt->PrepareTimestamp(insert.using_attributes.timestamp, binds));
  return stmt;
}

namespace {

using Assignment = ModificationStatement::Assignment;

Result<std::vector<ModificationStatement::Condition>> PrepareConditionsImpl(
    const TableSchema& table, const std::vector<cql::Condition>& conditions, BindCollector* binds);

// Whether the IF conditions name a regular (non-static, non-key) column. Cassandra's
// "applies only to static columns" counts them with the assignments: a condition on a regular
// column needs the full clustering key.
bool ConditionsOnRegularColumns(const TableSchema& table,
                                const std::vector<cql::Condition>& conditions) {
  for (const cql::Condition& c : conditions) {
    int index = table.IndexOfColumn(c.column);
    if (index >= 0 && table.column(index).kind == ColumnKind::kRegular) return true;
  }
  return false;
}

// `column = column + value` / `- value`.
Result<Assignment> PrepareAddOrSubtract(const schema::ColumnMetadata& column,
                                        const cql::Operation& op, BindCollector* binds,
                                        bool* reads_list) {
  const CqlType& type = column.type;
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  bool add = op.kind == cql::Operation::Kind::kAdd;
  Assignment a;
  a.op = add ? Assignment::Op::kAdd : Assignment::Op::kSubtract;
  CqlType value_type = type;
  if (type.IsCounter()) {
    value_type = CqlType::Bigint();
  } else if (!type.IsCollection() || type.frozen()) {
    return Status::Invalid(
        fmt::format("Invalid operation ({} = {} {} {}) for non counter column {}", quoted, quoted,
                    add ? "+" : "-", op.value.ToCql(), quoted));
  } else if (!add && type.kind() == TypeKind::kMap) {
    value_type = CqlType::Set(type.key());
  }
  ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(op.value, value_type, column.name, binds));
  a.value = std::move(v);
  if (!add && type.kind() == TypeKind::kList) *reads_list = true;
  return a;
}

// `column[key] = value`.
Result<Assignment> PrepareSetElement(const schema::ColumnMetadata& column, const cql::Operation& op,
                                     BindCollector* binds, bool* reads_list) {
  const CqlType& type = column.type;
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  if (!type.IsCollection() || type.kind() == TypeKind::kSet) {
    return Status::Invalid(fmt::format("Column {} cannot be used as a map", quoted));
  }
  if (type.frozen()) {
    return Status::Invalid(
        fmt::format("Invalid operation ({}[{}] = {}) for frozen collection column {}", quoted,
                    op.key ? op.key->ToCql() : "", op.value.ToCql(), quoted));
  }
  Assignment a;
  a.op = Assignment::Op::kSetElement;
  bool is_list = type.kind() == TypeKind::kList;
  ASSIGN_OR_RETURN(ValueExpr k,
                   ValueExpr::Prepare(*op.key, is_list ? CqlType::Int() : type.key(),
                                      is_list ? "[idx]" : "key(" + column.name + ")", binds));
  a.key = std::move(k);
  ASSIGN_OR_RETURN(ValueExpr v,
                   ValueExpr::Prepare(op.value, is_list ? type.element() : type.value(),
                                      "value(" + column.name + ")", binds));
  a.value = std::move(v);
  if (is_list) *reads_list = true;
  return a;
}

// `column.field = value`.
Result<Assignment> PrepareSetField(const schema::ColumnMetadata& column, const cql::Operation& op,
                                   BindCollector* binds) {
  const CqlType& type = column.type;
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  if (type.kind() != TypeKind::kUdt) {
    return Status::Invalid(fmt::format("Invalid operation ({}.{} = {}) for non-UDT column {}",
                                       quoted, op.field, op.value.ToCql(), quoted));
  }
  if (type.frozen()) {
    return Status::Invalid(fmt::format("Invalid operation ({}.{} = {}) for frozen UDT column {}",
                                       quoted, op.field, op.value.ToCql(), quoted));
  }
  const auto& fields = type.field_names();
  auto it = std::find(fields.begin(), fields.end(), op.field);
  if (it == fields.end()) {
    return Status::Invalid(
        fmt::format("UDT column {} does not have a field named {}", quoted, op.field));
  }
  Assignment a;
  a.op = Assignment::Op::kSetField;
  a.field = static_cast<int>(it - fields.begin());
  ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(op.value, type.params()[a.field],
                                                   column.name + "." + op.field, binds));
  a.value = std::move(v);
  return a;
}

// One SET operation of an UPDATE.
Result<Assignment> PrepareOperation(const TableSchema& table, int index, const cql::Operation& op,
                                    BindCollector* binds, bool* reads_list) {
  const schema::ColumnMetadata& column = table.column(index);
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  if (IsKeyColumn(column)) {
    return Status::Invalid(fmt::format("PRIMARY KEY part {} found in SET part", quoted));
  }
  const CqlType& type = column.type;
  Result<Assignment> a = Assignment();
  switch (op.kind) {
    case cql::Operation::Kind::kSet: {
      if (type.IsCounter()) {
        return Status::Invalid(
            fmt::format("Cannot set the value of counter column {} (counters can only be "
                        "incremented/decremented, not set)",
                        quoted));
      }
      ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(op.value, type, column.name, binds));
      a->op = Assignment::Op::kSet;
      a->value = std::move(v);
      break;
    }
    case cql::Operation::Kind::kAdd:
    case cql::Operation::Kind::kSubtract:
      a = PrepareAddOrSubtract(column, op, binds, reads_list);
      break;
    case cql::Operation::Kind::kPrepend: {
      if (type.kind() != TypeKind::kList || type.frozen()) {
        return Status::Invalid(
            fmt::format("Invalid operation ({} = {} + {}) for non list column {}", quoted,
                        op.value.ToCql(), quoted, quoted));
      }
      ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(op.value, type, column.name, binds));
      a->op = Assignment::Op::kPrepend;
      a->value = std::move(v);
      break;
    }
    case cql::Operation::Kind::kSetElement:
      a = PrepareSetElement(column, op, binds, reads_list);
      break;
    case cql::Operation::Kind::kSetField:
      a = PrepareSetField(column, op, binds);
      break;
  }
  if (a.ok()) a->column = index;
  return a;
}

// The error for clustering columns an UPDATE or DELETE leaves unrestricted.
Status MissingClustering(const TableSchema& table, size_t restricted) {
  std::vector<std::string> missing;
  for (size_t i = restricted; i < table.clustering.size(); ++i) {
    missing.push_back(table.column(table.clustering[i]).name);
  }
  return Status::Invalid(
      fmt::format("Some clustering keys are missing: {}", fmt::join(missing, ", ")));
}

}  // namespace

Status ModificationStatement::PrepareTimestamp(const std::optional<cql::Term>& timestamp,
                                               BindCollector* binds) {
  if (!timestamp) return Status::Ok();
  if (has_conditions()) {
    return Status::Invalid("Cannot provide custom timestamp for conditional updates");
  }
  ASSIGN_OR_RETURN(ValueExpr ts,
                   ValueExpr::Prepare(*timestamp, CqlType::Bigint(), "[timestamp]", binds));
  timestamp_ = std::move(ts);
  return Status::Ok();
}

Status ModificationStatement::PrepareTtl(const std::optional<cql::Term>& ttl,
                                         BindCollector* binds) {
  if (!ttl) return Status::Ok();
  if (is_counter()) return Status::Invalid("Cannot provide custom TTL for counter updates");
  ASSIGN_OR_RETURN(ValueExpr value, ValueExpr::Prepare(*ttl, CqlType::Int(), "[ttl]", binds));
  ttl_ = std::move(value);
  return Status::Ok();
}

Result<std::unique_ptr<ModificationStatement>> ModificationStatement::PrepareUpdate(
    std::shared_ptr<const schema::Catalog> catalog, const cql::Update& update,
    std::string_view keyspace, BindCollector* binds) {
  ASSIGN_OR_RETURN(std::unique_ptr<ModificationStatement> stmt,
                   Start(Kind::kUpdate, std::move(catalog), update.table, keyspace, binds));
  const TableSchema& table = *stmt->table_;
  bool only_static = !ConditionsOnRegularColumns(table, update.conditions);
  for (const cql::Operation& op : update.operations) {
    int index = table.IndexOfColumn(op.column);
    if (index < 0) return Undefined(table, op.column);
    ASSIGN_OR_RETURN(Assignment a,
                     PrepareOperation(table, index, op, binds, &stmt->has_list_read_));
    if (table.column(index).kind != ColumnKind::kStatic) only_static = false;
    if (table.table->is_counter && a.op != Assignment::Op::kAdd &&
        a.op != Assignment::Op::kSubtract) {
      return Status::Invalid("Cannot mix counter and non counter columns in the same table");
    }
    stmt->assignments_.push_back(std::move(a));
  }
  ASSIGN_OR_RETURN(stmt->restrictions_,
                   PrepareRestrictions(table, update.where, StatementKind::kUpdate, false, binds));
  const Restrictions& r = stmt->restrictions_;
  if (r.slice_columns > 0) {
    return Status::Invalid(
        "Slice restrictions are not supported on the clustering columns in UPDATE statements");
  }
  if (r.clustering_prefix.size() < table.clustering.size()) {
    if (!(only_static && r.clustering_prefix.empty())) {
      return MissingClustering(table, r.clustering_prefix.size());
    }
    stmt->static_only_ = true;
  }
  stmt->if_exists_ = update.if_exists;
  ASSIGN_OR_RETURN(stmt->conditions_, PrepareConditionsImpl(table, update.conditions, binds));
  RETURN_IF_ERROR(stmt->PrepareTtl(update.using_attributes.ttl, binds));
  RETURN_IF_ERROR(stmt->PrepareTimestamp(update.using_attributes.timestamp, binds));
  if (stmt->has_conditions() && table.table->is_counter) {
    return Status::Invalid("Conditional updates are not supported on counter tables");
  }
  if (r.has_pk_in && stmt->has_conditions()) {
    return Status::Invalid("IN on the partition key is not supported with conditional updates");
  }
  stmt->pk_bind_indexes_ = PartitionKeyBindIndexes(r);
  return stmt;
}

namespace {

// One deletion target of a DELETE (a column, an element or a field).
Result<Assignment> PrepareDeletion(const TableSchema& table, int index, const cql::Deletion& d,
                                   BindCollector* binds, bool* reads_list) {
  const schema::ColumnMetadata& column = table.column(index);
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  if (IsKeyColumn(column)) {
    return Status::Invalid(fmt::format(
        "Invalid identifier {} for deletion (should not be a PRIMARY KEY part)", quoted));
  }
  Assignment a;
  a.column = index;
  a.op = Assignment::Op::kDeleteColumn;
  const CqlType& type = column.type;
  if (d.element) {
    if (!type.IsCollection() || type.frozen()) {
      return Status::Invalid(
          fmt::format("Invalid deletion operation for frozen collection column {}", quoted));
    }
    a.op = Assignment::Op::kDeleteElement;
    CqlType key_type = type.kind() == TypeKind::kList
                           ? CqlType::Int()
                           : (type.kind() == TypeKind::kMap ? type.key() : type.element());
    ASSIGN_OR_RETURN(ValueExpr k,
                     ValueExpr::Prepare(*d.element, key_type, "key(" + column.name + ")", binds));
    a.key = std::move(k);
    if (type.kind() == TypeKind::kList) *reads_list = true;
  } else if (!d.field.empty()) {
    if (type.kind() != TypeKind::kUdt || type.frozen()) {
      return Status::Invalid(
          fmt::format("Invalid deletion operation for frozen UDT column {}", quoted));
    }
    const auto& fields = type.field_names();
    auto it = std::find(fields.begin(), fields.end(), d.field);
    if (it == fields.end()) {
      return Status::Invalid(
          fmt::format("UDT column {} does not have a field named {}", quoted, d.field));
    }
    a.op = Assignment::Op::kDeleteField;
    a.field = static_cast<int>(it - fields.begin());
  }
  return a;
}

}  // namespace

Status ModificationStatement::CheckDeleteKeys(bool only_static, bool regular_conditions) {
  const TableSchema& table = *table_;
  const Restrictions& r = restrictions_;
  bool full_clustering =
      r.slice_columns == 0 && r.clustering_prefix.size() == table.clustering.size();
  if (has_conditions()) {
    // Cassandra's checks of a conditional DELETE's WHERE clause, in its order.
    if (r.has_clustering_in) {
      return Status::Invalid(
          "IN on the clustering key columns is not supported with conditional deletions");
    }
    if (!full_clustering && !only_static) {
      return Status::Invalid(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to delete non static columns");
    }
    if (!full_clustering && regular_conditions) {
      return Status::Invalid(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to use IF condition on non static columns");
    }
  }
  if (!delete_row_ && !full_clustering) {
    if (!(only_static && r.clustering_prefix.empty() && r.slice_columns == 0)) {
      if (r.slice_columns > 0 || !r.clustering_prefix.empty()) {
        return Status::Invalid("Range deletions are not supported for specific columns");
      }
      return MissingClustering(table, 0);
    }
    static_only_ = true;
  }
  return Status::Ok();
}

Result<std::unique_ptr<ModificationStatement>> ModificationStatement::PrepareDelete(
    std::shared_ptr<const schema::Catalog> catalog, const cql::Delete& del,
    std::string_view keyspace, BindCollector* binds) {
  ASSIGN_OR_RETURN(std::unique_ptr<ModificationStatement> stmt,
                   Start(Kind::kDelete, std::move(catalog), del.table, keyspace, binds));
  const TableSchema& table = *stmt->table_;
  bool only_static = !del.deletions.empty();
  for (const cql::Deletion& d : del.deletions) {
    int index = table.IndexOfColumn(d.column);
    if (index < 0) return Undefined(table, d.column);
    ASSIGN_OR_RETURN(Assignment a, PrepareDeletion(table, index, d, binds, &stmt->has_list_read_));
    if (table.column(index).kind != ColumnKind::kStatic) only_static = false;
    stmt->assignments_.push_back(std::move(a));
  }
  stmt->delete_row_ = del.deletions.empty();
  ASSIGN_OR_RETURN(stmt->restrictions_,
                   PrepareRestrictions(table, del.where, StatementKind::kDelete, false, binds));
  stmt->if_exists_ = del.if_exists;
  ASSIGN_OR_RETURN(stmt->conditions_, PrepareConditionsImpl(table, del.conditions, binds));
  RETURN_IF_ERROR(
      stmt->CheckDeleteKeys(only_static, ConditionsOnRegularColumns(table, del.conditions)));
  RETURN_IF_ERROR(stmt->PrepareTimestamp(del.timestamp, binds));
  stmt->pk_bind_indexes_ = PartitionKeyBindIndexes(stmt->restrictions_);
  return stmt;
}

namespace {

Result<std::vector<ModificationStatement::Condition>> PrepareConditionsImpl(
    const TableSchema& table, const std::vector<cql::Condition>& conditions, BindCollector* binds) {
  std::vector<ModificationStatement::Condition> out;
  for (const cql::Condition& c : conditions) {
    int index = table.IndexOfColumn(c.column);
    if (index < 0) return Undefined(table, c.column);
    const schema::ColumnMetadata& column = table.column(index);
    if (IsKeyColumn(column)) {
      return Status::Invalid(
          fmt::format("PRIMARY KEY column '{}' cannot have IF conditions", column.name));
    }
    ModificationStatement::Condition condition;
    condition.column = index;
    condition.op = c.op;
    CqlType type = column.type;
    std::string receiver = column.name;
    if (c.element) {
      if (!type.IsCollection() || type.kind() == TypeKind::kSet) {
        return Status::Invalid(
            fmt::format("Invalid element access syntax for non-list/map "
                        "column {}",
                        column.name));
      }
      bool is_list = type.kind() == TypeKind::kList;
      ASSIGN_OR_RETURN(ValueExpr k,
                       ValueExpr::Prepare(*c.element, is_list ? CqlType::Int() : type.key(),
                                          "key(" + column.name + ")", binds));
      condition.element = std::move(k);
      type = is_list ? type.element() : type.value();
      receiver = "value(" + column.name + ")";
    } else if (!c.field.empty()) {
      if (type.kind() != TypeKind::kUdt) {
        return Status::Invalid(
            fmt::format("Invalid field access for non-UDT column {}", column.name));
      }
      const auto& fields = type.field_names();
      auto it = std::find(fields.begin(), fields.end(), c.field);
      if (it == fields.end()) {
        return Status::Invalid(
            fmt::format("UDT column {} does not have a field named {}", column.name, c.field));
      }
      condition.field = static_cast<int>(it - fields.begin());
      type = type.params()[condition.field];
      receiver = column.name + "." + c.field;
    }
    CqlType value_type = type;
    if (c.op == Operator::kContains) {
      value_type = type.kind() == TypeKind::kMap ? type.value() : type.element();
    } else if (c.op == Operator::kContainsKey) {
      value_type = type.key();
    }
    condition.value_type = value_type;
    cql::Relation relation;
    relation.op = c.op;
    relation.value = c.value;
    relation.in_list = c.in_list;
    relation.in_values = c.in_values;
    if (c.op == Operator::kIn) {
      if (c.in_list) {
        for (const cql::Term& term : c.in_values) {
          ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(term, value_type, receiver, binds));
          condition.values.values.push_back(std::move(v));
        }
      } else {
        ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(c.value, CqlType::List(value_type),
                                                         "in(" + receiver + ")", binds));
        condition.values.list = std::move(v);
      }
    } else {
      ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(c.value, value_type, receiver, binds));
      condition.values.values.push_back(std::move(v));
    }
    out.push_back(std::move(condition));
  }
  return out;
}

}  // namespace

}  // namespace engine
