// Session: the one interface that ties the product together (docs/dev/architecture.md §1).
//
// A `cql::Session` executes CQL statements — text or prepared, with bound values and options
// (page size, paging state, consistency, serial consistency, client timestamp) — and batches,
// and returns a `ResultSet` with column metadata and rows. The embedded engine implements it
// in-process (`engine/database.h`); the C++ driver implements it over the wire. The hotel
// service depends on nothing else, which is what lets it run embedded or on a cluster.
//
// Values are always in their native-protocol serialization (native_protocol_v4.spec §6); use
// `cql/types/value_codec.h` to build and read them, or the typed accessors of `ResultSet`.
//
// Errors are `common::Status` values carrying the protocol error code and Cassandra's message
// (e.g. kInvalid "Undefined column name x in table ks.t", kUnprepared for unknown prepared ids).
//
// Thread-safety: `ResultSet`, `QueryOptions` and the other structs are plain values.
// Implementations of `Session` say whether they are thread-safe (the embedded one is).

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "common/uuid.h"
#include "cql/types/types.h"

namespace cql {

// Consistency levels, with their protocol codes (§3 [consistency]). A single node answers
// every level the same way; they are accepted for compatibility.
enum class Consistency : uint16_t {
  kAny = 0x0000,
  kOne = 0x0001,
  kTwo = 0x0002,
  kThree = 0x0003,
  kQuorum = 0x0004,
  kAll = 0x0005,
  kLocalQuorum = 0x0006,
  kEachQuorum = 0x0007,
  kSerial = 0x0008,
  kLocalSerial = 0x0009,
  kLocalOne = 0x000A,
};

// "ONE", "LOCAL_QUORUM", ... as Cassandra spells them; "UNKNOWN" for other codes.
std::string_view ConsistencyName(Consistency consistency);

// A value bound to a marker: a serialized value, null, or unset (protocol v4+: "leave as is").
struct BoundValue {
  enum class Kind : uint8_t { kValue, kNull, kUnset };
  Kind kind = Kind::kNull;
  common::Bytes bytes;  // kValue only

  static BoundValue Of(common::Bytes bytes) { return {Kind::kValue, std::move(bytes)}; }
  static BoundValue Null() { return {Kind::kNull, {}}; }
  static BoundValue Unset() { return {Kind::kUnset, {}}; }
  bool is_value() const { return kind == Kind::kValue; }
  bool is_null() const { return kind == Kind::kNull; }
  bool is_unset() const { return kind == Kind::kUnset; }
  bool operator==(const BoundValue&) const = default;
};

struct QueryOptions {
  Consistency consistency = Consistency::kOne;
  std::optional<Consistency> serial_consistency;
  // Values for the statement's bind markers, in marker order; or, when `value_names` is not
  // empty, by name (parallel to `value_names`).
  std::vector<BoundValue> values;
  std::vector<std::string> value_names;
  // Rows per page; <= 0 returns every row in one result.
  int32_t page_size = -1;
  // The `paging_state` of the previous page, to continue where it ended.
  std::optional<common::Bytes> paging_state;
  // Client-side write timestamp in microseconds (overridden by USING TIMESTAMP).
  std::optional<int64_t> timestamp;
  // Keyspace for unqualified names (protocol v5); empty means the session's keyspace.
  std::string keyspace;
  // Trace the request (the protocol's tracing flag): the result then carries the tracing
  // session id (ResultSet::tracing_id) whose events system_traces.events holds.
  bool tracing = false;
};

// One column of a result or one bind variable.
struct ColumnSpec {
  std::string keyspace;
  std::string table;
  std::string name;
  CqlType type;
  bool operator==(const ColumnSpec&) const = default;
};

// A schema change made by a statement (the protocol's SCHEMA_CHANGE result and event).
struct SchemaChangeEvent {
  std::string change_type;  // CREATED, UPDATED, DROPPED
  std::string target;       // KEYSPACE, TABLE, TYPE, FUNCTION, AGGREGATE
  std::string keyspace;
  std::string name;                    // empty for KEYSPACE
  std::vector<std::string> arg_types;  // FUNCTION, AGGREGATE
  bool operator==(const SchemaChangeEvent&) const = default;
};

// The result of one statement: nothing (void), rows, a keyspace set by USE, or a schema change.
class ResultSet {
 public:
  enum class Kind : uint8_t { kVoid, kRows, kSetKeyspace, kSchemaChange };

  ResultSet() = default;
  static ResultSet Void() { return ResultSet(); }
  static ResultSet Rows(std::vector<ColumnSpec> columns);
  // Rows described by shared, immutable column metadata (a prepared statement's): no copy per
  // execution.
  static ResultSet Rows(std::shared_ptr<const std::vector<ColumnSpec>> columns);
  static ResultSet SetKeyspace(std::string keyspace);
  static ResultSet SchemaChange(SchemaChangeEvent event);

  Kind kind() const { return kind_; }
  const std::vector<ColumnSpec>& columns() const { return columns_ ? *columns_ : NoColumns(); }
  size_t column_count() const { return columns_ ? columns_->size() : 0; }
  size_t row_count() const {
    return column_count() == 0 ? 0 : cell_offsets_.size() / column_count();
  }
  bool empty() const { return row_count() == 0; }
  // Index of the column named `name`, or -1.
  int ColumnIndex(std::string_view name) const;

