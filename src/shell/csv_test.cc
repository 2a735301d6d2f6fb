#include "shell/csv.h"

#include <gtest/gtest.h>

namespace shell {
namespace {

std::vector<CsvRecord> ReadAll(std::string_view text, CsvDialect dialect = {}) {
  CsvReader reader(text, dialect);
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (reader.Next(&record)) records.push_back(record);
  return records;
}

TEST(CsvTest, SplitsFieldsAndTracksLines) {
  auto records = ReadAll("a,b,c\n\n1,\"x,y\",\"\"\n\"multi\nline\",z,\n");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].line, 1);
  EXPECT_EQ(records[1].line, 3);
  ASSERT_EQ(records[1].fields.size(), 3u);
  EXPECT_EQ(records[1].fields[1].text, "x,y");
  EXPECT_TRUE(records[1].fields[2].quoted);
  EXPECT_EQ(records[1].fields[2].text, "");
  EXPECT_EQ(records[2].line, 4);
  EXPECT_EQ(records[2].fields[0].text, "multi\nline");
  EXPECT_FALSE(records[2].fields[2].quoted);
  EXPECT_EQ(records[2].raw, "\"multi\nline\",z,");
}

TEST(CsvTest, EscapesAndDoubledQuotes) {
  auto escaped = ReadAll("\"say \\\"hi\\\"\",back\\\\slash\n");
  ASSERT_EQ(escaped.size(), 1u);
  EXPECT_EQ(escaped[0].fields[0].text, "say \"hi\"");
  EXPECT_EQ(escaped[0].fields[1].text, "back\\slash");
  CsvDialect doubled{';', '"', '"'};
  auto records = ReadAll("\"a\"\"b\";c\r\n", doubled);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].fields[0].text, "a\"b");
  EXPECT_EQ(records[0].fields[1].text, "c");
}

TEST(CsvTest, UnterminatedQuoteEndsAtEndOfText) {
  CsvReader reader("\"open,1\n", {});
  CsvRecord record;
  ASSERT_TRUE(reader.Next(&record));
  EXPECT_TRUE(reader.unterminated());
  EXPECT_FALSE(reader.Next(&record));
}

TEST(CsvTest, WriterRoundTripsThroughReader) {
  std::vector<std::vector<std::string>> rows = {
      {"plain", "with,comma", "with \"quote\"", "back\\slash", "two\nlines", "", " pad "},
  };
  for (CsvDialect dialect : {CsvDialect{}, CsvDialect{'|', '\'', '\''}}) {
    std::string out;
    std::vector<bool> quote_empty(7, true);
    AppendCsvRecord(rows[0], quote_empty, dialect, &out);
    auto records = ReadAll(out, dialect);
    ASSERT_EQ(records.size(), 1u) << out;
    ASSERT_EQ(records[0].fields.size(), 7u) << out;
    for (size_t i = 0; i < 7; ++i) EXPECT_EQ(records[0].fields[i].text, rows[0][i]) << out;
    EXPECT_TRUE(records[0].fields[5].quoted);
  }
  std::string out;
  AppendCsvRecord({"a", ""}, {false, false}, CsvDialect{}, &out);
  EXPECT_EQ(out, "a,\n");
}

}  // namespace
}  // namespace shell
