// Writes the seed corpora of the binary fuzz targets, whose inputs are too structured for
// make_corpus.py to write by hand (they are made by the code under test):
//   catalog  EncodeCatalog of the seeds' schemas, the service schema and a script using every
//            catalogue feature (options, dropped columns, nested UDTs, an index, a view),
//            whole and after each statement of the last.
//   storage  row fragments, merge operand lists and keys of every StorageKeyShapes() shape, each
//            with the first byte storage_fuzz.cc expects.
// Usage: make_binary_corpus REPO_ROOT (built in the fuzz tree: `ninja -C build/fuzz
// make_binary_corpus`). Rewrites tests/fuzz/corpus/{catalog,storage}/; file names are an FNV-1a
// hash of the content. Table ids and schema versions are random, so every run rewrites the
// catalogue seeds.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cql/parser/literal.h"
#include "cql/parser/parser.h"
#include "schema/catalog_codec.h"
#include "schema/ddl.h"
#include "storage/row_fragment.h"
#include "tests/fuzz/storage_shapes.h"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "make_binary_corpus: %s\n", what.c_str());
  std::exit(1);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Write(const fs::path& folder, const std::string& data) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : data) hash = (hash ^ c) * 1099511628211ull;
  char name[17];
  std::snprintf(name, sizeof(name), "%016llx", static_cast<unsigned long long>(hash));
  std::ofstream(folder / name, std::ios::binary) << data;
}

void ResetFolder(const fs::path& folder) {
  fs::remove_all(folder);
  fs::create_directories(folder);
}

// Applies every statement of `script`, writing the catalogue after each one when `each`, and
// at the end in any case.
void WriteCatalogs(const fs::path& folder, const std::string& script, bool each) {
  auto statements = cql::ParseScript(script);
  if (!statements.ok()) Fail(statements.status().ToString());
  std::shared_ptr<const schema::Catalog> catalog = schema::Catalog::Empty();
  for (const cql::Statement& statement : *statements) {
    auto result = schema::ApplyDdl(*catalog, statement, "");
    if (!result.ok()) Fail(result.status().ToString());
    if (result->catalog != nullptr) catalog = result->catalog;
    if (each) Write(folder, schema::EncodeCatalog(*catalog));
  }
  Write(folder, schema::EncodeCatalog(*catalog));
}

constexpr const char* kEveryFeature = R"(
CREATE KEYSPACE extra WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 1}
  AND durable_writes = false;
CREATE TYPE extra.inner (a int, b frozen<list<text>>);
CREATE TYPE extra.outer (i frozen<inner>, m frozen<map<int, frozen<set<uuid>>>>);
CREATE TABLE extra.t (k int, c1 text, c2 timeuuid, s int STATIC,
  v1 list<frozen<map<text, int>>>, v2 outer, v3 frozen<outer>,
  v4 tuple<int, frozen<list<int>>>, v5 vector<float, 3>, v6 duration, gone set<int>,
  PRIMARY KEY ((k), c1, c2))
  WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC) AND comment = 'it''s'
  AND default_time_to_live = 7 AND gc_grace_seconds = 11
  AND compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '160'}
  AND caching = {'keys': 'ALL'} AND bloom_filter_fp_chance = 0.01 AND speculative_retry = '99p';
ALTER TABLE extra.t DROP gone USING TIMESTAMP 12345;
CREATE TABLE extra.counts (k int PRIMARY KEY, n counter);
CREATE INDEX t_s ON extra.t (s);
CREATE TABLE extra.base (id int PRIMARY KEY, name text, city text);
CREATE MATERIALIZED VIEW extra.by_city AS SELECT * FROM extra.base
  WHERE city IS NOT NULL AND id IS NOT NULL PRIMARY KEY (city, id);
)";

void CatalogCorpus(const fs::path& root) {
  fs::path folder = root / "tests/fuzz/corpus/catalog";
  ResetFolder(folder);
  Write(folder, schema::EncodeCatalog(*schema::Catalog::Empty()));
  fs::path seeds = root / "tests/data/seeds";
  WriteCatalogs(folder, ReadFile(seeds / "001_hotel.cql") + ReadFile(seeds / "001_reservation.cql"),
                false);
  WriteCatalogs(
      folder, ReadFile(seeds / "003_hotel.cql") + ReadFile(seeds / "003_reservation_with_view.cql"),
      false);
  std::string service = ReadFile(root / "schema/hotel_service.cql");
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"${prefix}", ""},
        {"${replication}", "{'class': 'SimpleStrategy', 'replication_factor': 1}"}}) {
    for (size_t at = service.find(from); at != std::string::npos; at = service.find(from, at)) {
      service.replace(at, from.size(), to);
    }
  }
  WriteCatalogs(folder, service, false);
  WriteCatalogs(folder, kEveryFeature, true);
}

