// Parser core: entry points, statement dispatch, identifiers and types.

#include "cql/parser/parser.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "cql/parser/parser_internal.h"
#include "cql/types/type_depth.h"

namespace cql {
namespace internal {
namespace {

// Counts `levels` more enclosing types in `*depth` for the life of the scope (a type rule's
// every return path gives them back).
class TypeDepthScope {
 public:
  TypeDepthScope(int* depth, int levels) : depth_(depth), levels_(levels) { *depth_ += levels_; }
  ~TypeDepthScope() { *depth_ -= levels_; }
  TypeDepthScope(const TypeDepthScope&) = delete;
  TypeDepthScope& operator=(const TypeDepthScope&) = delete;

 private:
  int* depth_;
  int levels_;
};

// Cassandra's Parser.reservedTypeNames: IDENTs that cannot name a user type.
bool IsReservedTypeName(std::string_view name) {
  return name == "byte" || name == "complex" || name == "enum" || name == "date" ||
         name == "interval" || name == "macaddr" || name == "bitstring";
}

// Lower-cases the ASCII letters of text[0, size) in place, eight bytes at a time: every
// unquoted identifier goes through here, and a loop over bytes was a visible cost.
void LowerAsciiInPlace(char* text, size_t size) {
  constexpr uint64_t kEachByte = 0x0101010101010101;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t bytes;
    std::memcpy(&bytes, text + i, 8);
    // Per byte, on its low seven bits (so no carry crosses into the next byte): adding
    // 0x80 - 'A' sets bit 7 from 'A' up, adding 0x80 - 'Z' - 1 sets it past 'Z'. `upper` has
    // bit 7 set exactly in the bytes 'A'..'Z' (bytes >= 0x80 are not ASCII letters).
    const uint64_t low7 = bytes & (0x7F * kEachByte);
    const uint64_t from_a = low7 + (0x80 - 'A') * kEachByte;
    const uint64_t past_z = low7 + (0x80 - 'Z' - 1) * kEachByte;
    const uint64_t upper = from_a & ~past_z & ~bytes & (0x80 * kEachByte);
    bytes |= upper >> 2;  // 0x80 >> 2 is 0x20, the case bit
    std::memcpy(text + i, &bytes, 8);
  }
  for (; i < size; ++i) {
    if (text[i] >= 'A' && text[i] <= 'Z') text[i] = static_cast<char>(text[i] - 'A' + 'a');
  }
}

}  // namespace

TypeKind NativeTypeOf(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKAscii:
      return TypeKind::kAscii;
    case TokenKind::kKBigint:
      return TypeKind::kBigint;
    case TokenKind::kKBlob:
      return TypeKind::kBlob;
    case TokenKind::kKBoolean:
      return TypeKind::kBoolean;
    case TokenKind::kKCounter:
      return TypeKind::kCounter;
    case TokenKind::kKDecimal:
      return TypeKind::kDecimal;
    case TokenKind::kKDouble:
      return TypeKind::kDouble;
    case TokenKind::kKDuration:
      return TypeKind::kDuration;
    case TokenKind::kKFloat:
      return TypeKind::kFloat;
    case TokenKind::kKInet:
      return TypeKind::kInet;
    case TokenKind::kKInt:
      return TypeKind::kInt;
    case TokenKind::kKSmallint:
      return TypeKind::kSmallint;
    case TokenKind::kKText:
    case TokenKind::kKVarchar:
      return TypeKind::kText;
    case TokenKind::kKTimestamp:
      return TypeKind::kTimestamp;
    case TokenKind::kKTinyint:
      return TypeKind::kTinyint;
    case TokenKind::kKUuid:
      return TypeKind::kUuid;
    case TokenKind::kKVarint:
      return TypeKind::kVarint;
    case TokenKind::kKTimeuuid:
      return TypeKind::kTimeuuid;
    case TokenKind::kKDate:
      return TypeKind::kDate;
    case TokenKind::kKTime:
      return TypeKind::kTime;
    default:
      return TypeKind::kBlob;  // not reached: callers check IsNativeTypeKeyword
  }
}

void AsciiLowerInto(std::string_view text, std::string* out) {
  out->clear();
  out->append(text);  // cheaper than assign(), which must handle overlapping text
  LowerAsciiInPlace(out->data(), out->size());
}

std::string AsciiLower(std::string_view text) {
  std::string out;
  AsciiLowerInto(text, &out);
  return out;
}

