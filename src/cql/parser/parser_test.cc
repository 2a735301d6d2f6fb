// AST checks for the statements the parser accepts. Every statement parsed through
// `ParseAs` is also checked to round-trip through the canonical printer.

#include "cql/parser/parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

#include "cql/parser/parser_internal.h"
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
// SELECT

TEST(ParserSelectTest, Star) {
  auto s = ParseAs<Select>("SELECT * FROM t");
  EXPECT_TRUE(s.selectors.empty());
  EXPECT_EQ(s.table, (QualifiedName{"", "t"}));
  EXPECT_TRUE(s.where.empty());
  EXPECT_FALSE(s.json);
  EXPECT_FALSE(s.distinct);
  EXPECT_FALSE(s.limit);
  EXPECT_FALSE(s.allow_filtering);
  EXPECT_TRUE(s.bind_marker_names.empty());
}

TEST(ParserTest, AsciiLowerLowersOnlyAsciiLetters) {
  EXPECT_EQ(internal::AsciiLower(""), "");
  EXPECT_EQ(internal::AsciiLower("AbCdEfGhIjKlMnOpQrStUvWxYz@[`{_09"),
            "abcdefghijklmnopqrstuvwxyz@[`{_09");
  EXPECT_EQ(internal::AsciiLower("\xC1\xDA\xC3\x80\xFF\xE2\x80\x98Q"),
            "\xC1\xDA\xC3\x80\xFF\xE2\x80\x98q");
  // Against a byte-by-byte reference, on every length around the 8-byte steps.
  std::mt19937 random(7);
  for (size_t size = 0; size < 40; ++size) {
    for (int round = 0; round < 50; ++round) {
      std::string text;
      std::string expected;
      for (size_t i = 0; i < size; ++i) {
        char c = static_cast<char>(random() % 256);
        text += c;
        expected += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      }
      EXPECT_EQ(internal::AsciiLower(text), expected);
      std::string into = "previous content";
      internal::AsciiLowerInto(text, &into);
      EXPECT_EQ(into, expected);
    }
  }
}

TEST(ParserSelectTest, LongIdentifiersAreCaseFolded) {
  auto s = ParseAs<Select>(
      "SELECT Available_Rooms_By_HOTEL_Date, \"Available_Rooms\" FROM HOTEL.Rooms_By_Date_2016 "
      "WHERE HOTEL_ID = 'AZ123'");
  ASSERT_EQ(s.selectors.size(), 2u);
  EXPECT_EQ(s.selectors[0].expression.name, "available_rooms_by_hotel_date");
  EXPECT_EQ(s.selectors[1].expression.name, "Available_Rooms");
  EXPECT_EQ(s.table, (QualifiedName{"hotel", "rooms_by_date_2016"}));
  ASSERT_EQ(s.where.size(), 1u);
  EXPECT_EQ(s.where[0].columns, (std::vector<std::string>{"hotel_id"}));
  EXPECT_EQ(ConstantOf(s.where[0].value).text, "AZ123");
}

TEST(ParserTest, TermFromAnAlternative) {
  Term direct = Constant{ConstantKind::kInteger, "1"};
  Term through_variant(Term::Variant(Constant{ConstantKind::kInteger, "1"}));
  EXPECT_EQ(direct, through_variant);
  EXPECT_EQ(direct, Int("1"));
  Term null = NullLiteral{};
  EXPECT_TRUE(std::holds_alternative<NullLiteral>(null.value));
  BindMarker marker{2, "m"};
  Term copied(marker);  // from an lvalue: a copy
  EXPECT_EQ(marker.name, "m");
  EXPECT_EQ(copied, Marker(2, "m"));
}

TEST(ParserSelectTest, TrailingSemicolonsAndComments) {
  auto s = ParseAs<Select>("  -- leading\n select * FROM ks.t ;;; /* done */ ");
  EXPECT_EQ(s.table, (QualifiedName{"ks", "t"}));
}

TEST(ParserSelectTest, IdentifiersAreCaseFolded) {
  auto s = ParseAs<Select>("SELECT MyCol, \"MyCol\", \"a\"\"b\" FROM Ks.\"Tab\"");
  ASSERT_EQ(s.selectors.size(), 3u);
  EXPECT_EQ(s.selectors[0].expression.name, "mycol");
  EXPECT_EQ(s.selectors[1].expression.name, "MyCol");
  EXPECT_EQ(s.selectors[2].expression.name, "a\"b");
  EXPECT_EQ(s.table, (QualifiedName{"ks", "Tab"}));
}

