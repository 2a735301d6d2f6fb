// USE, TRUNCATE and the schema statements for keyspaces, tables, types, indexes and
// materialized views; WITH properties.

#include <limits>
#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {
namespace {

std::string NameForMessage(const QualifiedName& name) {
  return name.keyspace.empty() ? name.name : name.keyspace + "." + name.name;
}

}  // namespace

Status Parser::ParseIfNotExists(bool* flag) {
  if (!Accept(TokenKind::kKIf)) return Status::Ok();
  RETURN_IF_ERROR(Expect(TokenKind::kKNot));
  RETURN_IF_ERROR(Expect(TokenKind::kKExists));
  *flag = true;
  return Status::Ok();
}

Status Parser::ParseIfExists(bool* flag) {
  if (!Accept(TokenKind::kKIf)) return Status::Ok();
  RETURN_IF_ERROR(Expect(TokenKind::kKExists));
  *flag = true;
  return Status::Ok();
}

bool Parser::AcceptKeyspaceKeyword() {
  return Accept(TokenKind::kKKeyspace) || Accept(TokenKind::kKSchema);
}

Result<Statement> Parser::ParseUse() {
  RETURN_IF_ERROR(Expect(TokenKind::kKUse));
  Use use;
  ASSIGN_OR_RETURN(use.keyspace, ParseKeyspaceName());
  return Finish(std::move(use));
}

Result<Statement> Parser::ParseTruncate() {
  RETURN_IF_ERROR(Expect(TokenKind::kKTruncate));
  Accept(TokenKind::kKColumnfamily);
  Truncate truncate;
  ASSIGN_OR_RETURN(truncate.table, ParseColumnFamilyName());
  return Finish(std::move(truncate));
}

// fullMapLiteral as a property value: keys and values must be constants
// (Cassandra's convertPropertyMap).
Result<std::vector<std::pair<Constant, Constant>>> Parser::ParsePropertyMap() {
  RETURN_IF_ERROR(Expect(TokenKind::kLBrace));
  std::vector<Term> keys;
  std::vector<Term> values;
  if (!At(TokenKind::kRBrace)) {
    while (true) {
      ASSIGN_OR_RETURN(Term key, ParseTerm());
      RETURN_IF_ERROR(Expect(TokenKind::kColon));
      ASSIGN_OR_RETURN(Term value, ParseTerm());
      keys.push_back(std::move(key));
      values.push_back(std::move(value));
      if (!Accept(TokenKind::kComma)) break;
    }
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRBrace));
  std::vector<std::pair<Constant, Constant>> entries;
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto* key = std::get_if<Constant>(&keys[i].value);
    if (key == nullptr) {
      std::string message = "Invalid property name: " + keys[i].ToCql();
      if (std::holds_alternative<BindMarker>(keys[i].value)) {
        message += " (bind variables are not supported in DDL queries)";
      }
      return RecognitionError(std::move(message));
    }
    const auto* value = std::get_if<Constant>(&values[i].value);
    if (value == nullptr) {
      std::string message =
          "Invalid property value: " + values[i].ToCql() + " for property: " + keys[i].ToCql();
      if (std::holds_alternative<BindMarker>(values[i].value)) {
        message += " (bind variables are not supported in DDL queries)";
      }
      return RecognitionError(std::move(message));
    }
    for (const auto& entry : entries) {
      if (entry.first.text == key->text) {
        return RecognitionError("Multiple definition for property " + key->text);
      }
    }
    entries.emplace_back(*key, *value);
  }
  return entries;
}

// property: noncol_ident '=' (propertyValue | fullMapLiteral)
Status Parser::ParseProperty(std::vector<Property>* properties) {
  // Both alternatives start with `noncol_ident '='`: ANTLR decides on LT(3), so a wrong
  // token there is "no viable alternative", reported before anything is consumed.
  if (!IsIdentToken(PeekKind())) return NoViableAltError();
  if (PeekKind(2) != TokenKind::kEq) return NoViableAltError(2);
  TokenKind value_kind = PeekKind(3);
  if (value_kind != TokenKind::kLBrace && !IsConstantToken(value_kind) &&
      !IsUnreservedKeyword(value_kind)) {
    return NoViableAltError(3);
  }
  // Built in place (callers drop the whole statement on error, this property included).
  Property& property = properties->emplace_back();
  RETURN_IF_ERROR(ParseIdentInto(&property.name));
  RETURN_IF_ERROR(Expect(TokenKind::kEq));
  const Token& value = Peek();
  if (value.kind == TokenKind::kLBrace) {
    property.value.kind = PropertyValue::Kind::kMap;
    ASSIGN_OR_RETURN(property.value.entries, ParsePropertyMap());
  } else if (IsConstantToken(value.kind)) {
    property.value.kind = PropertyValue::Kind::kConstant;
    ConstantInto(value, &property.value.constant);
    Consume();
  } else if (IsUnreservedKeyword(value.kind)) {
    property.value.kind = PropertyValue::Kind::kKeyword;
    property.value.constant.kind = ConstantKind::kString;
    AsciiLowerInto(Source(value), &property.value.constant.text);
    Consume();
  } else {
    return NoViableAltError();
  }
  for (size_t i = 0; i + 1 < properties->size(); ++i) {
    if ((*properties)[i].name == property.name) {
      return RecognitionError("Multiple definition for property '" + property.name + "'");
    }
  }
  return Status::Ok();
}

