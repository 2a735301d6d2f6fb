#include "shell/result_printer.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>

#include "common/ascii.h"

namespace shell {
namespace {

struct CodePointRange {
  char32_t first;
  char32_t last;
};

// Characters that take no column: combining marks, zero-width spaces and joiners, variation
// selectors, the byte order mark.
constexpr CodePointRange kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},   {0x064B, 0x065F},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x2060, 0x2064},   {0x20D0, 0x20FF},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

// East Asian wide and full-width characters and emoji: two columns.
constexpr CodePointRange kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F2FF}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

template <size_t N>
bool InRanges(const CodePointRange (&ranges)[N], char32_t code_point) {
  auto it = std::upper_bound(
      std::begin(ranges), std::end(ranges), code_point,
      [](char32_t value, const CodePointRange& range) { return value < range.first; });
  return it != std::begin(ranges) && code_point <= std::prev(it)->last;
}

size_t CodePointWidth(char32_t code_point) {
  if (code_point < 0x300) return 1;
  if (InRanges(kZeroWidth, code_point)) return 0;
  return InRanges(kWide, code_point) ? 2 : 1;
}

std::string LeftJustify(const std::string& text, size_t width) {
  size_t used = DisplayWidth(text);
  return used >= width ? text : text + std::string(width - used, ' ');
}

std::string RightJustify(const std::string& text, size_t width) {
  size_t used = DisplayWidth(text);
  return used >= width ? text : std::string(width - used, ' ') + text;
}

std::vector<size_t> ColumnWidths(const FormattedRows& page) {
  std::vector<size_t> widths;
  for (const std::string& name : page.names) widths.push_back(DisplayWidth(name));
  for (const std::vector<std::string>& row : page.rows) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
  }
  return widths;
}

// The text of a cell for DESCRIBE output, or "" when the column is missing, null or not text.
std::string TextCell(const cql::ResultSet& result, size_t row, int column) {
  if (column < 0) return "";
  return result.GetText(row, static_cast<size_t>(column)).value_or("");
}

}  // namespace

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  size_t i = 0;
  while (i < text.size()) {
    auto byte = static_cast<unsigned char>(text[i]);
    size_t length = 1;
    char32_t code_point = byte;
    if (byte >= 0xC0 && byte < 0xE0) {
      length = 2;
      code_point = byte & 0x1F;
    } else if (byte >= 0xE0 && byte < 0xF0) {
      length = 3;
      code_point = byte & 0x0F;
    } else if (byte >= 0xF0 && byte < 0xF8) {
      length = 4;
      code_point = byte & 0x07;
    }
    bool valid = byte < 0x80 || (length > 1 && i + length <= text.size());
    for (size_t k = 1; valid && k < length; ++k) {
      auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xC0) == 0x80;
      code_point = (code_point << 6) | (next & 0x3F);
    }
    if (!valid) {  // a stray or truncated byte takes one column
      ++width;
      ++i;
      continue;
    }
    width += CodePointWidth(code_point);
    i += length;
  }
  return width;
}

namespace {

// cqlsh's colours (its default colour map): bold magenta names, bold yellow text, bold red
// blobs, bold blue collections, bold green the rest.
constexpr std::string_view kNameColour = "\x1b[0;1;35m";
constexpr std::string_view kResetColour = "\x1b[0m";

std::string ValueColour(const cql::CqlType& type) {
  switch (type.kind()) {
    case cql::TypeKind::kText:
    case cql::TypeKind::kAscii:
      return "\x1b[0;1;33m";
    case cql::TypeKind::kBlob:
      return "\x1b[0;1;31m";
    default:
      return type.IsNative() ? "\x1b[0;1;32m" : "\x1b[0;1;34m";
  }
}

// `padded` (text padded with spaces) with its text, not its padding, coloured.
std::string Colour(const std::string& padded, std::string_view colour) {
  size_t begin = padded.find_first_not_of(' ');
  if (begin == std::string::npos) return padded;
  size_t end = padded.find_last_not_of(' ') + 1;
  return padded.substr(0, begin) + std::string(colour) + padded.substr(begin, end - begin) +
         std::string(kResetColour) + padded.substr(end);
}

}  // namespace

