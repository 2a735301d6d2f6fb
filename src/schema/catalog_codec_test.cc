#include "schema/catalog_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;

void ExpectSameTables(
    const std::map<std::string, std::shared_ptr<const TableMetadata>, std::less<>>& expected,
    const std::map<std::string, std::shared_ptr<const TableMetadata>, std::less<>>& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (const auto& [name, table] : expected) {
    auto it = actual.find(name);
    ASSERT_NE(it, actual.end()) << name;
    EXPECT_TRUE(*table == *it->second) << name;
    EXPECT_EQ(table->columns, it->second->columns) << name;
    EXPECT_EQ(table->options, it->second->options) << name;
    EXPECT_EQ(table->indexes, it->second->indexes) << name;
    EXPECT_EQ(table->view, it->second->view) << name;
  }
}

void ExpectSameCatalog(const Catalog& expected, const Catalog& actual) {
  EXPECT_EQ(expected.schema_version(), actual.schema_version());
  ASSERT_EQ(expected.keyspaces().size(), actual.keyspaces().size());
  for (const auto& [name, ks] : expected.keyspaces()) {
    const KeyspaceMetadata* other = actual.FindKeyspace(name);
    ASSERT_NE(other, nullptr) << name;
    EXPECT_EQ(ks->name, other->name);
    EXPECT_EQ(ks->replication, other->replication);
    EXPECT_EQ(ks->durable_writes, other->durable_writes);
    EXPECT_EQ(ks->types, other->types);
    ExpectSameTables(ks->tables, other->tables);
    ExpectSameTables(ks->views, other->views);
  }
}

class CatalogCodecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok());
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
    // Extras: options, durable_writes, nested frozen types, dropped columns.
    auto status = ApplyScript(&catalog_, R"(
      CREATE KEYSPACE extra WITH replication = {'class': 'NetworkTopologyStrategy',
          'datacenter1': 1} AND durable_writes = false;
      CREATE TYPE extra.inner (a int, b frozen<list<text>>);
      CREATE TYPE extra.outer (i frozen<inner>, m frozen<map<int, frozen<set<uuid>>>>);
      CREATE TABLE extra.t (k int, c1 text, c2 timeuuid, s int STATIC,
          v1 list<frozen<map<text, int>>>, v2 outer, v3 frozen<outer>,
          v4 tuple<int, frozen<list<int>>>, v5 vector<float, 3>, v6 duration, gone set<int>,
          PRIMARY KEY ((k), c1, c2))
        WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC) AND comment = 'it''s'
        AND default_time_to_live = 7 AND gc_grace_seconds = 11
        AND compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '160'}
        AND caching = {'keys': 'ALL'} AND bloom_filter_fp_chance = 0.01
        AND speculative_retry = '99p';
      ALTER TABLE extra.t DROP gone USING TIMESTAMP 12345;
      CREATE TABLE extra.counts (k int PRIMARY KEY, n counter);
    )");
    ASSERT_TRUE(status.ok()) << status.ToString();
    AddIndexAndView();
  }

  // Adds an index and a materialized view by hand (independent of the DDL for them).
  void AddIndexAndView() {
    const KeyspaceMetadata* ks = catalog_->FindKeyspace("reservation");
    ASSERT_NE(ks, nullptr);
    auto updated = std::make_shared<KeyspaceMetadata>(*ks);
    const TableMetadata* base = ks->FindTable("reservations_by_confirmation");
    ASSERT_NE(base, nullptr);
    auto table = std::make_shared<TableMetadata>(*base);
    IndexMetadata index;
    index.id = common::Uuid::Random();
    index.name = "guests_idx";
    index.column = "guest_id";
    index.options = {{"target", "guest_id"}};
    table->indexes.emplace(index.name, index);
    IndexMetadata keys = index;
    keys.id = common::Uuid::Random();
    keys.name = "custom_idx";
    keys.target = IndexMetadata::Target::kKeys;
    keys.kind = "CUSTOM";
    keys.options = {{"target", "keys(guest_id)"}, {"class_name", "com.example.Idx"}};
    table->indexes.emplace(keys.name, keys);

    auto view = std::make_shared<TableMetadata>(*base);
    view->id = common::Uuid::Random();
    view->name = "by_hotel";
    ViewInfo info;
    info.base_table_id = base->id;
    info.base_table_name = base->name;
    info.include_all_columns = true;
    info.where_clause = "hotel_id IS NOT NULL AND confirm_number IS NOT NULL";
    auto parsed = cql::ParseStatement("SELECT * FROM x WHERE " + info.where_clause);
    ASSERT_TRUE(parsed.ok());
    info.where = std::get<cql::Select>(parsed.value()).where;
    ASSERT_EQ(info.where.size(), 2u);
    view->view = info;
    updated->tables.insert_or_assign(table->name, table);
    updated->views.emplace(view->name, view);
    catalog_ = catalog_->WithKeyspace(std::move(updated));
  }

  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

