// libFuzzer target for the storage layer's decoders: the row fragments (storage/row_fragment.h)
// every RocksDB value holds, the merge operator that folds them (storage/merge_operator.h,
// storage/cell_merge.h) and the keys of a table's column family (storage/key_layout.h). The
// first byte picks the mode (low two bits) and, for keys, the table shape (the rest); the
// remaining bytes are the input:
//   0 fragment  DecodeRowFragment never crashes; a fragment that decodes is valid, re-encodes
//               to the input bytes, and its canonical form re-encodes and decodes unchanged;
//               MergeFragments(f, f) == Canonical(f).
//   1 merge     up to four operands, each a 2-byte big-endian length and its bytes. The merge
//               operator (FullMergeV2 with the first as the base, PartialMergeMulti) never
//               crashes, succeeds exactly when every operand decodes, and then returns the
//               encoding of MergeAllFragments; MergeFragments is commutative and associative
//               on the operands that decode.
//   2 key       ParseKey never crashes; a key that parses is rebuilt byte for byte by the key
//               builders; PartitionPrefixSize and ParseRowClustering agree with ParseKey.
//   3 bound     ParseRowBoundKey never crashes; a bound that parses rebuilds to the same key.
// A violation aborts, so libFuzzer keeps the input (scripts/run-fuzzers moves it to
// tests/fuzz/regressions/storage/). Seeds: tests/fuzz/make_binary_corpus.cc.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell_merge.h"
#include "storage/merge_operator.h"
#include "tests/fuzz/storage_shapes.h"