// ---------------------------------------------------------------------------------------
// Entry points.

Status Parser::Tokenize() {
  if (text_.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::SyntaxError("line 1:0 query too long");
  }
  Lexer::Tokenize(text_, &tokens_, &lexer_error_);
  last_ = tokens_.size() - 1;
  stack_base_ = static_cast<const char*>(__builtin_frame_address(0));
  pos_ = 0;
  max_fetched_ = 0;
  return Status::Ok();
}

Result<Statement> Parser::ParseSingleStatement() {
  // Every path returns `statement`, so it is constructed in the caller's slot (NRVO) instead
  // of being moved there.
  Status tokenized = Tokenize();
  Result<Statement> statement =
      tokenized.ok() ? ParseCqlStatement() : Result<Statement>(std::move(tokenized));
  if (!statement.ok()) return statement;
  while (Accept(TokenKind::kSemicolon)) {
  }
  if (Status end = Expect(TokenKind::kEof); !end.ok()) {
    statement = Result<Statement>(std::move(end));
  } else if (lexer_error_) {
    statement = Result<Statement>(LexerErrorStatus());
  }
  return statement;
}

Result<std::vector<Statement>> Parser::ParseStatements() {
  RETURN_IF_ERROR(Tokenize());
  std::vector<Statement> statements;
  while (true) {
    while (Accept(TokenKind::kSemicolon)) {
    }
    if (At(TokenKind::kEof)) break;
    ASSIGN_OR_RETURN(Statement statement, ParseCqlStatement());
    statements.push_back(std::move(statement));
    if (!At(TokenKind::kEof)) RETURN_IF_ERROR(Expect(TokenKind::kSemicolon));
  }
  if (lexer_error_) return LexerErrorStatus();
  return statements;
}

Result<Term> Parser::ParseSingleTerm() {
  RETURN_IF_ERROR(Tokenize());
  ASSIGN_OR_RETURN(Term term, ParseTerm());
  RETURN_IF_ERROR(Expect(TokenKind::kEof));
  if (lexer_error_) return LexerErrorStatus();
  return term;
}

Result<CqlType> Parser::ParseSingleType() {
  RETURN_IF_ERROR(Tokenize());
  ASSIGN_OR_RETURN(CqlType type, ParseComparatorType());
  RETURN_IF_ERROR(Expect(TokenKind::kEof));
  if (lexer_error_) return LexerErrorStatus();
  return type;
}

// cqlStatement: the statement kind is chosen on the first two (for CREATE OR REPLACE, four)
// tokens, as Cassandra's DFA does.
Result<Statement> Parser::ParseCqlStatement() {
  bind_names_.clear();
  switch (PeekKind()) {
    case TokenKind::kKSelect:
      return ParseSelect();
    case TokenKind::kKInsert:
      return ParseInsert();
    case TokenKind::kKUpdate:
      return ParseUpdate();
    case TokenKind::kKBegin:
      return ParseBatch();
    case TokenKind::kKDelete:
      return ParseDelete();
    case TokenKind::kKUse:
      return ParseUse();
    case TokenKind::kKTruncate:
      return ParseTruncate();
    case TokenKind::kKDescribe:
    case TokenKind::kKDesc:
      return ParseDescribe();
    case TokenKind::kKGrant:
      return ParseGrant();
    case TokenKind::kKRevoke:
      return ParseRevoke();
    case TokenKind::kKList:
      return ParseList();
    case TokenKind::kKCreate:
      switch (PeekKind(2)) {
        case TokenKind::kKKeyspace:
        case TokenKind::kKSchema:
          return ParseCreateKeyspace();
        case TokenKind::kKColumnfamily:
          return ParseCreateTable();
        case TokenKind::kKCustom:
        case TokenKind::kKIndex:
          return ParseCreateIndex();
        case TokenKind::kKType:
          return ParseCreateType();
        case TokenKind::kKTrigger:
          return ParseCreateTrigger();
        case TokenKind::kKUser:
          return ParseCreateUser();
        case TokenKind::kKRole:
          return ParseCreateRole();
        case TokenKind::kKMaterialized:
          return ParseCreateView();
        case TokenKind::kKFunction:
          return ParseCreateFunction();
        case TokenKind::kKAggregate:
          return ParseCreateAggregate();
        case TokenKind::kKOr:
          if (PeekKind(3) == TokenKind::kKReplace) {
            if (PeekKind(4) == TokenKind::kKFunction) return ParseCreateFunction();
            if (PeekKind(4) == TokenKind::kKAggregate) return ParseCreateAggregate();
            return NoViableAltError(4);
          }
          return NoViableAltError(3);
        default:
          return NoViableAltError(2);
      }
    case TokenKind::kKDrop:
      switch (PeekKind(2)) {
        case TokenKind::kKKeyspace:
        case TokenKind::kKSchema:
          return ParseDropKeyspace();
        case TokenKind::kKColumnfamily:
          return ParseDropTable();
        case TokenKind::kKIndex:
          return ParseDropIndex();
        case TokenKind::kKType:
          return ParseDropType();
        case TokenKind::kKTrigger:
          return ParseDropTrigger();
        case TokenKind::kKUser:
          return ParseDropUser();
        case TokenKind::kKRole:
          return ParseDropRole();
        case TokenKind::kKMaterialized:
          return ParseDropView();
        case TokenKind::kKFunction:
          return ParseDropFunction();
        case TokenKind::kKAggregate:
          return ParseDropAggregate();
        default:
          return NoViableAltError(2);
      }
    case TokenKind::kKAlter:
      switch (PeekKind(2)) {
        case TokenKind::kKKeyspace:
        case TokenKind::kKSchema:
          return ParseAlterKeyspace();
        case TokenKind::kKColumnfamily:
          return ParseAlterTable();
        case TokenKind::kKType:
          return ParseAlterType();
        case TokenKind::kKUser:
          return ParseAlterUser();
        case TokenKind::kKRole:
          return ParseAlterRole();
        case TokenKind::kKMaterialized:
          return ParseAlterView();
        default:
          return NoViableAltError(2);
      }
    default:
      return NoViableAltError(1);
  }
}

