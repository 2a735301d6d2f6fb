#include "shell/copy_command.h"

#include <gtest/gtest.h>

#include "cql/parser/literal.h"
#include "cql/parser/parser.h"

namespace shell {
namespace {

TEST(CopyCommandTest, ParsesTableColumnsFileAndOptions) {
  auto command = ParseCopyCommand(
      "COPY hotel.\"Rooms\" (hotel_id, \"Date\") FROM 'rooms.csv' WITH HEADER = true AND "
      "DELIMITER = '\\t' AND MAXBATCHSIZE = 50 AND NULL = 'n/a' AND skipcols = 'x, y'",
      "");
  ASSERT_TRUE(command.ok()) << command.status().ToString();
  EXPECT_TRUE(command->from);
  EXPECT_EQ(command->keyspace, "hotel");
  EXPECT_EQ(command->table, "\"Rooms\"");
  EXPECT_EQ(command->columns, (std::vector<std::string>{"hotel_id", "\"Date\""}));
  EXPECT_EQ(command->file, "rooms.csv");
  EXPECT_TRUE(command->options.header);
  EXPECT_EQ(command->options.dialect.delimiter, '\t');
  EXPECT_EQ(command->options.max_batch_size, 50);
  EXPECT_EQ(command->options.null_text, "n/a");
  EXPECT_EQ(command->options.skip_columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(command->options.error_file, "import_hotel_Rooms.err");
}

TEST(CopyCommandTest, UsesSessionKeyspaceAndStdout) {
  auto command = ParseCopyCommand("copy Hotels to STDOUT with pagesize = 10;", "hotel");
  ASSERT_TRUE(command.ok()) << command.status().ToString();
  EXPECT_FALSE(command->from);
  EXPECT_EQ(command->keyspace, "hotel");
  EXPECT_EQ(command->table, "hotels");
  EXPECT_TRUE(command->file.empty());
  EXPECT_EQ(command->options.page_size, 10);
}

TEST(CopyCommandTest, RefusesUnknownOptionsAndBadCommands) {
  auto unknown = ParseCopyCommand("COPY ks.t FROM 'f' WITH PAGESIZE = 1 AND bogus = 2", "");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "Unrecognized COPY FROM options: pagesize, bogus");
  auto bad_value = ParseCopyCommand("COPY ks.t TO 'f' WITH PAGESIZE = many", "");
  ASSERT_FALSE(bad_value.ok());
  EXPECT_EQ(bad_value.status().message(), "Invalid value for COPY option PAGESIZE: many");
  EXPECT_EQ(ParseCopyCommand("COPY ks.t INTO 'f'", "").status().message(),
            "Improper COPY command.");
  EXPECT_EQ(ParseCopyCommand("COPY t TO 'f'", "").status().message(),
            "No keyspace specified and no current keyspace");
  EXPECT_FALSE(ParseCopyCommand("COPY ks.t FROM 'unterminated", "").ok());
}

TEST(CopyCommandTest, DescribeIntervalAsCqlsh) {
  EXPECT_EQ(DescribeInterval(1.2345), "1.234 seconds");
  EXPECT_EQ(DescribeInterval(62.5), "1 minute and 2.500 seconds");
  EXPECT_EQ(DescribeInterval(7322), "2 hours, 2 minutes, and 2.000 seconds");
}

TEST(CopyCommandTest, ValuesRoundTrip) {
  CopyOptions options;
  struct Case {
    std::string type;
    std::string literal;
  };
  const Case cases[] = {
      {"text", "'it''s, \"quoted\"'"},
      {"int", "-42"},
      {"boolean", "true"},
      {"double", "0.1"},
      {"float", "3.14159274"},
      {"decimal", "1.50"},
      {"timestamp", "'2015-05-03T13:30:54.234Z'"},
      {"date", "'2024-01-31'"},
      {"blob", "0xcafe"},
      {"uuid", "5b6962dd-3f90-4c93-8f61-eabfa4a803e2"},
      {"set<text>", "{'a', 'b,c'}"},
      {"map<text, timestamp>", "{'k': '2015-05-03T13:30:54.234Z'}"},
      {"list<frozen<tuple<int, text>>>", "[(1, 'x'), (2, null)]"},
  };
  for (const Case& c : cases) {
    auto type = cql::ParseType(c.type);
    ASSERT_TRUE(type.ok()) << c.type;
    auto term = cql::ParseTerm(c.literal);
    ASSERT_TRUE(term.ok()) << c.literal;
    auto expected = cql::EvaluateLiteral(*type, *term, "v");
    ASSERT_TRUE(expected.ok() && *expected) << c.literal;
    std::string field = CopyFormatValue(*type, **expected, options);
    auto parsed = CopyParseValue(*type, field, "v", options);
    ASSERT_TRUE(parsed.ok()) << c.type << " field '" << field
                             << "': " << parsed.status().ToString();
    EXPECT_EQ(*parsed, **expected) << c.type << " field '" << field << "'";
  }
}

TEST(CopyCommandTest, FormatsLikeCqlsh) {
  CopyOptions options;
  auto timestamp = cql::ParseType("timestamp");
  auto value = cql::EvaluateLiteral(*timestamp, *cql::ParseTerm("'2015-05-03T13:30:54.234Z'"), "v");
  EXPECT_EQ(CopyFormatValue(*timestamp, **value, options), "2015-05-03 13:30:54.234000+0000");
  auto boolean = cql::ParseType("boolean");
  EXPECT_EQ(CopyFormatValue(*boolean, std::string(1, '\x01'), options), "True");
  options.bool_true = "yes";
  options.bool_false = "no";
  auto parsed = CopyParseValue(*boolean, "no", "v", options);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, std::string(1, '\0'));
  auto bad = CopyParseValue(*cql::ParseType("int"), "abc", "v", options);
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace shell
