#include "model/diagram.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace model {
namespace {

// A schema of `tables` tables in two keyspaces whose column counts and name lengths vary, so the
// boxes differ in width and height.
std::string GeneratedSchema(int tables) {
  std::string cql;
  for (int i = 0; i < tables; ++i) {
    std::string keyspace = i % 3 == 0 ? "audit" : "shop";
    cql += fmt::format("CREATE TABLE {}.entity_{}_by_key (key_{} text, ", keyspace, i, i);
    int columns = 1 + (i * 7) % 12;
    for (int c = 0; c < columns; ++c) {
      cql += fmt::format("column_{}_{} {}, ", c, std::string(static_cast<size_t>(i % 9), 'x'),
                         c % 2 == 0 ? "map<text, frozen<list<int>>>" : "int");
    }
    cql += fmt::format("PRIMARY KEY ((key_{}), column_0_{}));\n", i,
                       std::string(static_cast<size_t>(i % 9), 'x'));
  }
  return cql;
}

// The model of `cql`, which must load.
SchemaModel Schema(const std::string& cql) {
  auto schema = LoadSchema(cql);
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  return schema.ok() ? *std::move(schema) : SchemaModel{};
}

bool Overlap(const DiagramBox& a, const DiagramBox& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// Every box inside the canvas, clear of the keyspace labels and of every other box.
void ExpectNoOverlap(const DiagramLayout& layout) {
  for (size_t i = 0; i < layout.boxes.size(); ++i) {
    const DiagramBox& a = layout.boxes[i];
    EXPECT_GE(a.x, 0);
    EXPECT_GE(a.y, 0);
    EXPECT_LE(a.x + a.width, layout.width);
    EXPECT_LE(a.y + a.height, layout.height);
    for (const DiagramLabel& label : layout.labels) {
      bool label_inside = label.x >= a.x && label.x <= a.x + a.width &&
                          label.y - kLineHeight <= a.y + a.height && label.y >= a.y;
      EXPECT_FALSE(label_inside) << a.title << " covers " << label.text;
    }
    for (size_t j = i + 1; j < layout.boxes.size(); ++j) {
      EXPECT_FALSE(Overlap(a, layout.boxes[j])) << a.title << " / " << layout.boxes[j].title;
    }
  }
}

TEST(DiagramTest, ThirtySixTablesDoNotOverlap) {
  auto schema = LoadSchema(GeneratedSchema(36));
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  DiagramLayout layout = LayOut(*schema, "");
  ASSERT_EQ(layout.boxes.size(), 36u);
  ASSERT_EQ(layout.labels.size(), 2u);
  ExpectNoOverlap(layout);
  EXPECT_LE(layout.width, kMaxShelfWidth + kGap);
  EXPECT_EQ(RenderSvg(layout), RenderSvg(LayOut(*schema, "")));  // deterministic
}

// The marketplace of tests/data/model (38 tables and 2 user types in 4 keyspaces, written by
// hand), physical and logical, with and without the room the workflow's arrows need.
TEST(DiagramTest, TheMarketplacesThirtyEightTablesDoNotOverlap) {
  auto schema = LoadSchemaFile(std::string(CQLD_TEST_DATA_DIR) + "/model/marketplace.cql");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  ASSERT_EQ(schema->tables.size(), 38u);
  for (DiagramForm form : {DiagramForm::kPhysical, DiagramForm::kLogical}) {
    for (double gap : {kGap, kArrowGap}) {
      DiagramLayout layout = LayOut(*schema, "", form, gap);
      EXPECT_GE(layout.boxes.size(), 38u);
      EXPECT_EQ(layout.labels.size(), 4u);
      ExpectNoOverlap(layout);
    }
  }
}

TEST(DiagramTest, ChebotkoMarkers) {
  SchemaModel schema = Schema(
      "CREATE TABLE k.events_by_day (day date, at timestamp, id uuid, kind text STATIC, "
      "hits counter, PRIMARY KEY ((day), at, id)) WITH CLUSTERING ORDER BY (at DESC, id ASC);"
      "CREATE TABLE k.users (user_id uuid PRIMARY KEY, city text);"
      "CREATE INDEX ON k.users (city);"
      "CREATE TYPE k.address (street text, zip int);");
  DiagramLayout layout = LayOut(schema, "k");
  ASSERT_EQ(layout.boxes.size(), 3u);
  const DiagramBox& events = layout.boxes[0];
  std::vector<std::string> markers;
  for (const DiagramRow& row : events.rows) markers.push_back(row.marker);
  EXPECT_EQ(markers, (std::vector<std::string>{"K", "C↓", "C↑", "S", "++"}));
  EXPECT_EQ(events.rows[1].type, "timestamp");
  EXPECT_EQ(layout.boxes[1].rows[1].marker, "IDX");
  EXPECT_EQ(layout.boxes[2].kind, DiagramBox::Kind::kType);
  EXPECT_EQ(layout.boxes[2].subtitle, "user type");
  std::string svg = RenderSvg(layout);
  EXPECT_NE(svg.find(">C↓</text>"), std::string::npos);
  EXPECT_TRUE(LayOut(schema, "other").boxes.empty());
}

TEST(DiagramTest, LogicalFormHasNoTypes) {
  SchemaModel schema = Schema(
      "CREATE TYPE k.address (street text);"
      "CREATE TABLE k.users_by_city (city text, user_id uuid, home frozen<address>, "
      "PRIMARY KEY ((city), user_id));");
  DiagramLayout physical = LayOut(schema, "");
  DiagramLayout logical = LayOut(schema, "", DiagramForm::kLogical);
  ASSERT_EQ(physical.boxes.size(), 2u);
  ASSERT_EQ(logical.boxes.size(), 1u);  // no user-type box
  EXPECT_EQ(logical.boxes[0].rows[1].marker, "C↑");
  EXPECT_EQ(logical.boxes[0].rows[1].type, "");
  EXPECT_LT(logical.boxes[0].width, physical.boxes[0].width);
  std::string svg = RenderSvg(logical);
  EXPECT_EQ(svg.find(">uuid<"), std::string::npos);
  EXPECT_NE(svg.find(">user_id<"), std::string::npos);
}

TEST(DiagramTest, DotHasAViewEdgeAndEscapes) {
  SchemaModel schema = Schema(
      "CREATE TABLE k.users (user_id uuid PRIMARY KEY, email text, tags set<text>);"
      "CREATE MATERIALIZED VIEW k.users_by_email AS SELECT * FROM k.users WHERE email IS NOT "
      "NULL AND user_id IS NOT NULL PRIMARY KEY (email, user_id);");
  std::string dot = RenderDot(LayOut(schema, ""));
  EXPECT_NE(dot.find("\"k.users_by_email\" -> \"k.users\" [style=dashed];"), std::string::npos);
  EXPECT_NE(dot.find("set&lt;text&gt;"), std::string::npos);
  EXPECT_NE(dot.find("<i>view of users</i>"), std::string::npos);
}

}  // namespace
}  // namespace model
