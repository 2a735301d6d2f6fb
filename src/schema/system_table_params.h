// Effective table parameters: every table option with Cassandra 4.1's default when the table
// does not set it, normalized the way Cassandra stores it (qualified class names, upper-case
// caching keywords, '99p' speculative retry...). Shared by the `system_schema.tables`/`views`
// rows (`system_tables.h`) and server-side DESCRIBE (`describe.h`), so both show the same
// values.
//
// Thread-safety: pure functions over immutable data.

#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/bytes.h"
#include "schema/catalog.h"

namespace schema {

struct EffectiveTableParams {
  std::string additional_write_policy = "99p";
  double bloom_filter_fp_chance = 0.01;
  std::map<std::string, std::string> caching;
  bool cdc = false;
  std::string comment;
  std::map<std::string, std::string> compaction;
  std::map<std::string, std::string> compression;
  std::string memtable = "default";
  double crc_check_chance = 1.0;
  int32_t default_time_to_live = 0;
  std::map<std::string, common::Bytes> extensions;
  int32_t gc_grace_seconds = 864000;
  int32_t max_index_interval = 2048;
  int32_t memtable_flush_period_in_ms = 0;
  int32_t min_index_interval = 128;
  std::string read_repair = "BLOCKING";
  std::string speculative_retry = "99p";
};

// The effective parameters of `options`. Values in `options.other` that do not parse (they
// were validated by DDL, so this only happens for odd spellings) keep the default.
EffectiveTableParams EffectiveParams(const TableOptions& options);

// Java's Double.toString: "0.01", "1.0", "1.0E-5", "1.2E7".
std::string JavaDoubleToString(double value);

}  // namespace schema