Status Parser::ParseProperties(std::vector<Property>* properties) {
  do {
    RETURN_IF_ERROR(ParseProperty(properties));
  } while (Accept(TokenKind::kKAnd));
  return Status::Ok();
}

Result<Statement> Parser::ParseCreateKeyspace() {
  Consume();  // CREATE
  AcceptKeyspaceKeyword();
  CreateKeyspace create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.keyspace, ParseKeyspaceName());
  RETURN_IF_ERROR(Expect(TokenKind::kKWith));
  RETURN_IF_ERROR(ParseProperties(&create.properties));
  return Finish(std::move(create));
}

Result<Statement> Parser::ParseAlterKeyspace() {
  Consume();  // ALTER
  AcceptKeyspaceKeyword();
  AlterKeyspace alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.keyspace, ParseKeyspaceName());
  RETURN_IF_ERROR(Expect(TokenKind::kKWith));
  RETURN_IF_ERROR(ParseProperties(&alter.properties));
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropKeyspace() {
  Consume();  // DROP
  AcceptKeyspaceKeyword();
  DropKeyspace drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.keyspace, ParseKeyspaceName());
  return Finish(std::move(drop));
}

// createTableStatement / tableDefinition
Result<Statement> Parser::ParseCreateTable() {
  Consume();  // CREATE
  Consume();  // TABLE | COLUMNFAMILY
  CreateTable create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  RETURN_IF_ERROR(ParseColumnFamilyNameInto(&create.table));
  bool primary_key_set = false;
  auto set_partition_key = [&](std::vector<std::string> columns) -> Status {
    if (primary_key_set) {
      return ThrownError(Status::Invalid("Multiple PRIMARY KEY specified for table '" +
                                         NameForMessage(create.table) +
                                         "' (exactly one required)"));
    }
    primary_key_set = true;
    create.partition_key = std::move(columns);
    return Status::Ok();
  };
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  create.columns.reserve(8);
  bool first = true;
  while (true) {
    // '(' tableColumns (',' tableColumns?)* ')'
    if (!first && (At(TokenKind::kComma) || At(TokenKind::kRParen))) {
      // an empty tableColumns after a ','
    } else if (Accept(TokenKind::kKPrimary)) {
      RETURN_IF_ERROR(Expect(TokenKind::kKKey));
      RETURN_IF_ERROR(Expect(TokenKind::kLParen));
      std::vector<std::string> partition_key;
      if (Accept(TokenKind::kLParen)) {
        do {
          ASSIGN_OR_RETURN(std::string column, ParseIdent());
          partition_key.push_back(std::move(column));
        } while (Accept(TokenKind::kComma));
        RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      } else {
        ASSIGN_OR_RETURN(std::string column, ParseIdent());
        partition_key.push_back(std::move(column));
      }
      RETURN_IF_ERROR(set_partition_key(std::move(partition_key)));
      while (Accept(TokenKind::kComma)) {
        ASSIGN_OR_RETURN(std::string column, ParseIdent());
        create.clustering_columns.push_back(std::move(column));
      }
      RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    } else {
      // The parts first, then the column: a default-constructed CqlType costs a lookup.
      std::string name;
      RETURN_IF_ERROR(ParseIdentInto(&name));
      ASSIGN_OR_RETURN(CqlType type, ParseComparatorType());
      bool is_static = Accept(TokenKind::kKStatic);
      for (const ColumnDefinition& existing : create.columns) {
        if (existing.name == name) {
          return ThrownError(Status::Invalid("Duplicate column '" + name +
                                             "' declaration for table '" +
                                             NameForMessage(create.table) + "'"));
        }
      }
      const ColumnDefinition& column = create.columns.emplace_back(
          ColumnDefinition{std::move(name), std::move(type), is_static});
      if (Accept(TokenKind::kKPrimary)) {
        RETURN_IF_ERROR(Expect(TokenKind::kKKey));
        RETURN_IF_ERROR(set_partition_key({column.name}));
      }
    }
    first = false;
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (Accept(TokenKind::kKWith)) {
    do {
      if (At(TokenKind::kKCompact) && PeekKind(2) == TokenKind::kKStorage) {
        Consume();
        Consume();
        create.compact_storage = true;
      } else if (At(TokenKind::kKClustering) && PeekKind(2) == TokenKind::kKOrder) {
        Consume();
        Consume();
        RETURN_IF_ERROR(ParseClusteringOrder("table", create.table, &create.clustering_order));
      } else {
        RETURN_IF_ERROR(ParseProperty(&create.properties));
      }
    } while (Accept(TokenKind::kKAnd));
  }
  return Finish(std::move(create));
}

// `BY '(' ident (ASC | DESC) (',' ident (ASC | DESC))* ')'` after CLUSTERING ORDER, for a
// table or a view (`kind`, named in the duplicate-column error as Cassandra names it).
Status Parser::ParseClusteringOrder(std::string_view kind, const QualifiedName& name,
                                    std::vector<ClusteringOrder>* orders) {
  RETURN_IF_ERROR(Expect(TokenKind::kKBy));
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  do {
    ClusteringOrder order;
    ASSIGN_OR_RETURN(order.column, ParseIdent());
    if (Accept(TokenKind::kKDesc)) {
      order.ascending = false;
    } else if (!Accept(TokenKind::kKAsc)) {
      return NoViableAltError();
    }
    for (const ClusteringOrder& existing : *orders) {
      if (existing.column == order.column) {
        return ThrownError(Status::Invalid("Duplicate column '" + order.column +
                                           "' in CLUSTERING ORDER BY clause for " +
                                           std::string(kind) + " '" + NameForMessage(name) + "'"));
      }
    }
    orders->push_back(std::move(order));
  } while (Accept(TokenKind::kComma));
  return Expect(TokenKind::kRParen);
}

// alterTableStatement
Result<Statement> Parser::ParseAlterTable() {
  Consume();  // ALTER
  Consume();  // TABLE | COLUMNFAMILY
  AlterTable alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.table, ParseColumnFamilyName());
  switch (PeekKind()) {
    case TokenKind::kKAlter: {
      Consume();
      alter.kind = AlterTable::Kind::kAlterColumnType;
      ASSIGN_OR_RETURN(alter.column, ParseCident());
      RETURN_IF_ERROR(Expect(TokenKind::kKType));
      ASSIGN_OR_RETURN(alter.type, ParseComparatorType());
      break;
    }
    case TokenKind::kKAdd: {
      Consume();
      alter.kind = AlterTable::Kind::kAddColumns;
      RETURN_IF_ERROR(ParseIfNotExists(&alter.if_column_not_exists));
      bool parenthesized = Accept(TokenKind::kLParen);
      do {
        ColumnDefinition column;
        ASSIGN_OR_RETURN(column.name, ParseIdent());
        ASSIGN_OR_RETURN(column.type, ParseComparatorType());
        column.is_static = Accept(TokenKind::kKStatic);
        alter.added_columns.push_back(std::move(column));
      } while (parenthesized && Accept(TokenKind::kComma));
      if (parenthesized) RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      break;
    }
    case TokenKind::kKDrop: {
      if (PeekKind(2) == TokenKind::kKCompact && PeekKind(3) == TokenKind::kKStorage) {
        Consume();
        Consume();
        Consume();
        alter.kind = AlterTable::Kind::kDropCompactStorage;
        break;
      }
      Consume();
      alter.kind = AlterTable::Kind::kDropColumns;
      RETURN_IF_ERROR(ParseIfExists(&alter.if_column_exists));
      bool parenthesized = Accept(TokenKind::kLParen);
      do {
        ASSIGN_OR_RETURN(std::string column, ParseIdent());
        alter.dropped_columns.push_back(std::move(column));
      } while (parenthesized && Accept(TokenKind::kComma));
      if (parenthesized) RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      if (Accept(TokenKind::kKUsing)) {
        RETURN_IF_ERROR(Expect(TokenKind::kKTimestamp));
        const Token& number = Peek();
        RETURN_IF_ERROR(Expect(TokenKind::kInteger));
        std::string_view digits = Source(number);
        bool negative = digits[0] == '-';
        uint64_t magnitude = 0;
        bool overflow = false;
        for (char c : digits.substr(negative ? 1 : 0)) {
          if (magnitude > (std::numeric_limits<uint64_t>::max() - 9) / 10) overflow = true;
          magnitude = magnitude * 10 + static_cast<uint64_t>(c - '0');
        }
        uint64_t limit =
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
        if (overflow || magnitude > limit) {
          return ThrownError(Status::SyntaxError(
              "Failed parsing statement: [" + std::string(text_) +
              "] reason: NumberFormatException For input string: \"" + std::string(digits) + "\""));
        }
        alter.drop_timestamp =
            negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
      }
      break;
    }
    case TokenKind::kKRename: {
      Consume();
      alter.kind = AlterTable::Kind::kRenameColumns;
      RETURN_IF_ERROR(ParseIfExists(&alter.if_column_exists));
      do {
        ASSIGN_OR_RETURN(std::string from, ParseIdent());
        RETURN_IF_ERROR(Expect(TokenKind::kKTo));
        ASSIGN_OR_RETURN(std::string to, ParseIdent());
        alter.renames.emplace_back(std::move(from), std::move(to));
      } while (Accept(TokenKind::kKAnd));
      break;
    }
    case TokenKind::kKWith:
      Consume();
      alter.kind = AlterTable::Kind::kWithOptions;
      RETURN_IF_ERROR(ParseProperties(&alter.properties));
      break;
    default:
      return NoViableAltError();
  }
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropTable() {
  Consume();  // DROP
  Consume();  // TABLE | COLUMNFAMILY
  DropTable drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.table, ParseColumnFamilyName());
  return Finish(std::move(drop));
}

