#include "tests/logic/logic_test_file.h"

#include <string>

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

}  // namespace

common::Result<TestFile> ParseTestFile(std::string path, std::string_view contents) {
  TestFile file;
  file.path = std::move(path);
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
    Record record;
    record.line = static_cast<int>(i) + 1;
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