// ---------------------------------------------------------------------------------------
// Identifiers.

bool Parser::IsFunctionNameToken(TokenKind kind) const {
  return kind == TokenKind::kIdent || kind == TokenKind::kQuotedName ||
         IsBasicUnreservedKeyword(kind) || IsNativeTypeKeyword(kind) ||
         kind == TokenKind::kKToken || kind == TokenKind::kKCount;
}

void Parser::IdentValueInto(const Token& token, std::string* value) const {
  switch (token.kind) {
    case TokenKind::kQuotedName:
      TextInto(token, value);
      break;
    case TokenKind::kEmptyQuotedName:
      value->clear();
      break;
    default:
      AsciiLowerInto(Source(token), value);
      break;
  }
}

std::string Parser::IdentValue(const Token& token) const {
  std::string value;
  IdentValueInto(token, &value);
  return value;
}

Status Parser::ParseIdentInto(std::string* name) {
  const Token& token = Peek();
  if (!IsIdentToken(token.kind)) return NoViableAltError();
  Consume();
  IdentValueInto(token, name);
  return Status::Ok();
}

Result<std::string> Parser::ParseIdent() {
  std::string name;
  RETURN_IF_ERROR(ParseIdentInto(&name));
  return name;
}

Status Parser::ParseCidentInto(std::string* name) {
  if (At(TokenKind::kEmptyQuotedName)) {
    Consume();
    name->clear();
    return Status::Ok();
  }
  return ParseIdentInto(name);
}

Result<std::string> Parser::ParseCident() {
  std::string name;
  RETURN_IF_ERROR(ParseCidentInto(&name));
  return name;
}

Result<std::string> Parser::ParseKeyspaceName() {
  if (At(TokenKind::kQmark)) {
    return RecognitionError("Bind variables cannot be used for keyspace names");
  }
  return ParseIdent();
}

Status Parser::ParseColumnFamilyNameInto(QualifiedName* name) {
  TokenKind first = PeekKind();
  if ((IsIdentToken(first) || first == TokenKind::kQmark) && PeekKind(2) == TokenKind::kDot) {
    // keyspaceName, as ParseKeyspaceName
    if (first == TokenKind::kQmark) {
      return RecognitionError("Bind variables cannot be used for keyspace names");
    }
    RETURN_IF_ERROR(ParseIdentInto(&name->keyspace));
    Consume();  // '.'
  }
  if (At(TokenKind::kQmark)) {
    return RecognitionError("Bind variables cannot be used for table names");
  }
  return ParseIdentInto(&name->name);
}

