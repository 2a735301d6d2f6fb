// Syntax errors: exact messages (position, wording, snippet) as Cassandra reports them, the
// errors Cassandra raises from grammar actions, and robustness on hostile input.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cql/parser/parser.h"
#include "cql/parser/parser_test_corpus.h"

namespace cql {
namespace {

std::string ErrorOf(std::string_view text) {
  auto parsed = ParseStatement(text);
  if (parsed.ok()) return "(parsed: " + ToCql(*parsed) + ")";
  EXPECT_EQ(parsed.status().code(), common::StatusCode::kSyntaxError) << text;
  return parsed.status().message();
}

std::string InvalidOf(std::string_view text) {
  auto parsed = ParseStatement(text);
  if (parsed.ok()) return "(parsed)";
  EXPECT_EQ(parsed.status().code(), common::StatusCode::kInvalid) << text;
  return parsed.status().message();
}

// The three defective statements of the seed document (typographic quotes, `set` without
// its element type, an unclosed map type).
TEST(ParserErrorTest, SeedKeyspaceWithTypographicQuotes) {
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE hotel WITH replication =\n"
                    "  {\xE2\x80\x98"
                    "class\xE2\x80\x99: \xE2\x80\x98SimpleStrategy\xE2\x80\x99,"
                    " \xE2\x80\x98replication_factor\xE2\x80\x99 : 3};"),
            "line 2:3 no viable alternative at character '\xE2\x80\x98'");
}

TEST(ParserErrorTest, SeedSetWithoutElementType) {
  EXPECT_EQ(ErrorOf("CREATE TABLE hotel.hotels (\n"
                    "  id text PRIMARY KEY,\n"
                    "  name text,\n"
                    "  phone text,\n"
                    "  address frozen<address>,\n"
                    "  pois set )\n"
                    "  WITH comment = \xE2\x80\x98Q2. Find information about a hotel\xE2\x80\x99;"),
            "line 6:11 mismatched input ')' expecting '<' (...frozen<address>,  pois set [)]...)");
}

TEST(ParserErrorTest, SeedUnclosedMapType) {
  EXPECT_EQ(ErrorOf("CREATE TABLE reservation.guests (\n"
                    "  guest_id uuid PRIMARY KEY,\n"
                    "  first_name text,\n"
                    "  last_name text,\n"
                    "  title text,\n"
                    "  emails set,\n"
                    "  phone_numbers list,\n"
                    "  addresses map<text,\n"
                    "  frozen<address>,\n"
                    "  confirm_number text )\n"
                    "  WITH comment = \xE2\x80\x98Q9. Find guest by ID\xE2\x80\x99;"),
            "line 6:12 mismatched input ',' expecting '<' (...,  title text,  emails set[,]...)");
  // With `set` fixed, the unclosed map is the next error; `list` alone is a (UDT) type name.
  EXPECT_EQ(ErrorOf("CREATE TABLE reservation.guests (\n"
                    "  guest_id uuid PRIMARY KEY,\n"
                    "  emails set<text>,\n"
                    "  phone_numbers list,\n"
                    "  addresses map<text,\n"
                    "  frozen<address>,\n"
                    "  confirm_number text )\n"
                    "  WITH comment = 'Q9. Find guest by ID';"),
            "line 6:17 mismatched input ',' expecting '>' (... map<text,  frozen<address>[,]...)");
}

TEST(ParserErrorTest, SeedUnquotedComment) {
  EXPECT_EQ(
      ErrorOf("CREATE TABLE hotel.pois_by_hotel (\n"
              "  poi_name text,\n"
              "  PRIMARY KEY ((hotel_id), poi_name) )\n"
              "  WITH comment = Q3. Find pois near a hotel\xE2\x80\x99;"),
      "line 4:17 no viable alternative at input 'Q3' (...), poi_name) )  WITH [comment] =...)");
}

