// SystemRowSet (`system_row_set.h`).

#include "schema/system_row_set.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "cql/types/value_compare.h"
#include "storage/key_layout.h"

namespace schema {

using common::Bytes;

common::Result<Bytes> InetBytes(std::string_view address) {
  const std::string text(address);
  unsigned char buffer[16];
  if (inet_pton(AF_INET, text.c_str(), buffer) == 1) {
    return Bytes(reinterpret_cast<const char*>(buffer), 4);
  }
  if (inet_pton(AF_INET6, text.c_str(), buffer) == 1) {
    return Bytes(reinterpret_cast<const char*>(buffer), 16);
  }
  return common::Status::Invalid(fmt::format("Invalid IP address '{}'", address));
}

SystemRow& SystemRowSet::Add() {
  rows_.emplace_back(table_.columns.size());
  return rows_.back();
}

void SystemRowSet::Set(SystemRow& row, std::string_view column, Bytes value) {
  for (size_t i = 0; i < table_.columns.size(); ++i) {
    if (table_.columns[i].name == column) {
      row[i] = std::move(value);
      return;
    }
  }
}

std::vector<SystemRow> SystemRowSet::Sorted(bool by_token) && {
  const size_t pk_size = table_.PartitionKeySize();
  const size_t ck_size = table_.ClusteringSize();
  struct Keyed {
    int64_t token;
    SystemRow row;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(rows_.size());
  for (SystemRow& row : rows_) {
    std::vector<Bytes> pk;
    for (size_t i = 0; i < pk_size; ++i) pk.push_back(row[i].value_or(Bytes()));
    const int64_t token = by_token ? storage::PartitionToken(std::span<const Bytes>(pk)) : 0;
    keyed.push_back({token, std::move(row)});
  }
  const TableMetadata& table = table_;
  std::stable_sort(keyed.begin(), keyed.end(), [&](const Keyed& a, const Keyed& b) {
    if (a.token != b.token) return a.token < b.token;
    for (size_t i = 0; i < pk_size + ck_size; ++i) {
      const ColumnMetadata& column = table.columns[i];
      const int c =
          cql::CompareValues(column.type, a.row[i].value_or(Bytes()), b.row[i].value_or(Bytes()),
                             column.order == ClusteringOrder::kDesc);
      if (c != 0) return c < 0;
    }
    return false;
  });
  std::vector<SystemRow> out;
  out.reserve(keyed.size());
  for (Keyed& entry : keyed) out.push_back(std::move(entry.row));
  return out;
}

}  // namespace schema
