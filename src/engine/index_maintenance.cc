// Secondary index maintenance (index_maintenance.h).
//
// Entry timestamps. An entry (value, row) is one RocksDB entry merged by last-write-wins: an add
// writes a liveness marker, a removal a row deletion, and the entry is live while its newest
// marker is newer than its newest deletion (a deletion wins ties, storage_format.md M4). Two
// rules pick the timestamps, both so that a removal can never shadow a later re-add (I1):
//
// Rule C (cell time): the indexed value is a simple cell of a regular or static column, whose
// write time the RowChange carries. An add uses the cell's timestamp ta; a removal uses the
// timestamp tb of the cell in `before` that held the value.
//   C1. A base cell's live timestamp never decreases: a write only replaces it by winning
//       last-write-wins, and a row/partition/range deletion at td shadows everything <= td, so
//       a later live cell is > td >= tb.
//   C2. If the value left the cell at tb and comes back at ta, then ta > tb. At ta == tb the
//       returning cell would be identical to (or lose to) what it lost against: at one
//       timestamp the cell order (tombstone > expiring > greater value) is a strict order, so
//       A@t -> B@t -> A@t is impossible; and a deletion at td >= tb shadows A@tb for good.
//   C3. So the removal (deletion at tb) shadows every earlier add of the value (all <= tb by
//       C1) and never a later one (> tb by C2). Example A@1 -> B@2 -> A@3: remove A at 1, add
//       B at 2; remove B at 2, add A at 3: A live (3 > 1), B dead. Ties, A@1 -> X@2 (X < A) ->
//       A@2 (A > X wins the tie): remove A at 1, add X at 2; remove X at 2, add A at 2: A live.
//       (Removing at the *replacing* cell's timestamp instead would have removed A at 2 and
//       shadowed the add at 2.) An expiring cell gives its entry the same TTL plus one second,
//       so entries of expired values disappear with them.
//
// Rule W (write clock): other indexed values — collection elements, map keys and entries, and
// partition key or clustering columns — have no per-value timestamp in a RowChange. Changes of
// one row happen under its partition lock, in order, so the write's clock second S (=
// params.now_seconds) orders them: an add writes a marker at S*10^6 + 999999 (the end of second
// S), a removal a deletion at (S - kClockStepTolerance)*10^6 - 1.
//   W1. A removal at second S shadows exactly the adds of seconds <= S - kClockStepTolerance - 1.
//   W2. Every later re-add happens at a second >= S - kClockStepTolerance as long as the clock
//       does not step back by more than kClockStepTolerance seconds between the two writes, so
//       it is never shadowed. Adds and removals within the tolerance of each other leave the
//       entry live: stale, which reads tolerate; a later removal cleans it up.
//
// Which entries change, for a RowChange (before, after) of a row and an index:
//   - add every value of `after` not in `before` (Rule C: or held there with another timestamp);
//   - remove every value of `before` not in `after`;
//   - partition-level indexes (static columns) see each row of the partition: they add as
//     above, but remove only when `after` is a live row (a row that disappears may leave the
//     partition's static value in place).

#include "engine/index_maintenance.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "cql/key_encoding.h"
#include "cql/statement.h"
#include "engine/index_schema.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// How far back (seconds) the node's clock may step between two writes of a row without a
// Rule W re-add being shadowed by an earlier removal.
constexpr int64_t kClockStepTolerance = 5;
// Cassandra's limit on an indexed value (FBUtilities.MAX_UNSIGNED_SHORT).
constexpr size_t kMaxIndexedValueSize = 65535;

// The size Cassandra checks: the value, or for map entries the composite of key and value
// (each component: 2-byte length, bytes, end-of-component byte).
size_t IndexedSize(const IndexSchema& schema, const IndexedValue& value) {
  if (schema.part() != IndexedPart::kMapEntries) return value.parts[0].size();
  size_t size = 0;
  for (const Bytes& part : value.parts) size += part.size() + 3;
  return size;
}

class EntryWriter {
 public:
  EntryWriter(const IndexSchema& schema, const WriteParams& params, storage::WriteBatch* batch)
      : schema_(schema), params_(params), batch_(batch) {}

