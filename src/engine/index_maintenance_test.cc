#include "engine/index_maintenance.h"

#include <filesystem>
#include <map>
#include <optional>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/value_codec.h"
#include "engine/index_schema.h"
#include "schema/ddl_testing.h"
#include "storage/key_layout.h"

namespace engine {
namespace {

using common::Bytes;

constexpr int64_t kNow = 1'700'000'000;  // seconds

// A table with one index of each kind, a real store holding the index families, and helpers
// that build RowChanges by hand and check whether an entry is live.
class IndexMaintenanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-idx-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    clock_.SetMicros(kNow * 1'000'000);
    auto store = storage::Store::Open(directory_, storage::StoreOptions{&clock_});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    ASSERT_TRUE(schema::ApplyScript(&catalog_, R"(
      CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
      CREATE TABLE ks.t (k int, c int, s text STATIC, v text, tags set<int>, l list<int>,
                         m map<text, int>, f frozen<list<int>>, PRIMARY KEY (k, c));
      CREATE INDEX v_idx ON ks.t (v);
      CREATE INDEX s_idx ON ks.t (s);
      CREATE INDEX c_idx ON ks.t (c);
      CREATE INDEX tags_idx ON ks.t (tags);
      CREATE INDEX l_idx ON ks.t (l);
      CREATE INDEX m_keys ON ks.t (KEYS(m));
      CREATE INDEX m_values ON ks.t (VALUES(m));
      CREATE INDEX m_entries ON ks.t (ENTRIES(m));
      CREATE INDEX f_idx ON ks.t (FULL(f));
      CREATE CUSTOM INDEX v_custom ON ks.t (v) USING 'org.example.Custom';
    )")
                    .ok());
    table_ = catalog_->FindTable("ks", "t");
    ASSERT_NE(table_, nullptr);
    base_ = std::make_unique<TableSchema>(table_);
    for (const auto& [name, index] : table_->indexes) {
      ASSERT_TRUE(store_->CreateTable(StorageId(index.id), storage::TableOptions{}).ok());
      indexes_.push_back(&index);
    }
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(directory_);
  }

  // One version of a row: as assembled, and its live cells (row_change.h).
  struct Version {
    RowData row;
    storage::RowFragment live;
    storage::RowFragment static_live;
  };

