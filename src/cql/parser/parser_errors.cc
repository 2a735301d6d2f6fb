// Syntax error messages in the form Cassandra gives them (ANTLR 3 messages plus
// ErrorCollector's query snippet). See the comment block of parser.h.

#include <string>
#include <vector>

#include "cql/parser/parser_internal.h"
#include "cql/types/type_depth.h"

namespace cql::internal {
namespace {

// Tokens of the whole text including hidden ones (whitespace, comments), as ANTLR's token
// buffer holds them.
struct RawToken {
  Token token;
  bool hidden = false;
};

std::u16string ToUtf16(std::string_view text) {
  std::u16string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t length = 1;
    uint32_t cp = DecodeUtf8(text, i, &length);
    i += length;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

std::string ToUtf8(const std::u16string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    uint32_t cp = text[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 &&
        text[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    AppendUtf8(cp, &out);
  }
  return out;
}

size_t Utf16Length(std::string_view text) { return ToUtf16(text).size(); }

// Java's String.split("\n"): trailing empty strings are removed.
std::vector<std::u16string> SplitLines(const std::u16string& text) {
  std::vector<std::u16string> lines;
  size_t start = 0;
  while (true) {
    size_t end = text.find(u'\n', start);
    if (end == std::u16string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (text.empty()) return lines;  // "".split("\n") is [""]
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::u16string InsertChar(const std::u16string& line, size_t index, char16_t c) {
  if (index > line.size()) index = line.size();
  std::u16string out = line.substr(0, index);
  out.push_back(c);
  out.append(line.substr(index));
  return out;
}

}  // namespace

std::string Parser::TokenDisplay(std::string_view text, const Token& token) {
  std::string raw = TokenText(text, token);
  std::string out = "'";
  for (char c : raw) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  out += '\'';
  return out;
}

std::string Parser::Header(const Token& token) const {
  // Cassandra's lexer returns an EOF token without a position: "line 0:-1".
  if (token.kind == TokenKind::kEof) return "line 0:-1";
  LineColumn position = LineColumnOf(text_, token.offset);
  return "line " + std::to_string(position.line) + ":" + std::to_string(position.column);
}

// ErrorCollector.appendQuerySnippet: from 10 tokens before the current one to 2 after it
// (among those already fetched), the current one in brackets, lines joined without
// separators, "..." where the query is cut.
std::string Parser::Snippet() const {
  std::vector<RawToken> all;
  std::vector<size_t> raw_index;  // significant token index -> index in `all`
  {
    Lexer lexer(text_);
    while (true) {
      RawToken raw;
      raw.token = lexer.Next(&raw.hidden);
      if (!raw.hidden) raw_index.push_back(all.size());
      all.push_back(raw);
      if (!raw.hidden && raw.token.kind == TokenKind::kEof) break;
    }
  }
  if (pos_ >= raw_index.size() || max_fetched_ >= raw_index.size()) return std::string();
  size_t index = raw_index[pos_];
  size_t size = raw_index[max_fetched_] + 1;
  size_t from = index >= 10 ? index - 10 : 0;
  size_t to = std::min(size - 1, index + 2);
  size_t offending = std::min(index, size - 1);
  auto invalid = [&](size_t i) { return !all[i].hidden && all[i].token.kind == TokenKind::kEof; };
  if (invalid(from) || invalid(to) || invalid(offending)) return std::string();

  struct Position {
    size_t line = 0;    // 0-based line index
    size_t column = 0;  // UTF-16 units
    size_t last = 0;    // column + length of the token's text
  };
  auto position_of = [&](size_t i) {
    const RawToken& raw = all[i];
    LineColumn lc = LineColumnOf(text_, raw.token.offset);
    std::string token_text = raw.hidden
                                 ? std::string(text_.substr(raw.token.offset, raw.token.length))
                                 : TokenText(text_, raw.token);
    Position p;
    p.line = static_cast<size_t>(lc.line - 1);
    p.column = static_cast<size_t>(lc.column);
    p.last = p.column + Utf16Length(token_text);
    return p;
  };
  Position from_pos = position_of(from);
  Position to_pos = position_of(to);
  Position offending_pos = position_of(offending);

  std::vector<std::u16string> lines = SplitLines(ToUtf16(text_));
  if (to_pos.line >= lines.size() || from_pos.line >= lines.size() ||
      offending_pos.line >= lines.size()) {
    return std::string();
  }
  bool include_start = from_pos.line == 0 && from_pos.column == 0;
  bool include_end = to_pos.line == lines.size() - 1 && to_pos.last == lines.back().size();

  std::u16string& to_line = lines[to_pos.line];
  if (to_pos.last < to_line.size()) to_line = to_line.substr(0, to_pos.last);
  std::u16string& offending_line = lines[offending_pos.line];
  offending_line =
      InsertChar(InsertChar(offending_line, offending_pos.last, u']'), offending_pos.column, u'[');
  std::u16string& from_line = lines[from_pos.line];
  from_line =
      from_pos.column <= from_line.size() ? from_line.substr(from_pos.column) : std::u16string();
  std::u16string snippet = u" (";
  if (!include_start) snippet += u"...";
  for (size_t i = from_pos.line; i <= to_pos.line; ++i) snippet += lines[i];
  if (!include_end) snippet += u"...";
  snippet += u")";
  return ToUtf8(snippet);
}

Status Parser::LexerErrorStatus() const {
  LineColumn position = LineColumnOf(text_, lexer_error_->offset);
  return Status::SyntaxError("line " + std::to_string(position.line) + ":" +
                             std::to_string(position.column) + " " + lexer_error_->message);
}

Status Parser::Collected(Status parser_error) {
  if (lexer_error_ && lexer_error_->token_index <= max_fetched_) return LexerErrorStatus();
  return parser_error;
}

Status Parser::MismatchError(TokenKind expected) {
  const Token& token = Peek();
  if (speculating_) return Status::SyntaxError("mismatch");
  return Collected(Status::SyntaxError(Header(token) + " mismatched input " +
                                       TokenDisplay(text_, token) + " expecting " +
                                       std::string(TokenKindName(expected)) + Snippet()));
}

Status Parser::NoViableAltError(size_t k) {
  const Token& token = Peek(k);
  if (speculating_) return Status::SyntaxError("no viable alternative");
  return Collected(Status::SyntaxError(Header(token) + " no viable alternative at input " +
                                       TokenDisplay(text_, token) + Snippet()));
}

Status Parser::MismatchSetError() {
  const Token& token = Peek();
  if (speculating_) return Status::SyntaxError("mismatch");
  return Collected(Status::SyntaxError(Header(token) + " mismatched input " +
                                       TokenDisplay(text_, token) + " expecting set null" +
                                       Snippet()));
}

Status Parser::RecognitionError(std::string message) {
  if (speculating_) return Status::SyntaxError(std::move(message));
  return Collected(Status::SyntaxError(std::move(message)));
}

bool Parser::TryEnterNesting() {
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  size_t used = stack_base_ > here ? static_cast<size_t>(stack_base_ - here) : 0;
  if (nesting_ >= kMaxNesting || used > kMaxStackBytes) return false;
  ++nesting_;
  return true;
}

Status Parser::NestingError() {
  const Token& token = Peek();
  return Status::SyntaxError(Header(token) + " too many nesting levels (more than " +
                             std::to_string(kMaxNesting) + ") at input " +
                             TokenDisplay(text_, token));
}

Status Parser::TypeDepthError() {
  const Token& token = Peek();
  return Status::SyntaxError(Header(token) + " type nested too deeply (more than " +
                             std::to_string(kMaxTypeDepth) +
                             " levels of collections, tuples, vectors and user types) at input " +
                             TokenDisplay(text_, token));
}

}  // namespace cql::internal
