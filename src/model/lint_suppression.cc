#include "model/lint_suppression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

namespace model {
namespace {

using common::Result;
using common::Status;

constexpr std::string_view kDirective = "cqlmodel:";
constexpr size_t kTokensKept = 24;  // enough to reach CREATE INDEX's ON name

std::string Trim(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

bool KnownRule(const std::string& rule) {
  const std::vector<std::string>& rules = LintRules();
  return std::find(rules.begin(), rules.end(), rule) != rules.end();
}

// Reads a CQL script statement by statement, keeping the first words of each and the
// suppression comments written after the previous statement's end.
class Scanner {
 public:
  Scanner(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Result<std::vector<Suppression>> Run() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') {
        ++line_;
        ++at_;
      } else if (Starts("--") || Starts("//")) {
        RETURN_IF_ERROR(LineComment());
      } else if (Starts("/*")) {
        Skip(text_.find("*/", at_ + 2), 2);
      } else if (Starts("$$")) {
        Skip(text_.find("$$", at_ + 2), 2);
      } else if (c == '\'') {
        Quoted('\'', /*token=*/false);
      } else if (c == '"') {
        Quoted('"', /*token=*/true);
      } else if (c == ';') {
        RETURN_IF_ERROR(EndStatement());
        ++at_;
      } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        size_t end = at_;
        while (end < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
          ++end;
        }
        std::string word(text_.substr(at_, end - at_));
        std::transform(word.begin(), word.end(), word.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        Keep(std::move(word));
        at_ = end;
      } else {
        if (!std::isspace(static_cast<unsigned char>(c))) Keep(std::string(1, c));
        ++at_;
      }
    }
    RETURN_IF_ERROR(EndStatement());
    return std::move(out_);
  }

 private:
  bool Starts(std::string_view prefix) const { return text_.substr(at_, prefix.size()) == prefix; }

  // Moves past a construct ending at `end` (npos: the end of the text) plus `length` bytes,
  // counting its lines.
  void Skip(size_t end, size_t length) {
    const size_t stop = end == std::string_view::npos ? text_.size() : end + length;
    line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(at_),
                                         text_.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
    at_ = stop;
  }

  // A quoted string ('...', with '' for a quote) or identifier ("...", kept as written).
  void Quoted(char quote, bool token) {
    std::string value;
    size_t i = at_ + 1;
    for (; i < text_.size(); ++i) {
      if (text_[i] == quote) {
        if (i + 1 < text_.size() && text_[i + 1] == quote) {
          value += quote;
          ++i;
          continue;
        }
        break;
      }
      value += text_[i];
    }
    Skip(i == text_.size() ? std::string_view::npos : i, 1);
    if (token) Keep(std::move(value));
  }

  void Keep(std::string token) {
    if (tokens_.size() < kTokensKept) tokens_.push_back(std::move(token));
  }

  Status LineComment() {
    size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) end = text_.size();
    std::string body = Trim(text_.substr(at_ + 2, end - at_ - 2));
    at_ = end;
    if (body.rfind(kDirective, 0) != 0) return Status::Ok();
    std::string rest = Trim(std::string_view(body).substr(kDirective.size()));
    const std::string where = fmt::format("{}:{}", file_, line_);
    std::string verb = rest.substr(0, rest.find(' '));
    std::string after = verb.size() < rest.size() ? Trim(rest.substr(verb.size())) : "";
    std::string rule = after.substr(0, after.find(' '));
    std::string reason = rule.size() < after.size() ? Trim(after.substr(rule.size())) : "";
    if (verb != "allow" || rule.empty()) {
      return Status::Invalid(fmt::format("{}: expected `cqlmodel: allow RULE REASON`", where));
    }
    if (!KnownRule(rule))
      return Status::Invalid(fmt::format("{}: unknown lint rule {}", where, rule));
    if (reason.empty()) {
      return Status::Invalid(
          fmt::format("{}: `cqlmodel: allow {}` needs a reason after the rule", where, rule));
    }
    pending_.push_back(Suppression{rule, "", reason, where});
    return Status::Ok();
  }

