// `cqlmodel`: the seeds' data-modeling method as a tool (docs/cqlmodel.md).
//
//   cqlmodel size SCHEMA.cql [-k KS] [--rows TABLE=N ...] [--value-size KEY=BYTES ...]
//                 [--span TABLE=DAYS ...] [--default-rows N] [--elements N] [--json]
//                 [--host H [--port P] [--username U] [--source S] [--max-rows N]]
//       The seeds' Nv and St per partition of every table (src/model/partition_size.h), the
//       tables over 100,000 values or 100 MB, and bucketing proposals with their sizes. With
//       --host, also the partitions measured on that server through the driver
//       (src/model/partition_measure.h) from --source: scan (default: a paged read, exact),
//       estimates (system.size_estimates) or histograms (cqld's partition_histograms), and
//       bucketing proposals for measured partitions over the limits; the password comes from
//       CQLMODEL_PASSWORD.
//   cqlmodel lint SCHEMA.cql [-k KS] [--queries QUERIES.cql] [--disable RULE,...]
//                 [--allow RULE[:TABLE] ...] [--json]
//       Findings with rule id, severity, reasoning and fix (src/model/lint.h). Exits 1 when
//       there is an error-level finding, so CI can gate on it. Findings the schema accepts
//       (`-- cqlmodel: allow RULE REASON` comments, src/model/lint_suppression.h) or --allow
//       names are reported apart and do not count.
//   cqlmodel diagram SCHEMA.cql [-k KS] [-o OUT] [--format svg|dot] [--logical]
//                    [--workflow WORKFLOW.yaml]
//       The Chebotko physical diagram (src/model/diagram.h), or with --logical the logical one
//       (no types), SVG by default, to stdout or OUT; with --workflow, the arrows of the
//       application's workflow between the tables of its queries (src/model/derive.h).
//   size, lint and diagram without SCHEMA.cql read the schema of the --host server (its
//   DESCRIBE SCHEMA, or DESCRIBE KEYSPACE KS with -k; src/model/schema_model.h).
//   cqlmodel derive WORKFLOW.yaml [-o DIR] [--format cql|json|svg|dot|size] [--logical]
//       The seeds' mapping from a conceptual model and its access patterns to tables
//       (src/model/derive.h): the CQL schema by default, the logical model as JSON, the diagram
//       with the workflow arrows, or the size report, to stdout; with -o, every format (or the
//       one --format names) into DIR as <workflow name>.<cql|json|svg|dot|size.txt>.
//
// Exit status: 0 done, 1 lint errors, 2 bad usage or a schema that does not load.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "client/remote_session.h"
#include "model/derive.h"
#include "model/diagram.h"
#include "model/lint.h"
#include "model/lint_suppression.h"
#include "model/partition_size.h"
#include "model/schema_model.h"

namespace {

constexpr const char* kUsage =
    "usage: cqlmodel size SCHEMA.cql [-k KS] [--rows TABLE=N ...] [--value-size KEY=BYTES ...]\n"
    "                     [--span TABLE=DAYS ...] [--default-rows N] [--elements N] [--json]\n"
    "                     [--host H [--port P] [--username U]\n"
    "                      [--source scan|estimates|histograms] [--max-rows N]]\n"
    "       cqlmodel lint SCHEMA.cql [-k KS] [--queries QUERIES.cql] [--disable RULE,...]\n"
    "                     [--allow RULE[:TABLE] ...] [--json]\n"
    "       cqlmodel diagram SCHEMA.cql [-k KS] [-o OUT] [--format svg|dot] [--logical]\n"
    "                        [--workflow WORKFLOW.yaml]\n"
    "       cqlmodel derive WORKFLOW.yaml [-o DIR] [--format cql|json|svg|dot|size] "
    "[--logical]\n"
    "size, lint and diagram read the schema of the server --host H [--port P] [--username U]\n"
    "instead (its DESCRIBE SCHEMA) when SCHEMA.cql is left out.\n";

constexpr int kExitUsage = 2;

// The command line after the subcommand: the schema file and the flags, repeated ones in order.
struct Arguments {
  std::string schema;
  std::multimap<std::string, std::string> flags;

