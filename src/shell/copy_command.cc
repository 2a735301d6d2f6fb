#include "shell/copy_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "common/ascii.h"
#include "cql/parser/literal.h"
#include "cql/parser/parser.h"
#include "cql/types/value_format.h"

namespace shell {
namespace {

// A token of a COPY command.
struct Token {
  enum class Kind : uint8_t { kWord, kQuotedName, kString, kSymbol };
  Kind kind;
  std::string text;  // names unquoted; strings without quotes and with '' undone
};

common::Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  auto improper = [] { return common::Status::Invalid("Improper COPY command."); };
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      std::string value;
      size_t j = i + 1;
      bool closed = false;
      while (j < text.size()) {
        if (text[j] == c) {
          if (j + 1 < text.size() && text[j + 1] == c) {
            value += c;
            j += 2;
            continue;
          }
          closed = true;
          ++j;
          break;
        }
        value += text[j++];
      }
      if (!closed) return improper();
      tokens.push_back({c == '\'' ? Token::Kind::kString : Token::Kind::kQuotedName, value});
      i = j;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' ||
               c == '/' || c == '~') {
      size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
             std::string_view("(),.=;'\"").find(text[j]) == std::string_view::npos) {
        ++j;
      }
      // A number with a decimal point (0.5) stays one word.
      while (j + 1 < text.size() && text[j] == '.' &&
             std::isdigit(static_cast<unsigned char>(text[j + 1])) &&
             std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i),
                         text.begin() + static_cast<std::ptrdiff_t>(j),
                         [](char d) { return std::isdigit(static_cast<unsigned char>(d)); })) {
        ++j;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      }
      tokens.push_back({Token::Kind::kWord, std::string(text.substr(i, j - i))});
      i = j;
    } else {
      tokens.push_back({Token::Kind::kSymbol, std::string(1, c)});
      ++i;
    }
  }
  return tokens;
}

// A name as CQL must spell it: unquoted names fold to lower case.
std::string NameOf(const Token& token) {
  std::string name =
      token.kind == Token::Kind::kQuotedName ? token.text : common::AsciiLower(token.text);
  return cql::QuoteIdentifierIfNeeded(name);
}

// Option values as cqlsh reads them: Python string escapes undone (DELIMITER='\t').
std::string Unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    char next = text[++i];
    switch (next) {
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      default:
        out += '\\';
        out += next;
    }
  }
  return out;
}

template <typename Integer>
common::Status ParseInteger(const std::string& name, const std::string& value, Integer* out) {
  Integer parsed = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size()) {
    return common::Status::Invalid(
        fmt::format("Invalid value for COPY option {}: {}", common::AsciiUpper(name), value));
  }
  *out = parsed;
  return common::Status::Ok();
}

common::Status ParseChar(const std::string& name, const std::string& value, char* out) {
  if (value.size() != 1) {
    return common::Status::Invalid(
        fmt::format("Invalid value for COPY option {}: {} (must be one character)",
                    common::AsciiUpper(name), value));
  }
  *out = value[0];
  return common::Status::Ok();
}

// BOOLSTYLE='yes,no': the texts of true and false.
common::Status ApplyBoolStyle(const std::string& value, CopyOptions* options) {
  size_t comma = value.find(',');
  auto trim = [](std::string text) {
    while (!text.empty() && text.front() == ' ') text.erase(0, 1);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  };
  if (comma == std::string::npos) return common::Status::Invalid("Invalid boolean styles " + value);
  options->bool_true = trim(value.substr(0, comma));
  options->bool_false = trim(value.substr(comma + 1));
  if (options->bool_true.empty() || options->bool_false.empty() ||
      options->bool_true == options->bool_false) {
    return common::Status::Invalid("Invalid boolean styles " + value);
  }
  return common::Status::Ok();
}