TEST(ParserErrorTest, StatementStart) {
  EXPECT_EQ(ErrorOf("SELEC * FROM t"),
            "line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)");
  EXPECT_EQ(ErrorOf("CREATE FOO bar"),
            "line 1:7 no viable alternative at input 'FOO' ([CREATE] FOO...)");
  EXPECT_EQ(ErrorOf(""), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("  -- only a comment\n"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("DROP everything"),
            "line 1:5 no viable alternative at input 'everything' ([DROP] everything)");
}

TEST(ParserErrorTest, NoViableAlternative) {
  EXPECT_EQ(ErrorOf("SELECT FROM t"),
            "line 1:7 no viable alternative at input 'FROM' (SELECT [FROM]...)");
  EXPECT_EQ(ErrorOf("SELECT a, b, FROM t"),
            "line 1:13 no viable alternative at input 'FROM' (SELECT a, b, [FROM]...)");
  EXPECT_EQ(ErrorOf("INSERT INTO t (a) VALUES (x)"),
            "line 1:27 no viable alternative at input ')' (... t (a) VALUES ([x]))");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int PRIMARY KEY) WITH CLUSTERING ORDER BY (a FOO)"),
            "line 1:63 no viable alternative at input 'FOO' (... CLUSTERING ORDER BY (a [FOO]...)");
  // Cassandra's own example (property names cannot contain ':').
  EXPECT_EQ(
      ErrorOf("CREATE TABLE users (key varchar PRIMARY KEY, password varchar, gender varchar) "
              "WITH compression_parameters:sstable_compressor = 'DeflateCompressor';"),
      "line 1:106 no viable alternative at input ':' (...varchar, gender varchar) WITH "
      "[compression_parameters]:...)");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a FOO 1"),
            "line 1:24 no viable alternative at input 'FOO' (SELECT * FROM t WHERE [a] FOO...)");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b WHERE k = 1"),
            "line 1:19 no viable alternative at input 'WHERE' (UPDATE t SET a = [b] WHERE...)");
}

TEST(ParserErrorTest, MismatchedInput) {
  // Cassandra's own example: a missing ')'.
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a int, PRIMARY KEY((a)) WITH COMPACT STORAGE"),
            "line 1:40 mismatched input 'WITH' expecting ')' (... PRIMARY KEY((a)) [WITH]...)");
  EXPECT_EQ(ErrorOf("SELECT * FROM t x"),
            "line 1:16 mismatched input 'x' expecting EOF (SELECT * FROM t [x])");
  EXPECT_EQ(ErrorOf("SELECT * FROM t; garbage"),
            "line 1:17 mismatched input 'garbage' expecting EOF (SELECT * FROM t; [garbage])");
  EXPECT_EQ(ErrorOf("INSERT INTO t (a) VALUES (1"),
            "line 0:-1 mismatched input '<EOF>' expecting ')'");
  EXPECT_EQ(ErrorOf("DELETE FROM t"), "line 0:-1 mismatched input '<EOF>' expecting K_WHERE");
  EXPECT_EQ(ErrorOf("SELECT * t"), "line 1:9 mismatched input 't' expecting K_FROM (SELECT * [t])");
  EXPECT_EQ(ErrorOf("INSERT t (a) VALUES (1)"),
            "line 1:7 mismatched input 't' expecting K_INTO (INSERT [t]...)");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = 'multi\nline' x"),
            "line 2:6 mismatched input 'x' expecting EOF (...t WHERE a = 'multiline' [x])");
}

TEST(ParserErrorTest, MismatchedSet) {
  EXPECT_EQ(ErrorOf("GRANT SELECT, FOO ON ks.t TO bob"),
            "line 1:14 mismatched input 'FOO' expecting set null (GRANT SELECT, [FOO]...)");
}

TEST(ParserErrorTest, EndOfInput) {
  EXPECT_EQ(ErrorOf("SELECT * FROM"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = 1 AND"),
            "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a"), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a map<text"),
            "line 0:-1 mismatched input '<EOF>' expecting ','");
  EXPECT_EQ(ErrorOf("BEGIN BATCH INSERT INTO t (a) VALUES (1);"),
            "line 0:-1 mismatched input '<EOF>' expecting K_APPLY");
}

