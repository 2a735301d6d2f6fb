// Tests of ALTER KEYSPACE and ALTER TYPE (ddl_type.cc).

#include <gtest/gtest.h>

#include "schema/ddl.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;
using cql::CqlType;

class DdlTypeTest : public DdlFixture {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok());
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
  }
};

TEST_F(DdlTypeTest, AlterKeyspaceReplicationAndDurableWrites) {
  auto result = Apply(
      "ALTER KEYSPACE hotel WITH replication = {'class': 'NetworkTopologyStrategy', "
      "'datacenter1': 2} AND durable_writes = false");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kKeyspace, "hotel", ""}));
  const KeyspaceMetadata* ks = catalog_->FindKeyspace("hotel");
  EXPECT_EQ(ks->replication.at("class"), "org.apache.cassandra.locator.NetworkTopologyStrategy");
  EXPECT_EQ(ks->replication.at("datacenter1"), "2");
  EXPECT_FALSE(ks->durable_writes);
  // Tables are untouched.
  EXPECT_NE(catalog_->FindTable("hotel", "hotels"), nullptr);

  // durable_writes alone keeps the replication.
  Apply("ALTER KEYSPACE hotel WITH durable_writes = true");
  EXPECT_TRUE(catalog_->FindKeyspace("hotel")->durable_writes);
  EXPECT_EQ(catalog_->FindKeyspace("hotel")->replication.at("datacenter1"), "2");
  ExpectNoOp("ALTER KEYSPACE hotel WITH durable_writes = true");
}

TEST_F(DdlTypeTest, AlterKeyspaceErrors) {
  ExpectError("ALTER KEYSPACE nope WITH durable_writes = false", StatusCode::kInvalid,
              "Keyspace 'nope' doesn't exist");
  ExpectNoOp("ALTER KEYSPACE IF EXISTS nope WITH durable_writes = false");
  ExpectError("ALTER KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy'}",
              StatusCode::kConfigError,
              "SimpleStrategy requires a replication_factor strategy option.");
  ExpectError("ALTER KEYSPACE hotel WITH replication = {'class': 'Foo', 'replication_factor': 1}",
              StatusCode::kConfigError,
              "Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'");
  ExpectError("ALTER KEYSPACE hotel WITH foo = 1", StatusCode::kSyntaxError,
              "Unknown property 'foo'");
}

TEST_F(DdlTypeTest, AddFieldPropagatesToTablesAndTypes) {
  Apply("CREATE TYPE hotel.geo (label text, addr frozen<address>)");
  Apply(
      "CREATE TABLE hotel.places (id int PRIMARY KEY, g frozen<geo>, live address, "
      "m map<text, frozen<address>>)");
  auto result = Apply("ALTER TYPE hotel.address ADD unit int");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kType, "hotel", "address"}));
  const CqlType* address = catalog_->FindType("hotel", "address");
  ASSERT_NE(address, nullptr);
  ASSERT_EQ(address->field_names().size(), 6u);
  EXPECT_EQ(address->field_names().back(), "unit");
  EXPECT_EQ(address->params().back(), CqlType::Int());
  EXPECT_FALSE(address->frozen());

  // The table column of the seeds (frozen<address>) sees the new field, still frozen.
  const CqlType& hotels_address =
      catalog_->FindTable("hotel", "hotels")->FindColumn("address")->type;
  EXPECT_TRUE(hotels_address.frozen());
  EXPECT_EQ(hotels_address.field_names().size(), 6u);
  EXPECT_EQ(hotels_address, address->WithFrozen(true));
  // Inside another type, a map value and a non-frozen column.
  const CqlType* geo = catalog_->FindType("hotel", "geo");
  EXPECT_EQ(geo->params()[1].field_names().size(), 6u);
  const TableMetadata* places = catalog_->FindTable("hotel", "places");
  EXPECT_EQ(places->FindColumn("g")->type.params()[1].field_names().size(), 6u);
  EXPECT_EQ(places->FindColumn("live")->type, *address);
  EXPECT_EQ(places->FindColumn("m")->type.value().field_names().size(), 6u);
  // The other keyspace's address type is a different type.
  EXPECT_EQ(catalog_->FindType("reservation", "address")->field_names().size(), 5u);
  const CqlType& guests_addresses =
      catalog_->FindTable("reservation", "guests")->FindColumn("addresses")->type;
  EXPECT_EQ(guests_addresses.value().field_names().size(), 5u);

  ExpectNoOp("ALTER TYPE hotel.address ADD IF NOT EXISTS unit text");
}

TEST_F(DdlTypeTest, AddFieldErrors) {
  ExpectError("ALTER TYPE hotel.nope ADD x int", StatusCode::kInvalid,
              "Type hotel.nope doesn't exist");
  ExpectNoOp("ALTER TYPE IF EXISTS hotel.nope ADD x int");
  ExpectError("ALTER TYPE hotel.address ADD city int", StatusCode::kInvalid,
              "Cannot add field city to type hotel.address: a field with name city already "
              "exists");
  ExpectError("ALTER TYPE hotel.address ADD self frozen<address>", StatusCode::kInvalid,
              "Cannot add new field self of type frozen<address> to user type hotel.address as it "
              "would create a circular reference");
  ExpectError("ALTER TYPE hotel.address ADD n counter", StatusCode::kInvalid,
              "A user type cannot contain counters");
  Apply("CREATE TABLE hotel.by_addr (a frozen<address>, b int, PRIMARY KEY (a, b))");
  ExpectError("ALTER TYPE hotel.address ADD unit int", StatusCode::kInvalid,
              "Cannot add new field unit of type int to user type hotel.address as the type is "
              "being used in partition key by the following tables: hotel.by_addr");
}

TEST_F(DdlTypeTest, RenameFields) {
  auto result = Apply("ALTER TYPE hotel.address RENAME street TO street_line AND city TO town");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kType, "hotel", "address"}));
  const CqlType* address = catalog_->FindType("hotel", "address");
  EXPECT_EQ(address->field_names(),
            (std::vector<std::string>{"street_line", "town", "state_or_province", "postal_code",
                                      "country"}));
  EXPECT_EQ(
      catalog_->FindTable("hotel", "hotels_by_poi")->FindColumn("address")->type.field_names()[1],
      "town");
  ExpectError("ALTER TYPE hotel.address RENAME nope TO x", StatusCode::kInvalid,
              "Unkown field nope in user type hotel.address");
  ExpectNoOp("ALTER TYPE hotel.address RENAME IF EXISTS nope TO x");
  ExpectError("ALTER TYPE hotel.address RENAME town TO country", StatusCode::kInvalid,
              "Duplicate field name country in type hotel");
}

TEST_F(DdlTypeTest, AlterFieldTypeIsRefused) {
  ExpectError("ALTER TYPE hotel.address ALTER city TYPE blob", StatusCode::kInvalid,
              "Altering field types is no longer supported");
}

TEST_F(DdlTypeTest, DropTypeStillUsed) {
  ExpectError("DROP TYPE hotel.address", StatusCode::kInvalid,
              "Cannot drop user type 'hotel.address' as it is still used by tables "
              "hotels, hotels_by_poi");
}

}  // namespace
}  // namespace schema
