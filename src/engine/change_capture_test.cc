#include "engine/change_capture.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/value_codec.h"
#include "storage/key_layout.h"
#include "storage/storage_testing.h"

namespace engine {
namespace {

using common::Bytes;
using storage::DeletionTime;
using storage::LivenessInfo;
using storage::RowFragment;
using storage::testing::ExpiringCell;
using storage::testing::LiveCell;
using storage::testing::TombstoneCell;

constexpr int64_t kNow = 1'000'000;  // seconds
constexpr uint32_t kStatic = 2;      // column ids
constexpr uint32_t kValue = 3;

Bytes Int(int32_t v) { return cql::SerializeInt(v); }

class ChangeCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-capture-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    storage::StoreOptions options;
    options.clock = &clock_;
    auto store = storage::Store::Open(directory_, options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();

    metadata_.id = common::Uuid::Random();
    metadata_.keyspace = "ks";
    metadata_.name = "t";
    metadata_.columns = {
        {"k", cql::CqlType::Int(), schema::ColumnKind::kPartitionKey, 0, {}, 0},
        {"c", cql::CqlType::Int(), schema::ColumnKind::kClustering, 0, {}, 1},
        {"s", cql::CqlType::Int(), schema::ColumnKind::kStatic, 0, {}, kStatic},
        {"v", cql::CqlType::Int(), schema::ColumnKind::kRegular, 0, {}, kValue},
    };
    metadata_.next_column_id = 4;
    table_ = std::make_unique<TableSchema>(&metadata_);
    ASSERT_TRUE(store_->CreateTable(table_->storage_id, storage::TableOptions{}).ok());
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(directory_);
  }

  Bytes Prefix(int32_t k) const {
    std::vector<Bytes> key = {Int(k)};
    return storage::PartitionPrefix(table_->shape, key);
  }
  Bytes Row(int32_t k, int32_t c) const {
    std::vector<Bytes> clustering = {Int(c)};
    return storage::RowKey(table_->shape, Prefix(k), clustering);
  }
  Mutation At(int32_t k, Bytes key, RowFragment fragment) const {
    return Mutation{Prefix(k), {Int(k)}, std::move(key), std::move(fragment)};
  }
  // An INSERT of (k, c, v) at `timestamp`.
  Mutation Insert(int32_t k, int32_t c, int32_t v, int64_t timestamp) const {
    RowFragment row;
    row.liveness = LivenessInfo{timestamp, 0, 0};
    row.cells.push_back(LiveCell(kValue, timestamp, Int(v)));
    return At(k, Row(k, c), std::move(row));
  }
  Mutation Static(int32_t k, int32_t s, int64_t timestamp) const {
    RowFragment statics;
    statics.cells.push_back(LiveCell(kStatic, timestamp, Int(s)));
    return At(k, storage::StaticRowKey(Prefix(k)), std::move(statics));
  }
  Mutation DeletePartition(int32_t k, int64_t timestamp) const {
    RowFragment deletion;
    deletion.deletion = DeletionTime{timestamp, kNow};
    return At(k, storage::PartitionDeletionKey(Prefix(k)), std::move(deletion));
  }
  // DELETE ... WHERE k = k AND c >= from.
  Mutation DeleteFrom(int32_t k, int32_t from, int64_t timestamp) const {
    RowFragment deletion;
    deletion.deletion = DeletionTime{timestamp, kNow};
    storage::ClusteringBound start{{Int(from)}, storage::BoundSide::kBefore};
    storage::ClusteringBound end{{}, storage::BoundSide::kAfter};
    return At(k, storage::RangeTombstoneKey(table_->shape, Prefix(k), start, end),
              std::move(deletion));
  }
  void Write(const std::vector<Mutation>& mutations) {
    storage::WriteBatch batch;
    for (const Mutation& m : mutations) batch.Merge(table_->storage_id, m.key, m.fragment);
    ASSERT_TRUE(store_->Write(batch).ok());
  }
  std::vector<RowChange> Capture(const std::vector<Mutation>& mutations,
                                 bool statics_matter = true) {
    auto changes = CaptureChanges(*store_, *table_, mutations, kNow, statics_matter);
    EXPECT_TRUE(changes.ok()) << changes.status().ToString();
    return changes.ok() ? std::move(changes).value() : std::vector<RowChange>();
  }
  // The value of column `index` (3 = v, 2 = s) of a captured row, or -1 for null.
  static int32_t Value(const std::optional<RowData>& row, int index) {
    if (!row || !row->cells[index].value) return -1;
    return *cql::DeserializeInt(*row->cells[index].value);
  }
  static int32_t Clustering(const RowChange& change) {
    return *cql::DeserializeInt(change.clustering.at(0));
  }

