#include "model/derive.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <set>

namespace model {
namespace {

using common::Result;
using common::Status;

// Whether every element of `subset` is in `set`.
bool AllIn(const std::vector<std::string>& subset, const std::set<std::string>& set) {
  return std::all_of(subset.begin(), subset.end(),
                     [&](const std::string& item) { return set.count(item) > 0; });
}

// The key and the candidate keys of `entity`, the key first.
std::vector<std::vector<std::string>> Keys(const Entity& entity) {
  std::vector<std::vector<std::string>> keys = {entity.key};
  keys.insert(keys.end(), entity.unique.begin(), entity.unique.end());
  return keys;
}

const Relationship* FindRelationship(const WorkflowModel& workflow, const std::string& a,
                                     const std::string& b) {
  for (const Relationship& relationship : workflow.relationships) {
    if ((relationship.from == a && relationship.to == b) ||
        (relationship.from == b && relationship.to == a)) {
      return &relationship;
    }
  }
  return nullptr;
}

// Whether each instance of `entity` relates to at most one instance of the other end of
// `relationship`.
bool ToOne(const Relationship& relationship, const std::string& entity) {
  size_t colon = relationship.cardinality.find(':');
  std::string left = relationship.cardinality.substr(0, colon);
  std::string right = relationship.cardinality.substr(colon + 1);
  return (relationship.from == entity ? right : left) == "1";
}

// The entity an attribute of `query` belongs to: the query's entity when it has the attribute
// (or has it in its key), else an entity related to it, one with the attribute in its key first.
Result<const Entity*> Owner(const WorkflowModel& workflow, const Entity& entity,
                            const AccessPattern& query, const std::string& attribute) {
  if (entity.Find(attribute) != nullptr || entity.InKey(attribute)) return &entity;
  const Entity* declares = nullptr;
  for (const Entity& other : workflow.entities) {
    if (&other == &entity || FindRelationship(workflow, entity.name, other.name) == nullptr) {
      continue;
    }
    if (other.InKey(attribute)) return &other;
    if (declares == nullptr && other.Find(attribute) != nullptr) declares = &other;
  }
  if (declares != nullptr) return declares;
  return Status::Invalid(
      fmt::format("query {}: '{}' is not an attribute of {} or of an entity related to it",
                  query.id, attribute, entity.name));
}

// The attribute's declaration: in its owner, else in any entity (a key attribute borrowed from
// another entity, like a room's hotel_id).
const Attribute* Declaration(const WorkflowModel& workflow, const Entity& owner,
                             const std::string& attribute) {
  if (const Attribute* found = owner.Find(attribute)) return found;
  for (const Entity& entity : workflow.entities) {
    if (const Attribute* found = entity.Find(attribute)) return found;
  }
  return nullptr;
}

bool IsUserType(const WorkflowModel& workflow, const std::string& type) {
  return std::any_of(workflow.types.begin(), workflow.types.end(),
                     [&](const UserTypeDefinition& t) { return t.name == type; });
}

// Rule 6: the CQL type of an attribute.
std::string CqlType(const WorkflowModel& workflow, const Attribute& attribute) {
  std::string element =
      IsUserType(workflow, attribute.type) ? "frozen<" + attribute.type + ">" : attribute.type;
  if (attribute.collection.empty()) return element;
  if (attribute.collection == "map") return "map<" + attribute.key_type + ", " + element + ">";
  return attribute.collection + "<" + element + ">";
}

// The `_by_` terms of rule 1 for the attributes the query is keyed by.
std::vector<std::string> ByTerms(const WorkflowModel& workflow, const Entity& entity,
                                 const std::vector<std::string>& attributes) {
  std::vector<std::string> terms;
  std::set<std::string> remaining(attributes.begin(), attributes.end());
  for (const std::string& attribute : attributes) {
    if (remaining.count(attribute) == 0) continue;
    const Entity* cover = nullptr;  // the entity with the widest key made of remaining attributes
    for (const Entity& other : workflow.entities) {
      if (&other == &entity || !other.InKey(attribute) || !AllIn(other.key, remaining)) continue;
      if (cover == nullptr || other.key.size() > cover->key.size()) cover = &other;
    }
    std::string term = attribute;
    if (cover != nullptr) {
      term = cover->short_name;
      for (const std::string& key : cover->key) remaining.erase(key);
    } else {
      remaining.erase(attribute);
      for (const Entity& other : workflow.entities) {
        if (&other != &entity && entity.Find(attribute) == nullptr && other.Find(attribute)) {
          term = other.short_name;
          break;
        }
      }
    }
    if (terms.empty() || terms.back() != term) terms.push_back(term);
  }
  return terms;
}

// Rule 1.
std::string TableName(const WorkflowModel& workflow, const Entity& entity,
                      const AccessPattern& query) {
  if (!query.table.empty()) return query.table;
  std::set<std::string> equality(query.equality.begin(), query.equality.end());
  for (const std::vector<std::string>& key : Keys(entity)) {
    if (key.size() == equality.size() && AllIn(key, equality)) return entity.plural;
  }
  std::vector<std::string> by = query.equality;
  by.insert(by.end(), query.range.begin(), query.range.end());
  return entity.plural + "_by_" + fmt::format("{}", fmt::join(ByTerms(workflow, entity, by), "_"));
}

// Builds one table column by column, resolving attributes against the conceptual model.
class TableBuilder {
 public:
  TableBuilder(const WorkflowModel& workflow, const Entity& entity, const AccessPattern& query)
      : workflow_(workflow), entity_(entity), query_(query) {}