FormattedRows FormatRows(const cql::ResultSet& result, const cql::CqlshFormatOptions& options) {
  FormattedRows page;
  for (const cql::ColumnSpec& column : result.columns()) {
    page.names.push_back(column.name);
    page.colours.push_back(ValueColour(column.type));
  }
  for (size_t r = 0; r < result.row_count(); ++r) {
    std::vector<std::string> row;
    row.reserve(result.column_count());
    for (size_t c = 0; c < result.column_count(); ++c) {
      row.push_back(
          cql::FormatNullableValue(result.columns()[c].type, result.Value(r, c), options));
    }
    page.rows.push_back(std::move(row));
  }
  return page;
}

std::string FormatTable(const FormattedRows& page, bool with_header, bool tty, bool colour) {
  if (page.names.empty()) return "";
  std::vector<size_t> widths = ColumnWidths(page);
  std::string out;
  colour = colour && page.colours.size() == page.names.size();
  if (with_header) {
    std::string header;
    for (size_t c = 0; c < widths.size(); ++c) {
      if (c > 0) header += " | ";
      std::string name = LeftJustify(page.names[c], widths[c]);
      if (c + 1 == widths.size()) {
        while (!name.empty() && name.back() == ' ') name.pop_back();
      }
      header += colour ? Colour(name, kNameColour) : name;
    }
    while (!header.empty() && header.back() == ' ') header.pop_back();
    out += " " + header + "\n-";
    for (size_t c = 0; c < widths.size(); ++c) {
      if (c > 0) out += "-+-";
      out += std::string(widths[c], '-');
    }
    out += "-\n";
  }
  if (page.rows.empty()) return out + "\n";
  for (const std::vector<std::string>& row : page.rows) {
    out += ' ';
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      if (c > 0) out += " | ";
      out += colour ? Colour(RightJustify(row[c], widths[c]), page.colours[c])
                    : RightJustify(row[c], widths[c]);
    }
    out += '\n';
  }
  if (tty) out += '\n';
  return out;
}

std::string FormatVertical(const FormattedRows& page, size_t first_row, bool colour) {
  colour = colour && page.colours.size() == page.names.size();
  size_t name_width = 0;
  for (const std::string& name : page.names) name_width = std::max(name_width, DisplayWidth(name));
  size_t value_width = 0;
  for (const std::vector<std::string>& row : page.rows) {
    for (const std::string& cell : row) value_width = std::max(value_width, DisplayWidth(cell));
  }
  std::string separator =
      "-" + std::string(name_width, '-') + "-+-" + std::string(value_width, '-') + "-\n";
  std::string out;
  for (size_t r = 0; r < page.rows.size(); ++r) {
    out += "@ Row " + std::to_string(first_row + r) + "\n" + separator;
    for (size_t c = 0; c < page.rows[r].size() && c < page.names.size(); ++c) {
      std::string name = LeftJustify(page.names[c], name_width);
      out += " " + (colour ? Colour(name, kNameColour) : name) + " | " +
             (colour ? Colour(page.rows[r][c], page.colours[c]) : page.rows[r][c]) + "\n";
    }
    out += '\n';
  }
  return out;
}

std::string Columnize(const std::vector<std::string>& words, size_t width) {
  size_t size = words.size();
  if (size == 0) return "<empty>\n";
  if (size == 1) return words[0] + "\n";
  // Try every row count from one up until the columns fit.
  size_t rows = size;
  std::vector<size_t> widths = {0};
  for (size_t try_rows = 1; try_rows < size; ++try_rows) {
    size_t columns = (size + try_rows - 1) / try_rows;
    std::vector<size_t> try_widths;
    size_t total = 0;
    bool fits = true;
    for (size_t column = 0; column < columns; ++column) {
      size_t column_width = 0;
      for (size_t row = 0; row < try_rows && row + try_rows * column < size; ++row) {
        column_width = std::max(column_width, DisplayWidth(words[row + try_rows * column]));
      }
      try_widths.push_back(column_width);
      total += column_width + (column > 0 ? 2 : 0);
      if (total > width) {
        fits = false;
        break;
      }
    }
    if (fits) {
      rows = try_rows;
      widths = std::move(try_widths);
      break;
    }
  }
  size_t columns = widths.size();
  std::string out;
  for (size_t row = 0; row < rows; ++row) {
    std::vector<std::string> texts;
    for (size_t column = 0; column < columns; ++column) {
      size_t i = row + rows * column;
      texts.push_back(i < size ? words[i] : "");
    }
    while (!texts.empty() && texts.back().empty()) texts.pop_back();
    for (size_t column = 0; column < texts.size(); ++column) {
      if (column > 0) out += "  ";
      out += LeftJustify(texts[column], widths[column]);
    }
    out += '\n';
  }
  return out;
}

