// SELECT, selectors and WHERE clauses.

#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {
namespace {

Selectable SystemFunction(const char* name, std::vector<Selectable> args) {
  Selectable s;
  s.kind = Selectable::Kind::kFunction;
  s.keyspace = "system";
  s.name = name;
  s.args = std::move(args);
  return s;
}

}  // namespace

// selectStatement
Result<Statement> Parser::ParseSelect() {
  RETURN_IF_ERROR(Expect(TokenKind::kKSelect));
  Select select;
  // (K_JSON selectClause)=> K_JSON and (K_DISTINCT selectors)=> K_DISTINCT: `json` and
  // `distinct` are also column names, so each is a keyword only when selectors follow it.
  auto keyword_then_selectors = [this](TokenKind keyword) {
    if (!At(keyword)) return false;
    size_t saved_pos = pos_;
    size_t saved_binds = bind_names_.size();
    bool saved_speculating = speculating_;
    speculating_ = true;
    Consume();
    bool ok = ParseSelectors().ok();
    speculating_ = saved_speculating;
    pos_ = saved_pos;
    bind_names_.resize(saved_binds);
    return ok;
  };
  if (keyword_then_selectors(TokenKind::kKJson)) {
    Consume();
    select.json = true;
  }
  if (keyword_then_selectors(TokenKind::kKDistinct)) {
    Consume();
    select.distinct = true;
  }
  ASSIGN_OR_RETURN(select.selectors, ParseSelectors());
  RETURN_IF_ERROR(Expect(TokenKind::kKFrom));
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&select.table));
  if (Accept(TokenKind::kKWhere)) {
    ASSIGN_OR_RETURN(select.where, ParseWhereClause());
  }
  if (Accept(TokenKind::kKGroup)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKBy));
    do {
      ASSIGN_OR_RETURN(std::string column, ParseCident());
      select.group_by.push_back(std::move(column));
    } while (Accept(TokenKind::kComma));
  }
  if (Accept(TokenKind::kKOrder)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKBy));
    do {
      Ordering ordering;
      ASSIGN_OR_RETURN(ordering.column, ParseCident());
      if (Accept(TokenKind::kKDesc)) {
        ordering.descending = true;
      } else {
        Accept(TokenKind::kKAsc);
      }
      select.order_by.push_back(std::move(ordering));
    } while (Accept(TokenKind::kComma));
  }
  if (Accept(TokenKind::kKPer)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKPartition));
    RETURN_IF_ERROR(Expect(TokenKind::kKLimit));
    ASSIGN_OR_RETURN(Term limit, ParseIntValue());
    select.per_partition_limit = std::move(limit);
  }
  if (Accept(TokenKind::kKLimit)) {
    ASSIGN_OR_RETURN(Term limit, ParseIntValue());
    select.limit = std::move(limit);
  }
  if (Accept(TokenKind::kKAllow)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKFiltering));
    select.allow_filtering = true;
  }
  return Finish(std::move(select));
}

// selectors: '*' | selector (',' selector)*
Result<std::vector<Selector>> Parser::ParseSelectors() {
  std::vector<Selector> selectors;
  if (Accept(TokenKind::kStar)) return selectors;
  selectors.reserve(8);
  while (true) {
    TokenKind next = IsIdentToken(PeekKind()) ? PeekKind(2) : TokenKind::kEof;
    if (next == TokenKind::kComma || next == TokenKind::kKFrom || next == TokenKind::kKAs) {
      // Fast path for the common case, a plain column: built in place.
      Selector& selector = selectors.emplace_back();
      IdentValueInto(Peek(), &selector.expression.name);
      Consume();
      if (Accept(TokenKind::kKAs)) {
        ASSIGN_OR_RETURN(selector.alias, ParseIdent());
      }
    } else {
      ASSIGN_OR_RETURN(Selector selector, ParseSelector());
      selectors.push_back(std::move(selector));
    }
    if (!Accept(TokenKind::kComma)) break;
  }
  return selectors;
}

