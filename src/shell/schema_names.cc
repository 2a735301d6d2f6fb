#include "shell/schema_names.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include "common/ascii.h"
#include "cql/types/types.h"

namespace shell {
namespace {

// Identifiers as typed: unquoted ones fold to lower case, quoted ones keep their case.
std::string Unquote(std::string_view name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < name.size(); ++i) {
      out += name[i];
      if (name[i] == '"' && name[i + 1] == '"') ++i;
    }
    return out;
  }
  return common::AsciiLower(name);
}

constexpr std::string_view kKeywords[] = {
    "ADD",       "AGGREGATE",  "ALL",          "ALLOW",       "ALTER",       "AND",
    "APPLY",     "AS",         "ASC",          "BATCH",       "BEGIN",       "BY",
    "CAPTURE",   "CLUSTERING", "COLUMNFAMILY", "CONSISTENCY", "CONTAINS",    "COPY",
    "COUNT",     "CREATE",     "CUSTOM",       "DELETE",      "DESC",        "DESCRIBE",
    "DISTINCT",  "DROP",       "EXISTS",       "EXIT",        "EXPAND",      "FILTERING",
    "FROM",      "FULL",       "FUNCTION",     "GRANT",       "HELP",        "IF",
    "IN",        "INDEX",      "INSERT",       "INTO",        "JSON",        "KEY",
    "KEYSPACE",  "KEYSPACES",  "LIMIT",        "LIST",        "LOGIN",       "MATERIALIZED",
    "NOT",       "NULL",       "ON",           "OR",          "ORDER",       "PAGING",
    "PARTITION", "PER",        "PRIMARY",      "QUIT",        "REPLICATION", "REVOKE",
    "ROLE",      "SCHEMA",     "SELECT",       "SERIAL",      "SET",         "SOURCE",
    "STATIC",    "TABLE",      "TABLES",       "TIMESTAMP",   "TO",          "TRACING",
    "TRUNCATE",  "TTL",        "TYPE",         "TYPES",       "UNLOGGED",    "UPDATE",
    "USE",       "USING",      "VALUES",       "VIEW",        "WHERE",       "WITH",
    "WRITETIME",
};

