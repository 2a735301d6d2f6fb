#include "shell/result_printer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql/types/value_codec.h"

namespace shell {
namespace {

using cql::ColumnSpec;
using cql::CqlType;
using cql::ResultSet;

TableStyle Terminal() {
  TableStyle style;
  style.tty = true;
  return style;
}

TableStyle Expanded() {
  TableStyle style;
  style.expand = true;
  return style;
}

ColumnSpec Column(std::string name, CqlType type) {
  return {"ks", "t", std::move(name), std::move(type)};
}

// Rows (k int, name text, v double).
ResultSet People(const std::vector<std::tuple<int, std::string, std::optional<double>>>& rows) {
  ResultSet result = ResultSet::Rows({Column("k", CqlType::Int()), Column("name", CqlType::Text()),
                                      Column("v", CqlType::Double())});
  for (const auto& [k, name, v] : rows) {
    result.AddRow({cql::SerializeInt(k), name,
                   v ? std::optional<common::Bytes>(cql::SerializeDouble(*v)) : std::nullopt});
  }
  return result;
}

TEST(ResultPrinterTest, SelectTableAlignsValuesRightAndNamesLeft) {
  RowsFormatter formatter(TableStyle{});
  std::string text = formatter.Page(People({{1, "alice", std::nullopt}, {100, "bob", 1.5}}));
  text += formatter.Finish();
  EXPECT_EQ(text,
            "\n"
            " k   | name  | v\n"
            "-----+-------+------\n"
            "   1 | alice | null\n"
            " 100 |   bob |  1.5\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(formatter.row_count(), 2u);
}

TEST(ResultPrinterTest, PagesOutsideATerminalShareOneHeaderButNotTheirWidths) {
  RowsFormatter formatter(TableStyle{});
  std::string text = formatter.Page(People({{1, "a", 2}}));
  text += formatter.Page(People({}));  // an empty page in the middle prints nothing
  text += formatter.Page(People({{22, "bbbbbbb", 3}}));
  text += formatter.Finish();
  EXPECT_EQ(text,
            "\n"
            " k | name | v\n"
            "---+------+---\n"
            " 1 |    a | 2\n"
            " 22 | bbbbbbb | 3\n"
            "\n"
            "(2 rows)\n");
}

TEST(ResultPrinterTest, AtATerminalEveryPageHasAHeaderAndABlankLine) {
  RowsFormatter formatter(Terminal());
  std::string text = formatter.Page(People({{1, "a", 2}}));
  text += formatter.Page(People({{2, "b", 3}}));
  text += formatter.Finish();
  EXPECT_EQ(text,
            "\n"
            " k | name | v\n"
            "---+------+---\n"
            " 1 |    a | 2\n"
            "\n"
            " k | name | v\n"
            "---+------+---\n"
            " 2 |    b | 3\n"
            "\n"
            "(2 rows)\n");
}

TEST(ResultPrinterTest, EmptyResultPrintsTheHeader) {
  RowsFormatter batch(TableStyle{});
  EXPECT_EQ(batch.Page(People({})) + batch.Finish(),
            "\n k | name | v\n---+------+---\n\n\n(0 rows)\n");
  RowsFormatter terminal(Terminal());
  EXPECT_EQ(terminal.Page(People({})) + terminal.Finish(),
            "\n k | name | v\n---+------+---\n\n(0 rows)\n");
}

TEST(ResultPrinterTest, ExpandPrintsOneBlockPerRowNumberedAcrossPages) {
  RowsFormatter formatter(Expanded());
  std::string text = formatter.Page(People({{1, "alice", std::nullopt}}));
  text += formatter.Page(People({{2, "b", 0.25}}));
  text += formatter.Finish();
  EXPECT_EQ(text,
            "\n"
            "@ Row 1\n"
            "------+-------\n"
            " k    | 1\n"
            " name | alice\n"
            " v    | null\n"
            "\n"
            "@ Row 2\n"
            "------+------\n"
            " k    | 2\n"
            " name | b\n"
            " v    | 0.25\n"
            "\n"
            "\n"
            "(2 rows)\n");
}

TEST(ResultPrinterTest, WideAndCombiningCharactersAlignByTerminalColumns) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\xE6\x97\xA5\xE6\x9C\xAC"), 4u);  // 日本
  EXPECT_EQ(DisplayWidth("e\xCC\x81"), 1u);                 // e + combining acute
  EXPECT_EQ(DisplayWidth("\xF0\x9F\x98\x80"), 2u);          // an emoji
  // Invalid UTF-8 never crashes: each stray or truncated byte takes a column.
  EXPECT_EQ(DisplayWidth("\xFF\xFE"), 2u);
  EXPECT_EQ(DisplayWidth("a\xE6\x97"), 3u);
  EXPECT_EQ(DisplayWidth("\xC3"), 1u);

  FormattedRows page{{"name"}, {{"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"}, {"e\xCC\x81"}}, {}};
  EXPECT_EQ(FormatTable(page, true, false),
            " name\n"
            "--------\n"
            " \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\n"
            "      e\xCC\x81\n");
}

TEST(ResultPrinterTest, TextValuesAreEscapedAsCqlshDoes) {
  ResultSet result = ResultSet::Rows({Column("t", CqlType::Text())});
  result.AddRow({std::string("a\nb")});
  result.AddRow({std::string("\xFF")});  // not UTF-8: must not crash
  FormattedRows rows = FormatRows(result, {});
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[0][0], "a\\nb");
  EXPECT_FALSE(FormatTable(rows, true, false).empty());
}

TEST(ResultPrinterTest, StaticResultOfALightweightTransaction) {
  ResultSet result =
      ResultSet::Rows({Column("[applied]", CqlType::Boolean()), Column("k", CqlType::Int())});
  result.AddRow({cql::SerializeBoolean(false), cql::SerializeInt(7)});
  EXPECT_EQ(FormatStaticResult(result, TableStyle{}),
            "\n [applied] | k\n-----------+---\n     False | 7\n");
  EXPECT_EQ(FormatStaticResult(result, Terminal()),
            "\n [applied] | k\n-----------+---\n     False | 7\n\n");
  EXPECT_EQ(FormatStaticResult(ResultSet::Rows({Column("[applied]", CqlType::Boolean())}), {}), "");
}

TEST(ResultPrinterTest, Warnings) {
  EXPECT_EQ(FormatWarnings({}), "");
  EXPECT_EQ(FormatWarnings({"one", "two"}), "\nWarnings :\none\n\ntwo\n\n");
}

TEST(ResultPrinterTest, ColumnizeFillsColumnsFirstWithinTheWidth) {
  EXPECT_EQ(Columnize({}), "<empty>\n");
  EXPECT_EQ(Columnize({"only"}), "only\n");
  EXPECT_EQ(Columnize({"a", "bb", "ccc"}), "a  bb  ccc\n");
  EXPECT_EQ(Columnize({"aaaa", "bb", "cc", "d"}, 8), "aaaa  cc\nbb    d \n");
  EXPECT_EQ(Columnize({"aaaaaaaaa", "bbbbbbbbb"}, 8), "aaaaaaaaa\nbbbbbbbbb\n");
}

ResultSet DescribeRows(bool with_statement, const std::vector<std::vector<std::string>>& rows) {
  std::vector<ColumnSpec> columns = {Column("keyspace_name", CqlType::Text()),
                                     Column("type", CqlType::Text()),
                                     Column("name", CqlType::Text())};
  if (with_statement) columns.push_back(Column("create_statement", CqlType::Text()));
  ResultSet result = ResultSet::Rows(columns);
  for (const std::vector<std::string>& row : rows) {
    for (const std::string& cell : row) result.AddCell(cell);
  }
  return result;
}

TEST(ResultPrinterTest, DescribeKinds) {
  EXPECT_EQ(DescribeKindOf("DESCRIBE KEYSPACES"), DescribeKind::kKeyspaces);
  EXPECT_EQ(DescribeKindOf("desc  tables"), DescribeKind::kListing);
  EXPECT_EQ(DescribeKindOf("DESC TYPES"), DescribeKind::kListing);
  EXPECT_EQ(DescribeKindOf("DESCRIBE CLUSTER"), DescribeKind::kCluster);
  EXPECT_EQ(DescribeKindOf("DESCRIBE TABLE hotel.hotels"), DescribeKind::kElements);
  EXPECT_EQ(DescribeKindOf("DESCRIBE FULL SCHEMA"), DescribeKind::kElements);
  EXPECT_EQ(DescribeKindOf("DESCRIBE"), DescribeKind::kElements);
}

TEST(ResultPrinterTest, DescribeElementsPrintCreateStatementsBetweenBlankLines) {
  ResultSet rows = DescribeRows(true, {{"k", "keyspace", "k", "CREATE KEYSPACE k;"},
                                       {"k", "table", "t", "CREATE TABLE k.t (\n    a int\n);"}});
  EXPECT_EQ(FormatDescribe(DescribeKind::kElements, rows, false),
            "\nCREATE KEYSPACE k;\n\nCREATE TABLE k.t (\n    a int\n);\n");
}

TEST(ResultPrinterTest, DescribeListingsGroupByKeyspaceUnlessOneIsInUse) {
  ResultSet rows = DescribeRows(false, {{"hotel", "table", "hotels"},
                                        {"hotel", "table", "pois_by_hotel"},
                                        {"reservation", "table", "guests"}});
  EXPECT_EQ(FormatDescribe(DescribeKind::kListing, rows, false),
            "\nKeyspace hotel\n--------------\nhotels  pois_by_hotel\n"
            "\nKeyspace reservation\n--------------------\nguests\n\n");
  EXPECT_EQ(FormatDescribe(DescribeKind::kListing, rows, true),
            "\nhotels  pois_by_hotel\n\nguests\n\n");
  EXPECT_EQ(FormatDescribe(DescribeKind::kListing, DescribeRows(false, {}), false), "");
  ResultSet keyspaces =
      DescribeRows(false, {{"hotel", "keyspace", "hotel"}, {"system", "keyspace", "system"}});
  EXPECT_EQ(FormatDescribe(DescribeKind::kKeyspaces, keyspaces, false), "\nhotel  system\n\n");
}

TEST(ResultPrinterTest, DescribeCluster) {
  ResultSet result =
      ResultSet::Rows({Column("cluster", CqlType::Text()), Column("partitioner", CqlType::Text()),
                       Column("snitch", CqlType::Text())});
  result.AddRow({std::string("Test Cluster"), std::string("Murmur3Partitioner"),
                 std::string("SimpleSnitch")});
  EXPECT_EQ(FormatDescribe(DescribeKind::kCluster, result, false),
            "\nCluster: Test Cluster\nPartitioner: Murmur3Partitioner\nSnitch: SimpleSnitch\n\n");
}

TEST(ResultPrinterTest, ColourAtATerminalLeavesTheLayoutAlone) {
  TableStyle style = Terminal();
  style.colour = true;
  RowsFormatter formatter(style);
  std::string text = formatter.Page(People({{1, "alice", 2.5}}));
  EXPECT_EQ(text,
            "\n"
            " \x1b[0;1;35mk\x1b[0m | \x1b[0;1;35mname\x1b[0m  | \x1b[0;1;35mv\x1b[0m\n"
            "---+-------+-----\n"
            " \x1b[0;1;32m1\x1b[0m | \x1b[0;1;33malice\x1b[0m | \x1b[0;1;32m2.5\x1b[0m\n"
            "\n");
}

}  // namespace
}  // namespace shell