  // A live row (k, c) with the given columns: name -> (value, timestamp); a non-frozen
  // collection value gives one cell per element, all at that timestamp. `ttl` > 0 makes the
  // simple cells expire at kNow + ttl. `marker` >= 0: the row's liveness marker timestamp.
  Version Row(int k, int c, const std::map<std::string, std::pair<Bytes, int64_t>>& cells,
              int32_t ttl = 0, int64_t marker = -1) const {
    Version version;
    RowData& row = version.row;
    row.cells.resize(table_->columns.size());
    row.cells[base_->IndexOfColumn("k")].value = cql::SerializeInt(k);
    row.cells[base_->IndexOfColumn("c")].value = cql::SerializeInt(c);
    if (marker >= 0) version.live.liveness = storage::LivenessInfo{marker, 0, 0};
    for (const auto& [name, cell] : cells) {
      const schema::ColumnMetadata& column = *table_->FindColumn(name);
      CellData& data = row.cells[base_->IndexOfColumn(name)];
      data.value = cell.first;
      data.timestamp = cell.second;
      data.ttl = ttl;
      storage::RowFragment& fragment =
          column.kind == schema::ColumnKind::kStatic ? version.static_live : version.live;
      storage::Cell stored;
      stored.column_id = column.column_id;
      stored.timestamp = cell.second;
      const cql::CqlType& type = column.type;
      if (type.IsCollection() && type.IsMultiCell()) {
        if (type.kind() == cql::TypeKind::kMap) {
          auto entries = cql::SplitMap(cell.first);
          EXPECT_TRUE(entries.ok());
          for (const cql::MapEntryView& entry : *entries) {
            stored.path = ElementPath(type.key(), entry.key);
            stored.value = Bytes(entry.value);
            fragment.cells.push_back(stored);
          }
        } else {
          auto elements = cql::SplitListOrSet(type, cell.first);
          EXPECT_TRUE(elements.ok());
          char position = 0;
          for (std::string_view element : *elements) {
            if (type.kind() == cql::TypeKind::kSet) {
              stored.path = ElementPath(type.element(), element);
              stored.value.clear();
            } else {
              stored.path = Bytes(15, '\0') + Bytes(1, ++position);
              stored.value = Bytes(element);
            }
            fragment.cells.push_back(stored);
          }
        }
        continue;
      }
      stored.value = cell.first;
      if (ttl > 0) {
        stored.kind = storage::CellKind::kExpiring;
        stored.ttl = ttl;
        stored.local_deletion_time = kNow + ttl;
      }
      fragment.cells.push_back(stored);
    }
    storage::SortCells(&version.live);
    storage::SortCells(&version.static_live);
    return version;
  }
  RowChange Change(int k, int c, std::optional<Version> before, std::optional<Version> after) {
    RowChange change;
    change.partition.values = {cql::SerializeInt(k)};
    change.partition.prefix = storage::PartitionPrefix(base_->shape, change.partition.values);
    change.clustering = {cql::SerializeInt(c)};
    if (before) {
      change.before = std::move(before->row);
      change.before_live = std::move(before->live);
      change.before_static_live = std::move(before->static_live);
    }
    if (after) {
      change.after = std::move(after->row);
      change.after_live = std::move(after->live);
      change.after_static_live = std::move(after->static_live);
    }
    return change;
  }
  common::Status Apply(std::vector<RowChange> changes, int64_t now = kNow) {
    WriteParams params;
    params.now_seconds = now;
    params.timestamp = now * 1'000'000;
    storage::WriteBatch batch;
    RETURN_IF_ERROR(AddIndexMutations(*store_, *base_, indexes_, changes, params, &batch));
    if (batch.empty()) return common::Status::Ok();
    return store_->Write(batch);
  }
  // The stored fragment of the entry (parts, row (k, c)) of `index_name`.
  std::optional<storage::RowFragment> Entry(std::string_view index_name, std::vector<Bytes> parts,
                                            int k, int c) {
    const schema::IndexMetadata& index = table_->indexes.at(std::string(index_name));
    auto schema = IndexSchema::Make(*base_, index);
    EXPECT_TRUE(schema.ok()) << schema.status().ToString();
    std::vector<Bytes> pk = {cql::SerializeInt(k)};
    std::vector<Bytes> ck = {cql::SerializeInt(c)};
    Bytes key = schema->EntryKey(schema->ValuePrefix(parts), storage::PartitionToken(pk), pk, ck);
    auto fragment = store_->Get(schema->storage_id(), key);
    EXPECT_TRUE(fragment.ok()) << fragment.status().ToString();
    return fragment.ok() ? *fragment : std::nullopt;
  }
  bool Live(std::string_view index_name, std::vector<Bytes> parts, int k, int c,
            int64_t now = kNow) {
    std::optional<storage::RowFragment> f = Entry(index_name, std::move(parts), k, c);
    return f && f->liveness && f->liveness->IsLive(now) &&
           !(f->deletion && f->deletion->Deletes(f->liveness->timestamp));
  }
  size_t IndexEntries(std::string_view index_name) {
    const schema::IndexMetadata& index = table_->indexes.at(std::string(index_name));
    auto it = store_->NewIterator(StorageId(index.id), storage::KeyRange{});
    EXPECT_TRUE(it.ok());
    size_t n = 0;
    for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) ++n;
    return n;
  }

  static Bytes Text(std::string_view s) { return Bytes(s); }
  static Bytes Int(int v) { return cql::SerializeInt(v); }
  Bytes Set(std::vector<int> values) const {
    std::vector<Bytes> elements;
    for (int v : values) elements.push_back(Int(v));
    return cql::SerializeCollection(table_->FindColumn("tags")->type, std::move(elements));
  }
  Bytes Map(std::vector<std::pair<std::string, int>> entries) const {
    std::vector<std::pair<Bytes, Bytes>> serialized;
    for (const auto& [key, value] : entries) serialized.emplace_back(Text(key), Int(value));
    return cql::SerializeMap(table_->FindColumn("m")->type, std::move(serialized));
  }

  std::string directory_;
  common::ManualClock clock_;
  std::unique_ptr<storage::Store> store_;
  std::shared_ptr<const schema::Catalog> catalog_ = schema::Catalog::Empty();
  const schema::TableMetadata* table_ = nullptr;
  std::unique_ptr<TableSchema> base_;
  std::vector<const schema::IndexMetadata*> indexes_;
};

