#include "model/derive.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/lint.h"

namespace model {
namespace {

// A small conceptual model: shops sell products, customers place orders; each test appends its
// queries.
constexpr const char* kModel = R"(
keyspaces:
  shop: {replication_factor: 1}
types:
  place: {city: text, country: text}
entities:
  Shop:
    short: shop
    plural: shops
    key: [shop_id]
    attributes:
      shop_id: text
      shop_name: text
      location: place
      tags: {type: text, collection: set}
      opening_hours: {type: text, collection: list}
      branches: {type: place, collection: map, key_type: text}
  Product:
    short: product
    plural: products
    key: [product_id]
    unique: [[shop_id, sku]]
    attributes:
      product_id: uuid
      sku: text
      price: decimal
      added: timestamp
  Customer:
    short: customer
    plural: customers
    key: [customer_id]
    attributes:
      customer_id: uuid
      customer_name: text
  Supplier:
    short: supplier
    plural: suppliers
    key: [supplier_id]
    attributes:
      supplier_id: uuid
      supplier_name: text
relationships:
  - {name: sells, from: Shop, to: Product, cardinality: "1:n"}
  - {name: buys, from: Customer, to: Shop, cardinality: "n:m"}
queries:
)";

// The first table derived from kModel plus `queries` (YAML under `queries:`); the test fails
// when it does not derive.
LogicalTable Derived(const std::string& queries) {
  auto workflow = LoadWorkflow(std::string(kModel) + queries);
  EXPECT_TRUE(workflow.ok()) << workflow.status().message();
  if (!workflow.ok()) return {};
  auto table = DeriveTable(*workflow, workflow->queries.at(0));
  EXPECT_TRUE(table.ok()) << table.status().message();
  return table.ok() ? *table : LogicalTable{};
}

// The derivation's error for kModel plus `queries`, "" when it succeeds.
std::string DeriveError(const std::string& queries) {
  auto workflow = LoadWorkflow(std::string(kModel) + queries);
  if (!workflow.ok()) return workflow.status().message();
  auto model = Derive(*workflow);
  return model.ok() ? "" : model.status().message();
}

// "name:type" of the columns of `kind`, in order; clustering columns with :asc / :desc.
std::vector<std::string> Columns(const LogicalTable& table, ColumnKind kind) {
  std::vector<std::string> out;
  for (const LogicalColumn* column : table.ColumnsOf(kind)) {
    std::string text = column->name + ":" + column->type;
    if (kind == ColumnKind::kClustering) text += column->descending ? ":desc" : ":asc";
    out.push_back(text);
  }
  return out;
}

using Names = std::vector<std::string>;

// Rule 1: naming.
TEST(DeriveTest, NamesByTheEntityWhoseKeyTheQueryGives) {
  EXPECT_EQ(Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id]}").name,
            "products_by_shop");
  // Its own key: just the plural.
  EXPECT_EQ(Derived("  Q1: {keyspace: shop, entity: Product, equality: [product_id]}").name,
            "products");
  // A candidate key is a key too.
  EXPECT_EQ(Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id, sku]}").name,
            "products");
}

TEST(DeriveTest, NamesByTheEntitysOwnAttributeAndAnOtherEntitysAttribute) {
  // `price` is the product's own attribute: it names itself.
  EXPECT_EQ(
      Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id], range: [price]}").name,
      "products_by_shop_price");
  // A shop's non-key attribute names the shop.
  EXPECT_EQ(Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_name]}").name,
            "products_by_shop");
}

TEST(DeriveTest, AChosenNameReplacesTheRule) {
  EXPECT_EQ(Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id], table: x}").name,
            "x");
}

// Rule 2: equality → partition key.
TEST(DeriveTest, EqualityAttributesAreThePartitionKeyInOrder) {
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Product, equality: [sku, shop_id], range: [added]}");
  EXPECT_EQ(Columns(table, ColumnKind::kPartitionKey), (Names{"sku:text", "shop_id:text"}));
  // Negative: a range attribute is not in the partition key.
  for (const LogicalColumn* column : table.ColumnsOf(ColumnKind::kPartitionKey)) {
    EXPECT_NE(column->name, "added");
  }
}

