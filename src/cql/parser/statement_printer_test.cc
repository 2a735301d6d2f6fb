#include <gtest/gtest.h>

#include <string>

#include "cql/parser/parser.h"
#include "cql/parser/parser_test_corpus.h"

namespace cql {
namespace {

std::string Canonical(std::string_view text) {
  auto parsed = ParseStatement(text);
  EXPECT_TRUE(parsed.ok()) << text << "\n" << parsed.status().ToString();
  return parsed.ok() ? ToCql(*parsed) : std::string();
}

// The round trip over every statement of the test corpus: the canonical text parses back
// to an equal statement, and printing is a fixed point.
TEST(StatementPrinterTest, RoundTripsEveryCorpusStatement) {
  for (const char* text : testing::kValidStatements) {
    auto parsed = ParseStatement(text);
    ASSERT_TRUE(parsed.ok()) << text << "\n" << parsed.status().ToString();
    std::string printed = ToCql(*parsed);
    auto again = ParseStatement(printed);
    ASSERT_TRUE(again.ok()) << text << "\nprinted: " << printed << "\n"
                            << again.status().ToString();
    EXPECT_TRUE(*again == *parsed) << text << "\nprinted: " << printed;
    EXPECT_EQ(ToCql(*again), printed);
    EXPECT_EQ(BindMarkerNames(*again), BindMarkerNames(*parsed)) << text;
  }
}

TEST(StatementPrinterTest, ScriptOfTheWholeCorpusRoundTrips) {
  std::string script;
  for (const char* text : testing::kValidStatements) {
    auto parsed = ParseStatement(text);
    ASSERT_TRUE(parsed.ok());
    script += ToCql(*parsed) + ";\n";
  }
  auto statements = ParseScript(script);
  ASSERT_TRUE(statements.ok()) << statements.status().ToString();
  EXPECT_EQ(statements->size(), std::size(testing::kValidStatements));
}

TEST(StatementPrinterTest, CanonicalSelect) {
  EXPECT_EQ(Canonical("select  a ,b as X from KS.T where A=1 and b in (1,2) order by c limit 3"),
            "SELECT a, b AS x FROM ks.t WHERE a = 1 AND b IN (1, 2) ORDER BY c ASC LIMIT 3");
  EXPECT_EQ(Canonical("SELECT \"Mixed\", \"select\", \"a\"\"b\", \"true\" FROM t"),
            "SELECT \"Mixed\", \"select\", \"a\"\"b\", \"true\" FROM t");
  EXPECT_EQ(Canonical("SELECT json FROM t"), "SELECT \"json\" FROM t");
  EXPECT_EQ(Canonical("SELECT count(*), COUNT(1), WriteTime(a), TTL(b), cast(c as TEXT) FROM t"),
            "SELECT count(*), count(1), writetime(a), ttl(b), CAST(c AS text) FROM t");
  EXPECT_EQ(Canonical("SELECT s[1..3], s[..2], s[3..], m['k'], u.f FROM t"),
            "SELECT s[1 .. 3], s[.. 2], s[3 ..], m['k'], u.f FROM t");
  EXPECT_EQ(Canonical("SELECT a+b*c, (a+b)*c, -a, token(k) FROM t"),
            "SELECT a + b * c, (a + b) * c, - a, token(k) FROM t");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE token(a,b)>token(?,?) AND (a,b) IN ((1,2)) AND "
                      "m[?]=1 AND c IS NOT NULL AND d CONTAINS KEY 1 AND e LIKE 'x'"),
            "SELECT * FROM t WHERE token(a, b) > token(?, ?) AND (a, b) IN ((1, 2)) AND m[?] = 1 "
            "AND c IS NOT NULL AND d CONTAINS KEY 1 AND e LIKE 'x'");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE expr(i, 'q') PER PARTITION LIMIT 1 ALLOW FILTERING"),
            "SELECT * FROM t WHERE expr(i, 'q') PER PARTITION LIMIT 1 ALLOW FILTERING");
}

TEST(StatementPrinterTest, CanonicalTerms) {
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE a = 'it''s' AND b = $$x'y$$ AND c = 0xFF AND d = "
                      "-NaN AND e = 1.50 AND f = True AND g = 1H"),
            "SELECT * FROM t WHERE a = 'it''s' AND b = 'x''y' AND c = 0xFF AND d = NaN AND e = "
            "1.50 AND f = true AND g = 1H");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE a = [1,{2:3},{4},(5,6)] AND b = {f:1, \"G\":2}"),
            "SELECT * FROM t WHERE a = [1, {2: 3}, {4}, (5, 6)] AND b = {f: 1, \"G\": 2}");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE a = (frozen<ks.u>) ? AND b = ('x.Y') 'q'"),
            "SELECT * FROM t WHERE a = (frozen<ks.u>) ? AND b = ('x.Y') 'q'");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE a = 1+2*3 AND b = -? AND c = - 1 AND d = 1 - -1"),
            "SELECT * FROM t WHERE a = 1 + 2 * 3 AND b = - ? AND c = - 1 AND d = 1 - -1");
  EXPECT_EQ(Canonical("SELECT * FROM t WHERE a = CAST(1 AS varchar) AND b = token(1) AND c = "
                      "\"ttl\"(1) AND d = \"MyF\"() AND e = :\"Name\""),
            "SELECT * FROM t WHERE a = CAST(1 AS text) AND b = token(1) AND c = \"ttl\"(1) AND "
            "d = \"MyF\"() AND e = :\"Name\"");
}