  bool Has(const std::string& name) const { return flags.count(name) > 0; }
  std::string Get(const std::string& name, const std::string& fallback = "") const {
    auto it = flags.find(name);
    return it == flags.end() ? fallback : it->second;
  }
  std::vector<std::string> All(const std::string& name) const {
    std::vector<std::string> values;
    for (auto [it, end] = flags.equal_range(name); it != end; ++it) values.push_back(it->second);
    return values;
  }
};

int Usage(const std::string& problem) {
  if (!problem.empty()) std::cerr << "cqlmodel: " << problem << "\n";
  std::cerr << kUsage;
  return kExitUsage;
}

// Parses argv[2..]; `allowed` lists the flags the subcommand takes, each with a value except
// the switches `--json` and `--logical`.
bool ParseArguments(int argc, char** argv, const std::vector<std::string>& allowed, Arguments* out,
                    std::string* problem) {
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') {
      if (std::find(allowed.begin(), allowed.end(), arg) == allowed.end()) {
        *problem = "unknown option " + arg;
        return false;
      }
      if (arg == "--json" || arg == "--logical") {  // switches, without a value
        out->flags.emplace(arg, "true");
        continue;
      }
      if (i + 1 >= argc) {
        *problem = arg + " needs a value";
        return false;
      }
      out->flags.emplace(arg, argv[++i]);
      continue;
    }
    if (!out->schema.empty()) {
      *problem = "one schema file expected, got " + out->schema + " and " + arg;
      return false;
    }
    out->schema = arg;
  }
  // Without a file, size, lint and diagram read the schema of the --host server.
  if (out->schema.empty() && !out->Has("--host")) *problem = "no input file given";
  return problem->empty();
}

bool SplitAssignment(const std::string& text, std::string* key, std::string* value) {
  size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) return false;
  *key = text.substr(0, equals);
  *value = text.substr(equals + 1);
  return true;
}

// Reads `--flag KEY=NUMBER` assignments into `target` through `parse`.
template <typename T>
bool ReadAssignments(const Arguments& args, const std::string& flag,
                     const std::function<bool(const std::string&, T*)>& parse,
                     std::map<std::string, T>* target, std::string* problem) {
  for (const std::string& assignment : args.All(flag)) {
    std::string key, value;
    T parsed{};
    if (!SplitAssignment(assignment, &key, &value) || !parse(value, &parsed)) {
      problem->assign("invalid ").append(flag).append(" ").append(assignment);
      return false;
    }
    (*target)[key] = parsed;
  }
  return true;
}

bool ParsePositive(const std::string& text, int64_t* out) {
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0) return false;
  *out = value;
  return true;
}

bool ParseRows(const std::string& text, double* out) {
  auto rows = model::ParseRowCount(text);
  if (!rows.ok()) return false;
  *out = *rows;
  return true;
}

bool ReadSizeAssumptions(const Arguments& args, model::SizeAssumptions* assumptions,
                         std::string* problem) {
  if (!ReadAssignments<double>(args, "--rows", ParseRows, &assumptions->rows, problem) ||
      !ReadAssignments<int64_t>(args, "--value-size", ParsePositive, &assumptions->value_sizes,
                                problem) ||
      !ReadAssignments<double>(args, "--span", ParseRows, &assumptions->span_days, problem)) {
    return false;
  }
  if (std::string rows = args.Get("--default-rows"); !rows.empty()) {
    if (!ParseRows(rows, &assumptions->default_rows)) {
      *problem = "invalid --default-rows " + rows;
      return false;
    }
  }
  if (std::string elements = args.Get("--elements"); !elements.empty()) {
    if (!ParsePositive(elements, &assumptions->collection_elements)) {
      *problem = "invalid --elements " + elements;
      return false;
    }
  }
  return true;
}