Result<QualifiedName> Parser::ParseColumnFamilyName() {
  QualifiedName name;
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&name));
  return name;
}

Result<std::string> Parser::ParseIdxName() {
  if (At(TokenKind::kQmark)) {
    return RecognitionError("Bind variables cannot be used for index names");
  }
  return ParseIdent();
}

Result<QualifiedName> Parser::ParseIndexName() {
  QualifiedName name;
  TokenKind first = PeekKind();
  if ((IsIdentToken(first) || first == TokenKind::kQmark) && PeekKind(2) == TokenKind::kDot) {
    ASSIGN_OR_RETURN(name.keyspace, ParseKeyspaceName());
    Consume();  // '.'
  }
  ASSIGN_OR_RETURN(name.name, ParseIdxName());
  return name;
}

Status Parser::ParseNonTypeIdentInto(std::string* name) {
  const Token& token = Peek();
  if (token.kind == TokenKind::kIdent) {
    Consume();
    if (!speculating_ && IsReservedTypeName(Source(token))) {
      return RecognitionError("Invalid (reserved) user type name " + std::string(Source(token)));
    }
    AsciiLowerInto(Source(token), name);
    return Status::Ok();
  }
  if (token.kind == TokenKind::kQuotedName || IsBasicUnreservedKeyword(token.kind) ||
      token.kind == TokenKind::kKKey) {
    Consume();
    IdentValueInto(token, name);
    return Status::Ok();
  }
  return NoViableAltError();
}

Status Parser::ParseUserTypeNameInto(QualifiedName* name) {
  if (IsIdentToken(PeekKind()) && PeekKind(2) == TokenKind::kDot) {
    RETURN_IF_ERROR(ParseIdentInto(&name->keyspace));
    Consume();  // '.'
  }
  return ParseNonTypeIdentInto(&name->name);
}

Result<QualifiedName> Parser::ParseUserTypeName() {
  QualifiedName name;
  RETURN_IF_ERROR(ParseUserTypeNameInto(&name));
  return name;
}

Result<std::string> Parser::ParseAllowedFunctionName() {
  const Token& token = Peek();
  if (!IsFunctionNameToken(token.kind)) return NoViableAltError();
  Consume();
  return IdentValue(token);
}

Result<QualifiedName> Parser::ParseFunctionName() {
  QualifiedName name;
  TokenKind first = PeekKind();
  if ((IsIdentToken(first) || first == TokenKind::kQmark) && PeekKind(2) == TokenKind::kDot) {
    ASSIGN_OR_RETURN(name.keyspace, ParseKeyspaceName());
    Consume();  // '.'
  }
  ASSIGN_OR_RETURN(name.name, ParseAllowedFunctionName());
  return name;
}

Result<std::string> Parser::ParseRoleName() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kStringLiteral:
    case TokenKind::kQuotedName:
      Consume();
      return Text(token);
    case TokenKind::kQmark:
      return RecognitionError("Bind variables cannot be used for role names");
    default:
      return ParseIdent();
  }
}

Result<std::string> Parser::ParseStringLiteral() {
  const Token& token = Peek();
  RETURN_IF_ERROR(Expect(TokenKind::kStringLiteral));
  return Text(token);
}

bool Parser::LooksLikeFunctionCall(size_t k) {
  TokenKind first = PeekKind(k);
  if (IsFunctionNameToken(first) && PeekKind(k + 1) == TokenKind::kLParen) return true;
  return (IsIdentToken(first) || first == TokenKind::kQmark) &&
         PeekKind(k + 1) == TokenKind::kDot && IsFunctionNameToken(PeekKind(k + 2)) &&
         PeekKind(k + 3) == TokenKind::kLParen;
}

// ---------------------------------------------------------------------------------------
// Types.

bool Parser::StartsType(size_t k) {
  TokenKind kind = PeekKind(k);
  return IsNativeTypeKeyword(kind) || kind == TokenKind::kKSet ||
         kind == TokenKind::kStringLiteral || IsIdentToken(kind);
}

