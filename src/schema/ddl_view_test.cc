// Tests of CREATE / ALTER / DROP MATERIALIZED VIEW (ddl_view.cc) and their interplay with
// DROP TABLE, ALTER TABLE and the catalogue codec.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "schema/catalog_codec.h"
#include "schema/ddl.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;

// The seeds' view (tests/data/seeds 003), verbatim.
constexpr std::string_view kSeedView =
    R"(CREATE MATERIALIZED VIEW reservation.reservations_by_confirmation AS
    SELECT * FROM reservation.reservations_by_hotel_date
    WHERE confirm_number IS NOT NULL and hotel_id IS NOT NULL and
        start_date IS NOT NULL and room_number IS NOT NULL
    PRIMARY KEY (confirm_number, hotel_id, start_date, room_number);)";

class DdlViewTest : public DdlFixture {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
    // In the seeds' view variant, reservations_by_confirmation is a view, not a table.
    Apply("DROP TABLE reservation.reservations_by_confirmation");
    Apply(
        "CREATE TABLE reservation.base (k int, c int, s int STATIC, v1 int, v2 text, v3 set<int>, "
        "PRIMARY KEY ((k), c))");
    Apply("CREATE TABLE reservation.counts (k int PRIMARY KEY, n counter)");
  }

  const TableMetadata* View(std::string_view name) {
    const KeyspaceMetadata* ks = catalog_->FindKeyspace("reservation");
    return ks == nullptr ? nullptr : ks->FindView(name);
  }
};

TEST_F(DdlViewTest, SeedView) {
  auto result = Apply(kSeedView);
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kCreated, ChangeTarget::kTable, "reservation",
                                         "reservations_by_confirmation"}));
  const TableMetadata* view = View("reservations_by_confirmation");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(catalog_->FindTable("reservation", "reservations_by_confirmation"), nullptr);
  EXPECT_EQ(catalog_->FindTableOrView("reservation", "reservations_by_confirmation"), view);
  const TableMetadata* base = catalog_->FindTable("reservation", "reservations_by_hotel_date");
  ASSERT_TRUE(view->view.has_value());
  EXPECT_EQ(view->view->base_table_id, base->id);
  EXPECT_EQ(view->view->base_table_name, "reservations_by_hotel_date");
  EXPECT_TRUE(view->view->include_all_columns);
  EXPECT_EQ(view->view->where_clause,
            "confirm_number IS NOT NULL AND hotel_id IS NOT NULL AND start_date IS NOT NULL AND "
            "room_number IS NOT NULL");
  EXPECT_EQ(view->view->where.size(), 4u);
  ASSERT_EQ(view->columns.size(), 6u);
  std::vector<std::string> names;
  for (const ColumnMetadata& column : view->columns) names.push_back(column.name);
  EXPECT_EQ(names, (std::vector<std::string>{"confirm_number", "hotel_id", "start_date",
                                             "room_number", "end_date", "guest_id"}));
  EXPECT_EQ(view->columns[0].kind, ColumnKind::kPartitionKey);
  EXPECT_EQ(view->columns[1].kind, ColumnKind::kClustering);
  EXPECT_EQ(view->columns[1].position, 0);
  EXPECT_EQ(view->columns[3].position, 2);
  EXPECT_EQ(view->columns[3].type, cql::CqlType::Smallint());
  EXPECT_EQ(view->columns[4].kind, ColumnKind::kRegular);
  EXPECT_EQ(view->next_column_id, 6u);
  EXPECT_EQ(catalog_->FindKeyspace("reservation")->ViewsOf(base->id).size(), 1u);

  // The view survives the catalogue codec, relations included.
  auto decoded = DecodeCatalog(EncodeCatalog(*catalog_));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const TableMetadata* decoded_view =
      decoded.value()->FindTableOrView("reservation", "reservations_by_confirmation");
  ASSERT_NE(decoded_view, nullptr);
  EXPECT_TRUE(*decoded_view == *view);

  ExpectNoOp(std::string(kSeedView).replace(0, 24, "CREATE MATERIALIZED VIEW IF NOT EXISTS"));
  ExpectError(kSeedView, StatusCode::kAlreadyExists,
              "Cannot add already existing table \"reservations_by_confirmation\" to keyspace "
              "\"reservation\"");
}