Result<Selector> Parser::ParseSelector() {
  Selector selector;
  ASSIGN_OR_RETURN(selector.expression, ParseUnaliasedSelector());
  if (Accept(TokenKind::kKAs)) {
    ASSIGN_OR_RETURN(selector.alias, ParseIdent());
  }
  return selector;
}

// selectionAddition
Result<Selectable> Parser::ParseUnaliasedSelector() {
  CQL_ENTER_NESTING();
  ASSIGN_OR_RETURN(Selectable left, ParseSelectionMultiplication());
  while (At(TokenKind::kPlus) || At(TokenKind::kMinus)) {
    const char* name = At(TokenKind::kPlus) ? "_add" : "_substract";
    Consume();
    ASSIGN_OR_RETURN(Selectable right, ParseSelectionMultiplication());
    std::vector<Selectable> args;
    args.push_back(std::move(left));
    args.push_back(std::move(right));
    left = SystemFunction(name, std::move(args));
  }
  return left;
}

Result<Selectable> Parser::ParseSelectionMultiplication() {
  ASSIGN_OR_RETURN(Selectable left, ParseSelectionGroup());
  while (true) {
    const char* name = MultiplicativeFunction(PeekKind());
    if (name == nullptr) return left;
    Consume();
    ASSIGN_OR_RETURN(Selectable right, ParseSelectionGroup());
    std::vector<Selectable> args;
    args.push_back(std::move(left));
    args.push_back(std::move(right));
    left = SystemFunction(name, std::move(args));
  }
}

// selectionGroup: selectionGroupWithoutField selectorModifier | '-' selectionGroup
Result<Selectable> Parser::ParseSelectionGroup() {
  CQL_ENTER_NESTING();
  if (Accept(TokenKind::kMinus)) {
    ASSIGN_OR_RETURN(Selectable operand, ParseSelectionGroup());
    std::vector<Selectable> args;
    args.push_back(std::move(operand));
    return SystemFunction("_negate", std::move(args));
  }
  ASSIGN_OR_RETURN(Selectable receiver, ParseSelectionGroupWithoutField());
  return ParseSelectorModifiers(std::move(receiver));
}

// selectorModifier: ('.' fident | '[' collectionSubSelection ']')*
Result<Selectable> Parser::ParseSelectorModifiers(Selectable receiver) {
  while (true) {
    if (Accept(TokenKind::kDot)) {
      Selectable field;
      field.kind = Selectable::Kind::kField;
      ASSIGN_OR_RETURN(field.name, ParseIdent());
      field.args.push_back(std::move(receiver));
      receiver = std::move(field);
      continue;
    }
    if (!Accept(TokenKind::kLBracket)) return receiver;
    Selectable sub;
    sub.kind = Selectable::Kind::kElement;
    if (Accept(TokenKind::kRange)) {
      sub.kind = Selectable::Kind::kSlice;
      ASSIGN_OR_RETURN(Term end, ParseTerm());
      sub.term2 = std::move(end);
    } else {
      ASSIGN_OR_RETURN(Term first, ParseTerm());
      sub.term = std::move(first);
      if (Accept(TokenKind::kRange)) {
        sub.kind = Selectable::Kind::kSlice;
        if (!At(TokenKind::kRBracket)) {
          ASSIGN_OR_RETURN(Term end, ParseTerm());
          sub.term2 = std::move(end);
        }
      }
    }
    RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
    sub.args.push_back(std::move(receiver));
    receiver = std::move(sub);
  }
}

bool Parser::StartsSelector(size_t k) {
  TokenKind kind = PeekKind(k);
  return IsIdentToken(kind) || IsConstantToken(kind) || kind == TokenKind::kKNull ||
         kind == TokenKind::kQmark || kind == TokenKind::kColon || kind == TokenKind::kLParen ||
         kind == TokenKind::kLBracket || kind == TokenKind::kLBrace || kind == TokenKind::kKToken;
}

