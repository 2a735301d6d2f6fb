#include "storage/cell_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "storage/storage_testing.h"

namespace storage {
namespace {

int Sign(std::strong_ordering o) { return o < 0 ? -1 : (o > 0 ? 1 : 0); }

using testing::ExpiringCell;
using testing::LiveCell;
using testing::RandomFragments;
using testing::TombstoneCell;
using testing::WithPath;

// Checks `winner` beats `loser` in both argument orders.
void ExpectWins(const Cell& winner, const Cell& loser) {
  EXPECT_EQ(ReconcileCells(winner, loser), winner);
  EXPECT_EQ(ReconcileCells(loser, winner), winner);
  EXPECT_GT(Sign(CompareForReconcile(winner, loser)), 0);
  EXPECT_LT(Sign(CompareForReconcile(loser, winner)), 0);
}

TEST(CellMergeTest, HigherTimestampWins) {
  ExpectWins(LiveCell(1, 11, "a"), LiveCell(1, 10, "z"));
  ExpectWins(LiveCell(1, 11, "a"), TombstoneCell(1, 10, 999));
  ExpectWins(TombstoneCell(1, 11, 1), LiveCell(1, 10, "z"));
  ExpectWins(LiveCell(1, -5, "a"), LiveCell(1, -6, "z"));  // negative timestamps are legal
}

TEST(CellMergeTest, EqualTimestampTombstoneBeatsLive) {
  ExpectWins(TombstoneCell(1, 10, 1), LiveCell(1, 10, "\xff\xff"));
}

TEST(CellMergeTest, EqualTimestampExpiringBeatsLive) {
  // CASSANDRA-14592: decided without looking at the clock or the values.
  ExpectWins(ExpiringCell(1, 10, "a", 100, 5), LiveCell(1, 10, "z"));
}

TEST(CellMergeTest, EqualTimestampTombstoneBeatsExpiring) {
  ExpectWins(TombstoneCell(1, 10, 1), ExpiringCell(1, 10, "z", 100, 1000));
}

TEST(CellMergeTest, TwoTombstonesLaterDeletionTimeWins) {
  ExpectWins(TombstoneCell(1, 10, 51), TombstoneCell(1, 10, 50));
}

TEST(CellMergeTest, TwoExpiringLaterExpirationWinsBeforeValue) {
  ExpectWins(ExpiringCell(1, 10, "a", 100, 2001), ExpiringCell(1, 10, "z", 100, 2000));
}

TEST(CellMergeTest, TwoLiveGreaterValueWinsUnsigned) {
  ExpectWins(LiveCell(1, 10, "b"), LiveCell(1, 10, "a"));
  ExpectWins(LiveCell(1, 10, "ab"), LiveCell(1, 10, "a"));
  // 0x80 > 0x7f as unsigned bytes (a signed compare would say otherwise).
  ExpectWins(LiveCell(1, 10, "\x80"), LiveCell(1, 10, "\x7f"));
}

TEST(CellMergeTest, ExpiringTieOnValueBrokenByTtl) {
  ExpectWins(ExpiringCell(1, 10, "a", 200, 2000), ExpiringCell(1, 10, "a", 100, 2000));
}

TEST(CellMergeTest, IdenticalCellsCompareEqual) {
  Cell c = WithPath(ExpiringCell(3, 10, "v", 5, 6), "p");
  EXPECT_EQ(Sign(CompareForReconcile(c, c)), 0);
}

TEST(CellMergeTest, RowDeletionShadowsOlderAndEqualData) {
  RowFragment older;
  older.liveness = LivenessInfo{10, 0, 0};
  older.cells = {LiveCell(1, 10, "a"), LiveCell(2, 11, "b")};
  RowFragment deletion;
  deletion.deletion = DeletionTime{10, 500};
  RowFragment merged = MergeFragments(older, deletion);
  EXPECT_FALSE(merged.liveness.has_value());
  ASSERT_EQ(merged.cells.size(), 1u);
  EXPECT_EQ(merged.cells[0], LiveCell(2, 11, "b"));
  EXPECT_EQ(merged.deletion, (DeletionTime{10, 500}));
  // A later write after the deletion is visible again.
  RowFragment newer;
  newer.cells = {LiveCell(1, 12, "c")};
  RowFragment again = MergeFragments(merged, newer);
  ASSERT_EQ(again.cells.size(), 2u);
  EXPECT_EQ(again.cells[0], LiveCell(1, 12, "c"));
}

TEST(CellMergeTest, CollectionDeletionShadowsOnlyItsElements) {
  RowFragment before;
  before.cells = {LiveCell(1, 5, "simple"), WithPath(LiveCell(2, 5, "x"), "k1"),
                  WithPath(LiveCell(2, 7, "y"), "k2"), WithPath(LiveCell(3, 5, "z"), "k1")};
  // SET c = {...}: collection tombstone at ts-1, new elements at ts.
  RowFragment overwrite;
  overwrite.collection_deletions[2] = DeletionTime{6, 100};
  overwrite.cells = {WithPath(LiveCell(2, 7, "w"), "k3")};
  RowFragment merged = MergeFragments(before, overwrite);
  std::vector<Cell> expected = {LiveCell(1, 5, "simple"), WithPath(LiveCell(2, 7, "y"), "k2"),
                                WithPath(LiveCell(2, 7, "w"), "k3"),
                                WithPath(LiveCell(3, 5, "z"), "k1")};
  EXPECT_EQ(merged.cells, expected);
  EXPECT_EQ(merged.collection_deletions.at(2), (DeletionTime{6, 100}));
}

TEST(CellMergeTest, RowDeletionDropsSupersededCollectionDeletion) {
  RowFragment a;
  a.collection_deletions[2] = DeletionTime{6, 100};
  a.collection_deletions[3] = DeletionTime{9, 100};
  RowFragment b;
  b.deletion = DeletionTime{8, 50};
  RowFragment merged = MergeFragments(a, b);
  EXPECT_EQ(merged.collection_deletions.count(2), 0u);
  EXPECT_EQ(merged.collection_deletions.at(3), (DeletionTime{9, 100}));
}

TEST(CellMergeTest, LivenessNewestWinsExpiringOnTies) {
  LivenessInfo plain{10, 0, 0};
  LivenessInfo expiring{10, 60, 1000};
  LivenessInfo newer{11, 0, 0};
  EXPECT_TRUE(LivenessSupersedes(newer, expiring));
  EXPECT_TRUE(LivenessSupersedes(expiring, plain));
  EXPECT_FALSE(LivenessSupersedes(plain, expiring));
  EXPECT_TRUE(LivenessSupersedes(LivenessInfo{10, 60, 1001}, expiring));
  RowFragment a;
  a.liveness = plain;
  RowFragment b;
  b.liveness = expiring;
  EXPECT_EQ(MergeFragments(a, b).liveness, expiring);
  EXPECT_EQ(MergeFragments(b, a).liveness, expiring);
}

TEST(CellMergeTest, DeletionMergeByTimestampThenLocalTime) {
  EXPECT_EQ(MergeDeletion(DeletionTime{5, 1}, DeletionTime{4, 9}), (DeletionTime{5, 1}));
  EXPECT_EQ(MergeDeletion(DeletionTime{5, 1}, DeletionTime{5, 2}), (DeletionTime{5, 2}));
}

TEST(CellMergeTest, CanonicalSortsAndDeduplicates) {
  RowFragment f;
  f.cells = {LiveCell(2, 1, "a"), LiveCell(1, 1, "a"), LiveCell(2, 3, "b")};
  RowFragment c = Canonical(f);
  std::vector<Cell> expected = {LiveCell(1, 1, "a"), LiveCell(2, 3, "b")};
  EXPECT_EQ(c.cells, expected);
  EXPECT_TRUE(ValidateRowFragment(c).ok());
}

TEST(CellMergePropertyTest, IsCanonicalExactlyWhenCanonicalChangesNothing) {
  RandomFragments gen(7);
  int canonical = 0;
  int not_canonical = 0;
  for (int i = 0; i < 2000; ++i) {
    RowFragment f = gen.Fragment();
    bool expected = Canonical(f) == f;
    ASSERT_EQ(IsCanonical(f), expected) << i;
    ++(expected ? canonical : not_canonical);
    ASSERT_TRUE(IsCanonical(Canonical(f))) << i;
  }
  // The generator covers both answers.
  EXPECT_GT(canonical, 100);
  EXPECT_GT(not_canonical, 100);
}

TEST(CellMergeTest, IsCanonicalSeesEachShadowingRule) {
  RowFragment f;
  f.cells = {LiveCell(1, 5, "a")};
  EXPECT_TRUE(IsCanonical(f));
  f.deletion = DeletionTime{5, 100};  // shadows the cell (timestamp <= 5)
  EXPECT_FALSE(IsCanonical(f));
  f.cells.clear();
  f.liveness = LivenessInfo{4, 0, 0};  // shadowed marker
  EXPECT_FALSE(IsCanonical(f));
  f.liveness.reset();
  f.collection_deletions[2] = DeletionTime{3, 100};  // superseded by the row deletion
  EXPECT_FALSE(IsCanonical(f));
  f = RowFragment{};
  f.collection_deletions[2] = DeletionTime{3, 100};
  f.cells = {WithPath(LiveCell(2, 3, "a"), "k")};  // shadowed element
  EXPECT_FALSE(IsCanonical(f));
  f.cells = {WithPath(LiveCell(2, 4, "a"), "k")};
  EXPECT_TRUE(IsCanonical(f));
  f.cells = {LiveCell(3, 4, "a"), LiveCell(1, 4, "a")};  // unsorted
  EXPECT_FALSE(IsCanonical(f));
}

TEST(CellMergeTest, EmptyIsIdentity) {
  RandomFragments gen(3);
  for (int i = 0; i < 200; ++i) {
    RowFragment f = gen.Fragment();
    EXPECT_EQ(MergeFragments(f, RowFragment{}), Canonical(f));
    EXPECT_EQ(MergeFragments(RowFragment{}, f), Canonical(f));
  }
}

TEST(CellMergePropertyTest, CommutativeAssociativeIdempotent) {
  RandomFragments gen(20261121);
  for (int i = 0; i < 3000; ++i) {
    RowFragment a = gen.Fragment();
    RowFragment b = gen.Fragment();
    RowFragment c = gen.Fragment();
    ASSERT_EQ(MergeFragments(a, b), MergeFragments(b, a)) << i;
    ASSERT_EQ(MergeFragments(MergeFragments(a, b), c), MergeFragments(a, MergeFragments(b, c)))
        << i;
    ASSERT_EQ(MergeFragments(a, a), Canonical(a)) << i;
    RowFragment merged = MergeFragments(a, b);
    ASSERT_TRUE(ValidateRowFragment(merged).ok()) << i;
    ASSERT_EQ(Canonical(merged), merged) << i;
  }
}

TEST(CellMergePropertyTest, AnyPermutationGivesTheSameResult) {
  RandomFragments gen(99);
  for (int round = 0; round < 200; ++round) {
    std::vector<RowFragment> fragments;
    for (int i = 0; i < 5; ++i) fragments.push_back(gen.Fragment());
    RowFragment expected = MergeAllFragments(fragments);
    std::vector<int> order = {0, 1, 2, 3, 4};
    int permutations = 0;
    while (std::next_permutation(order.begin(), order.end()) && permutations++ < 20) {
      std::vector<RowFragment> shuffled;
      for (int k : order) shuffled.push_back(fragments[static_cast<size_t>(k)]);
      ASSERT_EQ(MergeAllFragments(shuffled), expected) << round;
    }
  }
}

TEST(CellMergePropertyTest, MergedCellIsTheMaximumOfItsInputs) {
  // Model check: for each position, the surviving cell is the reconcile-maximum of all input
  // cells at that position unless a deletion shadows it.
  RandomFragments gen(5);
  for (int round = 0; round < 500; ++round) {
    RowFragment a = gen.Fragment();
    RowFragment b = gen.Fragment();
    RowFragment merged = MergeFragments(a, b);
    std::vector<Cell> all = a.cells;
    all.insert(all.end(), b.cells.begin(), b.cells.end());
    for (const Cell& cell : all) {
      Cell winner = cell;
      for (const Cell& other : all) {
        if (CompareCellPosition(other, cell) == 0) winner = ReconcileCells(winner, other);
      }
      // A row deletion also removes a collection deletion it supersedes, so shadowing by any
      // input collection deletion counts (the row deletion then shadows the cell too).
      bool shadowed = merged.deletion && merged.deletion->Deletes(winner.timestamp);
      for (const RowFragment* f : {&a, &b}) {
        auto deletion = f->collection_deletions.find(winner.column_id);
        if (winner.path && deletion != f->collection_deletions.end() &&
            deletion->second.Deletes(winner.timestamp)) {
          shadowed = true;
        }
      }
      auto found = std::find_if(merged.cells.begin(), merged.cells.end(),
                                [&](const Cell& m) { return CompareCellPosition(m, cell) == 0; });
      if (shadowed) {
        EXPECT_EQ(found, merged.cells.end()) << round;
      } else {
        ASSERT_NE(found, merged.cells.end()) << round;
        EXPECT_EQ(*found, winner) << round;
      }
    }
  }
}

}  // namespace
}  // namespace storage
