// The CQL parser: source text → raw statement AST (`statement.h`), the second stage of the
// statement pipeline (docs/dev/architecture.md §2). It knows no schema.
//
// The language is CQL 3.4.x as Apache Cassandra 4.1 accepts it (its Parser.g), including
// arithmetic on terms and selectors (`a + 1` is represented as the function call
// `system._add(a, 1)`, as Cassandra does), plus `vector<type, n>` types. The parser is a
// hand-written recursive descent parser over the token vector of `lexer.h`; it allocates only
// for the AST it returns (and for error messages).
//
// Errors. A syntax error is a Status with code kSyntaxError whose message reads like
// Cassandra's (ANTLR 3 + Cassandra's ErrorCollector):
//   line 1:13 no viable alternative at input 'FROM' (SELECT * [FROM]...)
//   line 6:11 mismatched input ')' expecting '<' (...frozen<address>,  pois set [)])
//   line 2:3 no viable alternative at character '‘'
//   line 1:30 mismatched character '<EOF>' expecting '''
//   line 0:-1 mismatched input '<EOF>' expecting ')'
// `line L:C` is the 1-based line and the 0-based column (in UTF-16 code units, as Java
// counts). Errors at the end of input are reported at "line 0:-1" and without a snippet, as
// Cassandra does (its EOF token has no position). The snippet in parentheses follows
// ErrorCollector: up to 10 tokens (whitespace included) before the token the parser was at,
// that token in brackets, and up to 2 tokens after it among those the parser had already
// looked at. As in Cassandra, the first error wins and a lexical error wins over a parser
// error met later in the token stream.
//
// Cassandra also raises some errors from grammar actions; they are reported here with the
// same code and text: SyntaxError "Multiple definition for property x", "Invalid property
// name: ...", "Only expressions of the form X = <value> + X are supported.", "Multiple
// incompatible setting of column c", "Bind variables cannot be used for table names", "frozen<>
// is only allowed on collections, tuples, and user-defined types (got int)", "Resource type
// DataResource does not support any of the requested permissions", "COMPACT STORAGE tables
// are not allowed starting with version 4.0" (views), "Multiple definition for property
// 'PASSWORD'" (roles); and Invalid (0x2200) "Duplicate column 'c' declaration for table 't'",
// "Multiple PRIMARY KEY specified for table 't' (exactly one required)", "Duplicate column
// 'c' in CLUSTERING ORDER BY clause for table 't'" (and "... for view 'v'").
//
// Known differences from Cassandra (exact ANTLR parity for every input is not a goal):
// - ANTLR predicts alternatives with LL(*) DFAs; where its DFA would look further ahead than
//   this parser does before failing, the reported token (and so line:column) and the
//   "mismatched input"/"no viable alternative" wording can differ. The common cases (a
//   missing or unexpected token, a bad type, an unknown character, an unterminated string)
//   report the same position and wording.
// - Messages that name an expected token set print ANTLR's "expecting set null" only where
//   this parser matches a token set; elsewhere a decision failure is "no viable alternative".
// - `--` and `//` comments are accepted at the end of input without a newline (Cassandra's
//   lexer requires the newline; cqlsh strips comments before sending).
// - Characters outside the Basic Multilingual Plane are shown whole in lexer errors (Java
//   shows half a surrogate pair); invalid UTF-8 bytes are shown as U+FFFD.
// - MBEAN names are kept as written (Cassandra canonicalizes them with javax.management).
// - Deep nesting (terms, types, selectors, parenthesized relations) is rejected with
//   "line L:C too many nesting levels (more than 256) at input 'X'" instead of Cassandra's
//   stack overflow: past 256 levels of the parser's recursion (a bracket costs 2 or 3), or
//   past 512 KB of stack below the entry point (2 MB in ASan builds), whichever comes
//   first. Callers need threads with at least 1 MB of stack (4 MB under ASan).
// - A type nested deeper than kMaxTypeDepth (32, cql/types/type_depth.h: collections, tuples,
//   vectors and user types each count one level, frozen<> none) is a SyntaxError "line L:C type
//   nested too deeply (more than 32 levels of collections, tuples, vectors and user types) at
//   input 'X'"; Cassandra has no such limit.
// - The CQL 5.0 extensions (masking, constraints, BETWEEN, NOT IN, ANN, vector search,
//   LIST SUPERUSERS, generated/hashed passwords) are not accepted, except vector types.
//
// Thread-safety: the functions are pure and may be called from any thread.

#pragma once

#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement.h"
#include "cql/parser/term.h"
#include "cql/types/types.h"

namespace cql {

// Parses one statement; a trailing ';' (or several) and surrounding whitespace and comments
// are allowed. Fails with SyntaxError (or Invalid, see above) on bad input; never crashes.
common::Result<Statement> ParseStatement(std::string_view text);

// Parses a script of ';'-separated statements. Empty statements are skipped; the last
// statement may omit its ';'. Error positions are relative to the whole script.
common::Result<std::vector<Statement>> ParseScript(std::string_view text);

// Parses a single value expression (a `term`: constant, literal, marker, function call,
// type hint, arithmetic). Bind markers are numbered from 0.
common::Result<Term> ParseTerm(std::string_view text);

// Parses a CQL type, e.g. "map<text, frozen<address>>", "frozen<ks.udt>", "'custom.Class'".
common::Result<CqlType> ParseType(std::string_view text);

}  // namespace cql
