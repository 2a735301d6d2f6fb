#include "tests/logic/logic_test_file.h"

#include <charconv>
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
      ASSIGN_OR_RETURN(pending.binds, SplitBindList(line.substr(5), [&](std::string_view what) {
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
