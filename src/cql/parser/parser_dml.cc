// INSERT, UPDATE, DELETE, BATCH.

#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {
namespace {

// Cassandra's Operation.RawUpdate.isCompatibleWith: may `existing` and `added` both apply
// to the same column?
bool Compatible(const Operation& existing, const Operation& added) {
  switch (existing.kind) {
    case Operation::Kind::kSet:
      return false;
    case Operation::Kind::kSetField:
      if (added.kind == Operation::Kind::kSetField) return added.field != existing.field;
      return added.kind != Operation::Kind::kSet;
    default:
      return added.kind != Operation::Kind::kSet;
  }
}

}  // namespace

// insertStatement
Result<Statement> Parser::ParseInsert() {
  RETURN_IF_ERROR(Expect(TokenKind::kKInsert));
  RETURN_IF_ERROR(Expect(TokenKind::kKInto));
  Insert insert;
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&insert.table));
  if (At(TokenKind::kLParen)) {
    // normalInsertStatement
    Consume();
    insert.columns.reserve(8);
    do {
      RETURN_IF_ERROR(ParseCidentInto(&insert.columns.emplace_back()));
    } while (Accept(TokenKind::kComma));
    RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    RETURN_IF_ERROR(Expect(TokenKind::kKValues));
    RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    insert.values.reserve(insert.columns.size());
    do {
      RETURN_IF_ERROR(ParseTermInto(&insert.values.emplace_back()));
    } while (Accept(TokenKind::kComma));
    RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  } else if (At(TokenKind::kKJson)) {
    // jsonInsertStatement
    Consume();
    insert.json = true;
    const Token& value = Peek();
    if (value.kind == TokenKind::kStringLiteral) {
      Consume();
      insert.json_value = Term(Constant{ConstantKind::kString, Text(value)});
    } else if (value.kind == TokenKind::kQmark || value.kind == TokenKind::kColon) {
      ASSIGN_OR_RETURN(insert.json_value, ParseMarker());
    } else {
      return NoViableAltError();
    }
    if (Accept(TokenKind::kKDefault)) {
      if (Accept(TokenKind::kKUnset)) {
        insert.default_unset = true;
      } else if (!Accept(TokenKind::kKNull)) {
        return NoViableAltError();
      }
    }
  } else {
    return NoViableAltError();
  }
  if (Accept(TokenKind::kKIf)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKNot));
    RETURN_IF_ERROR(Expect(TokenKind::kKExists));
    insert.if_not_exists = true;
  }
  if (At(TokenKind::kKUsing)) RETURN_IF_ERROR(ParseUsingClause(&insert.using_attributes));
  return Finish(std::move(insert));
}

// usingClause: K_USING objective (K_AND objective)*
Status Parser::ParseUsingClause(UsingAttributes* attributes) {
  RETURN_IF_ERROR(Expect(TokenKind::kKUsing));
  do {
    if (Accept(TokenKind::kKTimestamp)) {
      ASSIGN_OR_RETURN(attributes->timestamp, ParseIntValue());
    } else if (Accept(TokenKind::kKTtl)) {
      ASSIGN_OR_RETURN(attributes->ttl, ParseIntValue());
    } else {
      return NoViableAltError();
    }
  } while (Accept(TokenKind::kKAnd));
  return Status::Ok();
}

// updateStatement
Result<Statement> Parser::ParseUpdate() {
  RETURN_IF_ERROR(Expect(TokenKind::kKUpdate));
  Update update;
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&update.table));
  if (At(TokenKind::kKUsing)) RETURN_IF_ERROR(ParseUsingClause(&update.using_attributes));
  RETURN_IF_ERROR(Expect(TokenKind::kKSet));
  do {
    RETURN_IF_ERROR(ParseColumnOperation(&update.operations));
  } while (Accept(TokenKind::kComma));
  RETURN_IF_ERROR(Expect(TokenKind::kKWhere));
  ASSIGN_OR_RETURN(update.where, ParseWhereClause());
  if (Accept(TokenKind::kKIf)) {
    if (At(TokenKind::kKExists) && !IsRelationType(PeekKind(2)) && PeekKind(2) != TokenKind::kKIn &&
        PeekKind(2) != TokenKind::kLBracket && PeekKind(2) != TokenKind::kDot &&
        PeekKind(2) != TokenKind::kKContains) {
      Consume();
      update.if_exists = true;
    } else {
      ASSIGN_OR_RETURN(update.conditions, ParseConditions());
    }
  }
  return Finish(std::move(update));
}