TEST(DeriveTest, AQueryWithoutEqualityIsRejected) {
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Product, range: [added]}")
                .find("Q1 has no equality attribute"),
            std::string::npos);
}

// Rule 3: range and order → clustering, with direction.
TEST(DeriveTest, RangeThenOrderAreClusteringColumnsWithDirection) {
  LogicalTable table = Derived(
      "  Q1: {keyspace: shop, entity: Product, equality: [shop_id], range: [added],\n"
      "       order: [added desc, price asc]}");
  EXPECT_EQ(Columns(table, ColumnKind::kClustering),
            (Names{"added:timestamp:desc", "price:decimal:asc", "product_id:uuid:asc"}));
}

TEST(DeriveTest, OrderingByAnEqualityAttributeAddsNoClusteringColumn) {
  LogicalTable table = Derived(
      "  Q1: {keyspace: shop, entity: Product, equality: [shop_id], order: [shop_id desc]}");
  EXPECT_EQ(Columns(table, ColumnKind::kPartitionKey), (Names{"shop_id:text"}));
  EXPECT_EQ(Columns(table, ColumnKind::kClustering), (Names{"product_id:uuid:asc"}));
}

TEST(DeriveTest, AnOrderThatIsNotAttributeAndDirectionIsRejected) {
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Product, equality: [shop_id], "
                        "order: [added sideways]}")
                .find("is not `attribute [asc|desc]`"),
            std::string::npos);
}

// Rule 4: uniqueness.
TEST(DeriveTest, TheEntitysKeyCompletesThePrimaryKey) {
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id], range: [price]}");
  EXPECT_EQ(Columns(table, ColumnKind::kClustering),
            (Names{"price:decimal:asc", "product_id:uuid:asc"}));
}

TEST(DeriveTest, TheCandidateKeyMissingFewestColumnsIsChosen) {
  // (shop_id, sku) lacks only sku once shop_id is the partition key; product_id would also be
  // one column, and the key wins ties...
  LogicalTable tie = Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id]}");
  EXPECT_EQ(Columns(tie, ColumnKind::kClustering), (Names{"product_id:uuid:asc"}));
  // ...but ordering by sku completes the candidate key, so nothing is added.
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Product, equality: [shop_id], order: [sku asc]}");
  EXPECT_EQ(Columns(table, ColumnKind::kClustering), (Names{"sku:text:asc"}));
}

TEST(DeriveTest, AKeyAlreadyInThePrimaryKeyAddsNothing) {
  LogicalTable table = Derived("  Q1: {keyspace: shop, entity: Shop, equality: [shop_id]}");
  EXPECT_TRUE(table.ColumnsOf(ColumnKind::kClustering).empty());
}

// Rule 5: static columns.
TEST(DeriveTest, AnAttributeOfTheEntityKeyedByThePartitionKeyIsStatic) {
  LogicalTable table = Derived(
      "  Q1: {keyspace: shop, entity: Product, equality: [shop_id], columns: [shop_name, price]}");
  EXPECT_EQ(Columns(table, ColumnKind::kStatic), (Names{"shop_name:text"}));
  // Negative: the product's own attribute varies by row.
  EXPECT_EQ(Columns(table, ColumnKind::kRegular), (Names{"price:decimal"}));
}

TEST(DeriveTest, NothingIsStaticWithoutClusteringColumns) {
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Shop, equality: [shop_id], columns: [shop_name]}");
  EXPECT_TRUE(table.ColumnsOf(ColumnKind::kStatic).empty());
  EXPECT_EQ(Columns(table, ColumnKind::kRegular), (Names{"shop_name:text"}));
}

TEST(DeriveTest, AnAttributeNotDeterminedByThePartitionKeyIsNotStatic) {
  // Products by price: the shop's name depends on the row's product, not on the partition.
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Product, equality: [price], columns: [shop_name]}");
  EXPECT_TRUE(table.ColumnsOf(ColumnKind::kStatic).empty());
  EXPECT_TRUE(table.notes.empty());  // a product has one shop (sells, 1:n)
}