Result<std::vector<Selectable>> Parser::ParseSelectorList(TokenKind close) {
  std::vector<Selectable> elements;
  if (Accept(close)) return elements;
  while (true) {
    ASSIGN_OR_RETURN(Selectable element, ParseUnaliasedSelector());
    elements.push_back(std::move(element));
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(close));
  return elements;
}

Result<Selectable> Parser::ParseSelectionGroupWithoutField() {
  CQL_ENTER_NESTING();
  switch (PeekKind()) {
    case TokenKind::kLParen:
      return ParseSelectionParenthesized();
    case TokenKind::kLBracket: {
      Consume();
      Selectable list;
      list.kind = Selectable::Kind::kList;
      ASSIGN_OR_RETURN(list.args, ParseSelectorList(TokenKind::kRBracket));
      return list;
    }
    case TokenKind::kLBrace:
      return ParseSelectionMapOrSet();
    default:
      return ParseSimpleUnaliasedSelector();
  }
}

// (selectionTypeHint)=> '(' comparatorType ')' selectionGroupWithoutField, or a tuple /
// parenthesized selector.
Result<Selectable> Parser::ParseSelectionParenthesized() {
  if (StartsType(2)) {
    size_t saved_pos = pos_;
    size_t saved_binds = bind_names_.size();
    bool saved_speculating = speculating_;
    speculating_ = true;
    Consume();
    bool is_hint = false;
    {
      auto type = ParseComparatorType();
      is_hint = type.ok() && At(TokenKind::kRParen) && StartsSelector(2);
    }
    speculating_ = saved_speculating;
    pos_ = saved_pos;
    bind_names_.resize(saved_binds);
    if (is_hint) {
      Consume();
      Selectable hint;
      hint.kind = Selectable::Kind::kTypeHint;
      ASSIGN_OR_RETURN(CqlType type, ParseComparatorType());
      hint.type = std::move(type);
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      ASSIGN_OR_RETURN(Selectable operand, ParseSelectionGroupWithoutField());
      hint.args.push_back(std::move(operand));
      return hint;
    }
  }
  Consume();
  Selectable tuple;
  tuple.kind = Selectable::Kind::kTuple;
  while (true) {
    ASSIGN_OR_RETURN(Selectable element, ParseUnaliasedSelector());
    tuple.args.push_back(std::move(element));
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return tuple;
}

// selectionMapOrSet: '{' '}' | '{' s (':' s (',' s ':' s)* | (',' s)*) '}'
Result<Selectable> Parser::ParseSelectionMapOrSet() {
  Consume();
  Selectable collection;
  collection.kind = Selectable::Kind::kSet;
  if (Accept(TokenKind::kRBrace)) return collection;
  ASSIGN_OR_RETURN(Selectable first, ParseUnaliasedSelector());
  if (Accept(TokenKind::kColon)) {
    collection.kind = Selectable::Kind::kMap;
    ASSIGN_OR_RETURN(Selectable value, ParseUnaliasedSelector());
    collection.args.push_back(std::move(first));
    collection.args.push_back(std::move(value));
    while (Accept(TokenKind::kComma)) {
      ASSIGN_OR_RETURN(Selectable key, ParseUnaliasedSelector());
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      ASSIGN_OR_RETURN(Selectable element, ParseUnaliasedSelector());
      collection.args.push_back(std::move(key));
      collection.args.push_back(std::move(element));
    }
  } else {
    collection.args.push_back(std::move(first));
    while (Accept(TokenKind::kComma)) {
      ASSIGN_OR_RETURN(Selectable element, ParseUnaliasedSelector());
      collection.args.push_back(std::move(element));
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRBrace));
  return collection;
}

// simpleUnaliasedSelector: sident | selectionLiteral | selectionFunction
Result<Selectable> Parser::ParseSimpleUnaliasedSelector() {
  TokenKind kind = PeekKind();
  if (IsConstantToken(kind) || kind == TokenKind::kKNull || kind == TokenKind::kQmark ||
      kind == TokenKind::kColon) {
    Selectable literal;
    literal.kind = Selectable::Kind::kTerm;
    if (kind == TokenKind::kKNull) {
      Consume();
      literal.term = Term(NullLiteral{});
    } else if (IsConstantToken(kind)) {
      ASSIGN_OR_RETURN(Constant constant, ParseConstant());
      literal.term = Term(std::move(constant));
    } else {
      ASSIGN_OR_RETURN(Term marker, ParseMarker());
      literal.term = std::move(marker);
    }
    return literal;
  }
  if (!IsIdentToken(kind) && !IsFunctionNameToken(kind)) return NoViableAltError();
  if (PeekKind(2) == TokenKind::kLParen &&
      ((kind == TokenKind::kKCount && PeekKind(3) == TokenKind::kStar) ||
       kind == TokenKind::kKWritetime || kind == TokenKind::kKTtl || kind == TokenKind::kKCast)) {
    return ParseSelectionSpecialFunction();
  }
  if (LooksLikeFunctionCall(1)) {
    Selectable call;
    call.kind = Selectable::Kind::kFunction;
    ASSIGN_OR_RETURN(QualifiedName name, ParseFunctionName());
    call.keyspace = std::move(name.keyspace);
    call.name = std::move(name.name);
    RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    ASSIGN_OR_RETURN(call.args, ParseSelectorList(TokenKind::kRParen));
    return call;
  }
  if (IsIdentToken(kind)) {
    Selectable column;
    column.kind = Selectable::Kind::kColumn;
    ASSIGN_OR_RETURN(column.name, ParseIdent());
    return column;
  }
  return NoViableAltError();
}

// count(*), writetime(c), ttl(c), CAST(s AS type).
Result<Selectable> Parser::ParseSelectionSpecialFunction() {
  TokenKind kind = PeekKind();
  {
    if (kind == TokenKind::kKCount && PeekKind(3) == TokenKind::kStar) {
      Consume();
      Consume();
      Consume();
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      Selectable count;
      count.kind = Selectable::Kind::kCountRows;
      return count;
    }
    if (kind == TokenKind::kKWritetime || kind == TokenKind::kKTtl) {
      Consume();
      Consume();
      Selectable s;
      s.kind = kind == TokenKind::kKTtl ? Selectable::Kind::kTtl : Selectable::Kind::kWritetime;
      Selectable column;
      column.kind = Selectable::Kind::kColumn;
      ASSIGN_OR_RETURN(column.name, ParseIdent());
      ASSIGN_OR_RETURN(Selectable target, ParseSelectorModifiers(std::move(column)));
      s.args.push_back(std::move(target));
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      return s;
    }
    if (kind == TokenKind::kKCast) {
      Consume();
      Consume();
      Selectable cast;
      cast.kind = Selectable::Kind::kCast;
      ASSIGN_OR_RETURN(Selectable operand, ParseUnaliasedSelector());
      cast.args.push_back(std::move(operand));
      RETURN_IF_ERROR(Expect(TokenKind::kKAs));
      const Token& type_token = Peek();
      if (!IsNativeTypeKeyword(type_token.kind)) return NoViableAltError();
      Consume();
      CqlType type;
      CqlType::FromNativeName(Source(type_token), &type);
      cast.type = type;
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      return cast;
    }
  }
  return NoViableAltError();
}

// whereClause: relationOrExpression (K_AND relationOrExpression)*
Result<std::vector<Relation>> Parser::ParseWhereClause() {
  std::vector<Relation> relations;
  relations.reserve(3);  // a Relation is ~270 bytes: 3 stay within malloc's small-block cache
  do {
    RETURN_IF_ERROR(ParseRelation(&relations));
  } while (Accept(TokenKind::kKAnd));
  return relations;
}

bool Parser::IsRelationType(TokenKind kind) const {
  switch (kind) {
    case TokenKind::kEq:
    case TokenKind::kLt:
    case TokenKind::kLte:
    case TokenKind::kGt:
    case TokenKind::kGte:
    case TokenKind::kNeq:
      return true;
    default:
      return false;
  }
}

Result<Operator> Parser::ParseRelationType() {
  Operator op;
  switch (PeekKind()) {
    case TokenKind::kEq:
      op = Operator::kEq;
      break;
    case TokenKind::kLt:
      op = Operator::kLt;
      break;
    case TokenKind::kLte:
      op = Operator::kLte;
      break;
    case TokenKind::kGt:
      op = Operator::kGt;
      break;
    case TokenKind::kGte:
      op = Operator::kGte;
      break;
    case TokenKind::kNeq:
      op = Operator::kNeq;
      break;
    default:
      return NoViableAltError();
  }
  Consume();
  return op;
}

// tupleOfIdentifiers: '(' cident (',' cident)* ')'
Result<std::vector<std::string>> Parser::ParseTupleOfIdentifiers() {
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  std::vector<std::string> names;
  do {
    ASSIGN_OR_RETURN(std::string name, ParseCident());
    names.push_back(std::move(name));
  } while (Accept(TokenKind::kComma));
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return names;
}

// singleColumnInValues / multiColumnInValues: a marker, or a parenthesized list (of terms,
// or for several columns of tuple literals or markers).
Status Parser::ParseInValues(bool multi_column, Term* marker, bool* in_list,
                             std::vector<Term>* list) {
  if (At(TokenKind::kQmark) || At(TokenKind::kColon)) {
    ASSIGN_OR_RETURN(*marker, ParseMarker());
    *in_list = false;
    return Status::Ok();
  }
  if (!At(TokenKind::kLParen)) return NoViableAltError();
  *in_list = true;
  if (!multi_column) {
    ASSIGN_OR_RETURN(*list, ParseTermList(TokenKind::kLParen, TokenKind::kRParen));
    return Status::Ok();
  }
  Consume();  // '('
  if (Accept(TokenKind::kRParen)) return Status::Ok();
  TokenKind first = PeekKind();
  if (first != TokenKind::kLParen && first != TokenKind::kQmark && first != TokenKind::kColon) {
    return NoViableAltError();
  }
  bool tuples = first == TokenKind::kLParen;
  while (true) {
    if (tuples) {
      RETURN_IF_ERROR(Expect(TokenKind::kLParen));
      TupleLiteral tuple;
      while (true) {
        ASSIGN_OR_RETURN(Term element, ParseTerm());
        tuple.elements.push_back(std::move(element));
        if (!Accept(TokenKind::kComma)) break;
      }
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      list->push_back(Term(std::move(tuple)));
    } else {
      ASSIGN_OR_RETURN(Term element, ParseMarker());
      list->push_back(std::move(element));
    }
    if (!Accept(TokenKind::kComma)) break;
  }
  return Expect(TokenKind::kRParen);
}

Status Parser::ParseRelation(std::vector<Relation>* relations) {
  CQL_ENTER_NESTING();
  Relation relation;
  TokenKind first = PeekKind();
  if (first == TokenKind::kExprParen) {
    // customIndexExpression: 'expr(' idxName ',' term ')'
    Consume();
    relation.kind = Relation::Kind::kCustomIndex;
    ASSIGN_OR_RETURN(std::string index, ParseIdxName());
    relation.columns.push_back(std::move(index));
    RETURN_IF_ERROR(Expect(TokenKind::kComma));
    ASSIGN_OR_RETURN(relation.value, ParseTerm());
    RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    relations->push_back(std::move(relation));
    return Status::Ok();
  }
  if (first == TokenKind::kKToken) {
    Consume();
    relation.kind = Relation::Kind::kToken;
    ASSIGN_OR_RETURN(relation.columns, ParseTupleOfIdentifiers());
    ASSIGN_OR_RETURN(relation.op, ParseRelationType());
    ASSIGN_OR_RETURN(relation.value, ParseTerm());
    relations->push_back(std::move(relation));
    return Status::Ok();
  }
  if (first == TokenKind::kLParen) {
    TokenKind second = PeekKind(2);
    bool tuple = (IsIdentToken(second) || second == TokenKind::kEmptyQuotedName) &&
                 (PeekKind(3) == TokenKind::kComma || PeekKind(3) == TokenKind::kRParen);
    if (!tuple) {
      Consume();
      RETURN_IF_ERROR(ParseRelation(relations));
      return Expect(TokenKind::kRParen);
    }
    relation.kind = Relation::Kind::kMultiColumn;
    ASSIGN_OR_RETURN(relation.columns, ParseTupleOfIdentifiers());
    if (Accept(TokenKind::kKIn)) {
      relation.op = Operator::kIn;
      RETURN_IF_ERROR(ParseInValues(/*multi_column=*/true, &relation.value, &relation.in_list,
                                    &relation.in_values));
    } else if (IsRelationType(PeekKind())) {
      ASSIGN_OR_RETURN(relation.op, ParseRelationType());
      if (At(TokenKind::kLParen)) {
        Consume();
        TupleLiteral tuple;
        while (true) {
          ASSIGN_OR_RETURN(Term element, ParseTerm());
          tuple.elements.push_back(std::move(element));
          if (!Accept(TokenKind::kComma)) break;
        }
        RETURN_IF_ERROR(Expect(TokenKind::kRParen));
        relation.value = Term(std::move(tuple));
      } else if (At(TokenKind::kQmark) || At(TokenKind::kColon)) {
        ASSIGN_OR_RETURN(relation.value, ParseMarker());
      } else {
        return NoViableAltError();
      }
    } else {
      return NoViableAltError();
    }
    relations->push_back(std::move(relation));
    return Status::Ok();
  }
  if (!IsIdentToken(first) && first != TokenKind::kEmptyQuotedName) return NoViableAltError();
  TokenKind second = PeekKind(2);
  bool known = IsRelationType(second) || second == TokenKind::kKLike || second == TokenKind::kKIs ||
               second == TokenKind::kKIn || second == TokenKind::kKContains ||
               second == TokenKind::kLBracket;
  if (!known) return NoViableAltError(2);
  // Built in place: on error the whole statement is dropped anyway.
  Relation& column_relation = relations->emplace_back();
  return ParseColumnRelation(&column_relation);
}

Status Parser::ParseColumnRelation(Relation* out) {
  Relation& relation = *out;
  relation.kind = Relation::Kind::kColumn;
  RETURN_IF_ERROR(ParseCidentInto(&relation.columns.emplace_back()));
  switch (PeekKind()) {
    case TokenKind::kLBracket: {
      Consume();
      ASSIGN_OR_RETURN(Term key, ParseTerm());
      relation.map_key = std::move(key);
      RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
      ASSIGN_OR_RETURN(relation.op, ParseRelationType());
      return ParseTermInto(&relation.value);
    }
    case TokenKind::kKLike:
      Consume();
      relation.op = Operator::kLike;
      return ParseTermInto(&relation.value);
    case TokenKind::kKIs:
      Consume();
      RETURN_IF_ERROR(Expect(TokenKind::kKNot));
      RETURN_IF_ERROR(Expect(TokenKind::kKNull));
      relation.op = Operator::kIsNot;
      relation.value = Term(NullLiteral{});
      break;
    case TokenKind::kKIn:
      Consume();
      relation.op = Operator::kIn;
      return ParseInValues(/*multi_column=*/false, &relation.value, &relation.in_list,
                           &relation.in_values);
    case TokenKind::kKContains:
      Consume();
      relation.op = Accept(TokenKind::kKKey) ? Operator::kContainsKey : Operator::kContains;
      return ParseTermInto(&relation.value);
    default:
      ASSIGN_OR_RETURN(relation.op, ParseRelationType());
      return ParseTermInto(&relation.value);
  }
  return Status::Ok();
}

}  // namespace cql::internal
