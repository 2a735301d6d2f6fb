// `cqlmodel derive` (docs/cqlmodel.md, "derive"; docs/modeling.md walks through it): the seeds'
// query-first method as a function from a conceptual model and its access patterns to a logical
// model, its CQL schema and the workflow arrows of its Chebotko diagram.
//
// The input (a YAML workflow file, `LoadWorkflow`) has
//   - keyspaces and user types,
//   - entities: attributes with their types (a multi-valued attribute names its collection), the
//     key, and other unique attribute sets (candidate keys),
//   - relationships between entities with their cardinality (1:1, 1:n, n:1, n:m),
//   - access patterns Q1..Qn: the entity the query returns, equality attributes, range
//     attributes, ordering, the columns it shows, and the steps of the workflow it follows.
//
// The mapping rules (`DeriveTable`), one per access pattern:
//   1. naming: `<plural of the entity>` when the equality attributes are a key of the entity,
//      else `<plural>_by_<what it is queried by>`, each term the short name of the entity whose
//      key (or attribute) the query names, or the entity's own attribute's name;
//   2. equality attributes → the partition key, in the order given;
//   3. range attributes, then ordering attributes → clustering columns, with their direction;
//   4. uniqueness: the key (or candidate key) of the entity missing the fewest columns from the
//      primary key adds them as ascending clustering columns, so a row is one entity instance;
//   5. static: a column of an entity whose key (or a candidate key) lies in the partition key
//      has one value per partition, so it is STATIC (when the table has clustering columns);
//   6. collections: a multi-valued attribute becomes set<T>, list<T> or map<K, T>, and a user
//      type is frozen<T>.
// Every attribute a query uses must belong to its entity or to an entity related to it.
//
// Thread-safety: pure functions over plain data.

#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/diagram.h"
#include "model/partition_size.h"
#include "model/schema_model.h"

namespace model {

struct Attribute {
  std::string name;
  std::string type;        // a CQL type name or a user type of `WorkflowModel::types`
  std::string collection;  // "", "set", "list" or "map" (multi-valued attributes)
  std::string key_type;    // maps: the type of the keys
};

struct Entity {
  std::string name;        // e.g. PointOfInterest
  std::string short_name;  // e.g. poi (table names)
  std::string plural;      // e.g. pois (table names)
  std::vector<std::string> key;
  std::vector<std::vector<std::string>> unique;  // candidate keys besides `key`
  std::vector<Attribute> attributes;

  const Attribute* Find(std::string_view attribute) const;
  bool InKey(std::string_view attribute) const;
};

struct Relationship {
  std::string name;
  std::string from, to;     // entity names
  std::string cardinality;  // "1:1", "1:n", "n:1" or "n:m", from → to
};

struct OrderBy {
  std::string attribute;
  bool descending = false;
};

struct AccessPattern {
  std::string id;  // Q1
  std::string description;
  std::string keyspace;
  std::string entity;  // the entity whose instances the query returns
  std::vector<std::string> equality;
  std::vector<std::string> range;
  std::vector<OrderBy> order;
  std::vector<std::string> columns;           // the attributes shown, besides the key
  std::map<std::string, std::string> rename;  // attribute → column name in this table
  std::string table;                          // a name chosen instead of rule 1's
  std::vector<std::string> after;             // queries whose step leads here; none: an entry
  std::string rows;                           // rows per partition for the size report
  double span_days = 0;                       // days a time clustering column spans
};

struct UserTypeDefinition {
  std::string name;
  std::vector<std::pair<std::string, std::string>> fields;  // name, CQL type
};

struct WorkflowModel {
  std::vector<Keyspace> keyspaces;
  std::vector<UserTypeDefinition> types;
  std::vector<Entity> entities;
  std::vector<Relationship> relationships;
  std::vector<AccessPattern> queries;

  const Entity* FindEntity(std::string_view name) const;
  const AccessPattern* FindQuery(std::string_view id) const;
};

// Reads a workflow file's YAML text. Invalid, naming the entry, when a required field is missing,
// a name is unknown or defined twice, or a cardinality or collection is not one of the above.
common::Result<WorkflowModel> LoadWorkflow(std::string_view yaml_text);
common::Result<WorkflowModel> LoadWorkflowFile(const std::string& path);

// One column of a derived table, with the rule that put it there.
struct LogicalColumn {
  std::string name;
  std::string type;  // CQL
  ColumnKind kind = ColumnKind::kRegular;
  bool descending = false;
  std::string entity;     // the entity the attribute belongs to
  std::string attribute;  // the attribute's name in the conceptual model
  std::string reason;     // the mapping rule, in a phrase
};

struct LogicalTable {
  std::string query;  // Q1
  std::string keyspace;
  std::string name;
  std::string comment;                 // "Q1. Find hotels near given poi"
  std::vector<LogicalColumn> columns;  // partition key, clustering, then the rest in query order
  std::vector<std::string> notes;      // what the rules observed (a wide partition, ...)

  std::vector<const LogicalColumn*> ColumnsOf(ColumnKind kind) const;
};

// A workflow arrow: the step of query `from` (empty: the application's entry) leads to `to`.
struct WorkflowEdge {
  std::string from;  // query id, "" for an entry point
  std::string to;
};

struct DerivedModel {
  WorkflowModel workflow;
  std::vector<LogicalTable> tables;  // one per access pattern, in query order
  std::vector<WorkflowEdge> edges;   // in query order
};

// The table of one access pattern (rules 1-6). Invalid when the pattern names an unknown entity or
// an attribute outside its entity and the entities related to it.
common::Result<LogicalTable> DeriveTable(const WorkflowModel& workflow, const AccessPattern& query);

// Every table, and the workflow's edges. Invalid as DeriveTable, or when a query follows an
// unknown query, or two queries give the same table different definitions.
common::Result<DerivedModel> Derive(const WorkflowModel& workflow);

// CREATE KEYSPACE, CREATE TYPE (in each keyspace that uses the type) and CREATE TABLE statements.
std::string DerivedCql(const DerivedModel& model);

// The logical model as JSON: tables with their columns, kinds, order and reasons, and the edges.
std::string DerivedJson(const DerivedModel& model);

// The size assumptions the access patterns state (rows per partition, spans).
SizeAssumptions DerivedSizeAssumptions(const DerivedModel& model);

// The diagram's workflow arrows for `layout`'s tables: each edge of `workflow` whose queries'
// tables are boxes of `layout` becomes an arrow labelled with the query it leads to. A query's
// tables are the one of its name (rule 1, or `table:`) in its keyspace and every table of that
// keyspace whose comment starts with the query's id ("Q4. ...", so another schema's tables
// serving the same queries get the arrows too). Queries without a table are skipped; a query
// whose earlier steps all are gets an entry arrow.
std::vector<DiagramArrow> WorkflowArrows(const WorkflowModel& workflow,
                                         const DiagramLayout& layout);

}  // namespace model
