#include "model/lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "cql/parser/parser.h"

namespace model {
namespace {

using common::Result;
using common::Status;
using cql::TypeKind;

// The largest IN list on a partition key that is not reported: each value is a partition the
// coordinator reads on its own.
constexpr size_t kMaxPartitionKeyInValues = 10;

std::vector<std::string> Words(const std::string& name) {
  std::vector<std::string> words;
  std::stringstream stream(name);
  for (std::string word; std::getline(stream, word, '_');) {
    if (!word.empty()) words.push_back(word);
  }
  return words;
}

bool HasWord(const std::string& name, const std::string& word) {
  std::vector<std::string> words = Words(name);
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Nouns whose plural adds "es": `address` → `addresses`, `box` → `boxes`, `batch` → `batches`.
bool TakesEs(std::string_view noun) {
  for (std::string_view ending : {"ss", "x", "sh", "tch", "nch", "rch"}) {
    if (noun.ends_with(ending)) return true;
  }
  return false;
}

std::string Singular(const std::string& word) {
  if (word.size() > 3 && word.ends_with("ies")) return word.substr(0, word.size() - 3) + "y";
  if (word.size() > 3 && word.ends_with("es") && TakesEs(word.substr(0, word.size() - 2))) {
    return word.substr(0, word.size() - 2);
  }
  if (word.size() > 1 && word.ends_with("s") && !word.ends_with("ss")) {
    return word.substr(0, word.size() - 1);
  }
  return word;
}

// What a row of `table` is: the last word of its name before `_by_`, singular
// (`available_rooms_by_hotel_date` holds rooms, `pois_by_hotel` pois).
std::string EntityOf(const Table& table) {
  std::string head = table.name.substr(0, table.name.find("_by_"));
  std::vector<std::string> words = Words(head);
  return words.empty() ? head : Singular(words.back());
}

// The words after `_by_` in the table's name, empty when it has none.
std::vector<std::string> ByWords(const Table& table) {
  size_t by = table.name.find("_by_");
  return by == std::string::npos ? std::vector<std::string>{} : Words(table.name.substr(by + 4));
}

// The entities a keyspace talks about: what its tables hold and what they are looked up by.
std::set<std::string> EntitiesOf(const SchemaModel& schema, const std::string& keyspace) {
  std::set<std::string> entities;
  for (const Table& table : schema.tables) {
    if (table.keyspace != keyspace) continue;
    entities.insert(EntityOf(table));
    for (const std::string& word : ByWords(table)) entities.insert(Singular(word));
  }
  return entities;
}

std::string WithArticle(const std::string& noun) {
  bool vowel = !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + noun;
}

std::string Plural(const std::string& noun) {
  if (noun.size() > 1 && noun.ends_with("y") &&
      std::string_view("aeiou").find(noun[noun.size() - 2]) == std::string_view::npos) {
    return noun.substr(0, noun.size() - 1) + "ies";
  }
  return noun + (TakesEs(noun) ? "es" : "s");
}

std::vector<const Column*> KeyColumns(const Table& table) {
  std::vector<const Column*> key = table.ColumnsOf(ColumnKind::kPartitionKey);
  for (const Column* column : table.ColumnsOf(ColumnKind::kClustering)) key.push_back(column);
  return key;
}

bool IsIdentifierWord(const std::string& word) {
  return word == "id" || word == "key" || word == "number" || word == "code" || word == "uuid";
}

// Whether `column` identifies one `entity`: `id`, `entity_id` and the like, an identifier
// (`*_number`, a uuid) that belongs to no other entity of the keyspace (`confirm_number`), or
// the entity's handle in one word (`username` of a user, `hostname` of a host: chosen unique,
// unlike a descriptive `poi_name`).
bool Identifies(const Column& column, const std::string& entity,
                const std::set<std::string>& entities) {
  std::vector<std::string> words = Words(column.name);
  if (words.empty()) return false;
  if (column.name == "id" || column.name == entity || column.name == entity + "id" ||
      column.name == entity + "name") {
    return true;
  }
  bool identifier = IsIdentifierWord(words.back()) || column.type.kind() == TypeKind::kUuid ||
                    column.type.kind() == TypeKind::kTimeuuid;
  if (!identifier || words.size() < 2) return identifier && words.size() == 1;
  return Singular(words.front()) == entity || entities.count(Singular(words.front())) == 0;
}

// The other entity of the keyspace `column` identifies (`product_id` in a table of stock:
// "product"), "" when it identifies none.
std::string OtherEntityIdentified(const Column& column, const std::string& entity,
                                  const std::set<std::string>& entities) {
  std::vector<std::string> words = Words(column.name);
  if (words.size() < 2 || !IsIdentifierWord(words.back())) return "";
  std::string other = Singular(words.front());
  return other != entity && entities.count(other) > 0 ? other : "";
}

// Names whose first word is part of a term, not an owner: a session's `user_agent` is the
// client's (HTTP's User-Agent), not its user's.
bool IsCompoundTerm(std::string_view name) { return name == "user_agent"; }

bool IsTimeType(const cql::CqlType& type) {
  return type.kind() == TypeKind::kDate || type.kind() == TypeKind::kTimestamp ||
         type.kind() == TypeKind::kTimeuuid;
}

// A partition key column that buckets time: a date or timestamp, or an integer named for a
// period (`month`, `year`, `day`, `week`, `hour`, `bucket`).
bool IsTimeBucket(const Column& column) {
  if (IsTimeType(column.type)) return true;
  for (const char* word : {"month", "year", "day", "week", "hour", "bucket", "period"}) {
    if (HasWord(column.name, word)) return true;
  }
  return false;
}

std::string ColumnList(const std::vector<const Column*>& columns) {
  std::vector<std::string> names;
  names.reserve(columns.size());
  for (const Column* column : columns) names.push_back(column->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string PrimaryKeyWith(const Table& table, const std::string& extra) {
  std::string clause =
      fmt::format("PRIMARY KEY (({})", ColumnList(table.ColumnsOf(ColumnKind::kPartitionKey)));
  for (const Column* column : table.ColumnsOf(ColumnKind::kClustering)) {
    clause += ", " + column->name;
  }
  return clause + (extra.empty() ? "" : ", " + extra) + ")";
}

// --- Schema rules -------------------------------------------------------------------------------

class TableLinter {
 public:
  TableLinter(const SchemaModel& schema, const Table& table, std::vector<Finding>* out)
      : schema_(schema), table_(table), out_(out), entity_(EntityOf(table)) {}

  void Run() {
    KeyUniqueness();
    UnboundedPartition();
    PartitionKeyCardinality();
    QueuePattern();
    CollectionUnbounded();
    CounterMixed();
    MissingStatic();
    TableNaming();
    MaterializedView();
  }

 private:
  void Add(const char* rule, Severity severity, std::string message, std::string fix) {
    out_->push_back(
        Finding{rule, severity, table_.QualifiedName(), std::move(message), std::move(fix)});
  }

  // The seeds' "Make your primary keys unique": a partition holding many rows must give each
  // entity a key of its own, or two of them share a row and the second write overwrites the first.
  void KeyUniqueness() {
    if (table_.ColumnsOf(ColumnKind::kClustering).empty()) return;
    std::set<std::string> entities = EntitiesOf(schema_, table_.keyspace);
    std::vector<const Column*> key = KeyColumns(table_);
    // An association (stock of a product in a warehouse) is identified by the identifiers of
    // the entities it links: a key made only of those of two or more entities is one row per
    // combination. A name among them (`amenity_name` beside `hotel_id, room_number`) is not.
    std::set<std::string> linked;
    bool only_identifiers = true;
    for (const Column* column : key) {
      if (Identifies(*column, entity_, entities)) return;
      std::string other = OtherEntityIdentified(*column, entity_, entities);
      only_identifiers = only_identifiers && !other.empty();
      linked.insert(other);
    }
    if (only_identifiers && linked.size() >= 2) return;
    const Column& last = *key.back();
    std::string why = HasWord(last.name, "name")
                          ? fmt::format("`{}` names {} but does not identify one", last.name,
                                        WithArticle(entity_))
                          : fmt::format("no key column identifies {}", WithArticle(entity_));
    Add("key-uniqueness", Severity::kError,
        fmt::format("`{}` holds {} rows, but its primary key ({}) cannot be unique for them: {}, "
                    "so two {} with the same key share one row and the second write silently "
                    "overwrites the first (the seeds: make sure the primary key defines a unique "
                    "data element)",
                    table_.name, entity_, ColumnList(key), why, Plural(entity_)),
        fmt::format("add the {0}'s identifier (e.g. `{0}_id uuid`) as the last clustering "
                    "column: {1}",
                    entity_, PrimaryKeyWith(table_, entity_ + "_id")));
  }

  // Time-ordered rows in a partition with no time in its key: the seeds' warning that storing
  // more dates, or not expiring them, makes the partition too large.
  void UnboundedPartition() {
    const Column* time = nullptr;
    for (const Column* column : table_.ColumnsOf(ColumnKind::kClustering)) {
      if (IsTimeType(column->type) && time == nullptr) time = column;
    }
    if (time == nullptr || table_.default_ttl > 0) return;
    std::set<std::string> entities = EntitiesOf(schema_, table_.keyspace);
    for (const Column* column : table_.ColumnsOf(ColumnKind::kPartitionKey)) {
      // A time bucket bounds the partition; so does a key of one entity (a partition per
      // reservation holds that reservation's rows only).
      if (IsTimeBucket(*column) || Identifies(*column, entity_, entities)) return;
    }
    Add("unbounded-partition", Severity::kWarning,
        fmt::format("rows clustered by `{}` accumulate in the partition of each ({}) with no end: "
                    "it grows with time until it passes the seeds' 100,000 values or 100 MB",
                    time->name, ColumnList(table_.ColumnsOf(ColumnKind::kPartitionKey))),
        fmt::format("bucket the partition by time (e.g. a `month int` in the partition key; "
                    "`cqlmodel size --span {}=DAYS` sizes it), or expire rows with "
                    "default_time_to_live",
                    table_.name));
  }

  void PartitionKeyCardinality() {
    std::vector<const Column*> partition = table_.ColumnsOf(ColumnKind::kPartitionKey);
    if (partition.size() != 1 || partition[0]->type.kind() != TypeKind::kBoolean) return;
    Add("partition-key-cardinality", Severity::kWarning,
        fmt::format("the partition key `{}` is a boolean: the whole table lives in at most two "
                    "partitions, on the same few replicas, and both grow without bound",
                    partition[0]->name),
        "partition by a column with many values (the entity the query looks up), keeping the "
        "boolean as a clustering column or in the table's name");
  }

  void QueuePattern() {
    bool queue_name = false;
    for (const char* word : {"queue", "queues", "jobs", "tasks", "outbox", "inbox"}) {
      queue_name = queue_name || HasWord(table_.name, word);
    }
    // `messages` is a queue's name too, unless each partition is one entity's own messages (a
    // conversation's history, read back, not consumed from the head).
    if (!queue_name && HasWord(table_.name, "messages")) {
      std::set<std::string> entities = EntitiesOf(schema_, table_.keyspace);
      std::vector<const Column*> partition = table_.ColumnsOf(ColumnKind::kPartitionKey);
      queue_name = std::none_of(partition.begin(), partition.end(), [&](const Column* column) {
        return !OtherEntityIdentified(*column, entity_, entities).empty();
      });
    }
    std::vector<const Column*> clustering = table_.ColumnsOf(ColumnKind::kClustering);
    if (!queue_name || clustering.empty() || !IsTimeType(clustering[0]->type)) return;
    Add("queue-pattern", Severity::kWarning,
        fmt::format("`{}` is used as a queue: consumers delete rows from the head of a partition "
                    "ordered by `{}`, each delete leaves a tombstone until gc_grace_seconds, and "
                    "every read of the head scans them all (Cassandra's queue anti-pattern)",
                    table_.name, clustering[0]->name),
        "bucket by time and drop or expire whole buckets (TTL with time-window compaction), read "
        "from a remembered position instead of the head, or use a message queue");
  }

  void CollectionUnbounded() {
    for (const Column& column : table_.columns) {
      if (column.type.kind() != TypeKind::kList || column.type.frozen()) continue;
      Add("collection-unbounded", Severity::kWarning,
          fmt::format("`{}` is a list: every element is a cell read whole with the row, appends "
                      "are not idempotent (a retried write adds twice) and removing by value "
                      "reads the list first; a list that keeps growing is an unbounded partition "
                      "in disguise",
                      column.name),
          fmt::format("for a few values use a set or frozen<list>; for a growing list, a table "
                      "with a clustering column: {}_by_{}",
                      column.name, entity_));
    }
  }

  void CounterMixed() {
    if (!table_.HasCounters()) return;
    for (const Column& column : table_.columns) {
      if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering ||
          column.type.IsCounter()) {
        continue;
      }
      Add("counter-mixed", Severity::kError,
          fmt::format("Cannot mix counter and non counter columns in the same table (`{}` is a "
                      "{}): Cassandra rejects the table",
                      column.name, column.type.ToCql()),
          "move the counters to a table of their own with the same primary key");
      return;
    }
  }

  // A regular column named for the partition's own entity (`poi_description` in a partition of
  // `poi_name`) holds one value per partition: the seeds make it STATIC.
  void MissingStatic() {
    if (table_.ColumnsOf(ColumnKind::kClustering).empty()) return;
    // Owners: the `owner` of partition key columns `owner_name`, `owner_id` (one owner per
    // partition; `guest_last_name` is many guests).
    std::set<std::string> owners;
    for (const Column* column : table_.ColumnsOf(ColumnKind::kPartitionKey)) {
      std::vector<std::string> words = Words(column->name);
      if (words.size() == 2 && (words[1] == "name" || IsIdentifierWord(words[1]))) {
        owners.insert(words.front());
      }
    }
    for (const Column* column : table_.ColumnsOf(ColumnKind::kRegular)) {
      std::vector<std::string> words = Words(column->name);
      if (words.size() < 2 || owners.count(words.front()) == 0 || IsIdentifierWord(words.back()) ||
          IsCompoundTerm(column->name)) {
        continue;
      }
      Add("missing-static", Severity::kWarning,
          fmt::format("`{}` describes the partition's {} (its key), yet it is stored again in "
                      "every row of the partition and can disagree between rows",
                      column->name, words.front()),
          fmt::format("declare it `{} {} STATIC`, as the seeds do for hotels_by_poi's "
                      "poi_description",
                      column->name, column->type.ToCql()));
    }
  }

  void TableNaming() {
    std::vector<std::string> by = ByWords(table_);
    std::vector<const Column*> key = KeyColumns(table_);
    if (by.empty()) {
      std::set<std::string> entities = EntitiesOf(schema_, table_.keyspace);
      const Column& first = *table_.ColumnsOf(ColumnKind::kPartitionKey).front();
      if (Identifies(first, entity_, entities)) return;
      Add("table-naming", Severity::kInfo,
          fmt::format("`{}` is looked up by {}, not by a {}'s identifier, and its name does not "
                      "say so",
                      table_.name, first.name, entity_),
          fmt::format("name it after the entity and the key, the seeds' convention: {}_by_{}",
                      table_.name, first.name));
      return;
    }
    for (const std::string& word : by) {
      bool found = false;
      for (const Column* column : key) {
        for (const std::string& key_word : Words(column->name)) {
          found =
              found || key_word.starts_with(Singular(word)) || Singular(word).starts_with(key_word);
        }
        // A key derived from the entity's attribute: `last_name_key` beside `guest_last_name`.
        found = found || table_.Find(Singular(word) + "_" + Stem(*column)) != nullptr;
      }
      if (found) continue;
      Add("table-naming", Severity::kInfo,
          fmt::format("`{}` says it is looked up by `{}`, but no primary key column is",
                      table_.name, word),
          fmt::format("name the table after its key, entity_by_key: {}s_by_{}", entity_,
                      Stem(*key.front())));
      return;
    }
  }

  // A key column's name without its identifier words: `last_name_key` → `last_name`,
  // `hotel_id` → `hotel`.
  static std::string Stem(const Column& column) {
    std::vector<std::string> words = Words(column.name);
    while (words.size() > 1 && IsIdentifierWord(words.back())) words.pop_back();
    return fmt::format("{}", fmt::join(words, "_"));
  }

  void MaterializedView() {
    if (!table_.is_view) return;
    Add("materialized-view", Severity::kWarning,
        fmt::format("`{}` is a materialized view of `{}`: views are experimental in Cassandra "
                    "(off by default since 4.0, materialized_views_enabled), can fall out of sync "
                    "with the base table with no way to repair them, and slow every write of the "
                    "base",
                    table_.name, table_.base_table),
        fmt::format("write a table `{}` yourself, in the same logged batch as `{}`", table_.name,
                    table_.base_table));
  }

  const SchemaModel& schema_;
  const Table& table_;
  std::vector<Finding>* out_;
  std::string entity_;
};

void LintIndex(const SchemaModel& schema, const Index& index, std::vector<Finding>* out) {
  if (index.custom) return;
  const Table* table = schema.FindTable(index.keyspace, index.table);
  const Column* column = table == nullptr ? nullptr : table->Find(index.column);
  if (column == nullptr || (!index.target.empty() && index.target != "values")) return;
  std::vector<std::string> words = Words(column->name);
  std::string last = words.empty() ? "" : words.back();
  TypeKind kind = column->type.kind();
  bool high = kind == TypeKind::kUuid || kind == TypeKind::kTimeuuid ||
              kind == TypeKind::kTimestamp || IsIdentifierWord(last) || last == "email";
  bool low = kind == TypeKind::kBoolean;
  if (!high && !low) return;
  std::string object = index.keyspace + "." + index.table;
  out->push_back(Finding{
      "index-cardinality", Severity::kWarning, object,
      high ? fmt::format("index `{}` is on `{}`, a column with about one row per value: every "
                         "lookup asks every node for at most one row",
                         index.name, column->name)
           : fmt::format("index `{}` is on `{}`, a column with two values: every lookup returns "
                         "a large share of the table from every node",
                         index.name, column->name),
      fmt::format("a table keyed by the column, written with `{}`: {}_by_{}", index.table,
                  EntityOf(*table) + "s", column->name)});
}

// --- Query rules --------------------------------------------------------------------------------

class QueryLinter {
 public:
  QueryLinter(const SchemaModel& schema, const Query& query, std::vector<Finding>* out)
      : schema_(schema), query_(query), out_(out) {}

  void Run() {
    const Table* table = FindTable();
    if (table == nullptr && !KnowsKeyspace()) return;  // a query of another schema
    if (table == nullptr) {
      Add("query-unknown-table", Severity::kError,
          fmt::format("the query reads `{}`, which the schema does not define",
                      cql::ToCql(query_.select.table)),
          "define the table the query needs, or correct its name");
      return;
    }
    if (query_.select.allow_filtering) {
      Add("query-allow-filtering", Severity::kError,
          "ALLOW FILTERING reads rows and discards those that do not match: its cost grows with "
          "the data scanned, not with the rows returned",
          "design a table for this query, keyed by the columns it restricts");
    }
    PartitionRestrictions(*table);
    FilteredColumns(*table);
    Ordering(*table);
  }

 private:
  void Add(const char* rule, Severity severity, std::string message, std::string fix) {
    out_->push_back(Finding{rule, severity, query_.text, std::move(message), std::move(fix)});
  }

  bool KnowsKeyspace() const {
    const std::string& keyspace = query_.select.table.keyspace;
    for (const Keyspace& known : schema_.keyspaces) {
      if (keyspace.empty() || known.name == keyspace) return true;
    }
    return false;
  }

  const Table* FindTable() const {
    const cql::QualifiedName& name = query_.select.table;
    if (!name.keyspace.empty()) return schema_.FindTable(name.keyspace, name.name);
    const Table* found = nullptr;
    for (const Table& table : schema_.tables) {
      if (table.name == name.name) found = found == nullptr ? &table : nullptr;
    }
    return found;
  }

  const cql::Relation* RelationOn(const std::string& column) const {
    for (const cql::Relation& relation : query_.select.where) {
      if (relation.kind == cql::Relation::Kind::kColumn && relation.columns[0] == column) {
        return &relation;
      }
    }
    return nullptr;
  }

  void PartitionRestrictions(const Table& table) {
    std::vector<const Column*> missing;
    for (const Column* column : table.ColumnsOf(ColumnKind::kPartitionKey)) {
      const cql::Relation* relation = RelationOn(column->name);
      if (relation == nullptr ||
          (relation->op != cql::Operator::kEq && relation->op != cql::Operator::kIn)) {
        missing.push_back(column);
        continue;
      }
      if (relation->in_list && relation->in_values.size() > kMaxPartitionKeyInValues) {
        Add("query-large-in", Severity::kWarning,
            fmt::format("IN lists {} values of the partition key `{}`: one coordinator reads {} "
                        "partitions and holds the query until the slowest answers",
                        relation->in_values.size(), column->name, relation->in_values.size()),
            "run one query per partition, concurrently, from the application");
      }
    }
    if (missing.empty()) return;
    Add("query-multi-partition", Severity::kError,
        fmt::format("the query does not fix the partition key of `{}` ({} not restricted by = or "
                    "IN): it scans every partition of the table, on every node",
                    table.name, ColumnList(missing)),
        fmt::format("restrict {} with =, or design a table whose partition key is what the "
                    "query knows",
                    ColumnList(missing)));
  }

  bool Indexed(const Table& table, const std::string& column) const {
    for (const Index* index : schema_.IndexesOf(table)) {
      if (index->column == column) return true;
    }
    return false;
  }

  // Restrictions Cassandra serves only with ALLOW FILTERING: a non-key column without an index,
  // or a clustering column after one that is not restricted by equality.
  void FilteredColumns(const Table& table) {
    if (query_.select.allow_filtering) return;
    bool prefix_open = true;  // every earlier clustering column restricted by =
    for (const Column* column : table.ColumnsOf(ColumnKind::kClustering)) {
      const cql::Relation* relation = RelationOn(column->name);
      if (relation != nullptr && !prefix_open && !Indexed(table, column->name)) {
        return NeedsFiltering(column->name,
                              "a clustering column after one the query leaves "
                              "open or restricts by a range");
      }
      prefix_open = prefix_open && relation != nullptr &&
                    (relation->op == cql::Operator::kEq || relation->op == cql::Operator::kIn);
    }
    for (const cql::Relation& relation : query_.select.where) {
      if (relation.kind != cql::Relation::Kind::kColumn) continue;
      const Column* column = table.Find(relation.columns[0]);
      if (column == nullptr || column->kind == ColumnKind::kPartitionKey ||
          column->kind == ColumnKind::kClustering || Indexed(table, column->name)) {
        continue;
      }
      return NeedsFiltering(column->name, "a column outside the primary key, without an index");
    }
  }

  void NeedsFiltering(const std::string& column, const std::string& why) {
    Add("query-needs-filtering", Severity::kError,
        fmt::format("the query restricts `{}`, {}: Cassandra refuses it without ALLOW FILTERING",
                    column, why),
        fmt::format("make `{}` part of the primary key of a table designed for this query",
                    column));
  }

  // ORDER BY follows the clustering columns in their declared order, or all reversed.
  void Ordering(const Table& table) {
    std::vector<const Column*> clustering = table.ColumnsOf(ColumnKind::kClustering);
    const std::vector<cql::Ordering>& order = query_.select.order_by;
    bool ok = order.size() <= clustering.size();
    std::optional<bool> reversed;
    for (size_t i = 0; ok && i < order.size(); ++i) {
      ok = order[i].column == clustering[i]->name;
      bool flipped = order[i].descending != clustering[i]->descending;
      ok = ok && (!reversed.has_value() || *reversed == flipped);
      reversed = flipped;
    }
    if (ok) return;
    Add("query-order-by", Severity::kError,
        fmt::format("ORDER BY must follow the clustering columns of `{}` ({}) in their order or "
                    "all reversed: the sort order is fixed when the table is designed",
                    table.name, ColumnList(clustering)),
        "choose the clustering columns and CLUSTERING ORDER BY for this query's order");
  }

  const SchemaModel& schema_;
  const Query& query_;
  std::vector<Finding>* out_;
};

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "info";
  }
  return "info";
}

}  // namespace

const std::vector<std::string>& LintRules() {
  static const std::vector<std::string> kRules = {
      "key-uniqueness",    "unbounded-partition",   "partition-key-cardinality",
      "queue-pattern",     "collection-unbounded",  "counter-mixed",
      "missing-static",    "table-naming",          "materialized-view",
      "index-cardinality", "query-unknown-table",   "query-allow-filtering",
      "query-large-in",    "query-multi-partition", "query-needs-filtering",
      "query-order-by"};
  return kRules;
}

Result<std::vector<Query>> LoadQueries(std::string_view cql_text) {
  ASSIGN_OR_RETURN(std::vector<cql::Statement> statements, cql::ParseScript(cql_text));
  std::vector<Query> queries;
  for (const cql::Statement& statement : statements) {
    if (const auto* select = std::get_if<cql::Select>(&statement)) {
      queries.push_back(Query{*select, cql::ToCql(statement)});
    }
  }
  return queries;
}

Result<std::vector<Query>> LoadQueriesFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return LoadQueries(text.str());
}

