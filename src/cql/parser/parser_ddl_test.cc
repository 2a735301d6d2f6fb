// AST checks for the schema, security, DESCRIBE and script statements. Every statement
// parsed through `ParseAs` is also checked to round-trip through the canonical printer.

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "cql/parser/parser.h"
#include "cql/parser/parser_test_util.h"

namespace cql {
namespace {

using testing::Call;
using testing::ConstantOf;
using testing::Int;
using testing::Marker;
using testing::ParseAs;
using testing::ParseOk;
using testing::Str;

// ---------------------------------------------------------------------------------------
// Schema statements

TEST(ParserDdlTest, CreateKeyspace) {
  auto s = ParseAs<CreateKeyspace>(
      "CREATE KEYSPACE IF NOT EXISTS hotel WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 3} AND durable_writes = false");
  EXPECT_EQ(s.keyspace, "hotel");
  EXPECT_TRUE(s.if_not_exists);
  ASSERT_EQ(s.properties.size(), 2u);
  EXPECT_EQ(s.properties[0].name, "replication");
  EXPECT_EQ(s.properties[0].value.kind, PropertyValue::Kind::kMap);
  ASSERT_EQ(s.properties[0].value.entries.size(), 2u);
  EXPECT_EQ(s.properties[0].value.entries[0].first.text, "class");
  EXPECT_EQ(s.properties[0].value.entries[0].second.text, "SimpleStrategy");
  EXPECT_EQ(s.properties[0].value.entries[1].second, (Constant{ConstantKind::kInteger, "3"}));
  EXPECT_EQ(s.properties[1].value.constant, (Constant{ConstantKind::kBoolean, "false"}));
}

TEST(ParserDdlTest, AlterAndDropKeyspace) {
  auto alter = ParseAs<AlterKeyspace>("ALTER KEYSPACE IF EXISTS ks WITH durable_writes = true");
  EXPECT_TRUE(alter.if_exists);
  EXPECT_EQ(alter.properties.size(), 1u);
  auto drop = ParseAs<DropKeyspace>("DROP KEYSPACE IF EXISTS \"Ks\"");
  EXPECT_EQ(drop.keyspace, "Ks");
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(ParseAs<CreateKeyspace>("CREATE SCHEMA s WITH a = 1").keyspace, "s");
}

TEST(ParserDdlTest, CreateTablePrimaryKeyForms) {
  auto inline_key = ParseAs<CreateTable>("CREATE TABLE t (id text PRIMARY KEY, name text)");
  EXPECT_EQ(inline_key.partition_key, (std::vector<std::string>{"id"}));
  EXPECT_TRUE(inline_key.clustering_columns.empty());
  EXPECT_EQ(inline_key.columns.size(), 2u);

  auto single = ParseAs<CreateTable>("CREATE TABLE t (a int, b int, PRIMARY KEY (a))");
  EXPECT_EQ(single.partition_key, (std::vector<std::string>{"a"}));

  auto composite = ParseAs<CreateTable>(
      "CREATE TABLE t (a int, b int, c int, d int, PRIMARY KEY ((a, b), c, d))");
  EXPECT_EQ(composite.partition_key, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(composite.clustering_columns, (std::vector<std::string>{"c", "d"}));

  auto simple = ParseAs<CreateTable>("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b))");
  EXPECT_EQ(simple.partition_key, (std::vector<std::string>{"a"}));
  EXPECT_EQ(simple.clustering_columns, (std::vector<std::string>{"b"}));

  auto parenthesized = ParseAs<CreateTable>("CREATE TABLE t (a int, b int, PRIMARY KEY ((a), b))");
  EXPECT_EQ(parenthesized.partition_key, (std::vector<std::string>{"a"}));

  auto none = ParseAs<CreateTable>("CREATE TABLE t (a int)");
  EXPECT_TRUE(none.partition_key.empty());
}

TEST(ParserDdlTest, CreateTableColumnsAndOptions) {
  auto s = ParseAs<CreateTable>(
      "CREATE TABLE IF NOT EXISTS ks.t (a int, b text, s set<text> STATIC, m map<text, "
      "frozen<address>>, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC) AND comment = "
      "'hi' AND default_time_to_live = 10 AND caching = {'keys': 'ALL'} AND COMPACT STORAGE AND "
      "speculative_retry = '99PERCENTILE' AND bloom_filter_fp_chance = 0.01");
  EXPECT_TRUE(s.if_not_exists);
  ASSERT_EQ(s.columns.size(), 4u);
  EXPECT_TRUE(s.columns[2].is_static);
  EXPECT_EQ(s.columns[2].type, CqlType::Set(CqlType::Text()));
  EXPECT_EQ(s.columns[3].type, CqlType::Map(CqlType::Text(), CqlType::UdtRef("", "address", true)));
  EXPECT_EQ(s.clustering_order, (std::vector<ClusteringOrder>{{"b", false}}));
  EXPECT_TRUE(s.compact_storage);
  ASSERT_EQ(s.properties.size(), 5u);
  EXPECT_EQ(s.properties[0].name, "comment");
  EXPECT_EQ(s.properties[0].value.constant, (Constant{ConstantKind::kString, "hi"}));
  EXPECT_EQ(s.properties[2].value.kind, PropertyValue::Kind::kMap);
  EXPECT_EQ(s.properties[4].value.constant, (Constant{ConstantKind::kFloat, "0.01"}));
}

TEST(ParserDdlTest, CreateTableKeywordValueAndId) {
  auto s = ParseAs<CreateTable>(
      "CREATE TABLE t (a int PRIMARY KEY) WITH x = static AND ID = "
      "5a1c395e-b41f-11e5-9f22-ba0be0483c18");
  EXPECT_EQ(s.properties[0].value.kind, PropertyValue::Kind::kKeyword);
  EXPECT_EQ(s.properties[0].value.constant.text, "static");
  EXPECT_EQ(s.properties[1].name, "id");
  EXPECT_EQ(s.properties[1].value.constant.kind, ConstantKind::kUuid);
}

TEST(ParserDdlTest, AlterTable) {
  auto add = ParseAs<AlterTable>("ALTER TABLE t ADD (a int, b text STATIC)");
  EXPECT_EQ(add.kind, AlterTable::Kind::kAddColumns);
  ASSERT_EQ(add.added_columns.size(), 2u);
  EXPECT_TRUE(add.added_columns[1].is_static);
  auto add_one = ParseAs<AlterTable>("ALTER TABLE IF EXISTS t ADD IF NOT EXISTS a int");
  EXPECT_TRUE(add_one.if_exists);
  EXPECT_TRUE(add_one.if_column_not_exists);
  auto drop = ParseAs<AlterTable>("ALTER TABLE t DROP (a, b) USING TIMESTAMP -5");
  EXPECT_EQ(drop.kind, AlterTable::Kind::kDropColumns);
  EXPECT_EQ(drop.dropped_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*drop.drop_timestamp, -5);
  auto rename = ParseAs<AlterTable>("ALTER TABLE t RENAME a TO b AND c TO d");
  EXPECT_EQ(rename.renames.size(), 2u);
  EXPECT_EQ(rename.renames[1], (std::pair<std::string, std::string>{"c", "d"}));
  auto with = ParseAs<AlterTable>("ALTER TABLE t WITH comment = 'x'");
  EXPECT_EQ(with.kind, AlterTable::Kind::kWithOptions);
  auto type = ParseAs<AlterTable>("ALTER TABLE t ALTER a TYPE blob");
  EXPECT_EQ(type.kind, AlterTable::Kind::kAlterColumnType);
  EXPECT_EQ(type.type, CqlType::Blob());
  EXPECT_EQ(ParseAs<AlterTable>("ALTER TABLE t DROP COMPACT STORAGE").kind,
            AlterTable::Kind::kDropCompactStorage);
  EXPECT_EQ(ParseAs<AlterTable>("ALTER TABLE t DROP compact").dropped_columns,
            (std::vector<std::string>{"compact"}));
}

TEST(ParserDdlTest, Types) {
  auto create = ParseAs<CreateType>(
      "CREATE TYPE IF NOT EXISTS ks.address (street text, phones frozen<list<text>>)");
  EXPECT_EQ(create.type, (QualifiedName{"ks", "address"}));
  ASSERT_EQ(create.fields.size(), 2u);
  EXPECT_EQ(create.fields[1].type, CqlType::List(CqlType::Text(), true));
  auto add = ParseAs<AlterType>("ALTER TYPE address ADD zip int");
  EXPECT_EQ(add.kind, AlterType::Kind::kAddField);
  EXPECT_EQ(add.field_type, CqlType::Int());
  auto rename = ParseAs<AlterType>("ALTER TYPE address RENAME a TO b AND c TO d");
  EXPECT_EQ(rename.renames.size(), 2u);
  auto alter = ParseAs<AlterType>("ALTER TYPE address ALTER zip TYPE bigint");
  EXPECT_EQ(alter.kind, AlterType::Kind::kAlterFieldType);
  EXPECT_TRUE(ParseAs<DropType>("DROP TYPE IF EXISTS address").if_exists);
}

TEST(ParserDdlTest, Indexes) {
  auto s = ParseAs<CreateIndex>(
      "CREATE CUSTOM INDEX IF NOT EXISTS idx ON ks.t (keys(m), values(s), entries(e), full(f), "
      "c) USING 'org.Idx' WITH OPTIONS = {'mode': 'CONTAINS'}");
  EXPECT_TRUE(s.custom);
  EXPECT_TRUE(s.if_not_exists);
  EXPECT_EQ(s.name, "idx");
  ASSERT_EQ(s.targets.size(), 5u);
  EXPECT_EQ(s.targets[0].kind, IndexTarget::Kind::kKeys);
  EXPECT_EQ(s.targets[1].kind, IndexTarget::Kind::kValues);
  EXPECT_EQ(s.targets[2].kind, IndexTarget::Kind::kEntries);
  EXPECT_EQ(s.targets[3].kind, IndexTarget::Kind::kFull);
  EXPECT_EQ(s.targets[4].kind, IndexTarget::Kind::kSimple);
  EXPECT_EQ(*s.using_class, "org.Idx");
  EXPECT_EQ(s.properties[0].name, "options");
  auto anonymous = ParseAs<CreateIndex>("CREATE INDEX ON t (values)");
  EXPECT_TRUE(anonymous.name.empty());
  EXPECT_EQ(anonymous.targets[0].column, "values");
  auto drop = ParseAs<DropIndex>("DROP INDEX IF EXISTS ks.idx");
  EXPECT_EQ(drop.index, (QualifiedName{"ks", "idx"}));
}

TEST(ParserDdlTest, MaterializedViews) {
  auto s = ParseAs<CreateMaterializedView>(
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT a, b FROM ks.t WHERE a IS NOT NULL "
      "AND b IS NOT NULL PRIMARY KEY ((b), a) WITH CLUSTERING ORDER BY (a DESC) AND comment = "
      "'x'");
  EXPECT_EQ(s.view, (QualifiedName{"ks", "v"}));
  EXPECT_EQ(s.base_table, (QualifiedName{"ks", "t"}));
  EXPECT_EQ(s.selectors.size(), 2u);
  EXPECT_EQ(s.where.size(), 2u);
  EXPECT_EQ(s.where[0].op, Operator::kIsNot);
  EXPECT_EQ(s.partition_key, (std::vector<std::string>{"b"}));
  EXPECT_EQ(s.clustering_columns, (std::vector<std::string>{"a"}));
  EXPECT_EQ(s.clustering_order, (std::vector<ClusteringOrder>{{"a", false}}));
  EXPECT_EQ(s.properties.size(), 1u);
  EXPECT_EQ(ParseAs<AlterMaterializedView>("ALTER MATERIALIZED VIEW v WITH comment = 'y'")
                .properties.size(),
            1u);
  EXPECT_TRUE(ParseAs<DropMaterializedView>("DROP MATERIALIZED VIEW IF EXISTS v").if_exists);
}

TEST(ParserDdlTest, Functions) {
  auto f = ParseAs<CreateFunction>(
      "CREATE OR REPLACE FUNCTION IF NOT EXISTS ks.f(a int, \"B\" list<text>) CALLED ON NULL "
      "INPUT RETURNS text LANGUAGE Java AS $$ return \"x\"; $$");
  EXPECT_TRUE(f.or_replace);
  EXPECT_TRUE(f.if_not_exists);
  EXPECT_EQ(f.function, (QualifiedName{"ks", "f"}));
  EXPECT_EQ(f.argument_names, (std::vector<std::string>{"a", "B"}));
  EXPECT_EQ(f.argument_types[1], CqlType::List(CqlType::Text()));
  EXPECT_TRUE(f.called_on_null_input);
  EXPECT_EQ(f.return_type, CqlType::Text());
  EXPECT_EQ(f.language, "java");
  EXPECT_EQ(f.body, " return \"x\"; ");
  auto g = ParseAs<CreateFunction>(
      "CREATE FUNCTION g() RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return 1;'");
  EXPECT_FALSE(g.called_on_null_input);
  EXPECT_TRUE(g.argument_names.empty());
  auto drop = ParseAs<DropFunction>("DROP FUNCTION IF EXISTS ks.f(int, list<text>)");
  EXPECT_TRUE(drop.arguments_specified);
  EXPECT_EQ(drop.argument_types.size(), 2u);
  EXPECT_FALSE(ParseAs<DropFunction>("DROP FUNCTION f").arguments_specified);
  EXPECT_TRUE(ParseAs<DropFunction>("DROP FUNCTION f()").arguments_specified);
}

TEST(ParserDdlTest, AggregatesAndTriggers) {
  auto a = ParseAs<CreateAggregate>(
      "CREATE AGGREGATE ks.avg2(int) SFUNC acc STYPE tuple<int, bigint> FINALFUNC fin INITCOND "
      "(0, 0)");
  EXPECT_EQ(a.aggregate, (QualifiedName{"ks", "avg2"}));
  EXPECT_EQ(a.argument_types, (std::vector<CqlType>{CqlType::Int()}));
  EXPECT_EQ(a.state_function, "acc");
  EXPECT_EQ(a.state_type, CqlType::Tuple({CqlType::Int(), CqlType::Bigint()}));
  EXPECT_EQ(*a.final_function, "fin");
  EXPECT_EQ(*a.initial_condition, Term(TupleLiteral{{Int("0"), Int("0")}}));
  auto b = ParseAs<CreateAggregate>("CREATE AGGREGATE agg() SFUNC f STYPE int");
  EXPECT_FALSE(b.final_function);
  EXPECT_FALSE(b.initial_condition);
  EXPECT_TRUE(ParseAs<DropAggregate>("DROP AGGREGATE agg(int)").arguments_specified);
  auto t = ParseAs<CreateTrigger>("CREATE TRIGGER IF NOT EXISTS trg ON ks.t USING 'org.Trg'");
  EXPECT_EQ(t.name, "trg");
  EXPECT_EQ(t.using_class, "org.Trg");
  auto dt = ParseAs<DropTrigger>("DROP TRIGGER trg ON t");
  EXPECT_EQ(dt.table, (QualifiedName{"", "t"}));
}

TEST(ParserDdlTest, UseAndTruncate) {
  EXPECT_EQ(ParseAs<Use>("USE \"Ks\"").keyspace, "Ks");
  EXPECT_EQ(ParseAs<Truncate>("TRUNCATE TABLE ks.t").table, (QualifiedName{"ks", "t"}));
  EXPECT_EQ(ParseAs<Truncate>("TRUNCATE t").table, (QualifiedName{"", "t"}));
}

// ---------------------------------------------------------------------------------------
// Security

TEST(ParserAuthTest, Roles) {
  auto create = ParseAs<CreateRole>(
      "CREATE ROLE IF NOT EXISTS 'Bob' WITH PASSWORD = 'pw' AND LOGIN = true AND SUPERUSER = "
      "false AND OPTIONS = {'a': 'b'} AND ACCESS TO DATACENTERS {'dc1', 'dc2'}");
  EXPECT_EQ(create.role, "Bob");
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(*create.options.password, "pw");
  EXPECT_EQ(*create.options.login, true);
  EXPECT_EQ(*create.options.superuser, false);
  EXPECT_EQ(create.options.options->size(), 1u);
  EXPECT_EQ(create.options.datacenter_access, RoleOptions::DatacenterAccess::kListed);
  EXPECT_EQ(create.options.datacenters, (std::vector<std::string>{"dc1", "dc2"}));
  EXPECT_EQ(ParseAs<CreateRole>("CREATE ROLE Bob").role, "bob");
  EXPECT_EQ(ParseAs<CreateRole>("CREATE ROLE \"Bob\"").role, "Bob");
  auto all = ParseAs<AlterRole>("ALTER ROLE bob WITH ACCESS TO ALL DATACENTERS");
  EXPECT_EQ(all.options.datacenter_access, RoleOptions::DatacenterAccess::kAll);
  EXPECT_TRUE(ParseAs<DropRole>("DROP ROLE IF EXISTS bob").if_exists);
}

TEST(ParserAuthTest, Users) {
  auto create = ParseAs<CreateUser>("CREATE USER IF NOT EXISTS Alice WITH PASSWORD 'p' SUPERUSER");
  EXPECT_EQ(create.user, "Alice");  // user names keep their case
  EXPECT_EQ(*create.password, "p");
  EXPECT_EQ(*create.superuser, true);
  auto alter = ParseAs<AlterUser>("ALTER USER 'alice' NOSUPERUSER");
  EXPECT_EQ(*alter.superuser, false);
  EXPECT_FALSE(alter.password);
  EXPECT_EQ(ParseAs<DropUser>("DROP USER alice").user, "alice");
}

TEST(ParserAuthTest, GrantAndRevoke) {
  auto g = ParseAs<Grant>("GRANT SELECT, MODIFY PERMISSION, SELECT ON ks.t TO bob");
  EXPECT_FALSE(g.role_grant);
  EXPECT_FALSE(g.permissions.all);
  EXPECT_EQ(g.permissions.permissions,
            (std::vector<Permission>{Permission::kSelect, Permission::kModify}));
  EXPECT_EQ(g.resource.kind, Resource::Kind::kTable);
  EXPECT_EQ(g.resource.keyspace, "ks");
  EXPECT_EQ(g.grantee, "bob");
  auto all = ParseAs<Grant>("GRANT ALL PERMISSIONS ON ALL KEYSPACES TO bob");
  EXPECT_TRUE(all.permissions.all);
  EXPECT_EQ(all.resource.kind, Resource::Kind::kAllKeyspaces);
  auto role = ParseAs<Grant>("GRANT admin TO bob");
  EXPECT_TRUE(role.role_grant);
  EXPECT_EQ(role.role, "admin");
  auto fn = ParseAs<Grant>("GRANT EXECUTE ON FUNCTION ks.f(int) TO bob");
  EXPECT_EQ(fn.resource.kind, Resource::Kind::kFunction);
  EXPECT_EQ(fn.resource.argument_types, (std::vector<CqlType>{CqlType::Int()}));
  auto fns = ParseAs<Grant>("GRANT EXECUTE ON ALL FUNCTIONS IN KEYSPACE ks TO bob");
  EXPECT_EQ(fns.resource.kind, Resource::Kind::kAllFunctionsInKeyspace);
  auto roles = ParseAs<Grant>("GRANT DESCRIBE ON ALL ROLES TO bob");
  EXPECT_EQ(roles.resource.kind, Resource::Kind::kAllRoles);
  auto mbean = ParseAs<Grant>("GRANT SELECT ON MBEAN 'a:type=b' TO bob");
  EXPECT_EQ(mbean.resource.kind, Resource::Kind::kMBean);
  EXPECT_EQ(mbean.resource.name, "a:type=b");
  auto r = ParseAs<Revoke>("REVOKE ALTER ON ROLE 'Carol' FROM bob");
  EXPECT_EQ(r.resource.kind, Resource::Kind::kRole);
  EXPECT_EQ(r.resource.name, "Carol");
  EXPECT_EQ(r.revokee, "bob");
  auto rr = ParseAs<Revoke>("REVOKE admin FROM bob");
  EXPECT_TRUE(rr.role_revoke);
  // `all` as a role name, and as a table name.
  EXPECT_EQ(ParseAs<Grant>("GRANT all TO bob").role, "all");
  EXPECT_EQ(ParseAs<Grant>("GRANT SELECT ON all TO bob").resource.name, "all");
}

TEST(ParserAuthTest, Lists) {
  auto roles = ParseAs<ListRoles>("LIST ROLES OF bob NORECURSIVE");
  EXPECT_EQ(*roles.of_role, "bob");
  EXPECT_FALSE(roles.recursive);
  EXPECT_TRUE(ParseAs<ListRoles>("LIST ROLES").recursive);
  ParseAs<ListUsers>("LIST USERS");
  auto perms = ParseAs<ListPermissions>("LIST SELECT ON KEYSPACE ks OF bob NORECURSIVE");
  EXPECT_EQ(perms.permissions.permissions, (std::vector<Permission>{Permission::kSelect}));
  EXPECT_EQ(perms.resource->kind, Resource::Kind::kKeyspace);
  EXPECT_EQ(*perms.of_role, "bob");
  EXPECT_FALSE(perms.recursive);
  auto all = ParseAs<ListPermissions>("LIST ALL");
  EXPECT_TRUE(all.permissions.all);
  EXPECT_FALSE(all.resource);
}

// ---------------------------------------------------------------------------------------
// DESCRIBE

TEST(ParserDescribeTest, Forms) {
  struct Case {
    const char* text;
    Describe::Kind kind;
    QualifiedName name;
  };
  const Case cases[] = {
      {"DESCRIBE CLUSTER", Describe::Kind::kCluster, {}},
      {"DESC SCHEMA", Describe::Kind::kSchema, {}},
      {"DESCRIBE KEYSPACES", Describe::Kind::kKeyspaces, {}},
      {"DESCRIBE KEYSPACE", Describe::Kind::kKeyspace, {}},
      {"DESCRIBE KEYSPACE ks", Describe::Kind::kKeyspace, {"ks", ""}},
      {"DESCRIBE TABLES", Describe::Kind::kTables, {}},
      {"DESCRIBE TABLE ks.t", Describe::Kind::kTable, {"ks", "t"}},
      {"DESCRIBE COLUMNFAMILY t", Describe::Kind::kTable, {"", "t"}},
      {"DESCRIBE INDEX ks.i", Describe::Kind::kIndex, {"ks", "i"}},
      {"DESCRIBE MATERIALIZED VIEW v", Describe::Kind::kMaterializedView, {"", "v"}},
      {"DESCRIBE TYPES", Describe::Kind::kTypes, {}},
      {"DESCRIBE TYPE ks.a", Describe::Kind::kType, {"ks", "a"}},
      {"DESCRIBE FUNCTIONS", Describe::Kind::kFunctions, {}},
      {"DESCRIBE FUNCTION ks.f", Describe::Kind::kFunction, {"ks", "f"}},
      {"DESCRIBE AGGREGATES", Describe::Kind::kAggregates, {}},
      {"DESCRIBE AGGREGATE a", Describe::Kind::kAggregate, {"", "a"}},
      {"DESCRIBE ks", Describe::Kind::kGeneric, {"", "ks"}},
      {"DESC ks.t", Describe::Kind::kGeneric, {"ks", "t"}},
      {"DESC type", Describe::Kind::kGeneric, {"", "type"}},
      {"DESC function.x", Describe::Kind::kGeneric, {"function", "x"}},
  };
  for (const Case& c : cases) {
    auto d = ParseAs<Describe>(c.text);
    EXPECT_EQ(d.kind, c.kind) << c.text;
    EXPECT_EQ(d.name, c.name) << c.text;
    EXPECT_FALSE(d.with_internals) << c.text;
  }
  EXPECT_TRUE(ParseAs<Describe>("DESCRIBE FULL SCHEMA").full);
  auto only = ParseAs<Describe>("DESCRIBE ONLY KEYSPACE ks WITH INTERNALS");
  EXPECT_TRUE(only.only);
  EXPECT_TRUE(only.with_internals);
  EXPECT_EQ(only.name.keyspace, "ks");
}

// ---------------------------------------------------------------------------------------
// Scripts and bind markers

TEST(ParserScriptTest, SplitsStatements) {
  auto script = ParseScript(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'};\n"
      ";; -- empty ones\n"
      "BEGIN BATCH INSERT INTO t (a) VALUES (?); APPLY BATCH;\n"
      "SELECT * FROM t WHERE a = ?");
  ASSERT_TRUE(script.ok()) << script.status().ToString();
  ASSERT_EQ(script->size(), 3u);
  EXPECT_TRUE(std::holds_alternative<CreateKeyspace>((*script)[0]));
  EXPECT_TRUE(std::holds_alternative<Batch>((*script)[1]));
  EXPECT_EQ(BindMarkerCount((*script)[1]), 1);
  EXPECT_EQ(BindMarkerCount((*script)[2]), 1);  // numbering restarts per statement
  EXPECT_TRUE(ParseScript("")->empty());
  EXPECT_TRUE(ParseScript(" ; -- nothing\n")->empty());
}

TEST(ParserScriptTest, ErrorsAreRelativeToTheScript) {
  auto script = ParseScript("SELECT * FROM t;\nSELECT * FROM;");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.status().message().rfind("line 2:13 ", 0), 0u) << script.status().message();
  script = ParseScript("SELECT * FROM t SELECT * FROM u");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.status().message().rfind("line 1:16 mismatched input 'SELECT' expecting ';'", 0),
            0u)
      << script.status().message();
}

TEST(ParserBindMarkerTest, CountsAndNames) {
  Statement s = ParseOk("SELECT * FROM t WHERE a = ? AND b = :x AND c IN ? AND d IN (?, :\"Y\")");
  EXPECT_EQ(BindMarkerCount(s), 5);
  EXPECT_EQ(BindMarkerNames(s), (std::vector<std::string>{"", "x", "", "", "Y"}));
  EXPECT_EQ(BindMarkerCount(ParseOk("SELECT * FROM t")), 0);
  EXPECT_EQ(BindMarkerCount(ParseOk("SELECT * FROM t LIMIT ?")), 1);
}

}  // namespace
}  // namespace cql
