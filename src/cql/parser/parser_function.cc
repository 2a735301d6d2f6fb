// Functions, aggregates, triggers and DESCRIBE.

#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {

// '(' (comparatorType (',' comparatorType)*)? ')'
Result<std::vector<CqlType>> Parser::ParseTypeList() {
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  std::vector<CqlType> types;
  if (!At(TokenKind::kRParen)) {
    do {
      ASSIGN_OR_RETURN(CqlType type, ParseComparatorType());
      types.push_back(std::move(type));
    } while (Accept(TokenKind::kComma));
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return types;
}

// createFunctionStatement
Result<Statement> Parser::ParseCreateFunction() {
  Consume();  // CREATE
  CreateFunction create;
  if (Accept(TokenKind::kKOr)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKReplace));
    create.or_replace = true;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKFunction));
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.function, ParseFunctionName());
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (!At(TokenKind::kRParen)) {
    do {
      ASSIGN_OR_RETURN(std::string name, ParseIdent());
      ASSIGN_OR_RETURN(CqlType type, ParseComparatorType());
      create.argument_names.push_back(std::move(name));
      create.argument_types.push_back(std::move(type));
    } while (Accept(TokenKind::kComma));
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (Accept(TokenKind::kKReturns)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKNull));
  } else if (Accept(TokenKind::kKCalled)) {
    create.called_on_null_input = true;
  } else {
    return NoViableAltError();
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKOn));
  RETURN_IF_ERROR(Expect(TokenKind::kKNull));
  RETURN_IF_ERROR(Expect(TokenKind::kKInput));
  RETURN_IF_ERROR(Expect(TokenKind::kKReturns));
  ASSIGN_OR_RETURN(create.return_type, ParseComparatorType());
  RETURN_IF_ERROR(Expect(TokenKind::kKLanguage));
  const Token& language = Peek();
  RETURN_IF_ERROR(Expect(TokenKind::kIdent));
  create.language = AsciiLower(Source(language));
  RETURN_IF_ERROR(Expect(TokenKind::kKAs));
  ASSIGN_OR_RETURN(create.body, ParseStringLiteral());
  return Finish(std::move(create));
}

// dropFunctionStatement
Result<Statement> Parser::ParseDropFunction() {
  Consume();  // DROP
  Consume();  // FUNCTION
  DropFunction drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.function, ParseFunctionName());
  if (At(TokenKind::kLParen)) {
    drop.arguments_specified = true;
    ASSIGN_OR_RETURN(drop.argument_types, ParseTypeList());
  }
  return Finish(std::move(drop));
}

// createAggregateStatement
Result<Statement> Parser::ParseCreateAggregate() {
  Consume();  // CREATE
  CreateAggregate create;
  if (Accept(TokenKind::kKOr)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKReplace));
    create.or_replace = true;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKAggregate));
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.aggregate, ParseFunctionName());
  ASSIGN_OR_RETURN(create.argument_types, ParseTypeList());
  RETURN_IF_ERROR(Expect(TokenKind::kKSfunc));
  ASSIGN_OR_RETURN(create.state_function, ParseAllowedFunctionName());
  RETURN_IF_ERROR(Expect(TokenKind::kKStype));
  ASSIGN_OR_RETURN(create.state_type, ParseComparatorType());
  if (Accept(TokenKind::kKFinalfunc)) {
    ASSIGN_OR_RETURN(std::string final_function, ParseAllowedFunctionName());
    create.final_function = std::move(final_function);
  }
  if (Accept(TokenKind::kKInitcond)) {
    ASSIGN_OR_RETURN(Term initial, ParseTerm());
    create.initial_condition = std::move(initial);
  }
  return Finish(std::move(create));
}

// dropAggregateStatement
Result<Statement> Parser::ParseDropAggregate() {
  Consume();  // DROP
  Consume();  // AGGREGATE
  DropAggregate drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.aggregate, ParseFunctionName());
  if (At(TokenKind::kLParen)) {
    drop.arguments_specified = true;
    ASSIGN_OR_RETURN(drop.argument_types, ParseTypeList());
  }
  return Finish(std::move(drop));
}

// createTriggerStatement
Result<Statement> Parser::ParseCreateTrigger() {
  Consume();  // CREATE
  Consume();  // TRIGGER
  CreateTrigger create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.name, ParseIdent());
  RETURN_IF_ERROR(Expect(TokenKind::kKOn));
  ASSIGN_OR_RETURN(create.table, ParseColumnFamilyName());
  RETURN_IF_ERROR(Expect(TokenKind::kKUsing));
  ASSIGN_OR_RETURN(create.using_class, ParseStringLiteral());
  return Finish(std::move(create));
}

