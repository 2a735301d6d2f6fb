// Parser core: entry points, statement dispatch, identifiers, types and terms.

#include "cql/parser.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "cql/parser_internal.h"

namespace cql {
namespace internal {
namespace {

// Cassandra's Parser.reservedTypeNames: IDENTs that cannot name a user type.
bool IsReservedTypeName(std::string_view name) {
  return name == "byte" || name == "complex" || name == "enum" || name == "date" ||
         name == "interval" || name == "macaddr" || name == "bitstring";
}

Term Operation(const char* name, Term left, Term right) {
  FunctionCall call;
  call.keyspace = "system";
  call.name = name;
  call.args.push_back(std::move(left));
  call.args.push_back(std::move(right));
  return Term(std::move(call));
}

}  // namespace

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Entry points.

Status Parser::Tokenize() {
  if (text_.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::SyntaxError("line 1:0 query too long");
  }
  Lexer::Tokenize(text_, &tokens_, &lexer_error_);
  stack_base_ = static_cast<const char*>(__builtin_frame_address(0));
  pos_ = 0;
  max_fetched_ = 0;
  return Status::Ok();
}

Result<Statement> Parser::ParseSingleStatement() {
  RETURN_IF_ERROR(Tokenize());
  Result<Statement> statement = ParseCqlStatement();
  if (!statement.ok()) return statement;
  while (Accept(TokenKind::kSemicolon)) {
  }
  RETURN_IF_ERROR(Expect(TokenKind::kEof));
  if (lexer_error_) return LexerErrorStatus();
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

std::string Parser::IdentValue(const Token& token) const {
  if (token.kind == TokenKind::kQuotedName) return Text(token);
  if (token.kind == TokenKind::kEmptyQuotedName) return std::string();
  return AsciiLower(Source(token));
}

Result<std::string> Parser::ParseIdent() {
  const Token& token = Peek();
  if (!IsIdentToken(token.kind)) return NoViableAltError();
  Consume();
  return IdentValue(token);
}

Result<std::string> Parser::ParseCident() {
  if (At(TokenKind::kEmptyQuotedName)) {
    Consume();
    return std::string();
  }
  return ParseIdent();
}

Result<std::string> Parser::ParseKeyspaceName() {
  if (At(TokenKind::kQmark)) {
    return RecognitionError("Bind variables cannot be used for keyspace names");
  }
  return ParseIdent();
}

Result<QualifiedName> Parser::ParseColumnFamilyName() {
  QualifiedName name;
  TokenKind first = PeekKind();
  if ((IsIdentToken(first) || first == TokenKind::kQmark) && PeekKind(2) == TokenKind::kDot) {
    ASSIGN_OR_RETURN(name.keyspace, ParseKeyspaceName());
    Consume();  // '.'
  }
  if (At(TokenKind::kQmark)) {
    return RecognitionError("Bind variables cannot be used for table names");
  }
  ASSIGN_OR_RETURN(name.name, ParseIdent());
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

Result<std::string> Parser::ParseNonTypeIdent() {
  const Token& token = Peek();
  if (token.kind == TokenKind::kIdent) {
    Consume();
    if (!speculating_ && IsReservedTypeName(Source(token))) {
      return RecognitionError("Invalid (reserved) user type name " + std::string(Source(token)));
    }
    return AsciiLower(Source(token));
  }
  if (token.kind == TokenKind::kQuotedName || IsBasicUnreservedKeyword(token.kind) ||
      token.kind == TokenKind::kKKey) {
    Consume();
    return IdentValue(token);
  }
  return NoViableAltError();
}

Result<QualifiedName> Parser::ParseUserTypeName() {
  QualifiedName name;
  if (IsIdentToken(PeekKind()) && PeekKind(2) == TokenKind::kDot) {
    ASSIGN_OR_RETURN(name.keyspace, ParseIdent());
    Consume();  // '.'
  }
  ASSIGN_OR_RETURN(name.name, ParseNonTypeIdent());
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
    CqlType type;
    CqlType::FromNativeName(Source(token), &type);
    return type;
  }
  if (kind == TokenKind::kStringLiteral) {
    Consume();
    return CqlType::Custom(Text(token));
  }
  if (IsIdentToken(kind)) {
    ASSIGN_OR_RETURN(QualifiedName name, ParseUserTypeName());
    return CqlType::UdtRef(std::move(name.keyspace), std::move(name.name));
  }
  return NoViableAltError();
}

// ---------------------------------------------------------------------------------------
// Terms.

bool Parser::IsConstantToken(TokenKind kind) const {
  switch (kind) {
    case TokenKind::kStringLiteral:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kBoolean:
    case TokenKind::kDuration:
    case TokenKind::kUuid:
    case TokenKind::kHexNumber:
    case TokenKind::kKPositiveNan:
    case TokenKind::kNegativeNan:
    case TokenKind::kKPositiveInfinity:
    case TokenKind::kNegativeInfinity:
      return true;
    default:
      return false;
  }
}

Result<Term> Parser::ParseConstantTerm() {
  Result<Term> term = Term(Constant{});
  RETURN_IF_ERROR(ParseConstantInto(&std::get<Constant>(term->value)));
  return term;
}

Result<Constant> Parser::ParseConstant() {
  Constant constant;
  RETURN_IF_ERROR(ParseConstantInto(&constant));
  return constant;
}

Status Parser::ParseConstantInto(Constant* out) {
  const Token& token = Peek();
  Constant& constant = *out;
  switch (token.kind) {
    case TokenKind::kStringLiteral:
      constant = {ConstantKind::kString, Text(token)};
      break;
    case TokenKind::kInteger:
      constant = {ConstantKind::kInteger, std::string(Source(token))};
      break;
    case TokenKind::kFloat:
      constant = {ConstantKind::kFloat, std::string(Source(token))};
      break;
    case TokenKind::kBoolean:
      constant = {ConstantKind::kBoolean, AsciiLower(Source(token))};
      break;
    case TokenKind::kDuration:
      constant = {ConstantKind::kDuration, std::string(Source(token))};
      break;
    case TokenKind::kUuid:
      constant = {ConstantKind::kUuid, std::string(Source(token))};
      break;
    case TokenKind::kHexNumber:
      constant = {ConstantKind::kHex, std::string(Source(token).substr(2))};
      break;
    case TokenKind::kKPositiveNan:
    case TokenKind::kNegativeNan:
      constant = {ConstantKind::kFloat, "NaN"};
      break;
    case TokenKind::kKPositiveInfinity:
      constant = {ConstantKind::kFloat, "Infinity"};
      break;
    case TokenKind::kNegativeInfinity:
      constant = {ConstantKind::kFloat, "-Infinity"};
      break;
    default:
      return NoViableAltError();
  }
  Consume();
  return Status::Ok();
}

Term Parser::NewMarker(std::string name) {
  if (bind_names_.capacity() == 0) bind_names_.reserve(8);
  BindMarker marker;
  marker.index = static_cast<int>(bind_names_.size());
  marker.name = name;
  bind_names_.push_back(std::move(name));
  return Term(std::move(marker));
}

Result<Term> Parser::ParseMarker() {
  if (Accept(TokenKind::kQmark)) return NewMarker(std::string());
  if (At(TokenKind::kColon)) {
    Consume();
    ASSIGN_OR_RETURN(std::string name, ParseIdent());
    return NewMarker(std::move(name));
  }
  return NoViableAltError();
}

Result<Term> Parser::ParseIntValue() {
  const Token& token = Peek();
  if (token.kind == TokenKind::kInteger) {
    Consume();
    return Term(Constant{ConstantKind::kInteger, std::string(Source(token))});
  }
  if (token.kind == TokenKind::kQmark || token.kind == TokenKind::kColon) return ParseMarker();
  return NoViableAltError();
}

bool Parser::StartsSimpleTerm(size_t k) {
  TokenKind kind = PeekKind(k);
  if (IsConstantToken(kind)) return true;
  switch (kind) {
    case TokenKind::kLBracket:
    case TokenKind::kLBrace:
    case TokenKind::kLParen:
    case TokenKind::kKNull:
    case TokenKind::kColon:
    case TokenKind::kQmark:
      return true;
    case TokenKind::kKCast:
      return PeekKind(k + 1) == TokenKind::kLParen;
    default:
      return LooksLikeFunctionCall(k);
  }
}

// term: termMultiplication (('+' | '-') termMultiplication)*. A '+' not followed by a term
// ends the term: `SET l = [1] + l` is a prepend.
Result<Term> Parser::ParseTerm() {
  // Fast path for the common case, a lone constant or marker: no recursion, fewer moves.
  TokenKind first = PeekKind();
  if (first == TokenKind::kQmark || IsConstantToken(first)) {
    switch (PeekKind(2)) {
      case TokenKind::kPlus:
      case TokenKind::kMinus:
      case TokenKind::kStar:
      case TokenKind::kSlash:
      case TokenKind::kPercent:
        break;
      default:
        if (first == TokenKind::kQmark) {
          Consume();
          return NewMarker(std::string());
        }
        return ParseConstantTerm();
    }
  }
  CQL_ENTER_NESTING();
  ASSIGN_OR_RETURN(Term left, ParseTermMultiplication());
  while (true) {
    TokenKind kind = PeekKind();
    if (kind != TokenKind::kPlus && kind != TokenKind::kMinus) break;
    if (PeekKind(2) != TokenKind::kMinus && !StartsSimpleTerm(2)) break;
    Consume();
    ASSIGN_OR_RETURN(Term right, ParseTermMultiplication());
    left = Operation(kind == TokenKind::kPlus ? "_add" : "_substract", std::move(left),
                     std::move(right));
  }
  return left;
}

Result<Term> Parser::ParseTermMultiplication() {
  ASSIGN_OR_RETURN(Term left, ParseTermGroup());
  while (true) {
    const char* name = nullptr;
    switch (PeekKind()) {
      case TokenKind::kStar:
        name = "_multiply";
        break;
      case TokenKind::kSlash:
        name = "_divide";
        break;
      case TokenKind::kPercent:
        name = "_modulo";
        break;
      default:
        return left;
    }
    Consume();
    ASSIGN_OR_RETURN(Term right, ParseTermGroup());
    left = Operation(name, std::move(left), std::move(right));
  }
}

Result<Term> Parser::ParseTermGroup() {
  if (!At(TokenKind::kMinus)) return ParseSimpleTerm();
  return ParseNegation();
}

// Kept out of ParseTermGroup so the recursive frames stay small.
Result<Term> Parser::ParseNegation() {
  Consume();  // '-'
  ASSIGN_OR_RETURN(Term operand, ParseSimpleTerm());
  FunctionCall call;
  call.keyspace = "system";
  call.name = "_negate";
  call.args.push_back(std::move(operand));
  return Term(std::move(call));
}

Result<Term> Parser::ParseSimpleTerm() {
  CQL_ENTER_NESTING();
  TokenKind kind = PeekKind();
  if (IsConstantToken(kind)) return ParseConstantTerm();
  switch (kind) {
    case TokenKind::kLBracket:
      return ParseListLiteral();
    case TokenKind::kLBrace:
      return ParseCollectionOrUdtLiteral();
    case TokenKind::kLParen:
      return ParseTupleOrTypeHint();
    case TokenKind::kKNull:
      Consume();
      return Term(NullLiteral{});
    case TokenKind::kColon:
    case TokenKind::kQmark:
      return ParseMarker();
    default:
      break;
  }
  if (kind == TokenKind::kKCast && PeekKind(2) == TokenKind::kLParen) return ParseCastTerm();
  if (IsIdentToken(kind) || IsFunctionNameToken(kind)) return ParseFunctionCall();
  return NoViableAltError();
}

// CAST(term AS native_type): Cassandra's system.castAs<Type> function.
Result<Term> Parser::ParseCastTerm() {
  {
    Consume();
    Consume();
    ASSIGN_OR_RETURN(Term operand, ParseSimpleTerm());
    RETURN_IF_ERROR(Expect(TokenKind::kKAs));
    const Token& type_token = Peek();
    if (!IsNativeTypeKeyword(type_token.kind)) return NoViableAltError();
    Consume();
    RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    CqlType type;
    CqlType::FromNativeName(Source(type_token), &type);
    std::string type_name(type.NativeName());
    type_name[0] = static_cast<char>(type_name[0] - 'a' + 'A');
    FunctionCall call;
    call.keyspace = "system";
    call.name = "castAs" + type_name;
    call.args.push_back(std::move(operand));
    return Term(std::move(call));
  }
}

Result<Term> Parser::ParseFunctionCall() {
  // function: functionName '(' ')' | functionName '(' functionArgs ')'
  size_t name_tokens = PeekKind(2) == TokenKind::kDot ? 3 : 1;
  if (PeekKind(name_tokens + 1) != TokenKind::kLParen) return NoViableAltError(name_tokens + 1);
  if (PeekKind(name_tokens + 2) != TokenKind::kRParen && !StartsSimpleTerm(name_tokens + 2) &&
      PeekKind(name_tokens + 2) != TokenKind::kMinus) {
    return NoViableAltError(name_tokens + 2);
  }
  ASSIGN_OR_RETURN(QualifiedName name, ParseFunctionName());
  ASSIGN_OR_RETURN(std::vector<Term> args, ParseTermList(TokenKind::kLParen, TokenKind::kRParen));
  FunctionCall call;
  call.keyspace = std::move(name.keyspace);
  call.name = std::move(name.name);
  call.args = std::move(args);
  return Term(std::move(call));
}

Result<std::vector<Term>> Parser::ParseTermList(TokenKind open, TokenKind close) {
  RETURN_IF_ERROR(Expect(open));
  std::vector<Term> terms;
  if (Accept(close)) return terms;
  while (true) {
    ASSIGN_OR_RETURN(Term term, ParseTerm());
    terms.push_back(std::move(term));
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(close));
  return terms;
}

Result<Term> Parser::ParseListLiteral() {
  ASSIGN_OR_RETURN(std::vector<Term> elements,
                   ParseTermList(TokenKind::kLBracket, TokenKind::kRBracket));
  CollectionLiteral list;
  list.kind = CollectionLiteral::Kind::kList;
  list.elements = std::move(elements);
  return Term(std::move(list));
}

Result<Term> Parser::ParseCollectionOrUdtLiteral() {
  Consume();  // '{'
  if (Accept(TokenKind::kRBrace)) {
    CollectionLiteral empty;
    empty.kind = CollectionLiteral::Kind::kMap;
    return Term(std::move(empty));
  }
  if (IsIdentToken(PeekKind()) && PeekKind(2) == TokenKind::kColon) {
    UdtLiteral udt;
    while (true) {
      ASSIGN_OR_RETURN(std::string field, ParseIdent());
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      ASSIGN_OR_RETURN(Term value, ParseTerm());
      udt.field_names.push_back(std::move(field));
      udt.values.push_back(std::move(value));
      if (!Accept(TokenKind::kComma)) break;
    }
    RETURN_IF_ERROR(Expect(TokenKind::kRBrace));
    return Term(std::move(udt));
  }
  CollectionLiteral collection;
  ASSIGN_OR_RETURN(Term first, ParseTerm());
  if (Accept(TokenKind::kColon)) {
    collection.kind = CollectionLiteral::Kind::kMap;
    ASSIGN_OR_RETURN(Term value, ParseTerm());
    collection.keys.push_back(std::move(first));
    collection.elements.push_back(std::move(value));
    while (Accept(TokenKind::kComma)) {
      ASSIGN_OR_RETURN(Term key, ParseTerm());
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      ASSIGN_OR_RETURN(Term element, ParseTerm());
      collection.keys.push_back(std::move(key));
      collection.elements.push_back(std::move(element));
    }
  } else {
    collection.kind = CollectionLiteral::Kind::kSet;
    collection.elements.push_back(std::move(first));
    while (Accept(TokenKind::kComma)) {
      ASSIGN_OR_RETURN(Term element, ParseTerm());
      collection.elements.push_back(std::move(element));
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRBrace));
  return Term(std::move(collection));
}

// '(' comparatorType ')' simpleTerm (a type hint) or '(' term (',' term)* ')' (a tuple). The
// hint is tried first by a lookahead parse, as ANTLR's LL(*) prediction does.
Result<Term> Parser::ParseTupleOrTypeHint() {
  if (StartsType(2)) {
    size_t saved_pos = pos_;
    size_t saved_binds = bind_names_.size();
    bool saved_speculating = speculating_;
    speculating_ = true;
    Consume();  // '('
    bool is_hint = false;
    {
      auto type = ParseComparatorType();
      is_hint = type.ok() && At(TokenKind::kRParen) && StartsSimpleTerm(2);
    }
    speculating_ = saved_speculating;
    pos_ = saved_pos;
    bind_names_.resize(saved_binds);
    if (is_hint) return ParseTypeHint();
  }
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  TupleLiteral tuple;
  while (true) {
    ASSIGN_OR_RETURN(Term element, ParseTerm());
    tuple.elements.push_back(std::move(element));
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return Term(std::move(tuple));
}

Result<Term> Parser::ParseTypeHint() {
  Consume();  // '('
  TypeHint hint;
  ASSIGN_OR_RETURN(hint.type, ParseComparatorType());
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  ASSIGN_OR_RETURN(Term operand, ParseSimpleTerm());
  hint.term = std::make_unique<Term>(std::move(operand));
  return Term(std::move(hint));
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
