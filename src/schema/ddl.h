// ApplyDdl: validation and application of schema statements (keyspaces, types, tables, indexes,
// materialized views) to a catalogue snapshot (`catalog.h`), with Cassandra 4.1's rules,
// error codes and messages. Sits between the parser (raw `cql::Statement`) and the engine,
// which serializes DDL under its schema mutex and publishes the resulting snapshot
// (docs/dev/architecture.md §4). No persistence here.
//
// Thread-safety: `ApplyDdl` is a pure function of its arguments; safe from any thread.

#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/result.h"
#include "cql/parser/statement.h"
#include "schema/catalog.h"

namespace schema {

// The protocol's SCHEMA_CHANGE event (native_protocol_v4.spec §4.2.6).
enum class ChangeType : uint8_t { kCreated, kUpdated, kDropped };
enum class ChangeTarget : uint8_t { kKeyspace, kTable, kType };

struct SchemaChange {
  ChangeType change = ChangeType::kCreated;
  ChangeTarget target = ChangeTarget::kKeyspace;
  std::string keyspace;
  std::string name;  // table or type name; empty for keyspace changes
  bool operator==(const SchemaChange&) const = default;
};

// "CREATED"/"UPDATED"/"DROPPED" and "KEYSPACE"/"TABLE"/"TYPE", as the protocol spells them.
std::string_view ChangeTypeName(ChangeType change);
std::string_view ChangeTargetName(ChangeTarget target);

struct DdlResult {
  // The new snapshot (new schema_version), or nullptr when the statement changed nothing
  // (IF [NOT] EXISTS that found the object already there/absent); keep the current one then.
  std::shared_ptr<const Catalog> catalog;
  // Set exactly when `catalog` is.
  std::optional<SchemaChange> change;
};

// Applies the schema statement `statement` to `current`. Names without a keyspace use
// `session_keyspace` (empty when the session has no USE). Supported: CreateKeyspace,
// AlterKeyspace, DropKeyspace, CreateType, AlterType, DropType, CreateTable, AlterTable,
// DropTable, CreateIndex, DropIndex, CreateMaterializedView, AlterMaterializedView,
// DropMaterializedView. Views are announced with the TABLE target (the protocol has no VIEW
// target); index changes as UPDATED TABLE of the indexed table; type changes as UPDATED TYPE
// (the new type is propagated to every type, table and view using it). `clock` gives the
// drop time of ALTER TABLE DROP without USING TIMESTAMP; the 3-argument form uses the system
// clock.
// Errors (Cassandra 4.1 wording): Invalid "Keyspace name must not be empty, more than 48
// characters long, or contain non-alphanumeric-underscore characters (got 'x')" first, for any
// statement naming such a keyspace; Invalid (0x2200) for semantic errors, AlreadyExists (0x2400)
// for existing keyspaces/tables, ConfigError (0x2300) for replication and option values,
// SyntaxError (0x2000) for unknown properties. Other statement kinds give Invalid. Creating a
// keyspace, type, table or view whose name is quarantined (catalog.h QuarantinedEntry), with or
// without IF NOT EXISTS, gives Invalid "Cannot create table k.t: ... is quarantined ... run
// `cqld --data DIR --check`"; a type, column or field nested deeper than cql::kMaxTypeDepth
// gives Invalid "... is nested too deeply ...".
common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace);
common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace, const common::Clock& clock);

// What schema statements see of the node besides the catalogue.
struct DdlEnvironment {
  // The drop time of ALTER TABLE DROP without USING TIMESTAMP.
  const common::Clock* clock = nullptr;
  // The cluster's one data centre (system.local's data_center): the only name
  // NetworkTopologyStrategy accepts.
  std::string local_datacenter = "datacenter1";
};
// REQUIRES: `environment.clock` is set.
common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace,
                                   const DdlEnvironment& environment);

}  // namespace schema
