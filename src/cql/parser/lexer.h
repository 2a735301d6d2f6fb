// Lexer: turns CQL source text into tokens (`token_kind.h`), the first stage of the statement
// pipeline (docs/dev/architecture.md §2: text → lexer → parser → raw statement).
//
// The lexer follows Apache Cassandra 4.1's Lexer.g: case-insensitive keywords, identifiers,
// "quoted" names with "" escapes, 'strings' with '' escapes, $$dollar strings$$, integers,
// floats (with exponents), NaN/Infinity with an optional '-', hex blobs 0x..., uuids,
// durations (1h30m, P1DT2H, P2W, P0001-02-03T04:05:06), `?` and `:name` markers, comments
// (`--`, `//`, `/* */`). Tokens are views into the text: lexing allocates only the token
// vector.
//
// Errors are reported as ANTLR's lexer reports them ("no viable alternative at character
// '‘'", "mismatched character '<EOF>' expecting '''"), at the position ANTLR would give, and
// the lexer recovers the way ANTLR does (skips the character) so the parser can still decide
// whether one of its own errors came first (see `parser.h`).
//
// Thread-safety: a Lexer object is used by one thread; the free functions are pure.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/parser/token_kind.h"

namespace cql {

struct Token {
  TokenKind kind = TokenKind::kEof;
  uint32_t offset = 0;  // byte offset of the first character in the source text
  uint32_t length = 0;  // length in bytes in the source text (0 for kEof)
};

// The first error the lexer met.
struct LexerError {
  uint32_t offset = 0;  // byte offset of the character ANTLR reports (text size for EOF)
  // ANTLR's message without the "line L:C " header, e.g. "no viable alternative at
  // character '‘'".
  std::string message;
  // Index (among non-hidden tokens) of the token the lexer was producing: ANTLR reports the
  // error when the parser first asks for that token.
  uint32_t token_index = 0;
};

class Lexer {
 public:
  // REQUIRES: text.size() < 2^32 - 1 (the parser checks this first).
  explicit Lexer(std::string_view text) : text_(text) {}

  // Produces the next token, hidden ones (whitespace, comments) included, and sets `*hidden`.
  // Returns a kEof token (and keeps returning it) at the end of the input.
  Token Next(bool* hidden);

  // The first lexical error met so far, if any.
  const std::optional<LexerError>& first_error() const { return first_error_; }

  // Tokenizes all of `text` into its non-hidden tokens, ending with one kEof token.
  // `*first_error` receives the first lexical error, if any.
  static void Tokenize(std::string_view text, std::vector<Token>* tokens,
                       std::optional<LexerError>* first_error);

 private:
  Token Make(TokenKind kind, size_t start, size_t end) const {
    return Token{kind, static_cast<uint32_t>(start), static_cast<uint32_t>(end - start)};
  }
  void Error(size_t offset, std::string message);
  // Each returns the end offset of the longest match starting at `pos`, or `pos` if none.
  size_t MatchUuid(size_t pos) const;
  size_t MatchIsoDuration(size_t pos) const;   // pos at 'P' or '-'
  size_t MatchUnitDuration(size_t pos) const;  // pos at a digit or '-'
  size_t MatchDigits(size_t pos) const;
  size_t MatchDurationUnit(size_t pos) const;
  Token LexNumber(size_t start);
  Token LexWord(size_t start);
  Token LexString(size_t start);
  Token LexDollarString(size_t start);
  Token LexQuotedName(size_t start);
  Token LexLineComment(size_t start) const;
  // One step of Next() at `pos_` (REQUIRES: !AtEnd(pos_)): sets `*token` to the token there,
  // hidden ones included (and then sets `*hidden`), and advances `pos_`. Returns false, with
  // no token, when a lexical error swallowed it.
  bool Step(Token* token, bool* hidden);
  // Step() for the tokens it does not lex inline: strings, quoted names, comments, operators,
  // and the characters that start no token. Same contract, `pos_` aside (Step sets it).
  bool LexOther(size_t start, Token* token, bool* hidden);

  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  bool AtEnd(size_t i) const { return i >= text_.size(); }

  std::string_view text_;
  size_t pos_ = 0;
  uint32_t tokens_emitted_ = 0;  // non-hidden tokens produced so far
  std::optional<LexerError> first_error_;
};

// ANTLR's text of a token: the unescaped content for strings ('it''s' -> it's, $$x$$ -> x)
// and quoted names ("a""b" -> a"b), "<EOF>" for kEof, the source text otherwise.
std::string TokenText(std::string_view source, const Token& token);
// Sets `*text` to TokenText(source, token), reusing its buffer (no temporary to move).
void AssignTokenText(std::string_view source, const Token& token, std::string* text);

// 1-based line and 0-based column of byte `offset`, counting columns in UTF-16 code units as
// Cassandra (Java) does. Columns restart after '\n'.
struct LineColumn {
  int line = 1;
  int column = 0;
};
LineColumn LineColumnOf(std::string_view text, size_t offset);

// ANTLR's display of the character at `offset` for lexer messages: "'x'", "'\n'" as "'\\n'",
// "'<EOF>'" at the end. Multi-byte UTF-8 characters are shown whole; invalid bytes as U+FFFD.
std::string CharDisplay(std::string_view text, size_t offset);

// Number of bytes of the UTF-8 character starting at `offset` (1 for invalid bytes).
size_t Utf8Length(std::string_view text, size_t offset);

// Decodes the UTF-8 character at `offset` (REQUIRES: offset < text.size()): returns its code
// point, U+FFFD for an invalid byte, and sets `*length` to its size in bytes (1 if invalid).
uint32_t DecodeUtf8(std::string_view text, size_t offset, size_t* length);

// Appends code point `cp` encoded in UTF-8.
void AppendUtf8(uint32_t cp, std::string* out);

}  // namespace cql