TEST(ParserErrorTest, LexicalErrors) {
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = 'abc"),
            "line 1:30 mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = \xE2\x80\x98x\xE2\x80\x99"),
            "line 1:26 no viable alternative at character '\xE2\x80\x98'");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = 1 @"),
            "line 1:28 no viable alternative at character '@'");
  EXPECT_EQ(ErrorOf("SELECT * FROM \"t"), "line 1:16 mismatched character '<EOF>' expecting '\"'");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a ! 1"),
            "line 1:25 mismatched character ' ' expecting '='");
  EXPECT_EQ(ErrorOf("SELECT $$abc FROM t"), "line 1:18 mismatched character 't' expecting '$'");
  EXPECT_EQ(ErrorOf("SELECT * FROM t /* open"),
            "line 1:23 mismatched character '<EOF>' expecting '*'");
  // Column counting is in UTF-16 units: the emoji counts 2.
  EXPECT_EQ(ErrorOf("SELECT '\xF0\x9F\x98\x80' # FROM t"),
            "line 1:12 no viable alternative at character '#'");
}

TEST(ParserErrorTest, FirstErrorWins) {
  // The parser fails at FROM before it fetches the token after the bad character.
  EXPECT_EQ(ErrorOf("SELECT FROM t WHERE a = \xE2\x80\x98x"),
            "line 1:7 no viable alternative at input 'FROM' (SELECT [FROM]...)");
  // The lexer met the bad character while the parser fetched the token after it.
  EXPECT_EQ(ErrorOf("SELECT @ FROM t"), "line 1:7 no viable alternative at character '@'");
  // A bad character the parser never needed still fails the statement.
  EXPECT_EQ(ErrorOf("SELECT * FROM t ;\x01"),
            "line 1:17 no viable alternative at character '\x01'");
}

TEST(ParserErrorTest, ActionErrorsAreSyntaxErrors) {
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b + 1 WHERE k = 1"),
            "Only expressions of the form X = X +<value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b - 1 WHERE k = 1"),
            "Only expressions of the form X = X -<value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = b -1 WHERE k = 1"),
            "Only expressions of the form X = X - <value> are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = [1] + b WHERE k = 1"),
            "Only expressions of the form X = <value> + X are supported.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1, a = 2 WHERE k = 1"),
            "Multiple incompatible setting of column a");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = a + 1, a = 2 WHERE k = 1"),
            "Multiple incompatible setting of column a");
  EXPECT_EQ(ErrorOf("UPDATE t SET u.f = 1, u.f = 2 WHERE k = 1"),
            "Multiple incompatible setting of column u");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE k WITH a = 1 AND a = 2"),
            "Multiple definition for property 'a'");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE k WITH replication = {'a': 1, 'a': 2}"),
            "Multiple definition for property a");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE k WITH replication = {'a': ?}"),
            "Invalid property value: ? for property: 'a' (bind variables are not supported in "
            "DDL queries)");
  EXPECT_EQ(ErrorOf("CREATE KEYSPACE k WITH replication = {now(): 1}"),
            "Invalid property name: now()");
  EXPECT_EQ(ErrorOf("SELECT * FROM ?.t"), "Bind variables cannot be used for keyspace names");
  EXPECT_EQ(ErrorOf("SELECT * FROM ?"), "Bind variables cannot be used for table names");
  EXPECT_EQ(ErrorOf("DROP INDEX ?"), "Bind variables cannot be used for index names");
  EXPECT_EQ(ErrorOf("CREATE ROLE ?"), "Bind variables cannot be used for role names");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (a frozen<int> PRIMARY KEY)"),
            "frozen<> is only allowed on collections, tuples, and user-defined types (got int)");
  EXPECT_EQ(ErrorOf("CREATE TYPE byte (a int)"), "Invalid (reserved) user type name byte");
  EXPECT_EQ(ErrorOf("GRANT EXECUTE ON KEYSPACE ks TO bob"),
            "Resource type DataResource does not support any of the requested permissions");
  EXPECT_EQ(ErrorOf("GRANT CREATE ON ROLE r TO bob"),
            "Resource type RoleResource does not support any of the requested permissions");
  EXPECT_EQ(ErrorOf("REVOKE SELECT ON ALL FUNCTIONS FROM bob"),
            "Resource type FunctionResource does not support any of the requested permissions");
  EXPECT_EQ(ErrorOf("GRANT CREATE ON ALL MBEANS TO bob"),
            "Resource type JMXResource does not support any of the requested permissions");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEANS 'a:type=b' TO bob"),
            "Plural form used, but non-pattern JMX object name specified (a:type=b)");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEAN '*:*' TO bob"),
            "Please use ALL MBEANS instead of wildcard pattern");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEAN '' TO bob"), "Empty JMX object name supplied");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEAN 'nocolon' TO bob"),
            "nocolon is not a valid JMX object name");
  EXPECT_EQ(ErrorOf("CREATE ROLE r WITH PASSWORD = 'a' AND PASSWORD = 'b'"),
            "Multiple definition for property 'PASSWORD'");
  EXPECT_EQ(ErrorOf("CREATE ROLE r WITH LOGIN = true AND LOGIN = false"),
            "Multiple definition for property 'LOGIN'");
  EXPECT_EQ(ErrorOf("CREATE USER \"Bob\""),
            "Quoted strings are are not supported for user names and USER is deprecated, please "
            "use ROLE");
  EXPECT_EQ(ErrorOf("CREATE MATERIALIZED VIEW v AS SELECT * FROM t PRIMARY KEY (a) WITH "
                    "COMPACT STORAGE"),
            "COMPACT STORAGE tables are not allowed starting with version 4.0");
  EXPECT_EQ(ErrorOf("CREATE TABLE t (v vector<float, 0> PRIMARY KEY)"),
            "vectors may only have positive dimensions; given 0");
}