TEST_F(DdlViewTest, SelectedColumnsAndClusteringOrder) {
  Apply(
      "CREATE MATERIALIZED VIEW reservation.v AS SELECT k, c, v1, v2 FROM base WHERE v1 IS NOT "
      "NULL "
      "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v1, c, k) WITH CLUSTERING ORDER BY "
      "(c DESC, k ASC) AND comment = 'by v1'",
      "reservation");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.v2 AS SELECT k, c FROM base WHERE v1 IS NOT NULL "
      "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v1, c, k)",
      StatusCode::kInvalid,
      "Unknown column 'v1' referenced in PRIMARY KEY for materialized view 'v2'");
  const TableMetadata* view = View("v");
  ASSERT_NE(view, nullptr);
  EXPECT_FALSE(view->view->include_all_columns);
  ASSERT_EQ(view->columns.size(), 4u);
  EXPECT_EQ(view->columns[0].name, "v1");
  EXPECT_EQ(view->columns[1].name, "c");
  EXPECT_EQ(view->columns[1].order, ClusteringOrder::kDesc);
  EXPECT_EQ(view->columns[2].order, ClusteringOrder::kAsc);
  EXPECT_EQ(view->columns[3].name, "v2");
  EXPECT_EQ(view->options.comment, "by v1");
}

