#include "tests/logic/logic_test_runner.h"

#include <string>

namespace logic_test {
namespace {

std::string JoinRow(const std::vector<std::string>& row) {
  std::string out;
  for (size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += " | ";
    out += row[i];
  }
  return out;
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += "    " + line + "\n";
  return out.empty() ? "    (nothing)\n" : out;
}

bool Matches(const common::Status& status, std::string_view expected) {
  return status.message().find(expected) != std::string::npos ||
         status.ToString().find(expected) != std::string::npos;
}

// Returns an empty string when the record passed, or a description of the failure.
std::string RunRecord(const Record& record, Executor* executor) {
  switch (record.kind) {
    case RecordKind::kStatementOk: {
      common::Status status = executor->Execute(record.text, record.options);
      if (!status.ok()) return "expected success, got " + status.ToString();
      common::Status round_trip = executor->CheckRoundTrip(record.text);
      if (!round_trip.ok()) return "round trip through the printer failed: " + round_trip.message();
      return "";
    }
    case RecordKind::kStatementError: {
      common::Status status = executor->Execute(record.text, record.options);
      if (status.ok()) return "expected an error containing '" + record.argument + "', got success";
      if (!Matches(status, record.argument)) {
        return "expected an error containing '" + record.argument + "', got " + status.ToString();
      }
      return "";
    }
    case RecordKind::kQuery: {
      auto rows = executor->Query(record.text, record.options);
      if (!rows.ok()) return "query failed: " + rows.status().ToString();
      std::vector<std::string> actual;
      for (const auto& row : *rows) actual.push_back(JoinRow(row));
      if (actual != record.expected) {
        return "wrong rows\n  expected:\n" + Lines(record.expected) + "  actual:\n" + Lines(actual);
      }
      return "";
    }
    case RecordKind::kValue: {
      auto value = executor->Value(record.argument, record.text);
      std::string expected_text;
      for (size_t i = 0; i < record.expected.size(); ++i) {
        if (i > 0) expected_text += '\n';
        expected_text += record.expected[i];
      }
      constexpr std::string_view kErrorPrefix = "error: ";
      if (expected_text.substr(0, kErrorPrefix.size()) == kErrorPrefix) {
        std::string wanted = expected_text.substr(kErrorPrefix.size());
        if (value.ok()) return "expected an error containing '" + wanted + "', got " + *value;
        if (!Matches(value.status(), wanted)) {
          return "expected an error containing '" + wanted + "', got " + value.status().ToString();
        }
        return "";
      }
      if (!value.ok()) return "expected " + expected_text + ", got " + value.status().ToString();
      if (*value != expected_text) return "expected " + expected_text + ", got " + *value;
      return "";
    }
  }
  return "unknown record kind";
}

}  // namespace

FileResult RunTestFile(const TestFile& file, Executor* executor) {
  FileResult result;
  for (const auto& feature : file.requires_features) {
    if (!executor->Supports(feature)) {
      result.skipped = true;
      result.skip_reason = "requires " + feature;
      return result;
    }
  }
  for (const auto& feature : file.requires_features) {
    common::Status status = executor->Require(feature);
    if (!status.ok()) {
      ++result.failed;
      result.failures.push_back(file.path + ": require " + feature + ": " + status.ToString());
      return result;
    }
  }
  for (const Record& record : file.records) {
    std::string failure = RunRecord(record, executor);
    if (failure.empty()) {
      ++result.passed;
      continue;
    }
    ++result.failed;
    result.failures.push_back(file.path + ":" + std::to_string(record.line) + ": " + failure +
                              "\n  statement:\n    " + record.text);
  }
  return result;
}

}  // namespace logic_test
