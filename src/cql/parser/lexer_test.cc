#include "cql/parser/lexer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace cql {
namespace {

using K = TokenKind;

struct Lexed {
  std::vector<Token> tokens;
  std::optional<LexerError> error;
};

Lexed Lex(std::string_view text) {
  Lexed out;
  Lexer::Tokenize(text, &out.tokens, &out.error);
  return out;
}

// Kinds of the tokens, without the final kEof.
std::vector<K> Kinds(std::string_view text) {
  Lexed lexed = Lex(text);
  EXPECT_FALSE(lexed.error.has_value()) << text << ": " << lexed.error->message;
  std::vector<K> kinds;
  for (const Token& t : lexed.tokens) {
    if (t.kind != K::kEof) kinds.push_back(t.kind);
  }
  return kinds;
}

// Source texts of the tokens, without the final kEof.
std::vector<std::string> Texts(std::string_view text) {
  Lexed lexed = Lex(text);
  std::vector<std::string> texts;
  for (const Token& t : lexed.tokens) {
    if (t.kind != K::kEof) texts.emplace_back(text.substr(t.offset, t.length));
  }
  return texts;
}

K Single(std::string_view text) {
  std::vector<K> kinds = Kinds(text);
  EXPECT_EQ(kinds.size(), 1u) << text;
  return kinds.empty() ? K::kEof : kinds[0];
}

std::string ErrorOf(std::string_view text) {
  Lexed lexed = Lex(text);
  if (!lexed.error) return "(no error)";
  LineColumn lc = LineColumnOf(text, lexed.error->offset);
  return std::to_string(lc.line) + ":" + std::to_string(lc.column) + " " + lexed.error->message;
}

TEST(LexerTest, EndsWithEof) {
  Lexed lexed = Lex("");
  ASSERT_EQ(lexed.tokens.size(), 1u);
  EXPECT_EQ(lexed.tokens[0].kind, K::kEof);
  lexed = Lex("  \n\t ");
  ASSERT_EQ(lexed.tokens.size(), 1u);
  EXPECT_EQ(lexed.tokens[0].offset, 5u);
}

TEST(LexerTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(Single("select"), K::kKSelect);
  EXPECT_EQ(Single("SELECT"), K::kKSelect);
  EXPECT_EQ(Single("SeLeCt"), K::kKSelect);
  EXPECT_EQ(Single("materialized"), K::kKMaterialized);
  EXPECT_EQ(Single("NORECURSIVE"), K::kKNorecursive);
  EXPECT_EQ(Single("writetime"), K::kKWritetime);
}

TEST(LexerTest, KeywordAliases) {
  EXPECT_EQ(Single("table"), K::kKColumnfamily);
  EXPECT_EQ(Single("COLUMNFAMILY"), K::kKColumnfamily);
  EXPECT_EQ(Single("tables"), K::kKTables);
  EXPECT_EQ(Single("columnfamilies"), K::kKTables);
  EXPECT_EQ(Single("schema"), K::kKSchema);
  EXPECT_EQ(Single("keyspace"), K::kKKeyspace);
}

TEST(LexerTest, Identifiers) {
  EXPECT_EQ(Single("abc"), K::kIdent);
  EXPECT_EQ(Single("a_b_1"), K::kIdent);
  EXPECT_EQ(Single("Selected"), K::kIdent);  // longer than the keyword
  EXPECT_EQ(Single("p1d"), K::kIdent);       // ISO durations need an upper-case P
  EXPECT_EQ(Single("P"), K::kIdent);
  EXPECT_EQ(Single("expr"), K::kIdent);
}

TEST(LexerTest, UnderscoreStartIsAnError) {
  EXPECT_EQ(ErrorOf("_a"), "1:0 no viable alternative at character '_'");
}

TEST(LexerTest, QuotedNames) {
  EXPECT_EQ(Single("\"MyTable\""), K::kQuotedName);
  EXPECT_EQ(Single("\"\""), K::kEmptyQuotedName);
  EXPECT_EQ(Single("\"a\"\"b\""), K::kQuotedName);
  EXPECT_EQ(Single("\"\"\"\""), K::kQuotedName);  // the name `"`
  Lexed lexed = Lex("\"a\"\"b\"");
  EXPECT_EQ(TokenText("\"a\"\"b\"", lexed.tokens[0]), "a\"b");
  EXPECT_EQ(TokenText("\"\"\"\"", Lex("\"\"\"\"").tokens[0]), "\"");
}

TEST(LexerTest, StringLiterals) {
  std::string text = "'it''s' '' $$a 'b' $c$$ $$$$";
  Lexed lexed = Lex(text);
  ASSERT_FALSE(lexed.error);
  ASSERT_EQ(lexed.tokens.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(lexed.tokens[i].kind, K::kStringLiteral);
  EXPECT_EQ(TokenText(text, lexed.tokens[0]), "it's");
  EXPECT_EQ(TokenText(text, lexed.tokens[1]), "");
  EXPECT_EQ(TokenText(text, lexed.tokens[2]), "a 'b' $c");
  EXPECT_EQ(TokenText(text, lexed.tokens[3]), "");
}

TEST(LexerTest, StringsKeepNewlinesAndUtf8) {
  std::string text = "'line1\nligne \xE2\x80\x98 2'";
  Lexed lexed = Lex(text);
  ASSERT_FALSE(lexed.error);
  EXPECT_EQ(TokenText(text, lexed.tokens[0]), "line1\nligne \xE2\x80\x98 2");
}

TEST(LexerTest, Integers) {
  EXPECT_EQ(Single("0"), K::kInteger);
  EXPECT_EQ(Single("123"), K::kInteger);
  EXPECT_EQ(Single("-42"), K::kInteger);
  EXPECT_EQ(Single("007"), K::kInteger);
  EXPECT_EQ((Kinds("1 - 2")), (std::vector<K>{K::kInteger, K::kMinus, K::kInteger}));
  EXPECT_EQ((Kinds("1 -2")), (std::vector<K>{K::kInteger, K::kInteger}));
  EXPECT_EQ((Kinds("a-1")), (std::vector<K>{K::kIdent, K::kInteger}));
}

TEST(LexerTest, Floats) {
  EXPECT_EQ(Single("1.5"), K::kFloat);
  EXPECT_EQ(Single("-1.5"), K::kFloat);
  EXPECT_EQ(Single("3."), K::kFloat);
  EXPECT_EQ(Single("1e10"), K::kFloat);
  EXPECT_EQ(Single("1E+10"), K::kFloat);
  EXPECT_EQ(Single("1.5e-3"), K::kFloat);
  EXPECT_EQ(Single("1.e5"), K::kFloat);
  EXPECT_EQ((Kinds("1.5e")), (std::vector<K>{K::kFloat, K::kIdent}));
  EXPECT_EQ((Texts("1.5e")), (std::vector<std::string>{"1.5", "e"}));
  EXPECT_EQ((Kinds(".5")), (std::vector<K>{K::kDot, K::kInteger}));
}

TEST(LexerTest, Ranges) {
  EXPECT_EQ((Kinds("1..3")), (std::vector<K>{K::kInteger, K::kRange, K::kInteger}));
  EXPECT_EQ((Kinds("[1..]")), (std::vector<K>{K::kLBracket, K::kInteger, K::kRange, K::kRBracket}));
  EXPECT_EQ((Kinds("..3")), (std::vector<K>{K::kRange, K::kInteger}));
  // ANTLR's predicate: INTEGER '.' RANGE is FLOAT then RANGE.
  EXPECT_EQ((Texts("1...3")), (std::vector<std::string>{"1.", "..", "3"}));
  EXPECT_EQ((Kinds("1...3")), (std::vector<K>{K::kFloat, K::kRange, K::kInteger}));
}

TEST(LexerTest, NanAndInfinity) {
  EXPECT_EQ(Single("NaN"), K::kKPositiveNan);
  EXPECT_EQ(Single("nan"), K::kKPositiveNan);
  EXPECT_EQ(Single("-NaN"), K::kNegativeNan);
  EXPECT_EQ(Single("Infinity"), K::kKPositiveInfinity);
  EXPECT_EQ(Single("-infinity"), K::kNegativeInfinity);
  EXPECT_EQ((Kinds("- NaN")), (std::vector<K>{K::kMinus, K::kKPositiveNan}));
}

TEST(LexerTest, HexNumbers) {
  EXPECT_EQ(Single("0xCAFE"), K::kHexNumber);
  EXPECT_EQ(Single("0Xcafe01"), K::kHexNumber);
  EXPECT_EQ(Single("0x"), K::kHexNumber);
  EXPECT_EQ((Texts("0x1g")), (std::vector<std::string>{"0x1", "g"}));
}

TEST(LexerTest, Uuids) {
  EXPECT_EQ(Single("123e4567-e89b-12d3-a456-426614174000"), K::kUuid);
  EXPECT_EQ(Single("DEADBEEF-e89b-12d3-a456-426614174000"), K::kUuid);
  EXPECT_EQ(Single("deadbeef-e89b-12d3-a456-426614174000"), K::kUuid);
  EXPECT_EQ(Single("00000000-0000-0000-0000-000000000000"), K::kUuid);
  // Not quite a uuid: an integer, then more tokens.
  EXPECT_EQ((Kinds("12345678-1234")), (std::vector<K>{K::kInteger, K::kInteger}));
}

TEST(LexerTest, Durations) {
  for (const char* text : {"1h",
                           "1h30m",
                           "-2d",
                           "1y2mo3w4d5h6m7s8ms9us10ns",
                           "1MO",
                           "3µs",
                           "12H",
                           "P1D",
                           "P1Y2M3D",
                           "P1Y2M3DT4H5M6S",
                           "PT1H",
                           "PT1M30S",
                           "PT10S",
                           "P2W",
                           "-P2W",
                           "P0001-02-03T04:05:06",
                           "-P0001-02-03T04:05:06",
                           "P1M",
                           "P1Y",
                           "P1DT1H"}) {
    EXPECT_EQ(Single(text), K::kDuration) << text;
  }
  EXPECT_EQ((Texts("1day")), (std::vector<std::string>{"1d", "ay"}));
  EXPECT_EQ((Texts("1h30")), (std::vector<std::string>{"1h", "30"}));
  EXPECT_EQ((Kinds("P1Dx")), (std::vector<K>{K::kIdent}));
  EXPECT_EQ((Kinds("1u")), (std::vector<K>{K::kInteger, K::kIdent}));
}

TEST(LexerTest, Booleans) {
  EXPECT_EQ(Single("true"), K::kBoolean);
  EXPECT_EQ(Single("FALSE"), K::kBoolean);
  EXPECT_EQ(Single("trueish"), K::kIdent);
}

TEST(LexerTest, Punctuation) {
  EXPECT_EQ((Kinds("( ) [ ] { } , ; : . = < <= > >= != + - += -= * / % ? ..")),
            (std::vector<K>{K::kLParen, K::kRParen, K::kLBracket,  K::kRBracket, K::kLBrace,
                            K::kRBrace, K::kComma,  K::kSemicolon, K::kColon,    K::kDot,
                            K::kEq,     K::kLt,     K::kLte,       K::kGt,       K::kGte,
                            K::kNeq,    K::kPlus,   K::kMinus,     K::kPlusEq,   K::kMinusEq,
                            K::kStar,   K::kSlash,  K::kPercent,   K::kQmark,    K::kRange}));
  EXPECT_EQ((Kinds("a+=1")), (std::vector<K>{K::kIdent, K::kPlusEq, K::kInteger}));
  EXPECT_EQ((Kinds("map<text,int>")),
            (std::vector<K>{K::kKMap, K::kLt, K::kKText, K::kComma, K::kKInt, K::kGt}));
}

TEST(LexerTest, ExprOpenerIsOneToken) {
  EXPECT_EQ((Kinds("expr(idx, 'q')")),
            (std::vector<K>{K::kExprParen, K::kIdent, K::kComma, K::kStringLiteral, K::kRParen}));
  EXPECT_EQ((Kinds("expr (a)")), (std::vector<K>{K::kIdent, K::kLParen, K::kIdent, K::kRParen}));
  EXPECT_EQ((Kinds("EXPR(a)")), (std::vector<K>{K::kIdent, K::kLParen, K::kIdent, K::kRParen}));
}

TEST(LexerTest, CommentsAreHidden) {
  EXPECT_EQ((Kinds("a -- comment\nb // other\r\nc /* multi\nline */ d")),
            (std::vector<K>{K::kIdent, K::kIdent, K::kIdent, K::kIdent}));
  EXPECT_EQ((Kinds("a -- at the end")), (std::vector<K>{K::kIdent}));
  EXPECT_EQ((Kinds("a/**/b")), (std::vector<K>{K::kIdent, K::kIdent}));
}

TEST(LexerTest, HiddenTokensFromNext) {
  Lexer lexer("a /* c */ b");
  bool hidden = false;
  std::vector<bool> flags;
  while (true) {
    Token t = lexer.Next(&hidden);
    if (!hidden && t.kind == K::kEof) break;
    flags.push_back(hidden);
  }
  EXPECT_EQ(flags, (std::vector<bool>{false, true, true, true, false}));
}

TEST(LexerTest, UnknownCharacterErrors) {
  EXPECT_EQ(ErrorOf("SELECT @ FROM"), "1:7 no viable alternative at character '@'");
  EXPECT_EQ(ErrorOf("a\n  {\xE2\x80\x98"
                    "class"),
            "2:3 no viable alternative at character '\xE2\x80\x98'");
  EXPECT_EQ(ErrorOf("#"), "1:0 no viable alternative at character '#'");
  EXPECT_EQ(ErrorOf("a\x01"), "1:1 no viable alternative at character '\x01'");
  EXPECT_EQ(ErrorOf("\xFF"), "1:0 no viable alternative at character '\xEF\xBF\xBD'");
}

TEST(LexerTest, UnterminatedErrors) {
  EXPECT_EQ(ErrorOf("SELECT 'abc"), "1:11 mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(ErrorOf("'a''"), "1:4 mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(ErrorOf("\"abc"), "1:4 mismatched character '<EOF>' expecting '\"'");
  EXPECT_EQ(ErrorOf("$$abc"), "1:4 mismatched character 'c' expecting '$'");
  EXPECT_EQ(ErrorOf("$$abc$"), "1:6 mismatched character '<EOF>' expecting '$'");
  EXPECT_EQ(ErrorOf("$x"), "1:1 mismatched character 'x' expecting '$'");
  EXPECT_EQ(ErrorOf("/* never closed"), "1:15 mismatched character '<EOF>' expecting '*'");
  EXPECT_EQ(ErrorOf("a ! b"), "1:3 mismatched character ' ' expecting '='");
  EXPECT_EQ(ErrorOf("a !"), "1:3 mismatched character '<EOF>' expecting '='");
  EXPECT_EQ(ErrorOf("'abc\n"), "2:0 mismatched character '<EOF>' expecting '''");
}

TEST(LexerTest, ErrorRecoverySkipsTheCharacter) {
  Lexed lexed = Lex("a @ b");
  ASSERT_TRUE(lexed.error);
  EXPECT_EQ(lexed.error->token_index, 1u);  // reported while producing `b`
  ASSERT_EQ(lexed.tokens.size(), 3u);
  EXPECT_EQ(lexed.tokens[1].kind, K::kIdent);
  // Only the first error is kept.
  lexed = Lex("@ #");
  EXPECT_EQ(lexed.error->message, "no viable alternative at character '@'");
}

TEST(LexerTest, LineColumnCountsUtf16Units) {
  std::string text =
      "ab\ncd\xE2\x80\x98"
      "e\xF0\x9F\x98\x80"
      "f";
  EXPECT_EQ(LineColumnOf(text, 0).line, 1);
  EXPECT_EQ(LineColumnOf(text, 3).line, 2);
  EXPECT_EQ(LineColumnOf(text, 3).column, 0);
  EXPECT_EQ(LineColumnOf(text, 8).column, 3);   // after the 3-byte quote: 1 unit
  EXPECT_EQ(LineColumnOf(text, 13).column, 6);  // after the emoji: 2 units
  EXPECT_EQ(LineColumnOf(text, 1000).column, 7);
}

TEST(LexerTest, CharDisplay) {
  EXPECT_EQ(CharDisplay("a", 0), "'a'");
  EXPECT_EQ(CharDisplay("a", 1), "'<EOF>'");
  EXPECT_EQ(CharDisplay("\n", 0), "'\\n'");
  EXPECT_EQ(CharDisplay("\t", 0), "'\\t'");
  EXPECT_EQ(CharDisplay("\r", 0), "'\\r'");
  EXPECT_EQ(CharDisplay("\xE2\x80\x99", 0), "'\xE2\x80\x99'");
  EXPECT_EQ(CharDisplay("\xE2\x80", 0), "'\xEF\xBF\xBD'");  // truncated sequence
}

TEST(LexerTest, TokenTextOfOtherTokens) {
  std::string text = "SeLeCt 0xAB -1.5";
  Lexed lexed = Lex(text);
  EXPECT_EQ(TokenText(text, lexed.tokens[0]), "SeLeCt");
  EXPECT_EQ(TokenText(text, lexed.tokens[1]), "0xAB");
  EXPECT_EQ(TokenText(text, lexed.tokens[2]), "-1.5");
  EXPECT_EQ(TokenText(text, lexed.tokens[3]), "<EOF>");
}

TEST(LexerTest, AssignTokenTextReplacesTheContent) {
  std::string text = R"('''' 'a''' '''a' 'a''b''c' $$x''$$ """q" "a""" abc '')";
  Lexed lexed = Lex(text);
  ASSERT_FALSE(lexed.error);
  std::vector<std::string> expected = {"'",   "a'",  "'a",  "a'b'c", "x''",
                                       "\"q", "a\"", "abc", "",      "<EOF>"};
  ASSERT_EQ(lexed.tokens.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string out = "previous content, longer than fifteen bytes";
    AssignTokenText(text, lexed.tokens[i], &out);
    EXPECT_EQ(out, expected[i]) << i;
    EXPECT_EQ(TokenText(text, lexed.tokens[i]), expected[i]) << i;
  }
}

// Tokenize() is Next() without the hidden tokens: same tokens, same first error, on valid
// and invalid inputs alike (random mutations of statements, fixed seed).
TEST(LexerTest, TokenizeAgreesWithNext) {
  std::vector<std::string> inputs = {
      "SELECT a, \"B\" FROM ks.t WHERE k = 'x''y' AND c >= -1.5e3 LIMIT ?;",
      "INSERT INTO t (a) VALUES (0x1F, 12345678-1234-1234-1234-123456789abc, 1h30m, P1D, -NaN)",
      "a -- comment\n b // other\r c /* block */ d $$dollar$$ :name [1..2] {k: v} != += -=",
  };
  std::mt19937_64 random(42);
  const std::string alphabet = "'\"$-/*.!@#?:;,(){}[]<>=+% \n\t0aZeEP_\xC2\xB5\xE2\x80\x98\xFF";
  for (size_t i = 0, base = inputs.size(); i < base; ++i) {
    for (int m = 0; m < 200; ++m) {
      std::string s = inputs[i];
      for (int k = 0; k < 3; ++k) {
        size_t at = random() % (s.size() + 1);
        if (random() % 2 == 0 && at < s.size()) {
          s.erase(at, 1);
        } else {
          s.insert(at, 1, alphabet[random() % alphabet.size()]);
        }
      }
      inputs.push_back(s);
    }
  }
  for (const std::string& input : inputs) {
    Lexed lexed = Lex(input);
    Lexer lexer(input);
    std::vector<Token> tokens;
    while (true) {
      bool hidden = false;
      Token t = lexer.Next(&hidden);
      if (hidden) continue;
      tokens.push_back(t);
      if (t.kind == K::kEof) break;
    }
    ASSERT_EQ(tokens.size(), lexed.tokens.size()) << input;
    for (size_t t = 0; t < tokens.size(); ++t) {
      EXPECT_EQ(tokens[t].kind, lexed.tokens[t].kind) << input;
      EXPECT_EQ(tokens[t].offset, lexed.tokens[t].offset) << input;
      EXPECT_EQ(tokens[t].length, lexed.tokens[t].length) << input;
    }
    ASSERT_EQ(lexer.first_error().has_value(), lexed.error.has_value()) << input;
    if (lexed.error) {
      EXPECT_EQ(lexer.first_error()->message, lexed.error->message) << input;
      EXPECT_EQ(lexer.first_error()->offset, lexed.error->offset) << input;
      EXPECT_EQ(lexer.first_error()->token_index, lexed.error->token_index) << input;
    }
  }
}

TEST(TokenKindTest, Names) {
  EXPECT_EQ(TokenKindName(K::kKSelect), "K_SELECT");
  EXPECT_EQ(TokenKindName(K::kKColumnfamily), "K_COLUMNFAMILY");
  EXPECT_EQ(TokenKindName(K::kKPositiveNan), "K_POSITIVE_NAN");
  EXPECT_EQ(TokenKindName(K::kKPositiveInfinity), "K_POSITIVE_INFINITY");
  EXPECT_EQ(TokenKindName(K::kKNorecursive), "K_NORECURSIVE");
  EXPECT_EQ(TokenKindName(K::kIdent), "IDENT");
  EXPECT_EQ(TokenKindName(K::kStringLiteral), "STRING_LITERAL");
  EXPECT_EQ(TokenKindName(K::kRParen), "')'");
  EXPECT_EQ(TokenKindName(K::kLt), "'<'");
  EXPECT_EQ(TokenKindName(K::kEof), "EOF");
  EXPECT_EQ(TokenKindName(K::kStar), "'\\*'");
}

TEST(TokenKindTest, LookupKeyword) {
  EXPECT_EQ(LookupKeyword("from"), K::kKFrom);
  EXPECT_EQ(LookupKeyword("FROM"), K::kKFrom);
  EXPECT_EQ(LookupKeyword("fro"), K::kIdent);
  EXPECT_EQ(LookupKeyword("fromm"), K::kIdent);
  EXPECT_EQ(LookupKeyword(""), K::kIdent);
  EXPECT_EQ(LookupKeyword("a_very_long_identifier_name"), K::kIdent);
  EXPECT_EQ(LookupKeyword("True"), K::kBoolean);
  EXPECT_EQ(LookupKeyword("ColumnFamilies"), K::kKTables);
  // Bytes that are not letters never match a keyword's letters, whatever their case bit.
  EXPECT_EQ(LookupKeyword("sel@ct"), K::kIdent);                    // '@' | 0x20 is '`'
  EXPECT_EQ(LookupKeyword("selec\x14"), K::kIdent);                 // 0x14 | 0x20 is '4'
  EXPECT_EQ(LookupKeyword("\xD3\xC5\xCC\xC5\xC3\xD4"), K::kIdent);  // SELECT with bit 7 set
  EXPECT_EQ(LookupKeyword(std::string_view("from\0", 5)), K::kIdent);
  EXPECT_EQ(LookupKeyword("fro_m"), K::kIdent);
  EXPECT_EQ(LookupKeyword("a"), K::kIdent);
  EXPECT_EQ(LookupKeyword("columnfamiliess"), K::kIdent);  // 15 bytes
  // Every keyword spelling maps back to its own kind.
#define CHECK_KEYWORD(name, spelling) EXPECT_EQ(LookupKeyword(spelling), K::kK##name) << spelling;
  CQL_KEYWORDS(CHECK_KEYWORD)
#undef CHECK_KEYWORD
}

TEST(TokenKindTest, ReservedAndUnreservedKeywords) {
  EXPECT_TRUE(IsUnreservedKeyword(K::kKKey));
  EXPECT_TRUE(IsUnreservedKeyword(K::kKTtl));
  EXPECT_TRUE(IsUnreservedKeyword(K::kKText));
  EXPECT_TRUE(IsUnreservedKeyword(K::kKValues));
  EXPECT_TRUE(IsUnreservedKeyword(K::kKFiltering));
  EXPECT_FALSE(IsUnreservedKeyword(K::kKSelect));
  EXPECT_FALSE(IsUnreservedKeyword(K::kKToken));
  EXPECT_FALSE(IsUnreservedKeyword(K::kKSet));
  EXPECT_FALSE(IsUnreservedKeyword(K::kIdent));
  EXPECT_TRUE(IsBasicUnreservedKeyword(K::kKType));
  EXPECT_FALSE(IsBasicUnreservedKeyword(K::kKText));
  EXPECT_FALSE(IsBasicUnreservedKeyword(K::kKKey));
  EXPECT_TRUE(IsNativeTypeKeyword(K::kKVarchar));
  EXPECT_FALSE(IsNativeTypeKeyword(K::kKMap));
}

}  // namespace
}  // namespace cql
