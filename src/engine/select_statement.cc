#include "engine/select_statement.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "common/logging.h"
#include "common/utf8.h"
#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_format.h"
#include "engine/index_scan.h"
#include "engine/paging_state.h"
#include "engine/schema_lookup.h"
#include "engine/size_estimates.h"
#include "engine/tracing.h"
#include "schema/system_tables.h"
#include "schema/system_views.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CqlType;
using schema::ColumnKind;

namespace {

Result<std::optional<int32_t>> EvaluateLimit(const std::optional<ValueExpr>& expr,
                                             const EvalContext& context, std::string_view what) {
  if (!expr) return std::optional<int32_t>();
  ASSIGN_OR_RETURN(cql::BoundValue v, expr->Evaluate(context));
  if (v.is_unset()) return std::optional<int32_t>();
  if (v.is_null()) return Status::Invalid(fmt::format("Invalid null value of {}", what));
  ASSIGN_OR_RETURN(int32_t limit, cql::DeserializeInt(v.bytes));
  if (limit <= 0) return Status::Invalid(fmt::format("{} must be strictly positive", what));
  return std::optional<int32_t>(limit);
}

}  // namespace

Result<std::unique_ptr<SelectStatement>> SelectStatement::Prepare(
    std::shared_ptr<const schema::Catalog> catalog, const cql::Select& select,
    std::string_view session_keyspace, BindCollector* binds) {
  std::unique_ptr<SelectStatement> stmt(new SelectStatement());
  ASSIGN_OR_RETURN(TableRef ref, LookupTable(*catalog, select.table, session_keyspace));
  stmt->catalog_ = std::move(catalog);
  stmt->is_system_ = ref.is_system;
  stmt->table_ = std::make_unique<TableSchema>(ref.table);
  const TableSchema& table = *stmt->table_;
  binds->SetTable(table);

  ASSIGN_OR_RETURN(stmt->selection_,
                   Selection::Prepare(table, select.selectors, select.json, binds));
  ASSIGN_OR_RETURN(stmt->restrictions_,
                   PrepareRestrictions(table, select.where, StatementKind::kSelect,
                                       select.allow_filtering, binds));
  const Restrictions& r = stmt->restrictions_;
  if (r.index) {
    ASSIGN_OR_RETURN(IndexSchema index, IndexSchema::Make(table, *r.index->index));
    stmt->index_ = std::make_unique<IndexSchema>(std::move(index));
  }

  // Partition key bind indexes, for token-aware routing.
  stmt->pk_bind_indexes_ = PartitionKeyBindIndexes(stmt->restrictions_);
  stmt->distinct_ = select.distinct;
  if (select.distinct) RETURN_IF_ERROR(stmt->PrepareDistinct(select));
  if (!select.order_by.empty()) RETURN_IF_ERROR(stmt->PrepareOrderBy(select));
  if (!select.group_by.empty()) RETURN_IF_ERROR(stmt->PrepareGroupBy(select));
  RETURN_IF_ERROR(stmt->PrepareLimits(select, binds));
  stmt->query_text_ = cql::ToCql(cql::Statement(select));
  stmt->aggregation_ = stmt->selection_->is_aggregate() || !select.group_by.empty();
  return stmt;
}

void SelectStatement::WarnAfterRead(const ExecutionContext& context, const ReadCounts& counts,
                                    cql::ResultSet* result) const {
  const Restrictions& r = restrictions_;
  if (aggregation_ && !is_system_) {
    // As Cassandra's SelectStatement: a token restriction counts as a partition key one.
    const bool restricts_partition_key =
        r.is_single_partitions() || r.has_token_restriction ||
        std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& filter) {
          return std::any_of(filter.columns.begin(), filter.columns.end(), [&](int column) {
            return table_->table->columns[column].kind == ColumnKind::kPartitionKey;
          });
        });
    if (!restricts_partition_key) {
      result->AddWarning("Aggregation query used without partition key");
    } else if (r.has_pk_in) {
      result->AddWarning("Aggregation query used on multiple partition keys (IN restriction)");
    }
  }
  const bool warn = counts.tombstones > context.tombstone_warn_threshold && !is_system_;
  if (warn) {
    std::string warning = fmt::format(
        "Read {} live rows and {} tombstone cells for query {} (see tombstone_warn_threshold)",
        counts.live_rows, counts.tombstones, common::TruncateUtf8(query_text_, 512));
    LOG_WARNING("{}", warning);
    result->AddWarning(std::move(warning));
  }
  Trace("Read {} live rows and {} tombstone cells{}", counts.live_rows, counts.tombstones,
        warn ? " (see tombstone_warn_threshold)" : "");
}

namespace {

Status UndefinedColumn(const TableSchema& table, std::string_view name) {
  return Status::Invalid(fmt::format("Undefined column name {} in table {}.{}",
                                     cql::QuoteIdentifierIfNeeded(name), table.table->keyspace,
                                     table.table->name));
}

}  // namespace