TEST(ParserSelectTest, UnreservedKeywordsAsColumnNames) {
  auto s = ParseAs<Select>(
      "SELECT key, type, TTL, timestamp, date, count, list, map, values, json FROM t WHERE "
      "date = 1 AND key = 2");
  ASSERT_EQ(s.selectors.size(), 10u);
  EXPECT_EQ(s.selectors[0].expression.name, "key");
  EXPECT_EQ(s.selectors[2].expression.name, "ttl");
  EXPECT_EQ(s.selectors[2].expression.kind, Selectable::Kind::kColumn);
  EXPECT_EQ(s.selectors[5].expression.kind, Selectable::Kind::kColumn);
  EXPECT_EQ(s.where[0].columns[0], "date");
}

TEST(ParserSelectTest, JsonAndDistinct) {
  auto s = ParseAs<Select>("SELECT JSON DISTINCT a FROM t");
  EXPECT_TRUE(s.json);
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.selectors.size(), 1u);
  EXPECT_EQ(s.selectors[0].expression.name, "a");
  // `json` alone is a column.
  s = ParseAs<Select>("SELECT json FROM t");
  EXPECT_FALSE(s.json);
  ASSERT_EQ(s.selectors.size(), 1u);
  EXPECT_EQ(s.selectors[0].expression.name, "json");
  s = ParseAs<Select>("SELECT distinct, json FROM t");
  EXPECT_FALSE(s.distinct);
  EXPECT_EQ(s.selectors.size(), 2u);
  s = ParseAs<Select>("SELECT JSON * FROM t");
  EXPECT_TRUE(s.json);
  EXPECT_TRUE(s.selectors.empty());
}

TEST(ParserSelectTest, Aliases) {
  auto s = ParseAs<Select>("SELECT a AS x, count(*) AS \"N\", b AS key FROM t");
  EXPECT_EQ(s.selectors[0].alias, "x");
  EXPECT_EQ(s.selectors[1].alias, "N");
  EXPECT_EQ(s.selectors[2].alias, "key");
}

TEST(ParserSelectTest, SpecialSelectors) {
  auto s = ParseAs<Select>(
      "SELECT count(*), count(1), writetime(a), ttl(b), CAST(c AS text), token(d, e) FROM t");
  ASSERT_EQ(s.selectors.size(), 6u);
  EXPECT_EQ(s.selectors[0].expression.kind, Selectable::Kind::kCountRows);
  const Selectable& count1 = s.selectors[1].expression;
  EXPECT_EQ(count1.kind, Selectable::Kind::kFunction);
  EXPECT_EQ(count1.name, "count");
  ASSERT_EQ(count1.args.size(), 1u);
  EXPECT_EQ(count1.args[0].kind, Selectable::Kind::kTerm);
  EXPECT_EQ(*count1.args[0].term, Int("1"));
  EXPECT_EQ(s.selectors[2].expression.kind, Selectable::Kind::kWritetime);
  EXPECT_EQ(s.selectors[2].expression.args[0].name, "a");
  EXPECT_EQ(s.selectors[3].expression.kind, Selectable::Kind::kTtl);
  EXPECT_EQ(s.selectors[4].expression.kind, Selectable::Kind::kCast);
  EXPECT_EQ(*s.selectors[4].expression.type, CqlType::Text());
  EXPECT_EQ(s.selectors[5].expression.kind, Selectable::Kind::kFunction);
  EXPECT_EQ(s.selectors[5].expression.name, "token");
  EXPECT_EQ(s.selectors[5].expression.args.size(), 2u);
}

TEST(ParserSelectTest, FunctionSelectors) {
  auto s = ParseAs<Select>("SELECT ks.fn(a, 1), f(g(h())), \"MyFn\"() FROM t");
  const Selectable& f = s.selectors[0].expression;
  EXPECT_EQ(f.kind, Selectable::Kind::kFunction);
  EXPECT_EQ(f.keyspace, "ks");
  EXPECT_EQ(f.name, "fn");
  ASSERT_EQ(f.args.size(), 2u);
  EXPECT_EQ(f.args[0].kind, Selectable::Kind::kColumn);
  const Selectable& nested = s.selectors[1].expression;
  EXPECT_EQ(nested.args[0].name, "g");
  EXPECT_EQ(nested.args[0].args[0].name, "h");
  EXPECT_TRUE(nested.args[0].args[0].args.empty());
  EXPECT_EQ(s.selectors[2].expression.name, "MyFn");
}