TEST_F(IndexMaintenanceTest, ValueChangesMoveTheEntryAndBackAgain) {
  // A@1 -> B@2 -> A@3.
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("A"), 1}}}))}).ok());
  EXPECT_TRUE(Live("v_idx", {Text("A")}, 1, 1));
  ASSERT_TRUE(
      Apply({Change(1, 1, Row(1, 1, {{"v", {Text("A"), 1}}}), Row(1, 1, {{"v", {Text("B"), 2}}}))})
          .ok());
  EXPECT_FALSE(Live("v_idx", {Text("A")}, 1, 1));
  EXPECT_TRUE(Live("v_idx", {Text("B")}, 1, 1));
  ASSERT_TRUE(
      Apply({Change(1, 1, Row(1, 1, {{"v", {Text("B"), 2}}}), Row(1, 1, {{"v", {Text("A"), 3}}}))})
          .ok());
  EXPECT_TRUE(Live("v_idx", {Text("A")}, 1, 1));
  EXPECT_FALSE(Live("v_idx", {Text("B")}, 1, 1));
  // The removal of A was written at A's own timestamp, 1; the re-add at 3.
  std::optional<storage::RowFragment> a = Entry("v_idx", {Text("A")}, 1, 1);
  ASSERT_TRUE(a && a->liveness);
  EXPECT_EQ(a->liveness->timestamp, 3);
}

TEST_F(IndexMaintenanceTest, EqualTimestampsNeverShadowTheReturningValue) {
  // b@1 -> a@2 -> b@2: at equal timestamps the greater value wins, so b comes back at 2.
  // Removing b at the timestamp that replaced it (2) would shadow its re-add at 2; the removal
  // is written at b's own timestamp (1) instead.
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("b"), 1}}}))}).ok());
  ASSERT_TRUE(
      Apply({Change(1, 1, Row(1, 1, {{"v", {Text("b"), 1}}}), Row(1, 1, {{"v", {Text("a"), 2}}}))})
          .ok());
  EXPECT_FALSE(Live("v_idx", {Text("b")}, 1, 1));
  EXPECT_TRUE(Live("v_idx", {Text("a")}, 1, 1));
  ASSERT_TRUE(
      Apply({Change(1, 1, Row(1, 1, {{"v", {Text("a"), 2}}}), Row(1, 1, {{"v", {Text("b"), 2}}}))})
          .ok());
  EXPECT_TRUE(Live("v_idx", {Text("b")}, 1, 1));
  EXPECT_FALSE(Live("v_idx", {Text("a")}, 1, 1));
  // And a third value winning the next tie: c@2.
  ASSERT_TRUE(
      Apply({Change(1, 1, Row(1, 1, {{"v", {Text("b"), 2}}}), Row(1, 1, {{"v", {Text("c"), 2}}}))})
          .ok());
  EXPECT_FALSE(Live("v_idx", {Text("b")}, 1, 1));
  EXPECT_TRUE(Live("v_idx", {Text("c")}, 1, 1));
}

TEST_F(IndexMaintenanceTest, OutOfOrderTimestampsAndDeletions) {
  // A@10 written with USING TIMESTAMP; the row deleted at 20; then A@15 (shadowed: no change is
  // captured) and A@25.
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("A"), 10}}}))}).ok());
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"v", {Text("A"), 10}}}), std::nullopt)}).ok());
  EXPECT_FALSE(Live("v_idx", {Text("A")}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("A"), 25}}}))}).ok());
  EXPECT_TRUE(Live("v_idx", {Text("A")}, 1, 1));
  // A value written again (same bytes, newer timestamp), then replaced: the removal at the
  // newer timestamp shadows both adds.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"v", {Text("A"), 25}}}),
                            Row(1, 1, {{"v", {Text("A"), 30}}}))})
                  .ok());
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"v", {Text("A"), 30}}}),
                            Row(1, 1, {{"v", {Text("B"), 31}}}))})
                  .ok());
  EXPECT_FALSE(Live("v_idx", {Text("A")}, 1, 1));
  // Deleting the cell (the row stays).
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"v", {Text("B"), 31}}}), Row(1, 1, {}))}).ok());
  EXPECT_FALSE(Live("v_idx", {Text("B")}, 1, 1));
}

