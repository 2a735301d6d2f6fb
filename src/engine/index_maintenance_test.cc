#include "engine/index_maintenance.h"

#include <filesystem>
#include <map>
#include <optional>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/value_codec.h"
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

  // A live row (k, c) with the given columns: name -> (value, timestamp).
  RowData Row(int k, int c, const std::map<std::string, std::pair<Bytes, int64_t>>& cells,
              int32_t ttl = 0) const {
    RowData row;
    row.cells.resize(table_->columns.size());
    row.cells[base_->IndexOfColumn("k")].value = cql::SerializeInt(k);
    row.cells[base_->IndexOfColumn("c")].value = cql::SerializeInt(c);
    for (const auto& [name, cell] : cells) {
      CellData& data = row.cells[base_->IndexOfColumn(name)];
      data.value = cell.first;
      data.timestamp = cell.second;
      data.ttl = ttl;
    }
    return row;
  }
  RowChange Change(int k, int c, std::optional<RowData> before, std::optional<RowData> after) {
    RowChange change;
    change.partition.values = {cql::SerializeInt(k)};
    change.partition.prefix = storage::PartitionPrefix(base_->shape, change.partition.values);
    change.clustering = {cql::SerializeInt(c)};
    change.before = std::move(before);
    change.after = std::move(after);
    return change;
  }
  common::Status Apply(std::vector<RowChange> changes, int64_t now = kNow) {
    WriteParams params;
    params.now_seconds = now;
    params.timestamp = now * 1'000'000;
    storage::WriteBatch batch;
    RETURN_IF_ERROR(AddIndexMutations(*base_, indexes_, changes, params, &batch));
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

TEST_F(IndexMaintenanceTest, CollectionElementsUseTheWriteClock) {
  ASSERT_TRUE(
      Apply({Change(1, 1, std::nullopt, Row(1, 1, {{"tags", {Set({1, 2}), 0}}}))}, 100).ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(2)}, 1, 1));
  // Removing 1 ten seconds later shadows the add.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1, 2}), 0}}}),
                            Row(1, 1, {{"tags", {Set({2, 3}), 0}}}))},
                    110)
                  .ok());
  EXPECT_FALSE(Live("tags_idx", {Int(1)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(2)}, 1, 1));
  EXPECT_TRUE(Live("tags_idx", {Int(3)}, 1, 1));
  // Re-added in the same second as the removal: live.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({2, 3}), 0}}}),
                            Row(1, 1, {{"tags", {Set({1, 2, 3}), 0}}}))},
                    110)
                  .ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
  // Removed at 120, re-added after the clock stepped back by the tolerated 5 seconds: live.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1, 2, 3}), 0}}}),
                            Row(1, 1, {{"tags", {Set({2, 3}), 0}}}))},
                    120)
                  .ok());
  EXPECT_FALSE(Live("tags_idx", {Int(1)}, 1, 1));
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({2, 3}), 0}}}),
                            Row(1, 1, {{"tags", {Set({1, 2, 3}), 0}}}))},
                    115)
                  .ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
  // A removal within the tolerance of the add leaves a stale (live) entry: allowed.
  ASSERT_TRUE(Apply({Change(1, 1, Row(1, 1, {{"tags", {Set({1, 2, 3}), 0}}}),
                            Row(1, 1, {{"tags", {Set({2, 3}), 0}}}))},
                    116)
                  .ok());
  EXPECT_TRUE(Live("tags_idx", {Int(1)}, 1, 1));
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
  ASSERT_TRUE(Apply({Change(1, 4, std::nullopt, Row(1, 4, {}))}, 100).ok());
  EXPECT_TRUE(Live("c_idx", {Int(4)}, 1, 4));
  // A change that keeps the row touches nothing.
  ASSERT_TRUE(Apply({Change(1, 4, Row(1, 4, {}), Row(1, 4, {{"v", {Text("A"), 1}}}))}, 105).ok());
  EXPECT_TRUE(Live("c_idx", {Int(4)}, 1, 4));
  ASSERT_TRUE(Apply({Change(1, 4, Row(1, 4, {{"v", {Text("A"), 1}}}), std::nullopt)}, 110).ok());
  EXPECT_FALSE(Live("c_idx", {Int(4)}, 1, 4));
  ASSERT_TRUE(Apply({Change(1, 4, std::nullopt, Row(1, 4, {}))}, 110).ok());
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