  bool Is(size_t i, std::string_view word) const {
    return i < tokens_.size() && tokens_[i] == word;
  }

  // The table a CREATE TABLE / MATERIALIZED VIEW / INDEX statement is about, "" for others.
  std::string ObjectOfStatement() const {
    if (!Is(0, "create")) return "";
    size_t i = 1;
    if (Is(i, "table")) {
      i += 1;
    } else if (Is(i, "materialized") && Is(i + 1, "view")) {
      i += 2;
    } else if (Is(i, "index") || (Is(i, "custom") && Is(i + 1, "index"))) {
      while (i < tokens_.size() && tokens_[i] != "on") ++i;
      ++i;
    } else {
      return "";
    }
    if (Is(i, "if") && Is(i + 1, "not") && Is(i + 2, "exists")) i += 3;
    if (i >= tokens_.size()) return "";
    if (Is(i + 1, ".") && i + 2 < tokens_.size()) return tokens_[i] + "." + tokens_[i + 2];
    return keyspace_.empty() ? tokens_[i] : keyspace_ + "." + tokens_[i];
  }

  Status EndStatement() {
    if (Is(0, "use") && tokens_.size() > 1) keyspace_ = tokens_[1];
    if (!pending_.empty()) {
      std::string object = ObjectOfStatement();
      if (object.empty()) {
        return Status::Invalid(fmt::format(
            "{}: `cqlmodel: allow` must be in or above a CREATE TABLE, MATERIALIZED VIEW or "
            "INDEX statement",
            pending_.front().origin));
      }
      for (Suppression& suppression : pending_) {
        suppression.object = object;
        out_.push_back(std::move(suppression));
      }
    }
    pending_.clear();
    tokens_.clear();
    return Status::Ok();
  }

  std::string_view text_;
  std::string file_;
  size_t at_ = 0;
  int line_ = 1;
  std::string keyspace_;
  std::vector<std::string> tokens_;
  std::vector<Suppression> pending_;
  std::vector<Suppression> out_;
};

bool Matches(const Suppression& suppression, const Finding& finding) {
  if (suppression.rule != finding.rule) return false;
  if (suppression.object.empty() || suppression.object == finding.object) return true;
  // A bare table name: that table in any keyspace.
  return suppression.object.find('.') == std::string::npos &&
         finding.object.size() > suppression.object.size() &&
         finding.object.ends_with("." + suppression.object);
}

}  // namespace

Result<std::vector<Suppression>> ReadSuppressions(std::string_view cql_text,
                                                  const std::string& file) {
  return Scanner(cql_text, file).Run();
}

Result<Suppression> ParseAllowFlag(const std::string& text) {
  const size_t colon = text.find(':');
  Suppression suppression;
  suppression.rule = text.substr(0, colon);
  if (colon != std::string::npos) suppression.object = text.substr(colon + 1);
  if (!KnownRule(suppression.rule)) {
    return Status::Invalid(fmt::format("unknown lint rule {}", suppression.rule));
  }
  if (colon != std::string::npos && suppression.object.empty()) {
    return Status::Invalid(fmt::format("--allow {}: no table after ':'", text));
  }
  suppression.reason = "allowed on the command line";
  suppression.origin = "--allow";
  return suppression;
}

LintReport ApplySuppressions(std::vector<Finding> findings,
                             const std::vector<Suppression>& suppressions) {
  LintReport report;
  std::vector<bool> used(suppressions.size(), false);
  for (Finding& finding : findings) {
    auto match = std::find_if(suppressions.begin(), suppressions.end(),
                              [&](const Suppression& s) { return Matches(s, finding); });
    if (match == suppressions.end()) {
      report.findings.push_back(std::move(finding));
      continue;
    }
    used[static_cast<size_t>(match - suppressions.begin())] = true;
    report.suppressed.push_back(SuppressedFinding{std::move(finding), *match});
  }
  for (size_t i = 0; i < suppressions.size(); ++i) {
    if (!used[i] && suppressions[i].origin != "--allow") report.unused.push_back(suppressions[i]);
  }
  return report;
}

}  // namespace model