// createTypeStatement
Result<Statement> Parser::ParseCreateType() {
  Consume();  // CREATE
  Consume();  // TYPE
  CreateType create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.type, ParseUserTypeName());
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  bool first = true;
  while (true) {
    if (first || !(At(TokenKind::kComma) || At(TokenKind::kRParen))) {
      UserTypeField field;
      ASSIGN_OR_RETURN(field.name, ParseIdent());
      ASSIGN_OR_RETURN(field.type, ParseComparatorType());
      create.fields.push_back(std::move(field));
    }
    first = false;
    if (!Accept(TokenKind::kComma)) break;
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return Finish(std::move(create));
}

// alterTypeStatement
Result<Statement> Parser::ParseAlterType() {
  Consume();  // ALTER
  Consume();  // TYPE
  AlterType alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.type, ParseUserTypeName());
  if (Accept(TokenKind::kKAlter)) {
    alter.kind = AlterType::Kind::kAlterFieldType;
    ASSIGN_OR_RETURN(alter.field, ParseIdent());
    RETURN_IF_ERROR(Expect(TokenKind::kKType));
    ASSIGN_OR_RETURN(alter.field_type, ParseComparatorType());
  } else if (Accept(TokenKind::kKAdd)) {
    alter.kind = AlterType::Kind::kAddField;
    RETURN_IF_ERROR(ParseIfNotExists(&alter.if_field_not_exists));
    ASSIGN_OR_RETURN(alter.field, ParseIdent());
    ASSIGN_OR_RETURN(alter.field_type, ParseComparatorType());
  } else if (Accept(TokenKind::kKRename)) {
    alter.kind = AlterType::Kind::kRenameFields;
    RETURN_IF_ERROR(ParseIfExists(&alter.if_field_exists));
    do {
      ASSIGN_OR_RETURN(std::string from, ParseIdent());
      RETURN_IF_ERROR(Expect(TokenKind::kKTo));
      ASSIGN_OR_RETURN(std::string to, ParseIdent());
      alter.renames.emplace_back(std::move(from), std::move(to));
    } while (Accept(TokenKind::kKAnd));
  } else {
    return NoViableAltError();
  }
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropType() {
  Consume();  // DROP
  Consume();  // TYPE
  DropType drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.type, ParseUserTypeName());
  return Finish(std::move(drop));
}