  common::ManualClock clock_{kNow * 1'000'000};
  std::string directory_;
  std::unique_ptr<storage::Store> store_;
  schema::TableMetadata metadata_;
  std::unique_ptr<TableSchema> table_;
};

TEST_F(ChangeCaptureTest, InsertIntoAnEmptyTable) {
  std::vector<RowChange> changes = Capture({Insert(1, 1, 10, 100)});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].before.has_value());
  EXPECT_TRUE(changes[0].before_live.cells.empty());
  EXPECT_EQ(Value(changes[0].after, 3), 10);
  EXPECT_EQ(Clustering(changes[0]), 1);
  EXPECT_EQ(changes[0].partition.prefix, Prefix(1));
  ASSERT_TRUE(changes[0].after_live.liveness.has_value());
  EXPECT_EQ(changes[0].after_live.liveness->timestamp, 100);
  ASSERT_EQ(changes[0].after_live.cells.size(), 1u);
  EXPECT_EQ(changes[0].after_live.cells[0].timestamp, 100);
}

TEST_F(ChangeCaptureTest, OverwriteKeepsTheWinnerByTimestamp) {
  Write({Insert(1, 1, 10, 100)});
  std::vector<RowChange> older = Capture({Insert(1, 1, 11, 50)});
  ASSERT_EQ(older.size(), 1u);
  EXPECT_EQ(Value(older[0].before, 3), 10);
  EXPECT_EQ(Value(older[0].after, 3), 10);  // the older write loses
  std::vector<RowChange> newer = Capture({Insert(1, 1, 12, 150)});
  ASSERT_EQ(newer.size(), 1u);
  EXPECT_EQ(Value(newer[0].after, 3), 12);
}

TEST_F(ChangeCaptureTest, RangeTombstoneReportsTheCoveredRows) {
  Write({Insert(1, 1, 10, 100), Insert(1, 2, 20, 100), Insert(1, 3, 30, 300), Insert(2, 2, 0, 1)});
  std::vector<RowChange> changes = Capture({DeleteFrom(1, 2, 200)});
  ASSERT_EQ(changes.size(), 2u);  // rows 2 and 3; row 1 and partition 2 are not covered
  EXPECT_EQ(Clustering(changes[0]), 2);
  EXPECT_EQ(Value(changes[0].before, 3), 20);
  EXPECT_FALSE(changes[0].after.has_value());
  EXPECT_TRUE(changes[0].after_live.cells.empty());
  EXPECT_FALSE(changes[0].after_live.liveness.has_value());
  EXPECT_EQ(Clustering(changes[1]), 3);
  EXPECT_EQ(Value(changes[1].after, 3), 30);  // newer than the tombstone
}

TEST_F(ChangeCaptureTest, PartitionDeletionAndReinsertInOneBatch) {
  Write({Insert(1, 1, 10, 100), Insert(1, 2, 20, 100), Static(1, 7, 100)});
  std::vector<RowChange> changes = Capture({DeletePartition(1, 200), Insert(1, 2, 21, 201)});
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(Value(changes[0].before, 2), 7);  // statics are part of every row
  EXPECT_FALSE(changes[0].after.has_value());
  EXPECT_EQ(Value(changes[1].before, 3), 20);
  EXPECT_EQ(Value(changes[1].after, 3), 21);
  EXPECT_EQ(Value(changes[1].after, 2), -1);  // the static was deleted
}

TEST_F(ChangeCaptureTest, StaticChangesReportEveryRowOnlyWhenStaticsMatter) {
  Write({Insert(1, 1, 10, 100), Insert(1, 2, 20, 100)});
  std::vector<RowChange> changes = Capture({Static(1, 5, 200)});
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(Value(changes[0].before, 2), -1);
  EXPECT_EQ(Value(changes[0].after, 2), 5);
  EXPECT_EQ(Value(changes[1].after, 2), 5);
  EXPECT_TRUE(Capture({Static(1, 6, 300)}, /*statics_matter=*/false).empty());
}

