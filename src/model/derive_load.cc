// LoadWorkflow (derive.h): the workflow file's YAML into a WorkflowModel, checked.

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "model/derive.h"

namespace model {
namespace {

using common::Result;
using common::Status;

std::vector<std::string> Strings(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return {node.as<std::string>()};
  for (const YAML::Node& item : node) out.push_back(item.as<std::string>());
  return out;
}

Status LoadKeyspaces(const YAML::Node& node, WorkflowModel* out) {
  for (const auto& entry : node) {
    Keyspace keyspace;
    keyspace.name = entry.first.as<std::string>();
    keyspace.replication_factor = entry.second["replication_factor"].as<int>(1);
    out->keyspaces.push_back(keyspace);
  }
  return Status::Ok();
}

Status LoadTypes(const YAML::Node& node, WorkflowModel* out) {
  for (const auto& entry : node) {
    UserTypeDefinition type{entry.first.as<std::string>(), {}};
    for (const auto& field : entry.second) {
      type.fields.emplace_back(field.first.as<std::string>(), field.second.as<std::string>());
    }
    out->types.push_back(std::move(type));
  }
  return Status::Ok();
}

Result<Attribute> LoadAttribute(const std::string& entity, const std::string& name,
                                const YAML::Node& node) {
  Attribute attribute{name, "", "", ""};
  if (node.IsScalar()) {
    attribute.type = node.as<std::string>();
    return attribute;
  }
  attribute.type = node["type"].as<std::string>("");
  attribute.collection = node["collection"].as<std::string>("");
  attribute.key_type = node["key_type"].as<std::string>("");
  if (attribute.type.empty()) {
    return Status::Invalid(fmt::format("attribute {}.{} has no type", entity, name));
  }
  static const std::set<std::string> kCollections = {"", "set", "list", "map"};
  if (kCollections.count(attribute.collection) == 0) {
    return Status::Invalid(
        fmt::format("attribute {}.{}: collection must be set, list or map", entity, name));
  }
  if ((attribute.collection == "map") != !attribute.key_type.empty()) {
    return Status::Invalid(
        fmt::format("attribute {}.{}: key_type goes with collection: map", entity, name));
  }
  return attribute;
}

Result<Entity> LoadEntity(const std::string& name, const YAML::Node& node) {
  Entity entity;
  entity.name = name;
  entity.short_name = node["short"].as<std::string>("");
  entity.plural = node["plural"].as<std::string>("");
  if (entity.short_name.empty() || entity.plural.empty()) {
    return Status::Invalid(fmt::format("entity {} needs `short` and `plural` names", name));
  }
  entity.key = Strings(node["key"]);
  if (entity.key.empty()) return Status::Invalid(fmt::format("entity {} has no key", name));
  for (const YAML::Node& unique : node["unique"]) entity.unique.push_back(Strings(unique));
  for (const auto& attribute : node["attributes"]) {
    ASSIGN_OR_RETURN(Attribute loaded,
                     LoadAttribute(name, attribute.first.as<std::string>(), attribute.second));
    entity.attributes.push_back(std::move(loaded));
  }
  return entity;
}

Status LoadRelationships(const YAML::Node& node, WorkflowModel* out) {
  static const std::set<std::string> kCardinalities = {"1:1", "1:n", "n:1", "n:m"};
  for (const YAML::Node& item : node) {
    Relationship relationship{item["name"].as<std::string>(""), item["from"].as<std::string>(""),
                              item["to"].as<std::string>(""),
                              item["cardinality"].as<std::string>("")};
    for (const std::string& end : {relationship.from, relationship.to}) {
      if (out->FindEntity(end) == nullptr) {
        return Status::Invalid(
            fmt::format("relationship {} names unknown entity '{}'", relationship.name, end));
      }
    }
    if (kCardinalities.count(relationship.cardinality) == 0) {
      return Status::Invalid(fmt::format(
          "relationship {}: cardinality must be 1:1, 1:n, n:1 or n:m", relationship.name));
    }
    out->relationships.push_back(std::move(relationship));
  }
  return Status::Ok();
}

Result<OrderBy> ParseOrder(const std::string& query, const std::string& text) {
  std::istringstream words(text);
  OrderBy order;
  std::string direction;
  words >> order.attribute >> direction;
  std::transform(direction.begin(), direction.end(), direction.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (order.attribute.empty() || (direction != "" && direction != "asc" && direction != "desc")) {
    return Status::Invalid(
        fmt::format("query {}: order '{}' is not `attribute [asc|desc]`", query, text));
  }
  order.descending = direction == "desc";
  return order;
}

Result<AccessPattern> LoadQuery(const std::string& id, const YAML::Node& node) {
  AccessPattern query;
  query.id = id;
  query.description = node["description"].as<std::string>("");
  query.keyspace = node["keyspace"].as<std::string>("");
  query.entity = node["entity"].as<std::string>("");
  if (query.keyspace.empty() || query.entity.empty()) {
    return Status::Invalid(fmt::format("query {} needs a keyspace and an entity", id));
  }
  query.equality = Strings(node["equality"]);
  if (query.equality.empty()) {
    return Status::Invalid(
        fmt::format("query {} has no equality attribute: it would scan every "
                    "partition",
                    id));
  }
  query.range = Strings(node["range"]);
  for (const std::string& text : Strings(node["order"])) {
    ASSIGN_OR_RETURN(OrderBy order, ParseOrder(id, text));
    query.order.push_back(order);
  }
  query.columns = Strings(node["columns"]);
  for (const auto& rename : node["rename"]) {
    query.rename[rename.first.as<std::string>()] = rename.second.as<std::string>();
  }
  query.table = node["table"].as<std::string>("");
  query.after = Strings(node["after"]);
  query.rows = node["rows"].as<std::string>("");
  query.span_days = node["span_days"].as<double>(0);
  return query;
}

Status LoadSections(const YAML::Node& root, WorkflowModel* out) {
  RETURN_IF_ERROR(LoadKeyspaces(root["keyspaces"], out));
  RETURN_IF_ERROR(LoadTypes(root["types"], out));
  for (const auto& entry : root["entities"]) {
    ASSIGN_OR_RETURN(Entity entity, LoadEntity(entry.first.as<std::string>(), entry.second));
    if (out->FindEntity(entity.name) != nullptr) {
      return Status::Invalid(fmt::format("entity {} is defined twice", entity.name));
    }
    out->entities.push_back(std::move(entity));
  }
  RETURN_IF_ERROR(LoadRelationships(root["relationships"], out));
  for (const auto& entry : root["queries"]) {
    ASSIGN_OR_RETURN(AccessPattern query, LoadQuery(entry.first.as<std::string>(), entry.second));
    out->queries.push_back(std::move(query));
  }
  return Status::Ok();
}

// The names the sections refer to exist.
Status CheckReferences(const WorkflowModel& model) {
  for (const AccessPattern& query : model.queries) {
    if (model.FindEntity(query.entity) == nullptr) {
      return Status::Invalid(
          fmt::format("query {} reads unknown entity '{}'", query.id, query.entity));
    }
    auto keyspace = std::find_if(model.keyspaces.begin(), model.keyspaces.end(),
                                 [&](const Keyspace& k) { return k.name == query.keyspace; });
    if (keyspace == model.keyspaces.end()) {
      return Status::Invalid(
          fmt::format("query {} names unknown keyspace '{}'", query.id, query.keyspace));
    }
    for (const std::string& before : query.after) {
      if (model.FindQuery(before) == nullptr) {
        return Status::Invalid(
            fmt::format("query {} follows unknown query '{}'", query.id, before));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<WorkflowModel> LoadWorkflow(std::string_view yaml_text) {
  WorkflowModel model;
  try {
    YAML::Node root = YAML::Load(std::string(yaml_text));
    if (!root.IsMap()) return Status::Invalid("a workflow file is a YAML mapping");
    RETURN_IF_ERROR(LoadSections(root, &model));
  } catch (const YAML::Exception& e) {
    return Status::Invalid(fmt::format("invalid workflow file: {}", e.what()));
  }
  RETURN_IF_ERROR(CheckReferences(model));
  return model;
}

Result<WorkflowModel> LoadWorkflowFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return LoadWorkflow(text.str());
}

}  // namespace model
