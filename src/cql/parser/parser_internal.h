// Parser: the recursive descent parser behind `parser.h`. Internal to the cql layer: other
// code calls `ParseStatement` and friends.
//
// One Parser object parses one text. Its methods mirror the rules of Cassandra's Parser.g
// (names in comments) and are spread over parser.cc (tokens, identifiers, types, entry
// points), parser_term.cc (terms), parser_select.cc (SELECT, selectors, WHERE), parser_dml.cc
// (INSERT, UPDATE, DELETE, BATCH), parser_ddl.cc (keyspaces, tables, types, indexes, views, USE,
// TRUNCATE), parser_function.cc (functions, aggregates, triggers, DESCRIBE) and
// parser_auth.cc (roles, users, permissions). Error formatting is in parser_errors.cc.
//
// Invariants:
//  1. `tokens_` ends with a kEof token, at index `last_`; `pos_` <= `last_` always.
//  2. `max_fetched_` >= `pos_` is the furthest token the parser has looked at: ANTLR's
//     token buffer, which decides whether a lexical error was reported before a parser
//     error and how far the error snippet reaches.
//  3. Every method that fails returns the final error (the first error wins); callers only
//     propagate it.
//
// Thread-safety: not thread-safe; one object per parse.

#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "common/result.h"
#include "cql/parser/lexer.h"
#include "cql/parser/statement.h"

