// Result formatting for the `cql` shell: result sets as cqlsh (Cassandra 4.1, no colour)
// prints them.
//
// Pipeline position: the shell executes a statement through a `cql::Session`, then turns the
// `cql::ResultSet` (one page at a time) into text with these functions; cell values are
// formatted by `cql::FormatNullableValue` (cql/types/value_format.h).
//
// cqlsh's layout (pylib/cqlshlib, print_result and friends), reproduced here:
//   - A SELECT prints a blank line, then per page a table: the header ` name | name`
//     (names left-aligned, the line right-trimmed), a separator `-----+------`, and each row
//     ` value | value` with every value right-aligned to its column's width. Widths are
//     terminal columns (wide East Asian characters count two, combining marks zero) and are
//     computed per page. Outside a terminal the header is printed for the first page only;
//     at a terminal every page has one and is followed by a blank line. Then a blank line
//     (outside a terminal) and `(N rows)`, "rows" even for one.
//   - An empty result prints the header, the separator and a blank line.
//   - EXPAND ON prints each row as a block: `@ Row N`, a separator, then ` name | value`
//     lines (names left-aligned), and a blank line.
//   - Rows from a statement other than SELECT (the `[applied]` row of a lightweight
//     transaction) print as one table with a header and no row count.
//   - With colour (at a terminal only), as cqlsh: column names bold magenta, text values bold
//     yellow, blobs bold red, collections, tuples and UDTs bold blue, other values bold green.
//   - Warnings print after the result as `Warnings :` followed by each warning and a blank
//     line.
//   - DESCRIBE (run by the server) prints each `create_statement` between blank lines;
//     listings (DESCRIBE KEYSPACES, TABLES, TYPES, FUNCTIONS, AGGREGATES) print names in
//     columns as Python's `cmd.columnize` does, grouped under `Keyspace ks` headings when no
//     keyspace is in use; DESCRIBE CLUSTER prints `Cluster:`, `Partitioner:` and `Snitch:`.
//
// Thread-safety: free functions are stateless; a RowsFormatter is not thread-safe.

#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cql/session.h"
#include "cql/types/value_format.h"

namespace shell {

// The number of terminal columns `text` (UTF-8) occupies: two for wide and full-width East
// Asian characters and emoji, zero for combining marks and zero-width characters, one for
// anything else, including each byte of invalid UTF-8.
size_t DisplayWidth(std::string_view text);

// How results are shown.
struct TableStyle {
  bool tty = false;     // the statement came from a terminal (cqlsh's `tty`)
  bool expand = false;  // EXPAND ON: one block per row
  cql::CqlshFormatOptions values;
  bool colour = false;  // ANSI colours (only ever at a terminal)
};

// A page of a result with every cell formatted.
struct FormattedRows {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;  // each row has names.size() cells
  // cqlsh's ANSI colour of each column's values (FormatRows fills it; empty: no colours known).
  std::vector<std::string> colours;
};

// The column names and formatted cells of `result` (nulls as "null").
FormattedRows FormatRows(const cql::ResultSet& result, const cql::CqlshFormatOptions& options);

// cqlsh's horizontal table for one page: the header and separator when `with_header`, then the
// rows; a blank line after the rows when `tty`. With no rows: header, separator, blank line.
// `colour`: names and values in cqlsh's colours (widths are unchanged).
std::string FormatTable(const FormattedRows& page, bool with_header, bool tty, bool colour = false);

// cqlsh's EXPAND ON layout for one page whose first row is row number `first_row` (1-based).
// REQUIRES: `page.rows` is not empty.
std::string FormatVertical(const FormattedRows& page, size_t first_row, bool colour = false);

// `words` laid out in as few rows as fit `width` columns, column by column, columns two spaces
// apart, as Python's `cmd.Cmd.columnize` does; "<empty>" for no words.
std::string Columnize(const std::vector<std::string>& words, size_t width = 80);

// Formats the pages of one SELECT as they arrive.
class RowsFormatter {
 public:
  explicit RowsFormatter(const TableStyle& style) : style_(style) {}

  // The text of the next page. The first page is always printed, even when empty; later empty
  // pages print nothing.
  std::string Page(const cql::ResultSet& page);
  // The text after the last page: a blank line outside a terminal, then `(N rows)`.
  std::string Finish() const;
  size_t row_count() const { return row_count_; }

 private:
  TableStyle style_;
  bool first_ = true;
  size_t row_count_ = 0;
};

// The rows a statement other than SELECT returned (an LWT's `[applied]` row and current
// values): a blank line and a table with its header; nothing when there are no rows.
std::string FormatStaticResult(const cql::ResultSet& result, const TableStyle& style);

// The warnings block, or nothing when there are none.
std::string FormatWarnings(const std::vector<std::string>& warnings);

// What a DESCRIBE statement asked for, which decides how its rows print.
enum class DescribeKind : uint8_t { kKeyspaces, kListing, kCluster, kElements };

// The kind of `statement`, a DESCRIBE or DESC statement, from its second word (as cqlsh
// decides): KEYSPACES; TABLES, COLUMNFAMILIES, TYPES, FUNCTIONS or AGGREGATES; CLUSTER; or
// anything else.
DescribeKind DescribeKindOf(std::string_view statement);

// The output of a DESCRIBE whose rows (every page) are in `result`. `in_keyspace`: a keyspace
// is in use (listings then omit the keyspace headings). Columns are found by name
// (keyspace_name, name, create_statement; cluster, partitioner, snitch) and their text printed
// as is; missing columns and non-text cells print as empty text.
std::string FormatDescribe(DescribeKind kind, const cql::ResultSet& result, bool in_keyspace);

}  // namespace shell