// DISTINCT: partition key and static columns only; all of the partition key unless the query
// names its partitions (Cassandra asks for the whole key only of a key range); WHERE on the
// partition key and static columns only.
Status SelectStatement::PrepareDistinct(const cql::Select& select) {
  const TableSchema& table = *table_;
  const Restrictions& r = restrictions_;
  if (!select.selectors.empty()) {
    std::vector<bool> has_pk(table.partition_key.size(), false);
    for (const cql::Selector& selector : select.selectors) {
      const cql::Selectable& s = selector.expression;
      if (s.kind != cql::Selectable::Kind::kColumn) continue;
      int index = table.IndexOfColumn(s.name);
      if (index < 0) continue;
      ColumnKind kind = table.column(index).kind;
      if (kind != ColumnKind::kPartitionKey && kind != ColumnKind::kStatic) {
        return Status::Invalid(fmt::format(
            "SELECT DISTINCT queries must only request partition key columns and/or static "
            "columns (not {})",
            table.column(index).name));
      }
      for (size_t i = 0; i < table.partition_key.size(); ++i) {
        if (table.partition_key[i] == index) has_pk[i] = true;
      }
    }
    std::vector<std::string> missing;
    for (size_t i = 0; i < has_pk.size(); ++i) {
      if (!has_pk[i]) missing.push_back(table.column(table.partition_key[i]).name);
    }
    if (!missing.empty() && !selection_->is_aggregate() && !r.is_single_partitions()) {
      return Status::Invalid(fmt::format(
          "SELECT DISTINCT queries must request all the partition key columns (missing {})",
          fmt::join(missing, ", ")));
    }
  }
  bool other_columns = false;
  for (const Filter& filter : r.filters) {
    for (int index : filter.columns) {
      ColumnKind kind = table.column(index).kind;
      if (kind == ColumnKind::kClustering || kind == ColumnKind::kRegular) other_columns = true;
    }
  }
  if (r.restricts_clustering || other_columns) {
    return Status::Invalid(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
        "static columns.");
  }
  return Status::Ok();
}

