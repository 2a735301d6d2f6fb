// Terms: constants, bind markers, arithmetic, collection, UDT and tuple literals, type hints,
// casts and function calls (the `term` rules of Parser.g).

#include <memory>
#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {
namespace {

Term Operation(const char* name, Term left, Term right) {
  FunctionCall call;
  call.keyspace = "system";
  call.name = name;
  call.args.push_back(std::move(left));
  call.args.push_back(std::move(right));
  return Term(std::move(call));
}

}  // namespace

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
  const Token& token = Peek();
  if (!IsConstantToken(token.kind)) return NoViableAltError();
  Consume();
  Term term;
  ConstantInto(token, &term.value.emplace<Constant>());
  return term;
}

Result<Constant> Parser::ParseConstant() {
  const Token& token = Peek();
  if (!IsConstantToken(token.kind)) return NoViableAltError();
  Consume();
  Constant constant;
  ConstantInto(token, &constant);
  return constant;
}

void Parser::ConstantInto(const Token& token, Constant* constant) const {
  // The text is assigned in place: no temporary string to move.
  switch (token.kind) {
    case TokenKind::kStringLiteral:
      constant->kind = ConstantKind::kString;
      TextInto(token, &constant->text);
      break;
    case TokenKind::kInteger:
      constant->kind = ConstantKind::kInteger;
      constant->text = Source(token);
      break;
    case TokenKind::kFloat:
      constant->kind = ConstantKind::kFloat;
      constant->text = Source(token);
      break;
    case TokenKind::kBoolean:
      constant->kind = ConstantKind::kBoolean;
      AsciiLowerInto(Source(token), &constant->text);
      break;
    case TokenKind::kDuration:
      constant->kind = ConstantKind::kDuration;
      constant->text = Source(token);
      break;
    case TokenKind::kUuid:
      constant->kind = ConstantKind::kUuid;
      constant->text = Source(token);
      break;
    case TokenKind::kHexNumber:
      constant->kind = ConstantKind::kHex;
      constant->text = Source(token).substr(2);
      break;
    case TokenKind::kKPositiveNan:
    case TokenKind::kNegativeNan:
      constant->kind = ConstantKind::kFloat;
      constant->text = "NaN";
      break;
    case TokenKind::kKPositiveInfinity:
      constant->kind = ConstantKind::kFloat;
      constant->text = "Infinity";
      break;
    case TokenKind::kNegativeInfinity:
      constant->kind = ConstantKind::kFloat;
      constant->text = "-Infinity";
      break;
    default:
      break;  // not reached: callers check IsConstantToken
  }
}

int Parser::AddBindMarker(std::string_view name) {
  if (bind_names_.capacity() == 0) bind_names_.reserve(8);
  bind_names_.emplace_back(name);
  return static_cast<int>(bind_names_.size()) - 1;
}

Term Parser::NewMarker(std::string name) {
  const int index = AddBindMarker(name);
  return Term(BindMarker{index, std::move(name)});
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

bool Parser::AtLoneValue() {
  TokenKind first = PeekKind();
  if (first != TokenKind::kQmark && !IsConstantToken(first)) return false;
  switch (PeekKind(2)) {
    case TokenKind::kPlus:
    case TokenKind::kMinus:
    case TokenKind::kStar:
    case TokenKind::kSlash:
    case TokenKind::kPercent:
      return false;
    default:
      return true;
  }
}

Status Parser::ParseTermInto(Term* term) {
  if (!AtLoneValue()) {
    ASSIGN_OR_RETURN(*term, ParseTerm());
    return Status::Ok();
  }
  // The common case, built in place.
  const Token& token = Peek();
  Consume();
  if (token.kind == TokenKind::kQmark) {
    BindMarker& marker = term->value.emplace<BindMarker>();
    marker.index = AddBindMarker(std::string_view());
  } else {
    ConstantInto(token, &term->value.emplace<Constant>());
  }
  return Status::Ok();
}

// term: termMultiplication (('+' | '-') termMultiplication)*. A '+' not followed by a term
// ends the term: `SET l = [1] + l` is a prepend.
Result<Term> Parser::ParseTerm() {
  // Fast path for the common case, a lone constant or marker: no recursion, fewer moves.
  if (AtLoneValue()) {
    if (At(TokenKind::kQmark)) {
      Consume();
      return NewMarker(std::string());
    }
    return ParseConstantTerm();
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
    const char* name = MultiplicativeFunction(PeekKind());
    if (name == nullptr) return left;
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
    CqlType type = CqlType::Native(NativeTypeOf(type_token.kind));
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
    RETURN_IF_ERROR(ParseTermInto(&terms.emplace_back()));
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

}  // namespace cql::internal