std::vector<storage::RowFragment> SampleFragments() {
  using storage::Cell;
  using storage::CellKind;
  std::vector<storage::RowFragment> fragments(5);
  fragments[1].liveness = storage::LivenessInfo{1000, 0, 0};
  fragments[1].cells.push_back(Cell{1, std::nullopt, 1000, CellKind::kLive, 0, 0, "AZ123"});
  fragments[2].liveness = storage::LivenessInfo{2000, 60, 1900000000};
  fragments[2].cells.push_back(
      Cell{1, std::nullopt, 2000, CellKind::kExpiring, 60, 1900000000, "x"});
  fragments[2].cells.push_back(Cell{2, std::string("\x00\x00\x00\x01", 4), 2000, CellKind::kLive, 0,
                                    0, std::string("\x00\x00\x00\x07", 4)});
  fragments[2].cells.push_back(
      Cell{2, std::string("\x00\x00\x00\x02", 4), 2000, CellKind::kTombstone, 0, 1800000000, ""});
  fragments[3].deletion = storage::DeletionTime{1500, 1700000000};
  fragments[3].collection_deletions[2] = storage::DeletionTime{1499, 1700000000};
  fragments[3].cells.push_back(Cell{3, std::nullopt, 1600, CellKind::kLive, 0, 0, "after"});
  fragments[4].collection_deletions[2] = storage::DeletionTime{2500, 1700000001};
  fragments[4].cells.push_back(Cell{1, std::nullopt, 2000, CellKind::kLive, 0, 0, "y"});
  fragments[4].cells.push_back(
      Cell{2, std::string("\x00\x00\x00\x01", 4), 2600, CellKind::kLive, 0, 0, "z"});
  for (const auto& fragment : fragments) {
    if (!storage::ValidateRowFragment(fragment).ok()) Fail("an invalid sample fragment");
  }
  return fragments;
}

std::string Operand(const std::string& bytes) {
  return std::string{static_cast<char>(bytes.size() >> 8), static_cast<char>(bytes.size() & 0xff)} +
         bytes;
}

// Sample key values per shape (CQL literals), matching StorageKeyShapes() one for one.
struct ShapeValues {
  std::vector<const char*> partition_key;
  std::vector<const char*> clustering;
};

const std::vector<ShapeValues>& SampleKeyValues() {
  static const std::vector<ShapeValues> values = {
      {{"'AZ123'"}, {}},
      {{"'AZ123'"}, {"'2030-01-02'", "101"}},
      {{"'AZ123'", "101"}, {"'wifi'"}},
      {{"123e4567-e89b-12d3-a456-426614174000", "-42"},
       {"50554d6e-29bb-11e5-b345-feff819cdc9f", "-12345678901234567890", "0x00ff", "true", "-1.5"}},
      {{"3.140"},
       {"'127.0.0.1'", "'2015-05-03 13:30:54.234+0000'", "NaN", "-7", "'abc'",
        "'08:12:54.123456789'"}},
      {{"[1, 2]"},
       {"{'a': 1.0, 'b': 2.50}", "(1, 'x', 0.1)", "{street: '1 Main', city: 'Paris'}", "{1, -2}",
        "[1.0, 2.5]"}},
  };
  return values;
}

std::vector<common::Bytes> Evaluate(const std::vector<cql::CqlType>& types,
                                    const std::vector<const char*>& literals) {
  std::vector<common::Bytes> out;
  for (size_t i = 0; i < literals.size(); ++i) {
    auto term = cql::ParseTerm(literals[i]);
    if (!term.ok()) Fail(term.status().ToString());
    auto value = cql::EvaluateLiteral(types[i], *term, "value");
    if (!value.ok() || !value->has_value()) Fail(std::string("cannot evaluate ") + literals[i]);
    out.push_back(**value);
  }
  return out;
}

void KeySeeds(const fs::path& folder, size_t index) {
  const storage::KeyShape& shape = fuzz::StorageKeyShapes()[index];
  const ShapeValues& literals = SampleKeyValues()[index];
  std::vector<cql::CqlType> clustering_types;
  for (const auto& column : shape.clustering) clustering_types.push_back(column.type);
  auto pk = Evaluate(shape.partition_key, literals.partition_key);
  auto ck = Evaluate(clustering_types, literals.clustering);
  common::Bytes prefix = storage::PartitionPrefix(shape, pk);
  std::string key_mode(1, static_cast<char>((index << 2) | 2));
  std::string bound_mode(1, static_cast<char>((index << 2) | 3));
  Write(folder, key_mode + storage::PartitionDeletionKey(prefix));
  Write(folder, key_mode + storage::StaticRowKey(prefix));
  Write(folder, key_mode + storage::RowKey(shape, prefix, ck));
  std::vector<common::Bytes> first(ck.begin(), ck.begin() + std::min<size_t>(ck.size(), 1));
  storage::ClusteringBound start{first, storage::BoundSide::kBefore};
  storage::ClusteringBound end{ck, storage::BoundSide::kAfter};
  Write(folder, key_mode + storage::RangeTombstoneKey(shape, prefix, start, end));
  Write(folder, key_mode + storage::RangeTombstoneKey(shape, prefix, {}, {}));
  for (const storage::ClusteringBound& bound :
       {start, end, storage::ClusteringBound{first, storage::BoundSide::kAfter}}) {
    Write(folder, bound_mode + storage::RowBoundKey(shape, prefix, bound));
  }
}

void StorageCorpus(const fs::path& root) {
  fs::path folder = root / "tests/fuzz/corpus/storage";
  ResetFolder(folder);
  std::vector<storage::RowFragment> fragments = SampleFragments();
  std::vector<std::string> encoded;
  for (const auto& fragment : fragments) {
    encoded.push_back(storage::EncodeRowFragment(fragment));
    Write(folder, std::string(1, '\x00') + encoded.back());
  }
  for (size_t i = 0; i < encoded.size(); ++i) {
    for (size_t j = 0; j < encoded.size(); ++j) {
      Write(folder, "\x01" + Operand(encoded[i]) + Operand(encoded[j]) +
                        Operand(encoded[(i + j) % encoded.size()]));
    }
  }
  for (size_t index = 0; index < fuzz::StorageKeyShapes().size(); ++index) {
    KeySeeds(folder, index);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: make_binary_corpus REPO_ROOT");
  if (fuzz::StorageKeyShapes().size() != SampleKeyValues().size()) Fail("shape list mismatch");
  CatalogCorpus(argv[1]);
  StorageCorpus(argv[1]);
  return 0;
}