TEST(ParserSelectTest, ElementSliceAndField) {
  auto s = ParseAs<Select>("SELECT m['k'], s[1..3], s[..?], s[2..], addr.city, m['k'].f FROM t");
  const Selectable& element = s.selectors[0].expression;
  EXPECT_EQ(element.kind, Selectable::Kind::kElement);
  EXPECT_EQ(element.args[0].name, "m");
  EXPECT_EQ(*element.term, Str("k"));
  const Selectable& slice = s.selectors[1].expression;
  EXPECT_EQ(slice.kind, Selectable::Kind::kSlice);
  EXPECT_EQ(*slice.term, Int("1"));
  EXPECT_EQ(*slice.term2, Int("3"));
  EXPECT_FALSE(s.selectors[2].expression.term);
  EXPECT_TRUE(s.selectors[2].expression.term2);
  EXPECT_TRUE(s.selectors[3].expression.term);
  EXPECT_FALSE(s.selectors[3].expression.term2);
  const Selectable& field = s.selectors[4].expression;
  EXPECT_EQ(field.kind, Selectable::Kind::kField);
  EXPECT_EQ(field.name, "city");
  EXPECT_EQ(field.args[0].name, "addr");
  EXPECT_EQ(s.selectors[5].expression.kind, Selectable::Kind::kField);
  EXPECT_EQ(s.selectors[5].expression.args[0].kind, Selectable::Kind::kElement);
}

TEST(ParserSelectTest, SliceBoundsAreTerms) {
  // A bound is a term (literal, marker, function call), not a column.
  EXPECT_FALSE(ParseStatement("SELECT s[..x] FROM t").ok());
  EXPECT_TRUE(ParseStatement("SELECT s[..now()] FROM t").ok());
}

TEST(ParserSelectTest, LiteralsAndHintsAsSelectors) {
  auto s = ParseAs<Select>("SELECT 1, 'a', null, ?, :n, (int) 3, [1, a], {1}, {'k': v}, {} FROM t");
  EXPECT_EQ(s.selectors[0].expression.kind, Selectable::Kind::kTerm);
  EXPECT_EQ(*s.selectors[2].expression.term, Term(NullLiteral{}));
  EXPECT_EQ(*s.selectors[3].expression.term, Marker(0));
  EXPECT_EQ(*s.selectors[4].expression.term, Marker(1, "n"));
  EXPECT_EQ(s.selectors[5].expression.kind, Selectable::Kind::kTypeHint);
  EXPECT_EQ(*s.selectors[5].expression.type, CqlType::Int());
  EXPECT_EQ(s.selectors[6].expression.kind, Selectable::Kind::kList);
  EXPECT_EQ(s.selectors[6].expression.args[1].kind, Selectable::Kind::kColumn);
  EXPECT_EQ(s.selectors[7].expression.kind, Selectable::Kind::kSet);
  EXPECT_EQ(s.selectors[8].expression.kind, Selectable::Kind::kMap);
  EXPECT_EQ(s.selectors[8].expression.args.size(), 2u);
  EXPECT_EQ(s.selectors[9].expression.kind, Selectable::Kind::kSet);
  EXPECT_EQ(s.bind_marker_names, (std::vector<std::string>{"", "n"}));
}

TEST(ParserSelectTest, ArithmeticSelectors) {
  auto s = ParseAs<Select>("SELECT a + b * c, (a + b) * c, - a FROM t");
  const Selectable& sum = s.selectors[0].expression;
  EXPECT_EQ(sum.keyspace, "system");
  EXPECT_EQ(sum.name, "_add");
  EXPECT_EQ(sum.args[1].name, "_multiply");
  const Selectable& product = s.selectors[1].expression;
  EXPECT_EQ(product.name, "_multiply");
  EXPECT_EQ(product.args[0].kind, Selectable::Kind::kTuple);
  EXPECT_EQ(s.selectors[2].expression.name, "_negate");
}

