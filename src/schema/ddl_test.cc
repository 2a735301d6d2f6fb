#include "schema/ddl.h"

#include <gtest/gtest.h>

#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;

class DdlTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok()); }

  // Applies `text`, expecting a change; returns the result and adopts its catalogue.
  DdlResult Apply(std::string_view text, std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    EXPECT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    if (!result.ok()) return DdlResult{};
    EXPECT_NE(result.value().catalog, nullptr) << text;
    if (result.value().catalog != nullptr) catalog_ = result.value().catalog;
    return result.value();
  }

  // Applies `text`, expecting it to change nothing without error.
  void ExpectNoOp(std::string_view text, std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    ASSERT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    EXPECT_EQ(result.value().catalog, nullptr) << text;
    EXPECT_FALSE(result.value().change.has_value()) << text;
  }

  // Applies `text`, expecting the error `code` with exactly `message`.
  void ExpectError(std::string_view text, StatusCode code, std::string_view message,
                   std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_EQ(result.status().code(), code) << text << ": " << result.status().message();
    EXPECT_EQ(result.status().message(), message) << text;
  }

  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

TEST_F(DdlTest, ChangeEvents) {
  auto result = Apply(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kCreated, ChangeTarget::kKeyspace, "ks", ""}));
  result = Apply("CREATE TYPE t (a int)", "ks");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kCreated, ChangeTarget::kType, "ks", "t"}));
  result = Apply("CREATE TABLE tab (k int PRIMARY KEY, v frozen<t>)", "ks");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kCreated, ChangeTarget::kTable, "ks", "tab"}));
  result = Apply("DROP TABLE ks.tab");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kDropped, ChangeTarget::kTable, "ks", "tab"}));
  result = Apply("DROP TYPE ks.t");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kDropped, ChangeTarget::kType, "ks", "t"}));
  result = Apply("DROP KEYSPACE ks");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kDropped, ChangeTarget::kKeyspace, "ks", ""}));
  EXPECT_EQ(ChangeTypeName(ChangeType::kCreated), "CREATED");
  EXPECT_EQ(ChangeTypeName(ChangeType::kUpdated), "UPDATED");
  EXPECT_EQ(ChangeTypeName(ChangeType::kDropped), "DROPPED");
  EXPECT_EQ(ChangeTargetName(ChangeTarget::kKeyspace), "KEYSPACE");
  EXPECT_EQ(ChangeTargetName(ChangeTarget::kTable), "TABLE");
  EXPECT_EQ(ChangeTargetName(ChangeTarget::kType), "TYPE");
}

