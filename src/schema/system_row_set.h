// SystemRowSet: builds the rows of one system virtual table by column name and sorts them as a
// full scan returns them. Shared by the row generators of `system_tables.h` (system, the
// schema keyspaces, system_auth, system_traces) and `system_views.h` (system_views).
//
// Thread-safety: a value; not shared between threads.

#pragma once

#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"

namespace schema {

// The `inet` value of an IPv4 or IPv6 address in text; Invalid "Invalid IP address 'x'" when
// it is neither.
common::Result<common::Bytes> InetBytes(std::string_view address);

class SystemRowSet {
 public:
  // REQUIRES: `table` outlives the row set.
  explicit SystemRowSet(const TableMetadata& table) : table_(table) {}

  // A new row, every column null.
  SystemRow& Add();
  // REQUIRES: `column` is a column of the table (a programming error otherwise: the value is
  // dropped).
  void Set(SystemRow& row, std::string_view column, common::Bytes value);

  // The rows as a full scan returns them: partitions by Murmur3 token when `by_token`, else
  // by key (LocalPartitioner, as virtual keyspaces are), rows by clustering order.
  std::vector<SystemRow> Sorted(bool by_token) &&;

 private:
  const TableMetadata& table_;
  std::vector<SystemRow> rows_;
};

}  // namespace schema