TEST(ParserSelectTest, WhereRelations) {
  auto s = ParseAs<Select>(
      "SELECT * FROM t WHERE a = 1 AND b > ? AND c IN (1, 2) AND d CONTAINS 'x' AND e CONTAINS "
      "KEY 'k' AND f LIKE 'a%' AND g IS NOT NULL AND h IN ? AND m['k'] <= :v");
  ASSERT_EQ(s.where.size(), 9u);
  EXPECT_EQ(s.where[0].kind, Relation::Kind::kColumn);
  EXPECT_EQ(s.where[0].op, Operator::kEq);
  EXPECT_EQ(s.where[0].value, Int("1"));
  EXPECT_EQ(s.where[1].op, Operator::kGt);
  EXPECT_EQ(s.where[1].value, Marker(0));
  EXPECT_EQ(s.where[2].op, Operator::kIn);
  EXPECT_TRUE(s.where[2].in_list);
  EXPECT_EQ(s.where[2].in_values, (std::vector<Term>{Int("1"), Int("2")}));
  EXPECT_EQ(s.where[3].op, Operator::kContains);
  EXPECT_EQ(s.where[4].op, Operator::kContainsKey);
  EXPECT_EQ(s.where[5].op, Operator::kLike);
  EXPECT_EQ(s.where[6].op, Operator::kIsNot);
  EXPECT_EQ(s.where[6].value, Term(NullLiteral{}));
  EXPECT_EQ(s.where[7].op, Operator::kIn);
  EXPECT_FALSE(s.where[7].in_list);
  EXPECT_EQ(s.where[7].value, Marker(1));
  EXPECT_EQ(*s.where[8].map_key, Str("k"));
  EXPECT_EQ(s.where[8].op, Operator::kLte);
  EXPECT_EQ(s.where[8].value, Marker(2, "v"));
  EXPECT_EQ(s.bind_marker_names, (std::vector<std::string>{"", "", "v"}));
}

TEST(ParserSelectTest, EmptyInList) {
  auto s = ParseAs<Select>("SELECT * FROM t WHERE a IN ()");
  EXPECT_TRUE(s.where[0].in_list);
  EXPECT_TRUE(s.where[0].in_values.empty());
}

