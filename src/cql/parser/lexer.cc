#include "cql/parser/lexer.h"

#include <array>
#include <utility>

namespace cql {
namespace {

// Character classes, one table lookup each.
enum CharClass : uint8_t {
  kDigitClass = 1,
  kLetterClass = 2,
  kHexClass = 4,
  kIdentClass = 8,
  kSpaceClass = 16,
};

constexpr std::array<uint8_t, 256> BuildCharClasses() {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    uint8_t bits = 0;
    bool digit = c >= '0' && c <= '9';
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (digit) bits |= kDigitClass;
    if (letter) bits |= kLetterClass;
    if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) bits |= kHexClass;
    if (digit || letter || c == '_') bits |= kIdentClass;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') bits |= kSpaceClass;
    table[c] = bits;
  }
  return table;
}

constexpr std::array<uint8_t, 256> kCharClasses = BuildCharClasses();

// The kinds of the characters that always form a token on their own; kEof for the others.
constexpr std::array<TokenKind, 256> BuildSingleCharTokens() {
  std::array<TokenKind, 256> table{};
  for (TokenKind& kind : table) kind = TokenKind::kEof;
  table['('] = TokenKind::kLParen;
  table[')'] = TokenKind::kRParen;
  table['['] = TokenKind::kLBracket;
  table[']'] = TokenKind::kRBracket;
  table['{'] = TokenKind::kLBrace;
  table['}'] = TokenKind::kRBrace;
  table[','] = TokenKind::kComma;
  table[';'] = TokenKind::kSemicolon;
  table[':'] = TokenKind::kColon;
  table['='] = TokenKind::kEq;
  table['*'] = TokenKind::kStar;
  table['%'] = TokenKind::kPercent;
  table['?'] = TokenKind::kQmark;
  return table;
}

constexpr std::array<TokenKind, 256> kSingleCharTokens = BuildSingleCharTokens();

TokenKind SingleCharTokenKind(char c) { return kSingleCharTokens[static_cast<unsigned char>(c)]; }

uint8_t ClassesOf(char c) { return kCharClasses[static_cast<unsigned char>(c)]; }
bool Is(char c, CharClass cls) { return (ClassesOf(c) & cls) != 0; }
bool IsDigit(char c) { return Is(c, kDigitClass); }
bool IsLetter(char c) { return Is(c, kLetterClass); }
bool IsHex(char c) { return Is(c, kHexClass); }
bool IsSpace(char c) { return Is(c, kSpaceClass); }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Sets `*out` to the content of a quoted token (`raw` includes both quotes) with each
// doubled `quote` ('' or "") turned into one.
void AssignUnquoted(std::string_view raw, char quote, std::string* out) {
  out->clear();
  if (raw.size() < 2) return;
  std::string_view content = raw.substr(1, raw.size() - 2);
  size_t from = 0;
  size_t escape = content.find(quote);
  while (escape != std::string_view::npos) {
    out->append(content, from, escape + 1 - from);  // up to and including the first quote
    from = escape + 2;                              // skips the second one
    if (from >= content.size()) return;
    escape = content.find(quote, from);
  }
  out->append(content, from);
}

}  // namespace

