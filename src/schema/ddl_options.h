// Validation of the `WITH` properties of CREATE KEYSPACE and CREATE TABLE (replication,
// durable_writes; comment, default_time_to_live, gc_grace_seconds and the other table
// options), with Cassandra 4.1's error codes and messages. Used by `ddl.cc`.
//
// Thread-safety: pure functions.

#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/uuid.h"
#include "cql/parser/statement_parts.h"
#include "schema/catalog.h"

namespace schema {

struct KeyspaceOptions {
  // Empty when the statement gave no `replication`.
  std::map<std::string, std::string> replication;
  bool has_replication = false;
  bool durable_writes = true;
};

// Parses and checks syntactically the properties of CREATE KEYSPACE. Fails with SyntaxError
// "Unknown property 'x'", "Invalid boolean value ...", ConfigError "Missing replication
// strategy class".
common::Result<KeyspaceOptions> ParseKeyspaceOptions(const std::vector<cql::Property>& properties);

// Validates a replication map for keyspace `keyspace` and returns it as stored (the class
// fully qualified; NetworkTopologyStrategy's `replication_factor` expanded to the cluster's one
// data centre `local_datacenter`, what system.local reports, keeping the data centres of
// `previous`, the keyspace's replication before an ALTER; counts of "0" dropped). Fails with
// ConfigError: "Unable to find replication strategy class '...'", "SimpleStrategy requires a
// replication_factor strategy option.", "Unrecognized strategy option {x} passed to
// SimpleStrategy for keyspace ks" (or NetworkTopologyStrategy, for a data centre other than
// `local_datacenter`), "Configuration for at least one datacenter must be present", bad
// replication factors.
common::Result<std::map<std::string, std::string>> ValidateReplication(
    const std::map<std::string, std::string>& replication, std::string_view keyspace,
    std::string_view local_datacenter = "datacenter1",
    const std::map<std::string, std::string>& previous = {});

struct ParsedTableOptions {
  TableOptions options;
  bool has_id = false;
  common::Uuid id;
};

// Parses and validates the properties of CREATE TABLE (or ALTER TABLE ... WITH) on top of
// `base` (the defaults, or the table's current options): given options replace the base ones,
// the others are kept. Fails with SyntaxError for unknown properties and malformed values,
// ConfigError for out-of-range values.
common::Result<ParsedTableOptions> ParseTableOptions(const std::vector<cql::Property>& properties,
                                                     const TableOptions& base = TableOptions{});

// Whether `name` is a valid keyspace/table name: 1..48 characters of [A-Za-z0-9_].
bool IsValidSchemaName(std::string_view name);

}  // namespace schema
