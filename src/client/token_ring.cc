#include "client/token_ring.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <boost/asio/ip/address.hpp>

#include "common/bytes.h"
#include "cql/types/murmur3.h"

namespace client {

using common::Result;
using common::Status;

TokenRing::TokenRing(std::vector<std::pair<int64_t, size_t>> entries)
    : entries_(std::move(entries)) {
  std::sort(entries_.begin(), entries_.end());
}

std::optional<size_t> TokenRing::Owner(int64_t token) const {
  if (entries_.empty()) return std::nullopt;
  auto it = std::lower_bound(
      entries_.begin(), entries_.end(), token,
      [](const std::pair<int64_t, size_t>& entry, int64_t value) { return entry.first < value; });
  if (it == entries_.end()) it = entries_.begin();
  return it->second;
}

size_t TokenRing::host_count() const {
  std::set<size_t> hosts;
  for (const auto& entry : entries_) hosts.insert(entry.second);
  return hosts.size();
}

std::optional<int64_t> RoutingToken(const cql::PreparedMetadata& prepared,
                                    const cql::QueryOptions& options) {
  if (prepared.partition_key_indexes.empty() || !options.value_names.empty()) return std::nullopt;
  std::vector<std::string_view> components;
  for (uint16_t index : prepared.partition_key_indexes) {
    if (index >= options.values.size() || !options.values[index].is_value()) return std::nullopt;
    components.push_back(options.values[index].bytes);
  }
  if (components.size() > 1 && !cql::ValidatePartitionKeyComponentSizes(components).ok()) {
    return std::nullopt;
  }
  return cql::Murmur3Token(cql::SerializePartitionKey(components));
}

namespace {

Result<std::string> DecodeInet(std::string_view bytes) {
  if (bytes.size() == 4) {
    boost::asio::ip::address_v4::bytes_type raw;
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(raw.data()));
    return boost::asio::ip::address_v4(raw).to_string();
  }
  if (bytes.size() == 16) {
    boost::asio::ip::address_v6::bytes_type raw;
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(raw.data()));
    return boost::asio::ip::address_v6(raw).to_string();
  }
  return Status::Invalid(fmt::format("Invalid inet value of {} bytes", bytes.size()));
}

// A set<text> of decimal tokens (native_protocol_v4.spec §6: [int n] then n [bytes]).
Result<std::vector<int64_t>> DecodeTokens(std::string_view bytes) {
  common::ByteReader reader(bytes);
  ASSIGN_OR_RETURN(int32_t count, reader.ReadI32());
  if (count < 0) return Status::Invalid("Invalid token set");
  std::vector<int64_t> tokens;
  for (int32_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(int32_t length, reader.ReadI32());
    if (length < 0) return Status::Invalid("Invalid token set");
    ASSIGN_OR_RETURN(std::string_view text, reader.ReadRaw(static_cast<size_t>(length)));
    int64_t token = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), token);
    if (error != std::errc() || end != text.data() + text.size()) {
      return Status::Invalid(fmt::format("Invalid token '{}'", text));
    }
    tokens.push_back(token);
  }
  return tokens;
}

}  // namespace

Result<std::vector<NodeInfo>> ParseNodes(const cql::ResultSet& rows) {
  int peer = rows.ColumnIndex("peer");
  int rpc_address = rows.ColumnIndex("rpc_address");
  int tokens = rows.ColumnIndex("tokens");
  int schema_version = rows.ColumnIndex("schema_version");
  std::vector<NodeInfo> nodes;
  for (size_t row = 0; row < rows.row_count(); ++row) {
    NodeInfo node;
    for (int column : {rpc_address, peer}) {
      if (column < 0 || !node.address.empty()) continue;
      std::optional<std::string_view> value = rows.Value(row, static_cast<size_t>(column));
      if (!value) continue;
      ASSIGN_OR_RETURN(node.address, DecodeInet(*value));
      if (node.address == "0.0.0.0" || node.address == "::") node.address.clear();
    }
    if (tokens >= 0) {
      if (std::optional<std::string_view> value = rows.Value(row, static_cast<size_t>(tokens))) {
        ASSIGN_OR_RETURN(node.tokens, DecodeTokens(*value));
      }
    }
    if (schema_version >= 0) {
      if (std::optional<std::string_view> value =
              rows.Value(row, static_cast<size_t>(schema_version))) {
        node.schema_version = common::ToHex(*value);
      }
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace client