  Status Add(const std::string& attribute, ColumnKind kind, bool descending, std::string reason) {
    ASSIGN_OR_RETURN(const Entity* owner, Owner(workflow_, entity_, query_, attribute));
    const Attribute* declared = Declaration(workflow_, *owner, attribute);
    if (declared == nullptr) {
      return Status::Invalid(
          fmt::format("query {}: attribute '{}' has no type", query_.id, attribute));
    }
    auto renamed = query_.rename.find(attribute);
    LogicalColumn column;
    column.name = renamed == query_.rename.end() ? attribute : renamed->second;
    column.type = CqlType(workflow_, *declared);
    column.kind = kind;
    column.descending = descending;
    column.entity = owner->name;
    column.attribute = attribute;
    column.reason = std::move(reason);
    table_.columns.push_back(std::move(column));
    return Status::Ok();
  }

  bool Has(const std::string& attribute) const {
    return std::any_of(table_.columns.begin(), table_.columns.end(),
                       [&](const LogicalColumn& c) { return c.attribute == attribute; });
  }

  std::set<std::string> Attributes(ColumnKind kind) const {
    std::set<std::string> out;
    for (const LogicalColumn& column : table_.columns) {
      if (column.kind == kind) out.insert(column.attribute);
    }
    return out;
  }

  LogicalTable* table() { return &table_; }