TEST_F(IndexMaintenanceTest, ExpiringCellsGiveExpiringEntries) {
  ASSERT_TRUE(
      Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("A"), 1}}}, /*ttl=*/100))}).ok());
  EXPECT_TRUE(Live("v_idx", {Text("A")}, 1, 1, kNow + 100));
  EXPECT_FALSE(Live("v_idx", {Text("A")}, 1, 1, kNow + 101));
  // Written again without TTL at a later timestamp: no longer expiring.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"v", {Text("A"), 1}}}, 100),
                            Row(1, 1, {{"v", {Text("A"), 2}}}))})
                  .ok());
  EXPECT_TRUE(Live("v_idx", {Text("A")}, 1, 1, kNow + 1000));
}

TEST_F(IndexMaintenanceTest, StaticColumnEntriesArePerPartition) {
  // Two rows of partition 1 with s = 'x'.
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"s", {Text("x"), 5}}})),
                     Change(1, 2, std::nullopt, Row(1, 2, {{"s", {Text("x"), 5}}}))})
                  .ok());
  EXPECT_TRUE(Live("s_idx", {Text("x")}, 1, 0));
  EXPECT_EQ(IndexEntries("s_idx"), 1u);
  // Deleting a row does not remove the partition's value.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"s", {Text("x"), 5}}}), std::nullopt)}).ok());
  EXPECT_TRUE(Live("s_idx", {Text("x")}, 1, 0));
  // Changing the static value moves the entry.
  ASSERT_TRUE(
      Apply({Change(1, 2, Row(1, 2, {{"s", {Text("x"), 5}}}), Row(1, 2, {{"s", {Text("y"), 6}}}))})
          .ok());
  EXPECT_FALSE(Live("s_idx", {Text("x")}, 1, 0));
  EXPECT_TRUE(Live("s_idx", {Text("y")}, 1, 0));
}

TEST_F(IndexMaintenanceTest, SetElementsFollowTheirCells) {
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"tags", {Set({1, 2}), 10}}}))}).ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(2)}, 1, 1));
  std::optional<storage::RowFragment> one = Entry("tags_idx", {Int(1)}, 1, 1);
  ASSERT_TRUE(one && one->liveness);
  EXPECT_EQ(one->liveness->timestamp, 10);  // the element's own timestamp, not the clock
  // 1 removed, 3 added at 20: the removal is written at 1's timestamp (10).
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1, 2}), 10}}}),
                            Row(1, 1, {{"tags", {Set({2, 3}), 20}}}))})
                  .ok());
  EXPECT_FALSE(Live("tags_idx", {Int(1)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(2)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(3)}, 1, 1));
  one = Entry("tags_idx", {Int(1)}, 1, 1);
  ASSERT_TRUE(one && one->deletion);
  EXPECT_EQ(one->deletion->timestamp, 10);
  // Re-added right after (at 21, above the tombstone at 20 that removed it): live.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({2, 3}), 20}}}),
                            Row(1, 1, {{"tags", {Set({1, 2, 3}), 21}}}))})
                  .ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
}

TEST_F(IndexMaintenanceTest, TheClockSteppingBackChangesNothing) {
  // The write clock (the `now` of each write) jumps back by an hour between the removal and
  // the re-add; entry timestamps come from the cells only.
  ASSERT_TRUE(
      Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"tags", {Set({1}), 100}}}))}, kNow).ok());
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1}), 100}}}),
                            Row(1, 1, {{"tags", {Set({}), 0}}}, 0, /*marker=*/100))},
                    kNow)
                  .ok());
  EXPECT_FALSE(Live("tags_idx", {Int(1)}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {}, 0, 100), Row(1, 1, {{"tags", {Set({1}), 101}}}))},
                    kNow - 3600)
                  .ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
  // And a removal in the same second as the add is not left stale.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1}), 101}}}),
                            Row(1, 1, {}, 0, /*marker=*/100))},
                    kNow - 3600)
                  .ok());
  EXPECT_FALSE(Live("tags_idx", {Int(1)}, 1, 1));
}