TEST(ParserErrorTest, ActionErrorsThatAreInvalidRequests) {
  EXPECT_EQ(InvalidOf("CREATE TABLE ks.t (a int PRIMARY KEY, a text)"),
            "Duplicate column 'a' declaration for table 'ks.t'");
  EXPECT_EQ(InvalidOf("CREATE TABLE t (a int PRIMARY KEY, b text, PRIMARY KEY (b))"),
            "Multiple PRIMARY KEY specified for table 't' (exactly one required)");
  EXPECT_EQ(InvalidOf("CREATE TABLE t (a int PRIMARY KEY, b int PRIMARY KEY)"),
            "Multiple PRIMARY KEY specified for table 't' (exactly one required)");
  EXPECT_EQ(InvalidOf("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER "
                      "BY (b ASC, b DESC)"),
            "Duplicate column 'b' in CLUSTERING ORDER BY clause for table 't'");
  EXPECT_EQ(InvalidOf("CREATE MATERIALIZED VIEW ks.v AS SELECT * FROM t PRIMARY KEY (a, b) "
                      "WITH CLUSTERING ORDER BY (b ASC, b DESC)"),
            "Duplicate column 'b' in CLUSTERING ORDER BY clause for view 'ks.v'");
}

TEST(ParserErrorTest, TermAndTypeEntryPoints) {
  EXPECT_EQ(ParseTerm("1 +").status().message(), "line 1:2 mismatched input '+' expecting EOF");
  EXPECT_EQ(ParseTerm("[1, 2").status().message(),
            "line 0:-1 mismatched input '<EOF>' expecting ']'");
  EXPECT_EQ(ParseTerm("x").status().message(), "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseType("map<text>").status().message(),
            "line 1:8 mismatched input '>' expecting ',' (map<text[>])");
  EXPECT_EQ(ParseType("frozen<int>").status().message(),
            "frozen<> is only allowed on collections, tuples, and user-defined types (got int)");
  EXPECT_EQ(ParseType("list<").status().message(),
            "line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ParseType("int int").status().message(),
            "line 1:4 mismatched input 'int' expecting EOF (int [int])");
  EXPECT_EQ(ParseType("select").status().message(),
            "line 1:0 no viable alternative at input 'select' ([select])");
}

