#include "storage/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "storage/key_layout.h"
#include "storage/storage_testing.h"

namespace storage {
namespace {

using testing::ExpiringCell;
using testing::LiveCell;
using testing::TombstoneCell;

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kStart = 1'700'000'000;  // seconds

common::Bytes Int(int32_t v) {
  common::ByteWriter w;
  w.PutI32(v);
  return w.Release();
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("cqld_store_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    Reopen();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Reopen() {
    store_.reset();
    StoreOptions options;
    options.clock = &clock_;
    auto store = Store::Open(dir_.string(), options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
  }
  common::Bytes Key(int32_t pk, int32_t ck) {
    std::vector<common::Bytes> pk_values = {Int(pk)};
    common::Bytes prefix = PartitionPrefix(shape_, pk_values);
    std::vector<common::Bytes> ck_values = {Int(ck)};
    return RowKey(shape_, prefix, ck_values);
  }
  void MergeOne(std::string_view table, std::string_view key, const RowFragment& f) {
    WriteBatch batch;
    batch.Merge(table, key, f);
    ASSERT_TRUE(store_->Write(batch).ok());
  }
  std::optional<RowFragment> GetOrDie(std::string_view table, std::string_view key) {
    auto r = store_->Get(table, key);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::nullopt;
  }

  common::ManualClock clock_{kStart * kSecond};
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  KeyShape shape_{{cql::CqlType::Int()}, {{cql::CqlType::Int(), false}}};
};

RowFragment Cells(std::vector<Cell> cells) {
  RowFragment f;
  f.cells = std::move(cells);
  return f;
}

TEST_F(StoreTest, OpenRequiresClock) {
  StoreOptions options;
  EXPECT_EQ(Store::Open((dir_ / "x").string(), options).status().code(),
            common::StatusCode::kInvalid);
}

TEST_F(StoreTest, DirectoryInUseIsAClearError) {
  // RocksDB refuses a second open of a directory whose LOCK this process holds the same way it
  // refuses another process's.
  StoreOptions options;
  options.clock = &clock_;
  auto second = Store::Open(dir_.string(), options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), common::StatusCode::kIOError);
  EXPECT_EQ(second.status().message(), "Data directory " + dir_.string() +
                                           " is in use by another process (RocksDB lock held)");
  // Once the first store is closed, the directory opens again.
  store_.reset();
  EXPECT_TRUE(Store::Open(dir_.string(), options).ok());
}

TEST_F(StoreTest, CreateTableErrors) {
  ASSERT_TRUE(store_->CreateTable("t1", {}).ok());
  EXPECT_EQ(store_->CreateTable("t1", {}).code(), common::StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateTable("meta", {}).code(), common::StatusCode::kInvalid);
  EXPECT_EQ(store_->CreateTable("default", {}).code(), common::StatusCode::kInvalid);
  EXPECT_EQ(store_->CreateTable("", {}).code(), common::StatusCode::kInvalid);
  EXPECT_EQ(store_->Get("nope", "k").status().code(), common::StatusCode::kNotFound);
  EXPECT_EQ(store_->DropTable("nope").code(), common::StatusCode::kNotFound);
  WriteBatch batch;
  batch.Merge("t1", Key(1, 1), Cells({LiveCell(1, 1, "a")}));
  batch.Merge("nope", Key(1, 1), Cells({LiveCell(1, 1, "a")}));
  EXPECT_EQ(store_->Write(batch).code(), common::StatusCode::kInvalid);
  EXPECT_FALSE(GetOrDie("t1", Key(1, 1)).has_value());  // nothing of the batch was written
}

TEST_F(StoreTest, BlindMergesReconcileByTimestamp) {
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  std::string key = Key(1, 1);
  MergeOne("t", key, Cells({LiveCell(1, 20, "new"), LiveCell(2, 5, "x")}));
  MergeOne("t", key, Cells({LiveCell(1, 10, "late-but-old")}));  // arrives late, loses
  MergeOne("t", key, Cells({TombstoneCell(2, 5, kStart)}));      // same ts: tombstone wins
  auto f = GetOrDie("t", key);
  ASSERT_TRUE(f.has_value());
  std::vector<Cell> expected = {LiveCell(1, 20, "new"), TombstoneCell(2, 5, kStart)};
  EXPECT_EQ(f->cells, expected);
  EXPECT_FALSE(GetOrDie("t", Key(1, 2)).has_value());
}

TEST_F(StoreTest, MergeSurvivesFlushCompactionAndReopen) {
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  std::string key = Key(7, 3);
  MergeOne("t", key, Cells({LiveCell(1, 1, "a")}));
  ASSERT_TRUE(store_->FlushTable("t").ok());
  MergeOne("t", key, Cells({LiveCell(2, 2, "b")}));
  ASSERT_TRUE(store_->FlushTable("t").ok());
  MergeOne("t", key, Cells({LiveCell(1, 3, "c")}));
  std::vector<Cell> expected = {LiveCell(1, 3, "c"), LiveCell(2, 2, "b")};
  EXPECT_EQ(GetOrDie("t", key)->cells, expected);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_EQ(GetOrDie("t", key)->cells, expected);
  Reopen();
  ASSERT_TRUE(store_->HasTable("t"));
  EXPECT_EQ(GetOrDie("t", key)->cells, expected);
  // An older write after reopen still loses.
  MergeOne("t", key, Cells({LiveCell(1, 2, "zzz")}));
  EXPECT_EQ(GetOrDie("t", key)->cells, expected);
}

TEST_F(StoreTest, AtomicBatchAcrossTablesAndMeta) {
  ASSERT_TRUE(store_->CreateTable("a", {}).ok());
  ASSERT_TRUE(store_->CreateTable("b", {}).ok());
  WriteBatch batch;
  batch.Merge("a", Key(1, 1), Cells({LiveCell(1, 1, "x")}));
  batch.Merge("b", Key(1, 1), Cells({LiveCell(1, 1, "y")}));
  batch.PutMeta("schema_version", "42");
  ASSERT_TRUE(store_->Write(batch).ok());
  EXPECT_EQ(GetOrDie("a", Key(1, 1))->cells[0].value, "x");
  EXPECT_EQ(GetOrDie("b", Key(1, 1))->cells[0].value, "y");
  EXPECT_EQ(store_->GetMeta("schema_version").value(), std::optional<common::Bytes>("42"));
  WriteBatch del;
  del.DeleteMeta("schema_version");
  ASSERT_TRUE(store_->Write(del).ok());
  EXPECT_FALSE(store_->GetMeta("schema_version").value().has_value());
}

TEST_F(StoreTest, IteratesForwardAndBackwardWithinRange) {
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  for (int ck = 0; ck < 10; ++ck) MergeOne("t", Key(5, ck), Cells({LiveCell(1, 1, Int(ck))}));
  MergeOne("t", Key(6, 0), Cells({LiveCell(1, 1, "other")}));
  std::vector<common::Bytes> pk = {Int(5)};
  common::Bytes prefix = PartitionPrefix(shape_, pk);
  KeyRange range{RowBoundKey(shape_, prefix, {{Int(2)}, BoundSide::kBefore}),
                 RowBoundKey(shape_, prefix, {{Int(6)}, BoundSide::kAfter})};
  auto it = store_->NewIterator("t", range);
  ASSERT_TRUE(it.ok());
  std::vector<common::Bytes> forward;
  for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) {
    forward.push_back((*it)->fragment()->cells[0].value);
  }
  ASSERT_TRUE((*it)->status().ok());
  EXPECT_EQ(forward, (std::vector<common::Bytes>{Int(2), Int(3), Int(4), Int(5), Int(6)}));
  std::vector<common::Bytes> backward;
  for ((*it)->SeekToLast(); (*it)->Valid(); (*it)->Prev()) {
    auto parsed = ParseKey(shape_, (*it)->key());
    ASSERT_TRUE(parsed.ok());
    backward.push_back(parsed->clustering[0]);
  }
  EXPECT_EQ(backward, (std::vector<common::Bytes>{Int(6), Int(5), Int(4), Int(3), Int(2)}));
  (*it)->SeekForPrev(Key(5, 4));
  ASSERT_TRUE((*it)->Valid());
  EXPECT_EQ((*it)->key(), Key(5, 4));
  // Whole table: both partitions, 11 entries.
  auto all = store_->NewIterator("t", KeyRange{});
  ASSERT_TRUE(all.ok());
  int count = 0;
  for ((*all)->SeekToFirst(); (*all)->Valid(); (*all)->Next()) ++count;
  EXPECT_EQ(count, 11);
}

TEST_F(StoreTest, TtlExpiryAndGcPurgeThroughCompaction) {
  // With the key shape: storage knows Key(1, 2) is a row, so its row deletion may be purged.
  ASSERT_TRUE(
      store_->CreateTable("t", TableOptions{.gc_grace_seconds = 100, .shape = shape_}).ok());
  std::string ttl_key = Key(1, 1);
  std::string deleted_key = Key(1, 2);
  RowFragment with_ttl;
  with_ttl.liveness = LivenessInfo{kStart * kSecond, 10, kStart + 10};
  with_ttl.cells = {ExpiringCell(1, kStart * kSecond, "v", 10, kStart + 10)};
  MergeOne("t", ttl_key, with_ttl);
  MergeOne("t", deleted_key, Cells({LiveCell(1, 1, "old")}));
  RowFragment deletion;
  deletion.deletion = DeletionTime{2, kStart};
  MergeOne("t", deleted_key, deletion);

  // Before expiry nothing changes.
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_EQ(GetOrDie("t", ttl_key)->cells[0].kind, CellKind::kExpiring);

  // Expired, within gc_grace: the cell becomes a tombstone stamped with its write time.
  clock_.SetMicros((kStart + 10) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  auto expired = GetOrDie("t", ttl_key);
  ASSERT_TRUE(expired.has_value());
  EXPECT_EQ(expired->cells[0], TombstoneCell(1, kStart * kSecond, kStart));
  ASSERT_TRUE(GetOrDie("t", deleted_key).has_value());

  // Past gc_grace for everything: both entries disappear.
  clock_.SetMicros((kStart + 10 + 101) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_FALSE(GetOrDie("t", ttl_key).has_value());
  EXPECT_FALSE(GetOrDie("t", deleted_key).has_value());
}

TEST_F(StoreTest, GcGraceSurvivesReopenAndAlter) {
  ASSERT_TRUE(store_->CreateTable("t", TableOptions{.gc_grace_seconds = 5}).ok());
  Reopen();
  std::string key = Key(1, 1);
  MergeOne("t", key, Cells({TombstoneCell(1, 1, kStart)}));
  clock_.SetMicros((kStart + 6) * kSecond);
  ASSERT_TRUE(store_->AlterTable("t", TableOptions{.gc_grace_seconds = 1000}).ok());
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_TRUE(GetOrDie("t", key).has_value());  // grace is now 1000
  ASSERT_TRUE(store_->AlterTable("t", TableOptions{.gc_grace_seconds = 5}).ok());
  Reopen();
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_FALSE(GetOrDie("t", key).has_value());  // 5 s from the saved options
}

TEST_F(StoreTest, GetPartitionRowReadsTheDeletionOnlyWithoutSingleRowPartitions) {
  KeyShape shape{{cql::CqlType::Int()}, {}};
  std::vector<common::Bytes> pk = {Int(7)};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  common::Bytes row_key = RowKey(shape, prefix, std::span<const common::Bytes>());
  common::Bytes deletion_key = PartitionDeletionKey(prefix);
  RowFragment deletion;
  deletion.deletion = DeletionTime{5, kStart};
  for (bool single_row : {false, true}) {
    std::string table = single_row ? "single" : "legacy";
    ASSERT_TRUE(
        store_
            ->CreateTable(table, TableOptions{.shape = shape, .single_row_partitions = single_row})
            .ok());
    MergeOne(table, row_key, Cells({LiveCell(0, 1, "v")}));
    MergeOne(table, deletion_key, deletion);
    auto read = store_->GetPartitionRow(table, deletion_key, row_key);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_TRUE(read->row.has_value()) << table;
    EXPECT_EQ(read->row->cells.size(), 1u) << table;
    // A family flagged single_row_partitions never holds a deletion entry, so it is not read.
    EXPECT_EQ(read->deletion.has_value(), !single_row) << table;
    if (!single_row) {
      EXPECT_EQ(read->deletion->deletion, deletion.deletion);
    }
  }
  Reopen();  // the flag persists
  auto single = store_->TableOptionsOf("single");
  ASSERT_TRUE(single.ok());
  EXPECT_TRUE(single->single_row_partitions);
  EXPECT_FALSE(store_->TableOptionsOf("legacy")->single_row_partitions);
  EXPECT_EQ(store_->GetPartitionRow("missing", deletion_key, row_key).status().code(),
            common::StatusCode::kNotFound);
}

TEST_F(StoreTest, DropAndTruncate) {
  ASSERT_TRUE(store_->CreateTable("t", TableOptions{.gc_grace_seconds = 7}).ok());
  MergeOne("t", Key(1, 1), Cells({LiveCell(1, 1, "a")}));
  ASSERT_TRUE(store_->FlushTable("t").ok());
  MergeOne("t", Key(1, 2), Cells({LiveCell(1, 1, "b")}));

  // An iterator opened before TRUNCATE keeps reading the old data.
  auto before = store_->NewIterator("t", KeyRange{});
  ASSERT_TRUE(before.ok());
  ASSERT_TRUE(store_->TruncateTable("t").ok());
  EXPECT_TRUE(store_->HasTable("t"));
  EXPECT_FALSE(GetOrDie("t", Key(1, 1)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(1, 2)).has_value());
  int old_count = 0;
  for ((*before)->SeekToFirst(); (*before)->Valid(); (*before)->Next()) ++old_count;
  EXPECT_EQ(old_count, 2);
  before->reset();

  MergeOne("t", Key(1, 3), Cells({LiveCell(1, 1, "c")}));
  Reopen();
  EXPECT_TRUE(GetOrDie("t", Key(1, 3)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(1, 1)).has_value());

  ASSERT_TRUE(store_->DropTable("t").ok());
  EXPECT_FALSE(store_->HasTable("t"));
  Reopen();
  EXPECT_FALSE(store_->HasTable("t"));
  EXPECT_TRUE(store_->TableIds().empty());
  // Re-creating gives an empty table.
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  EXPECT_FALSE(GetOrDie("t", Key(1, 3)).has_value());
}

TEST_F(StoreTest, CorruptValueIsReportedNotCrashed) {
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  WriteBatch batch;
  batch.MergeEncoded("t", Key(1, 1), "\x09garbage");
  ASSERT_TRUE(store_->Write(batch).ok());
  auto r = store_->Get("t", Key(1, 1));
  EXPECT_FALSE(r.ok());
}

RowFragment Marked(int64_t timestamp, std::vector<Cell> cells) {
  RowFragment f;
  f.liveness = LivenessInfo{timestamp, 0, 0};
  f.cells = std::move(cells);
  return f;
}

RowFragment Deleted(int64_t timestamp, int64_t local_deletion_time) {
  RowFragment f;
  f.deletion = DeletionTime{timestamp, local_deletion_time};
  return f;
}

// A row-level view of a table with one int partition key and one int clustering column, as
// the engine's read path computes it: partition deletion, covering range tombstones and the
// row's own deletion shadow what is older; a row shows when its marker or a cell is live.
// Keys: "pk/ck" or "pk/static"; values: the live cells as "column=value".
using Visible = std::map<std::string, std::vector<std::string>>;

class PurgeStoreTest : public StoreTest {
 protected:
  common::Bytes Prefix(int32_t pk) {
    std::vector<common::Bytes> values = {Int(pk)};
    return PartitionPrefix(shape_, values);
  }
  common::Bytes Range(int32_t pk, int32_t from, int32_t to) {  // [from, to)
    return RangeTombstoneKey(shape_, Prefix(pk), {{Int(from)}, BoundSide::kBefore},
                             {{Int(to)}, BoundSide::kBefore});
  }
  static int32_t ToInt(std::string_view bytes) {
    common::ByteReader in(bytes);
    return in.ReadI32().value();
  }

  Visible Read(std::string_view table) {
    Visible visible;
    int64_t now = clock_.NowMicros() / kSecond;
    auto it = store_->NewIterator(table, KeyRange{});
    EXPECT_TRUE(it.ok());
    if (!it.ok()) return visible;
    common::Bytes prefix;
    std::optional<DeletionTime> partition_deletion;
    std::vector<std::pair<std::pair<common::Bytes, common::Bytes>, DeletionTime>> ranges;
    auto strongest = [](std::optional<DeletionTime> a, const DeletionTime& b) {
      return (!a || b.Supersedes(*a)) ? std::optional<DeletionTime>(b) : a;
    };
    auto show = [&](const std::string& name, const RowFragment& f,
                    std::optional<DeletionTime> deletion) {
      if (f.deletion) deletion = strongest(deletion, *f.deletion);
      std::vector<std::string> cells;
      for (const Cell& cell : f.cells) {
        if (cell.IsLive(now) && !(deletion && deletion->Deletes(cell.timestamp))) {
          cells.push_back(std::to_string(cell.column_id) + "=" + cell.value);
        }
      }
      bool marker = f.liveness && f.liveness->IsLive(now) &&
                    !(deletion && deletion->Deletes(f.liveness->timestamp));
      if (marker || !cells.empty()) visible[name] = cells;
    };
    for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) {
      auto parsed = ParseKey(shape_, (*it)->key());
      EXPECT_TRUE(parsed.ok());
      auto fragment = (*it)->fragment();
      EXPECT_TRUE(fragment.ok());
      if (!parsed.ok() || !fragment.ok()) continue;
      common::Bytes this_prefix = PartitionPrefix(shape_, parsed->partition_key);
      if (this_prefix != prefix) {
        prefix = this_prefix;
        partition_deletion.reset();
        ranges.clear();
      }
      std::string pk = std::to_string(ToInt(parsed->partition_key[0]));
      switch (parsed->section) {
        case KeySection::kPartitionDeletion:
          if (fragment->deletion) partition_deletion = fragment->deletion;
          break;
        case KeySection::kRangeTombstone:
          if (fragment->deletion) {
            ranges.push_back({{RowBoundKey(shape_, prefix, parsed->range_start),
                               RowBoundKey(shape_, prefix, parsed->range_end)},
                              *fragment->deletion});
          }
          break;
        case KeySection::kStaticRow:
          show(pk + "/static", *fragment, partition_deletion);
          break;
        case KeySection::kRow: {
          std::optional<DeletionTime> deletion = partition_deletion;
          for (const auto& [bounds, range_deletion] : ranges) {
            if (bounds.first <= (*it)->key() && (*it)->key() < bounds.second) {
              deletion = strongest(deletion, range_deletion);
            }
          }
          show(pk + "/" + std::to_string(ToInt(parsed->clustering[0])), *fragment, deletion);
          break;
        }
      }
    }
    EXPECT_TRUE((*it)->status().ok());
    return visible;
  }

  struct Census {
    int entries = 0;
    int deletions = 0;  // entries holding a partition, range or row deletion
  };
  Census Count(std::string_view table) {
    Census census;
    auto it = store_->NewIterator(table, KeyRange{});
    EXPECT_TRUE(it.ok());
    for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) {
      ++census.entries;
      if ((*it)->fragment()->deletion) ++census.deletions;
    }
    return census;
  }

  // Partition 1: a static row and rows 0..4 written at ts 10, then a partition deletion at
  // ts 20, then row 5 and a cell of row 2 at ts 30. Partition 2: rows 0..9 at ts 10, the range
  // [3, 6) deleted at ts 20, a cell of row 4 at ts 30. Partition 3: rows 0..2, row 1 deleted.
  // The old data is flushed to a file of its own, the deletions to another.
  void WriteShadowedData(std::string_view table) {
    auto old_row = [](int32_t ck) {
      return Marked(10, {LiveCell(1, 10, "v" + std::to_string(ck)), LiveCell(2, 10, "w")});
    };
    MergeOne(table, StaticRowKey(Prefix(1)), Cells({LiveCell(9, 10, "s")}));
    for (int ck = 0; ck < 5; ++ck) MergeOne(table, Key(1, ck), old_row(ck));
    for (int ck = 0; ck < 10; ++ck) MergeOne(table, Key(2, ck), old_row(ck));
    for (int ck = 0; ck < 3; ++ck) MergeOne(table, Key(3, ck), old_row(ck));
    ASSERT_TRUE(store_->FlushTable(table).ok());
    MergeOne(table, PartitionDeletionKey(Prefix(1)), Deleted(20, kStart));
    MergeOne(table, Range(2, 3, 6), Deleted(20, kStart));
    MergeOne(table, Key(3, 1), Deleted(20, kStart));
    ASSERT_TRUE(store_->FlushTable(table).ok());
    MergeOne(table, Key(1, 5), Marked(30, {LiveCell(1, 30, "new")}));
    MergeOne(table, Key(1, 2), Cells({LiveCell(2, 30, "new")}));
    MergeOne(table, Key(2, 4), Cells({LiveCell(1, 30, "new")}));
  }
  static Visible ExpectedVisible() {
    Visible expected = {
        {"1/2", {"2=new"}},       {"1/5", {"1=new"}},       {"2/4", {"1=new"}},
        {"3/0", {"1=v0", "2=w"}}, {"3/2", {"1=v2", "2=w"}},
    };
    for (int ck : {0, 1, 2, 6, 7, 8, 9}) {
      expected["2/" + std::to_string(ck)] = {"1=v" + std::to_string(ck), "2=w"};
    }
    return expected;
  }
};

TEST_F(PurgeStoreTest, OneCompactionPurgesAMergeOnlyExpiredCell) {
  ASSERT_TRUE(store_->CreateTable("t", TableOptions{.gc_grace_seconds = 100}).ok());
  RowFragment expiring = Cells({ExpiringCell(1, kStart * kSecond, "v", 10, kStart + 10)});
  MergeOne("t", Key(1, 1), expiring);
  MergeOne("t", Key(1, 2), expiring);
  ASSERT_TRUE(store_->FlushTable("t").ok());

  // Expired, within gc_grace: one compaction turns the cell into a tombstone.
  clock_.SetMicros((kStart + 10) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_EQ(GetOrDie("t", Key(1, 1))->cells[0], TombstoneCell(1, kStart * kSecond, kStart));

  // Row 2 is written only with Merge once more, then one compaction past gc_grace purges it.
  MergeOne("t", Key(1, 3), expiring);
  clock_.SetMicros((kStart + 10 + 101) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_FALSE(GetOrDie("t", Key(1, 1)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(1, 2)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(1, 3)).has_value());
  EXPECT_EQ(Count("t").entries, 0);
}

TEST_F(PurgeStoreTest, PartitionAndRangeTombstonesGoWithTheRowsTheyShadow) {
  ASSERT_TRUE(
      store_->CreateTable("t", TableOptions{.gc_grace_seconds = 100, .shape = shape_}).ok());
  ASSERT_NO_FATAL_FAILURE(WriteShadowedData("t"));
  EXPECT_EQ(Read("t"), ExpectedVisible());

  // Within gc_grace: the tombstones stay, the data they shadow is already gone.
  clock_.SetMicros((kStart + 50) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_EQ(Read("t"), ExpectedVisible());
  EXPECT_TRUE(GetOrDie("t", PartitionDeletionKey(Prefix(1))).has_value());
  EXPECT_TRUE(GetOrDie("t", Range(2, 3, 6)).has_value());
  EXPECT_FALSE(GetOrDie("t", StaticRowKey(Prefix(1))).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(1, 0)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(2, 3)).has_value());
  EXPECT_EQ(GetOrDie("t", Key(1, 2)), Cells({LiveCell(2, 30, "new")}));
  EXPECT_EQ(GetOrDie("t", Key(2, 4)), Cells({LiveCell(1, 30, "new")}));
  Census within = Count("t");
  EXPECT_EQ(within.deletions, 3);
  EXPECT_EQ(within.entries, 3 + 12);

  // Past gc_grace: one compaction purges every tombstone; nothing deleted comes back.
  clock_.SetMicros((kStart + 101) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  Census after = Count("t");
  EXPECT_EQ(after.deletions, 0);
  EXPECT_EQ(after.entries, 12);
  EXPECT_FALSE(GetOrDie("t", PartitionDeletionKey(Prefix(1))).has_value());
  EXPECT_FALSE(GetOrDie("t", Range(2, 3, 6)).has_value());
  EXPECT_FALSE(GetOrDie("t", Key(3, 1)).has_value());
  EXPECT_EQ(Read("t"), ExpectedVisible());
  Reopen();
  EXPECT_EQ(Read("t"), ExpectedVisible());
}

TEST_F(PurgeStoreTest, TablesWithoutShapeNeverPurgePartitionOrRangeTombstones) {
  ASSERT_TRUE(store_->CreateTable("t", TableOptions{.gc_grace_seconds = 100}).ok());
  ASSERT_NO_FATAL_FAILURE(WriteShadowedData("t"));
  clock_.SetMicros((kStart + 1000) * kSecond);
  ASSERT_TRUE(store_->CompactTable("t").ok());
  ASSERT_TRUE(store_->CompactTable("t").ok());
  EXPECT_TRUE(GetOrDie("t", PartitionDeletionKey(Prefix(1))).has_value());
  EXPECT_TRUE(GetOrDie("t", Range(2, 3, 6)).has_value());
  EXPECT_EQ(Count("t").deletions, 3);  // a row deletion cannot be told apart: kept too
  EXPECT_EQ(Read("t"), ExpectedVisible());
}

TEST_F(PurgeStoreTest, RowEntriesOnlyTablesPurgeRowDeletions) {
  ASSERT_TRUE(
      store_->CreateTable("index", TableOptions{.gc_grace_seconds = 100, .row_entries_only = true})
          .ok());
  MergeOne("index", "entry-a", Marked(10, {}));
  MergeOne("index", "entry-a", Deleted(20, kStart));
  MergeOne("index", "entry-b", Marked(30, {}));
  clock_.SetMicros((kStart + 101) * kSecond);
  ASSERT_TRUE(store_->CompactTable("index").ok());
  EXPECT_FALSE(GetOrDie("index", "entry-a").has_value());
  EXPECT_TRUE(GetOrDie("index", "entry-b").has_value());
}

TEST_F(PurgeStoreTest, ShapeSurvivesReopenAndAlter) {
  ASSERT_TRUE(
      store_->CreateTable("t", TableOptions{.gc_grace_seconds = 1000, .shape = shape_}).ok());
  ASSERT_TRUE(store_->CreateTable("old", TableOptions{.gc_grace_seconds = 1000}).ok());
  Reopen();
  ASSERT_NO_FATAL_FAILURE(WriteShadowedData("t"));
  ASSERT_NO_FATAL_FAILURE(WriteShadowedData("old"));
  // Giving a table without a shape one later (AlterTable replaces all options).
  ASSERT_TRUE(
      store_->AlterTable("old", TableOptions{.gc_grace_seconds = 100, .shape = shape_}).ok());
  ASSERT_TRUE(store_->AlterTable("t", TableOptions{.gc_grace_seconds = 100, .shape = shape_}).ok());
  Reopen();
  clock_.SetMicros((kStart + 101) * kSecond);
  for (const char* table : {"t", "old"}) {
    ASSERT_TRUE(store_->CompactTable(table).ok());
    EXPECT_EQ(Count(table).deletions, 0) << table;
    EXPECT_EQ(Count(table).entries, 12) << table;
    EXPECT_EQ(Read(table), ExpectedVisible()) << table;
  }
}

TEST_F(PurgeStoreTest, TableOptionsOfReturnsTheStoredOptions) {
  TableOptions shaped{.gc_grace_seconds = 1000, .shape = shape_};
  ASSERT_TRUE(store_->CreateTable("t", shaped).ok());
  ASSERT_TRUE(store_->CreateTable("old", TableOptions{.gc_grace_seconds = 7}).ok());
  Reopen();
  auto t = store_->TableOptionsOf("t");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(*t, shaped);
  auto old = store_->TableOptionsOf("old");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->gc_grace_seconds, 7);
  EXPECT_FALSE(old->shape.has_value());
  EXPECT_EQ(store_->TableOptionsOf("missing").status().code(), common::StatusCode::kNotFound);
}

TEST_F(PurgeStoreTest, UnencodableShapeIsInvalid) {
  KeyShape shape{{cql::CqlType::UdtRef("ks", "address", true)}, {}};
  EXPECT_EQ(store_->CreateTable("t", TableOptions{.shape = shape}).code(),
            common::StatusCode::kInvalid);
  EXPECT_FALSE(store_->HasTable("t"));
}

// Sum of the sizes of the write-ahead logs (*.log) in `dir`.
uint64_t LogBytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") total += entry.file_size();
  }
  return total;
}

TEST_F(PurgeStoreTest, TruncateAndDropReleaseTheLogOfUnflushedData) {
  constexpr uint64_t kData = 2u << 20;
  for (const bool drop : {false, true}) {
    ASSERT_TRUE(store_->CreateTable("t", {}).ok());
    // A new session: its log then holds the table's writes only (the meta write of
    // CreateTable would otherwise be replayed and flushed on reopen, releasing the log).
    Reopen();
    std::string value(1000, 'x');
    for (int i = 0; i < static_cast<int>(kData / value.size()); ++i) {
      value[i % value.size()] = static_cast<char>(i);
      MergeOne("t", Key(i, 0), Cells({LiveCell(1, 1, value)}));
    }
    ASSERT_GE(LogBytes(dir_), kData);
    ASSERT_TRUE((drop ? store_->DropTable("t") : store_->TruncateTable("t")).ok());
    EXPECT_LT(LogBytes(dir_), kData / 8) << (drop ? "DROP" : "TRUNCATE");
    Reopen();
    EXPECT_LT(LogBytes(dir_), kData / 8) << (drop ? "DROP" : "TRUNCATE") << " and reopen";
    Reopen();
    EXPECT_LT(LogBytes(dir_), kData / 8) << (drop ? "DROP" : "TRUNCATE") << " and reopens";
    EXPECT_EQ(store_->HasTable("t"), !drop);
    if (!drop) {
      EXPECT_EQ(Count("t").entries, 0);
      ASSERT_TRUE(store_->DropTable("t").ok());
    }
  }
}

// StoreOptions::bulk_load: rows skip the write-ahead log, catalogue changes do not, and the
// rows are on disk (in SST files) once the store is closed.
TEST_F(PurgeStoreTest, BulkLoadWritesRowsWithoutTheLogAndFlushesThemOnClose) {
  constexpr uint64_t kData = 2u << 20;
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  store_.reset();
  StoreOptions options;
  options.clock = &clock_;
  options.bulk_load = true;
  auto bulk = Store::Open(dir_.string(), options);
  ASSERT_TRUE(bulk.ok()) << bulk.status().ToString();
  const uint64_t log_before = LogBytes(dir_);
  std::string value(1000, 'x');
  const int rows = static_cast<int>(kData / value.size());
  for (int i = 0; i < rows; ++i) {
    WriteBatch batch;
    batch.Merge("t", Key(i, 0), Cells({LiveCell(1, 1, value)}));
    ASSERT_TRUE((*bulk)->Write(batch).ok());
  }
  EXPECT_LT(LogBytes(dir_) - log_before, kData / 8) << "rows went through the log";
  WriteBatch meta;
  meta.PutMeta("k", std::string(64u << 10, 'm'));
  ASSERT_TRUE((*bulk)->Write(meta).ok());
  EXPECT_GE(LogBytes(dir_) - log_before, 64u << 10) << "a catalogue change skipped the log";
  bulk->reset();  // flushes
  Reopen();
  EXPECT_EQ(Count("t").entries, rows);
  auto read = store_->GetMeta("k");
  ASSERT_TRUE(read.ok() && read->has_value());
}

TEST_F(StoreTest, SyncWritesOption) {
  StoreOptions options;
  options.clock = &clock_;
  options.sync_writes = true;
  store_.reset();
  auto store = Store::Open(dir_.string(), options);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->CreateTable("t", {}).ok());
  WriteBatch batch;
  batch.Merge("t", Key(1, 1), Cells({LiveCell(1, 1, "a")}));
  ASSERT_TRUE((*store)->Write(batch).ok());
  EXPECT_TRUE((*store)->Get("t", Key(1, 1))->has_value());
}

