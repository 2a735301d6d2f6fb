// Secondary index maintenance (index_maintenance.h).
//
// Entry timestamps. An entry (value, row) is one RocksDB entry merged by last-write-wins: an add
// writes a liveness marker, a removal a row deletion, and the entry is live while its newest
// marker is newer than its newest deletion (a deletion wins ties, storage_format.md M4). The
// timestamps come from the base row's live storage state the RowChange carries (`*_live`,
// `*_static_live`), never from the clock, so that a removal never shadows a later re-add (I1).
//
// Rule C (single cell): the value is held by one cell that the value determines — a simple (or
// frozen) cell of a regular or static column, a set element (its path is the element), a map
// key (KEYS: the path), a map entry (ENTRIES: the path and the cell's value). An add uses the
// timestamp ta of the cell holding the value after the write; a removal uses the timestamp tb
// of the cell that held it before.
//   C1. The live timestamp at one cell position never decreases: a write only replaces it by
//       winning last-write-wins, and a cell, collection, row, range or partition deletion at td
//       shadows everything <= td there, so a later live cell is > td >= tb.
//   C2. If the value left its cell at tb and comes back at ta, then ta > tb. At ta == tb the
//       returning cell would be identical to (or lose to) what it lost against: at one
//       timestamp the cell order (tombstone > expiring > greater value) is strict, so
//       A@t -> B@t -> A@t is impossible; and a deletion at td >= tb shadows A@tb for good.
//       Because the value determines the position, "came back" means "at the same position".
//   C3. So the removal (deletion at tb) shadows every earlier add of the value (all <= tb by
//       C1) and never a later one (> tb by C2). Example A@1 -> B@2 -> A@3: remove A at 1, add
//       B at 2; remove B at 2, add A at 3: A live (3 > 1), B dead. Ties, A@1 -> X@2 (X < A) ->
//       A@2 (A > X wins the tie): remove A at 1, add X at 2; remove X at 2, add A at 2: A live.
//       (Removing at the *replacing* cell's timestamp instead would have removed A at 2 and
//       shadowed the add at 2.) A value written again (another timestamp or TTL) is added
//       again. An expiring cell gives its entry the same TTL and one more second, so entries
//       of expired values disappear with them.
//
// Rule R (read the entry): other values — list elements and map values (several cells, at
// unrelated positions, may hold one value) and key columns (held by the row's liveness: its
// marker or any live cell) — can leave at tb and come back at a lower timestamp (UPDATE ...
// USING TIMESTAMP, client clocks behind), so no timestamp taken from the row alone is safe.
// Their writes read the stored entry (all writes of one entry are serialized by the base
// partition lock: the entry key holds the whole base key): an add writes its marker at the
// newest holder's timestamp, or one microsecond above the stored deletion when that would
// shadow it; a removal writes its deletion at the newest of the old holders' timestamp and the
// stored marker's, so it shadows every add so far. These entries do not expire (a stale entry
// only costs reads time; a later removal cleans it up).
//
// Which entries change, for a RowChange (before, after) of a row and an index:
//   - add every value of `after` not in `before` (Rule C: or held there with another timestamp
//     or TTL);
//   - remove every value of `before` not in `after`;
//   - partition-level indexes (static columns) see each row of the partition, and its
//     static-only row when it has no live row: they add as above, but remove only when `after`
//     is live (a row that disappears may leave the partition's static value in place);
//   - row-level indexes ignore static-only rows.

