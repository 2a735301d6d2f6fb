// CSV reading and writing for the shell's COPY command, in the dialect cqlsh uses (Python's
// `csv` module with cqlsh's defaults): a delimiter (`,`), a quote character (`"`) that
// encloses fields containing the delimiter, the quote, the escape character or a line break,
// and an escape character (`\`) that takes away the special meaning of the character after
// it. When the quote and escape characters are the same, a quote inside a quoted field is
// written doubled (`""`), as Python's `doublequote`.
//
// Unlike Python's reader, each field remembers whether it was quoted, so that an empty quoted
// field (`""`, an empty string) can be told from an empty unquoted one (null, by default).
//
// Pipeline position: COPY FROM (copy_from.h) splits the file into records with CsvReader;
// COPY TO (copy_to.h) writes each row with AppendCsvRecord.
//
// Thread-safety: a CsvReader is not thread-safe; AppendCsvRecord is a pure function.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace shell {

struct CsvDialect {
  char delimiter = ',';
  char quote = '"';
  char escape = '\\';
};

struct CsvField {
  std::string text;
  bool quoted = false;
};

struct CsvRecord {
  std::vector<CsvField> fields;
  int64_t line = 0;  // the 1-based line of the file where the record starts
  std::string raw;   // the record's text as it was in the file, without the line break
};

class CsvReader {
 public:
  // Reads records from `text`. REQUIRES: `text` outlives the reader.
  CsvReader(std::string_view text, CsvDialect dialect) : text_(text), dialect_(dialect) {}

  // The next record into `record`. Returns false at the end of the text. Blank lines are
  // skipped (as Python's reader does). A quoted field left open at the end of the text ends
  // there (the record is returned; `unterminated()` then tells).
  bool Next(CsvRecord* record);
  bool unterminated() const { return unterminated_; }

 private:
  std::string_view text_;
  CsvDialect dialect_;
  size_t position_ = 0;
  int64_t line_ = 1;
  bool unterminated_ = false;
};

// Appends `fields` as one record and a "\n" to `out`. A field is quoted when it is empty and
// `quote_empty` holds for it, or when it contains the delimiter, the quote, the escape
// character, a line break, or leading/trailing spaces.
void AppendCsvRecord(const std::vector<std::string>& fields, const std::vector<bool>& quote_empty,
                     const CsvDialect& dialect, std::string* out);

}  // namespace shell