// dropTriggerStatement
Result<Statement> Parser::ParseDropTrigger() {
  Consume();  // DROP
  Consume();  // TRIGGER
  DropTrigger drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.name, ParseIdent());
  RETURN_IF_ERROR(Expect(TokenKind::kKOn));
  ASSIGN_OR_RETURN(drop.table, ParseColumnFamilyName());
  return Finish(std::move(drop));
}

// describeStatement (Cassandra 4.0+ server-side DESCRIBE)
Result<Statement> Parser::ParseDescribe() {
  Consume();  // DESCRIBE | DESC
  Describe describe;
  // Does LT(2) continue a name after an unreserved keyword at LT(1)?
  auto name_follows = [this] {
    TokenKind next = PeekKind(2);
    return IsIdentToken(next);
  };
  bool handled = true;
  switch (PeekKind()) {
    case TokenKind::kKCluster:
      Consume();
      describe.kind = Describe::Kind::kCluster;
      break;
    case TokenKind::kKFull:
      Consume();
      RETURN_IF_ERROR(Expect(TokenKind::kKSchema));
      describe.kind = Describe::Kind::kSchema;
      describe.full = true;
      break;
    case TokenKind::kKSchema:
      Consume();
      describe.kind = Describe::Kind::kSchema;
      break;
    case TokenKind::kKKeyspaces:
      Consume();
      describe.kind = Describe::Kind::kKeyspaces;
      break;
    case TokenKind::kKTables:
      Consume();
      describe.kind = Describe::Kind::kTables;
      break;
    case TokenKind::kKTypes:
      Consume();
      describe.kind = Describe::Kind::kTypes;
      break;
    case TokenKind::kKFunctions:
      Consume();
      describe.kind = Describe::Kind::kFunctions;
      break;
    case TokenKind::kKAggregates:
      Consume();
      describe.kind = Describe::Kind::kAggregates;
      break;
    case TokenKind::kKKeyspace: {
      Consume();
      describe.kind = Describe::Kind::kKeyspace;
      if (IsIdentToken(PeekKind()) || At(TokenKind::kQmark)) {
        ASSIGN_OR_RETURN(describe.name.keyspace, ParseKeyspaceName());
      }
      break;
    }
    case TokenKind::kKColumnfamily: {
      Consume();
      describe.kind = Describe::Kind::kTable;
      ASSIGN_OR_RETURN(describe.name, ParseColumnFamilyName());
      break;
    }
    case TokenKind::kKIndex: {
      Consume();
      describe.kind = Describe::Kind::kIndex;
      ASSIGN_OR_RETURN(describe.name, ParseColumnFamilyName());
      break;
    }
    case TokenKind::kKMaterialized: {
      Consume();
      RETURN_IF_ERROR(Expect(TokenKind::kKView));
      describe.kind = Describe::Kind::kMaterializedView;
      ASSIGN_OR_RETURN(describe.name, ParseColumnFamilyName());
      break;
    }
    default:
      handled = false;
      break;
  }
  if (!handled) {
    // Not one of the keyword forms above.
    TokenKind kind = PeekKind();
    if (kind == TokenKind::kKOnly && PeekKind(2) == TokenKind::kKKeyspace) {
      Consume();
      Consume();
      describe.kind = Describe::Kind::kKeyspace;
      describe.only = true;
      if (IsIdentToken(PeekKind()) || At(TokenKind::kQmark)) {
        ASSIGN_OR_RETURN(describe.name.keyspace, ParseKeyspaceName());
      }
    } else if (kind == TokenKind::kKType && name_follows()) {
      Consume();
      describe.kind = Describe::Kind::kType;
      ASSIGN_OR_RETURN(describe.name, ParseUserTypeName());
    } else if (kind == TokenKind::kKFunction && name_follows()) {
      Consume();
      describe.kind = Describe::Kind::kFunction;
      ASSIGN_OR_RETURN(describe.name, ParseFunctionName());
    } else if (kind == TokenKind::kKAggregate && name_follows()) {
      Consume();
      describe.kind = Describe::Kind::kAggregate;
      ASSIGN_OR_RETURN(describe.name, ParseFunctionName());
    } else if (IsIdentToken(kind)) {
      describe.kind = Describe::Kind::kGeneric;
      if (PeekKind(2) == TokenKind::kDot) {
        ASSIGN_OR_RETURN(describe.name.keyspace, ParseIdent());
        Consume();  // '.'
      }
      ASSIGN_OR_RETURN(describe.name.name, ParseIdent());
    } else {
      return NoViableAltError();
    }
  }
  if (Accept(TokenKind::kKWith)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKInternals));
    describe.with_internals = true;
  }
  return Finish(std::move(describe));
}

}  // namespace cql::internal