  Status Apply(const RowChange& change) {
    const TableSchema& base = schema_.base();
    bool row_level = !schema_.partition_level();
    if (row_level) {
      // Rows only: a static-only row has no entry of a row-level index.
      if (change.clustering.size() != base.clustering.size()) return Status::Ok();
      if ((change.before && change.before->static_only) ||
          (change.after && change.after->static_only)) {
        return Status::Ok();
      }
    }
    if (change.partition.values.size() != base.partition_key.size()) {
      return Status::Internal("a row change without its partition key");
    }
    ASSIGN_OR_RETURN(int64_t token, cql::DecodeToken(change.partition.prefix));
    std::vector<IndexedValue> before;
    std::vector<IndexedValue> after;
    if (change.before) {
      ASSIGN_OR_RETURN(before, schema_.ValuesOf(*change.before));
    }
    if (change.after) {
      ASSIGN_OR_RETURN(after, schema_.ValuesOf(*change.after));
    }
    // ValuesOf sorts by parts: look values up by binary search (collections can be large).
    auto find = [](const std::vector<IndexedValue>& values,
                   const IndexedValue& value) -> const IndexedValue* {
      auto it = std::lower_bound(
          values.begin(), values.end(), value,
          [](const IndexedValue& a, const IndexedValue& b) { return a.parts < b.parts; });
      return it != values.end() && it->parts == value.parts ? &*it : nullptr;
    };
    for (const IndexedValue& value : after) {
      const IndexedValue* old = find(before, value);
      bool rewritten = schema_.cell_timestamps() && old != nullptr &&
                       (old->timestamp != value.timestamp || old->ttl != value.ttl);
      if (old == nullptr || rewritten) {
        RETURN_IF_ERROR(Add(value, token, change));
      }
    }
    if (!row_level && !change.after) return Status::Ok();
    for (const IndexedValue& value : before) {
      if (find(after, value) == nullptr) Remove(value, token, change);
    }
    return Status::Ok();
  }

 private:
  Bytes Key(const IndexedValue& value, int64_t token, const RowChange& change) const {
    return schema_.EntryKey(schema_.ValuePrefix(value.parts), token, change.partition.values,
                            change.clustering);
  }

  Status Add(const IndexedValue& value, int64_t token, const RowChange& change) {
    const schema::ColumnMetadata& column = schema_.base().column(schema_.column());
    bool key_column = column.kind == schema::ColumnKind::kPartitionKey ||
                      column.kind == schema::ColumnKind::kClustering;
    size_t size = IndexedSize(schema_, value);
    if (!key_column && size >= kMaxIndexedValueSize) {
      const schema::TableMetadata& table = *schema_.base().table;
      return Status::Invalid(fmt::format(
          "Cannot index value of size {} for index {} on {}.{}({}) (maximum allowed size={})", size,
          schema_.index().name, cql::QuoteIdentifierIfNeeded(table.keyspace),
          cql::QuoteIdentifierIfNeeded(table.name), column.name, kMaxIndexedValueSize));
    }
    storage::LivenessInfo liveness;
    if (schema_.cell_timestamps()) {
      liveness.timestamp = value.timestamp;
      if (value.ttl > 0) {
        liveness.ttl = int64_t{value.ttl} + 1;
        liveness.local_expiration_time = params_.now_seconds + liveness.ttl;
      }
    } else {
      liveness.timestamp = params_.now_seconds * kMicrosPerSecond + (kMicrosPerSecond - 1);
    }
    Write(Key(value, token, change), /*add=*/true, liveness.timestamp,
          [&](storage::RowFragment* f) { f->liveness = liveness; });
    return Status::Ok();
  }

  void Remove(const IndexedValue& value, int64_t token, const RowChange& change) {
    int64_t timestamp = schema_.cell_timestamps()
                            ? value.timestamp
                            : (params_.now_seconds - kClockStepTolerance) * kMicrosPerSecond - 1;
    Write(Key(value, token, change), /*add=*/false, timestamp, [&](storage::RowFragment* f) {
      f->deletion = storage::DeletionTime{timestamp, params_.now_seconds};
    });
  }

  // Writes one entry fragment, once per (key, kind, timestamp) within this call: a
  // partition-level index sees the same static value through every row of the partition.
  template <typename Fill>
  void Write(Bytes key, bool add, int64_t timestamp, Fill fill) {
    auto [it, inserted] = written_.emplace(std::move(key), add, timestamp);
    if (!inserted) return;
    storage::RowFragment fragment;
    fill(&fragment);
    batch_->Merge(schema_.storage_id(), std::get<0>(*it), fragment);
  }

  const IndexSchema& schema_;
  const WriteParams& params_;
  storage::WriteBatch* batch_;
  std::set<std::tuple<Bytes, bool, int64_t>> written_;
};

}  // namespace

Status AddIndexMutations(const TableSchema& base,
                         std::span<const schema::IndexMetadata* const> indexes,
                         std::span<const RowChange> changes, const WriteParams& params,
                         storage::WriteBatch* batch) {
  for (const schema::IndexMetadata* index : indexes) {
    if (index == nullptr || index->kind != "COMPOSITES") continue;
    ASSIGN_OR_RETURN(IndexSchema schema, IndexSchema::Make(base, *index));
    EntryWriter writer(schema, params, batch);
    for (const RowChange& change : changes) RETURN_IF_ERROR(writer.Apply(change));
  }
  return Status::Ok();
}

}  // namespace engine