std::vector<Finding> Lint(const SchemaModel& schema, const std::vector<Query>& queries,
                          const std::string& keyspace, const std::vector<std::string>& disabled) {
  std::vector<Finding> findings;
  for (const Table& table : schema.tables) {
    if (keyspace.empty() || table.keyspace == keyspace) {
      TableLinter(schema, table, &findings).Run();
    }
  }
  for (const Index& index : schema.indexes) {
    if (keyspace.empty() || index.keyspace == keyspace) LintIndex(schema, index, &findings);
  }
  for (const Query& query : queries) QueryLinter(schema, query, &findings).Run();
  std::erase_if(findings, [&](const Finding& finding) {
    return std::find(disabled.begin(), disabled.end(), finding.rule) != disabled.end();
  });
  return findings;
}

bool HasErrors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

namespace {

std::string FindingText(const Finding& finding) {
  return fmt::format("{}: {} [{}]\n  {}\n  fix: {}\n\n", SeverityName(finding.severity),
                     finding.object, finding.rule, finding.message, finding.fix);
}

std::string CountLine(const std::vector<Finding>& findings, size_t suppressed) {
  int counts[3] = {0, 0, 0};
  for (const Finding& finding : findings) ++counts[static_cast<int>(finding.severity)];
  std::string line =
      fmt::format("{} error(s), {} warning(s), {} info", counts[2], counts[1], counts[0]);
  if (suppressed > 0) line += fmt::format(", {} suppressed", suppressed);
  return line + "\n";
}

boost::json::object FindingJson(const Finding& finding) {
  return boost::json::object{{"rule", finding.rule},
                             {"severity", SeverityName(finding.severity)},
                             {"object", finding.object},
                             {"message", finding.message},
                             {"fix", finding.fix}};
}

std::string SuppressionTarget(const Suppression& suppression) {
  return suppression.object.empty() ? std::string("every object") : suppression.object;
}

}  // namespace