// A driver session to the server of --host/--port (--username, CQLMODEL_PASSWORD); null after
// reporting why it could not connect.
std::unique_ptr<client::RemoteSession> Connect(const Arguments& args) {
  client::ClientOptions options;
  options.contact_points = {args.Get("--host") + ":" + args.Get("--port", "9042")};
  options.username = args.Get("--username");
  if (const char* password = std::getenv("CQLMODEL_PASSWORD")) options.password = password;
  auto session = client::RemoteSession::Connect(options);
  if (!session.ok()) {
    std::cerr << "cqlmodel: " << options.contact_points[0] << ": " << session.status().message()
              << "\n";
    return nullptr;
  }
  return *std::move(session);
}

// The schema of SCHEMA.cql or, without one, of the --host server (its DESCRIBE SCHEMA, or
// DESCRIBE KEYSPACE with -k); nullopt after reporting why it did not load.
std::optional<model::SchemaModel> LoadSchemaOf(const Arguments& args) {
  std::string source = args.schema;
  common::Result<model::SchemaModel> schema = common::Status::Invalid("");
  if (!args.schema.empty()) {
    schema = model::LoadSchemaFile(args.schema);
  } else {
    std::unique_ptr<client::RemoteSession> session = Connect(args);
    if (session == nullptr) return std::nullopt;
    source = args.Get("--host") + ":" + args.Get("--port", "9042");
    common::Result<std::string> text = model::DescribeServerSchema(*session, args.Get("-k"));
    schema =
        text.ok() ? model::LoadSchema(*text) : common::Result<model::SchemaModel>(text.status());
  }
  if (!schema.ok()) {
    std::cerr << "cqlmodel: " << source << ": " << schema.status().message() << "\n";
    return std::nullopt;
  }
  return *std::move(schema);
}

// Connects to the server of --host/--port through the driver and measures every report's table.
// Returns 0, or the exit status of a failure it has reported.
int Measure(const model::SchemaModel& schema, const Arguments& args,
            std::vector<model::SizeReport>* reports) {
  int64_t max_rows = 1'000'000;
  if (std::string text = args.Get("--max-rows"); !text.empty() && !ParsePositive(text, &max_rows)) {
    return Usage("invalid --max-rows " + text);
  }
  auto parsed = model::ParseMeasureSource(args.Get("--source", "scan"));
  if (!parsed.ok()) return Usage(parsed.status().message());
  const model::MeasureSource source = *parsed;
  std::unique_ptr<client::RemoteSession> session = Connect(args);
  if (session == nullptr) return kExitUsage;
  model::MeasureReports(*session, schema, source, max_rows, reports);
  return 0;
}

int Size(const model::SchemaModel& schema, const Arguments& args) {
  model::SizeAssumptions assumptions;
  std::string problem;
  if (!ReadSizeAssumptions(args, &assumptions, &problem)) return Usage(problem);
  std::vector<model::SizeReport> reports =
      model::EstimateSchema(schema, args.Get("-k"), assumptions);
  if (args.Has("--host")) {
    int status = Measure(schema, args, &reports);
    if (status != 0) return status;
    model::ProposeFromMeasurements(schema, assumptions, &reports);
  } else if (args.Has("--source")) {
    return Usage("--source needs --host");
  }
  std::cout << (args.Has("--json") ? model::SizeReportsJson(reports)
                                   : model::FormatSizeReports(reports));
  return 0;
}

