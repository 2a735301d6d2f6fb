#include "storage/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
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
  ASSERT_TRUE(store_->CreateTable("t", TableOptions{.gc_grace_seconds = 100}).ok());
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

}  // namespace
}  // namespace storage