TEST(DeriveTest, AToManyAttributeGetsANote) {
  LogicalTable table =
      Derived("  Q1: {keyspace: shop, entity: Shop, equality: [shop_id], columns: [price]}");
  ASSERT_EQ(table.notes.size(), 1u);
  EXPECT_NE(table.notes[0].find("a Shop has many Product (sells 1:n)"), std::string::npos);
}

// Rule 6: collections and user types.
TEST(DeriveTest, MultiValuedAttributesAreCollectionsAndUserTypesFrozen) {
  LogicalTable table = Derived(
      "  Q1: {keyspace: shop, entity: Shop, equality: [shop_id],\n"
      "       columns: [location, tags, opening_hours, branches, shop_name]}");
  EXPECT_EQ(Columns(table, ColumnKind::kRegular),
            (Names{"location:frozen<place>", "tags:set<text>", "opening_hours:list<text>",
                   "branches:map<text, frozen<place>>", "shop_name:text"}));
}

TEST(DeriveTest, AnUnknownCollectionOrAMapWithoutKeyTypeIsRejected) {
  std::string model = kModel;
  std::string bag = model;
  bag.replace(bag.find("collection: set"), 15, "collection: bag");
  EXPECT_FALSE(LoadWorkflow(bag).ok());
  std::string map = model;
  map.replace(map.find(", key_type: text"), 16, "");
  auto loaded = LoadWorkflow(map);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("key_type goes with collection: map"),
            std::string::npos);
}

// Attributes must come from the entity or a related one.
TEST(DeriveTest, AnAttributeOfAnUnrelatedEntityIsRejected) {
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Product, equality: [supplier_id]}")
                .find("'supplier_id' is not an attribute of Product or of an entity related to it"),
            std::string::npos);
  EXPECT_EQ(DeriveError("  Q1: {keyspace: shop, entity: Shop, equality: [customer_id]}"), "");
}

TEST(DeriveTest, RenamedColumnsAndCommentsFollowTheQuery) {
  LogicalTable table = Derived(
      "  Q1: {keyspace: shop, entity: Shop, equality: [shop_id], rename: {shop_id: id},\n"
      "       description: It's a shop}");
  EXPECT_EQ(Columns(table, ColumnKind::kPartitionKey), (Names{"id:text"}));
  EXPECT_EQ(table.comment, "Q1. It's a shop");
  EXPECT_EQ(table.columns[0].attribute, "shop_id");
}

TEST(DeriveTest, LoaderReportsUnknownNames) {
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Basket, equality: [x]}")
                .find("unknown entity 'Basket'"),
            std::string::npos);
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Shop, equality: [shop_id], after: [Q0]}")
                .find("follows unknown query 'Q0'"),
            std::string::npos);
  EXPECT_NE(DeriveError("  Q1: {keyspace: mall, entity: Shop, equality: [shop_id]}")
                .find("unknown keyspace 'mall'"),
            std::string::npos);
  std::string model = kModel;
  model.replace(model.find("\"n:m\""), 5, "\"m:m\"");
  EXPECT_FALSE(LoadWorkflow(model).ok());
  EXPECT_FALSE(LoadWorkflow("keyspaces: [").ok());
}

TEST(DeriveTest, TwoQueriesDerivingOneTableAreRejected) {
  EXPECT_NE(DeriveError("  Q1: {keyspace: shop, entity: Shop, equality: [shop_id]}\n"
                        "  Q2: {keyspace: shop, entity: Shop, equality: [shop_id]}")
                .find("queries Q1 and Q2 both derive table shop.shops"),
            std::string::npos);
}

