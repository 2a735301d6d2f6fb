// StatementSplitter: cuts shell input into complete CQL statements at top-level `;`.
//
// Input arrives a line at a time (interactive) or as a whole file (`-f`, SOURCE). A `;` ends
// a statement only outside string literals ('...' with '' escapes), quoted identifiers
// ("..."), dollar-quoted strings ($$...$$) and comments (--, //, /* */). A BATCH is one
// statement even though its inner statements end in `;`: it ends at `APPLY BATCH;`.
//
// Thread-safety: not thread-safe.

#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shell {

class StatementSplitter {
 public:
  // Appends `text` (which may hold several lines or a partial line) to the pending input.
  void Feed(std::string_view text);
  // Returns and removes the statements completed so far, each without its final `;` and
  // trimmed; empty statements are dropped.
  std::vector<std::string> TakeComplete();
  // Whether pending input holds a partial statement (for a continuation prompt).
  bool HasPartial() const;
  // Returns the partial statement left at the end of input (e.g. a file without a final `;`),
  // trimmed, and clears it.
  std::string TakeRest();

 private:
  enum class State { kNormal, kString, kQuotedName, kDollar, kLineComment, kBlockComment };
  void Scan();

  std::string pending_;
  size_t scanned_ = 0;  // bytes of `pending_` already scanned
  State state_ = State::kNormal;
  bool in_batch_ = false;
  std::vector<std::string> complete_;
};

}  // namespace shell