 private:
  const WorkflowModel& workflow_;
  const Entity& entity_;
  const AccessPattern& query_;
  LogicalTable table_;
};

// Rules 2 and 3.
Status AddKey(const AccessPattern& query, TableBuilder* builder) {
  for (const std::string& attribute : query.equality) {
    RETURN_IF_ERROR(builder->Add(attribute, ColumnKind::kPartitionKey, false,
                                 "partition key: the query's equality on " + attribute));
  }
  auto descending = [&](const std::string& attribute) {
    return std::any_of(query.order.begin(), query.order.end(), [&](const OrderBy& order) {
      return order.attribute == attribute && order.descending;
    });
  };
  for (const std::string& attribute : query.range) {
    if (builder->Has(attribute)) continue;
    RETURN_IF_ERROR(builder->Add(attribute, ColumnKind::kClustering, descending(attribute),
                                 "clustering: the query's range on " + attribute));
  }
  for (const OrderBy& order : query.order) {
    if (builder->Has(order.attribute)) continue;
    RETURN_IF_ERROR(builder->Add(order.attribute, ColumnKind::kClustering, order.descending,
                                 "clustering: the query's order by " + order.attribute));
  }
  return Status::Ok();
}

// Rule 4: completes the key of the entity (or the candidate key) missing the fewest columns.
Status AddUniqueness(const Entity& entity, TableBuilder* builder) {
  std::set<std::string> primary = builder->Attributes(ColumnKind::kPartitionKey);
  std::set<std::string> clustering = builder->Attributes(ColumnKind::kClustering);
  primary.insert(clustering.begin(), clustering.end());
  std::vector<std::string> best;
  bool first = true;
  for (const std::vector<std::string>& key : Keys(entity)) {
    std::vector<std::string> missing;
    for (const std::string& attribute : key) {
      if (primary.count(attribute) == 0) missing.push_back(attribute);
    }
    if (first || missing.size() < best.size()) best = missing;
    first = false;
  }
  for (const std::string& attribute : best) {
    RETURN_IF_ERROR(builder->Add(attribute, ColumnKind::kClustering, false,
                                 "clustering: completes the key of " + entity.name +
                                     ", so that a row is one " + entity.name));
  }
  return Status::Ok();
}

// Rule 5 for one column of an entity other than the table's: static when a key of its entity
// lies in the partition key; a note when nothing in the row's key determines it.
void ClassifyColumn(const WorkflowModel& workflow, const Entity& entity,
                    const std::set<std::string>& partition, bool clustered, LogicalColumn* column,
                    std::vector<std::string>* notes) {
  const Entity* owner = workflow.FindEntity(column->entity);
  bool by_partition = false;
  for (const std::vector<std::string>& key : Keys(*owner)) by_partition |= AllIn(key, partition);
  if (by_partition && clustered) {
    column->kind = ColumnKind::kStatic;
    column->reason =
        "static: one value per partition, the partition key holds the key of " + owner->name;
    return;
  }
  if (owner == &entity || by_partition) return;
  const Relationship* relationship = FindRelationship(workflow, entity.name, owner->name);
  if (relationship != nullptr && !ToOne(*relationship, entity.name)) {
    notes->push_back(fmt::format(
        "{}: a {} has many {} ({} {}), so one column holds only one of their values", column->name,
        entity.name, owner->name, relationship->name, relationship->cardinality));
  }
}

}  // namespace

const Attribute* Entity::Find(std::string_view attribute) const {
  for (const Attribute& candidate : attributes) {
    if (candidate.name == attribute) return &candidate;
  }
  return nullptr;
}

bool Entity::InKey(std::string_view attribute) const {
  return std::find(key.begin(), key.end(), attribute) != key.end();
}

const Entity* WorkflowModel::FindEntity(std::string_view name) const {
  for (const Entity& entity : entities) {
    if (entity.name == name) return &entity;
  }
  return nullptr;
}

const AccessPattern* WorkflowModel::FindQuery(std::string_view id) const {
  for (const AccessPattern& query : queries) {
    if (query.id == id) return &query;
  }
  return nullptr;
}

std::vector<const LogicalColumn*> LogicalTable::ColumnsOf(ColumnKind kind) const {
  std::vector<const LogicalColumn*> out;
  for (const LogicalColumn& column : columns) {
    if (column.kind == kind) out.push_back(&column);
  }
  return out;
}

Result<LogicalTable> DeriveTable(const WorkflowModel& workflow, const AccessPattern& query) {
  const Entity* entity = workflow.FindEntity(query.entity);
  if (entity == nullptr) {
    return Status::Invalid(
        fmt::format("query {} reads unknown entity '{}'", query.id, query.entity));
  }
  TableBuilder builder(workflow, *entity, query);
  RETURN_IF_ERROR(AddKey(query, &builder));
  RETURN_IF_ERROR(AddUniqueness(*entity, &builder));
  std::set<std::string> partition = builder.Attributes(ColumnKind::kPartitionKey);
  bool clustered = !builder.Attributes(ColumnKind::kClustering).empty();
  for (const std::string& attribute : query.columns) {
    if (builder.Has(attribute)) continue;
    RETURN_IF_ERROR(builder.Add(attribute, ColumnKind::kRegular, false, "the query shows it"));
  }
  LogicalTable table = std::move(*builder.table());
  for (LogicalColumn& column : table.columns) {
    if (column.kind != ColumnKind::kRegular) continue;
    ClassifyColumn(workflow, *entity, partition, clustered, &column, &table.notes);
  }
  table.query = query.id;
  table.keyspace = query.keyspace;
  table.name = TableName(workflow, *entity, query);
  table.comment = query.description.empty() ? query.id : query.id + ". " + query.description;
  std::set<std::string> names;
  for (const LogicalColumn& column : table.columns) {
    if (!names.insert(column.name).second) {
      return Status::Invalid(fmt::format("query {}: column '{}' appears twice in {}", query.id,
                                         column.name, table.name));
    }
  }
  return table;
}

Result<DerivedModel> Derive(const WorkflowModel& workflow) {
  DerivedModel model;
  model.workflow = workflow;
  for (const AccessPattern& query : workflow.queries) {
    ASSIGN_OR_RETURN(LogicalTable table, DeriveTable(workflow, query));
    for (const LogicalTable& other : model.tables) {
      if (other.keyspace == table.keyspace && other.name == table.name) {
        return Status::Invalid(fmt::format("queries {} and {} both derive table {}.{}", other.query,
                                           query.id, table.keyspace, table.name));
      }
    }
    model.tables.push_back(std::move(table));
    if (query.after.empty()) model.edges.push_back(WorkflowEdge{"", query.id});
    for (const std::string& before : query.after) {
      if (workflow.FindQuery(before) == nullptr) {
        return Status::Invalid(
            fmt::format("query {} follows unknown query '{}'", query.id, before));
      }
      model.edges.push_back(WorkflowEdge{before, query.id});
    }
  }
  return model;
}

namespace {

std::string TableCql(const LogicalTable& table) {
  std::string out;
  for (const std::string& note : table.notes) out += "-- " + note + "\n";
  out += fmt::format("CREATE TABLE {}.{} (\n", table.keyspace, table.name);
  for (const LogicalColumn& column : table.columns) {
    out += fmt::format("    {} {}{},\n", column.name, column.type,
                       column.kind == ColumnKind::kStatic ? " STATIC" : "");
  }
  std::vector<std::string> partition, clustering, order;
  for (const LogicalColumn* column : table.ColumnsOf(ColumnKind::kPartitionKey)) {
    partition.push_back(column->name);
  }
  for (const LogicalColumn* column : table.ColumnsOf(ColumnKind::kClustering)) {
    clustering.push_back(column->name);
    order.push_back(column->name + (column->descending ? " DESC" : " ASC"));
  }
  std::string key = "(" + fmt::format("{}", fmt::join(partition, ", ")) + ")";
  for (const std::string& name : clustering) key += ", " + name;
  std::string comment = table.comment;
  for (size_t at = comment.find('\''); at != std::string::npos; at = comment.find('\'', at + 2)) {
    comment.insert(at, "'");
  }
  out += fmt::format("    PRIMARY KEY ({})\n) WITH comment = '{}'", key, comment);
  if (!order.empty())
    out += fmt::format("\n    AND CLUSTERING ORDER BY ({})", fmt::join(order, ", "));
  return out + ";\n";
}

// Whether a table of `keyspace` uses the user type `name`.
bool UsesType(const DerivedModel& model, const std::string& keyspace, const std::string& name) {
  for (const LogicalTable& table : model.tables) {
    if (table.keyspace != keyspace) continue;
    for (const LogicalColumn& column : table.columns) {
      if (column.type.find("<" + name + ">") != std::string::npos) return true;
    }
  }
  return false;
}

}  // namespace

std::string DerivedCql(const DerivedModel& model) {
  std::string out;
  for (const Keyspace& keyspace : model.workflow.keyspaces) {
    if (!out.empty()) out += "\n";
    out += fmt::format(
        "CREATE KEYSPACE {}\n    WITH replication = {{'class': 'SimpleStrategy', "
        "'replication_factor': {}}};\n",
        keyspace.name, keyspace.replication_factor);
    for (const UserTypeDefinition& type : model.workflow.types) {
      if (!UsesType(model, keyspace.name, type.name)) continue;
      out += fmt::format("\nCREATE TYPE {}.{} (\n", keyspace.name, type.name);
      for (size_t i = 0; i < type.fields.size(); ++i) {
        out += fmt::format("    {} {}{}\n", type.fields[i].first, type.fields[i].second,
                           i + 1 < type.fields.size() ? "," : "");
      }
      out += ");\n";
    }
    for (const LogicalTable& table : model.tables) {
      if (table.keyspace == keyspace.name) out += "\n" + TableCql(table);
    }
  }
  return out;
}

namespace {

// The kind's name in the JSON, in ColumnKind's order.
const char* KindName(ColumnKind kind) {
  static constexpr const char* kNames[] = {"partition_key", "clustering", "static", "regular"};
  return kNames[static_cast<int>(kind)];
}

boost::json::object TableJson(const LogicalTable& table) {
  boost::json::array columns;
  for (const LogicalColumn& column : table.columns) {
    boost::json::object item{{"name", column.name},           {"type", column.type},
                             {"kind", KindName(column.kind)}, {"entity", column.entity},
                             {"attribute", column.attribute}, {"reason", column.reason}};
    if (column.kind == ColumnKind::kClustering) item["order"] = column.descending ? "desc" : "asc";
    columns.push_back(std::move(item));
  }
  boost::json::array notes;
  for (const std::string& note : table.notes) notes.push_back(boost::json::value(note));
  return {{"query", table.query},     {"keyspace", table.keyspace},    {"name", table.name},
          {"comment", table.comment}, {"columns", std::move(columns)}, {"notes", std::move(notes)}};
}

}  // namespace

std::string DerivedJson(const DerivedModel& model) {
  boost::json::array tables, edges;
  for (const LogicalTable& table : model.tables) tables.push_back(TableJson(table));
  for (const WorkflowEdge& edge : model.edges) {
    boost::json::object item{{"to", edge.to}};
    if (!edge.from.empty()) item["from"] = edge.from;
    edges.push_back(std::move(item));
  }
  boost::json::object root{{"tables", std::move(tables)}, {"workflow", std::move(edges)}};
  return boost::json::serialize(root) + "\n";
}

SizeAssumptions DerivedSizeAssumptions(const DerivedModel& model) {
  SizeAssumptions assumptions;
  for (const LogicalTable& table : model.tables) {
    const AccessPattern* query = model.workflow.FindQuery(table.query);
    std::string name = table.keyspace + "." + table.name;
    if (!query->rows.empty()) {
      if (auto rows = ParseRowCount(query->rows); rows.ok()) assumptions.rows[name] = *rows;
    }
    if (query->span_days > 0) assumptions.span_days[name] = query->span_days;
  }
  return assumptions;
}

namespace {

// Whether a table's comment says it serves query `id`: "Q1. ...", "Q1 ...", "Q1: ..." (not Q10).
bool ServesQuery(const DiagramBox& box, const std::string& id) {
  if (box.kind == DiagramBox::Kind::kType || !box.subtitle.starts_with(id)) return false;
  return box.subtitle.size() == id.size() ||
         std::string_view(". :,").find(box.subtitle[id.size()]) != std::string_view::npos;
}

// The boxes of `query`'s tables: the table of its name (rule 1 or `table:`), and every other
// table of its keyspace whose comment names the query.
std::vector<int> BoxesOf(const WorkflowModel& workflow, const DiagramLayout& layout,
                         const AccessPattern& query) {
  std::vector<int> boxes;
  const Entity* entity = workflow.FindEntity(query.entity);
  int named =
      entity == nullptr ? -1 : FindBox(layout, query.keyspace, TableName(workflow, *entity, query));
  if (named >= 0) boxes.push_back(named);
  for (size_t i = 0; i < layout.boxes.size(); ++i) {
    const DiagramBox& box = layout.boxes[i];
    if (static_cast<int>(i) != named && box.keyspace == query.keyspace &&
        ServesQuery(box, query.id)) {
      boxes.push_back(static_cast<int>(i));
    }
  }
  return boxes;
}

}  // namespace

std::vector<DiagramArrow> WorkflowArrows(const WorkflowModel& workflow,
                                         const DiagramLayout& layout) {
  std::vector<DiagramArrow> arrows;
  auto add = [&](int from, int to, const std::string& label) {
    for (const DiagramArrow& arrow : arrows) {
      if (arrow.from == from && arrow.to == to && arrow.label == label) return;
    }
    arrows.push_back(DiagramArrow{from, to, label});
  };
  for (const AccessPattern& query : workflow.queries) {
    for (int to : BoxesOf(workflow, layout, query)) {
      bool entered = false;
      for (const std::string& before : query.after) {
        const AccessPattern* source = workflow.FindQuery(before);
        if (source == nullptr) continue;
        for (int from : BoxesOf(workflow, layout, *source)) {
          entered = true;
          if (from != to) add(from, to, query.id);
        }
      }
      if (!entered) add(-1, to, query.id);  // an entry, or its steps are in another diagram
    }
  }
  return arrows;
}

}  // namespace model
