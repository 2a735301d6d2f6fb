#include "tests/logic/logic_test_file.h"

#include <charconv>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace logic_test {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::vector<std::string_view> SplitLines(std::string_view contents) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= contents.size()) {
    size_t end = contents.find('\n', start);
    if (end == std::string_view::npos) end = contents.size();
    std::string_view line = contents.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// The comma-separated literals of a `bind` line, split outside quotes and brackets.
template <typename Error>
common::Result<std::vector<std::string>> SplitBindList(std::string_view text, Error error) {
  std::vector<std::string> values;
  int depth = 0;
  char quote = 0;
  std::string current;
  for (char c : text) {
    if (quote != 0) {
      current += c;
      if (c == quote) quote = 0;  // a doubled quote reopens at the next character
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      values.emplace_back(Trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (quote != 0 || depth != 0) return error("unbalanced quotes or brackets in bind");
  values.emplace_back(Trim(current));
  for (const std::string& value : values) {
    if (value.empty()) return error("empty value in bind");
  }
  return values;
}

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes of `raw(0x...)`'s argument.
std::optional<std::string> ParseRawBytes(std::string_view argument) {
  if (argument.size() < 2 || argument[0] != '0' || (argument[1] != 'x' && argument[1] != 'X')) {
    return std::nullopt;
  }
  const std::string_view hex = argument.substr(2);
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]);
    const int low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

// `repeat('<text>', N)`'s arguments into `value`; false when they are not that.
bool ParseRepeatArguments(std::string_view argument, BindValue* value) {
  if (argument.empty() || argument[0] != '\'') return false;
  size_t i = 1;
  for (;; ++i) {
    if (i >= argument.size()) return false;  // unterminated
    if (argument[i] != '\'') {
      value->text += argument[i];
    } else if (i + 1 < argument.size() && argument[i + 1] == '\'') {
      value->text += '\'';
      ++i;
    } else {
      break;
    }
  }
  std::string_view rest = Trim(argument.substr(i + 1));
  if (rest.empty() || rest[0] != ',') return false;
  rest = Trim(rest.substr(1));
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value->count);
  return ec == std::errc() && end == rest.data() + rest.size() && value->count >= 0;
}

// One value of a `bind` line: a literal (also `null`, `unset`) or a form `name(...)`.
template <typename Error>
common::Result<BindValue> ParseBindValue(std::string_view source, Error error) {
  BindValue value;
  value.source = std::string(source);
  size_t name_end = 0;
  while (name_end < source.size() && IsIdentifierChar(source[name_end])) ++name_end;
  size_t open = name_end;
  while (open < source.size() && (source[open] == ' ' || source[open] == '\t')) ++open;
  const bool is_form = name_end > 0 && !(source[0] >= '0' && source[0] <= '9') &&
                       open < source.size() && source[open] == '(';
  if (!is_form) {
    value.text = value.source;
    return value;
  }
  const std::string_view name = source.substr(0, name_end);
  const std::string quoted = "bind value '" + value.source + "': ";
  if (name != "raw" && name != "repeat") {
    return error(quoted + "unknown form '" + std::string(name) +
                 "(...)'; a bind value is a CQL literal, null, unset, raw(0x<hex>) or "
                 "repeat('<text>', N)");
  }
  if (source.back() != ')') return error(quoted + "expected ')' at its end");
  const std::string_view argument = Trim(source.substr(open + 1, source.size() - open - 2));
  if (name == "raw") {
    std::optional<std::string> bytes = ParseRawBytes(argument);
    if (!bytes.has_value()) {
      return error(quoted + "raw() takes 0x and an even number of hex digits: raw(0x0001ff)");
    }
    value.kind = BindValue::Kind::kRaw;
    value.text = std::move(*bytes);
    return value;
  }
  value.kind = BindValue::Kind::kRepeat;
  if (!ParseRepeatArguments(argument, &value)) {
    return error(quoted + "repeat() takes a quoted text and a count: repeat('<text>', N)");
  }
  if (!value.text.empty() &&
      value.count > kMaxRepeatBytes / static_cast<int64_t>(value.text.size())) {
    return error(quoted + "repeat() makes more than " + std::to_string(kMaxRepeatBytes) + " bytes");
  }
  return value;
}

// The values of a `bind` line.
template <typename Error>
common::Result<std::vector<BindValue>> ParseBindList(std::string_view text, Error error) {
  ASSIGN_OR_RETURN(std::vector<std::string> sources, SplitBindList(text, error));
  std::vector<BindValue> values;
  for (const std::string& source : sources) {
    ASSIGN_OR_RETURN(BindValue value, ParseBindValue(source, error));
    values.push_back(std::move(value));
  }
  return values;
}

}  // namespace

