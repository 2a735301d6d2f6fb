#include "schema/system_table_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "common/ascii.h"

namespace schema {
namespace {

constexpr std::string_view kCompactionPackage = "org.apache.cassandra.db.compaction.";
constexpr std::string_view kCompressionPackage = "org.apache.cassandra.io.compress.";

std::optional<double> ParseDouble(std::string_view text) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int32_t> ParseInt(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int32_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::map<std::string, std::string> MapOf(const cql::PropertyValue& value) {
  std::map<std::string, std::string> out;
  for (const auto& [key, entry] : value.entries) out[key.text] = entry.text;
  return out;
}

std::string Qualify(std::string_view class_name, std::string_view package) {
  if (class_name.find('.') != std::string_view::npos) return std::string(class_name);
  return fmt::format("{}{}", package, class_name);
}

// Cassandra's speculative retry / additional write policy spellings, as stored.
std::string NormalizeRetryPolicy(std::string_view text) {
  const std::string lower = common::AsciiLower(text);
  if (lower == "always") return "ALWAYS";
  if (lower == "never" || lower == "none") return "NEVER";
  auto strip = [&](std::string_view suffix) -> std::optional<std::string> {
    if (lower.size() > suffix.size() && lower.ends_with(suffix)) {
      return lower.substr(0, lower.size() - suffix.size());
    }
    return std::nullopt;
  };
  if (auto number = strip("percentile")) return *number + "p";
  if (auto number = strip("ms")) return *number + "ms";
  if (auto number = strip("p")) return *number + "p";
  return std::string(text);
}

std::map<std::string, std::string> CachingOf(std::map<std::string, std::string> given) {
  std::map<std::string, std::string> caching = {{"keys", "ALL"}, {"rows_per_partition", "NONE"}};
  for (auto& [key, value] : given) {
    const std::string upper = common::AsciiUpper(value);
    caching[key] = (upper == "ALL" || upper == "NONE") ? upper : value;
  }
  return caching;
}

std::map<std::string, std::string> CompactionOf(std::map<std::string, std::string> given) {
  auto class_entry = given.find("class");
  if (class_entry != given.end()) {
    class_entry->second = Qualify(class_entry->second, kCompactionPackage);
  } else {
    given["class"] = fmt::format("{}SizeTieredCompactionStrategy", kCompactionPackage);
  }
  given.try_emplace("max_threshold", "32");
  given.try_emplace("min_threshold", "4");
  return given;
}

std::map<std::string, std::string> CompressionOf(std::map<std::string, std::string> given) {
  auto enabled = given.find("enabled");
  if (enabled != given.end() && common::AsciiLower(enabled->second) == "false") {
    return {{"enabled", "false"}};
  }
  if (enabled != given.end()) given.erase(enabled);
  auto legacy = given.find("sstable_compression");
  if (legacy != given.end()) {
    if (legacy->second.empty()) return {{"enabled", "false"}};
    given.try_emplace("class", legacy->second);
    given.erase(legacy);
  }
  auto legacy_chunk = given.find("chunk_length_kb");
  if (legacy_chunk != given.end()) {
    given.try_emplace("chunk_length_in_kb", legacy_chunk->second);
    given.erase(legacy_chunk);
  }
  auto class_entry = given.find("class");
  if (class_entry != given.end()) {
    class_entry->second = Qualify(class_entry->second, kCompressionPackage);
  } else {
    given["class"] = fmt::format("{}LZ4Compressor", kCompressionPackage);
  }
  given.try_emplace("chunk_length_in_kb", "16");
  return given;
}

std::map<std::string, common::Bytes> ExtensionsOf(const std::map<std::string, std::string>& given) {
  std::map<std::string, common::Bytes> out;
  for (const auto& [key, value] : given) {
    if (value.size() >= 2 && (value.starts_with("0x") || value.starts_with("0X"))) {
      auto bytes = common::FromHex(std::string_view(value).substr(2));
      if (bytes.ok()) {
        out[key] = bytes.value();
        continue;
      }
    }
    out[key] = value;
  }
  return out;
}

}  // namespace

EffectiveTableParams EffectiveParams(const TableOptions& options) {
  EffectiveTableParams params;
  params.comment = options.comment;
  params.default_time_to_live = options.default_time_to_live;
  params.gc_grace_seconds = options.gc_grace_seconds;
  params.caching = CachingOf({});
  params.compaction = CompactionOf({});
  params.compression = CompressionOf({});
  bool bloom_given = false;
  for (const cql::Property& property : options.other) {
    const std::string& name = property.name;
    const std::string& text = property.value.constant.text;
    const bool is_map = property.value.kind == cql::PropertyValue::Kind::kMap;
    if (name == "additional_write_policy" && !is_map) {
      params.additional_write_policy = NormalizeRetryPolicy(text);
    } else if (name == "speculative_retry" && !is_map) {
      params.speculative_retry = NormalizeRetryPolicy(text);
    } else if (name == "bloom_filter_fp_chance" && !is_map) {
      if (auto value = ParseDouble(text)) {
        params.bloom_filter_fp_chance = *value;
        bloom_given = true;
      }
    } else if (name == "crc_check_chance" && !is_map) {
      if (auto value = ParseDouble(text)) params.crc_check_chance = *value;
    } else if (name == "caching" && is_map) {
      params.caching = CachingOf(MapOf(property.value));
    } else if (name == "compaction" && is_map) {
      params.compaction = CompactionOf(MapOf(property.value));
    } else if (name == "compression" && is_map) {
      params.compression = CompressionOf(MapOf(property.value));
    } else if (name == "extensions" && is_map) {
      params.extensions = ExtensionsOf(MapOf(property.value));
    } else if (name == "cdc" && !is_map) {
      const std::string lower = common::AsciiLower(text);
      params.cdc = lower == "true" || lower == "1" || lower == "yes";
    } else if (name == "memtable" && !is_map) {
      params.memtable = text;
    } else if (name == "read_repair" && !is_map) {
      params.read_repair = common::AsciiUpper(text);
    } else if (name == "max_index_interval" && !is_map) {
      if (auto value = ParseInt(text)) params.max_index_interval = *value;
    } else if (name == "min_index_interval" && !is_map) {
      if (auto value = ParseInt(text)) params.min_index_interval = *value;
    } else if (name == "memtable_flush_period_in_ms" && !is_map) {
      if (auto value = ParseInt(text)) params.memtable_flush_period_in_ms = *value;
    }
  }
  if (!bloom_given && params.compaction["class"] ==
                          fmt::format("{}LeveledCompactionStrategy", kCompactionPackage)) {
    params.bloom_filter_fp_chance = 0.1;
  }
  return params;
}

std::string JavaDoubleToString(double value) {
  if (value != value) return "NaN";
  if (value == std::numeric_limits<double>::infinity()) return "Infinity";
  if (value == -std::numeric_limits<double>::infinity()) return "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  // Shortest round-trip digits in scientific form: d[.ddd]e±x.
  char buffer[64];
  auto [end, error] =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string text(buffer, error == std::errc() ? end : buffer);
  std::string sign;
  if (!text.empty() && text[0] == '-') {
    sign = "-";
    text.erase(0, 1);
  }
  const size_t e = text.find('e');
  std::string digits = text.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::atoi(text.c_str() + e + 1);
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    std::string out;
    if (exponent < 0) {
      out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else {
      const size_t integer_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integer_digits) {
        out = digits + std::string(integer_digits - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, integer_digits) + "." + digits.substr(integer_digits);
      }
    }
    return sign + out;
  }
  std::string mantissa = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
  return fmt::format("{}{}E{}", sign, mantissa, exponent);
}

}  // namespace schema
