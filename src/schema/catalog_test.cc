#include "schema/catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "schema/ddl_testing.h"

namespace schema {
namespace {

using cql::CqlType;

TEST(CatalogTest, EmptyCatalogHasNoKeyspaces) {
  auto catalog = Catalog::Empty();
  EXPECT_TRUE(catalog->keyspaces().empty());
  EXPECT_EQ(catalog->FindKeyspace("hotel"), nullptr);
  EXPECT_EQ(catalog->FindTable("hotel", "hotels"), nullptr);
  EXPECT_EQ(catalog->FindType("hotel", "address"), nullptr);
  EXPECT_FALSE(catalog->schema_version().IsNil());
  EXPECT_EQ(catalog->schema_version().version(), 4);
}

TEST(CatalogTest, WithKeyspaceSharesOthersAndChangesVersion) {
  auto empty = Catalog::Empty();
  auto ks = std::make_shared<KeyspaceMetadata>();
  ks->name = "a";
  auto one = empty->WithKeyspace(ks);
  auto other = std::make_shared<KeyspaceMetadata>();
  other->name = "b";
  auto two = one->WithKeyspace(other);
  EXPECT_NE(one->schema_version(), empty->schema_version());
  EXPECT_NE(two->schema_version(), one->schema_version());
  EXPECT_EQ(two->FindKeyspace("a"), ks.get());  // shared, not copied
  EXPECT_EQ(two->FindKeyspace("b"), other.get());
  EXPECT_EQ(one->FindKeyspace("b"), nullptr);  // the old snapshot is unchanged
  auto dropped = two->WithoutKeyspace("a");
  EXPECT_EQ(dropped->FindKeyspace("a"), nullptr);
  EXPECT_NE(two->FindKeyspace("a"), nullptr);
  EXPECT_EQ(dropped->keyspaces().size(), 1u);
}

class SeedCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok());
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
  }
  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

TEST_F(SeedCatalogTest, KeyspacesAndReplication) {
  ASSERT_EQ(catalog_->keyspaces().size(), 2u);
  const KeyspaceMetadata* hotel = catalog_->FindKeyspace("hotel");
  ASSERT_NE(hotel, nullptr);
  EXPECT_EQ(hotel->replication, (std::map<std::string, std::string>{
                                    {"class", "org.apache.cassandra.locator.SimpleStrategy"},
                                    {"replication_factor", "3"}}));
  EXPECT_TRUE(hotel->durable_writes);
  EXPECT_EQ(hotel->tables.size(), 5u);
  EXPECT_EQ(catalog_->FindKeyspace("reservation")->tables.size(), 4u);
}

TEST_F(SeedCatalogTest, AddressTypeIsResolvedPerKeyspace) {
  const CqlType* address = catalog_->FindType("hotel", "address");
  ASSERT_NE(address, nullptr);
  EXPECT_EQ(
      *address,
      CqlType::Udt(
          "hotel", "address", {"street", "city", "state_or_province", "postal_code", "country"},
          {CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text()}));
  const CqlType* other = catalog_->FindType("reservation", "address");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->keyspace(), "reservation");
  EXPECT_NE(*address, *other);
}