common::Result<TestFile> ParseTestFile(std::string path, std::string_view contents) {
  TestFile file;
  file.path = std::move(path);
  RunOptions pending;
  std::vector<std::string_view> lines = SplitLines(contents);
  size_t i = 0;
  auto error = [&](size_t line, std::string_view what) {
    return common::Status::Invalid(file.path + ":" + std::to_string(line + 1) + ": " +
                                   std::string(what));
  };
  while (i < lines.size()) {
    std::string_view line = Trim(lines[i]);
    if (line.empty() || line[0] == '#') {
      ++i;
      continue;
    }
    if (StartsWith(line, "require ")) {
      file.requires_features.emplace_back(Trim(line.substr(8)));
      ++i;
      continue;
    }
    if (StartsWith(line, "bind ")) {
      ASSIGN_OR_RETURN(pending.binds, ParseBindList(line.substr(5), [&](std::string_view what) {
                         return error(i, what);
                       }));
      ++i;
      continue;
    }
    if (StartsWith(line, "paged ")) {
      const std::string_view size = Trim(line.substr(6));
      int page_size = 0;
      const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), page_size);
      if (ec != std::errc() || end != size.data() + size.size() || page_size <= 0) {
        return error(i, "paged needs a positive page size");
      }
      pending.page_size = page_size;
      ++i;
      continue;
    }
    Record record;
    record.line = static_cast<int>(i) + 1;
    record.options = std::exchange(pending, RunOptions());
    bool has_expected = false;
    if (line == "statement ok") {
      record.kind = RecordKind::kStatementOk;
    } else if (StartsWith(line, "statement error")) {
      record.kind = RecordKind::kStatementError;
      record.argument = std::string(Trim(line.substr(15)));
    } else if (line == "query") {
      record.kind = RecordKind::kQuery;
      has_expected = true;
    } else if (StartsWith(line, "value ")) {
      record.kind = RecordKind::kValue;
      record.argument = std::string(Trim(line.substr(6)));
      has_expected = true;
    } else {
      return error(i, "unknown directive '" + std::string(line) + "'");
    }
    if (record.kind == RecordKind::kValue && !record.options.is_default()) {
      return error(i, "bind and paged apply to statements and queries only");
    }
    if (record.kind != RecordKind::kQuery && record.options.page_size > 0) {
      return error(i, "paged applies to queries only");
    }
    ++i;
    // The record's text: up to a blank line or `----`. Lines are kept as written (a statement
    // may need its own line structure, e.g. for error positions).
    bool saw_separator = false;
    while (i < lines.size() && !Trim(lines[i]).empty()) {
      if (Trim(lines[i]) == "----") {
        saw_separator = true;
        ++i;
        break;
      }
      if (!record.text.empty()) record.text += '\n';
      record.text += lines[i];
      ++i;
    }
    if (record.text.empty()) return error(record.line - 1, "directive without a statement");
    if (has_expected && !saw_separator) {
      return error(record.line - 1, "expected '----' and the expected output");
    }
    if (!has_expected && saw_separator) {
      return error(record.line - 1, "'----' is only for query and value records");
    }
    if (saw_separator) {
      while (i < lines.size() && !Trim(lines[i]).empty()) {
        record.expected.emplace_back(Trim(lines[i]));
        ++i;
      }
    }
    file.records.push_back(std::move(record));
  }
  return file;
}

}  // namespace logic_test
