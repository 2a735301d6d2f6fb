// Property test: for random values of every type, bytes -> FormatValueAsCql -> Term ->
// EvaluateLiteral gives back the same bytes. The parser (parser.h) is not used, to keep this
// layer's tests independent of it: a small reader below turns literal text into Terms the way
// the CQL lexer classifies constants.

#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <random>

#include "cql/parser/literal.h"
#include "cql/types/big_number.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_format.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

// Reads one CQL literal (the subset FormatValueAsCql writes) into a Term.
class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : text_(text) {}

  Result<Term> ReadAll() {
    ASSIGN_OR_RETURN(Term term, Read());
    SkipSpaces();
    if (pos_ != text_.size()) return Error("trailing text");
    return term;
  }

 private:
  Status Error(std::string_view what) const {
    return Status::SyntaxError(std::string(what) + " at " + std::to_string(pos_) + " in " +
                               std::string(text_));
  }
  void SkipSpaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool Consume(std::string_view token) {
    SkipSpaces();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  Result<std::vector<Term>> ReadSequence(char close) {
    std::vector<Term> terms;
    if (Consume(std::string(1, close))) return terms;
    do {
      ASSIGN_OR_RETURN(Term term, Read());
      terms.push_back(std::move(term));
    } while (Consume(","));
    if (!Consume(std::string(1, close))) return Error("expected close");
    return terms;
  }

  static bool IsKeyword(std::string_view word) {
    return word == "true" || word == "false" || word == "null" || word == "NaN" ||
           word == "Infinity";
  }

  // An identifier followed by ':' starts a UDT literal.
  bool AtFieldName() const {
    size_t p = pos_;
    while (p < text_.size() && text_[p] == ' ') ++p;
    if (p < text_.size() && text_[p] == '"') {
      size_t end = text_.find('"', p + 1);
      return end != std::string_view::npos && end + 1 < text_.size() && text_[end + 1] == ':';
    }
    size_t start = p;
    while (p < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '_'))
      ++p;
    return p > start && std::isalpha(static_cast<unsigned char>(text_[start])) &&
           p < text_.size() && text_[p] == ':' && !IsKeyword(text_.substr(start, p - start));
  }

  Result<Term> ReadBraces() {
    if (Consume("}")) return Term(CollectionLiteral{CollectionLiteral::Kind::kMap, {}, {}});
    if (AtFieldName()) {
      UdtLiteral udt;
      do {
        SkipSpaces();
        std::string name;
        if (Peek() == '"') {
          size_t end = text_.find('"', pos_ + 1);
          name = std::string(text_.substr(pos_ + 1, end - pos_ - 1));
          pos_ = end + 1;
        } else {
          while (std::isalnum(static_cast<unsigned char>(Peek())) || Peek() == '_')
            name += text_[pos_++];
        }
        if (!Consume(":")) return Error("expected ':'");
        ASSIGN_OR_RETURN(Term value, Read());
        udt.field_names.push_back(name);
        udt.values.push_back(std::move(value));
      } while (Consume(","));
      if (!Consume("}")) return Error("expected '}'");
      return Term(std::move(udt));
    }
    CollectionLiteral c{CollectionLiteral::Kind::kSet, {}, {}};
    do {
      ASSIGN_OR_RETURN(Term first, Read());
      if (Consume(":")) {
        c.kind = CollectionLiteral::Kind::kMap;
        ASSIGN_OR_RETURN(Term value, Read());
        c.keys.push_back(std::move(first));
        c.elements.push_back(std::move(value));
      } else {
        c.elements.push_back(std::move(first));
      }
    } while (Consume(","));
    if (!Consume("}")) return Error("expected '}'");
    return Term(std::move(c));
  }

  static bool IsUuid(std::string_view s) {
    if (s.size() < 36) return false;
    for (size_t i = 0; i < 36; ++i) {
      bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
  }

  Result<Term> Read() {
    SkipSpaces();
    if (Consume("[")) {
      ASSIGN_OR_RETURN(auto elements, ReadSequence(']'));
      return Term(CollectionLiteral{CollectionLiteral::Kind::kList, std::move(elements), {}});
    }
    if (Consume("(")) {
      ASSIGN_OR_RETURN(auto elements, ReadSequence(')'));
      return Term(TupleLiteral{std::move(elements)});
    }
    if (Consume("{")) return ReadBraces();
    if (Peek() == '\'') {
      std::string value;
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated string");
        if (text_[pos_] == '\'') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
            value += '\'';
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        value += text_[pos_++];
      }
      return Term(Constant{ConstantKind::kString, value});
    }
    std::string_view rest = text_.substr(pos_);
    if (IsUuid(rest)) {
      pos_ += 36;
      return Term(Constant{ConstantKind::kUuid, std::string(rest.substr(0, 36))});
    }
    for (auto [word, kind] :
         {std::pair{"true", ConstantKind::kBoolean}, std::pair{"false", ConstantKind::kBoolean},
          std::pair{"NaN", ConstantKind::kFloat}, std::pair{"Infinity", ConstantKind::kFloat},
          std::pair{"-Infinity", ConstantKind::kFloat}}) {
      if (rest.substr(0, std::string_view(word).size()) == word) {
        pos_ += std::string_view(word).size();
        return Term(Constant{kind, word});
      }
    }
    if (rest.substr(0, 4) == "null") {
      pos_ += 4;
      return Term(NullLiteral{});
    }
    if (rest.substr(0, 2) == "0x") {
      size_t end = 2;
      while (end < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[end]))) ++end;
      pos_ += end;
      return Term(Constant{ConstantKind::kHex, std::string(rest.substr(2, end - 2))});
    }
    // A number or a duration: the token runs to the next delimiter.
    size_t end = 0;
    while (end < rest.size() &&
           std::string_view(",:)]} ").find(rest[end]) == std::string_view::npos)
      ++end;
    std::string token(rest.substr(0, end));
    if (token.empty()) return Error("expected a literal");
    pos_ += end;
    std::string_view body = token[0] == '-' ? std::string_view(token).substr(1) : token;
    bool has_letter = false;
    bool is_float = false;
    for (size_t i = 0; i < body.size(); ++i) {
      char c = body[i];
      if (c == '.') is_float = true;
      if ((c == 'e' || c == 'E') && i + 1 < body.size() &&
          (std::isdigit(static_cast<unsigned char>(body[i + 1])) || body[i + 1] == '-' ||
           body[i + 1] == '+')) {
        is_float = true;
        ++i;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c))) has_letter = true;
    }
    ConstantKind kind = has_letter ? ConstantKind::kDuration
                        : is_float ? ConstantKind::kFloat
                                   : ConstantKind::kInteger;
    return Term(Constant{kind, token});
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Random well-formed values, with the edge cases that stress literal round trips: quotes and
// control characters in strings, -0.0, NaN, infinities, extreme integers, decimals of any
// scale, dates and timestamps outside years 1..9999, durations of each sign.
class ValueGenerator {
 public:
  explicit ValueGenerator(uint64_t seed) : rng_(seed) {}