  // The value of a cell; nullopt for null. REQUIRES: row < row_count(), column < column_count().
  std::optional<std::string_view> Value(size_t row, size_t column) const {
    return CellAt(cell_offsets_[row * columns_->size() + column]);
  }
  // Typed accessors: Invalid when the column's type does not match, the value is null, or it
  // does not decode. REQUIRES: indexes in range.
  common::Result<std::string> GetText(size_t row, size_t column) const;
  common::Result<int64_t> GetInteger(size_t row, size_t column) const;  // tinyint..bigint, counter
  common::Result<bool> GetBoolean(size_t row, size_t column) const;
  common::Result<double> GetDouble(size_t row, size_t column) const;  // float, double
  bool IsNull(size_t row, size_t column) const { return !Value(row, column).has_value(); }

  // Appends a row. REQUIRES: row.size() == column_count().
  void AddRow(std::vector<std::optional<common::Bytes>> row);
  // Appends one cell (nullopt: null); rows are formed from consecutive cells.
  void AddCell(const std::optional<common::Bytes>& cell) {
    if (cell) {
      AddCell(std::string_view(*cell));
    } else {
      AddNullCell();
    }
  }
  void AddCell(const common::Bytes& value) { AddCell(std::string_view(value)); }
  void AddCell(std::string_view value);
  void AddNullCell();
  // Every cell, row-major, as the native protocol's rows content: each a [bytes] (a 4-byte
  // big-endian signed length, -1 for null, then the value).
  std::string_view encoded_cells() const { return cell_bytes_; }

  // Set when more rows follow: pass it back in QueryOptions::paging_state.
  const std::optional<common::Bytes>& paging_state() const { return paging_state_; }
  void set_paging_state(std::optional<common::Bytes> state) { paging_state_ = std::move(state); }

  const std::string& keyspace() const { return keyspace_; }                  // kSetKeyspace
  const SchemaChangeEvent& schema_change() const { return schema_change_; }  // kSchemaChange

  // Client warnings (the protocol's warnings field): e.g. a large batch, an aggregation
  // without partition key, a read over the tombstone warning threshold.
  const std::vector<std::string>& warnings() const { return warnings_; }
  void AddWarning(std::string warning) { warnings_.push_back(std::move(warning)); }

  // The tracing session of a request that asked to be traced (QueryOptions::tracing,
  // BatchRequest::tracing); nullopt otherwise.
  const std::optional<common::Uuid>& tracing_id() const { return tracing_id_; }
  void set_tracing_id(std::optional<common::Uuid> id) { tracing_id_ = id; }

 private:
  static const std::vector<ColumnSpec>& NoColumns();
  // The cell whose [bytes] starts at `offset` of cell_bytes_.
  std::optional<std::string_view> CellAt(size_t offset) const;

  Kind kind_ = Kind::kVoid;
  std::shared_ptr<const std::vector<ColumnSpec>> columns_;  // null: no columns
  // The cells in the protocol's form (encoded_cells()), appended as they come: one buffer
  // instead of a string per cell, so a result of many small values costs a few reallocations
  // of bytes, and the protocol layer sends it as it is.
  common::Bytes cell_bytes_;
  std::vector<size_t> cell_offsets_;  // where each cell's [bytes] starts, row-major
  std::optional<common::Bytes> paging_state_;
  std::string keyspace_;
  SchemaChangeEvent schema_change_;
  std::vector<std::string> warnings_;
  std::optional<common::Uuid> tracing_id_;
};

// What PREPARE returns: the statement's id and metadata.
struct PreparedMetadata {
  // 16 bytes: MD5 of the keyspace and query text, so the same text in the same keyspace
  // always gets the same id.
  common::Bytes id;
  std::string query;
  std::string keyspace;  // the keyspace unqualified names were resolved in ("" if none)
  std::vector<ColumnSpec> bind_variables;
  // Indexes into bind_variables of the partition key columns, in key order, when every
  // partition key column is bound by a marker (for token-aware routing); else empty.
  std::vector<uint16_t> partition_key_indexes;
  std::vector<ColumnSpec> result_columns;  // SELECT only
  // Protocol v5: an id of result_columns, so clients can tell when they changed.
  common::Bytes result_metadata_id;
};

enum class BatchType : uint8_t { kLogged = 0, kUnlogged = 1, kCounter = 2 };

struct BatchEntry {
  // Either a query text (with values for its markers) or a prepared statement.
  std::string query;
  std::shared_ptr<const PreparedMetadata> prepared;
  std::vector<BoundValue> values;
  std::vector<std::string> value_names;
};

struct BatchRequest {
  BatchType type = BatchType::kLogged;
  std::vector<BatchEntry> entries;
  Consistency consistency = Consistency::kOne;
  std::optional<Consistency> serial_consistency;
  std::optional<int64_t> timestamp;
  std::string keyspace;
  bool tracing = false;  // as QueryOptions::tracing
};

class Session {
 public:
  virtual ~Session() = default;

  // Parses and executes one statement.
  virtual common::Result<ResultSet> Execute(std::string_view query,
                                            const QueryOptions& options) = 0;
  common::Result<ResultSet> Execute(std::string_view query) {
    return Execute(query, QueryOptions());
  }
  // Prepares a statement for repeated execution.
  virtual common::Result<std::shared_ptr<const PreparedMetadata>> Prepare(
      std::string_view query) = 0;
  // Executes a prepared statement with `options.values` bound to its markers.
  virtual common::Result<ResultSet> ExecutePrepared(const PreparedMetadata& prepared,
                                                    const QueryOptions& options) = 0;
  // Executes a batch of INSERT, UPDATE and DELETE statements atomically.
  virtual common::Result<ResultSet> ExecuteBatch(const BatchRequest& batch) = 0;
  // The keyspace set by the last USE ("" if none).
  virtual std::string keyspace() const = 0;
};

}  // namespace cql