// SKIPCOLS='a, b': the column names, spaces around them trimmed, empty ones left out.
std::vector<std::string> SplitColumnList(const std::string& value) {
  std::vector<std::string> columns;
  size_t begin = 0;
  while (begin <= value.size()) {
    size_t comma = value.find(',', begin);
    if (comma == std::string::npos) comma = value.size();
    std::string column = value.substr(begin, comma - begin);
    while (!column.empty() && column.front() == ' ') column.erase(0, 1);
    while (!column.empty() && column.back() == ' ') column.pop_back();
    if (!column.empty()) columns.push_back(column);
    begin = comma + 1;
  }
  return columns;
}

// Applies option `name` (lower case) = `value` (unescaped) when it is one cqlsh has for both
// directions. Returns false when it is not.
common::Result<bool> ApplySharedOption(const std::string& name, const std::string& value,
                                       CopyOptions* options) {
  if (name == "delimiter") {
    RETURN_IF_ERROR(ParseChar(name, value, &options->dialect.delimiter));
    return true;
  }
  if (name == "quote") {
    RETURN_IF_ERROR(ParseChar(name, value, &options->dialect.quote));
    return true;
  }
  if (name == "escape") {
    RETURN_IF_ERROR(ParseChar(name, value, &options->dialect.escape));
    return true;
  }
  if (name == "header") {
    options->header = common::AsciiLower(value) == "true";
    return true;
  }
  if (name == "null") {
    options->null_text = value;
    return true;
  }
  if (name == "maxrows") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->max_rows));
    return true;
  }
  if (name == "numprocesses") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->threads));
    if (options->threads <= 0) {
      return common::Status::Invalid("Invalid value for COPY option NUMPROCESSES: " + value);
    }
    return true;
  }
  if (name == "reportfrequency") {
    char* end = nullptr;
    double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(parsed >= 0)) {
      return common::Status::Invalid("Invalid value for COPY option REPORTFREQUENCY: " + value);
    }
    options->report_frequency = parsed;
    return true;
  }
  if (name == "boolstyle") {
    RETURN_IF_ERROR(ApplyBoolStyle(value, options));
    return true;
  }
  // Accepted for compatibility; they change nothing here.
  if (name == "encoding" || name == "maxattempts" || name == "configfile" ||
      name == "datetimeformat" || name == "decimalsep" || name == "thousandssep") {
    if (name == "encoding" && common::AsciiLower(value) != "utf8" &&
        common::AsciiLower(value) != "utf-8") {
      return common::Status::Invalid("Only the utf8 encoding is supported, not " + value);
    }
    return true;
  }
  return false;
}

// Applies COPY FROM's own option `name` (lower case) = `value`. Returns false when it is not
// one.
common::Result<bool> ApplyFromOption(const std::string& name, const std::string& value,
                                     CopyOptions* options) {
  if (name == "maxbatchsize") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->max_batch_size));
    if (options->max_batch_size <= 0) {
      return common::Status::Invalid("Invalid value for COPY option MAXBATCHSIZE: " + value);
    }
    return true;
  }
  if (name == "minbatchsize") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->min_batch_size));
    return true;
  }
  if (name == "chunksize") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->chunk_size));
    if (options->chunk_size <= 0) {
      return common::Status::Invalid("Invalid value for COPY option CHUNKSIZE: " + value);
    }
    return true;
  }
  if (name == "skiprows") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->skip_rows));
    return true;
  }
  if (name == "skipcols") {
    options->skip_columns = SplitColumnList(value);
    return true;
  }
  if (name == "maxparseerrors") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->max_parse_errors));
    return true;
  }
  if (name == "maxinserterrors") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->max_insert_errors));
    return true;
  }
  if (name == "errfile") {
    options->error_file = value;
    return true;
  }
  if (name == "ttl") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->ttl));
    return true;
  }
  // Accepted for compatibility; they change nothing here.
  return name == "ingestrate" || name == "preparedstatements" || name == "ratefile";
}