uint32_t DecodeUtf8(std::string_view text, size_t offset, size_t* length) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char b0 = byte(offset);
  *length = 1;
  if (b0 < 0x80) return b0;
  size_t n = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0xFFFD;
  }
  if (offset + n > text.size()) return 0xFFFD;
  for (size_t i = 1; i < n; ++i) {
    unsigned char b = byte(offset + i);
    if ((b & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
  *length = n;
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t Utf8Length(std::string_view text, size_t offset) {
  if (offset >= text.size()) return 0;
  size_t length = 1;
  DecodeUtf8(text, offset, &length);
  return length;
}

std::string CharDisplay(std::string_view text, size_t offset) {
  if (offset >= text.size()) return "'<EOF>'";
  size_t length = 1;
  uint32_t cp = DecodeUtf8(text, offset, &length);
  switch (cp) {
    case '\n':
      return "'\\n'";
    case '\t':
      return "'\\t'";
    case '\r':
      return "'\\r'";
    default:
      break;
  }
  std::string out = "'";
  AppendUtf8(cp, &out);
  out += '\'';
  return out;
}

LineColumn LineColumnOf(std::string_view text, size_t offset) {
  LineColumn result;
  size_t i = 0;
  size_t end = offset < text.size() ? offset : text.size();
  while (i < end) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++result.line;
      result.column = 0;
      ++i;
    } else if (c < 0x80) {
      ++result.column;
      ++i;
    } else {
      size_t length = 1;
      uint32_t cp = DecodeUtf8(text, i, &length);
      result.column += cp >= 0x10000 ? 2 : 1;  // UTF-16 code units
      i += length;
    }
  }
  return result;
}

void AssignTokenText(std::string_view source, const Token& token, std::string* text) {
  if (token.kind == TokenKind::kEof) {
    *text = "<EOF>";
    return;
  }
  std::string_view raw = source.substr(token.offset, token.length);
  if (token.kind == TokenKind::kStringLiteral) {
    if (raw.size() >= 4 && raw[0] == '$') {
      text->assign(raw.substr(2, raw.size() - 4));
    } else {
      AssignUnquoted(raw, '\'', text);
    }
  } else if (token.kind == TokenKind::kQuotedName) {
    AssignUnquoted(raw, '"', text);
  } else {
    text->assign(raw);
  }
}

std::string TokenText(std::string_view source, const Token& token) {
  std::string text;
  AssignTokenText(source, token, &text);
  return text;
}

void Lexer::Error(size_t offset, std::string message) {
  if (first_error_) return;
  first_error_ = LexerError{static_cast<uint32_t>(offset), std::move(message), tokens_emitted_};
}

size_t Lexer::MatchDigits(size_t pos) const {
  while (IsDigit(At(pos))) ++pos;
  return pos;
}

size_t Lexer::MatchUuid(size_t pos) const {
  static constexpr int kGroups[] = {8, 4, 4, 4, 12};
  size_t i = pos;
  for (int g = 0; g < 5; ++g) {
    if (g > 0) {
      if (At(i) != '-') return pos;
      ++i;
    }
    for (int k = 0; k < kGroups[g]; ++k, ++i) {
      if (!IsHex(At(i))) return pos;
    }
  }
  return i;
}

// DURATION_UNIT: y | mo | w | d | h | m | s | ms | us | µs | ns (case-insensitive).
size_t Lexer::MatchDurationUnit(size_t pos) const {
  char c = Lower(At(pos));
  char next = Lower(At(pos + 1));
  switch (c) {
    case 'y':
    case 'w':
    case 'd':
    case 'h':
    case 's':
      return pos + 1;
    case 'm':
      return (next == 'o' || next == 's') ? pos + 2 : pos + 1;
    case 'u':
    case 'n':
      return next == 's' ? pos + 2 : pos;
    case '\xC2':  // U+00B5 MICRO SIGN is C2 B5 in UTF-8
      return (At(pos + 1) == '\xB5' && Lower(At(pos + 2)) == 's') ? pos + 3 : pos;
    default:
      return pos;
  }
}

// '-'? DIGIT+ UNIT (DIGIT+ UNIT)*
size_t Lexer::MatchUnitDuration(size_t pos) const {
  size_t i = pos;
  if (At(i) == '-') ++i;
  size_t end = pos;
  while (true) {
    size_t digits_end = MatchDigits(i);
    if (digits_end == i) break;
    size_t unit_end = MatchDurationUnit(digits_end);
    if (unit_end == digits_end) break;
    end = i = unit_end;
  }
  return end;
}

// The ISO 8601 forms of DURATION ('P' and the designators are upper case only).
size_t Lexer::MatchIsoDuration(size_t pos) const {
  size_t i = pos;
  if (At(i) == '-') ++i;
  if (At(i) != 'P') return pos;
  ++i;
  // "digits followed by `letter`": returns the end, or 0 when it does not match.
  auto number_then = [&](size_t at, char letter) -> size_t {
    size_t end = MatchDigits(at);
    if (end == at || At(end) != letter) return 0;
    return end + 1;
  };
  // 'T' designators: T n H (n M)? (n S)? | T n M (n S)? | T n S
  auto time_part = [&](size_t at) -> size_t {
    if (At(at) != 'T') return 0;
    ++at;
    if (size_t h = number_then(at, 'H')) {
      size_t end = h;
      if (size_t m = number_then(end, 'M')) end = m;
      if (size_t s = number_then(end, 'S')) end = s;
      return end;
    }
    if (size_t m = number_then(at, 'M')) {
      size_t end = m;
      if (size_t s = number_then(end, 'S')) end = s;
      return end;
    }
    return number_then(at, 'S');
  };
  size_t best = pos;
  // Alternative format: P yyyy-mm-ddThh:mm:ss
  {
    static constexpr char kShape[] = "dddd-dd-ddTdd:dd:dd";
    size_t k = 0;
    for (; kShape[k] != '\0'; ++k) {
      char c = At(i + k);
      bool ok = kShape[k] == 'd' ? IsDigit(c) : c == kShape[k];
      if (!ok) break;
    }
    if (kShape[k] == '\0') best = std::max(best, i + k);
  }
  if (size_t t = time_part(i)) best = std::max(best, t);
  if (size_t w = number_then(i, 'W')) best = std::max(best, w);
  // Period designators: n Y (n M)? (n D)? | n M (n D)? | n D, then optional time part.
  size_t period = 0;
  if (size_t y = number_then(i, 'Y')) {
    period = y;
    if (size_t m = number_then(period, 'M')) period = m;
    if (size_t d = number_then(period, 'D')) period = d;
  } else if (size_t m = number_then(i, 'M')) {
    period = m;
    if (size_t d = number_then(period, 'D')) period = d;
  } else if (size_t d = number_then(i, 'D')) {
    period = d;
  }
  if (period != 0) {
    if (size_t t = time_part(period)) period = t;
    best = std::max(best, period);
  }
  return best;
}

Token Lexer::LexNumber(size_t start) {
  size_t i = start;
  if (At(i) == '-') ++i;
  if (At(start) == '0' && (At(start + 1) == 'x' || At(start + 1) == 'X')) {
    size_t end = start + 2;
    while (IsHex(At(end))) ++end;
    size_t uuid_end = MatchUuid(start);
    if (uuid_end > end) return Make(TokenKind::kUuid, start, uuid_end);
    return Make(TokenKind::kHexNumber, start, end);
  }
  size_t digits_end = MatchDigits(i);
  // Candidates, longest wins; on a tie the earlier rule of Lexer.g wins
  // (INTEGER, FLOAT, DURATION, UUID in that order).
  TokenKind kind = TokenKind::kInteger;
  size_t end = digits_end;
  if (At(digits_end) == '.' && At(digits_end + 1) == '.') {
    // `1..3`: INTEGER then RANGE. `1...`: FLOAT "1." then RANGE (ANTLR's predicates).
    if (At(digits_end + 2) == '.') return Make(TokenKind::kFloat, start, digits_end + 1);
    return Make(TokenKind::kInteger, start, digits_end);
  }
  size_t float_end = digits_end;
  if (At(float_end) == '.') float_end = MatchDigits(float_end + 1);
  if (At(float_end) == 'e' || At(float_end) == 'E') {
    size_t e = float_end + 1;
    if (At(e) == '+' || At(e) == '-') ++e;
    size_t exponent_end = MatchDigits(e);
    if (exponent_end > e) float_end = exponent_end;
  }
  if (float_end > end) {
    kind = TokenKind::kFloat;
    end = float_end;
  }
  size_t duration_end =
      IsLetter(At(digits_end)) || At(digits_end) == '\xC2' ? MatchUnitDuration(start) : start;
  if (duration_end > end) {
    kind = TokenKind::kDuration;
    end = duration_end;
  }
  if (At(start) != '-' && At(start + 8) == '-') {
    size_t uuid_end = MatchUuid(start);
    if (uuid_end > end) {
      kind = TokenKind::kUuid;
      end = uuid_end;
    }
  }
  return Make(kind, start, end);
}

Token Lexer::LexWord(size_t start) {
  size_t end = start + 1;
  uint8_t common_classes = ClassesOf(text_[start]);  // the classes all its bytes have
  while (end < text_.size()) {
    const uint8_t classes = ClassesOf(text_[end]);
    if ((classes & kIdentClass) == 0) break;
    common_classes &= classes;
    ++end;
  }
  const size_t length = end - start;
  if (length == 8 && At(end) == '-') {  // only then can a uuid start here
    size_t uuid_end = MatchUuid(start);
    if (uuid_end > end) return Make(TokenKind::kUuid, start, uuid_end);
  }
  if (text_[start] == 'P') {
    size_t duration_end = MatchIsoDuration(start);
    if (duration_end >= end) return Make(TokenKind::kDuration, start, duration_end);
  }
  std::string_view word = text_.substr(start, length);
  if (length == 4 && At(end) == '(' && word == "expr") {
    return Make(TokenKind::kExprParen, start, end + 1);
  }
  // Keywords are all letters (token_kind.cc checks it): a word with a digit or '_' is none.
  const bool letters_only = (common_classes & kLetterClass) != 0;
  return Make(letters_only ? LookupKeyword(word) : TokenKind::kIdent, start, end);
}

Token Lexer::LexString(size_t start) {
  size_t i = start + 1;
  while (true) {
    if (AtEnd(i)) {
      Error(i, "mismatched character '<EOF>' expecting '''");
      pos_ = i;
      return Token{TokenKind::kEof, static_cast<uint32_t>(i), 0};
    }
    if (text_[i] == '\'') {
      if (At(i + 1) == '\'') {
        i += 2;
        continue;
      }
      return Make(TokenKind::kStringLiteral, start, i + 1);
    }
    ++i;
  }
}

Token Lexer::LexDollarString(size_t start) {
  // '$' '$' (char while at least two chars remain and they are not "$$")* '$' '$'
  size_t i = start + 2;
  while (text_.size() > i + 1 && !(text_[i] == '$' && text_[i + 1] == '$')) ++i;
  for (size_t k = 0; k < 2; ++k, ++i) {
    if (At(i) != '$' || AtEnd(i)) {
      Error(i, "mismatched character " + CharDisplay(text_, i) + " expecting '$'");
      pos_ = AtEnd(i) ? i : i + Utf8Length(text_, i);  // ANTLR's recover() consumes it
      return Token{TokenKind::kEof, 0, 0};
    }
  }
  return Make(TokenKind::kStringLiteral, start, i);
}

Token Lexer::LexQuotedName(size_t start) {
  if (At(start + 1) == '"' && At(start + 2) != '"') {
    return Make(TokenKind::kEmptyQuotedName, start, start + 2);
  }
  size_t i = start + 1;
  while (true) {
    if (AtEnd(i)) {
      Error(i, "mismatched character '<EOF>' expecting '\"'");
      pos_ = i;
      return Token{TokenKind::kEof, static_cast<uint32_t>(i), 0};
    }
    if (text_[i] == '"') {
      if (At(i + 1) == '"') {
        i += 2;
        continue;
      }
      return Make(TokenKind::kQuotedName, start, i + 1);
    }
    ++i;
  }
}

// `--` or `//` up to and including the end of the line (or the end of the text).
Token Lexer::LexLineComment(size_t start) const {
  size_t end = start + 2;
  while (!AtEnd(end) && text_[end] != '\n' && text_[end] != '\r') ++end;
  if (!AtEnd(end)) ++end;
  return Make(TokenKind::kEof, start, end);
}

bool Lexer::LexOther(size_t start, Token* token, bool* hidden) {
  // `*token` for the operators that may be followed by one more character.
  auto one_or_two = [&](char second, TokenKind one, TokenKind two) {
    *token = At(start + 1) == second ? Make(two, start, start + 2) : Make(one, start, start + 1);
    return true;
  };
  switch (text_[start]) {
    case '\'':
      *token = LexString(start);
      return token->kind != TokenKind::kEof;
    case '"':
      *token = LexQuotedName(start);
      return token->kind != TokenKind::kEof;
    case '$':
      if (At(start + 1) == '$') {
        *token = LexDollarString(start);
        return token->kind != TokenKind::kEof;
      }
      Error(start + 1, "mismatched character " + CharDisplay(text_, start + 1) + " expecting '$'");
      pos_ = start + 1 + Utf8Length(text_, start + 1);
      return false;
    case '/':
      if (At(start + 1) == '/') {
        *token = LexLineComment(start);
        *hidden = true;
        return true;
      }
      if (At(start + 1) == '*') {
        size_t end = text_.find("*/", start + 2);
        if (end == std::string_view::npos) {
          Error(text_.size(), "mismatched character '<EOF>' expecting '*'");
          pos_ = text_.size();
          return false;
        }
        *token = Make(TokenKind::kEof, start, end + 2);
        *hidden = true;
        return true;
      }
      *token = Make(TokenKind::kSlash, start, start + 1);
      return true;
    case '-': {
      if (At(start + 1) == '-') {
        *token = LexLineComment(start);
        *hidden = true;
        return true;
      }
      if (IsDigit(At(start + 1))) {
        *token = LexNumber(start);
        return true;
      }
      size_t iso_end = MatchIsoDuration(start);
      size_t word_end = start + 1;
      while (IsLetter(At(word_end))) ++word_end;
      TokenKind word = LookupKeyword(text_.substr(start + 1, word_end - start - 1));
      if (iso_end > start) {
        *token = Make(TokenKind::kDuration, start, iso_end);
      } else if (word == TokenKind::kKPositiveNan) {
        *token = Make(TokenKind::kNegativeNan, start, start + 4);
      } else if (word == TokenKind::kKPositiveInfinity) {
        *token = Make(TokenKind::kNegativeInfinity, start, start + 9);
      } else {
        return one_or_two('=', TokenKind::kMinus, TokenKind::kMinusEq);
      }
      return true;
    }
    case '+':
      return one_or_two('=', TokenKind::kPlus, TokenKind::kPlusEq);
    case '<':
      return one_or_two('=', TokenKind::kLt, TokenKind::kLte);
    case '>':
      return one_or_two('=', TokenKind::kGt, TokenKind::kGte);
    case '.':
      return one_or_two('.', TokenKind::kDot, TokenKind::kRange);
    case '!':
      if (At(start + 1) == '=') {
        *token = Make(TokenKind::kNeq, start, start + 2);
        return true;
      }
      Error(start + 1, "mismatched character " + CharDisplay(text_, start + 1) + " expecting '='");
      pos_ = start + 1 + Utf8Length(text_, start + 1);
      return false;
    default:
      Error(start, "no viable alternative at character " + CharDisplay(text_, start));
      pos_ = start + Utf8Length(text_, start);
      return false;
  }
}

inline bool Lexer::Step(Token* token, bool* hidden) {
  const size_t start = pos_;
  const char c = text_[start];
  // The common tokens first, without a call: words, one-character punctuation, numbers.
  if (IsLetter(c)) {
    *token = LexWord(start);
  } else if (TokenKind single = SingleCharTokenKind(c); single != TokenKind::kEof) {
    *token = Make(single, start, start + 1);
  } else if (IsDigit(c)) {
    *token = LexNumber(start);
  } else if (IsSpace(c)) {
    size_t end = start + 1;
    while (IsSpace(At(end))) ++end;
    *token = Make(TokenKind::kEof, start, end);
    *hidden = true;
  } else if (!LexOther(start, token, hidden)) {  // an error swallowed the would-be token
    if (pos_ <= start) pos_ = start + 1;         // always make progress
    return false;
  }
  pos_ = static_cast<size_t>(token->offset) + token->length;
  if (!*hidden) ++tokens_emitted_;
  return true;
}

Token Lexer::Next(bool* hidden) {
  Token token;
  while (true) {
    *hidden = false;
    if (AtEnd(pos_)) return Token{TokenKind::kEof, static_cast<uint32_t>(text_.size()), 0};
    if (Step(&token, hidden)) return token;
  }
}

void Lexer::Tokenize(std::string_view text, std::vector<Token>* tokens,
                     std::optional<LexerError>* first_error) {
  Lexer lexer(text);
  tokens->clear();
  tokens->reserve(text.size() / 3 + 2);  // statements average 3 to 4 bytes a token
  // Next() without returning the hidden tokens: one loop, no call per token.
  while (true) {
    while (!lexer.AtEnd(lexer.pos_) && IsSpace(text[lexer.pos_])) ++lexer.pos_;
    if (lexer.AtEnd(lexer.pos_)) break;
    Token token;
    bool hidden = false;
    if (lexer.Step(&token, &hidden) && !hidden) tokens->push_back(token);
  }
  tokens->push_back(Token{TokenKind::kEof, static_cast<uint32_t>(text.size()), 0});
  *first_error = lexer.first_error();
}

}  // namespace cql