// The suppressions of the schema file's `cqlmodel: allow` comments and of --allow, less those
// of rules turned off and of keyspaces -k leaves out (they could only look unused).
bool ReadLintSuppressions(const Arguments& args, const std::vector<std::string>& disabled,
                          std::vector<model::Suppression>* out, std::string* problem) {
  std::stringstream text;
  if (!args.schema.empty()) {  // a server's schema has no comments
    std::ifstream file(args.schema, std::ios::binary);
    text << file.rdbuf();
  }
  auto read = model::ReadSuppressions(text.str(), args.schema);
  if (!read.ok()) {
    *problem = read.status().message();
    return false;
  }
  const std::string keyspace = args.Get("-k");
  for (model::Suppression& suppression : *read) {
    if (std::find(disabled.begin(), disabled.end(), suppression.rule) != disabled.end()) continue;
    if (!keyspace.empty() && !suppression.object.starts_with(keyspace + ".")) continue;
    out->push_back(std::move(suppression));
  }
  for (const std::string& allow : args.All("--allow")) {
    auto parsed = model::ParseAllowFlag(allow);
    if (!parsed.ok()) {
      *problem = parsed.status().message();
      return false;
    }
    out->push_back(*std::move(parsed));
  }
  return true;
}

int Lint(const model::SchemaModel& schema, const Arguments& args) {
  std::vector<model::Query> queries;
  if (std::string path = args.Get("--queries"); !path.empty()) {
    auto loaded = model::LoadQueriesFile(path);
    if (!loaded.ok()) {
      std::cerr << "cqlmodel: " << path << ": " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    queries = *std::move(loaded);
  }
  std::vector<std::string> disabled;
  for (const std::string& list : args.All("--disable")) {
    std::stringstream stream(list);
    for (std::string rule; std::getline(stream, rule, ',');) {
      const std::vector<std::string>& rules = model::LintRules();
      if (std::find(rules.begin(), rules.end(), rule) == rules.end()) {
        return Usage("unknown lint rule " + rule);
      }
      disabled.push_back(rule);
    }
  }
  std::vector<model::Suppression> suppressions;
  std::string problem;
  if (!ReadLintSuppressions(args, disabled, &suppressions, &problem)) {
    std::cerr << "cqlmodel: " << problem << "\n";
    return kExitUsage;
  }
  model::LintReport report = model::ApplySuppressions(
      model::Lint(schema, queries, args.Get("-k"), disabled), suppressions);
  std::cout << (args.Has("--json") ? model::LintReportJson(report)
                                   : model::FormatLintReport(report));
  return model::HasErrors(report.findings) ? 1 : 0;
}

// Writes `text` to `path`; false (reported) when it cannot.
bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) std::cerr << "cqlmodel: cannot write " << path << "\n";
  return static_cast<bool>(out);
}

// The diagram of `schema`, with the arrows of `workflow` when given.
std::string DiagramText(const model::SchemaModel& schema, const Arguments& args,
                        const std::string& format, const model::WorkflowModel* workflow) {
  model::DiagramLayout layout = model::LayOut(
      schema, args.Get("-k"),
      args.Has("--logical") ? model::DiagramForm::kLogical : model::DiagramForm::kPhysical,
      workflow == nullptr ? model::kGap : model::kArrowGap);
  if (workflow != nullptr) layout.arrows = model::WorkflowArrows(*workflow, layout);
  return format == "svg" ? model::RenderSvg(layout) : model::RenderDot(layout);
}

