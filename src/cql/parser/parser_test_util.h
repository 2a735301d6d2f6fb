// Helpers shared by the parser tests (parser_test.cc, parser_ddl_test.cc).

#pragma once

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "cql/parser/parser.h"

namespace cql::testing {

// Parses `text`, expecting success, and checks that the statement round-trips through
// the canonical printer.
inline Statement ParseOk(std::string_view text) {
  auto parsed = ParseStatement(text);
  EXPECT_TRUE(parsed.ok()) << text << "\n" << parsed.status().ToString();
  if (!parsed.ok()) return Statement{};
  std::string printed = ToCql(*parsed);
  auto again = ParseStatement(printed);
  EXPECT_TRUE(again.ok()) << printed << "\n" << again.status().ToString();
  if (again.ok()) {
    EXPECT_TRUE(*again == *parsed) << text << "\nprinted as\n" << printed;
  }
  return std::move(parsed).value();
}

template <typename T>
inline T ParseAs(std::string_view text) {
  Statement statement = ParseOk(text);
  EXPECT_TRUE(std::holds_alternative<T>(statement))
      << text << " parsed as index " << statement.index();
  if (!std::holds_alternative<T>(statement)) return T{};
  return std::get<T>(std::move(statement));
}

inline Term Int(std::string text) {
  return Term(Constant{ConstantKind::kInteger, std::move(text)});
}
inline Term Str(std::string text) { return Term(Constant{ConstantKind::kString, std::move(text)}); }
inline Term Marker(int index, std::string name = "") {
  return Term(BindMarker{index, std::move(name)});
}
inline Term Call(std::string keyspace, std::string name, std::vector<Term> args) {
  return Term(FunctionCall{std::move(keyspace), std::move(name), std::move(args)});
}

inline const Constant& ConstantOf(const Term& term) {
  static const Constant kEmpty;
  const auto* c = std::get_if<Constant>(&term.value);
  EXPECT_NE(c, nullptr) << term.ToCql();
  return c != nullptr ? *c : kEmpty;
}

}  // namespace cql::testing