TEST(DeriveTest, WorkflowEdgesAndArrows) {
  auto workflow = LoadWorkflow(std::string(kModel) +
                               "  Q1: {keyspace: shop, entity: Shop, equality: [shop_id]}\n"
                               "  Q2: {keyspace: shop, entity: Product, equality: [shop_id], "
                               "after: [Q1]}\n"
                               "  Q3: {keyspace: shop, entity: Customer, "
                               "equality: [customer_id], after: [Q2], table: elsewhere}\n");
  ASSERT_TRUE(workflow.ok()) << workflow.status().message();
  auto derived = Derive(*workflow);
  ASSERT_TRUE(derived.ok()) << derived.status().message();
  ASSERT_EQ(derived->edges.size(), 3u);
  EXPECT_EQ(derived->edges[0].from, "");
  EXPECT_EQ(derived->edges[1].from, "Q1");
  auto schema = LoadSchema(DerivedCql(*derived));
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  DiagramLayout layout = LayOut(*schema, "", DiagramForm::kPhysical, kArrowGap);
  // Drop `elsewhere` from the diagram: its arrow is skipped, the others stay.
  layout.boxes.erase(layout.boxes.begin() + FindBox(layout, "shop", "elsewhere"));
  std::vector<DiagramArrow> arrows = WorkflowArrows(*workflow, layout);
  ASSERT_EQ(arrows.size(), 2u);
  EXPECT_EQ(arrows[0].from, -1);
  EXPECT_EQ(arrows[0].to, FindBox(layout, "shop", "shops"));
  EXPECT_EQ(arrows[1].from, FindBox(layout, "shop", "shops"));
  EXPECT_EQ(arrows[1].to, FindBox(layout, "shop", "products_by_shop"));
  EXPECT_EQ(arrows[1].label, "Q2");
  layout.arrows = arrows;
  std::string svg = RenderSvg(layout);
  EXPECT_NE(svg.find("marker-end=\"url(#arrow)\""), std::string::npos);
  EXPECT_NE(RenderDot(layout).find("\"shop.shops\" -> \"shop.products_by_shop\" [label=\"Q2\"]"),
            std::string::npos);
}

// Another schema's tables serve the workflow's queries when their comments name them.
TEST(DeriveTest, WorkflowArrowsFindTablesByTheirComment) {
  auto workflow = LoadWorkflow(std::string(kModel) +
                               "  Q1: {keyspace: shop, entity: Shop, equality: [shop_id]}\n"
                               "  Q2: {keyspace: shop, entity: Product, equality: [shop_id], "
                               "after: [Q1]}\n");
  ASSERT_TRUE(workflow.ok()) << workflow.status().message();
  auto schema = LoadSchema(
      "CREATE TABLE shop.s (a int PRIMARY KEY) WITH comment = 'Q1. shops';\n"
      "CREATE TABLE shop.p (a int PRIMARY KEY) WITH comment = 'Q2: products';\n"
      "CREATE TABLE shop.p2 (a int PRIMARY KEY) WITH comment = 'Q2 products, bucketed';\n"
      "CREATE TABLE shop.q (a int PRIMARY KEY) WITH comment = 'Q10. not Q1';\n"
      "CREATE TABLE other.s (a int PRIMARY KEY) WITH comment = 'Q1. elsewhere';\n");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  DiagramLayout layout = LayOut(*schema, "", DiagramForm::kPhysical, kArrowGap);
  std::vector<DiagramArrow> arrows = WorkflowArrows(*workflow, layout);
  int s = FindBox(layout, "shop", "s");
  ASSERT_EQ(arrows.size(), 3u);
  EXPECT_EQ(arrows[0].from, -1);
  EXPECT_EQ(arrows[0].to, s);
  EXPECT_EQ(arrows[1].from, s);
  EXPECT_EQ(arrows[1].to, FindBox(layout, "shop", "p"));
  EXPECT_EQ(arrows[2].from, s);
  EXPECT_EQ(arrows[2].to, FindBox(layout, "shop", "p2"));

  // The table of the query's own name and the ones whose comment names it.
  auto both = LoadSchema(
      "CREATE TABLE shop.shops (a int PRIMARY KEY);\n"
      "CREATE TABLE shop.s (a int PRIMARY KEY) WITH comment = 'Q1. shops';\n");
  ASSERT_TRUE(both.ok());
  DiagramLayout two = LayOut(*both, "", DiagramForm::kPhysical, kArrowGap);
  std::vector<DiagramArrow> entries = WorkflowArrows(*workflow, two);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].to, FindBox(two, "shop", "shops"));
  EXPECT_EQ(entries[1].to, FindBox(two, "shop", "s"));
}