TEST_F(IndexMaintenanceTest, MapEntriesAtoBtoAWithTies) {
  // m['a'] = 1 @1, then 0 @2, then 1 @2 (1 > 0 wins the tie).
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"m", {Map({{"a", 1}}), 1}}}))}).ok());
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"m", {Map({{"a", 1}}), 1}}}),
                            Row(1, 1, {{"m", {Map({{"a", 0}}), 2}}}))})
                  .ok());
  EXPECT_FALSE(Live("m_entries", {Text("a"), Int(1)}, 1, 1));
  EXPECT_TRUE(Live("m_entries", {Text("a"), Int(0)}, 1, 1));
  // The key stayed: its entry was written again at 2 (its cell's new timestamp).
  EXPECT_TRUE(Live("m_keys", {Text("a")}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"m", {Map({{"a", 0}}), 2}}}),
                            Row(1, 1, {{"m", {Map({{"a", 1}}), 2}}}))})
                  .ok());
  EXPECT_TRUE(Live("m_entries", {Text("a"), Int(1)}, 1, 1));
  EXPECT_FALSE(Live("m_entries", {Text("a"), Int(0)}, 1, 1));
  EXPECT_TRUE(Live("m_values", {Int(1)}, 1, 1));
  EXPECT_FALSE(Live("m_values", {Int(0)}, 1, 1));
}

TEST_F(IndexMaintenanceTest, ListAndMapValuesReturningAtALowerTimestampStayLive) {
  // l = [5] @10; l = [] (5 removed, at 10); l = [5] USING TIMESTAMP 3: several positions can
  // hold one value, so the re-add at 3 is written above the stored removal.
  Bytes five = cql::SerializeCollection(table_->FindColumn("l")->type, {Int(5)});
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"l", {five, 10}}}))}).ok());
  EXPECT_TRUE(Live("l_idx", {Int(5)}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"l", {five, 10}}}), Row(1, 1, {}, 0, 1))}).ok());
  EXPECT_FALSE(Live("l_idx", {Int(5)}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {}, 0, 1), Row(1, 1, {{"l", {five, 3}}}))}).ok());
  EXPECT_TRUE(Live("l_idx", {Int(5)}, 1, 1));
  std::optional<storage::RowFragment> entry = Entry("l_idx", {Int(5)}, 1, 1);
  ASSERT_TRUE(entry && entry->liveness);
  EXPECT_EQ(entry->liveness->timestamp, 11);
  // Removed again (held at 3): the removal covers the marker at 11.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"l", {five, 3}}}), Row(1, 1, {}, 0, 1))}).ok());
  EXPECT_FALSE(Live("l_idx", {Int(5)}, 1, 1));
  // The same for a map value moving to another key at a lower timestamp.
  ASSERT_TRUE(Apply({Change(2, 1, std::nullopt, Row(2, 1, {{"m", {Map({{"a", 7}}), 10}}}))}).ok());
  ASSERT_TRUE(Apply({Change(2, 1, Row(2, 1, {{"m", {Map({{"a", 7}}), 10}}}),
                            Row(2, 1, {{"m", {Map({{"a", 8}}), 11}}}))})
                  .ok());
  EXPECT_FALSE(Live("m_values", {Int(7)}, 2, 1));
  ASSERT_TRUE(Apply({Change(2, 1, Row(2, 1, {{"m", {Map({{"a", 8}}), 11}}}),
                            Row(2, 1, {{"m", {Map({{"a", 8}, {"b", 7}}), 5}}}))})
                  .ok());
  EXPECT_TRUE(Live("m_values", {Int(7)}, 2, 1));
}

TEST_F(IndexMaintenanceTest, ListValuesAreIndexedOnce) {
  std::vector<Bytes> elements = {Int(7), Int(7), Int(8)};
  Bytes list = cql::SerializeCollection(table_->FindColumn("l")->type, elements);
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"l", {list, 0}}}))}).ok());
  EXPECT_TRUE(Live("l_idx", {Int(7)}, 1, 1));
  EXPECT_TRUE(Live("l_idx", {Int(8)}, 1, 1));
  EXPECT_EQ(IndexEntries("l_idx"), 2u);
}

TEST_F(IndexMaintenanceTest, MapKeysValuesAndEntries) {
  ASSERT_TRUE(
      Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"m", {Map({{"a", 1}, {"b", 2}}), 0}}}))}, 100)
          .ok());
  EXPECT_TRUE(Live("m_keys", {Text("a")}, 1, 1));
  EXPECT_TRUE(Live("m_values", {Int(2)}, 1, 1));
  EXPECT_TRUE(Live("m_entries", {Text("a"), Int(1)}, 1, 1));
  EXPECT_FALSE(Live("m_entries", {Text("a"), Int(2)}, 1, 1));
  // m['a'] = 3.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"m", {Map({{"a", 1}, {"b", 2}}), 0}}}),
                            Row(1, 1, {{"m", {Map({{"a", 3}, {"b", 2}}), 0}}}))},
                    110)
                  .ok());
  EXPECT_TRUE(Live("m_keys", {Text("a")}, 1, 1));
  EXPECT_FALSE(Live("m_values", {Int(1)}, 1, 1));
  EXPECT_TRUE(Live("m_values", {Int(3)}, 1, 1));
  EXPECT_FALSE(Live("m_entries", {Text("a"), Int(1)}, 1, 1));
  EXPECT_TRUE(Live("m_entries", {Text("a"), Int(3)}, 1, 1));
}

