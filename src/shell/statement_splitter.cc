#include "shell/statement_splitter.h"

#include <algorithm>
#include <cctype>

namespace shell {
namespace {

std::string Trim(std::string_view s) {
  size_t begin = 0;
  while (begin < s.size() && std::isspace(static_cast<unsigned char>(s[begin]))) ++begin;
  size_t end = s.size();
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return std::string(s.substr(begin, end - begin));
}

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// Whether the statement text so far (without comments) opens a batch: "BEGIN ... BATCH".
bool StartsBatch(std::string_view statement) {
  std::string upper = Upper(Trim(statement));
  return upper.rfind("BEGIN", 0) == 0;
}

// Whether `statement` ends with APPLY BATCH (case-insensitive, any whitespace between).
bool EndsWithApplyBatch(std::string_view statement) {
  std::string upper = Upper(Trim(statement));
  if (upper.size() < 5 || upper.compare(upper.size() - 5, 5, "BATCH") != 0) return false;
  size_t i = upper.size() - 5;
  size_t spaces = 0;
  while (i > 0 && std::isspace(static_cast<unsigned char>(upper[i - 1]))) {
    --i;
    ++spaces;
  }
  return spaces > 0 && i >= 5 && upper.compare(i - 5, 5, "APPLY") == 0;
}

}  // namespace

void StatementSplitter::Feed(std::string_view text) {
  pending_.append(text);
  Scan();
}

void StatementSplitter::Scan() {
  size_t i = scanned_;
  while (i < pending_.size()) {
    char c = pending_[i];
    char next = i + 1 < pending_.size() ? pending_[i + 1] : '\0';
    switch (state_) {
      case State::kNormal:
        if (c == '\'') {
          state_ = State::kString;
        } else if (c == '"') {
          state_ = State::kQuotedName;
        } else if (c == '$' && next == '$') {
          state_ = State::kDollar;
          ++i;
        } else if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
          state_ = State::kLineComment;
          ++i;
        } else if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          ++i;
        } else if (c == ';') {
          std::string statement = pending_.substr(0, i);
          if (!in_batch_ && StartsBatch(statement)) in_batch_ = true;
          if (in_batch_ && !EndsWithApplyBatch(statement)) break;  // inner statement of a batch
          in_batch_ = false;
          std::string trimmed = Trim(statement);
          if (!trimmed.empty()) complete_.push_back(std::move(trimmed));
          pending_.erase(0, i + 1);
          i = 0;
          continue;
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

std::vector<std::string> StatementSplitter::TakeComplete() {
  std::vector<std::string> out;
  out.swap(complete_);
  return out;
}

bool StatementSplitter::HasPartial() const { return !Trim(pending_).empty(); }

std::string StatementSplitter::TakeRest() {
  std::string rest = Trim(pending_);
  pending_.clear();
  scanned_ = 0;
  state_ = State::kNormal;
  in_batch_ = false;
  return rest;
}

}  // namespace shell