TEST_F(DdlViewTest, CreateErrors) {
  const std::string_view ok_where = "WHERE k IS NOT NULL AND c IS NOT NULL";
  auto view = [&](std::string_view select, std::string_view where, std::string_view key,
                  std::string_view rest = "") {
    return fmt::format(
        "CREATE MATERIALIZED VIEW reservation.v AS SELECT {} FROM reservation.base "
        "{} PRIMARY KEY {}{}",
        select, where, key, rest);
  };
  ExpectError(
      "CREATE MATERIALIZED VIEW nope.v AS SELECT * FROM t WHERE k IS NOT NULL "
      "PRIMARY KEY (k)",
      StatusCode::kInvalid, "Keyspace 'nope' doesn't exist");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.v AS SELECT * FROM other.t WHERE k IS NOT "
      "NULL PRIMARY KEY (k)",
      StatusCode::kInvalid, "Cannot create a materialized view on a table in a different keyspace");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.v AS SELECT * FROM nope WHERE k IS NOT NULL "
      "PRIMARY KEY (k)",
      StatusCode::kInvalid, "Base table 'nope' doesn't exist");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.guests AS SELECT * FROM base WHERE k IS NOT "
      "NULL PRIMARY KEY (k)",
      StatusCode::kInvalid,
      "Cannot create materialized view 'guests' - a table with the same name already "
      "exists");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.v AS SELECT * FROM counts WHERE k IS NOT "
      "NULL PRIMARY KEY (k)",
      StatusCode::kInvalid, "Materialized views are not supported on counter tables");
  ExpectError(view("*", ok_where, "(c, k)"), StatusCode::kInvalid,
              "Cannot include static column 's' in materialized view 'v'");
  ExpectError(view("k, c, v1 AS x", ok_where, "(c, k)"), StatusCode::kInvalid,
              "Cannot use aliases when defining a materialized view (got v1 AS x)");
  ExpectError(view("k, c, ttl(v1)", ok_where, "(c, k)"), StatusCode::kInvalid,
              "Can only select columns by name when defining a materialized view (got ttl(v1))");
  ExpectError(view("k, c, nope", ok_where, "(c, k)"), StatusCode::kInvalid,
              "Undefined column name nope in table reservation.base");
  ExpectError(view("k, c, v1", ok_where, "(c, k, c)"), StatusCode::kInvalid,
              "Duplicate column 'c' in PRIMARY KEY clause for materialized view 'v'");
  ExpectError(
      view("k, c, v3", "WHERE k IS NOT NULL AND c IS NOT NULL AND v3 IS NOT NULL", "(v3, c, k)"),
      StatusCode::kInvalid,
      "Invalid non-frozen collection type 'set<int>' for PRIMARY KEY column 'v3'");
  ExpectError(view("k, c, v1", "WHERE k IS NOT NULL", "(k)"), StatusCode::kInvalid,
              "Cannot create materialized view 'v' without primary key columns c from base table "
              "'base'");
  ExpectError(view("k, c, v1, v2",
                   "WHERE k IS NOT NULL AND c IS NOT NULL AND v1 IS NOT NULL AND v2 IS NOT NULL",
                   "((v1, v2), c, k)"),
              StatusCode::kInvalid,
              "Cannot include more than one non-primary key column in materialized view primary "
              "key (got v1, v2)");
  ExpectError(view("k, c, v1", "WHERE k IS NOT NULL", "(c, k)"), StatusCode::kInvalid,
              "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise");
  ExpectError(view("k, c, v1", "WHERE k IS NOT NULL AND c IS NOT NULL AND v1 = 1", "(c, k)"),
              StatusCode::kInvalid,
              "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v1 "
              "restricted illegally)");
  ExpectError(view("k, c, v1", "WHERE k IS NOT NULL AND c IS NOT NULL AND token(k) > 0", "(c, k)"),
              StatusCode::kInvalid, "Cannot use token relation when defining a materialized view");
  ExpectError(view("k, c, v1", "WHERE k IS NOT NULL AND c = ?", "(c, k)"), StatusCode::kInvalid,
              "Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
  ExpectError(view("k, c, v1", ok_where, "(c, k)", " WITH CLUSTERING ORDER BY (c DESC)"),
              StatusCode::kInvalid,
              "Clustering key columns must exactly match columns in CLUSTERING ORDER BY "
              "directive");
  ExpectError(view("k, c, v1", ok_where, "(c, k)", " WITH default_time_to_live = 5"),
              StatusCode::kInvalid,
              "Cannot set default_time_to_live for a materialized view. Data in a materialized "
              "view always expire at the same time than the corresponding data in the parent "
              "table.");
  ExpectError(view("k, c, v1", ok_where, "(c, k)", " WITH nope = 5"), StatusCode::kSyntaxError,
              "Unknown property 'nope'");
  // A restriction other than IS NOT NULL on a key column is accepted.
  Apply(view("k, c, v1", "WHERE k IS NOT NULL AND c = 3", "(c, k)"));
  EXPECT_EQ(View("v")->view->where_clause, "k IS NOT NULL AND c = 3");
}

