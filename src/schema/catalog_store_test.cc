#include "schema/catalog_store.h"

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/type_depth.h"
#include "schema/catalog_codec.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;
using cql::CqlType;

constexpr std::string_view kExtras = R"(
  CREATE INDEX guests_idx ON reservation.reservations_by_confirmation (guest_id);
  CREATE MATERIALIZED VIEW reservation.by_hotel AS SELECT * FROM reservation.reservations_by_confirmation
    WHERE hotel_id IS NOT NULL AND confirm_number IS NOT NULL PRIMARY KEY (hotel_id, confirm_number);
)";

// The whole catalogue in one comparable value (format 1 is deterministic and complete).
common::Bytes Snapshot(const Catalog& catalog) { return EncodeCatalog(catalog); }

CqlType Lists(int depth) {
  CqlType type = CqlType::Int();
  for (int i = 0; i < depth; ++i) type = CqlType::List(type, true);
  return type;
}

class CatalogStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-catalog-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    OpenStore();
    ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok());
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
    auto status = ApplyScript(&catalog_, kExtras);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(directory_);
  }

  void OpenStore() {
    store_.reset();
    storage::StoreOptions options;
    options.clock = &clock_;
    options.block_cache_bytes = 0;
    auto store = storage::Store::Open(directory_, options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
  }

  // Persists the change from `from` to `to`.
  void Persist(const Catalog& from, const Catalog& to) {
    auto batch = PlanCatalogWrite(from, to);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_TRUE(store_->Write(*batch).ok());
  }

  LoadedCatalog Load() {
    auto loaded = LoadCatalog(*store_);
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    return loaded.ok() ? std::move(loaded).value() : LoadedCatalog{};
  }

  void PutMeta(std::string_view key, std::string_view value) {
    storage::WriteBatch batch;
    batch.PutMeta(key, value);
    ASSERT_TRUE(store_->Write(batch).ok());
  }

  std::optional<common::Bytes> GetMeta(std::string_view key) {
    auto value = store_->GetMeta(key);
    EXPECT_TRUE(value.ok());
    return value.ok() ? *value : std::nullopt;
  }

  common::ManualClock clock_{1'700'000'000'000'000};
  std::string directory_;
  std::unique_ptr<storage::Store> store_;
  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

TEST_F(CatalogStoreTest, EntriesRoundTrip) {
  EXPECT_EQ(Load().source, LoadedCatalog::Source::kNone);
  Persist(*Catalog::Empty(), *catalog_);
  OpenStore();
  LoadedCatalog loaded = Load();
  EXPECT_EQ(loaded.source, LoadedCatalog::Source::kEntries);
  ASSERT_NE(loaded.catalog, nullptr);
  EXPECT_TRUE(loaded.catalog->quarantined().empty());
  EXPECT_EQ(Snapshot(*loaded.catalog), Snapshot(*catalog_));
}

TEST_F(CatalogStoreTest, ChangesWriteTheirEntriesAndDeleteRemovedOnes) {
  Persist(*Catalog::Empty(), *catalog_);
  std::shared_ptr<const Catalog> next = catalog_;
  common::Status changed = ApplyScript(&next, R"(
    DROP MATERIALIZED VIEW reservation.by_hotel;
    DROP TABLE hotel.pois_by_hotel;
    ALTER TABLE hotel.hotels ADD stars int;
    ALTER TYPE hotel.address ADD region text;
  )");
  ASSERT_TRUE(changed.ok()) << changed.ToString();
  Persist(*catalog_, *next);
  EXPECT_FALSE(GetMeta(CatalogEntryKey(EntryKind::kTable, "hotel", "pois_by_hotel")));
  EXPECT_FALSE(GetMeta(CatalogEntryKey(EntryKind::kView, "reservation", "by_hotel")));
  EXPECT_TRUE(GetMeta(CatalogEntryKey(EntryKind::kTable, "hotel", "hotels")));
  EXPECT_EQ(Snapshot(*Load().catalog), Snapshot(*next));
}

TEST_F(CatalogStoreTest, AnUnreadableTableIsQuarantinedAndTheRestLoads) {
  Persist(*Catalog::Empty(), *catalog_);
  const common::Uuid id = catalog_->FindTable("hotel", "hotels")->id;
  const std::string key = CatalogEntryKey(EntryKind::kTable, "hotel", "hotels");
  PutMeta(key, "\x02\x03garbage");
  LoadedCatalog loaded = Load();
  ASSERT_NE(loaded.catalog, nullptr);
  EXPECT_EQ(loaded.catalog->FindTable("hotel", "hotels"), nullptr);
  EXPECT_NE(loaded.catalog->FindTable("hotel", "available_rooms_by_hotel_date"), nullptr);
  EXPECT_NE(loaded.catalog->FindTableOrView("reservation", "by_hotel"), nullptr);
  ASSERT_EQ(loaded.catalog->quarantined().size(), 1u);
  const QuarantinedEntry& entry = loaded.catalog->quarantined()[0];
  EXPECT_EQ(entry.kind, EntryKind::kTable);
  EXPECT_EQ(entry.keyspace, "hotel");
  EXPECT_EQ(entry.name, "hotels");
  EXPECT_EQ(entry.id, id);
  EXPECT_NE(entry.reason.find("Corrupted schema catalogue: "), std::string::npos) << entry.reason;

  // CREATE of the same name is refused; other changes persist around the quarantined entry,
  // which stays untouched and listed.
  auto create = ApplyText(*loaded.catalog,
                          "CREATE TABLE IF NOT EXISTS hotel.hotels (k int "
                          "PRIMARY KEY)");
  ASSERT_FALSE(create.ok());
  EXPECT_EQ(create.status().code(), StatusCode::kInvalid);
  EXPECT_NE(create.status().message().find("Cannot create table hotel.hotels: a table of that "
                                           "name is quarantined"),
            std::string::npos)
      << create.status().message();
  EXPECT_NE(create.status().message().find("cqld --data DIR --check"), std::string::npos);
  std::shared_ptr<const Catalog> next = loaded.catalog;
  ASSERT_TRUE(ApplyScript(&next, "CREATE TABLE hotel.fresh (k int PRIMARY KEY)").ok());
  ASSERT_EQ(next->quarantined().size(), 1u);
  Persist(*loaded.catalog, *next);
  EXPECT_EQ(GetMeta(key), common::Bytes("\x02\x03garbage"));
  OpenStore();
  LoadedCatalog again = Load();
  EXPECT_NE(again.catalog->FindTable("hotel", "fresh"), nullptr);
  ASSERT_EQ(again.catalog->quarantined().size(), 1u);
  EXPECT_EQ(again.catalog->quarantined()[0].name, "hotels");
}

TEST_F(CatalogStoreTest, AnUnreadableKeyspaceQuarantinesWhatIsInIt) {
  Persist(*Catalog::Empty(), *catalog_);
  PutMeta(CatalogEntryKey(EntryKind::kKeyspace, "hotel", ""), "");
  LoadedCatalog loaded = Load();
  EXPECT_EQ(loaded.catalog->FindKeyspace("hotel"), nullptr);
  EXPECT_NE(loaded.catalog->FindKeyspace("reservation"), nullptr);
  EXPECT_NE(loaded.catalog->FindTable("reservation", "reservations_by_confirmation"), nullptr);
  const QuarantinedEntry* type =
      loaded.catalog->FindQuarantined(EntryKind::kType, "hotel", "address");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->reason, "its keyspace hotel is missing or quarantined");
  EXPECT_NE(loaded.catalog->FindQuarantined(EntryKind::kTable, "hotel", "hotels"), nullptr);
  EXPECT_NE(loaded.catalog->FindQuarantined(EntryKind::kKeyspace, "hotel", ""), nullptr);
  auto create = ApplyText(*loaded.catalog,
                          "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
                          "'replication_factor': 1}");
  EXPECT_EQ(create.status().code(), StatusCode::kInvalid);
}

TEST_F(CatalogStoreTest, AViewOfAQuarantinedTableIsQuarantined) {
  Persist(*Catalog::Empty(), *catalog_);
  storage::WriteBatch batch;
  batch.DeleteMeta(
      CatalogEntryKey(EntryKind::kTable, "reservation", "reservations_by_confirmation"));
  ASSERT_TRUE(store_->Write(batch).ok());
  LoadedCatalog loaded = Load();
  const QuarantinedEntry* base = loaded.catalog->FindQuarantined(EntryKind::kTable, "reservation",
                                                                 "reservations_by_confirmation");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->reason, "its entry is missing");
  const QuarantinedEntry* view =
      loaded.catalog->FindQuarantined(EntryKind::kView, "reservation", "by_hotel");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->reason,
            "its base table reservation.reservations_by_confirmation is missing or quarantined");
  EXPECT_NE(loaded.catalog->FindTable("reservation", "reservations_by_guest"), nullptr);
}

