// TokenKind: the kinds of tokens the CQL lexer (`lexer.h`) produces and the parser consumes.
//
// The set mirrors Apache Cassandra 4.1's Lexer.g (keywords K_*, literal classes, punctuation),
// so syntax error messages can name tokens exactly as Cassandra does ("expecting K_FROM",
// "expecting ')'"). Keyword recognition (`LookupKeyword`) is one probe (rarely more) in a hash
// table built at compile time: no allocation, no map, no regex.
//
// Thread-safety: pure functions over constant tables; safe from any thread.

#pragma once

#include <cstdint>
#include <string_view>

namespace cql {

// X-macro of every keyword: (enumerator suffix, spelling). A keyword's enumerator is
// `TokenKind::kK<suffix>` and its ANTLR token name is "K_<SUFFIX>" (see `TokenKindName`).
// Aliases (`table` for COLUMNFAMILY, `tables`/`columnfamilies` for TABLES, `nan`,
// `infinity`) are handled in `LookupKeyword`.
// clang-format off
#define CQL_KEYWORDS(X)           \
  X(Access, "access")             \
  X(Add, "add")                   \
  X(Aggregate, "aggregate")       \
  X(Aggregates, "aggregates")     \
  X(All, "all")                   \
  X(Allow, "allow")               \
  X(Alter, "alter")               \
  X(And, "and")                   \
  X(Apply, "apply")               \
  X(As, "as")                     \
  X(Asc, "asc")                   \
  X(Ascii, "ascii")               \
  X(Authorize, "authorize")       \
  X(Batch, "batch")               \
  X(Begin, "begin")               \
  X(Bigint, "bigint")             \
  X(Blob, "blob")                 \
  X(Boolean, "boolean")           \
  X(By, "by")                     \
  X(Called, "called")             \
  X(Cast, "cast")                 \
  X(Cluster, "cluster")           \
  X(Clustering, "clustering")     \
  X(Columnfamily, "columnfamily") \
  X(Compact, "compact")           \
  X(Contains, "contains")         \
  X(Count, "count")               \
  X(Counter, "counter")           \
  X(Create, "create")             \
  X(Custom, "custom")             \
  X(Datacenters, "datacenters")   \
  X(Date, "date")                 \
  X(Decimal, "decimal")           \
  X(Default, "default")           \
  X(Delete, "delete")             \
  X(Desc, "desc")                 \
  X(Describe, "describe")         \
  X(Distinct, "distinct")         \
  X(Double, "double")             \
  X(Drop, "drop")                 \
  X(Duration, "duration")         \
  X(Entries, "entries")           \
  X(Execute, "execute")           \
  X(Exists, "exists")             \
  X(Filtering, "filtering")       \
  X(Finalfunc, "finalfunc")       \
  X(Float, "float")               \
  X(From, "from")                 \
  X(Frozen, "frozen")             \
  X(Full, "full")                 \
  X(Function, "function")         \
  X(Functions, "functions")       \
  X(Grant, "grant")               \
  X(Group, "group")               \
  X(If, "if")                     \
  X(In, "in")                     \
  X(Index, "index")               \
  X(Inet, "inet")                 \
  X(Initcond, "initcond")         \
  X(Input, "input")               \
  X(Insert, "insert")             \
  X(Int, "int")                   \
  X(Internals, "internals")       \
  X(Into, "into")                 \
  X(Is, "is")                     \
  X(Json, "json")                 \
  X(Key, "key")                   \
  X(Keys, "keys")                 \
  X(Keyspace, "keyspace")         \
  X(Keyspaces, "keyspaces")       \
  X(Language, "language")         \
  X(Like, "like")                 \
  X(Limit, "limit")               \
  X(List, "list")                 \
  X(Login, "login")               \
  X(Map, "map")                   \
  X(Materialized, "materialized") \
  X(Mbean, "mbean")               \
  X(Mbeans, "mbeans")             \
  X(Modify, "modify")             \
  X(Nologin, "nologin")           \
  X(Norecursive, "norecursive")   \
  X(Nosuperuser, "nosuperuser")   \
  X(Not, "not")                   \
  X(Null, "null")                 \
  X(Of, "of")                     \
  X(On, "on")                     \
  X(Only, "only")                 \
  X(Options, "options")           \
  X(Or, "or")                     \
  X(Order, "order")               \
  X(Partition, "partition")       \
  X(Password, "password")         \
  X(Per, "per")                   \
  X(Permission, "permission")     \
  X(Permissions, "permissions")   \
  X(PositiveInfinity, "infinity") \
  X(PositiveNan, "nan")           \
  X(Primary, "primary")           \
  X(Rename, "rename")             \
  X(Replace, "replace")           \
  X(Returns, "returns")           \
  X(Revoke, "revoke")             \
  X(Role, "role")                 \
  X(Roles, "roles")               \
  X(Schema, "schema")             \
  X(Select, "select")             \
  X(Set, "set")                   \
  X(Sfunc, "sfunc")               \
  X(Smallint, "smallint")         \
  X(Static, "static")             \
  X(Storage, "storage")           \
  X(Stype, "stype")               \
  X(Superuser, "superuser")       \
  X(Tables, "tables")             \
  X(Text, "text")                 \
  X(Time, "time")                 \
  X(Timestamp, "timestamp")       \
  X(Timeuuid, "timeuuid")         \
  X(Tinyint, "tinyint")           \
  X(To, "to")                     \
  X(Token, "token")               \
  X(Trigger, "trigger")           \
  X(Truncate, "truncate")         \
  X(Ttl, "ttl")                   \
  X(Tuple, "tuple")               \
  X(Type, "type")                 \
  X(Types, "types")               \
  X(Unlogged, "unlogged")         \
  X(Unset, "unset")               \
  X(Update, "update")             \
  X(Use, "use")                   \
  X(User, "user")                 \
  X(Users, "users")               \
  X(Using, "using")               \
  X(Uuid, "uuid")                 \
  X(Values, "values")             \
  X(Varchar, "varchar")           \
  X(Varint, "varint")             \
  X(Vector, "vector")             \
  X(View, "view")                 \
  X(Where, "where")               \
  X(With, "with")                 \
  X(Writetime, "writetime")
// clang-format on

enum class TokenKind : uint16_t {
  kEof,
  // Literal classes.
  kIdent,             // unquoted identifier: letter (letter | digit | '_')*
  kQuotedName,        // "..." with "" escapes, non-empty
  kEmptyQuotedName,   // ""
  kStringLiteral,     // '...' with '' escapes, or $$...$$
  kInteger,           // -?[0-9]+
  kFloat,             // -?[0-9]+ ('.' [0-9]*)? exponent?
  kBoolean,           // true | false
  kDuration,          // 1h30m, -2d, P1DT2H, P2W, P0001-02-03T04:05:06
  kUuid,              // 8-4-4-4-12 hex digits
  kHexNumber,         // 0x[0-9a-fA-F]*
  kQmark,             // ?
  kRange,             // ..
  kNegativeNan,       // -NaN
  kNegativeInfinity,  // -Infinity
  kExprParen,         // `expr(`: the custom index expression opener (a literal token in CQL)
  // Punctuation.
  kLParen,     // (
  kRParen,     // )
  kLBracket,   // [
  kRBracket,   // ]
  kLBrace,     // {
  kRBrace,     // }
  kComma,      // ,
  kSemicolon,  // ;
  kColon,      // :
  kDot,        // .
  kEq,         // =
  kLt,         // <
  kLte,        // <=
  kGt,         // >
  kGte,        // >=
  kNeq,        // !=
  kPlus,       // +
  kMinus,      // -
  kPlusEq,     // +=
  kMinusEq,    // -=
  kStar,       // *
  kSlash,      // /
  kPercent,    // %
// Keywords.
#define CQL_KEYWORD_ENUM(name, spelling) kK##name,
  CQL_KEYWORDS(CQL_KEYWORD_ENUM)
#undef CQL_KEYWORD_ENUM
      kCount_,  // number of kinds; not a token
};

// The keyword kind for `word` (any case), or kIdent when `word` is not a keyword. Also maps
// `true`/`false` to kBoolean. Cost: a pass over the word's bytes, a hash and one or two
// 16-byte compares; no allocation.
TokenKind LookupKeyword(std::string_view word);

// Whether `kind` is a keyword (K_*).
inline bool IsKeyword(TokenKind kind) {
  return kind >= TokenKind::kKAccess && kind < TokenKind::kCount_;
}

// The name ANTLR gives the token kind in Cassandra's messages: "K_SELECT", "IDENT",
// "STRING_LITERAL", "')'", "EOF"...
std::string_view TokenKindName(TokenKind kind);

// Keywords that Cassandra 4.1 accepts as identifiers (its `unreserved_keyword` rule): the
// native type names, K_TTL, K_COUNT, K_WRITETIME, K_KEY, K_CAST, K_JSON, K_DISTINCT and the
// `basic_unreserved_keyword` list.
bool IsUnreservedKeyword(TokenKind kind);
// `basic_unreserved_keyword`: the unreserved keywords that are neither native types nor the
// eight listed above. User type names accept these (plus K_KEY).
bool IsBasicUnreservedKeyword(TokenKind kind);
// The keywords naming native types (`native_type` rule).
bool IsNativeTypeKeyword(TokenKind kind);

}  // namespace cql