int Diagram(const model::SchemaModel& schema, const Arguments& args) {
  std::string format = args.Get("--format", "svg");
  if (format != "svg" && format != "dot") return Usage("--format is svg or dot");
  std::optional<model::WorkflowModel> workflow;
  if (std::string path = args.Get("--workflow"); !path.empty()) {
    auto loaded = model::LoadWorkflowFile(path);
    if (!loaded.ok()) {
      std::cerr << "cqlmodel: " << path << ": " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    workflow = *std::move(loaded);
  }
  std::string text = DiagramText(schema, args, format, workflow ? &*workflow : nullptr);
  std::string output = args.Get("-o");
  if (output.empty()) {
    std::cout << text;
    return 0;
  }
  return WriteFile(output, text) ? 0 : kExitUsage;
}

// One output of `derive` in `format`.
std::string DerivedText(const model::DerivedModel& derived, const model::SchemaModel& schema,
                        const Arguments& args, const std::string& format) {
  if (format == "cql") return model::DerivedCql(derived);
  if (format == "json") return model::DerivedJson(derived);
  if (format == "size") {
    return model::FormatSizeReports(
        model::EstimateSchema(schema, "", model::DerivedSizeAssumptions(derived)));
  }
  return DiagramText(schema, args, format, &derived.workflow);
}

int Derive(const Arguments& args) {
  static const std::vector<std::pair<std::string, std::string>> kFormats = {
      {"cql", ".cql"}, {"json", ".json"}, {"svg", ".svg"}, {"dot", ".dot"}, {"size", ".size.txt"}};
  std::string format = args.Get("--format");
  if (!format.empty() && std::none_of(kFormats.begin(), kFormats.end(),
                                      [&](const auto& f) { return f.first == format; })) {
    return Usage("--format is cql, json, svg, dot or size");
  }
  auto workflow = model::LoadWorkflowFile(args.schema);
  auto derived = workflow.ok() ? model::Derive(*workflow)
                               : common::Result<model::DerivedModel>(workflow.status());
  if (!derived.ok()) {
    std::cerr << "cqlmodel: " << args.schema << ": " << derived.status().message() << "\n";
    return kExitUsage;
  }
  auto schema = model::LoadSchema(model::DerivedCql(*derived));
  if (!schema.ok()) {  // a type the workflow file names that CQL does not know
    std::cerr << "cqlmodel: " << args.schema
              << ": the derived schema does not load: " << schema.status().message() << "\n";
    return kExitUsage;
  }
  std::string dir = args.Get("-o");
  if (dir.empty()) {
    std::cout << DerivedText(*derived, *schema, args, format.empty() ? "cql" : format);
    return 0;
  }
  std::filesystem::create_directories(dir);
  std::string stem = std::filesystem::path(args.schema).stem().string();
  for (const auto& [name, extension] : kFormats) {
    if (!format.empty() && name != format) continue;
    std::string path = (std::filesystem::path(dir) / (stem + extension)).string();
    if (!WriteFile(path, DerivedText(*derived, *schema, args, name))) return kExitUsage;
    std::cout << path << "\n";
  }
  return 0;
}

int Run(int argc, char** argv) {
  if (argc < 2) return Usage("");
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  static const std::map<std::string, std::vector<std::string>> kFlags = {
      {"size",
       {"-k", "--rows", "--value-size", "--span", "--default-rows", "--elements", "--host",
        "--port", "--username", "--source", "--max-rows", "--json"}},
      {"lint",
       {"-k", "--queries", "--disable", "--allow", "--json", "--host", "--port", "--username"}},
      {"diagram",
       {"-k", "-o", "--format", "--logical", "--workflow", "--host", "--port", "--username"}},
      {"derive", {"-o", "--format", "--logical"}},
  };
  auto flags = kFlags.find(command);
  if (flags == kFlags.end()) return Usage("unknown command " + command);
  Arguments args;
  std::string problem;
  if (!ParseArguments(argc, argv, flags->second, &args, &problem)) return Usage(problem);
  if (command == "derive") return Derive(args);
  std::optional<model::SchemaModel> schema = LoadSchemaOf(args);
  if (!schema.has_value()) return kExitUsage;
  if (command == "size") return Size(*schema, args);
  if (command == "lint") return Lint(*schema, args);
  return Diagram(*schema, args);
}

}  // namespace

// The library reports failures as values; what the standard library or Boost may throw
// (allocation, I/O streams) ends the run here with a message instead of an abort.
int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cqlmodel: " << e.what() << "\n";
    return kExitUsage;
  }
}