// The words of `text`, split at whitespace and punctuation; punctuation characters that
// matter ('(', ',', '.') are kept as words of their own.
std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '"') {
      size_t end = i + 1;
      while (end < text.size() &&
             !(text[end] == '"' && (end + 1 >= text.size() || text[end + 1] != '"'))) {
        end += text[end] == '"' ? 2 : 1;
      }
      end = std::min(end + 1, text.size());
      tokens.emplace_back(text.substr(i, end - i));
      i = end;
    } else if (c == '\'') {
      size_t end = text.find('\'', i + 1);
      end = end == std::string_view::npos ? text.size() : end + 1;
      tokens.emplace_back("'");
      i = end;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      tokens.emplace_back(text.substr(i, end - i));
      i = end;
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

bool Contains(std::initializer_list<std::string_view> words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace

common::Status SchemaNames::Refresh(cql::Session& session) {
  cql::QueryOptions options;
  std::map<std::string, Keyspace, std::less<>> fresh;
  auto read = [&](std::string_view query, auto&& add) -> common::Status {
    common::Result<cql::ResultSet> rows = session.Execute(query, options);
    if (!rows.ok()) return rows.status();
    for (size_t r = 0; r < rows->row_count(); ++r) {
      std::vector<std::string> values;
      for (size_t c = 0; c < rows->column_count(); ++c) {
        common::Result<std::string> text = rows->GetText(r, c);
        values.push_back(text.ok() ? *text : std::string());
      }
      add(values);
    }
    return common::Status::Ok();
  };
  RETURN_IF_ERROR(read("SELECT keyspace_name FROM system_schema.keyspaces",
                       [&](const std::vector<std::string>& v) { fresh[v[0]]; }));
  RETURN_IF_ERROR(read("SELECT keyspace_name, table_name FROM system_schema.tables",
                       [&](const std::vector<std::string>& v) { fresh[v[0]].tables[v[1]]; }));
  RETURN_IF_ERROR(read("SELECT keyspace_name, view_name FROM system_schema.views",
                       [&](const std::vector<std::string>& v) { fresh[v[0]].tables[v[1]]; }));
  RETURN_IF_ERROR(
      read("SELECT keyspace_name, type_name FROM system_schema.types",
           [&](const std::vector<std::string>& v) { fresh[v[0]].types.push_back(v[1]); }));
  RETURN_IF_ERROR(
      read("SELECT keyspace_name, table_name, column_name FROM system_schema.columns",
           [&](const std::vector<std::string>& v) { fresh[v[0]].tables[v[1]].push_back(v[2]); }));
  keyspaces_ = std::move(fresh);
  fresh_ = true;
  return common::Status::Ok();
}

std::vector<std::string> SchemaNames::Keyspaces() const {
  std::vector<std::string> out;
  for (const auto& [name, keyspace] : keyspaces_) out.push_back(name);
  return out;
}

std::vector<std::string> SchemaNames::Tables(std::string_view keyspace) const {
  std::vector<std::string> out;
  auto it = keyspaces_.find(keyspace);
  if (it == keyspaces_.end()) return out;
  for (const auto& [name, columns] : it->second.tables) out.push_back(name);
  return out;
}

std::vector<std::string> SchemaNames::Types(std::string_view keyspace) const {
  auto it = keyspaces_.find(keyspace);
  return it == keyspaces_.end() ? std::vector<std::string>{} : it->second.types;
}

std::vector<std::string> SchemaNames::Columns(std::string_view keyspace,
                                              std::string_view table) const {
  auto it = keyspaces_.find(keyspace);
  if (it == keyspaces_.end()) return {};
  auto table_it = it->second.tables.find(table);
  return table_it == it->second.tables.end() ? std::vector<std::string>{} : table_it->second;
}

std::vector<std::string> CompletionCandidates(const SchemaNames& names, std::string_view keyspace,
                                              std::string_view context, std::string_view word) {
  std::vector<std::string> tokens = Tokens(context);
  std::vector<std::string> out;
  auto add_quoted = [&out](const std::vector<std::string>& list) {
    for (const std::string& name : list) out.push_back(cql::QuoteIdentifierIfNeeded(name));
  };
  bool lower = !word.empty() && std::none_of(word.begin(), word.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c));
  });
  auto add_keywords = [&]() {
    for (std::string_view keyword : kKeywords) {
      out.push_back(lower ? common::AsciiLower(keyword) : std::string(keyword));
    }
  };
  if (tokens.empty()) {
    add_keywords();
    return out;
  }
  std::string last = common::AsciiUpper(tokens.back());
  // `ks.` followed by the word: a table, view or type of ks.
  if (last == "." && tokens.size() >= 2) {
    std::string qualifier = Unquote(tokens[tokens.size() - 2]);
    bool type_context = std::find_if(tokens.begin(), tokens.end(), [](const std::string& t) {
                          return common::AsciiUpper(t) == "TYPE";
                        }) != tokens.end();
    add_quoted(type_context ? names.Types(qualifier) : names.Tables(qualifier));
    return out;
  }
  if (Contains({"USE", "KEYSPACE"}, last) ||
      (last == "EXISTS" && tokens.size() >= 3 &&
       common::AsciiUpper(tokens[tokens.size() - 3]) == "KEYSPACE")) {
    add_quoted(names.Keyspaces());
    return out;
  }
  if (last == "TYPE") {
    add_quoted(names.Types(keyspace));
    add_quoted(names.Keyspaces());
    return out;
  }
  if (Contains(
          {"FROM", "INTO", "UPDATE", "TABLE", "COLUMNFAMILY", "TRUNCATE", "COPY", "ON", "VIEW"},
          last)) {
    if (!keyspace.empty()) add_quoted(names.Tables(keyspace));
    add_quoted(names.Keyspaces());
    return out;
  }
  // Columns when the statement names its table somewhere (SELECT ... FROM t, INSERT INTO t,
  // UPDATE t, DELETE ... FROM t, COPY t).
  if (Contains({"SELECT", "WHERE", "AND", "SET", "BY", "(", ",", "DISTINCT", "IF"}, last)) {
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
      std::string token = common::AsciiUpper(tokens[i]);
      if (!Contains({"FROM", "INTO", "UPDATE", "COPY"}, token)) continue;
      std::string table_keyspace(keyspace);
      std::string table = Unquote(tokens[i + 1]);
      if (i + 3 < tokens.size() && tokens[i + 2] == ".") {
        table_keyspace = table;
        table = Unquote(tokens[i + 3]);
      }
      add_quoted(names.Columns(table_keyspace, table));
    }
  }
  add_keywords();
  return out;
}

}  // namespace shell