// partition_versions.h invariant 1: a write makes the snapshots of the partitions it touches
// stale, and no other partition's; table-wide changes make every snapshot stale.
TEST_F(StoreTest, WritesBracketTheirPartitionsVersions) {
  ASSERT_TRUE(store_->CreateTable("t", {}).ok());
  ASSERT_TRUE(store_->CreateTable("u", {}).ok());
  const PartitionVersions& versions = store_->partition_versions();
  auto snapshot = [&](std::string_view table, int32_t pk) {
    return versions.Take(PartitionVersions::StripeOf(table, Key(pk, 0)));
  };
  // Two partitions of t on different stripes, and partition 1 of u.
  int32_t other = 2;
  while (PartitionVersions::StripeOf("t", Key(other, 0)) ==
         PartitionVersions::StripeOf("t", Key(1, 0))) {
    ++other;
  }
  // Any key of a partition, or its prefix, names the same stripe.
  EXPECT_EQ(PartitionVersions::StripeOf("t", Key(1, 0)),
            PartitionVersions::StripeOf("t", Key(1, 7)));
  EXPECT_EQ(PartitionVersions::StripeOf("t", Key(1, 0)),
            PartitionVersions::StripeOf("t", PartitionPrefix(shape_, std::vector{Int(1)})));
  PartitionVersions::Snapshot one = snapshot("t", 1);
  PartitionVersions::Snapshot two = snapshot("t", other);
  EXPECT_TRUE(one.Quiet());
  EXPECT_TRUE(versions.Current(one));

  MergeOne("t", Key(1, 5), Cells({LiveCell(1, 10, "a")}));
  EXPECT_FALSE(versions.Current(one));
  EXPECT_TRUE(versions.Current(two));
  PartitionVersions::Snapshot after = snapshot("t", 1);
  EXPECT_TRUE(after.Quiet());
  EXPECT_TRUE(versions.Current(after));

  // A refused write (unknown table) is not bracketed; a batch over two partitions is, once.
  WriteBatch refused;
  refused.Merge("missing", Key(1, 5), Cells({LiveCell(1, 11, "b")}));
  EXPECT_FALSE(store_->Write(refused).ok());
  EXPECT_TRUE(versions.Current(after));
  WriteBatch both;
  both.Merge("t", Key(1, 6), Cells({LiveCell(1, 12, "c")}));
  both.Merge("t", Key(other, 6), Cells({LiveCell(1, 12, "c")}));
  ASSERT_TRUE(store_->Write(both).ok());
  EXPECT_FALSE(versions.Current(after));
  EXPECT_FALSE(versions.Current(two));
  EXPECT_EQ(snapshot("t", 1).started, after.started + 1);

  // Table-wide changes of any table.
  PartitionVersions::Snapshot before_compact = snapshot("t", 1);
  ASSERT_TRUE(store_->CompactTable("u").ok());
  EXPECT_FALSE(versions.Current(before_compact));
  PartitionVersions::Snapshot before_truncate = snapshot("t", 1);
  ASSERT_TRUE(store_->TruncateTable("t").ok());
  EXPECT_FALSE(versions.Current(before_truncate));
  PartitionVersions::Snapshot before_alter = snapshot("t", 1);
  ASSERT_TRUE(store_->AlterTable("t", {}).ok());
  EXPECT_FALSE(versions.Current(before_alter));
  PartitionVersions::Snapshot before_drop = snapshot("t", 1);
  ASSERT_TRUE(store_->DropTable("u").ok());
  EXPECT_FALSE(versions.Current(before_drop));
  EXPECT_TRUE(snapshot("t", 1).Quiet());
}

}  // namespace
}  // namespace storage