TEST_F(CatalogStoreTest, AnUnreadableManifestFailsTheLoad) {
  Persist(*Catalog::Empty(), *catalog_);
  PutMeta(kCatalogManifestKey, "\x07");
  auto loaded = LoadCatalog(*store_);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kCorruption);
}

// A format 1 catalogue, as earlier versions wrote it, holding a table nested 65 deep (what the
// finding's statement created): it loads with that table quarantined, and migrates.
TEST_F(CatalogStoreTest, AFormatOneCatalogueLoadsAndMigrates) {
  auto keyspace = std::make_shared<KeyspaceMetadata>(*catalog_->FindKeyspace("hotel"));
  auto deep = std::make_shared<TableMetadata>(*keyspace->tables.at("hotels"));
  deep->id = common::Uuid::Random();
  deep->name = "deep";
  deep->columns.push_back(ColumnMetadata{"v", Lists(65), ColumnKind::kRegular, 0, {}, 99});
  deep->next_column_id = 100;
  keyspace->tables.emplace("deep", deep);
  auto view = std::make_shared<TableMetadata>(*keyspace->tables.at("hotels"));
  view->id = common::Uuid::Random();
  view->name = "deep_view";
  view->view = ViewInfo{deep->id, "deep", true, "", {}};
  keyspace->views.emplace("deep_view", view);
  std::shared_ptr<const Catalog> old = catalog_->WithKeyspace(keyspace);
  const common::Bytes legacy = EncodeCatalog(*old);
  PutMeta(kLegacyCatalogKey, legacy);

  LoadedCatalog loaded = Load();
  EXPECT_EQ(loaded.source, LoadedCatalog::Source::kLegacy);
  EXPECT_EQ(loaded.catalog->FindTable("hotel", "deep"), nullptr);
  EXPECT_NE(loaded.catalog->FindTable("hotel", "hotels"), nullptr);
  const QuarantinedEntry* entry =
      loaded.catalog->FindQuarantined(EntryKind::kTable, "hotel", "deep");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->id, deep->id);
  EXPECT_NE(entry->reason.find("Column hotel.deep.v is nested too deeply: 65 levels"),
            std::string::npos)
      << entry->reason;

  ASSERT_TRUE(store_->Write(loaded.migration).ok());
  OpenStore();
  LoadedCatalog migrated = Load();
  EXPECT_EQ(migrated.source, LoadedCatalog::Source::kEntries);
  EXPECT_EQ(Snapshot(*migrated.catalog), Snapshot(*loaded.catalog));
  const QuarantinedEntry* still =
      migrated.catalog->FindQuarantined(EntryKind::kTable, "hotel", "deep");
  ASSERT_NE(still, nullptr);
  EXPECT_EQ(still->reason, entry->reason);
  // The view of the quarantined table is quarantined too, and migrated with its definition.
  const QuarantinedEntry* dependent =
      migrated.catalog->FindQuarantined(EntryKind::kView, "hotel", "deep_view");
  ASSERT_NE(dependent, nullptr);
  EXPECT_EQ(dependent->reason, "its base table hotel.deep is missing or quarantined");
  EXPECT_TRUE(GetMeta(CatalogEntryKey(EntryKind::kView, "hotel", "deep_view")));
  EXPECT_EQ(GetMeta(kLegacyCatalogKey), legacy);
}