TEST(StatementPrinterTest, CanonicalModifications) {
  EXPECT_EQ(Canonical("insert into t(a,b) values(1,?) if not exists using timestamp 5 and ttl 3"),
            "INSERT INTO t (a, b) VALUES (1, ?) IF NOT EXISTS USING TTL 3 AND TIMESTAMP 5");
  EXPECT_EQ(Canonical("INSERT INTO t JSON ? DEFAULT NULL"), "INSERT INTO t JSON ?");
  EXPECT_EQ(Canonical("update t set a=a+1, b+=[1], c=[0]+c, d-={1}, m['k']=1, u.f=2, n=n-3 "
                      "where k=1 if exists"),
            "UPDATE t SET a = a + 1, b = b + [1], c = [0] + c, d = d - {1}, m['k'] = 1, u.f = 2, "
            "n = n + -3 WHERE k = 1 IF EXISTS");
  EXPECT_EQ(Canonical("UPDATE t SET n = n -3 WHERE k = 1"), "UPDATE t SET n = n + -3 WHERE k = 1");
  EXPECT_EQ(Canonical("UPDATE t SET n = n - 3 WHERE k = 1"), "UPDATE t SET n = n - 3 WHERE k = 1");
  EXPECT_EQ(Canonical("delete m['k'],u.f from t using timestamp 1 where k=1 if a in (1)"),
            "DELETE m['k'], u.f FROM t USING TIMESTAMP 1 WHERE k = 1 IF a IN (1)");
  EXPECT_EQ(Canonical("begin unlogged batch insert into t(a) values(1) delete from t where a=2 "
                      "apply batch"),
            "BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (1); DELETE FROM t WHERE a = 2; APPLY "
            "BATCH");
  // Markers keep their source order.
  EXPECT_EQ(Canonical("INSERT INTO t (a) VALUES (1) USING TIMESTAMP ? AND TTL ?"),
            "INSERT INTO t (a) VALUES (1) USING TIMESTAMP ? AND TTL ?");
}

TEST(StatementPrinterTest, CanonicalSchemaStatements) {
  EXPECT_EQ(Canonical("CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
                      "'replication_factor' : 3}"),
            "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': 3}");
  EXPECT_EQ(Canonical("CREATE TABLE hotel.hotels_by_poi (poi_name text, hotel_id text, name text, "
                      "phone text, address frozen<address>, PRIMARY KEY ((poi_name), hotel_id)) "
                      "WITH comment = 'Q1. Find hotels near given poi' AND CLUSTERING ORDER BY "
                      "(hotel_id ASC)"),
            "CREATE TABLE hotel.hotels_by_poi (poi_name text, hotel_id text, name text, phone "
            "text, address frozen<address>, PRIMARY KEY (poi_name, hotel_id)) WITH CLUSTERING "
            "ORDER BY (hotel_id ASC) AND comment = 'Q1. Find hotels near given poi'");
  EXPECT_EQ(Canonical("create table t (a int, b int, c int static, primary key ((a, b), c)) with "
                      "compact storage"),
            "CREATE TABLE t (a int, b int, c int STATIC, PRIMARY KEY ((a, b), c)) WITH COMPACT "
            "STORAGE");
  EXPECT_EQ(Canonical("CREATE TABLE t (id text PRIMARY KEY, m map<text,frozen<ks.address>>, v "
                      "varchar, x 'org.Foo')"),
            "CREATE TABLE t (id text, m map<text, frozen<ks.address>>, v text, x 'org.Foo', "
            "PRIMARY KEY (id))");
  EXPECT_EQ(Canonical("CREATE TYPE \"text\" (a int)"), "CREATE TYPE \"text\" (a int)");
  EXPECT_EQ(Canonical("CREATE TABLE t (a frozen<\"byte\"> PRIMARY KEY)"),
            "CREATE TABLE t (a frozen<\"byte\">, PRIMARY KEY (a))");
  EXPECT_EQ(Canonical("ALTER TABLE t ADD (a int)"), "ALTER TABLE t ADD a int");
  EXPECT_EQ(Canonical("ALTER TABLE t DROP (a)"), "ALTER TABLE t DROP a");
  EXPECT_EQ(Canonical("ALTER TABLE t DROP (a, b) USING TIMESTAMP 5"),
            "ALTER TABLE t DROP (a, b) USING TIMESTAMP 5");
  EXPECT_EQ(Canonical("create custom index on t (keys(m)) using 'C' with options = {'a': 'b'}"),
            "CREATE CUSTOM INDEX ON t (keys(m)) USING 'C' WITH options = {'a': 'b'}");
  EXPECT_EQ(Canonical("CREATE MATERIALIZED VIEW v AS SELECT a, b FROM t WHERE a IS NOT NULL "
                      "AND b IS NOT NULL PRIMARY KEY (b, a) WITH CLUSTERING ORDER BY (a DESC)"),
            "CREATE MATERIALIZED VIEW v AS SELECT a, b FROM t WHERE a IS NOT NULL AND b IS NOT "
            "NULL PRIMARY KEY (b, a) WITH CLUSTERING ORDER BY (a DESC)");
  EXPECT_EQ(Canonical("CREATE FUNCTION f(a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE "
                      "JAVA AS 'return a;'"),
            "CREATE FUNCTION f(a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS "
            "'return a;'");
  EXPECT_EQ(Canonical("CREATE FUNCTION f() CALLED ON NULL INPUT RETURNS text LANGUAGE java AS "
                      "'return \"it''s\";'"),
            "CREATE FUNCTION f() CALLED ON NULL INPUT RETURNS text LANGUAGE java AS $$return "
            "\"it's\";$$");
  EXPECT_EQ(Canonical("CREATE AGGREGATE a(int) SFUNC \"S\" STYPE int INITCOND null"),
            "CREATE AGGREGATE a(int) SFUNC \"S\" STYPE int INITCOND null");
}