namespace {

using storage::RowFragment;

[[noreturn]] void Violated(const char* what) {
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

void CheckFragment(std::string_view bytes) {
  auto decoded = storage::DecodeRowFragment(bytes);
  if (!decoded.ok()) return;
  if (!storage::ValidateRowFragment(*decoded).ok()) Violated("a decoded fragment is not valid");
  if (storage::EncodeRowFragment(*decoded) != bytes) {
    Violated("a decoded fragment re-encodes to other bytes");
  }
  RowFragment canonical = storage::Canonical(*decoded);
  if (!storage::ValidateRowFragment(canonical).ok()) Violated("a canonical fragment is invalid");
  auto again = storage::DecodeRowFragment(storage::EncodeRowFragment(canonical));
  if (!again.ok() || !(*again == canonical)) Violated("a canonical fragment does not round-trip");
  if (!(storage::MergeFragments(*decoded, *decoded) == canonical)) {
    Violated("MergeFragments(f, f) != Canonical(f)");
  }
}

std::vector<std::string_view> SplitOperands(std::string_view in) {
  std::vector<std::string_view> operands;
  while (operands.size() < 4 && in.size() >= 2) {
    size_t length = (static_cast<uint8_t>(in[0]) << 8) | static_cast<uint8_t>(in[1]);
    in.remove_prefix(2);
    length = std::min(length, in.size());
    operands.push_back(in.substr(0, length));
    in.remove_prefix(length);
  }
  return operands;
}

// The merge operator against MergeAllFragments on the same operands.
void CheckMergeOperator(const std::vector<std::string_view>& operands,
                        const std::vector<RowFragment>& decoded) {
  storage::RowFragmentMergeOperator merge_operator;
  bool all_decode = decoded.size() == operands.size();
  common::Bytes expected =
      all_decode ? storage::EncodeRowFragment(storage::MergeAllFragments(decoded)) : "";
  std::deque<rocksdb::Slice> slices(operands.begin(), operands.end());
  std::string partial;
  bool partial_ok =
      merge_operator.PartialMergeMulti(rocksdb::Slice("k"), slices, &partial, nullptr);
  if (partial_ok != all_decode) Violated("PartialMergeMulti disagrees with the decoder");
  if (partial_ok && partial != expected) Violated("PartialMergeMulti != MergeAllFragments");

  if (operands.empty()) return;
  rocksdb::Slice key("k");
  rocksdb::Slice base(operands[0]);
  std::vector<rocksdb::Slice> rest(slices.begin() + 1, slices.end());
  rocksdb::MergeOperator::MergeOperationInput in(key, &base, rest, nullptr);
  std::string full;
  rocksdb::Slice existing;
  rocksdb::MergeOperator::MergeOperationOutput out(full, existing);
  bool full_ok = merge_operator.FullMergeV2(in, &out);
  if (full_ok != all_decode) Violated("FullMergeV2 disagrees with the decoder");
  if (full_ok && full != expected) Violated("FullMergeV2 != MergeAllFragments");
}

void CheckMerge(std::string_view input) {
  std::vector<std::string_view> operands = SplitOperands(input);
  std::vector<RowFragment> decoded;
  for (std::string_view operand : operands) {
    auto fragment = storage::DecodeRowFragment(operand);
    if (fragment.ok()) decoded.push_back(std::move(*fragment));
  }
  CheckMergeOperator(operands, decoded);
  using storage::MergeFragments;
  for (size_t i = 0; i + 1 < decoded.size(); ++i) {
    const RowFragment& a = decoded[i];
    const RowFragment& b = decoded[i + 1];
    if (!(MergeFragments(a, b) == MergeFragments(b, a))) Violated("merge is not commutative");
    if (i + 2 < decoded.size()) {
      const RowFragment& c = decoded[i + 2];
      if (!(MergeFragments(MergeFragments(a, b), c) == MergeFragments(a, MergeFragments(b, c)))) {
        Violated("merge is not associative");
      }
    }
  }
}

common::Bytes RebuildKey(const storage::KeyShape& shape, const storage::ParsedKey& parsed) {
  common::Bytes prefix = storage::PartitionPrefix(shape, parsed.token, parsed.partition_key);
  switch (parsed.section) {
    case storage::KeySection::kPartitionDeletion:
      return storage::PartitionDeletionKey(prefix);
    case storage::KeySection::kStaticRow:
      return storage::StaticRowKey(prefix);
    case storage::KeySection::kRangeTombstone:
      return storage::RangeTombstoneKey(shape, prefix, parsed.range_start, parsed.range_end);
    case storage::KeySection::kRow:
      return storage::RowKey(shape, prefix, parsed.clustering);
  }
  return "";
}

void CheckKey(const storage::KeyShape& shape, std::string_view key) {
  auto parsed = storage::ParseKey(shape, key);
  if (!parsed.ok()) return;
  if (RebuildKey(shape, *parsed) != key) Violated("a parsed key rebuilds to other bytes");
  auto prefix_size = storage::PartitionPrefixSize(shape, key);
  common::Bytes prefix = storage::PartitionPrefix(shape, parsed->token, parsed->partition_key);
  if (!prefix_size.ok() || *prefix_size != prefix.size()) {
    Violated("PartitionPrefixSize disagrees with ParseKey");
  }
  std::vector<common::Bytes> clustering;
  common::Status row = storage::ParseRowClustering(shape, prefix.size(), key, &clustering);
  bool is_row = parsed->section == storage::KeySection::kRow;
  if (row.ok() != is_row || (is_row && clustering != parsed->clustering)) {
    Violated("ParseRowClustering disagrees with ParseKey");
  }
}

void CheckBound(const storage::KeyShape& shape, std::string_view key) {
  auto prefix_size = storage::PartitionPrefixSize(shape, key);
  if (!prefix_size.ok()) return;
  std::string_view prefix = key.substr(0, *prefix_size);
  auto bound = storage::ParseRowBoundKey(shape, prefix, key);
  if (!bound.ok()) return;
  if (storage::RowBoundKey(shape, prefix, *bound) != key) {
    Violated("a parsed row bound rebuilds to other bytes");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::vector<storage::KeyShape>& shapes = fuzz::StorageKeyShapes();
  const storage::KeyShape& shape = shapes[(data[0] >> 2) % shapes.size()];
  switch (data[0] & 3) {
    case 0:
      CheckFragment(input);
      break;
    case 1:
      CheckMerge(input);
      break;
    case 2:
      CheckKey(shape, input);
      break;
    default:
      CheckBound(shape, input);
      break;
  }
  return 0;
}