TEST_F(IndexMaintenanceTest, KeyColumnsFollowTheRow) {
  ASSERT_TRUE(Apply({Change(1, 4, std::nullopt, Row(1, 4, {}, 0, /*marker=*/100))}).ok());
  EXPECT_TRUE(Live("c_idx", {Int(4)}, 1, 4));
  std::optional<storage::RowFragment> entry = Entry("c_idx", {Int(4)}, 1, 4);
  ASSERT_TRUE(entry && entry->liveness);
  EXPECT_EQ(entry->liveness->timestamp, 100);  // the row's marker
  // A change that keeps the row touches nothing.
  ASSERT_TRUE(
      Apply({Change(1, 4, Row(1, 4, {}, 0, 100), Row(1, 4, {{"v", {Text("A"), 105}}}, 0, 100))})
          .ok());
  EXPECT_TRUE(Live("c_idx", {Int(4)}, 1, 4));
  // The row disappears: removed at its newest timestamp (105).
  ASSERT_TRUE(
      Apply({Change(1, 4, Row(1, 4, {{"v", {Text("A"), 105}}}, 0, 100), std::nullopt)}).ok());
  EXPECT_FALSE(Live("c_idx", {Int(4)}, 1, 4));
  entry = Entry("c_idx", {Int(4)}, 1, 4);
  ASSERT_TRUE(entry && entry->deletion);
  EXPECT_EQ(entry->deletion->timestamp, 105);
  // Back through a cell written at a lower timestamp (the row was only a cell, deleted by a
  // cell tombstone): the entry comes back above the removal.
  ASSERT_TRUE(Apply({Change(1, 4, std::nullopt, Row(1, 4, {{"v", {Text("B"), 50}}}))}).ok());
  EXPECT_TRUE(Live("c_idx", {Int(4)}, 1, 4));
}

TEST_F(IndexMaintenanceTest, FrozenCollectionsAreIndexedWhole) {
  Bytes frozen = cql::SerializeCollection(table_->FindColumn("f")->type, {Int(1), Int(2)});
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"f", {frozen, 3}}}))}).ok());
  EXPECT_TRUE(Live("f_idx", {frozen}, 1, 1));
  EXPECT_FALSE(Live("f_idx", {Int(1)}, 1, 1));
}

TEST_F(IndexMaintenanceTest, CustomIndexesAreNotMaintained) {
  ASSERT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Text("A"), 1}}}))}).ok());
  EXPECT_EQ(IndexEntries("v_custom"), 0u);
  EXPECT_EQ(IndexEntries("v_idx"), 1u);
}

TEST_F(IndexMaintenanceTest, OversizedValuesAreRefused) {
  Bytes big(65535, 'x');
  common::Status status = Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {big, 1}}}))});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(status.message(),
            "Cannot index value of size 65535 for index v_idx on ks.t(v) (maximum allowed "
            "size=65535)");
  EXPECT_TRUE(Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"v", {Bytes(65534, 'x'), 1}}}))}).ok());
}