Status Parser::AddOperation(std::vector<Operation>* operations, Operation operation) {
  for (const Operation& existing : *operations) {
    if (existing.column == operation.column && !Compatible(existing, operation)) {
      return RecognitionError("Multiple incompatible setting of column " + operation.column);
    }
  }
  operations->push_back(std::move(operation));
  return Status::Ok();
}

// columnOperation: cident columnOperationDifferentiator
Status Parser::ParseColumnOperation(std::vector<Operation>* operations) {
  Operation operation;
  ASSIGN_OR_RETURN(operation.column, ParseCident());
  switch (PeekKind()) {
    case TokenKind::kEq:
      break;
    case TokenKind::kPlusEq:
    case TokenKind::kMinusEq: {
      operation.kind = At(TokenKind::kPlusEq) ? Operation::Kind::kAdd : Operation::Kind::kSubtract;
      Consume();
      ASSIGN_OR_RETURN(operation.value, ParseTerm());
      return AddOperation(operations, std::move(operation));
    }
    case TokenKind::kLBracket: {
      Consume();
      ASSIGN_OR_RETURN(Term key, ParseTerm());
      operation.key = std::move(key);
      RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
      RETURN_IF_ERROR(Expect(TokenKind::kEq));
      operation.kind = Operation::Kind::kSetElement;
      ASSIGN_OR_RETURN(operation.value, ParseTerm());
      return AddOperation(operations, std::move(operation));
    }
    case TokenKind::kDot: {
      Consume();
      ASSIGN_OR_RETURN(operation.field, ParseIdent());
      RETURN_IF_ERROR(Expect(TokenKind::kEq));
      operation.kind = Operation::Kind::kSetField;
      ASSIGN_OR_RETURN(operation.value, ParseTerm());
      return AddOperation(operations, std::move(operation));
    }
    default:
      return NoViableAltError();
  }
  Consume();  // '='
  // normalColumnOperation
  TokenKind first = PeekKind();
  bool column_first =
      (IsIdentToken(first) || first == TokenKind::kEmptyQuotedName) && !LooksLikeFunctionCall(1);
  if (column_first) {
    TokenKind second = PeekKind(2);
    if (second != TokenKind::kPlus && second != TokenKind::kMinus &&
        second != TokenKind::kInteger) {
      return NoViableAltError(2);
    }
    ASSIGN_OR_RETURN(std::string other, ParseCident());
    if (second == TokenKind::kInteger) {
      // `c = c -3` is lexed as c, INTEGER(-3): an addition of -3.
      const Token& number = Peek();
      Consume();
      std::string_view digits = Source(number);
      if (other != operation.column) {
        return RecognitionError(std::string("Only expressions of the form X = X ") +
                                (digits[0] == '-' ? '-' : '+') + " <value> are supported.");
      }
      operation.kind = Operation::Kind::kAdd;
      operation.value = Term(Constant{ConstantKind::kInteger, std::string(digits)});
      return AddOperation(operations, std::move(operation));
    }
    bool plus = second == TokenKind::kPlus;
    Consume();
    ASSIGN_OR_RETURN(operation.value, ParseTerm());
    if (other != operation.column) {
      return RecognitionError(std::string("Only expressions of the form X = X ") +
                              (plus ? "+" : "-") + "<value> are supported.");
    }
    operation.kind = plus ? Operation::Kind::kAdd : Operation::Kind::kSubtract;
    return AddOperation(operations, std::move(operation));
  }
  ASSIGN_OR_RETURN(operation.value, ParseTerm());
  if (Accept(TokenKind::kPlus)) {
    ASSIGN_OR_RETURN(std::string other, ParseCident());
    if (other != operation.column) {
      return RecognitionError("Only expressions of the form X = <value> + X are supported.");
    }
    operation.kind = Operation::Kind::kPrepend;
  }
  return AddOperation(operations, std::move(operation));
}

// updateConditions: columnCondition (K_AND columnCondition)*
Result<std::vector<Condition>> Parser::ParseConditions() {
  std::vector<Condition> conditions;
  do {
    ASSIGN_OR_RETURN(Condition condition, ParseCondition());
    conditions.push_back(std::move(condition));
  } while (Accept(TokenKind::kKAnd));
  return conditions;
}

