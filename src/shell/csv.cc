#include "shell/csv.h"

namespace shell {

bool CsvReader::Next(CsvRecord* record) {
  record->fields.clear();
  record->raw.clear();
  // Skip blank lines.
  while (position_ < text_.size() && (text_[position_] == '\n' || text_[position_] == '\r')) {
    if (text_[position_] == '\n') ++line_;
    ++position_;
  }
  if (position_ >= text_.size()) return false;
  record->line = line_;
  size_t start = position_;
  CsvField field;
  bool in_quotes = false;
  bool field_started = false;
  const bool double_quote = dialect_.quote == dialect_.escape;
  while (position_ < text_.size()) {
    char c = text_[position_];
    if (in_quotes) {
      if (c == dialect_.quote) {
        if (double_quote && position_ + 1 < text_.size() && text_[position_ + 1] == c) {
          field.text += c;
          position_ += 2;
          continue;
        }
        in_quotes = false;
        ++position_;
        continue;
      }
      if (!double_quote && c == dialect_.escape && position_ + 1 < text_.size()) {
        if (text_[position_ + 1] == '\n') ++line_;
        field.text += text_[position_ + 1];
        position_ += 2;
        continue;
      }
      if (c == '\n') ++line_;
      field.text += c;
      ++position_;
      continue;
    }
    if (c == '\n' || c == '\r') break;
    if (c == dialect_.delimiter) {
      record->fields.push_back(std::move(field));
      field = CsvField();
      field_started = false;
      ++position_;
      continue;
    }
    if (c == dialect_.quote && !field_started) {
      in_quotes = true;
      field.quoted = true;
      field_started = true;
      ++position_;
      continue;
    }
    if (!double_quote && c == dialect_.escape && position_ + 1 < text_.size()) {
      field.text += text_[position_ + 1];
      field_started = true;
      position_ += 2;
      continue;
    }
    field.text += c;
    field_started = true;
    ++position_;
  }
  unterminated_ = in_quotes;
  record->fields.push_back(std::move(field));
  size_t end = position_;
  if (end > start && text_[end - 1] == '\r') --end;
  record->raw.assign(text_.substr(start, end - start));
  // Consume the line break.
  if (position_ < text_.size() && text_[position_] == '\r') ++position_;
  if (position_ < text_.size() && text_[position_] == '\n') {
    ++position_;
    ++line_;
  }
  return true;
}

void AppendCsvRecord(const std::vector<std::string>& fields, const std::vector<bool>& quote_empty,
                     const CsvDialect& dialect, std::string* out) {
  const bool double_quote = dialect.quote == dialect.escape;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) *out += dialect.delimiter;
    const std::string& field = fields[i];
    bool quote = field.empty() ? (i < quote_empty.size() && quote_empty[i])
                               : field.front() == ' ' || field.back() == ' ';
    for (char c : field) {
      if (c == dialect.delimiter || c == dialect.quote || c == dialect.escape || c == '\n' ||
          c == '\r') {
        quote = true;
        break;
      }
    }
    if (!quote) {
      *out += field;
      continue;
    }
    *out += dialect.quote;
    for (char c : field) {
      if (c == dialect.quote) {
        *out += double_quote ? dialect.quote : dialect.escape;
      } else if (!double_quote && c == dialect.escape) {
        *out += dialect.escape;
      }
      *out += c;
    }
    *out += dialect.quote;
  }
  *out += '\n';
}

}  // namespace shell
