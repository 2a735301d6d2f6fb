// StatementSplitter: cuts shell input into complete CQL statements at top-level `;`.
//
// Input arrives a line at a time (interactive) or as a whole file (`-f`, SOURCE). A `;` ends
// a statement only outside string literals ('...' with '' escapes), quoted identifiers
// ("..."), dollar-quoted strings ($$...$$) and comments (--, //, /* */). A BATCH is one
// statement even though its inner statements end in `;`: it ends at `APPLY BATCH;`.
//
// A statement starts at its first token: whitespace and comments before it are dropped, as
// cqlsh does, so the server's `line:column` positions count from the statement's first line.
// Each statement carries the offset of that first token in everything fed so far, which the
// shell turns into the `file:line:` of its error messages.
//
// Thread-safety: not thread-safe.

#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shell {

// One complete statement: its text (from its first token to just before its `;`, with trailing
// whitespace removed) and the offset of its first byte in the concatenation of all `Feed` calls.
struct SplitStatement {
  std::string text;
  size_t offset = 0;
  bool operator==(const SplitStatement&) const = default;
};

class StatementSplitter {
 public:
  // Appends `text` (which may hold several lines or a partial line) to the pending input.
  void Feed(std::string_view text);
  // Returns and removes the statements completed so far; empty statements are dropped.
  std::vector<SplitStatement> TakeComplete();
  // Whether pending input holds the start of a statement (a token, or an unclosed block
  // comment): the shell shows its continuation prompt then. Comments alone are not partial.
  bool HasPartial() const;
  // Returns the partial statement left at the end of input (e.g. a file without a final `;`),
  // or nullopt when there is none, and resets the splitter to its initial state except for the
  // running offset.
  std::optional<SplitStatement> TakeRest();

 private:
  enum class State { kNormal, kString, kQuotedName, kDollar, kLineComment, kBlockComment };
  void Scan();
  // Ends the statement at `pending_[end]` (a `;`) and erases it from `pending_`.
  void Complete(size_t end);

  std::string pending_;
  size_t pending_offset_ = 0;    // offset of `pending_[0]` in everything fed
  size_t scanned_ = 0;           // bytes of `pending_` already scanned
  std::optional<size_t> start_;  // index in `pending_` of the current statement's first token
  State state_ = State::kNormal;
  bool in_batch_ = false;
  std::vector<SplitStatement> complete_;
};

}  // namespace shell