Result<Condition> Parser::ParseCondition() {
  Condition condition;
  ASSIGN_OR_RETURN(condition.column, ParseCident());
  bool qualified = false;
  if (Accept(TokenKind::kLBracket)) {
    ASSIGN_OR_RETURN(Term element, ParseTerm());
    condition.element = std::move(element);
    RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
    qualified = true;
  } else if (Accept(TokenKind::kDot)) {
    ASSIGN_OR_RETURN(condition.field, ParseIdent());
    qualified = true;
  }
  if (IsRelationType(PeekKind())) {
    ASSIGN_OR_RETURN(condition.op, ParseRelationType());
    ASSIGN_OR_RETURN(condition.value, ParseTerm());
  } else if (Accept(TokenKind::kKIn)) {
    condition.op = Operator::kIn;
    RETURN_IF_ERROR(ParseInValues(/*multi_column=*/false, &condition.value, &condition.in_list,
                                  &condition.in_values));
  } else if (!qualified && Accept(TokenKind::kKContains)) {
    condition.op = Accept(TokenKind::kKKey) ? Operator::kContainsKey : Operator::kContains;
    ASSIGN_OR_RETURN(condition.value, ParseTerm());
  } else {
    return NoViableAltError();
  }
  return condition;
}

// deleteStatement
Result<Statement> Parser::ParseDelete() {
  RETURN_IF_ERROR(Expect(TokenKind::kKDelete));
  Delete del;
  if (!At(TokenKind::kKFrom)) {
    do {
      Deletion deletion;
      ASSIGN_OR_RETURN(deletion.column, ParseCident());
      if (Accept(TokenKind::kLBracket)) {
        ASSIGN_OR_RETURN(Term element, ParseTerm());
        deletion.element = std::move(element);
        RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
      } else if (Accept(TokenKind::kDot)) {
        ASSIGN_OR_RETURN(deletion.field, ParseIdent());
      }
      del.deletions.push_back(std::move(deletion));
    } while (Accept(TokenKind::kComma));
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKFrom));
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&del.table));
  if (Accept(TokenKind::kKUsing)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKTimestamp));
    ASSIGN_OR_RETURN(Term timestamp, ParseIntValue());
    del.timestamp = std::move(timestamp);
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKWhere));
  ASSIGN_OR_RETURN(del.where, ParseWhereClause());
  if (Accept(TokenKind::kKIf)) {
    if (At(TokenKind::kKExists) && !IsRelationType(PeekKind(2)) && PeekKind(2) != TokenKind::kKIn &&
        PeekKind(2) != TokenKind::kLBracket && PeekKind(2) != TokenKind::kDot &&
        PeekKind(2) != TokenKind::kKContains) {
      Consume();
      del.if_exists = true;
    } else {
      ASSIGN_OR_RETURN(del.conditions, ParseConditions());
    }
  }
  return Finish(std::move(del));
}

// batchStatement
Result<Statement> Parser::ParseBatch() {
  RETURN_IF_ERROR(Expect(TokenKind::kKBegin));
  Batch batch;
  if (Accept(TokenKind::kKUnlogged)) {
    batch.type = Batch::Type::kUnlogged;
  } else if (Accept(TokenKind::kKCounter)) {
    batch.type = Batch::Type::kCounter;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKBatch));
  if (At(TokenKind::kKUsing)) RETURN_IF_ERROR(ParseUsingClause(&batch.using_attributes));
  bool saved_in_batch = in_batch_;
  in_batch_ = true;
  while (true) {
    TokenKind kind = PeekKind();
    Result<Statement> child = Status::Internal("no statement");
    if (kind == TokenKind::kKInsert) {
      child = ParseInsert();
    } else if (kind == TokenKind::kKUpdate) {
      child = ParseUpdate();
    } else if (kind == TokenKind::kKDelete) {
      child = ParseDelete();
    } else {
      break;
    }
    if (!child.ok()) {
      in_batch_ = saved_in_batch;
      return child.status();
    }
    Statement statement = std::move(child).value();
    if (auto* insert = std::get_if<Insert>(&statement)) {
      batch.statements.emplace_back(std::move(*insert));
    } else if (auto* update = std::get_if<Update>(&statement)) {
      batch.statements.emplace_back(std::move(*update));
    } else if (auto* del = std::get_if<Delete>(&statement)) {
      batch.statements.emplace_back(std::move(*del));
    }
    Accept(TokenKind::kSemicolon);
  }
  in_batch_ = saved_in_batch;
  RETURN_IF_ERROR(Expect(TokenKind::kKApply));
  RETURN_IF_ERROR(Expect(TokenKind::kKBatch));
  return Finish(std::move(batch));
}

}  // namespace cql::internal
