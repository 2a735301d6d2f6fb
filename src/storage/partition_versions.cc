#include "storage/partition_versions.h"

#include <algorithm>

namespace storage {

size_t PartitionVersions::StripeOf(std::string_view table_id, std::string_view key_or_prefix) {
  // FNV-1a over the table id and the token (the first 8 bytes of every key of a partition),
  // then a final mix so that consecutive tokens spread over the stripes.
  uint64_t hash = 14695981039346656037ull;
  auto add = [&hash](std::string_view bytes) {
    for (char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
  };
  add(table_id);
  add(key_or_prefix.substr(0, std::min<size_t>(8, key_or_prefix.size())));
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdull;
  hash ^= hash >> 33;
  return static_cast<size_t>(hash % kStripes);
}

}  // namespace storage