TEST_F(ChangeCaptureTest, StaticOnlyRowsAppearWhenThePartitionHasNoLiveRow) {
  // INSERT (k, s): the partition shows a static-only row after the write.
  std::vector<RowChange> changes = Capture({Static(1, 5, 100)});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].before);
  ASSERT_TRUE(changes[0].after);
  EXPECT_TRUE(changes[0].after->static_only);
  EXPECT_EQ(changes[0].after->key, storage::StaticRowKey(Prefix(1)));
  EXPECT_TRUE(changes[0].clustering.empty());
  EXPECT_EQ(Value(changes[0].after, 2), 5);
  EXPECT_TRUE(changes[0].after_live.cells.empty());
  ASSERT_EQ(changes[0].after_static_live.cells.size(), 1u);
  EXPECT_EQ(changes[0].after_static_live.cells[0].timestamp, 100);
  EXPECT_TRUE(Capture({Static(1, 5, 100)}, /*statics_matter=*/false).empty());
  Write({Static(1, 5, 100)});

  // The first row replaces it: the static-only row is listed first, before only.
  changes = Capture({Insert(1, 1, 10, 200)});
  ASSERT_EQ(changes.size(), 2u);
  ASSERT_TRUE(changes[0].before);
  EXPECT_TRUE(changes[0].before->static_only);
  EXPECT_FALSE(changes[0].after);
  EXPECT_EQ(Clustering(changes[1]), 1);
  EXPECT_EQ(Value(changes[1].after, 2), 5);
  EXPECT_EQ(changes[1].after_static_live.cells.size(), 1u);
  Write({Insert(1, 1, 10, 200), Insert(1, 2, 20, 200)});

  // Deleting one of two rows leaves a live row (found by scanning the untouched rows).
  RowFragment deletion;
  deletion.deletion = DeletionTime{300, kNow};
  changes = Capture({At(1, Row(1, 2), deletion)});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(Clustering(changes[0]), 2);
  Write({At(1, Row(1, 2), deletion)});
  // Deleting the last one brings the static-only row back.
  changes = Capture({At(1, Row(1, 1), deletion)});
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_FALSE(changes[0].before);
  ASSERT_TRUE(changes[0].after);
  EXPECT_TRUE(changes[0].after->static_only);
  EXPECT_EQ(Clustering(changes[1]), 1);
  EXPECT_FALSE(changes[1].after);
}

TEST_F(ChangeCaptureTest, CellDeletionAndRowLiveness) {
  // A row made by UPDATE (no marker) disappears with its last cell.
  RowFragment update;
  update.cells.push_back(LiveCell(kValue, 100, Int(10)));
  Write({At(1, Row(1, 1), update)});
  RowFragment deletion;
  deletion.cells.push_back(TombstoneCell(kValue, 150, kNow));
  Mutation delete_cell = At(1, Row(1, 1), deletion);
  std::vector<RowChange> changes = Capture({delete_cell});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(Value(changes[0].before, 3), 10);
  EXPECT_FALSE(changes[0].after.has_value());
  // With a marker, the row stays, without the cell.
  Write({Insert(2, 1, 20, 100)});
  changes = Capture({At(2, Row(2, 1), deletion)});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(Value(changes[0].after, 3), -1);
  EXPECT_TRUE(changes[0].after_live.cells.empty());
  EXPECT_TRUE(changes[0].after_live.liveness.has_value());
}

TEST_F(ChangeCaptureTest, ExpiredCellsAreNotLive) {
  RowFragment row;
  row.cells.push_back(ExpiringCell(kValue, 100, Int(10), 5, kNow));  // expires now
  Mutation m = At(1, Row(1, 1), row);
  EXPECT_TRUE(Capture({m}).empty());  // absent before and after
  row.cells[0].local_deletion_time = kNow + 1;
  std::vector<RowChange> changes = Capture({At(1, m.key, row)});
  ASSERT_EQ(changes.size(), 1u);
  ASSERT_EQ(changes[0].after_live.cells.size(), 1u);
  EXPECT_EQ(changes[0].after_live.cells[0].local_deletion_time, kNow + 1);
}

TEST_F(ChangeCaptureTest, ForEachBaseRowVisitsEveryLiveRowOnce) {
  Write({Insert(1, 1, 10, 100), Insert(1, 2, 20, 100), Insert(2, 1, 30, 100), Insert(3, 1, 40, 100),
         DeletePartition(3, 200)});
  PartitionLocks locks;
  ExecutionContext context;
  context.store = store_.get();
  context.clock = &clock_;
  context.locks = &locks;
  std::vector<int32_t> values;
  common::Status status = ForEachBaseRow(
      context, *table_,
      [&](std::span<const RowChange> rows, int64_t now_seconds, storage::WriteBatch* batch) {
        EXPECT_EQ(now_seconds, kNow);
        EXPECT_TRUE(batch->empty());
        for (const RowChange& row : rows) {
          EXPECT_FALSE(row.before.has_value());
          values.push_back(Value(row.after, 3));
        }
        return common::Status::Ok();
      });
  ASSERT_TRUE(status.ok()) << status.ToString();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<int32_t>{10, 20, 30}));
}

}  // namespace
}  // namespace engine
