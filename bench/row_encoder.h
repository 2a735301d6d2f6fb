// RowEncoder: the storage key and value bytes the engine writes for a plain INSERT (every
// listed column set, no TTL), built with the storage layer's own functions
// (storage/key_layout.h, storage/row_fragment.h) from the table's catalogue entry. The raw
// RocksDB baselines Put and Get exactly these bytes; BenchEnvironment (bench_environment.h)
// checks them against what the engine really stored before any baseline runs.
//
// Thread-safety: immutable after ForTable; Encode is const and thread-safe.

#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "engine/database.h"
#include "engine/table_schema.h"

namespace bench {

struct EncodedRow {
  common::Bytes key;
  common::Bytes value;
};

class RowEncoder {
 public:
  // The encoder of `keyspace.table` in `database`'s current catalogue, for values given in the
  // order of `columns` (which must name every primary key column). NotFound for an unknown
  // table, Invalid for an unknown or missing column.
  static common::Result<std::unique_ptr<RowEncoder>> ForTable(const engine::Database& database,
                                                              std::string_view keyspace,
                                                              std::string_view table,
                                                              std::vector<std::string> columns);

  // The entry an `INSERT INTO t (columns) VALUES (values)` writes at write timestamp
  // `timestamp`. REQUIRES: values.size() == columns.size(), each a valid serialization.
  EncodedRow Encode(std::span<const common::Bytes> values, int64_t timestamp) const;
  // The storage partition prefix of a partition key (values in partition key order).
  common::Bytes PartitionPrefix(std::span<const common::Bytes> partition_key) const;

  const engine::TableSchema& schema() const { return *schema_; }

 private:
  std::shared_ptr<const schema::Catalog> catalog_;  // keeps schema_->table alive
  std::unique_ptr<engine::TableSchema> schema_;
  std::vector<int> column_indexes_;  // per value: index into schema_->table->columns
};

}  // namespace bench