  uint64_t Bits() { return rng_(); }
  int64_t Below(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }

  CqlType Type(int depth) {
    // No counter: counters cannot be nested, and a null counter is refused.
    static const std::vector<CqlType> natives = {
        CqlType::Ascii(),    CqlType::Bigint(),  CqlType::Blob(),    CqlType::Boolean(),
        CqlType::Bigint(),   CqlType::Date(),    CqlType::Decimal(), CqlType::Double(),
        CqlType::Duration(), CqlType::Float(),   CqlType::Inet(),    CqlType::Int(),
        CqlType::Smallint(), CqlType::Text(),    CqlType::Time(),    CqlType::Timestamp(),
        CqlType::Timeuuid(), CqlType::Tinyint(), CqlType::Uuid(),    CqlType::Varint()};
    if (depth == 0 || Below(3) != 0) return natives[static_cast<size_t>(Below(natives.size()))];
    switch (Below(6)) {
      case 0:
        return CqlType::List(Type(depth - 1), true);
      case 1:
        return CqlType::Set(Type(depth - 1), true);
      case 2:
        return CqlType::Map(Type(depth - 1), Type(depth - 1), true);
      case 3:
        return CqlType::Tuple({Type(depth - 1), Type(depth - 1)});
      case 4:
        return CqlType::Vector(Type(depth - 1), 1 + static_cast<int32_t>(Below(3)));
      default:
        return CqlType::Udt("ks", "u" + std::to_string(Below(100)), {"a", "Mixed", "c"},
                            {Type(depth - 1), Type(depth - 1), Type(depth - 1)}, true);
    }
  }