// createIndexStatement
Result<Statement> Parser::ParseCreateIndex() {
  Consume();  // CREATE
  CreateIndex create;
  create.custom = Accept(TokenKind::kKCustom);
  RETURN_IF_ERROR(Expect(TokenKind::kKIndex));
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  if (!At(TokenKind::kKOn)) {
    ASSIGN_OR_RETURN(create.name, ParseIdxName());
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKOn));
  ASSIGN_OR_RETURN(create.table, ParseColumnFamilyName());
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (!At(TokenKind::kRParen)) {
    do {
      IndexTarget target;
      TokenKind kind = PeekKind();
      bool wrapped = PeekKind(2) == TokenKind::kLParen &&
                     (kind == TokenKind::kKValues || kind == TokenKind::kKKeys ||
                      kind == TokenKind::kKEntries || kind == TokenKind::kKFull);
      if (wrapped) {
        target.kind = kind == TokenKind::kKValues ? IndexTarget::Kind::kValues
                      : kind == TokenKind::kKKeys ? IndexTarget::Kind::kKeys
                      : kind == TokenKind::kKFull ? IndexTarget::Kind::kFull
                                                  : IndexTarget::Kind::kEntries;
        Consume();
        Consume();
        ASSIGN_OR_RETURN(target.column, ParseCident());
        RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      } else {
        ASSIGN_OR_RETURN(target.column, ParseCident());
      }
      create.targets.push_back(std::move(target));
    } while (Accept(TokenKind::kComma));
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (Accept(TokenKind::kKUsing)) {
    ASSIGN_OR_RETURN(std::string class_name, ParseStringLiteral());
    create.using_class = std::move(class_name);
  }
  if (Accept(TokenKind::kKWith)) RETURN_IF_ERROR(ParseProperties(&create.properties));
  return Finish(std::move(create));
}