std::string RowsFormatter::Page(const cql::ResultSet& page) {
  std::string out;
  if (first_) out += '\n';
  if (first_ || !page.empty()) {
    FormattedRows rows = FormatRows(page, style_.values);
    if (rows.rows.empty()) {
      out += FormatTable(rows, /*with_header=*/true, style_.tty, style_.colour);
    } else if (style_.expand) {
      out += FormatVertical(rows, row_count_ + 1, style_.colour);
    } else {
      out += FormatTable(rows, first_ || style_.tty, style_.tty, style_.colour);
    }
    row_count_ += rows.rows.size();
  }
  first_ = false;
  return out;
}

std::string RowsFormatter::Finish() const {
  return (style_.tty ? "" : "\n") + ("(" + std::to_string(row_count_) + " rows)\n");
}

std::string FormatStaticResult(const cql::ResultSet& result, const TableStyle& style) {
  if (result.empty()) return "";
  FormattedRows rows = FormatRows(result, style.values);
  return "\n" + (style.expand ? FormatVertical(rows, 1, style.colour)
                              : FormatTable(rows, true, style.tty, style.colour));
}

std::string FormatWarnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return "";
  std::string out = "\nWarnings :\n";
  for (const std::string& warning : warnings) out += warning + "\n\n";
  return out;
}

DescribeKind DescribeKindOf(std::string_view statement) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < statement.size() && std::isspace(static_cast<unsigned char>(statement[i]))) ++i;
  };
  auto word = [&] {
    skip_space();
    size_t begin = i;
    while (i < statement.size() && !std::isspace(static_cast<unsigned char>(statement[i])) &&
           statement[i] != ';') {
      ++i;
    }
    return common::AsciiLower(statement.substr(begin, i - begin));
  };
  word();  // DESCRIBE or DESC
  std::string what = word();
  if (what == "keyspaces") return DescribeKind::kKeyspaces;
  if (what == "tables" || what == "columnfamilies" || what == "types" || what == "functions" ||
      what == "aggregates") {
    return DescribeKind::kListing;
  }
  if (what == "cluster") return DescribeKind::kCluster;
  return DescribeKind::kElements;
}

std::string FormatDescribe(DescribeKind kind, const cql::ResultSet& result, bool in_keyspace) {
  std::string out;
  switch (kind) {
    case DescribeKind::kElements: {
      int statement = result.ColumnIndex("create_statement");
      for (size_t r = 0; r < result.row_count(); ++r) {
        out += "\n" + TextCell(result, r, statement) + "\n";
      }
      break;
    }
    case DescribeKind::kKeyspaces: {
      int name = result.ColumnIndex("name");
      std::vector<std::string> names;
      for (size_t r = 0; r < result.row_count(); ++r) names.push_back(TextCell(result, r, name));
      out += "\n" + Columnize(names) + "\n";
      break;
    }
    case DescribeKind::kListing: {
      int keyspace_column = result.ColumnIndex("keyspace_name");
      int name = result.ColumnIndex("name");
      size_t r = 0;
      while (r < result.row_count()) {
        std::string keyspace = TextCell(result, r, keyspace_column);
        std::vector<std::string> names;
        for (; r < result.row_count() && TextCell(result, r, keyspace_column) == keyspace; ++r) {
          names.push_back(TextCell(result, r, name));
        }
        out += '\n';
        if (!in_keyspace) {
          out += "Keyspace " + keyspace + "\n---------" + std::string(keyspace.size(), '-') + "\n";
        }
        out += Columnize(names);
      }
      if (result.row_count() > 0) out += '\n';
      break;
    }
    case DescribeKind::kCluster: {
      int cluster = result.ColumnIndex("cluster");
      int partitioner = result.ColumnIndex("partitioner");
      int snitch = result.ColumnIndex("snitch");
      for (size_t r = 0; r < result.row_count(); ++r) {
        out += "\nCluster: " + TextCell(result, r, cluster) +
               "\nPartitioner: " + TextCell(result, r, partitioner) +
               "\nSnitch: " + TextCell(result, r, snitch) + "\n\n";
      }
      break;
    }
  }
  return out;
}

}  // namespace shell
