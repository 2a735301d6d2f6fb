// QueryProcessor: prepares statements against the current catalogue, caches them by id, and
// dispatches their execution (docs/dev/architecture.md §2). The engine's facade (database.h) owns
// one.
//
// `Prepare` parses and binds a statement to the current catalogue snapshot and keeps it in a
// bounded LRU cache (prepared_statement_cache.h) under an id derived from the keyspace and the
// text; text queries go through the same cache, so the hot path never re-parses. A statement
// bound to an older catalogue is re-bound transparently (same id) when executed after a schema
// change. `Execute` resolves the bound values and runs the statement: SELECT and modifications
// through their prepared forms, BATCH through the facade's batch runner, schema statements
// through the schema manager (schema_manager.h), and USE, TRUNCATE and DESCRIBE here.
//
// Thread-safety: thread-safe.

#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "engine/execution_context.h"
#include "engine/prepared_statement_cache.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"

namespace engine {

class SelectStatement;
class ModificationStatement;
class SchemaManager;
class RoleManager;
class Authorizer;
class BindCollector;

// A statement prepared against one catalogue snapshot.
struct PreparedStatement {
  cql::Statement statement;
  std::string keyspace;  // session keyspace at prepare time
  std::shared_ptr<const schema::Catalog> catalog;
  std::shared_ptr<const cql::PreparedMetadata> metadata;
  std::unique_ptr<SelectStatement> select;
  std::unique_ptr<ModificationStatement> modification;
  // BEGIN BATCH ... APPLY BATCH: one prepared statement per entry.
  std::vector<std::unique_ptr<ModificationStatement>> batch;
  ~PreparedStatement();
};

// Per-session state the engine reads and updates (USE).
struct SessionState {
  std::string keyspace;
  std::string user;  // the role the session logged in as; "" for anonymous
  // The client's address (IPv4 or IPv6 text) for system_traces.sessions.client; "": in-process.
  std::string client_address;
};

class QueryProcessor {
 public:
  // How many prepared statements the cache keeps.
  static constexpr size_t kDefaultCacheCapacity = 20000;

  // REQUIRES: `context`, `schema`, `roles` and `local_node` outlive the processor.
  QueryProcessor(const ExecutionContext* context, SchemaManager* schema, RoleManager* roles,
                 Authorizer* authorizer, const schema::LocalNodeInfo* local_node,
                 size_t cache_capacity = kDefaultCacheCapacity);
  QueryProcessor(const QueryProcessor&) = delete;
  QueryProcessor& operator=(const QueryProcessor&) = delete;

  // Parses and prepares `query` (cached by id, bound to the current catalogue). Errors: the
  // parser's SyntaxError, or the binding errors of the statement.
  common::Result<std::shared_ptr<const PreparedStatement>> Prepare(std::string_view query,
                                                                   std::string_view keyspace);
  // The prepared statement with `id`, or Unprepared (never prepared, or evicted).
  common::Result<std::shared_ptr<const PreparedStatement>> FindPrepared(std::string_view id);
  // `prepared` bound again to the current catalogue (same id), replacing it in the cache.
  common::Result<std::shared_ptr<const PreparedStatement>> Rebind(
      const PreparedStatement& prepared);

  // Executes a prepared statement. `state` gives and receives the session keyspace.
  common::Result<cql::ResultSet> Execute(const PreparedStatement& prepared,
                                         const cql::QueryOptions& options, SessionState* state);
  // Parses (through the cache) and executes `query`.
  common::Result<cql::ResultSet> ExecuteText(std::string_view query,
                                             const cql::QueryOptions& options, SessionState* state);

  // The prepared-statement cache, for its size and counters (the Database's metrics).
  const PreparedStatementCache& cache() const { return cache_; }

 private:
  std::shared_ptr<const schema::Catalog> catalog() const;

  common::Result<std::shared_ptr<const PreparedStatement>> Bind(cql::Statement statement,
                                                                std::string keyspace,
                                                                std::string query,
                                                                common::Bytes id);
  // The statement-specific part of Bind: the prepared SELECT, modification or batch entries.
  common::Status PrepareStatement(const cql::Statement& statement, PreparedStatement* prepared,
                                  cql::PreparedMetadata* metadata, BindCollector* binds);
  common::Status PrepareBatch(const cql::Batch& batch, PreparedStatement* prepared,
                              BindCollector* binds);

  // The statement run for the session's role: its access checked (authorizer.h), then run,
  // then the grants its change implies.
  common::Result<cql::ResultSet> Dispatch(const PreparedStatement& prepared,
                                          const cql::QueryOptions& options,
                                          std::span<const cql::BoundValue> values,
                                          SessionState* state);
  // The statement's kind-specific execution, once values are resolved.
  common::Result<cql::ResultSet> Run(const PreparedStatement& prepared,
                                     const cql::QueryOptions& options,
                                     std::span<const cql::BoundValue> values, SessionState* state);
  common::Result<cql::ResultSet> ExecuteUse(const cql::Use& use, SessionState* state);
  common::Result<cql::ResultSet> ExecuteTruncate(const cql::Truncate& truncate,
                                                 std::string_view keyspace);
  common::Result<cql::ResultSet> ExecuteDescribe(const cql::Describe& describe,
                                                 std::string_view keyspace);

  const ExecutionContext* context_;
  SchemaManager* schema_;
  RoleManager* roles_;
  Authorizer* authorizer_;
  const schema::LocalNodeInfo* local_node_;
  PreparedStatementCache cache_;
};

}  // namespace engine
