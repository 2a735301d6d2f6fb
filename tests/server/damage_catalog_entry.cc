// damage_catalog_entry DIR KEYSPACE TABLE: overwrites the stored definition of table
// KEYSPACE.TABLE in the (closed) data directory DIR with bytes no decoder accepts, leaving its
// data alone, so tests can check that cqld quarantines it and that `cqld --check` reports it
// (tests/server/cqld_check_test.sh). Exit status: 0 when written; 1 on an error; 2 on usage.

#include <cstdio>
#include <memory>
#include <string>

#include "common/clock.h"
#include "schema/catalog_store.h"
#include "storage/store.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: damage_catalog_entry DIR KEYSPACE TABLE\n");
    return 2;
  }
  common::SystemClock clock;
  storage::StoreOptions options;
  options.clock = &clock;
  options.create_if_missing = false;
  auto store = storage::Store::Open(argv[1], options);
  if (!store.ok()) {
    std::fprintf(stderr, "damage_catalog_entry: %s\n", store.status().ToString().c_str());
    return 1;
  }
  std::string key = schema::CatalogEntryKey(schema::EntryKind::kTable, argv[2], argv[3]);
  auto existing = (*store)->GetMeta(key);
  if (!existing.ok() || !existing->has_value()) {
    std::fprintf(stderr, "damage_catalog_entry: no stored table %s.%s\n", argv[2], argv[3]);
    return 1;
  }
  storage::WriteBatch batch;
  batch.PutMeta(key, std::string("\x02\x03 damaged on purpose"));
  common::Status written = (*store)->Write(batch);
  if (!written.ok()) {
    std::fprintf(stderr, "damage_catalog_entry: %s\n", written.ToString().c_str());
    return 1;
  }
  return 0;
}