// Applies COPY TO's own option `name` (lower case) = `value`. Returns false when it is not one.
common::Result<bool> ApplyToOption(const std::string& name, const std::string& value,
                                   CopyOptions* options) {
  if (name == "pagesize") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->page_size));
    if (options->page_size <= 0) {
      return common::Status::Invalid("Invalid value for COPY option PAGESIZE: " + value);
    }
    return true;
  }
  if (name == "maxoutputsize") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->max_output_size));
    return true;
  }
  if (name == "floatprecision") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->float_precision));
    return true;
  }
  if (name == "doubleprecision") {
    RETURN_IF_ERROR(ParseInteger(name, value, &options->double_precision));
    return true;
  }
  // Accepted for compatibility; they change nothing here.
  return name == "pagetimeout" || name == "begintoken" || name == "endtoken" ||
         name == "maxrequests";
}

// Applies option `name` (lower case) = `raw`. Returns false when the option is unknown for
// the direction.
common::Result<bool> ApplyOption(const std::string& name, const std::string& raw, bool from,
                                 CopyOptions* options) {
  bool path = name == "errfile" || name == "ratefile";
  std::string value = path ? raw : Unescape(raw);
  ASSIGN_OR_RETURN(bool shared, ApplySharedOption(name, value, options));
  if (shared) return true;
  return from ? ApplyFromOption(name, value, options) : ApplyToOption(name, value, options);
}

}  // namespace

common::Result<CopyCommand> ParseCopyCommand(std::string_view statement,
                                             std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(statement));
  while (!tokens.empty() && tokens.back().kind == Token::Kind::kSymbol &&
         tokens.back().text == ";") {
    tokens.pop_back();
  }
  auto improper = [] { return common::Status::Invalid("Improper COPY command."); };
  size_t i = 0;
  auto is_word = [&](size_t index, std::string_view word) {
    return index < tokens.size() && tokens[index].kind == Token::Kind::kWord &&
           common::AsciiUpper(tokens[index].text) == word;
  };
  auto is_symbol = [&](size_t index, std::string_view symbol) {
    return index < tokens.size() && tokens[index].kind == Token::Kind::kSymbol &&
           tokens[index].text == symbol;
  };
  auto is_name = [&](size_t index) {
    return index < tokens.size() && (tokens[index].kind == Token::Kind::kWord ||
                                     tokens[index].kind == Token::Kind::kQuotedName);
  };
  if (!is_word(i++, "COPY")) return improper();
  CopyCommand command;
  if (!is_name(i)) return improper();
  command.table = NameOf(tokens[i++]);
  if (is_symbol(i, ".")) {
    ++i;
    if (!is_name(i)) return improper();
    command.keyspace = command.table;
    command.table = NameOf(tokens[i++]);
  } else {
    if (session_keyspace.empty()) {
      return common::Status::Invalid("No keyspace specified and no current keyspace");
    }
    command.keyspace = cql::QuoteIdentifierIfNeeded(session_keyspace);
  }
  if (is_symbol(i, "(")) {
    ++i;
    while (true) {
      if (!is_name(i)) return improper();
      command.columns.push_back(NameOf(tokens[i++]));
      if (is_symbol(i, ",")) {
        ++i;
        continue;
      }
      if (!is_symbol(i++, ")")) return improper();
      break;
    }
  }
  if (is_word(i, "FROM")) {
    command.from = true;
  } else if (!is_word(i, "TO")) {
    return improper();
  }
  ++i;
  if (i < tokens.size() && tokens[i].kind == Token::Kind::kString) {
    command.file = tokens[i++].text;
    if (command.file.rfind("~/", 0) == 0) {
      if (const char* home = std::getenv("HOME")) command.file = home + command.file.substr(1);
    }
  } else if (is_word(i, "STDOUT") && !command.from) {
    ++i;
  } else if (is_word(i, "STDIN") && command.from) {
    return common::Status::Invalid("COPY FROM STDIN is not supported: use a file");
  } else {
    return improper();
  }
  std::vector<std::string> unknown;
  if (is_word(i, "WITH")) {
    ++i;
    while (true) {
      if (!is_name(i)) return improper();
      std::string name = common::AsciiLower(tokens[i++].text);
      if (!is_symbol(i++, "=")) return improper();
      if (i >= tokens.size() || tokens[i].kind == Token::Kind::kSymbol) return improper();
      std::string value = tokens[i++].text;
      ASSIGN_OR_RETURN(bool known, ApplyOption(name, value, command.from, &command.options));
      if (!known) unknown.push_back(name);
      if (!is_word(i, "AND")) break;
      ++i;
    }
  }
  if (i != tokens.size()) return improper();
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& name : unknown) list += (list.empty() ? "" : ", ") + name;
    return common::Status::Invalid(
        fmt::format("Unrecognized COPY {} options: {}", command.from ? "FROM" : "TO", list));
  }
  if (command.options.error_file.empty()) {
    auto bare = [](const std::string& name) {
      return name.size() >= 2 && name.front() == '"' ? name.substr(1, name.size() - 2) : name;
    };
    command.options.error_file =
        fmt::format("import_{}_{}.err", bare(command.keyspace), bare(command.table));
  }
  return command;
}