TEST_F(CatalogStoreTest, AChangeThatCannotBeReadBackIsRefused) {
  // Built by hand, past the DDL: a column one level deeper than the limit.
  auto keyspace = std::make_shared<KeyspaceMetadata>(*catalog_->FindKeyspace("hotel"));
  auto table = std::make_shared<TableMetadata>(*keyspace->tables.at("hotels"));
  table->columns.push_back(
      ColumnMetadata{"v", Lists(cql::kMaxTypeDepth + 1), ColumnKind::kRegular, 0, {}, 99});
  table->next_column_id = 100;
  keyspace->tables.insert_or_assign("hotels", table);
  auto refused = PlanCatalogWrite(*catalog_, *catalog_->WithKeyspace(keyspace));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(refused.status().message(),
            "Schema change refused: the new definition of table hotel.hotels could not be read "
            "back (Corrupted schema catalogue: Column hotel.hotels.v is nested too deeply: "
            "33 levels of collections, tuples, vectors and user types, more than the limit of "
            "32); nothing was changed");

  // A user type the codec cannot represent (fewer field names than fields).
  keyspace = std::make_shared<KeyspaceMetadata>(*catalog_->FindKeyspace("hotel"));
  keyspace->types.insert_or_assign(
      "odd", CqlType::Udt("hotel", "odd", {"a"}, {CqlType::Int(), CqlType::Text()}));
  refused = PlanCatalogWrite(*catalog_, *catalog_->WithKeyspace(keyspace));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "Schema change refused: the new definition of type hotel.odd could not be read back "
            "(it decodes to a different definition); nothing was changed");
}

TEST_F(CatalogStoreTest, EntryDecodersRejectEveryTruncation) {
  const common::Bytes entry =
      EncodeTableEntry(*catalog_->FindTable("reservation", "reservations_by_confirmation"));
  ASSERT_TRUE(DecodeTableEntry(entry, EntryKind::kTable).ok());
  for (size_t size = 0; size < entry.size(); ++size) {
    auto decoded = DecodeTableEntry(std::string_view(entry).substr(0, size), EntryKind::kTable);
    ASSERT_FALSE(decoded.ok()) << size;
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
  }
  EXPECT_FALSE(DecodeTableEntry(entry, EntryKind::kView).ok());
}

}  // namespace
}  // namespace schema
