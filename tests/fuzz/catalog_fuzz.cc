// libFuzzer target for the schema-catalogue codec (schema/catalog_codec.h): the bytes a data
// directory's meta family holds, which the engine decodes every time it opens. Invariants:
// 1. DecodeCatalog never crashes or reads past the input, whatever the bytes.
// 2. A catalogue that decodes re-encodes into bytes that decode, and those encode to the same
//    bytes again (encode . decode is a fixed point after one step), with the same schema
//    version.
// 3. DESCRIBE FULL SCHEMA WITH INTERNALS over a decoded catalogue (what cqld runs on it)
//    never crashes.
// A violation aborts, so libFuzzer keeps the input (scripts/run-fuzzers moves it to
// tests/fuzz/regressions/catalog/). Seeds: tests/fuzz/make_binary_corpus.cc.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "schema/catalog_codec.h"
#include "schema/describe.h"

namespace {

[[noreturn]] void Violated(const char* what) {
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

void DescribeEverything(const schema::Catalog& catalog) {
  cql::Describe statement;
  statement.kind = cql::Describe::Kind::kSchema;
  statement.full = true;
  statement.with_internals = true;
  (void)schema::Describe(catalog, statement, "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto decoded = schema::DecodeCatalog(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!decoded.ok()) return 0;
  common::Bytes first = schema::EncodeCatalog(**decoded);
  auto again = schema::DecodeCatalog(first);
  if (!again.ok()) {
    std::fprintf(stderr, "%s\n", again.status().ToString().c_str());
    Violated("a re-encoded catalogue does not decode");
  }
  if ((*again)->schema_version() != (*decoded)->schema_version()) {
    Violated("the schema version changed in a round trip");
  }
  if (schema::EncodeCatalog(**again) != first) {
    Violated("a decoded catalogue re-encodes to other bytes");
  }
  DescribeEverything(**decoded);
  return 0;
}