#include "engine/index_maintenance.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "common/logging.h"
#include "cql/parser/statement.h"
#include "engine/index_schema.h"
#include "storage/key_encoding.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

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
  EntryWriter(const storage::Store& store, const IndexSchema& schema, const WriteParams& params,
              storage::WriteBatch* batch, IndexBuild build)
      : store_(store), schema_(schema), params_(params), batch_(batch), build_(build) {}

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
    ASSIGN_OR_RETURN(int64_t token, storage::DecodeToken(change.partition.prefix));
    std::vector<IndexedValue> before;
    std::vector<IndexedValue> after;
    if (change.before) {
      ASSIGN_OR_RETURN(
          before, schema_.ValuesOf(*change.before, change.before_live, change.before_static_live));
    }
    if (change.after) {
      ASSIGN_OR_RETURN(
          after, schema_.ValuesOf(*change.after, change.after_live, change.after_static_live));
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
      bool rewritten = value.single_cell && old != nullptr &&
                       (old->timestamp != value.timestamp || old->ttl != value.ttl ||
                        old->expiration != value.expiration);
      if (old == nullptr || rewritten) {
        RETURN_IF_ERROR(Add(value, token, change));
      }
    }
    if (!row_level && !change.after) return Status::Ok();
    for (const IndexedValue& value : before) {
      if (find(after, value) == nullptr) RETURN_IF_ERROR(Remove(value, token, change));
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
      std::string message = fmt::format(
          "Cannot index value of size {} for index {} on {}.{}({}) (maximum allowed size={})", size,
          schema_.index().name, cql::QuoteIdentifierIfNeeded(table.keyspace),
          cql::QuoteIdentifierIfNeeded(table.name), column.name, kMaxIndexedValueSize);
      if (build_ == IndexBuild::kWrite) return Status::Invalid(message);
      LOG_WARNING("{}; the row is left out of the index", message);
      return Status::Ok();
    }
    Bytes key = Key(value, token, change);
    storage::LivenessInfo liveness;
    liveness.timestamp = value.timestamp;
    if (value.single_cell) {
      if (value.ttl > 0) {
        liveness.ttl = value.ttl + 1;
        liveness.local_expiration_time = value.expiration + 1;
      }
    } else {
      // Rule R: above the stored deletion.
      ASSIGN_OR_RETURN(std::optional<storage::RowFragment> stored,
                       store_.Get(schema_.storage_id(), key));
      if (stored && stored->deletion && stored->deletion->Deletes(liveness.timestamp)) {
        liveness.timestamp = stored->deletion->timestamp + 1;
      }
    }
    Write(std::move(key), /*add=*/true, liveness.timestamp,
          [&](storage::RowFragment* f) { f->liveness = liveness; });
    return Status::Ok();
  }

  Status Remove(const IndexedValue& value, int64_t token, const RowChange& change) {
    Bytes key = Key(value, token, change);
    int64_t timestamp = value.timestamp;
    if (!value.single_cell) {
      // Rule R: over every add so far.
      ASSIGN_OR_RETURN(std::optional<storage::RowFragment> stored,
                       store_.Get(schema_.storage_id(), key));
      if (stored && stored->liveness) {
        timestamp = std::max(timestamp, stored->liveness->timestamp);
      }
    }
    Write(std::move(key), /*add=*/false, timestamp, [&](storage::RowFragment* f) {
      f->deletion = storage::DeletionTime{timestamp, params_.now_seconds};
    });
    return Status::Ok();
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

  const storage::Store& store_;
  const IndexSchema& schema_;
  const WriteParams& params_;
  storage::WriteBatch* batch_;
  const IndexBuild build_;
  std::set<std::tuple<Bytes, bool, int64_t>> written_;
};

}  // namespace

Status AddIndexMutations(const storage::Store& store, const TableSchema& base,
                         std::span<const schema::IndexMetadata* const> indexes,
                         std::span<const RowChange> changes, const WriteParams& params,
                         storage::WriteBatch* batch, IndexBuild build) {
  for (const schema::IndexMetadata* index : indexes) {
    if (index == nullptr || index->kind != "COMPOSITES") continue;
    ASSIGN_OR_RETURN(IndexSchema schema, IndexSchema::Make(base, *index));
    EntryWriter writer(store, schema, params, batch, build);
    for (const RowChange& change : changes) RETURN_IF_ERROR(writer.Apply(change));
  }
  return Status::Ok();
}

}  // namespace engine