TEST_F(CatalogCodecTest, RoundTripsEverything) {
  const common::Bytes bytes = EncodeCatalog(*catalog_);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), kCatalogFormatVersion);
  auto decoded = DecodeCatalog(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ExpectSameCatalog(*catalog_, *decoded.value());
  EXPECT_EQ(EncodeCatalog(*decoded.value()), bytes);

  // Spot checks that the things the protocol encoding loses survive.
  const Catalog& c = *decoded.value();
  const TableMetadata* hotels = c.FindTable("hotel", "hotels");
  ASSERT_NE(hotels, nullptr);
  EXPECT_TRUE(hotels->FindColumn("address")->type.frozen());
  EXPECT_FALSE(hotels->FindColumn("pois")->type.frozen());
  EXPECT_EQ(hotels->options.comment, "Q2. Find information about a hotel");
  const TableMetadata* t = c.FindTable("extra", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->FindColumn("c1")->order, ClusteringOrder::kDesc);
  EXPECT_EQ(t->FindColumn("s")->kind, ColumnKind::kStatic);
  EXPECT_TRUE(t->FindColumn("v1")->type.element().frozen());
  EXPECT_FALSE(t->FindColumn("v2")->type.frozen());
  EXPECT_TRUE(t->FindColumn("v3")->type.frozen());
  EXPECT_EQ(t->FindColumn("v5")->type, cql::CqlType::Vector(cql::CqlType::Float(), 3));
  EXPECT_EQ(t->options.default_time_to_live, 7);
  EXPECT_EQ(t->options.gc_grace_seconds, 11);
  EXPECT_EQ(t->options.other.size(), 4u);
  ASSERT_TRUE(t->dropped_columns.contains("gone"));
  EXPECT_EQ(t->dropped_columns.at("gone").dropped_time_micros, 12345);
  EXPECT_EQ(t->next_column_id, 11u);
  EXPECT_FALSE(c.FindKeyspace("extra")->durable_writes);
  EXPECT_TRUE(c.FindTable("extra", "counts")->is_counter);
  const TableMetadata* view = c.FindTableOrView("reservation", "by_hotel");
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(view->view.has_value());
  EXPECT_EQ(view->view->where.size(), 2u);
  EXPECT_EQ(c.FindKeyspace("reservation")->FindIndexedTable("custom_idx")->name,
            "reservations_by_confirmation");
}

TEST_F(CatalogCodecTest, EmptyCatalog) {
  auto empty = Catalog::Empty();
  auto decoded = DecodeCatalog(EncodeCatalog(*empty));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.value()->schema_version(), empty->schema_version());
  EXPECT_TRUE(decoded.value()->keyspaces().empty());
}

TEST_F(CatalogCodecTest, EveryTruncationIsCorruption) {
  const common::Bytes bytes = EncodeCatalog(*catalog_);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = DecodeCatalog(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(decoded.ok()) << "prefix " << n;
    ASSERT_EQ(decoded.status().code(), StatusCode::kCorruption) << decoded.status().ToString();
  }
  auto trailing = DecodeCatalog(bytes + "x");
  ASSERT_FALSE(trailing.ok());
  EXPECT_EQ(trailing.status().code(), StatusCode::kCorruption);
}