TEST(ParserSelectTest, MultiColumnRelations) {
  auto s = ParseAs<Select>(
      "SELECT * FROM t WHERE (a, b) > (1, 2) AND (a, b) IN ((1, 2), (3, 4)) AND (c, d) < ? AND "
      "(c, d) IN (?, ?) AND (e) IN ? AND (a, b) IN ()");
  ASSERT_EQ(s.where.size(), 6u);
  EXPECT_EQ(s.where[0].kind, Relation::Kind::kMultiColumn);
  EXPECT_EQ(s.where[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.where[0].value, Term(TupleLiteral{{Int("1"), Int("2")}}));
  EXPECT_TRUE(s.where[1].in_list);
  ASSERT_EQ(s.where[1].in_values.size(), 2u);
  EXPECT_EQ(s.where[1].in_values[1], Term(TupleLiteral{{Int("3"), Int("4")}}));
  EXPECT_EQ(s.where[2].value, Marker(0));
  EXPECT_EQ(s.where[3].in_values, (std::vector<Term>{Marker(1), Marker(2)}));
  EXPECT_FALSE(s.where[4].in_list);
  EXPECT_EQ(s.where[4].value, Marker(3));
  EXPECT_TRUE(s.where[5].in_list);
  EXPECT_TRUE(s.where[5].in_values.empty());
}

TEST(ParserSelectTest, TokenRelations) {
  auto s = ParseAs<Select>(
      "SELECT * FROM t WHERE token(a, b) > token(?, ?) AND token(a, b) <= ? AND token(a) = 5");
  ASSERT_EQ(s.where.size(), 3u);
  EXPECT_EQ(s.where[0].kind, Relation::Kind::kToken);
  EXPECT_EQ(s.where[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.where[0].value, Call("", "token", {Marker(0), Marker(1)}));
  EXPECT_EQ(s.where[1].value, Marker(2));
  EXPECT_EQ(s.where[2].value, Int("5"));
}

TEST(ParserSelectTest, ParenthesizedRelationsAndCustomIndex) {
  auto s = ParseAs<Select>("SELECT * FROM t WHERE (a = 1) AND expr(my_idx, 'q')");
  ASSERT_EQ(s.where.size(), 2u);
  EXPECT_EQ(s.where[0].kind, Relation::Kind::kColumn);
  EXPECT_EQ(s.where[0].columns[0], "a");
  EXPECT_EQ(s.where[1].kind, Relation::Kind::kCustomIndex);
  EXPECT_EQ(s.where[1].columns[0], "my_idx");
  EXPECT_EQ(s.where[1].value, Str("q"));
}

TEST(ParserSelectTest, Clauses) {
  auto s = ParseAs<Select>(
      "SELECT a FROM t WHERE a = 1 GROUP BY a, b ORDER BY b DESC, c ASC, d PER PARTITION LIMIT "
      "2 LIMIT ? ALLOW FILTERING");
  EXPECT_EQ(s.group_by, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_TRUE(s.order_by[0].descending);
  EXPECT_FALSE(s.order_by[1].descending);
  EXPECT_FALSE(s.order_by[2].descending);
  EXPECT_EQ(*s.per_partition_limit, Int("2"));
  EXPECT_EQ(*s.limit, Marker(0));
  EXPECT_TRUE(s.allow_filtering);
}

// ---------------------------------------------------------------------------------------
// Terms

TEST(ParserTermTest, Constants) {
  auto s = ParseAs<Select>(
      "SELECT * FROM t WHERE a = 'it''s' AND b = $$x'y$$ AND c = -12 AND d = 1.5e3 AND e = TRUE "
      "AND f = 0xCaFe AND g = 123e4567-e89b-12d3-a456-426614174000 AND h = 1h30m AND i = NaN "
      "AND j = -NaN AND k = Infinity AND l = -Infinity AND m = P1DT2H");
  auto constant = [&](int i) { return ConstantOf(s.where[i].value); };
  EXPECT_EQ(constant(0), (Constant{ConstantKind::kString, "it's"}));
  EXPECT_EQ(constant(1), (Constant{ConstantKind::kString, "x'y"}));
  EXPECT_EQ(constant(2), (Constant{ConstantKind::kInteger, "-12"}));
  EXPECT_EQ(constant(3), (Constant{ConstantKind::kFloat, "1.5e3"}));
  EXPECT_EQ(constant(4), (Constant{ConstantKind::kBoolean, "true"}));
  EXPECT_EQ(constant(5), (Constant{ConstantKind::kHex, "CaFe"}));
  EXPECT_EQ(constant(6), (Constant{ConstantKind::kUuid, "123e4567-e89b-12d3-a456-426614174000"}));
  EXPECT_EQ(constant(7), (Constant{ConstantKind::kDuration, "1h30m"}));
  EXPECT_EQ(constant(8), (Constant{ConstantKind::kFloat, "NaN"}));
  EXPECT_EQ(constant(9), (Constant{ConstantKind::kFloat, "NaN"}));
  EXPECT_EQ(constant(10), (Constant{ConstantKind::kFloat, "Infinity"}));
  EXPECT_EQ(constant(11), (Constant{ConstantKind::kFloat, "-Infinity"}));
  EXPECT_EQ(constant(12), (Constant{ConstantKind::kDuration, "P1DT2H"}));
}

TEST(ParserTermTest, Collections) {
  auto term = ParseTerm("[1, 'a', [2]]");
  ASSERT_TRUE(term.ok()) << term.status().ToString();
  const auto& list = std::get<CollectionLiteral>(term->value);
  EXPECT_EQ(list.kind, CollectionLiteral::Kind::kList);
  EXPECT_EQ(list.elements.size(), 3u);

  term = ParseTerm("{1, 2}");
  EXPECT_EQ(std::get<CollectionLiteral>(term->value).kind, CollectionLiteral::Kind::kSet);

  term = ParseTerm("{'a': 1, 'b': 2}");
  const auto& map = std::get<CollectionLiteral>(term->value);
  EXPECT_EQ(map.kind, CollectionLiteral::Kind::kMap);
  EXPECT_EQ(map.keys, (std::vector<Term>{Str("a"), Str("b")}));
  EXPECT_EQ(map.elements, (std::vector<Term>{Int("1"), Int("2")}));

  term = ParseTerm("{}");
  EXPECT_EQ(std::get<CollectionLiteral>(term->value).kind, CollectionLiteral::Kind::kMap);
  EXPECT_TRUE(std::get<CollectionLiteral>(term->value).elements.empty());

  term = ParseTerm("[]");
  EXPECT_TRUE(std::get<CollectionLiteral>(term->value).elements.empty());
}

TEST(ParserTermTest, UdtTupleAndHints) {
  auto term = ParseTerm("{street: 'x', \"Zip\": 1, key: null}");
  ASSERT_TRUE(term.ok());
  const auto& udt = std::get<UdtLiteral>(term->value);
  EXPECT_EQ(udt.field_names, (std::vector<std::string>{"street", "Zip", "key"}));
  EXPECT_EQ(udt.values[2], Term(NullLiteral{}));

  term = ParseTerm("(1, 'a', (2))");
  const auto& tuple = std::get<TupleLiteral>(term->value);
  EXPECT_EQ(tuple.elements.size(), 3u);
  EXPECT_EQ(tuple.elements[2], Term(TupleLiteral{{Int("2")}}));

  term = ParseTerm("(bigint) 3");
  const auto& hint = std::get<TypeHint>(term->value);
  EXPECT_EQ(hint.type, CqlType::Bigint());
  EXPECT_EQ(*hint.term, Int("3"));

  term = ParseTerm("(frozen<ks.addr>) ?");
  const auto& udt_hint = std::get<TypeHint>(term->value);
  EXPECT_EQ(udt_hint.type, CqlType::UdtRef("ks", "addr", true));

  term = ParseTerm("('custom.Type') 'x'");
  EXPECT_EQ(std::get<TypeHint>(term->value).type, CqlType::Custom("custom.Type"));
  term = ParseTerm("('notahint')");
  EXPECT_TRUE(std::holds_alternative<TupleLiteral>(term->value));
}

TEST(ParserTermTest, FunctionCalls) {
  auto term = ParseTerm("toTimestamp(now())");
  ASSERT_TRUE(term.ok());
  EXPECT_EQ(*term, Call("", "totimestamp", {Call("", "now", {})}));
  term = ParseTerm("ks.\"MyFn\"(1, ?)");
  EXPECT_EQ(*term, Call("ks", "MyFn", {Int("1"), Marker(0)}));
  term = ParseTerm("fromJson('{}')");
  EXPECT_EQ(*term, Call("", "fromjson", {Str("{}")}));
  term = ParseTerm("token(1)");
  EXPECT_EQ(*term, Call("", "token", {Int("1")}));
  term = ParseTerm("text(1)");  // native type names are function names too
  EXPECT_EQ(*term, Call("", "text", {Int("1")}));
}

TEST(ParserTermTest, Arithmetic) {
  auto term = ParseTerm("1 + 2 * 3");
  ASSERT_TRUE(term.ok());
  EXPECT_EQ(*term,
            Call("system", "_add", {Int("1"), Call("system", "_multiply", {Int("2"), Int("3")})}));
  term = ParseTerm("1 - 2 - 3");
  EXPECT_EQ(*term, Call("system", "_substract",
                        {Call("system", "_substract", {Int("1"), Int("2")}), Int("3")}));
  term = ParseTerm("- ?");
  EXPECT_EQ(*term, Call("system", "_negate", {Marker(0)}));
  term = ParseTerm("8 / 2 % 3");
  EXPECT_EQ(*term,
            Call("system", "_modulo", {Call("system", "_divide", {Int("8"), Int("2")}), Int("3")}));
  term = ParseTerm("CAST(1 AS text)");
  EXPECT_EQ(*term, Call("system", "castAsText", {Int("1")}));
}

TEST(ParserTermTest, ParseTypeForms) {
  EXPECT_EQ(*ParseType("int"), CqlType::Int());
  EXPECT_EQ(*ParseType("VARCHAR"), CqlType::Text());
  EXPECT_EQ(*ParseType("map<text, frozen<address>>"),
            CqlType::Map(CqlType::Text(), CqlType::UdtRef("", "address", true)));
  EXPECT_EQ(*ParseType("list<frozen<list<int>>>"),
            CqlType::List(CqlType::List(CqlType::Int(), true)));
  EXPECT_EQ(*ParseType("frozen<set<uuid>>"), CqlType::Set(CqlType::Uuid(), true));
  EXPECT_EQ(*ParseType("tuple<int, text>"), CqlType::Tuple({CqlType::Int(), CqlType::Text()}));
  EXPECT_EQ(*ParseType("frozen<tuple<int>>"), CqlType::Tuple({CqlType::Int()}));
  EXPECT_EQ(*ParseType("vector<float, 3>"), CqlType::Vector(CqlType::Float(), 3));
  EXPECT_EQ(*ParseType("ks.addr"), CqlType::UdtRef("ks", "addr"));
  EXPECT_EQ(*ParseType("\"Addr\""), CqlType::UdtRef("", "Addr"));
  EXPECT_EQ(*ParseType("'org.Foo'"), CqlType::Custom("org.Foo"));
  EXPECT_EQ(*ParseType("key"), CqlType::UdtRef("", "key"));
  EXPECT_EQ(*ParseType("list"), CqlType::UdtRef("", "list"));  // `list` without <> is a UDT
  EXPECT_EQ(*ParseType("date.t"), CqlType::UdtRef("date", "t"));
  EXPECT_EQ(*ParseType("counter"), CqlType::Counter());
}

// ---------------------------------------------------------------------------------------
// INSERT / UPDATE / DELETE / BATCH

TEST(ParserInsertTest, Values) {
  auto s = ParseAs<Insert>(
      "INSERT INTO ks.t (a, \"B\", c) VALUES (1, ?, :c) IF NOT EXISTS USING TTL 10 AND "
      "TIMESTAMP ?");
  EXPECT_EQ(s.table, (QualifiedName{"ks", "t"}));
  EXPECT_EQ(s.columns, (std::vector<std::string>{"a", "B", "c"}));
  EXPECT_EQ(s.values, (std::vector<Term>{Int("1"), Marker(0), Marker(1, "c")}));
  EXPECT_TRUE(s.if_not_exists);
  EXPECT_EQ(*s.using_attributes.ttl, Int("10"));
  EXPECT_EQ(*s.using_attributes.timestamp, Marker(2));
  EXPECT_FALSE(s.json);
  EXPECT_EQ(s.bind_marker_names, (std::vector<std::string>{"", "c", ""}));
}

TEST(ParserInsertTest, Json) {
  auto s = ParseAs<Insert>("INSERT INTO t JSON '{\"a\": 1}' DEFAULT UNSET IF NOT EXISTS");
  EXPECT_TRUE(s.json);
  EXPECT_EQ(s.json_value, Str("{\"a\": 1}"));
  EXPECT_TRUE(s.default_unset);
  EXPECT_TRUE(s.if_not_exists);
  s = ParseAs<Insert>("INSERT INTO t JSON ? DEFAULT NULL");
  EXPECT_EQ(s.json_value, Marker(0));
  EXPECT_FALSE(s.default_unset);
  EXPECT_EQ(s.bind_marker_names.size(), 1u);
}

TEST(ParserUpdateTest, Operations) {
  auto s = ParseAs<Update>(
      "UPDATE t USING TTL 5 SET a = 1, b = b + [1], c = [0] + c, d = d - {2}, m['k'] = 'v', "
      "u.f = 3, n += 1, o -= 2, p = p -3 WHERE k = ?");
  ASSERT_EQ(s.operations.size(), 9u);
  EXPECT_EQ(*s.using_attributes.ttl, Int("5"));
  EXPECT_EQ(s.operations[0].kind, Operation::Kind::kSet);
  EXPECT_EQ(s.operations[0].value, Int("1"));
  EXPECT_EQ(s.operations[1].kind, Operation::Kind::kAdd);
  EXPECT_EQ(s.operations[2].kind, Operation::Kind::kPrepend);
  EXPECT_EQ(s.operations[2].column, "c");
  EXPECT_EQ(s.operations[3].kind, Operation::Kind::kSubtract);
  EXPECT_EQ(s.operations[4].kind, Operation::Kind::kSetElement);
  EXPECT_EQ(*s.operations[4].key, Str("k"));
  EXPECT_EQ(s.operations[5].kind, Operation::Kind::kSetField);
  EXPECT_EQ(s.operations[5].field, "f");
  EXPECT_EQ(s.operations[6].kind, Operation::Kind::kAdd);
  EXPECT_EQ(s.operations[7].kind, Operation::Kind::kSubtract);
  EXPECT_EQ(s.operations[8].kind, Operation::Kind::kAdd);
  EXPECT_EQ(s.operations[8].value, Int("-3"));
  EXPECT_EQ(s.where[0].value, Marker(0));
}

TEST(ParserUpdateTest, CounterAndCompatibleOperations) {
  auto s = ParseAs<Update>(
      "UPDATE t SET c = c + 1, m['a'] = 1, m['b'] = 2, u.x = 1, u.y = 2 "
      "WHERE k = 1");
  EXPECT_EQ(s.operations.size(), 5u);
}

TEST(ParserUpdateTest, Conditions) {
  auto s = ParseAs<Update>(
      "UPDATE t SET a = 1 WHERE k = 1 IF a = 2 AND b != 3 AND c IN (1, 2) AND m['k'] > 1 AND "
      "m['j'] IN ? AND u.f = 'x' AND u.g IN (1)");
  ASSERT_EQ(s.conditions.size(), 7u);
  EXPECT_FALSE(s.if_exists);
  EXPECT_EQ(s.conditions[1].op, Operator::kNeq);
  EXPECT_EQ(s.conditions[2].op, Operator::kIn);
  EXPECT_TRUE(s.conditions[2].in_list);
  EXPECT_EQ(*s.conditions[3].element, Str("k"));
  EXPECT_EQ(s.conditions[3].op, Operator::kGt);
  EXPECT_FALSE(s.conditions[4].in_list);
  EXPECT_EQ(s.conditions[4].value, Marker(0));
  EXPECT_EQ(s.conditions[5].field, "f");
  EXPECT_EQ(s.conditions[6].in_values, (std::vector<Term>{Int("1")}));
}

TEST(ParserUpdateTest, IfExistsVersusColumnNamedExists) {
  auto s = ParseAs<Update>("UPDATE t SET a = 1 WHERE k = 1 IF EXISTS");
  EXPECT_TRUE(s.if_exists);
  s = ParseAs<Update>("UPDATE t SET a = 1 WHERE k = 1 IF exists = 1");
  EXPECT_FALSE(s.if_exists);
  ASSERT_EQ(s.conditions.size(), 1u);
  EXPECT_EQ(s.conditions[0].column, "exists");
}

TEST(ParserDeleteTest, Forms) {
  auto s = ParseAs<Delete>(
      "DELETE a, m['k'], u.f FROM ks.t USING TIMESTAMP 123 WHERE k = 1 AND c > 2 IF EXISTS");
  ASSERT_EQ(s.deletions.size(), 3u);
  EXPECT_EQ(s.deletions[0].column, "a");
  EXPECT_EQ(*s.deletions[1].element, Str("k"));
  EXPECT_EQ(s.deletions[2].field, "f");
  EXPECT_EQ(*s.timestamp, Int("123"));
  EXPECT_EQ(s.where.size(), 2u);
  EXPECT_TRUE(s.if_exists);
  s = ParseAs<Delete>("DELETE FROM t WHERE k = 1 IF a = 1");
  EXPECT_TRUE(s.deletions.empty());
  EXPECT_EQ(s.conditions.size(), 1u);
}

TEST(ParserBatchTest, TypesAndMarkerNumbering) {
  auto s = ParseAs<Batch>(
      "BEGIN UNLOGGED BATCH USING TIMESTAMP ? INSERT INTO t (a) VALUES (?); UPDATE t SET b = "
      ":b WHERE a = ? DELETE FROM t WHERE a = ?; APPLY BATCH");
  EXPECT_EQ(s.type, Batch::Type::kUnlogged);
  EXPECT_EQ(*s.using_attributes.timestamp, Marker(0));
  ASSERT_EQ(s.statements.size(), 3u);
  const auto& insert = std::get<Insert>(s.statements[0]);
  EXPECT_EQ(insert.values[0], Marker(1));
  EXPECT_TRUE(insert.bind_marker_names.empty());
  const auto& update = std::get<Update>(s.statements[1]);
  EXPECT_EQ(update.operations[0].value, Marker(2, "b"));
  EXPECT_EQ(update.where[0].value, Marker(3));
  EXPECT_TRUE(std::holds_alternative<Delete>(s.statements[2]));
  EXPECT_EQ(s.bind_marker_names, (std::vector<std::string>{"", "", "b", "", ""}));
  EXPECT_EQ(BindMarkerCount(Statement(s)), 5);
  EXPECT_EQ(ParseAs<Batch>("BEGIN COUNTER BATCH APPLY BATCH").type, Batch::Type::kCounter);
  EXPECT_EQ(ParseAs<Batch>("BEGIN BATCH APPLY BATCH").type, Batch::Type::kLogged);
}

}  // namespace
}  // namespace cql