  Bytes Value(const CqlType& type) {
    switch (type.kind()) {
      case TypeKind::kAscii:
        return String(/*ascii=*/true);
      case TypeKind::kText:
        return String(/*ascii=*/false);
      case TypeKind::kBlob:
        return Blob();
      case TypeKind::kBoolean:
        return SerializeBoolean(Below(2) == 0);
      case TypeKind::kTinyint:
        return SerializeTinyint(static_cast<int8_t>(Bits()));
      case TypeKind::kSmallint:
        return SerializeSmallint(static_cast<int16_t>(Bits()));
      case TypeKind::kInt:
        return SerializeInt(static_cast<int32_t>(Integer()));
      case TypeKind::kBigint:
      case TypeKind::kCounter:
        return SerializeBigint(Integer());
      case TypeKind::kVarint:
        return Varint();
      case TypeKind::kDecimal:
        return DecimalFromParts(Varint(), static_cast<int32_t>(Scale()));
      case TypeKind::kFloat:
        return SerializeFloat(std::bit_cast<float>(FloatBits()));
      case TypeKind::kDouble:
        return SerializeDouble(std::bit_cast<double>(DoubleBits()));
      case TypeKind::kUuid:
        return Blob(16);
      case TypeKind::kTimeuuid: {
        Bytes uuid = Blob(16);
        uuid[6] = static_cast<char>(0x10 | (uuid[6] & 0x0F));
        return uuid;
      }
      case TypeKind::kInet: {
        Bytes address = Blob(Below(2) == 0 ? 4 : 16);
        if (address.size() == 16) address[10] = 0x01;  // not IPv4-mapped (Java unmaps those)
        return address;
      }
      case TypeKind::kDate:
        return SerializeDate(static_cast<uint32_t>(Bits()));
      case TypeKind::kTime:
        return SerializeTime(Below(kNanosPerDay));
      case TypeKind::kTimestamp:
        return SerializeTimestamp(Below(4) == 0 ? static_cast<int64_t>(Bits())
                                                : Below(400000000000000) - 100000000000000);
      case TypeKind::kDuration: {
        int64_t sign = Below(2) == 0 ? 1 : -1;
        return SerializeDuration({static_cast<int32_t>(sign * Below(100000)),
                                  static_cast<int32_t>(sign * Below(100000)),
                                  sign * static_cast<int64_t>(Bits() >> (1 + Below(63)))});
      }
      case TypeKind::kList:
      case TypeKind::kSet: {
        std::vector<Bytes> elements;
        for (int64_t i = Below(4); i > 0; --i) elements.push_back(NonEmptyValue(type.element()));
        return SerializeCollection(type, std::move(elements));
      }
      case TypeKind::kMap: {
        std::vector<std::pair<Bytes, Bytes>> entries;
        for (int64_t i = Below(4); i > 0; --i) {
          entries.emplace_back(NonEmptyValue(type.key()), NonEmptyValue(type.value()));
        }
        return SerializeMap(type, std::move(entries));
      }
      case TypeKind::kVector: {
        std::vector<Bytes> elements;
        for (int32_t i = 0; i < type.dimension(); ++i)
          elements.push_back(NonEmptyValue(type.element()));
        return *SerializeVector(type, elements);
      }
      case TypeKind::kTuple:
      case TypeKind::kUdt: {
        std::vector<std::optional<Bytes>> fields;
        for (const CqlType& field : type.params()) {
          if (Below(5) == 0) {
            fields.emplace_back();
          } else {
            fields.push_back(NonEmptyValue(field));
          }
        }
        return SerializeTupleOrUdt(fields);
      }
      default:
        return Bytes();
    }
  }

 private:
  // Collection elements have no literal for the empty value of most types; strings may be empty.
  Bytes NonEmptyValue(const CqlType& type) {
    Bytes value = Value(type);
    while (value.empty() && type.kind() != TypeKind::kText && type.kind() != TypeKind::kAscii &&
           type.kind() != TypeKind::kBlob) {
      value = Value(type);
    }
    return value;
  }

  Bytes String(bool ascii) {
    static const std::vector<std::string> pieces = {"a",
                                                    "Z",
                                                    "'",
                                                    "''",
                                                    " ",
                                                    "\\",
                                                    "\n",
                                                    "\t",
                                                    std::string("\0", 1),
                                                    "\x7f",
                                                    "0",
                                                    "caf\xC3\xA9",
                                                    "\xE2\x82\xAC",
                                                    "\xF0\x9F\x98\x80",
                                                    "\xC2\x85"};
    Bytes out;
    for (int64_t i = Below(6); i > 0; --i) {
      const std::string& piece = pieces[static_cast<size_t>(Below(ascii ? 11 : pieces.size()))];
      out += piece;
    }
    return out;
  }