// ORDER BY: clustering columns in declared order, all in the same direction relative to it.
Status SelectStatement::PrepareOrderBy(const cql::Select& select) {
  const TableSchema& table = *table_;
  const Restrictions& r = restrictions_;
  has_order_by_ = true;
  if (r.index) return Status::Invalid("ORDER BY with 2ndary indexes is not supported.");
  if (!r.is_single_partitions()) {
    return Status::Invalid(
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  }
  std::optional<bool> reversed;
  size_t expected = 0;
  for (const cql::Ordering& ordering : select.order_by) {
    int index = table.IndexOfColumn(ordering.column);
    if (index < 0) return UndefinedColumn(table, ordering.column);
    const schema::ColumnMetadata& column = table.column(index);
    if (column.kind != ColumnKind::kClustering) {
      return Status::Invalid(fmt::format(
          "Order by is currently only supported on the clustered columns of the PRIMARY KEY, "
          "got {}",
          column.name));
    }
    // Columns restricted by EQ may be skipped in ORDER BY.
    while (expected < table.clustering.size() && table.clustering[expected] != index &&
           r.ClusteringRestrictedByEq(expected)) {
      ++expected;
    }
    if (expected >= table.clustering.size() || table.clustering[expected] != index) {
      return Status::Invalid(
          "Order by currently only supports the ordering of columns following their declared "
          "order in the PRIMARY KEY");
    }
    ++expected;
    bool column_desc = column.order == schema::ClusteringOrder::kDesc;
    bool this_reversed = ordering.descending != column_desc;
    if (reversed && *reversed != this_reversed) {
      return Status::Invalid("Unsupported order by relation");
    }
    reversed = this_reversed;
  }
  reversed_ = reversed.value_or(false);
  return Status::Ok();
}

// GROUP BY: a prefix of the primary key; key columns restricted by EQ (one value: they are
// constant) may be skipped. DISTINCT reads one row per partition, so it groups on partition
// key columns only.
Status SelectStatement::PrepareGroupBy(const cql::Select& select) {
  const TableSchema& table = *table_;
  const Restrictions& r = restrictions_;
  std::vector<int> key_columns = table.partition_key;
  key_columns.insert(key_columns.end(), table.clustering.begin(), table.clustering.end());
  auto restricted_by_eq = [&](size_t p) {
    const std::vector<ValueSet>& sets =
        p < table.partition_key.size() ? r.partition_values : r.clustering_prefix;
    size_t i = p < table.partition_key.size() ? p : p - table.partition_key.size();
    if (i >= sets.size()) return false;
    if (p >= table.partition_key.size() && r.multi_column_prefix) return true;
    return !sets[i].list && sets[i].values.size() == 1;
  };
  size_t position = 0;
  for (const std::string& name : select.group_by) {
    int index = table.IndexOfColumn(name);
    if (index < 0) return UndefinedColumn(table, name);
    while (position < key_columns.size() && key_columns[position] != index &&
           restricted_by_eq(position)) {
      ++position;
    }
    if (position >= key_columns.size() || key_columns[position] != index) {
      return Status::Invalid(
          "Group by currently only support groups of columns following their declared order in "
          "the PRIMARY KEY");
    }
    ++position;
  }
  if (distinct_ && position > table.partition_key.size()) {
    return Status::Invalid(
        "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
  }
  group_by_size_ = position;
  return Status::Ok();
}

Status SelectStatement::PrepareLimits(const cql::Select& select, BindCollector* binds) {
  if (select.limit) {
    ASSIGN_OR_RETURN(ValueExpr limit,
                     ValueExpr::Prepare(*select.limit, CqlType::Int(), "[limit]", binds));
    limit_ = std::move(limit);
  }
  if (select.per_partition_limit) {
    if (select.distinct) {
      return Status::Invalid("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
    }
    ASSIGN_OR_RETURN(ValueExpr limit,
                     ValueExpr::Prepare(*select.per_partition_limit, CqlType::Int(),
                                        "[per_partition_limit]", binds));
    per_partition_limit_ = std::move(limit);
  }
  return Status::Ok();
}

namespace {

// Consumes assembled rows: filters, selects or aggregates, counts, and decides where the
// page ends.
//
// Paging design. A page holds up to `page_size` result rows; LIMIT and PER PARTITION LIMIT
// count result rows too. Without GROUP BY a result row is a table row. With GROUP BY a result
// row is a group (Cassandra's GroupByQueryPager semantics); an aggregate without GROUP BY is
// one row over the whole range and is never paged.
//   G1. A group is a maximal run of consecutive rows (in read order, after filtering) with
//       equal values of the GROUP BY columns; it is counted when it opens (its first row).
//   G2. A group is complete only when a row of another group arrives or the data ends, so a
//       page ends at the first row of group `page_size + 1` (that row is left unread) or when
//       the LIMIT is reached.
//   G3. The paging state then names the last row of the last complete group (and its
//       partition, and how many groups that partition gave): the next page resumes right
//       after it, at the first row of the next group, however many rows a group holds.
//   G4. When the data ends, the last group is emitted by Finish and no paging state is
//       returned.
//   G5. PER PARTITION LIMIT n keeps the first n groups of each partition: the group that would
//       be the (n+1)th ends the partition.
class RowSink {
 public:
  RowSink(const TableSchema& table, const Restrictions& restrictions, const Selection& selection,
          const EvalContext& context, cql::ResultSet* out)
      : table_(table),
        restrictions_(restrictions),
        selection_(selection),
        context_(context),
        out_(out) {}

  std::optional<int32_t> limit;
  std::optional<int32_t> per_partition_limit;
  int32_t page_size = 0;  // 0: no paging
  size_t group_by_size = 0;
  bool aggregate = false;
  // Collect rows without counting (sorted later): ORDER BY across several partitions.
  bool collect_only = false;

  Status Init() {
    if (aggregate && group_by_size == 0) {
      ASSIGN_OR_RETURN(state_, selection_.NewState());
    }
    return Status::Ok();
  }

  // Called when a new partition starts; `rows_already` result rows of it were returned by
  // earlier pages.
  void StartPartition(const Bytes& prefix, int32_t rows_already) {
    partition_prefix_ = prefix;
    partition_rows_ = rows_already;
  }

  bool done() const { return done_; }
  // True when the current partition may give no more result rows (PER PARTITION LIMIT). The
  // group still open in it (G5) does not count: its remaining rows must still be read.
  bool partition_full() const {
    if (!per_partition_limit) return false;
    int32_t complete = partition_rows_;
    if (group_by_size > 0 && has_group_ && group_prefix_ == partition_prefix_) --complete;
    return complete >= *per_partition_limit;
  }

  // Returns false when the current partition must stop (its limit or the page is reached).
  Result<bool> Consume(RowData& row) {
    if (restrictions_.needs_filtering || !restrictions_.filters.empty()) {
      ASSIGN_OR_RETURN(bool match, MatchesFilters(table_, restrictions_.filters, row, context_));
      if (!match) return true;
    }
    if (group_by_size > 0) return ConsumeGrouped(row);
    if (aggregate) {
      RETURN_IF_ERROR(selection_.Accumulate(row, context_, &state_));
      return true;
    }
    if (collect_only) {
      collected_.push_back(row);
      return true;
    }
    RETURN_IF_ERROR(selection_.AddRow(row, context_, out_));
    ++rows_;
    ++partition_rows_;
    if (limit && rows_ >= *limit) {
      done_ = true;
      return false;
    }
    if (page_size > 0 && rows_ >= page_size) {
      // Only a full page resumes after its last row (NextPage), so only then is its key kept.
      last_key_ = row.key;
      done_ = true;
      page_full_ = true;
      return false;
    }
    if (partition_full()) return false;
    return true;
  }

  Status Finish() {
    if (group_by_size > 0) return CloseGroup();
    if (aggregate) RETURN_IF_ERROR(selection_.Emit(context_, &state_, true, out_));
    return Status::Ok();
  }

  std::vector<RowData>& collected() { return collected_; }
  Status AddCollected(const RowData& row) { return selection_.AddRow(row, context_, out_); }

  // The paging state to return, if the page ended before the data did.
  std::optional<PagingState> NextPage() const {
    if (!page_full_) return std::nullopt;
    PagingState state;
    if (group_by_size > 0) {  // G3
      state.partition_prefix = group_prefix_;
      state.last_key = group_last_key_;
      state.partition_rows = group_partition_rows_;
    } else {
      state.partition_prefix = partition_prefix_;
      state.last_key = last_key_;
      state.partition_rows = partition_rows_;
    }
    state.remaining = limit ? *limit - rows_ : -1;
    return state;
  }

 private:
  // GROUP BY: folds `row` into the open group, or closes that group and opens one for `row`.
  Result<bool> ConsumeGrouped(RowData& row) {
    std::vector<std::optional<Bytes>> key = GroupKey(row);
    if (has_group_ && key == group_key_) {
      // A group over a partition key prefix may span partitions: count it in each (G5).
      if (group_prefix_ != partition_prefix_) ++partition_rows_;
      NoteGroupRow(row);
      if (aggregate) RETURN_IF_ERROR(selection_.Accumulate(row, context_, &state_));
      return true;
    }
    if (has_group_) {
      RETURN_IF_ERROR(CloseGroup());
      if (limit && rows_ >= *limit) {
        done_ = true;
        return false;
      }
      if (page_size > 0 && rows_ >= page_size) {  // G2
        done_ = true;
        page_full_ = true;
        return false;
      }
    }
    if (partition_full()) return false;  // G5
    has_group_ = true;
    group_key_ = std::move(key);
    ++rows_;
    ++partition_rows_;
    NoteGroupRow(row);
    if (aggregate) {
      ASSIGN_OR_RETURN(state_, selection_.NewState());
      RETURN_IF_ERROR(selection_.Accumulate(row, context_, &state_));
      return true;
    }
    // Without aggregates a group's result row is its first row.
    if (collect_only) {
      collected_.push_back(row);
    } else {
      RETURN_IF_ERROR(selection_.AddRow(row, context_, out_));
    }
    if (limit && rows_ >= *limit) {
      // Nothing more to emit, and no page to resume: the rest of the group is irrelevant.
      has_group_ = false;
      done_ = true;
      return false;
    }
    return true;
  }

  void NoteGroupRow(const RowData& row) {
    group_prefix_ = partition_prefix_;
    group_last_key_ = row.key;
    group_partition_rows_ = partition_rows_;
  }

  // Emits the open group's result row (aggregates; the first row was already emitted
  // otherwise) and closes it. No-op without an open group.
  Status CloseGroup() {
    if (!has_group_) return Status::Ok();
    has_group_ = false;
    if (aggregate) return selection_.Emit(context_, &state_, false, out_);
    return Status::Ok();
  }

  std::vector<std::optional<Bytes>> GroupKey(const RowData& row) const {
    std::vector<std::optional<Bytes>> key;
    for (size_t i = 0; i < group_by_size; ++i) {
      int index = i < table_.partition_key.size()
                      ? table_.partition_key[i]
                      : table_.clustering[i - table_.partition_key.size()];
      key.push_back(row.cells[index].value);
    }
    return key;
  }

  const TableSchema& table_;
  const Restrictions& restrictions_;
  const Selection& selection_;
  const EvalContext& context_;
  cql::ResultSet* out_;

  SelectionState state_;
  std::vector<RowData> collected_;

  // GROUP BY: the open group, and where its last row so far lies (G3).
  std::vector<std::optional<Bytes>> group_key_;
  bool has_group_ = false;
  Bytes group_prefix_;
  Bytes group_last_key_;
  int32_t group_partition_rows_ = 0;

  int32_t rows_ = 0;            // result rows (groups, with GROUP BY) of this page
  int32_t partition_rows_ = 0;  // result rows of the current partition, earlier pages included
  Bytes partition_prefix_;
  Bytes last_key_;
  bool done_ = false;
  bool page_full_ = false;
};

// The indexed value a query looks up: the value of the index's filter (`= v`, CONTAINS v,
// CONTAINS KEY k), or a map key and value (`m[k] = v`).
Result<std::vector<Bytes>> IndexedParts(const IndexSchema& index, const Filter& filter,
                                        const EvalContext& context) {
  const schema::ColumnMetadata& column = index.base().column(index.column());
  std::vector<Bytes> parts;
  if (index.part() == IndexedPart::kMapEntries) {
    if (!filter.map_key) return Status::Internal("an entries index without a map key");
    ASSIGN_OR_RETURN(cql::BoundValue key, filter.map_key->Evaluate(context));
    if (!key.is_value()) {
      return Status::Invalid(fmt::format("Invalid null value for map key of {}", column.name));
    }
    parts.push_back(std::move(key.bytes));
  }
  ASSIGN_OR_RETURN(std::vector<Bytes> values,
                   filter.values.Evaluate(context, index.part_types().back(), column.name));
  if (values.size() != 1) return Status::Internal("an index lookup without exactly one value");
  parts.push_back(std::move(values[0]));
  return parts;
}

// The whole-partition interval: every clustered row.
KeyInterval AllRows(const TableSchema& table, std::string_view prefix) {
  return KeyInterval{storage::RowBoundKey(table.shape, prefix, {{}, storage::BoundSide::kBefore}),
                     storage::RowBoundKey(table.shape, prefix, {{}, storage::BoundSide::kAfter})};
}

// One execution of a SELECT after its limits are known: feeds the rows the restrictions (or
// the index) select into `sink`, partition by partition, resuming after `resume`.
class SelectRun {
 public:
  // `query`: the statement as CQL, for the tombstone failure's log line.
  SelectRun(const ExecutionContext& exec, const TableSchema& table, const Restrictions& r,
            const EvalContext& context, RowSink* sink, const std::optional<PagingState>& resume,
            PartitionReadOptions read, std::string_view query)
      : exec_(exec),
        table_(table),
        r_(r),
        context_(context),
        sink_(*sink),
        resume_(resume),
        read_(read),
        reader_(exec.store, &table, exec.NowSeconds()),
        query_(query) {
    reader_.set_tombstone_failure(exec.tombstone_failure_threshold, exec.local_node);
    reader_.set_row_cache(exec.row_cache);
  }

  // What the reads counted so far.
  const ReadCounts& counts() const { return reader_.counts(); }

  // System tables: generate every row, then apply the same key logic in memory.
  Status ReadSystemTable() {
    std::optional<schema::AuthTablesData> auth;
    if (table_.table->keyspace == schema::kSystemAuthKeyspace && exec_.auth_tables) {
      auth = exec_.auth_tables();
    }
    std::vector<PartitionKey> wanted;
    if (r_.is_single_partitions()) {
      ASSIGN_OR_RETURN(wanted, EvaluatePartitionKeys(table_, r_, context_));
    }
    std::optional<schema::TraceTablesData> traces;
    if (table_.table->keyspace == schema::kSystemTracesKeyspace && exec_.trace_tables) {
      traces = exec_.trace_tables(TraceSessionIds(wanted));
    }
    std::vector<schema::SystemRow> rows;
    if (IsStorageEstimateTable(*table_.table)) {
      rows = StorageEstimateRows(*table_.table,
                                 CollectPartitionFigures(*exec_.catalog(), *exec_.store));
    } else if (table_.table->keyspace == schema::kSystemViewsKeyspace) {
      const schema::SystemViewsData views =
          exec_.system_views ? exec_.system_views(table_.table->name) : schema::SystemViewsData{};
      ASSIGN_OR_RETURN(rows, schema::SystemViewsRows(*table_.table, views));
    } else {
      ASSIGN_OR_RETURN(
          rows, schema::SystemTableRows(*table_.table, *exec_.catalog(), *exec_.local_node,
                                        auth ? &*auth : nullptr, traces ? &*traces : nullptr));
    }
    // Rows in scan order: by partition position (the restrictions' key-value order for named
    // partitions, one position for a scan), then by key; a paging state resumes after its row.
    auto position = [&](const Bytes& prefix) {
      if (!r_.is_single_partitions()) return size_t{0};
      for (size_t i = 0; i < wanted.size(); ++i) {
        if (wanted[i].prefix == prefix) return i;
      }
      return wanted.size();
    };
    std::vector<KeyedRow> keyed = KeySystemRows(std::move(rows));
    std::stable_sort(keyed.begin(), keyed.end(), [&](const KeyedRow& a, const KeyedRow& b) {
      return position(a.prefix) < position(b.prefix);
    });
    const size_t resume_position = resume_ ? position(resume_->partition_prefix) : 0;
    Bytes current_prefix;
    std::vector<KeyInterval> intervals;
    for (KeyedRow& k : keyed) {
      const size_t at = position(k.prefix);
      if (r_.is_single_partitions() && at == wanted.size()) continue;  // not a named partition
      if (resume_ && (at < resume_position ||
                      (at == resume_position && !ScanOrderLess(resume_->last_key, k.row.key)))) {
        continue;
      }
      if (k.prefix != current_prefix) {
        current_prefix = k.prefix;
        sink_.StartPartition(k.prefix, resume_ && resume_->partition_prefix == k.prefix
                                           ? resume_->partition_rows
                                           : 0);
        ASSIGN_OR_RETURN(intervals, EvaluateClusteringIntervals(table_, r_, k.prefix, context_));
      }
      if (!table_.clustering.empty() && !Inside(intervals, k.row.key)) continue;
      if (sink_.partition_full()) continue;
      ASSIGN_OR_RETURN(bool more, sink_.Consume(k.row));
      (void)more;
      if (sink_.done()) break;
    }
    return Status::Ok();
  }

  // Reads through the secondary index the restrictions chose.
  Status ReadThroughIndex(const IndexSchema& index, bool distinct) {
    ASSIGN_OR_RETURN(std::vector<Bytes> parts,
                     IndexedParts(index, r_.filters[r_.index->filter], context_));
    IndexScanOptions scan;
    std::vector<PartitionKey> keys;
    Bytes start;
    Bytes end;
    if (r_.is_single_partitions()) {
      ASSIGN_OR_RETURN(keys, EvaluatePartitionKeys(table_, r_, context_));
      scan.partitions = keys;
      scan.single_partitions = true;
    } else if (r_.has_token_restriction) {
      bool empty = false;
      RETURN_IF_ERROR(EvaluateTokenRange(r_, context_, &start, &end, &empty));
      if (empty) return Status::Ok();
      scan.token_start = start;
      scan.token_end = end;
    }
    if (resume_) scan.resume_after = resume_->last_key;
    scan.per_partition = distinct;
    const bool whole_partitions = distinct || index.partition_level();
    IndexScan scanner(exec_.store, &index, exec_.NowSeconds());
    return scanner.Scan(parts, scan, [&](IndexHit& hit) -> Result<bool> {
      return ReadPartition(hit.prefix, hit.partition_key, whole_partitions ? nullptr : &hit.rows);
    });
  }

  // Reads the partitions the partition key restrictions name, in order.
  Status ReadPartitionKeys() {
    ASSIGN_OR_RETURN(std::vector<PartitionKey> keys, EvaluatePartitionKeys(table_, r_, context_));
    // Keys come in key-value order, not storage order: resume at the paged partition.
    bool skipping = resume_ && std::any_of(keys.begin(), keys.end(), [&](const PartitionKey& k) {
                      return k.prefix == resume_->partition_prefix;
                    });
    for (const PartitionKey& key : keys) {
      if (skipping && key.prefix != resume_->partition_prefix) continue;
      skipping = false;
      ASSIGN_OR_RETURN(bool more, ReadPartition(key.prefix, key.values, nullptr));
      if (!more) break;
    }
    return Status::Ok();
  }

  // Scans the token range (the whole table without a token restriction).
  Status ScanRange() {
    Bytes start;
    Bytes end;
    if (r_.has_token_restriction) {
      bool empty = false;
      RETURN_IF_ERROR(EvaluateTokenRange(r_, context_, &start, &end, &empty));
      if (empty) return Status::Ok();
    }
    if (resume_ && resume_->partition_prefix > start) start = resume_->partition_prefix;
    return reader_.ScanPartitions(start, end,
                                  [&](const Bytes& prefix, std::vector<Bytes>& pk) -> Result<bool> {
                                    return ReadPartition(prefix, pk, nullptr);
                                  });
  }

 private:
  struct KeyedRow {
    Bytes prefix;
    RowData row;
  };

  // The session ids the partition keys `wanted` of a system_traces table name (both tables
  // are keyed by session_id); empty for a scan.
  static std::vector<common::Uuid> TraceSessionIds(const std::vector<PartitionKey>& wanted) {
    std::vector<common::Uuid> ids;
    for (const PartitionKey& key : wanted) {
      if (key.values.size() != 1) continue;
      Result<common::Uuid> id = common::Uuid::FromBytes(key.values[0]);
      if (id.ok()) ids.push_back(*id);
    }
    if (ids.empty() && !wanted.empty()) ids.push_back(common::Uuid());  // matches no session
    return ids;
  }

  // The partition key of `pk` as cqlsh prints it: "1" or "1, 'a'".
  std::string FormatPartitionKey(std::span<const Bytes> pk) const {
    std::string out;
    for (size_t i = 0; i < pk.size() && i < table_.partition_key.size(); ++i) {
      if (i > 0) out += ", ";
      out += cql::FormatValue(table_.table->columns[table_.partition_key[i]].type, pk[i]);
    }
    return out;
  }

  // Logs a read stopped by tombstone_failure_threshold, as Cassandra's
  // TombstoneOverwhelmingException does, and traces it.
  void LogTombstoneFailure(std::span<const Bytes> pk) const {
    const std::string message = fmt::format(
        "Scanned over {} tombstones during query '{}' (last scanned partition key was ({})); "
        "query aborted",
        reader_.counts().tombstones, common::TruncateUtf8(std::string(query_), 512),
        FormatPartitionKey(pk));
    LOG_ERROR("{}", message);
    Trace(
        "Scanned over {} tombstones for query {}; query aborted (see "
        "tombstone_failure_threshold)",
        exec_.tombstone_failure_threshold, query_);
  }

  static bool Inside(const std::vector<KeyInterval>& intervals, const Bytes& key) {
    return std::any_of(intervals.begin(), intervals.end(),
                       [&](const KeyInterval& i) { return i.start <= key && key < i.end; });
  }

  // System rows with their storage keys, in key order.
  std::vector<KeyedRow> KeySystemRows(std::vector<schema::SystemRow> rows) const {
    std::vector<KeyedRow> keyed;
    for (schema::SystemRow& system_row : rows) {
      KeyedRow k;
      std::vector<Bytes> pk;
      for (int index : table_.partition_key) pk.push_back(system_row[index].value_or(Bytes()));
      k.prefix = storage::PartitionPrefix(table_.shape, pk);
      std::vector<Bytes> ck;
      for (int index : table_.clustering) ck.push_back(system_row[index].value_or(Bytes()));
      k.row.key = storage::RowKey(table_.shape, k.prefix, ck);
      k.row.cells.resize(system_row.size());
      for (size_t i = 0; i < system_row.size(); ++i) k.row.cells[i].value = system_row[i];
      keyed.push_back(std::move(k));
    }
    std::stable_sort(keyed.begin(), keyed.end(), [&](const KeyedRow& a, const KeyedRow& b) {
      return ScanOrderLess(a.row.key, b.row.key);
    });
    return keyed;
  }

  // Whether row key `a` comes before `b` in a scan of the system table: by token, then key,
  // except in the virtual keyspaces, whose LocalPartitioner orders partitions by key alone.
  // The key without its token prefix (storage/key_layout.h) is in key order.
  bool ScanOrderLess(std::string_view a, std::string_view b) const {
    if (!schema::IsVirtualKeyspace(table_.table->keyspace)) return a < b;
    constexpr size_t kTokenBytes = 8;
    return a.substr(std::min(a.size(), kTokenBytes)) < b.substr(std::min(b.size(), kTokenBytes));
  }

  // Reads the partition's rows the restrictions select or, with `rows` (a row-level index
  // hit), those of `rows` among them; false once the sink is done.
  Result<bool> ReadPartition(const Bytes& prefix, std::span<const Bytes> pk,
                             const std::vector<Bytes>* rows) {
    int32_t already = 0;
    std::string_view resume_after;
    if (resume_ && resume_->partition_prefix == prefix) {
      already = resume_->partition_rows;
      resume_after = resume_->last_key;
    }
    if (rows == nullptr || prefix != started_) {
      sink_.StartPartition(prefix, already);
      started_ = prefix;
    }
    if (sink_.partition_full()) return true;
    std::vector<KeyInterval> intervals;
    if (r_.restricts_clustering) {
      ASSIGN_OR_RETURN(intervals, EvaluateClusteringIntervals(table_, r_, prefix, context_));
    } else {
      intervals.push_back(AllRows(table_, prefix));
    }
    PartitionReadOptions options = read_;
    if (rows != nullptr) {
      std::vector<KeyInterval> selected;
      for (const Bytes& row : *rows) {
        if (!Inside(intervals, row)) continue;
        Bytes end = row;
        end.push_back('\0');  // the smallest key after `row`
        selected.push_back(KeyInterval{row, std::move(end)});
      }
      if (selected.empty()) return true;
      intervals = std::move(selected);
      options.static_only_when_empty = false;
    }
    options.intervals = intervals;
    options.resume_after = resume_after;
    const ReadCounts before = reader_.counts();
    Status read =
        reader_.ReadPartition(prefix, pk, options, [&](RowData& row) { return sink_.Consume(row); })
            .status();
    if (CurrentTrace() != nullptr) {
      Trace("Read partition ({}) of {}.{}: {} live rows and {} tombstone cells",
            FormatPartitionKey(pk), table_.table->keyspace, table_.table->name,
            reader_.counts().live_rows - before.live_rows,
            reader_.counts().tombstones - before.tombstones);
    }
    if (read.code() == common::StatusCode::kReadFailure) LogTombstoneFailure(pk);
    RETURN_IF_ERROR(read);
    return !sink_.done();
  }

  const ExecutionContext& exec_;
  const TableSchema& table_;
  const Restrictions& r_;
  const EvalContext& context_;
  RowSink& sink_;
  const std::optional<PagingState>& resume_;
  PartitionReadOptions read_;
  RowReader reader_;
  std::string_view query_;
  // The partition the sink counts rows of: an index may name one partition's rows in several
  // consecutive hits.
  Bytes started_;
};

// Rows of several partitions collected for ORDER BY: clustering bytes after the partition
// prefix sort in clustering order.
Status EmitSorted(const TableSchema& table, bool reversed, std::optional<int32_t> limit,
                  RowSink* sink) {
  std::vector<RowData>& rows = sink->collected();
  auto clustering_of = [&](const RowData& row) {
    Result<storage::ParsedKey> parsed = storage::ParseKey(table.shape, row.key);
    if (!parsed.ok()) return Bytes();
    Bytes prefix = storage::PartitionPrefix(table.shape, parsed->token, parsed->partition_key);
    return row.key.substr(prefix.size());
  };
  std::vector<std::pair<Bytes, size_t>> order;
  for (size_t i = 0; i < rows.size(); ++i) order.emplace_back(clustering_of(rows[i]), i);
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return reversed ? a.first > b.first : a.first < b.first;
  });
  size_t count = 0;
  for (const auto& [key, i] : order) {
    if (limit && count >= static_cast<size_t>(*limit)) break;
    RETURN_IF_ERROR(sink->AddCollected(rows[i]));
    ++count;
  }
  return Status::Ok();
}

}  // namespace

Result<cql::ResultSet> SelectStatement::Execute(const ExecutionContext& exec,
                                                const cql::QueryOptions& options,
                                                std::span<const cql::BoundValue> values) const {
  cql::FunctionContext functions = exec.function_context();
  EvalContext context{values, &functions};
  const TableSchema& table = *table_;
  const Restrictions& r = restrictions_;

  cql::ResultSet result = cql::ResultSet::Rows(selection_->shared_result_columns());
  ASSIGN_OR_RETURN(std::optional<int32_t> limit, EvaluateLimit(limit_, context, "LIMIT"));
  ASSIGN_OR_RETURN(std::optional<int32_t> ppl,
                   EvaluateLimit(per_partition_limit_, context, "PER PARTITION LIMIT"));

  // An aggregate without GROUP BY is one row over the whole range: never paged.
  bool aggregate = selection_->is_aggregate();
  bool paged = !aggregate || group_by_size_ > 0;
  int32_t page_size = options.page_size > 0 && paged ? options.page_size : 0;
  std::optional<PagingState> resume;
  if (options.paging_state && !options.paging_state->empty() && paged) {
    ASSIGN_OR_RETURN(PagingState state, DecodePagingState(*options.paging_state));
    resume = std::move(state);
    if (resume->remaining >= 0) limit = resume->remaining;
    if (limit && *limit <= 0) return result;
  }

  RETURN_IF_ERROR(ValidateFilterValues(table, r.filters, context));
  RowSink sink(table, r, *selection_, context, &result);
  sink.limit = limit;
  sink.per_partition_limit = ppl;
  sink.page_size = page_size;
  sink.group_by_size = group_by_size_;
  sink.aggregate = aggregate;
  RETURN_IF_ERROR(sink.Init());

  // ORDER BY over several IN partitions: sort in memory, no paging (as Cassandra).
  if (has_order_by_ && r.has_pk_in) {
    ASSIGN_OR_RETURN(std::vector<PartitionKey> keys, EvaluatePartitionKeys(table, r, context));
    if (keys.size() > 1) {
      if (page_size > 0) {
        return Status::Invalid(
            "Cannot page queries with both ORDER BY and a IN restriction on the partition key; "
            "you must either remove the ORDER BY or the IN and sort client side, or disable "
            "paging for this query");
      }
      sink.collect_only = true;
    }
  }

  PartitionReadOptions read;
  read.reverse = reversed_;
  read.distinct = distinct_;
  read.static_only_when_empty = !r.restricts_clustering;
  SelectRun run(exec, table, r, context, &sink, resume, read, query_text_);
  if (is_system_) {
    RETURN_IF_ERROR(run.ReadSystemTable());
  } else if (index_) {
    Trace("Executing read on {}.{} using index {}", table.table->keyspace, table.table->name,
          index_->index().name);
    RETURN_IF_ERROR(run.ReadThroughIndex(*index_, distinct_));
  } else if (r.is_single_partitions()) {
    Trace("Executing single-partition query on {}", table.table->name);
    RETURN_IF_ERROR(run.ReadPartitionKeys());
  } else {
    Trace("Executing seq scan across {}.{}", table.table->keyspace, table.table->name);
    RETURN_IF_ERROR(run.ScanRange());
  }
  WarnAfterRead(exec, run.counts(), &result);

  if (sink.collect_only) RETURN_IF_ERROR(EmitSorted(table, reversed_, limit, &sink));
  RETURN_IF_ERROR(sink.Finish());
  if (std::optional<PagingState> next = sink.NextPage()) {
    result.set_paging_state(EncodePagingState(*next));
  }
  return result;
}

}  // namespace engine
