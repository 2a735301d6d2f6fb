// Batch execution: BEGIN BATCH ... APPLY BATCH and the protocol's BATCH request, once their
// entries are prepared (docs/dev/storage_format.md §4-5, §7-8). The query processor (database.h)
// resolves each entry to a prepared ModificationStatement and its bound values; this file validates
// the batch as a whole (counter / non-counter mix, conditions), takes the partition locks it needs,
// checks the conditions of a conditional batch, and writes every entry's mutations — and the
// view and index mutations they imply — in one storage::WriteBatch at one timestamp.
//
// Thread-safety: free functions over an ExecutionContext; safe from many threads.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "engine/execution_context.h"

namespace engine {

class ModificationStatement;

// The values of one entry of a protocol BATCH, positional or by name, checked against the
// entry's bind variables `specs`. Errors: Invalid when the count does not match.
common::Result<std::vector<cql::BoundValue>> BatchEntryValues(
    const cql::BatchEntry& entry, const std::vector<cql::ColumnSpec>& specs);

// Executes `statements[i]` with `values[i]` as one batch of `type`. `timestamp`: the batch's
// own (USING TIMESTAMP or the protocol's), else one from the context's generator. Returns Void,
// or for a conditional batch the `[applied]` rows. Errors: Invalid for a batch Cassandra
// refuses; the statements' and the store's errors.
// REQUIRES: every statement bound to a catalogue no older than the one the caller checked.
common::Result<cql::ResultSet> ExecuteBatch(
    const ExecutionContext& context, cql::BatchType type,
    const std::vector<const ModificationStatement*>& statements,
    const std::vector<std::span<const cql::BoundValue>>& values, std::optional<int64_t> timestamp);

// What Cassandra checks when it prepares BEGIN BATCH ... APPLY BATCH, in its order, once the
// entries are prepared: the batch's own USING clause (no TTL; no timestamp with conditions, in a
// counter batch, beside an entry's own timestamp or with counters), then the counter mix.
// Errors: Invalid with Cassandra's messages.
common::Status ValidateBatchStatement(
    const cql::Batch& batch, const std::vector<std::unique_ptr<ModificationStatement>>& statements);

// Executes a prepared BEGIN BATCH ... APPLY BATCH statement: `statements` are its entries,
// prepared and validated (ValidateBatchStatement), sharing the statement's bound `values`.
common::Result<cql::ResultSet> ExecuteBatchStatement(
    const ExecutionContext& context, const cql::Batch& batch,
    const std::vector<std::unique_ptr<ModificationStatement>>& statements,
    const cql::QueryOptions& options, std::span<const cql::BoundValue> values);

}  // namespace engine