  Bytes Blob(int64_t size = -1) {
    if (size < 0) size = Below(6);
    Bytes out;
    for (int64_t i = 0; i < size; ++i) out.push_back(static_cast<char>(Bits()));
    return out;
  }

  int64_t Integer() {
    switch (Below(5)) {
      case 0:
        return INT64_MIN;
      case 1:
        return INT64_MAX;
      case 2:
        return Below(201) - 100;
      default:
        return static_cast<int64_t>(Bits()) >> Below(64);
    }
  }

  Bytes Varint() {
    std::string digits = Below(2) == 0 ? "-" : "";
    for (int64_t i = 1 + Below(30); i > 0; --i) digits += static_cast<char>('0' + Below(10));
    return *VarintFromText(digits);
  }

  int64_t Scale() {
    switch (Below(6)) {
      case 0:
        return INT32_MIN;
      case 1:
        return INT32_MAX;
      default:
        return Below(120) - 60;
    }
  }

  uint32_t FloatBits() {
    switch (Below(8)) {
      case 0:
        return 0x7FC00000u;  // NaN (canonical: payloads do not survive text)
      case 1:
        return 0x80000000u;  // -0.0
      case 2:
        return Below(2) == 0 ? 0x7F800000u : 0xFF800000u;
      case 3:
        return static_cast<uint32_t>(Below(0x800000));  // subnormal
      default: {
        auto bits = static_cast<uint32_t>(Bits());
        return std::isnan(std::bit_cast<float>(bits)) ? 0x3F800000u : bits;
      }
    }
  }

  uint64_t DoubleBits() {
    switch (Below(8)) {
      case 0:
        return 0x7FF8000000000000u;
      case 1:
        return 0x8000000000000000u;
      case 2:
        return Below(2) == 0 ? 0x7FF0000000000000u : 0xFFF0000000000000u;
      case 3:
        return static_cast<uint64_t>(Below(int64_t{1} << 52));
      default: {
        uint64_t bits = Bits();
        return std::isnan(std::bit_cast<double>(bits)) ? 0x3FF0000000000000u : bits;
      }
    }
  }

  std::mt19937_64 rng_;
};

TEST(LiteralRoundTripTest, RandomValuesOfEveryType) {
  ValueGenerator generator(20240131);
  for (int i = 0; i < 20000; ++i) {
    CqlType type = generator.Type(i % 4);
    Bytes value = generator.Value(type);
    if (value.empty() && type.kind() != TypeKind::kText && type.kind() != TypeKind::kAscii &&
        type.kind() != TypeKind::kBlob) {
      continue;  // empty values of other types have no literal
    }
    ASSERT_TRUE(ValidateValue(type, value).ok()) << type.ToCql() << " " << common::ToHex(value)
                                                 << ": " << ValidateValue(type, value).ToString();
    std::string literal = FormatValueAsCql(type, value);
    Result<Term> term = LiteralReader(literal).ReadAll();
    ASSERT_TRUE(term.ok()) << term.status().ToString();
    auto evaluated = EvaluateLiteral(type, *term, "c");
    ASSERT_TRUE(evaluated.ok()) << type.ToCql() << " " << literal << ": "
                                << evaluated.status().ToString();
    ASSERT_TRUE(evaluated->has_value()) << literal;
    EXPECT_EQ(common::ToHex(**evaluated), common::ToHex(value)) << type.ToCql() << " " << literal;
    // The cqlsh form never fails either, and parses back for native types.
    std::string shown = FormatValue(type, value);
    if (type.IsNative() && type.kind() != TypeKind::kTimestamp && type.kind() != TypeKind::kDate &&
        type.kind() != TypeKind::kFloat && type.kind() != TypeKind::kDouble &&
        type.kind() != TypeKind::kText && type.kind() != TypeKind::kAscii &&
        type.kind() != TypeKind::kInet) {
      auto parsed = ParseValueText(type, shown);
      ASSERT_TRUE(parsed.ok()) << type.ToCql() << " " << shown << ": "
                               << parsed.status().ToString();
      EXPECT_EQ(common::ToHex(*parsed), common::ToHex(value)) << type.ToCql() << " " << shown;
    }
  }
}

}  // namespace
}  // namespace cql