TEST(ParserErrorTest, DeepNestingIsRejectedCleanly) {
  for (const std::string& open : {std::string("["), std::string("("), std::string("{"),
                                  std::string("- ("), std::string("(int) ")}) {
    std::string text = "SELECT * FROM t WHERE a = ";
    for (int i = 0; i < 5000; ++i) text += open;
    auto parsed = ParseStatement(text);
    ASSERT_FALSE(parsed.ok()) << open;
    EXPECT_NE(parsed.status().message().find("too many nesting levels (more than 256)"),
              std::string::npos)
        << parsed.status().message();
  }
  for (const char* open : {"(", "- ", "[", "{", "f(", "(int) "}) {
    std::string selector = "SELECT ";
    for (int i = 0; i < 5000; ++i) selector += open;
    auto parsed = ParseStatement(selector);
    ASSERT_FALSE(parsed.ok()) << open;
    EXPECT_NE(parsed.status().message().find("too many nesting levels (more than 256)"),
              std::string::npos)
        << parsed.status().message();
  }
  std::string type = "CREATE TABLE t (a ";
  for (int i = 0; i < 5000; ++i) type += "frozen<list<";
  EXPECT_FALSE(ParseStatement(type).ok());
  std::string where = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 5000; ++i) where += "(";
  EXPECT_FALSE(ParseStatement(where).ok());
  // Moderate nesting is fine.
  std::string nested = "SELECT * FROM t WHERE a = ";
  for (int i = 0; i < 50; ++i) nested += "[";
  for (int i = 0; i < 50; ++i) nested += "]";
  EXPECT_TRUE(ParseStatement(nested).ok());
}

TEST(ParserErrorTest, LongFlatInputsParse) {
  std::string text = "SELECT a0";
  for (int i = 1; i < 20000; ++i) text += ", a" + std::to_string(i);
  text += " FROM t WHERE k IN (";
  for (int i = 0; i < 20000; ++i) text += (i ? ", " : "") + std::to_string(i);
  text += ")";
  auto parsed = ParseStatement(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(std::get<Select>(*parsed).selectors.size(), 20000u);
}

// Every prefix of every valid statement parses or fails with a SyntaxError; none crashes.
TEST(ParserErrorTest, TruncatedStatementsFailCleanly) {
  for (const char* full : testing::kValidStatements) {
    std::string text(full);
    for (size_t n = 0; n < text.size(); ++n) {
      auto parsed = ParseStatement(std::string_view(text).substr(0, n));
      if (!parsed.ok()) {
        EXPECT_TRUE(parsed.status().code() == common::StatusCode::kSyntaxError ||
                    parsed.status().code() == common::StatusCode::kInvalid)
            << text.substr(0, n);
        EXPECT_FALSE(parsed.status().message().empty());
      }
    }
  }
}

// Random mutations (fixed seed) of valid statements never crash, and whatever parses prints
// back to text that parses to the same statement.
TEST(ParserErrorTest, MutatedStatementsNeverCrash) {
  std::mt19937 rng(20240601);
  const std::string alphabet =
      "abcXYZ019 _'\"$-+*/%.,;:()[]{}<>=!?@#\n\t\xE2\x80\x98\xC3\xA9\xFF\x00";
  int parsed_count = 0;
  for (int round = 0; round < 4; ++round) {
    for (const char* original : testing::kValidStatements) {
      std::string text(original);
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text.erase(at, 1 + rng() % 3);
            break;
          case 1:
            text.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
          default:
            text[at] = alphabet[rng() % alphabet.size()];
        }
      }
      auto parsed = ParseStatement(text);
      if (!parsed.ok()) continue;
      ++parsed_count;
      std::string printed = ToCql(*parsed);
      auto again = ParseStatement(printed);
      ASSERT_TRUE(again.ok()) << text << "\nprinted: " << printed << "\n"
                              << again.status().ToString();
      EXPECT_TRUE(*again == *parsed) << text << "\nprinted: " << printed;
    }
  }
  EXPECT_GT(parsed_count, 0);
}

TEST(ParserErrorTest, RandomBytesNeverCrash) {
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() % 256);
    auto parsed = ParseStatement(text);
    (void)parsed;
    auto script = ParseScript(text);
    (void)script;
    auto term = ParseTerm(text);
    (void)term;
    auto type = ParseType(text);
    (void)type;
  }
}

}  // namespace
}  // namespace cql