Result<Statement> Parser::ParseDropIndex() {
  Consume();  // DROP
  Consume();  // INDEX
  DropIndex drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.index, ParseIndexName());
  return Finish(std::move(drop));
}

// createMaterializedViewStatement
Result<Statement> Parser::ParseCreateView() {
  Consume();  // CREATE
  Consume();  // MATERIALIZED
  RETURN_IF_ERROR(Expect(TokenKind::kKView));
  CreateMaterializedView create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.view, ParseColumnFamilyName());
  RETURN_IF_ERROR(Expect(TokenKind::kKAs));
  RETURN_IF_ERROR(Expect(TokenKind::kKSelect));
  ASSIGN_OR_RETURN(create.selectors, ParseSelectors());
  RETURN_IF_ERROR(Expect(TokenKind::kKFrom));
  ASSIGN_OR_RETURN(create.base_table, ParseColumnFamilyName());
  if (Accept(TokenKind::kKWhere)) {
    ASSIGN_OR_RETURN(create.where, ParseWhereClause());
  }
  RETURN_IF_ERROR(Expect(TokenKind::kKPrimary));
  RETURN_IF_ERROR(Expect(TokenKind::kKKey));
  RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (Accept(TokenKind::kLParen)) {
    do {
      ASSIGN_OR_RETURN(std::string column, ParseIdent());
      create.partition_key.push_back(std::move(column));
    } while (Accept(TokenKind::kComma));
    RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  } else {
    ASSIGN_OR_RETURN(std::string column, ParseIdent());
    create.partition_key.push_back(std::move(column));
  }
  while (Accept(TokenKind::kComma)) {
    ASSIGN_OR_RETURN(std::string column, ParseIdent());
    create.clustering_columns.push_back(std::move(column));
  }
  RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (Accept(TokenKind::kKWith)) {
    do {
      if (At(TokenKind::kKCompact) && PeekKind(2) == TokenKind::kKStorage) {
        return ThrownError(Status::SyntaxError(
            "COMPACT STORAGE tables are not allowed starting with version 4.0"));
      }
      if (At(TokenKind::kKClustering) && PeekKind(2) == TokenKind::kKOrder) {
        Consume();
        Consume();
        RETURN_IF_ERROR(ParseClusteringOrder("view", create.view, &create.clustering_order));
      } else {
        RETURN_IF_ERROR(ParseProperty(&create.properties));
      }
    } while (Accept(TokenKind::kKAnd));
  }
  return Finish(std::move(create));
}

Result<Statement> Parser::ParseAlterView() {
  Consume();  // ALTER
  Consume();  // MATERIALIZED
  RETURN_IF_ERROR(Expect(TokenKind::kKView));
  AlterMaterializedView alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.view, ParseColumnFamilyName());
  RETURN_IF_ERROR(Expect(TokenKind::kKWith));
  RETURN_IF_ERROR(ParseProperties(&alter.properties));
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropView() {
  Consume();  // DROP
  Consume();  // MATERIALIZED
  RETURN_IF_ERROR(Expect(TokenKind::kKView));
  DropMaterializedView drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.view, ParseColumnFamilyName());
  return Finish(std::move(drop));
}

}  // namespace cql::internal
