#include "shell/statement_splitter.h"

#include <algorithm>
#include <cctype>

namespace shell {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view TrimRight(std::string_view s) {
  size_t end = s.size();
  while (end > 0 && IsSpace(s[end - 1])) --end;
  return s.substr(0, end);
}

// Whether `a` equals the upper-case word `upper`, ignoring ASCII case.
bool EqualsIgnoreCase(std::string_view a, std::string_view upper) {
  return a.size() == upper.size() &&
         std::equal(a.begin(), a.end(), upper.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == y;
         });
}

// Whether the statement text (starting at its first token) opens a batch: "BEGIN ... BATCH".
bool StartsBatch(std::string_view statement) {
  return statement.size() >= 5 && EqualsIgnoreCase(statement.substr(0, 5), "BEGIN");
}

// Whether `statement` ends with APPLY BATCH (case-insensitive, any whitespace between).
bool EndsWithApplyBatch(std::string_view statement) {
  std::string_view text = TrimRight(statement);
  if (text.size() < 5 || !EqualsIgnoreCase(text.substr(text.size() - 5), "BATCH")) return false;
  std::string_view before = text.substr(0, text.size() - 5);
  std::string_view trimmed = TrimRight(before);
  return trimmed.size() < before.size() && trimmed.size() >= 5 &&
         EqualsIgnoreCase(trimmed.substr(trimmed.size() - 5), "APPLY");
}

}  // namespace

void StatementSplitter::Feed(std::string_view text) {
  pending_.append(text);
  Scan();
}

void StatementSplitter::Complete(size_t end) {
  if (start_) {
    std::string_view text = TrimRight(std::string_view(pending_).substr(*start_, end - *start_));
    complete_.push_back({std::string(text), pending_offset_ + *start_});
  }
  pending_offset_ += end + 1;
  pending_.erase(0, end + 1);
  start_.reset();
}

void StatementSplitter::Scan() {
  size_t i = scanned_;
  while (i < pending_.size()) {
    char c = pending_[i];
    char next = i + 1 < pending_.size() ? pending_[i + 1] : '\0';
    switch (state_) {
      case State::kNormal:
        if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
          state_ = State::kLineComment;
          ++i;
          break;
        }
        if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          ++i;
          break;
        }
        if (c == ';') {
          if (start_) {
            std::string_view statement = std::string_view(pending_).substr(*start_, i - *start_);
            if (!in_batch_ && StartsBatch(statement)) in_batch_ = true;
            if (in_batch_ && !EndsWithApplyBatch(statement)) break;  // inner statement of a batch
          }
          in_batch_ = false;
          Complete(i);
          i = 0;
          continue;
        }
        if (!IsSpace(c) && !start_) start_ = i;
        if (c == '\'') {
          state_ = State::kString;
        } else if (c == '"') {
          state_ = State::kQuotedName;
        } else if (c == '$' && next == '$') {
          state_ = State::kDollar;
          ++i;
        }
        break;
      case State::kString:
        if (c == '\'') {
          if (next == '\'') {
            ++i;
          } else {
            state_ = State::kNormal;
          }
        }
        break;
      case State::kQuotedName:
        if (c == '"') {
          if (next == '"') {
            ++i;
          } else {
            state_ = State::kNormal;
          }
        }
        break;
      case State::kDollar:
        if (c == '$' && next == '$') {
          state_ = State::kNormal;
          ++i;
        }
        break;
      case State::kLineComment:
        if (c == '\n') state_ = State::kNormal;
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          state_ = State::kNormal;
          ++i;
        }
        break;
    }
    ++i;
  }
  scanned_ = std::min(i, pending_.size());
}

std::vector<SplitStatement> StatementSplitter::TakeComplete() {
  std::vector<SplitStatement> out;
  out.swap(complete_);
  return out;
}

bool StatementSplitter::HasPartial() const {
  return start_.has_value() || state_ == State::kBlockComment;
}

std::optional<SplitStatement> StatementSplitter::TakeRest() {
  std::optional<SplitStatement> rest;
  if (start_) {
    std::string_view text = TrimRight(std::string_view(pending_).substr(*start_));
    rest = SplitStatement{std::string(text), pending_offset_ + *start_};
  }
  pending_offset_ += pending_.size();
  pending_.clear();
  scanned_ = 0;
  start_.reset();
  state_ = State::kNormal;
  in_batch_ = false;
  return rest;
}

}  // namespace shell