TEST_F(DdlTest, VersionChangesOnEveryChangeAndNotOnNoOps) {
  common::Uuid before = catalog_->schema_version();
  Apply("CREATE TABLE hotel.t1 (k int PRIMARY KEY)");
  common::Uuid after = catalog_->schema_version();
  EXPECT_NE(before, after);
  ExpectNoOp("CREATE TABLE IF NOT EXISTS hotel.t1 (k int PRIMARY KEY)");
  ExpectNoOp(
      "CREATE KEYSPACE IF NOT EXISTS hotel WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  ExpectNoOp("CREATE TYPE IF NOT EXISTS hotel.address (x int)");
  ExpectNoOp("DROP TABLE IF EXISTS hotel.nope");
  ExpectNoOp("DROP TABLE IF EXISTS nope.nope");
  ExpectNoOp("DROP TYPE IF EXISTS hotel.nope");
  ExpectNoOp("DROP KEYSPACE IF EXISTS nope");
  EXPECT_EQ(catalog_->schema_version(), after);
  Apply("DROP TABLE hotel.t1");
  EXPECT_NE(catalog_->schema_version(), after);
}

TEST_F(DdlTest, IfNotExistsKeepsTheExistingDefinition) {
  ExpectNoOp("CREATE TABLE IF NOT EXISTS hotel.hotels (x int PRIMARY KEY)");
  EXPECT_NE(catalog_->FindTable("hotel", "hotels")->FindColumn("pois"), nullptr);
}

TEST_F(DdlTest, DropKeyspaceCascades) {
  Apply("DROP KEYSPACE hotel");
  EXPECT_EQ(catalog_->FindKeyspace("hotel"), nullptr);
  EXPECT_EQ(catalog_->FindTable("hotel", "hotels"), nullptr);
  EXPECT_EQ(catalog_->FindType("hotel", "address"), nullptr);
  // Recreating gives fresh, empty contents.
  Apply(
      "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  EXPECT_TRUE(catalog_->FindKeyspace("hotel")->tables.empty());
  EXPECT_TRUE(catalog_->FindKeyspace("hotel")->types.empty());
}

TEST_F(DdlTest, SnapshotsAreImmutable) {
  auto old_catalog = catalog_;
  Apply("DROP TABLE hotel.hotels");
  EXPECT_NE(old_catalog->FindTable("hotel", "hotels"), nullptr);
  EXPECT_EQ(catalog_->FindTable("hotel", "hotels"), nullptr);
  // Unchanged tables are shared between snapshots.
  EXPECT_EQ(old_catalog->FindTable("hotel", "pois_by_hotel"),
            catalog_->FindTable("hotel", "pois_by_hotel"));
}

TEST_F(DdlTest, DropTypeAfterItsTablesAreGone) {
  ExpectError("DROP TYPE hotel.address", StatusCode::kInvalid,
              "Cannot drop user type 'hotel.address' as it is still used by tables hotels, "
              "hotels_by_poi");
  Apply("DROP TABLE hotel.hotels");
  Apply("DROP TABLE hotel.hotels_by_poi");
  Apply("DROP TYPE hotel.address");
  EXPECT_EQ(catalog_->FindType("hotel", "address"), nullptr);
}

TEST_F(DdlTest, DropTypeUsedByAnotherType) {
  Apply("CREATE TYPE hotel.place (name text, addr frozen<address>)");
  Apply("CREATE TYPE hotel.places (items list<frozen<place>>)");
  ExpectError("DROP TYPE hotel.place", StatusCode::kInvalid,
              "Cannot drop user type 'hotel.place' as it is still used by user types places");
  const cql::CqlType* place = catalog_->FindType("hotel", "place");
  ASSERT_NE(place, nullptr);
  EXPECT_TRUE(place->params()[1].IsResolved());
}

TEST_F(DdlTest, SessionKeyspace) {
  Apply("CREATE TABLE t (k int PRIMARY KEY, a frozen<address>)", "hotel");
  EXPECT_NE(catalog_->FindTable("hotel", "t"), nullptr);
  ExpectError("CREATE TABLE t2 (k int PRIMARY KEY)", StatusCode::kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("DROP TABLE t", StatusCode::kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("CREATE TYPE t (a int)", StatusCode::kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
}

TEST_F(DdlTest, TableOptions) {
  Apply(
      "CREATE TABLE hotel.o (k int PRIMARY KEY) WITH default_time_to_live = 60 AND "
      "gc_grace_seconds = 10 AND compaction = {'class': 'LeveledCompactionStrategy'} AND "
      "caching = {'keys': 'ALL'} AND id = 5a1c395e-b41f-11e5-9f22-ba0be0483c18");
  const TableMetadata* table = catalog_->FindTable("hotel", "o");
  EXPECT_EQ(table->options.default_time_to_live, 60);
  EXPECT_EQ(table->options.gc_grace_seconds, 10);
  ASSERT_EQ(table->options.other.size(), 2u);
  EXPECT_EQ(table->options.other[0].name, "compaction");
  EXPECT_EQ(table->options.other[1].name, "caching");
  EXPECT_EQ(table->id.ToString(), "5a1c395e-b41f-11e5-9f22-ba0be0483c18");
}

TEST_F(DdlTest, ClusteringOrderDesc) {
  Apply(
      "CREATE TABLE hotel.c (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING "
      "ORDER BY (a DESC, b ASC)");
  const TableMetadata* table = catalog_->FindTable("hotel", "c");
  EXPECT_EQ(table->FindColumn("a")->order, ClusteringOrder::kDesc);
  EXPECT_EQ(table->FindColumn("b")->order, ClusteringOrder::kAsc);
  Apply(
      "CREATE TABLE hotel.c2 (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING "
      "ORDER BY (a DESC)");
  EXPECT_EQ(catalog_->FindTable("hotel", "c2")->FindColumn("b")->order, ClusteringOrder::kAsc);
}

TEST_F(DdlTest, CounterTable) {
  Apply("CREATE TABLE hotel.cnt (k int, c int, n counter, m counter, PRIMARY KEY (k, c))");
  EXPECT_TRUE(catalog_->FindTable("hotel", "cnt")->is_counter);
}

TEST_F(DdlTest, FrozenCollectionsMayNest) {
  Apply(
      "CREATE TABLE hotel.n (k frozen<list<list<int>>> PRIMARY KEY, "
      "v map<text, frozen<set<int>>>, u list<frozen<address>>, t tuple<int, list<int>>)");
  const TableMetadata* table = catalog_->FindTable("hotel", "n");
  EXPECT_TRUE(table->FindColumn("k")->type.element().frozen());
  EXPECT_TRUE(table->FindColumn("t")->type.params()[1].frozen());
}

TEST_F(DdlTest, NetworkTopologyStrategy) {
  Apply(
      "CREATE KEYSPACE n WITH replication = {'class': 'NetworkTopologyStrategy', "
      "'datacenter1': 1} AND durable_writes = false");
  const KeyspaceMetadata* ks = catalog_->FindKeyspace("n");
  EXPECT_EQ(ks->replication.at("class"), "org.apache.cassandra.locator.NetworkTopologyStrategy");
  EXPECT_EQ(ks->replication.at("datacenter1"), "1");
  EXPECT_FALSE(ks->durable_writes);
}

struct ErrorCase {
  const char* statement;
  StatusCode code;
  const char* message;
};

class DdlErrorTest : public DdlTest, public ::testing::WithParamInterface<ErrorCase> {};

TEST_P(DdlErrorTest, ExactCassandraError) {
  Apply("CREATE TYPE hotel.with_list (l list<int>)");
  ExpectError(GetParam().statement, GetParam().code, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cassandra41, DdlErrorTest,
    ::testing::Values(
        ErrorCase{"CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': 1}",
                  StatusCode::kAlreadyExists, "Cannot add existing keyspace \"hotel\""},
        ErrorCase{"CREATE TABLE hotel.hotels (k int PRIMARY KEY)", StatusCode::kAlreadyExists,
                  "Cannot add already existing table \"hotels\" to keyspace \"hotel\""},
        ErrorCase{"CREATE TYPE hotel.address (a int)", StatusCode::kInvalid,
                  "A user type with name 'address' already exists"},
        ErrorCase{"DROP KEYSPACE nope", StatusCode::kInvalid, "Keyspace 'nope' doesn't exist"},
        ErrorCase{"CREATE TABLE nope.t (k int PRIMARY KEY)", StatusCode::kInvalid,
                  "Keyspace 'nope' doesn't exist"},
        ErrorCase{"CREATE TYPE nope.t (k int)", StatusCode::kInvalid,
                  "Keyspace 'nope' doesn't exist"},
        ErrorCase{"DROP TABLE hotel.nope", StatusCode::kInvalid,
                  "Table 'hotel.nope' doesn't exist"},
        ErrorCase{"DROP TYPE hotel.nope", StatusCode::kInvalid, "Type 'hotel.nope' doesn't exist"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v frozen<nope>)", StatusCode::kInvalid,
                  "Unknown type hotel.nope"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v frozen<other.address>)",
                  StatusCode::kInvalid,
                  "Statement on keyspace hotel cannot refer to a user type in keyspace other; "
                  "user types can only be used in the keyspace they are defined in"},
        ErrorCase{"CREATE TYPE hotel.t (a frozen<nope>)", StatusCode::kInvalid,
                  "Unknown type hotel.nope"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'}",
                  StatusCode::kConfigError,
                  "SimpleStrategy requires a replication_factor strategy option."},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'Foo', 'x': 1}",
                  StatusCode::kConfigError,
                  "Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'replication_factor': 1}",
                  StatusCode::kConfigError, "Missing replication strategy class"},
        ErrorCase{"CREATE KEYSPACE k WITH durable_writes = true", StatusCode::kInvalid,
                  "Missing mandatory option 'replication'"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': 1, 'dc1': 2}",
                  StatusCode::kConfigError,
                  "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace k"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': 1} AND foo = 1",
                  StatusCode::kSyntaxError, "Unknown property 'foo'"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY) WITH foo = 1", StatusCode::kSyntaxError,
                  "Unknown property 'foo'"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY) WITH default_time_to_live = -1",
                  StatusCode::kConfigError,
                  "default_time_to_live must be greater than or equal to 0 (got -1)"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY) WITH gc_grace_seconds = 'x'",
                  StatusCode::kSyntaxError, "Invalid integer value x for 'gc_grace_seconds'"},
        ErrorCase{"CREATE TABLE hotel.t (k int, v int, PRIMARY KEY (k, x))", StatusCode::kInvalid,
                  "Unknown column 'x' referenced in PRIMARY KEY for table 't'"},
        ErrorCase{"CREATE TABLE hotel.t (k int, v int, PRIMARY KEY (k, k))", StatusCode::kInvalid,
                  "Duplicate column 'k' in PRIMARY KEY clause for table 't'"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, k text)", StatusCode::kInvalid,
                  "Duplicate column 'k' declaration for table 'hotel.t'"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, s int STATIC)", StatusCode::kInvalid,
                  "Static columns are only useful (and thus allowed) if the table has at least "
                  "one clustering column"},
        ErrorCase{"CREATE TABLE hotel.t (k int, c int STATIC, PRIMARY KEY (k, c))",
                  StatusCode::kInvalid, "Static column 'c' cannot be part of the PRIMARY KEY"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v list<list<int>>)",
                  StatusCode::kInvalid,
                  "Non-frozen collections are not allowed inside collections: list<list<int>>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v map<text, set<int>>)",
                  StatusCode::kInvalid,
                  "Non-frozen collections are not allowed inside collections: "
                  "map<text, set<int>>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v list<address>)", StatusCode::kInvalid,
                  "Non-frozen UDTs are not allowed inside collections: list<hotel.address>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v set<counter>)", StatusCode::kInvalid,
                  "Counters are not allowed inside collections: set<counter>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v with_list)", StatusCode::kInvalid,
                  "Non-frozen UDTs with nested non-frozen collections are not supported"},
        ErrorCase{"CREATE TABLE hotel.t (k int, c int, n counter, v int, PRIMARY KEY (k, c))",
                  StatusCode::kInvalid,
                  "Cannot mix counter and non counter columns in the same table"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, n counter) WITH "
                  "default_time_to_live = 5",
                  StatusCode::kInvalid, "Cannot set default_time_to_live on a table with counters"},
        ErrorCase{"CREATE TABLE hotel.t (k counter PRIMARY KEY, n counter)", StatusCode::kInvalid,
                  "counter type is not supported for PRIMARY KEY column 'k'"},
        ErrorCase{"CREATE TABLE hotel.t (k duration PRIMARY KEY)", StatusCode::kInvalid,
                  "duration type is not supported for PRIMARY KEY column 'k'"},
        ErrorCase{"CREATE TABLE hotel.t (k list<int> PRIMARY KEY)", StatusCode::kInvalid,
                  "Invalid non-frozen collection type list<int> for PRIMARY KEY column 'k'"},
        ErrorCase{"CREATE TABLE hotel.t (k int, c set<int>, PRIMARY KEY (k, c))",
                  StatusCode::kInvalid,
                  "Invalid non-frozen collection type set<int> for PRIMARY KEY column 'c'"},
        ErrorCase{"CREATE TABLE hotel.t (k address PRIMARY KEY)", StatusCode::kInvalid,
                  "Invalid non-frozen user-defined type address for PRIMARY KEY column 'k'"},
        ErrorCase{"CREATE TABLE hotel.t (k int, c int, v int, PRIMARY KEY (k, c)) WITH "
                  "CLUSTERING ORDER BY (c ASC, v DESC)",
                  StatusCode::kInvalid,
                  "Only clustering columns can be defined in CLUSTERING ORDER directive"},
        ErrorCase{"CREATE TABLE hotel.t (k int, c int, v int, PRIMARY KEY (k, c)) WITH "
                  "CLUSTERING ORDER BY (v DESC)",
                  StatusCode::kInvalid, "Missing CLUSTERING ORDER for column c"},
        ErrorCase{"CREATE TABLE hotel.t (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH "
                  "CLUSTERING ORDER BY (b DESC, a ASC)",
                  StatusCode::kInvalid,
                  "The order of columns in the CLUSTERING ORDER directive must match that of "
                  "the clustering columns (a must appear before b)"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v set<duration>)", StatusCode::kInvalid,
                  "Durations are not allowed inside sets: set<duration>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v frozen<set<duration>>)",
                  StatusCode::kInvalid,
                  "Durations are not allowed inside sets: frozen<set<duration>>"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY, v map<duration, int>)",
                  StatusCode::kInvalid,
                  "Durations are not allowed as map keys: map<duration, int>"},
        ErrorCase{"CREATE TABLE hotel.\"bad-name\" (k int PRIMARY KEY)", StatusCode::kConfigError,
                  "hotel.bad-name: Table name must not be empty, more than 48 characters long, or "
                  "contain non-alphanumeric-underscore characters (got \"bad-name\")"},
        ErrorCase{"CREATE TABLE hotel.t (k int PRIMARY KEY) WITH id = 'nope'",
                  StatusCode::kConfigError, "Invalid table id"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': -1}",
                  StatusCode::kConfigError, "Replication factor must be non-negative, found -1"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': 'x'}",
                  StatusCode::kConfigError, "For input string: \"x\""},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': '3/1'}",
                  StatusCode::kConfigError, "Transient replication is not enabled on this node"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': '3/'}",
                  StatusCode::kConfigError,
                  "Replication factor format is <replicas> or <replicas>/<transient>"},
        ErrorCase{"CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', "
                  "'datacenter1': '-2'}",
                  StatusCode::kConfigError, "Replication factor must be non-negative, found -2"},
        ErrorCase{"CREATE TYPE hotel.t (a int, a text)", StatusCode::kInvalid,
                  "Duplicate field name 'a' in type 't'"},
        ErrorCase{"CREATE TYPE hotel.t (a counter)", StatusCode::kInvalid,
                  "A user type cannot contain counters"},
        ErrorCase{"CREATE TYPE hotel.t (a address)", StatusCode::kInvalid,
                  "A user type cannot contain non-frozen UDTs"},
        ErrorCase{"DROP TRIGGER trig ON hotel.hotels", StatusCode::kInvalid,
                  "Statement is not supported by the schema layer: DROP TRIGGER trig ON "
                  "hotel.hotels"}));

}  // namespace
}  // namespace schema