// --- The seeds' example -----------------------------------------------------------------------

std::string RepositoryFile(const std::string& relative) {
  std::ifstream in(std::string(CQLD_TEST_DATA_DIR) + "/../../" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

DerivedModel HotelModel(const std::string& yaml) {
  auto workflow = LoadWorkflow(yaml);
  EXPECT_TRUE(workflow.ok()) << workflow.status().message();
  auto derived = Derive(*workflow);
  EXPECT_TRUE(derived.ok()) << derived.status().message();
  return derived.ok() ? *derived : DerivedModel{};
}

// A table's structure: partition key, clustering with order, static, regular (names only).
struct Structure {
  Names partition, clustering, statics, regular;
  bool operator==(const Structure&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Structure& s) {
  auto list = [&](const Names& names) {
    for (const std::string& name : names) out << name << " ";
    out << "| ";
  };
  list(s.partition);
  list(s.clustering);
  list(s.statics);
  list(s.regular);
  return out;
}

// The structure of a schema model's Table or a derived LogicalTable (both have `columns` with a
// name, a kind and a direction).
template <typename AnyTable>
Structure Of(const AnyTable& table) {
  Structure s;
  for (const auto& column : table.columns) {
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        s.partition.push_back(column.name);
        break;
      case ColumnKind::kClustering:
        s.clustering.push_back(column.name + (column.descending ? " desc" : " asc"));
        break;
      case ColumnKind::kStatic:
        s.statics.push_back(column.name);
        break;
      case ColumnKind::kRegular:
        s.regular.push_back(column.name);
        break;
    }
  }
  return s;
}

// Golden structure: examples/model/hotel.yaml derives the seeds' logical model
// (schema/seeds/hotel.cql, reservation.cql) table for table, except where the seeds' key is not
// unique.
TEST(DeriveSeedsTest, HotelWorkflowReproducesTheSeedsTables) {
  DerivedModel derived = HotelModel(RepositoryFile("examples/model/hotel.yaml"));
  auto hotel = LoadSchema(RepositoryFile("schema/seeds/hotel.cql"));
  auto reservation = LoadSchema(RepositoryFile("schema/seeds/reservation.cql"));
  ASSERT_TRUE(hotel.ok() && reservation.ok());
  ASSERT_EQ(derived.tables.size(), 9u);
  std::vector<std::string> names;
  for (const LogicalTable& table : derived.tables) {
    const SchemaModel& seeds = table.keyspace == "hotel" ? *hotel : *reservation;
    const Table* seed = seeds.FindTable(table.keyspace, table.name);
    ASSERT_NE(seed, nullptr) << table.name << " is not a table of the seeds";
    EXPECT_EQ(table.comment, seed->comment);
    names.push_back(table.name);
    if (table.name == "reservations_by_guest") continue;  // the next test
    EXPECT_EQ(Of(table), Of(*seed)) << table.name;
    // And the derived CQL's types are the seeds' types.
    for (const LogicalColumn& column : table.columns) {
      EXPECT_EQ(column.type, seed->Find(column.name)->type.ToCql()) << table.name << column.name;
    }
  }
  EXPECT_EQ(names,
            (Names{"hotels_by_poi", "hotels", "pois_by_hotel", "available_rooms_by_hotel_date",
                   "amenities_by_room", "reservations_by_confirmation",
                   "reservations_by_hotel_date", "reservations_by_guest", "guests"}));
}

// The seeds' reservations_by_guest is keyed (guest_last_name, hotel_id): a guest's second stay
// at a hotel overwrites the first (the seeds' own text says the guest's id should cluster too).
// The derivation completes the reservation's key; lint flags the seeds' version.
TEST(DeriveSeedsTest, ReservationsByGuestIsCorrectedAndLintFlagsTheSeeds) {
  DerivedModel derived = HotelModel(RepositoryFile("examples/model/hotel.yaml"));
  const LogicalTable& table = derived.tables[7];
  ASSERT_EQ(table.name, "reservations_by_guest");
  EXPECT_EQ(Of(table), (Structure{{"guest_last_name"},
                                  {"hotel_id asc", "confirm_number asc"},
                                  {},
                                  {"start_date", "end_date", "room_number", "guest_id"}}));
  auto seeds = LoadSchema(RepositoryFile("schema/seeds/reservation.cql"));
  ASSERT_TRUE(seeds.ok());
  auto flagged = [](const std::vector<Finding>& findings, const std::string& object) {
    for (const Finding& finding : findings) {
      if (finding.rule == "key-uniqueness" && finding.object == object) return true;
    }
    return false;
  };
  EXPECT_TRUE(flagged(Lint(*seeds, {}, ""), "reservation.reservations_by_guest"));
  auto ours = LoadSchema(DerivedCql(derived));
  ASSERT_TRUE(ours.ok()) << ours.status().message();
  EXPECT_FALSE(flagged(Lint(*ours, {}, ""), "reservation.reservations_by_guest"));
}

// The seeds key points of interest by name, and the derivation agrees with their pois_by_hotel;
// lint's key-uniqueness rule doubts that a name identifies one. A conceptual model that keys a
// point of interest by an id derives the corrected ((hotel_id), poi_name, poi_id), which lint
// accepts; the price is Q1's static poi_description, which a name no longer determines.
TEST(DeriveSeedsTest, PoisByHotelFollowsTheConceptualModelsKey) {
  std::string yaml = RepositoryFile("examples/model/hotel.yaml");
  DerivedModel by_name = HotelModel(yaml);
  EXPECT_EQ(Of(by_name.tables[2]).clustering, (Names{"poi_name asc"}));
  auto seeds = LoadSchema(RepositoryFile("schema/seeds/hotel.cql"));
  ASSERT_TRUE(seeds.ok());
  bool lint_flags_seeds = false;
  for (const Finding& finding : Lint(*seeds, {}, "")) {
    lint_flags_seeds |= finding.object == "hotel.pois_by_hotel" && finding.rule == "key-uniqueness";
  }
  EXPECT_TRUE(lint_flags_seeds);

  yaml.replace(yaml.find("key: [poi_name]"), 15, "key: [poi_id]");
  yaml.replace(yaml.find("      poi_name: text"), 20, "      poi_id: uuid\n      poi_name: text");
  DerivedModel by_id = HotelModel(yaml);
  ASSERT_EQ(by_id.tables[2].name, "pois_by_hotel");
  EXPECT_EQ(Of(by_id.tables[2]).clustering, (Names{"poi_name asc", "poi_id asc"}));
  EXPECT_TRUE(Of(by_id.tables[0]).statics.empty());
  auto ours = LoadSchema(DerivedCql(by_id));
  ASSERT_TRUE(ours.ok()) << ours.status().message();
  for (const Finding& finding : Lint(*ours, {}, "hotel")) {
    EXPECT_FALSE(finding.object == "hotel.pois_by_hotel" && finding.rule == "key-uniqueness");
  }
}

TEST(DeriveSeedsTest, SizeAssumptionsComeFromTheQueries) {
  DerivedModel derived = HotelModel(RepositoryFile("examples/model/hotel.yaml"));
  SizeAssumptions assumptions = DerivedSizeAssumptions(derived);
  EXPECT_EQ(assumptions.rows.at("hotel.available_rooms_by_hotel_date"), 73'000);
  EXPECT_EQ(assumptions.span_days.at("hotel.available_rooms_by_hotel_date"), 730);
}

}  // namespace
}  // namespace model