TEST_F(SeedCatalogTest, HotelsByPoiColumns) {
  const TableMetadata* table = catalog_->FindTable("hotel", "hotels_by_poi");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->keyspace, "hotel");
  EXPECT_EQ(table->id.version(), 4);
  EXPECT_EQ(table->options.comment, "Q1. Find hotels near given poi");
  EXPECT_EQ(table->options.gc_grace_seconds, 864000);
  EXPECT_EQ(table->options.default_time_to_live, 0);
  EXPECT_FALSE(table->is_counter);
  std::vector<std::string> names;
  for (const ColumnMetadata& column : table->columns) names.push_back(column.name);
  EXPECT_EQ(names, (std::vector<std::string>{"poi_name", "hotel_id", "poi_description", "address",
                                             "name", "phone"}));
  const ColumnMetadata* poi = table->FindColumn("poi_name");
  ASSERT_NE(poi, nullptr);
  EXPECT_EQ(poi->kind, ColumnKind::kPartitionKey);
  EXPECT_EQ(poi->position, 0);
  const ColumnMetadata* hotel_id = table->FindColumn("hotel_id");
  EXPECT_EQ(hotel_id->kind, ColumnKind::kClustering);
  EXPECT_EQ(hotel_id->order, ClusteringOrder::kAsc);
  EXPECT_EQ(table->FindColumn("poi_description")->kind, ColumnKind::kStatic);
  EXPECT_EQ(table->FindColumn("phone")->kind, ColumnKind::kRegular);
  const ColumnMetadata* address = table->FindColumn("address");
  EXPECT_TRUE(address->type.frozen());
  EXPECT_TRUE(address->type.IsResolved());
  EXPECT_EQ(address->type.field_names().size(), 5u);
  EXPECT_EQ(address->type.ToCql(), "frozen<address>");
  EXPECT_EQ(table->FindColumn("nope"), nullptr);
  EXPECT_EQ(table->PartitionKeySize(), 1u);
  EXPECT_EQ(table->ClusteringSize(), 1u);
}

TEST_F(SeedCatalogTest, CompositeKeysAndCollections) {
  const TableMetadata* amenities = catalog_->FindTable("hotel", "amenities_by_room");
  ASSERT_NE(amenities, nullptr);
  auto pk = amenities->ColumnsOfKind(ColumnKind::kPartitionKey);
  ASSERT_EQ(pk.size(), 2u);
  EXPECT_EQ(pk[0]->name, "hotel_id");
  EXPECT_EQ(pk[1]->name, "room_number");
  EXPECT_EQ(pk[1]->position, 1);
  EXPECT_EQ(pk[1]->type, CqlType::Smallint());

  const TableMetadata* rooms = catalog_->FindTable("hotel", "available_rooms_by_hotel_date");
  auto ck = rooms->ColumnsOfKind(ColumnKind::kClustering);
  ASSERT_EQ(ck.size(), 2u);
  EXPECT_EQ(ck[0]->name, "date");
  EXPECT_EQ(ck[1]->name, "room_number");
  EXPECT_EQ(ck[1]->position, 1);

  const TableMetadata* guests = catalog_->FindTable("reservation", "guests");
  ASSERT_NE(guests, nullptr);
  const ColumnMetadata* addresses = guests->FindColumn("addresses");
  EXPECT_EQ(addresses->type.ToCql(), "map<text, frozen<address>>");
  EXPECT_TRUE(addresses->type.IsMultiCell());
  EXPECT_TRUE(addresses->type.value().IsResolved());
  EXPECT_EQ(addresses->type.value().keyspace(), "reservation");
  EXPECT_EQ(guests->FindColumn("emails")->type, CqlType::Set(CqlType::Text()));
  EXPECT_EQ(guests->FindColumn("phone_numbers")->type, CqlType::List(CqlType::Text()));
}

TEST_F(SeedCatalogTest, ColumnIdsAreDistinctAndDense) {
  for (const auto& [ks_name, ks] : catalog_->keyspaces()) {
    for (const auto& [name, table] : ks->tables) {
      std::set<uint32_t> ids;
      for (const ColumnMetadata& column : table->columns) ids.insert(column.column_id);
      EXPECT_EQ(ids.size(), table->columns.size()) << name;
      EXPECT_EQ(*ids.rbegin() + 1, table->columns.size()) << name;
      EXPECT_EQ(table->next_column_id, table->columns.size()) << name;
    }
  }
}

TEST_F(SeedCatalogTest, TableIdsAreDistinct) {
  std::set<common::Uuid> ids;
  size_t count = 0;
  for (const auto& [ks_name, ks] : catalog_->keyspaces()) {
    for (const auto& [name, table] : ks->tables) {
      ids.insert(table->id);
      ++count;
    }
  }
  EXPECT_EQ(ids.size(), count);
  EXPECT_EQ(count, 9u);
}

}  // namespace
}  // namespace schema