TEST(StatementPrinterTest, CanonicalSecurityAndDescribe) {
  EXPECT_EQ(Canonical("create role 'Bob' with login = TRUE and password = 'x'"),
            "CREATE ROLE \"Bob\" WITH PASSWORD = 'x' AND LOGIN = true");
  EXPECT_EQ(Canonical("CREATE USER bob WITH PASSWORD 'p' NOSUPERUSER"),
            "CREATE USER 'bob' WITH PASSWORD 'p' NOSUPERUSER");
  EXPECT_EQ(Canonical("grant all on keyspace ks to bob"),
            "GRANT ALL PERMISSIONS ON KEYSPACE ks TO bob");
  EXPECT_EQ(Canonical("grant modify permission, select on ks.t to bob"),
            "GRANT SELECT, MODIFY ON TABLE ks.t TO bob");
  EXPECT_EQ(Canonical("revoke execute on function f(int, text) from bob"),
            "REVOKE EXECUTE ON FUNCTION f(int, text) FROM bob");
  EXPECT_EQ(Canonical("list all permissions of bob norecursive"),
            "LIST ALL PERMISSIONS OF bob NORECURSIVE");
  EXPECT_EQ(Canonical("desc keyspace"), "DESCRIBE KEYSPACE");
  EXPECT_EQ(Canonical("desc full schema"), "DESCRIBE FULL SCHEMA");
  EXPECT_EQ(Canonical("desc \"tables\""), "DESCRIBE \"tables\"");
  EXPECT_EQ(Canonical("describe ks.t with internals"), "DESCRIBE ks.t WITH INTERNALS");
}

TEST(StatementPrinterTest, PartsPrinters) {
  EXPECT_EQ(ToCql(QualifiedName{"Ks", "t"}), "\"Ks\".t");
  EXPECT_EQ(ToCql(QualifiedName{"", "select"}), "\"select\"");
  EXPECT_EQ(OperatorToCql(Operator::kContainsKey), "CONTAINS KEY");
  EXPECT_EQ(PermissionName(Permission::kAuthorize), "AUTHORIZE");
  Property property{
      "comment",
      PropertyValue{PropertyValue::Kind::kConstant, Constant{ConstantKind::kString, "a'b"}, {}}};
  EXPECT_EQ(ToCql(property), "comment = 'a''b'");
}

TEST(StatementPrinterTest, TypePrintingKeepsKeyspaces) {
  EXPECT_EQ(TypeToCql(CqlType::UdtRef("ks", "addr", true)), "frozen<ks.addr>");
  EXPECT_EQ(TypeToCql(CqlType::Map(CqlType::Text(), CqlType::UdtRef("", "Addr"))),
            "map<text, \"Addr\">");
  EXPECT_EQ(TypeToCql(CqlType::Tuple({CqlType::Int(), CqlType::List(CqlType::Int(), true)})),
            "tuple<int, frozen<list<int>>>");
  EXPECT_EQ(TypeToCql(CqlType::Vector(CqlType::Float(), 4)), "vector<float, 4>");
  EXPECT_EQ(TypeToCql(CqlType::UdtRef("", "date")), "\"date\"");
  EXPECT_EQ(TypeToCql(CqlType::UdtRef("", "key")), "key");
  EXPECT_EQ(CqlFunctionName("token"), "token");
  EXPECT_EQ(CqlFunctionName("count"), "count");
  EXPECT_EQ(CqlFunctionName("ttl"), "\"ttl\"");
  EXPECT_EQ(CqlFunctionName("expr"), "\"expr\"");
  EXPECT_EQ(CqlFunctionName("select"), "\"select\"");
  EXPECT_EQ(CqlFunctionName("text"), "text");
  EXPECT_EQ(CqlIdentifier("false"), "\"false\"");
  EXPECT_EQ(CqlIdentifier("ttl"), "ttl");
}

}  // namespace
}  // namespace cql