namespace cql::internal {

using common::Result;
using common::Status;

// The system function Cassandra rewrites a multiplicative operator into (`a * b` is
// `system._multiply(a, b)`), or nullptr when `kind` is not `*`, `/` or `%`.
inline const char* MultiplicativeFunction(TokenKind kind) {
  switch (kind) {
    case TokenKind::kStar:
      return "_multiply";
    case TokenKind::kSlash:
      return "_divide";
    case TokenKind::kPercent:
      return "_modulo";
    default:
      return nullptr;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  // Entry points; each consumes the whole text.
  Result<Statement> ParseSingleStatement();
  Result<std::vector<Statement>> ParseStatements();
  Result<Term> ParseSingleTerm();
  Result<CqlType> ParseSingleType();

  static constexpr int kMaxNesting = 256;
  // Stack the recursive descent may use below the entry point before it stops with the
  // nesting error: deep inputs fail cleanly instead of overflowing a thread's stack.
#if defined(__SANITIZE_ADDRESS__)
  static constexpr size_t kMaxStackBytes = 2 << 20;  // ASan frames are several times larger
#else
  static constexpr size_t kMaxStackBytes = 512 << 10;
#endif

 private:
  friend class NestingScope;

  // ---- Tokens (parser.cc) ----
  Status Tokenize();
  const Token& Peek(size_t k = 1) {    // ANTLR's LT(k), k >= 1
    if (k == 1) return tokens_[pos_];  // already fetched: max_fetched_ >= pos_ (invariant 2)
    size_t i = pos_ + k - 1;
    if (i > last_) i = last_;
    if (i > max_fetched_) max_fetched_ = i;
    return tokens_[i];
  }
  TokenKind PeekKind(size_t k = 1) { return Peek(k).kind; }
  bool At(TokenKind kind) { return PeekKind() == kind; }
  void Consume() {
    if (pos_ < last_) ++pos_;
    if (pos_ > max_fetched_) max_fetched_ = pos_;
  }
  // Consumes the next token if it is `kind`.
  bool Accept(TokenKind kind) {
    if (PeekKind() != kind) return false;
    Consume();
    return true;
  }
  // Consumes the next token, which must be `kind` ("mismatched input ... expecting ...").
  Status Expect(TokenKind kind) {
    if (PeekKind() != kind) return MismatchError(kind);
    Consume();
    return Status::Ok();
  }
  std::string_view Source(const Token& token) const {
    return text_.substr(token.offset, token.length);
  }
  std::string Text(const Token& token) const { return TokenText(text_, token); }
  void TextInto(const Token& token, std::string* text) const {
    AssignTokenText(text_, token, text);
  }

  // ---- Errors (parser_errors.cc) ----
  // "mismatched input 'x' expecting K" at LT(1).
  Status MismatchError(TokenKind expected);
  // "no viable alternative at input 'x'" at LT(k); the snippet highlights LT(1).
  Status NoViableAltError(size_t k = 1);
  // "mismatched input 'x' expecting set null" at LT(1).
  Status MismatchSetError();
  // An error Cassandra adds from a grammar action (`addRecognitionError`): SyntaxError with
  // the bare message.
  Status RecognitionError(std::string message);
  // An exception thrown from a grammar action: reported as is, ahead of collected errors.
  Status ThrownError(Status status) { return status; }
  // Applies "a lexical error already seen wins" to a parser error.
  Status Collected(Status parser_error);
  Status LexerErrorStatus() const;
  std::string Header(const Token& token) const;
  std::string Snippet() const;
  static std::string TokenDisplay(std::string_view text, const Token& token);

  // Nesting guard: enters one more level, or returns false past kMaxNesting levels (or past
  // kMaxStackBytes of stack); NestingError() is then the error to report. A bool rather than
  // a Status keeps the check cheap: it runs at every level of every expression.
  bool TryEnterNesting();
  Status NestingError();
  // The error for a type nested deeper than kMaxTypeDepth (cql/types/type_depth.h) at the next
  // token.
  Status TypeDepthError();

  // ---- Identifiers (parser.cc) ----
  bool IsIdentToken(TokenKind kind) const {  // IDENT | QUOTED_NAME | unreserved_keyword
    return kind == TokenKind::kIdent || kind == TokenKind::kQuotedName || IsUnreservedKeyword(kind);
  }
  bool IsFunctionNameToken(TokenKind kind) const;    // allowedFunctionName
  std::string IdentValue(const Token& token) const;  // case folding
  void IdentValueInto(const Token& token, std::string* value) const;
  // The `...Into` forms of the rules on hot paths write the result straight into its final
  // place (a vector slot, a statement member); their `Result` forms move it once more per
  // level. After an error the destination holds an unspecified value.
  Status ParseIdentInto(std::string* name);  // ident / noncol_ident / fident
  Result<std::string> ParseIdent();
  Status ParseCidentInto(std::string* name);  // cident: also ""
  Result<std::string> ParseCident();
  Result<std::string> ParseKeyspaceName();                // keyspaceName
  Status ParseColumnFamilyNameInto(QualifiedName* name);  // columnFamilyName
  Result<QualifiedName> ParseColumnFamilyName();
  Result<QualifiedName> ParseIndexName();             // indexName
  Result<std::string> ParseIdxName();                 // idxName
  Status ParseUserTypeNameInto(QualifiedName* name);  // userTypeName
  Result<QualifiedName> ParseUserTypeName();
  Status ParseNonTypeIdentInto(std::string* name);  // non_type_ident
  Result<QualifiedName> ParseFunctionName();        // functionName
  Result<std::string> ParseAllowedFunctionName();   // allowedFunctionName
  Result<std::string> ParseRoleName();              // userOrRoleName
  Result<std::string> ParseStringLiteral();         // STRING_LITERAL
  // Whether LT(k) LT(k+1)... starts a (ks.)?function call: name '(' or name '.' name '('.
  bool LooksLikeFunctionCall(size_t k);

  // ---- Types (parser.cc) ----
  Result<CqlType> ParseComparatorType();  // comparatorType
  bool StartsType(size_t k);              // can LT(k) start a comparatorType?

  // ---- Terms (parser_term.cc) ----
  Result<Term> ParseTerm();          // term: arithmetic over termGroup
  Status ParseTermInto(Term* term);  // the same, built in place (see ParseIdentInto)
  // Whether LT(1) is a constant or `?` that is a whole term (no arithmetic operator follows):
  // the fast path of ParseTerm.
  bool AtLoneValue();
  Result<Term> ParseTermMultiplication();
  Result<Term> ParseTermGroup();
  Result<Term> ParseSimpleTerm();
  bool StartsSimpleTerm(size_t k);  // can LT(k) start a simpleTerm?
  Result<Constant> ParseConstant();
  Result<Term> ParseConstantTerm();
  // Sets `*constant` to the constant `token` denotes. REQUIRES: IsConstantToken(token.kind).
  void ConstantInto(const Token& token, Constant* constant) const;
  bool IsConstantToken(TokenKind kind) const;
  // Records a new bind marker named `name` ("" for `?`) and returns its index.
  int AddBindMarker(std::string_view name);
  Term NewMarker(std::string name);
  Result<Term> ParseMarker();    // ':' noncol_ident | '?'
  Result<Term> ParseIntValue();  // INTEGER | marker
  Result<Term> ParseCollectionOrUdtLiteral();
  Result<Term> ParseListLiteral();
  Result<Term> ParseTupleOrTypeHint();
  [[gnu::noinline]] Result<Term> ParseTypeHint();
  [[gnu::noinline]] Result<Term> ParseNegation();
  [[gnu::noinline]] Result<Term> ParseCastTerm();
  [[gnu::noinline]] Result<Selectable> ParseSelectionParenthesized();  // hint or tuple
  [[gnu::noinline]] Result<Selectable> ParseSelectionMapOrSet();
  [[gnu::noinline]] Result<Selectable> ParseSelectionSpecialFunction();  // count(*), ttl...
  Result<Term> ParseFunctionCall();
  Result<std::vector<Term>> ParseTermList(TokenKind open, TokenKind close);  // (t, ...)

  // ---- Statements ----
  Result<Statement> ParseCqlStatement();  // cqlStatement (parser.cc)
  // parser_select.cc
  Result<Statement> ParseSelect();
  Result<std::vector<Selector>> ParseSelectors();
  Result<Selector> ParseSelector();
  Result<Selectable> ParseUnaliasedSelector();  // selectionAddition
  Result<Selectable> ParseSelectionMultiplication();
  Result<Selectable> ParseSelectionGroup();
  Result<Selectable> ParseSelectorModifiers(Selectable receiver);
  Result<Selectable> ParseSelectionGroupWithoutField();
  Result<Selectable> ParseSimpleUnaliasedSelector();
  Result<std::vector<Selectable>> ParseSelectorList(TokenKind close);
  bool StartsSelector(size_t k);
  Result<std::vector<Relation>> ParseWhereClause();
  Status ParseRelation(std::vector<Relation>* relations);
  Status ParseColumnRelation(Relation* relation);  // cident-first relations
  Result<std::vector<std::string>> ParseTupleOfIdentifiers();
  Status ParseInValues(bool multi_column, Term* marker, bool* in_list, std::vector<Term>* list);
  Result<Operator> ParseRelationType();  // relationType
  bool IsRelationType(TokenKind kind) const;
  // parser_dml.cc
  Result<Statement> ParseInsert();
  Result<Statement> ParseUpdate();
  Result<Statement> ParseDelete();
  Result<Statement> ParseBatch();
  Status ParseUsingClause(UsingAttributes* attributes);
  Status ParseColumnOperation(std::vector<Operation>* operations);
  Status AddOperation(std::vector<Operation>* operations, Operation operation);
  Result<std::vector<Condition>> ParseConditions();
  Result<Condition> ParseCondition();
  // parser_ddl.cc
  Result<Statement> ParseUse();
  Result<Statement> ParseTruncate();
  Result<Statement> ParseCreateKeyspace();
  Result<Statement> ParseAlterKeyspace();
  Result<Statement> ParseDropKeyspace();
  Result<Statement> ParseCreateTable();
  Result<Statement> ParseAlterTable();
  Status ParseClusteringOrder(std::string_view kind, const QualifiedName& name,
                              std::vector<ClusteringOrder>* orders);
  Result<Statement> ParseDropTable();
  Result<Statement> ParseCreateType();
  Result<Statement> ParseAlterType();
  Result<Statement> ParseDropType();
  Result<Statement> ParseCreateIndex();
  Result<Statement> ParseDropIndex();
  Result<Statement> ParseCreateView();
  Result<Statement> ParseAlterView();
  Result<Statement> ParseDropView();
  Status ParseProperties(std::vector<Property>* properties);              // properties
  Status ParseProperty(std::vector<Property>* properties);                // property
  Result<std::vector<std::pair<Constant, Constant>>> ParsePropertyMap();  // fullMapLiteral
  Status ParseIfNotExists(bool* flag);                                    // (K_IF K_NOT K_EXISTS)?
  Status ParseIfExists(bool* flag);                                       // (K_IF K_EXISTS)?
  bool AcceptKeyspaceKeyword();  // K_KEYSPACE, or `schema` (Cassandra's alias)
  // parser_function.cc
  Result<Statement> ParseCreateFunction();
  Result<Statement> ParseDropFunction();
  Result<Statement> ParseCreateAggregate();
  Result<Statement> ParseDropAggregate();
  Result<Statement> ParseCreateTrigger();
  Result<Statement> ParseDropTrigger();
  Result<Statement> ParseDescribe();
  Result<std::vector<CqlType>> ParseTypeList();  // '(' (type (',' type)*)? ')'
  // parser_auth.cc
  Result<Statement> ParseCreateRole();
  Result<Statement> ParseAlterRole();
  Result<Statement> ParseDropRole();
  Result<Statement> ParseCreateUser();
  Result<Statement> ParseAlterUser();
  Result<Statement> ParseDropUser();
  Result<Statement> ParseGrant();
  Result<Statement> ParseRevoke();
  Result<Statement> ParseList();
  Status ParseRoleOptions(RoleOptions* options);
  Result<std::string> ParseUserName();
  Status ParseUserPasswordAndSuperuser(std::optional<std::string>* password,
                                       std::optional<bool>* superuser);
  Result<PermissionSet> ParsePermissionOrAll();
  Result<Resource> ParseResource();
  Status CheckPermissionsApply(const PermissionSet& permissions, const Resource& resource);
  bool StartsPermissionStatement();  // GRANT/REVOKE/LIST permissions vs roles

  // Finishes a statement: attaches the bind marker names and moves it into a Statement.
  // Statements nested in a BATCH leave the names to the batch.
  template <typename T>
  Statement Finish(T&& statement) {
    static_assert(!std::is_lvalue_reference_v<T>, "pass the statement with std::move");
    if (!in_batch_) {
      statement.bind_marker_names = std::move(bind_names_);
      bind_names_.clear();
    }
    return Statement(std::in_place_type<T>, std::move(statement));
  }

  std::string_view text_;
  const char* stack_base_ = nullptr;  // frame address at the entry point
  std::vector<Token> tokens_;
  size_t last_ = 0;  // index of the kEof token ending `tokens_`
  std::optional<LexerError> lexer_error_;
  size_t pos_ = 0;
  size_t max_fetched_ = 0;
  int nesting_ = 0;
  int type_depth_ = 0;        // parameterized types enclosing the type being parsed
  bool speculating_ = false;  // suppresses action errors during lookahead parses
  bool in_batch_ = false;     // statements nested in BATCH keep the batch's marker list
  std::vector<std::string> bind_names_;
};

// Decrements the nesting depth on scope exit; construct only after TryEnterNesting() succeeded.
class NestingScope {
 public:
  explicit NestingScope(Parser* parser) : parser_(parser) {}
  ~NestingScope() { --parser_->nesting_; }
  NestingScope(const NestingScope&) = delete;
  NestingScope& operator=(const NestingScope&) = delete;

 private:
  Parser* parser_;
};

#define CQL_ENTER_NESTING()                      \
  if (!TryEnterNesting()) return NestingError(); \
  ::cql::internal::NestingScope cql_nesting_scope_(this)

// The type a native type keyword names. REQUIRES: IsNativeTypeKeyword(kind). The same as
// `CqlType::FromNativeName` on the keyword's text, without comparing strings.
TypeKind NativeTypeOf(TokenKind kind);

// Lower-cases ASCII letters.
std::string AsciiLower(std::string_view text);
// Sets `*out` to `text` with its ASCII letters lower-cased.
void AsciiLowerInto(std::string_view text, std::string* out);

}  // namespace cql::internal