std::string FormatFindings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& finding : findings) out += FindingText(finding);
  return out + CountLine(findings, 0);
}

std::string FindingsJson(const std::vector<Finding>& findings) {
  boost::json::array array;
  for (const Finding& finding : findings) array.push_back(FindingJson(finding));
  return boost::json::serialize(array) + "\n";
}

std::string FormatLintReport(const LintReport& report) {
  std::string out;
  for (const Finding& finding : report.findings) out += FindingText(finding);
  if (!report.suppressed.empty()) {
    out += fmt::format("suppressed ({}):\n", report.suppressed.size());
    for (const SuppressedFinding& suppressed : report.suppressed) {
      out += fmt::format("  {}: {} [{}] allowed at {}: {}\n",
                         SeverityName(suppressed.finding.severity), suppressed.finding.object,
                         suppressed.finding.rule, suppressed.by.origin, suppressed.by.reason);
    }
    out += "\n";
  }
  for (const Suppression& unused : report.unused) {
    out += fmt::format("unused suppression at {}: allow {} matches no finding on {}\n",
                       unused.origin, unused.rule, SuppressionTarget(unused));
  }
  if (!report.unused.empty()) out += "\n";
  return out + CountLine(report.findings, report.suppressed.size());
}

std::string LintReportJson(const LintReport& report) {
  boost::json::array findings, suppressed, unused;
  for (const Finding& finding : report.findings) findings.push_back(FindingJson(finding));
  for (const SuppressedFinding& one : report.suppressed) {
    boost::json::object o = FindingJson(one.finding);
    o["reason"] = one.by.reason;
    o["allowed_at"] = one.by.origin;
    suppressed.push_back(std::move(o));
  }
  for (const Suppression& one : report.unused) {
    unused.push_back(boost::json::object{{"rule", one.rule},
                                         {"object", one.object},
                                         {"reason", one.reason},
                                         {"allowed_at", one.origin}});
  }
  boost::json::object o{{"findings", std::move(findings)},
                        {"suppressed", std::move(suppressed)},
                        {"unused_suppressions", std::move(unused)}};
  return boost::json::serialize(o) + "\n";
}

}  // namespace model