std::string DescribeInterval(double seconds) {
  std::vector<std::string> parts;
  int64_t whole = static_cast<int64_t>(seconds);
  for (auto [length, unit] :
       {std::pair<int64_t, const char*>{86400, "day"}, {3600, "hour"}, {60, "minute"}}) {
    int64_t count = whole / length;
    if (count > 0) {
      parts.push_back(fmt::format("{} {}{}", count, unit, count > 1 ? "s" : ""));
      whole %= length;
      seconds -= static_cast<double>(count * length);
    }
  }
  std::string words = fmt::format("{:.3f} seconds", seconds);
  if (parts.size() > 1) {
    std::string joined;
    for (const std::string& part : parts) joined += part + ", ";
    return joined + "and " + words;
  }
  if (parts.size() == 1) return parts[0] + " and " + words;
  return words;
}

std::string CopyFormatValue(const cql::CqlType& type, std::string_view bytes,
                            const CopyOptions& options) {
  switch (type.kind()) {
    case cql::TypeKind::kText:
    case cql::TypeKind::kAscii:
      return std::string(bytes);
    case cql::TypeKind::kBoolean:
      if (bytes.size() == 1) return bytes[0] != 0 ? options.bool_true : options.bool_false;
      return cql::FormatValue(type, bytes);
    case cql::TypeKind::kFloat:
    case cql::TypeKind::kDouble: {
      int precision =
          type.kind() == cql::TypeKind::kFloat ? options.float_precision : options.double_precision;
      if (precision >= 0) {
        cql::CqlshFormatOptions format;
        format.float_precision = precision;
        format.double_precision = precision;
        return cql::FormatValue(type, bytes, format);
      }
      return cql::FormatValueAsCql(type, bytes);
    }
    case cql::TypeKind::kDecimal:
      return cql::FormatValueAsCql(type, bytes);
    default:
      break;
  }
  if (type.IsNative()) return cql::FormatValue(type, bytes);
  return cql::FormatValueAsCql(type, bytes);
}

common::Result<common::Bytes> CopyParseValue(const cql::CqlType& type, std::string_view text,
                                             std::string_view column, const CopyOptions& options) {
  if (type.kind() == cql::TypeKind::kBoolean &&
      (options.bool_true != "True" || options.bool_false != "False")) {
    if (text == options.bool_true) return common::Bytes(1, '\x01');
    if (text == options.bool_false) return common::Bytes(1, '\x00');
  }
  if (type.IsNative()) return cql::ParseValueText(type, text);
  ASSIGN_OR_RETURN(cql::Term term, cql::ParseTerm(text));
  ASSIGN_OR_RETURN(std::optional<common::Bytes> value, cql::EvaluateLiteral(type, term, column));
  if (!value) return common::Status::Invalid("null is not a value of " + type.ToCql());
  return std::move(*value);
}

}  // namespace shell