TEST_F(IndexMaintenanceTest, EntriesSortByTokenPartitionAndClustering) {
  const schema::IndexMetadata& index = table_->indexes.at("v_idx");
  auto schema = IndexSchema::Make(*base_, index);
  ASSERT_TRUE(schema.ok());
  Bytes prefix = schema->ValuePrefix(std::vector<Bytes>{Text("A")});
  std::vector<std::pair<Bytes, std::pair<int, int>>> keys;
  for (int k = 0; k < 20; ++k) {
    for (int c : {3, -1, 2}) {
      std::vector<Bytes> pk = {Int(k)};
      std::vector<Bytes> ck = {Int(c)};
      keys.push_back({schema->EntryKey(prefix, storage::PartitionToken(pk), pk, ck), {k, c}});
    }
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) {
    std::vector<Bytes> a = {Int(keys[i - 1].second.first)};
    std::vector<Bytes> b = {Int(keys[i].second.first)};
    Bytes base_a = storage::RowKey(base_->shape, storage::PartitionPrefix(base_->shape, a),
                                   std::vector<Bytes>{Int(keys[i - 1].second.second)});
    Bytes base_b = storage::RowKey(base_->shape, storage::PartitionPrefix(base_->shape, b),
                                   std::vector<Bytes>{Int(keys[i].second.second)});
    EXPECT_LT(base_a, base_b) << "entries must sort like the base rows they name";
  }
  // Keys parse back into the base location.
  auto location = schema->ParseEntryKey(prefix, keys[5].first);
  ASSERT_TRUE(location.ok());
  EXPECT_EQ(location->partition_key, std::vector<Bytes>{Int(keys[5].second.first)});
  EXPECT_EQ(location->clustering, std::vector<Bytes>{Int(keys[5].second.second)});
  EXPECT_FALSE(
      schema->ParseEntryKey(schema->ValuePrefix(std::vector<Bytes>{Text("B")}), keys[5].first)
          .ok());
}

TEST_F(IndexMaintenanceTest, EntryKeyBytes) {
  // docs/dev/storage_format.md "Secondary index entries": value 'ab' of v for the row (k=1,
  // c=2); token(1) = -4069959284402364209.
  auto schema = IndexSchema::Make(*base_, table_->indexes.at("v_idx"));
  ASSERT_TRUE(schema.ok());
  std::vector<Bytes> pk = {Int(1)};
  std::vector<Bytes> ck = {Int(2)};
  Bytes key = schema->EntryKey(schema->ValuePrefix(std::vector<Bytes>{Text("ab")}),
                               storage::PartitionToken(pk), pk, ck);
  EXPECT_EQ(common::ToHex(key),
            "0361620000"
            "40"
            "03478499982ae4e0cf"
            "0380000001"
            "0380000002");
  // A static column's entries name the partition only.
  auto statics = IndexSchema::Make(*base_, table_->indexes.at("s_idx"));
  ASSERT_TRUE(statics.ok());
  key = statics->EntryKey(statics->ValuePrefix(std::vector<Bytes>{Text("ab")}),
                          storage::PartitionToken(pk), pk, ck);
  EXPECT_EQ(common::ToHex(key),
            "0361620000"
            "40"
            "03478499982ae4e0cf"
            "0380000001");
}

TEST(IndexSupportsTest, OperatorsByTarget) {
  std::shared_ptr<const schema::Catalog> catalog = schema::Catalog::Empty();
  ASSERT_TRUE(schema::ApplyScript(&catalog, R"(
      CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
      CREATE TABLE ks.t (k int PRIMARY KEY, v int, m map<int, int>, f frozen<set<int>>);
      CREATE INDEX v_idx ON ks.t (v);
      CREATE INDEX m_values ON ks.t (m);
      CREATE INDEX m_keys ON ks.t (KEYS(m));
      CREATE INDEX m_entries ON ks.t (ENTRIES(m));
      CREATE INDEX f_full ON ks.t (FULL(f));
    )")
                  .ok());
  const schema::TableMetadata* t = catalog->FindTable("ks", "t");
  auto supports = [&](std::string_view index, std::string_view column, cql::Operator op,
                      bool map_key = false) {
    return IndexSupports(t->indexes.at(std::string(index)), *t->FindColumn(column), op, map_key);
  };
  using cql::Operator;
  EXPECT_TRUE(supports("v_idx", "v", Operator::kEq));
  EXPECT_FALSE(supports("v_idx", "v", Operator::kIn));
  EXPECT_FALSE(supports("v_idx", "v", Operator::kGt));
  EXPECT_FALSE(supports("v_idx", "m", Operator::kEq));
  EXPECT_TRUE(supports("m_values", "m", Operator::kContains));
  EXPECT_FALSE(supports("m_values", "m", Operator::kContainsKey));
  EXPECT_TRUE(supports("m_keys", "m", Operator::kContainsKey));
  EXPECT_FALSE(supports("m_keys", "m", Operator::kEq, /*map_key=*/true));
  EXPECT_TRUE(supports("m_entries", "m", Operator::kEq, /*map_key=*/true));
  EXPECT_FALSE(supports("m_entries", "m", Operator::kContains));
  EXPECT_TRUE(supports("f_full", "f", Operator::kEq));
  EXPECT_FALSE(supports("f_full", "f", Operator::kContains));
}

}  // namespace
}  // namespace engine