TEST_F(CatalogCodecTest, BadVersionIsCorruption) {
  common::Bytes bytes = EncodeCatalog(*catalog_);
  bytes[0] = static_cast<char>(kCatalogFormatVersion + 1);
  auto decoded = DecodeCatalog(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
  EXPECT_NE(decoded.status().message().find("unsupported format version"), std::string::npos);
}

TEST_F(CatalogCodecTest, FlippedBytesNeverCrash) {
  const common::Bytes bytes = EncodeCatalog(*catalog_);
  std::mt19937 rng(42);
  int failures = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    // Alternate between inverting the byte and flipping one random bit of it.
    const uint8_t mask = i % 2 == 0 ? uint8_t{0xff} : static_cast<uint8_t>(1u << (rng() % 8));
    common::Bytes garbled = bytes;
    garbled[i] = static_cast<char>(static_cast<uint8_t>(garbled[i]) ^ mask);
    auto decoded = DecodeCatalog(garbled);
    if (!decoded.ok()) {
      ++failures;
      ASSERT_EQ(decoded.status().code(), StatusCode::kCorruption) << decoded.status().ToString();
    }
  }
  // Flips of length and kind bytes must be detected; most flips inside text decode fine.
  EXPECT_GT(failures, 0);
}

TEST_F(CatalogCodecTest, DeepTypeNestingIsCorruption) {
  common::ByteWriter out;
  out.PutU8(kCatalogFormatVersion);
  out.PutRaw(common::Uuid::Random().ToBytes());
  out.PutU32(1);
  out.PutU32(2);
  out.PutRaw("ks");
  out.PutU32(0);  // replication
  out.PutU8(1);   // durable
  out.PutU32(1);  // types
  out.PutU32(1);
  out.PutRaw("t");
  for (int i = 0; i < 100000; ++i) {
    out.PutU8(0);
    out.PutU16(0x0020);  // list
  }
  auto decoded = DecodeCatalog(out.data());
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
}

// A table entry that decodes but breaks what the DDL guarantees (found by the catalog fuzzer:
// a table without a partition key crashed DESCRIBE) is corrupt, and so is each variant below.
TEST_F(CatalogCodecTest, StructurallyBrokenTablesAreCorruption) {
  const TableMetadata* good = catalog_->FindKeyspace("extra")->FindTable("t");
  ASSERT_NE(good, nullptr);
  ASSERT_TRUE(DecodeTableEntry(EncodeTableEntry(*good), EntryKind::kTable).ok());
  auto expect_corrupt = [&](const char* what, auto&& mutate) {
    TableMetadata broken = *good;
    mutate(&broken);
    auto decoded = DecodeTableEntry(EncodeTableEntry(broken), EntryKind::kTable);
    ASSERT_FALSE(decoded.ok()) << what;
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption) << what;
  };
  auto column = [](TableMetadata* t, std::string_view name) -> ColumnMetadata& {
    for (ColumnMetadata& c : t->columns) {
      if (c.name == name) return c;
    }
    std::abort();
  };
  expect_corrupt("no partition key",
                 [&](TableMetadata* t) { column(t, "k").kind = ColumnKind::kRegular; });
  expect_corrupt("clustering position gap",
                 [&](TableMetadata* t) { column(t, "c2").position = 2; });
  expect_corrupt("duplicate clustering position",
                 [&](TableMetadata* t) { column(t, "c2").position = 0; });
  expect_corrupt("duplicate column name", [&](TableMetadata* t) { column(t, "s").name = "v1"; });
  expect_corrupt("duplicate column id",
                 [&](TableMetadata* t) { column(t, "s").column_id = column(t, "v1").column_id; });
  expect_corrupt("unallocated column id",
                 [&](TableMetadata* t) { column(t, "s").column_id = t->next_column_id; });
  expect_corrupt("index on a missing column", [&](TableMetadata* t) {
    IndexMetadata index;
    index.name = "i";
    index.column = "nope";
    t->indexes.emplace(index.name, index);
  });
}

}  // namespace
}  // namespace schema