TEST_F(DdlViewTest, InteractionsWithTables) {
  Apply(kSeedView);
  ExpectError("DROP TABLE reservation.reservations_by_hotel_date", StatusCode::kInvalid,
              "Cannot drop a table when materialized views still depend on it (reservation)");
  ExpectError("DROP TABLE reservation.reservations_by_confirmation", StatusCode::kInvalid,
              "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW "
              "instead.");
  ExpectError("ALTER TABLE reservation.reservations_by_confirmation WITH comment = 'x'",
              StatusCode::kInvalid,
              "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW "
              "instead");
  ExpectError("ALTER TABLE reservation.reservations_by_hotel_date DROP guest_id",
              StatusCode::kInvalid,
              "Cannot drop column guest_id on base table reservations_by_hotel_date with "
              "materialized views");
  ExpectError("CREATE INDEX ON reservation.reservations_by_confirmation (guest_id)",
              StatusCode::kInvalid, "Secondary indexes on materialized views aren't supported");
  ExpectError("CREATE TABLE reservation.reservations_by_confirmation (k int PRIMARY KEY)",
              StatusCode::kAlreadyExists,
              "Cannot add already existing table \"reservations_by_confirmation\" to keyspace "
              "\"reservation\"");
  // ADD on the base table extends the SELECT * view.
  Apply("ALTER TABLE reservation.reservations_by_hotel_date ADD notes text");
  const TableMetadata* view = View("reservations_by_confirmation");
  ASSERT_NE(view->FindColumn("notes"), nullptr);
  EXPECT_EQ(view->FindColumn("notes")->column_id, 6u);
  EXPECT_EQ(view->columns.back().name, "notes");

  // RENAME of a base key column renames it in the view and its WHERE clause.
  Apply("ALTER TABLE reservation.reservations_by_hotel_date RENAME room_number TO room");
  view = View("reservations_by_confirmation");
  EXPECT_EQ(view->FindColumn("room_number"), nullptr);
  ASSERT_NE(view->FindColumn("room"), nullptr);
  EXPECT_EQ(view->FindColumn("room")->kind, ColumnKind::kClustering);
  EXPECT_EQ(view->view->where_clause,
            "confirm_number IS NOT NULL AND hotel_id IS NOT NULL AND start_date IS NOT NULL AND "
            "room IS NOT NULL");
  EXPECT_EQ(view->view->where[3].columns, std::vector<std::string>{"room"});

  // ALTER MATERIALIZED VIEW.
  auto result =
      Apply("ALTER MATERIALIZED VIEW reservation.reservations_by_confirmation WITH comment = 'c'");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kUpdated, ChangeTarget::kTable, "reservation",
                                         "reservations_by_confirmation"}));
  EXPECT_EQ(View("reservations_by_confirmation")->options.comment, "c");
  ExpectError(
      "ALTER MATERIALIZED VIEW reservation.reservations_by_confirmation WITH gc_grace_seconds = 0",
      StatusCode::kInvalid,
      "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to "
      "TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates "
      "to expire before being replayed.");
  ExpectError(
      "ALTER MATERIALIZED VIEW reservation.reservations_by_confirmation WITH "
      "default_time_to_live = 1",
      StatusCode::kInvalid,
      "Forbidden default_time_to_live detected for a materialized view. Data in a materialized "
      "view always expire at the same time than the corresponding data in the parent table. "
      "default_time_to_live must be set to zero, see CASSANDRA-12868 for more information");
  ExpectError("ALTER MATERIALIZED VIEW reservation.nope WITH comment = 'c'", StatusCode::kInvalid,
              "Materialized view 'reservation.nope' doesn't exist");
  ExpectNoOp("ALTER MATERIALIZED VIEW IF EXISTS reservation.nope WITH comment = 'c'");

  // DROP MATERIALIZED VIEW, then the base table may go.
  result = Apply("DROP MATERIALIZED VIEW reservation.reservations_by_confirmation");
  EXPECT_EQ(result.change, (SchemaChange{ChangeType::kDropped, ChangeTarget::kTable, "reservation",
                                         "reservations_by_confirmation"}));
  ExpectError("DROP MATERIALIZED VIEW reservation.reservations_by_confirmation",
              StatusCode::kInvalid,
              "Materialized view 'reservation.reservations_by_confirmation' doesn't exist");
  ExpectNoOp("DROP MATERIALIZED VIEW IF EXISTS reservation.reservations_by_confirmation");
  Apply("DROP TABLE reservation.reservations_by_hotel_date");
}

TEST_F(DdlViewTest, GcGraceZeroBase) {
  Apply("CREATE TABLE reservation.z (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 0");
  ExpectError(
      "CREATE MATERIALIZED VIEW reservation.zv AS SELECT * FROM z WHERE k IS NOT NULL "
      "AND v IS NOT NULL PRIMARY KEY (v, k)",
      StatusCode::kInvalid,
      "Cannot create materialized view 'zv' for base table 'z' with gc_grace_seconds of "
      "0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds "
      "too low might cause undelivered updates to expire before being replayed.");
}

}  // namespace
}  // namespace schema