Result<CqlType> Parser::ParseComparatorType() {
  CQL_ENTER_NESTING();
  const Token& token = Peek();
  TokenKind kind = token.kind;
  bool opens_angle = false;
  if (kind == TokenKind::kKSet) {
    opens_angle = true;  // reserved: only `set<...>`
  } else if (kind == TokenKind::kKMap || kind == TokenKind::kKList || kind == TokenKind::kKTuple ||
             kind == TokenKind::kKFrozen || kind == TokenKind::kKVector) {
    opens_angle = PeekKind(2) == TokenKind::kLt;
  }
  if (opens_angle) {
    // frozen<> is a flag on the type inside it, not a level of its own.
    const int levels = kind == TokenKind::kKFrozen ? 0 : 1;
    if (type_depth_ + levels > kMaxTypeDepth) return TypeDepthError();
    TypeDepthScope type_depth_scope(&type_depth_, levels);
    Consume();
    RETURN_IF_ERROR(Expect(TokenKind::kLt));
    ASSIGN_OR_RETURN(CqlType first, ParseComparatorType());
    switch (kind) {
      case TokenKind::kKMap: {
        RETURN_IF_ERROR(Expect(TokenKind::kComma));
        ASSIGN_OR_RETURN(CqlType value, ParseComparatorType());
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        return CqlType::Map(std::move(first), std::move(value));
      }
      case TokenKind::kKList:
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        return CqlType::List(std::move(first));
      case TokenKind::kKSet:
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        return CqlType::Set(std::move(first));
      case TokenKind::kKTuple: {
        std::vector<CqlType> elements;
        elements.push_back(std::move(first));
        while (Accept(TokenKind::kComma)) {
          ASSIGN_OR_RETURN(CqlType element, ParseComparatorType());
          elements.push_back(std::move(element));
        }
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        return CqlType::Tuple(std::move(elements));
      }
      case TokenKind::kKVector: {
        RETURN_IF_ERROR(Expect(TokenKind::kComma));
        const Token& dimension_token = Peek();
        RETURN_IF_ERROR(Expect(TokenKind::kInteger));
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        std::string_view digits = Source(dimension_token);
        int64_t dimension = 0;
        bool negative = !digits.empty() && digits[0] == '-';
        for (char c : digits.substr(negative ? 1 : 0)) {
          dimension = dimension * 10 + (c - '0');
          if (dimension > std::numeric_limits<int32_t>::max()) break;
        }
        if (negative || dimension <= 0 || dimension > std::numeric_limits<int32_t>::max()) {
          if (speculating_) return CqlType::Vector(std::move(first), 1);
          return RecognitionError("vectors may only have positive dimensions; given " +
                                  std::string(digits));
        }
        return CqlType::Vector(std::move(first), static_cast<int32_t>(dimension));
      }
      default: {  // frozen
        RETURN_IF_ERROR(Expect(TokenKind::kGt));
        bool freezable = first.IsCollection() || first.kind() == cql::TypeKind::kUdt ||
                         first.kind() == cql::TypeKind::kTuple ||
                         first.kind() == cql::TypeKind::kVector;
        if (!freezable) {
          if (speculating_) return first;
          return RecognitionError(
              "frozen<> is only allowed on collections, tuples, and user-defined types (got " +
              first.ToCql() + ")");
        }
        return first.WithFrozen(true);
      }
    }
  }
  if (IsNativeTypeKeyword(kind) && PeekKind(2) != TokenKind::kDot) {
    Consume();
    return CqlType::Native(NativeTypeOf(kind));
  }
  if (kind == TokenKind::kStringLiteral) {
    Consume();
    return CqlType::Custom(Text(token));
  }
  if (IsIdentToken(kind)) {
    // A user type is one level around its fields (which the schema checks once resolved).
    if (type_depth_ + 1 > kMaxTypeDepth) return TypeDepthError();
    QualifiedName name;
    RETURN_IF_ERROR(ParseUserTypeNameInto(&name));
    return CqlType::UdtRef(std::move(name.keyspace), std::move(name.name));
  }
  return NoViableAltError();
}

}  // namespace internal

common::Result<Statement> ParseStatement(std::string_view text) {
  internal::Parser parser(text);
  return parser.ParseSingleStatement();
}

common::Result<std::vector<Statement>> ParseScript(std::string_view text) {
  internal::Parser parser(text);
  return parser.ParseStatements();
}

common::Result<Term> ParseTerm(std::string_view text) {
  internal::Parser parser(text);
  return parser.ParseSingleTerm();
}

common::Result<CqlType> ParseType(std::string_view text) {
  internal::Parser parser(text);
  return parser.ParseSingleType();
}

}  // namespace cql
