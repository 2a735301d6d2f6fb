#include "hotel/notification_email.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <ctime>

namespace hotel {

namespace {

constexpr size_t kMaxLine = 78;  // RFC 5322 §2.1.1: SHOULD be no more than 78 characters

bool IsAscii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `text` with every control character (CR and LF included) as a blank: names come from
// requests, and one must never end a header line or start a body line of its own.
std::string OneLine(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

// The notification with its free-text fields made single-line (OneLine).
Notification Sanitized(Notification n) {
  for (std::string* text :
       {&n.guest_name, &n.hotel_name, &n.hotel_id, &n.confirmation_number, &n.currency}) {
    *text = OneLine(*text);
  }
  return n;
}

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(written));
  return out;
}

// RFC 2047 "B" encoded-words of UTF-8 `text`, each at most 75 characters and never splitting
// a character; the reader joins adjacent encoded-words without the blanks between them.
std::vector<std::string> EncodedWords(std::string_view text) {
  constexpr size_t kChunk = 45;  // 60 base64 characters + "=?UTF-8?B?" + "?=" = 72
  std::vector<std::string> words;
  while (!text.empty()) {
    size_t size = std::min(kChunk, text.size());
    // Back off from the middle of a multi-byte character (continuation bytes are 10xxxxxx).
    while (size < text.size() && size > 0 &&
           (static_cast<unsigned char>(text[size]) & 0xC0) == 0x80) {
      --size;
    }
    if (size == 0) size = std::min(kChunk, text.size());
    words.push_back("=?UTF-8?B?" + Base64(text.substr(0, size)) + "?=");
    text.remove_prefix(size);
  }
  return words;
}

// A header of tokens joined by `separator`, folded (CRLF + space) before a token that would
// pass kMaxLine. `separator` ends in a space or is one, which the fold replaces.
std::string Header(std::string_view name, const std::vector<std::string>& tokens,
                   std::string_view separator) {
  std::string out = std::string(name) + ":";
  size_t line_length = out.size();
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view glue = i == 0 ? " " : separator;
    if (i > 0 && line_length + glue.size() + tokens[i].size() > kMaxLine) {
      std::string_view kept = glue.substr(0, glue.size() - 1);  // "," of ", " or nothing
      out += std::string(kept) + "\r\n ";
      line_length = 1;
    } else {
      out += glue;
      line_length += glue.size();
    }
    out += tokens[i];
    line_length += tokens[i].size();
  }
  return out + "\r\n";
}

// Unstructured text (Subject): words as they are when ASCII, else encoded-words.
std::vector<std::string> TextTokens(std::string_view text) {
  if (!IsAscii(text)) return EncodedWords(text);
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= text.size()) {
    size_t space = text.find(' ', start);
    if (space == std::string_view::npos) space = text.size();
    if (space > start) words.emplace_back(text.substr(start, space - start));
    start = space + 1;
  }
  return words;
}

// A display name as an RFC 5322 phrase: a quoted-string when ASCII, else encoded-words.
std::string Phrase(std::string_view name) {
  if (!IsAscii(name)) return fmt::format("{}", fmt::join(EncodedWords(name), " "));
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') quoted.push_back('\\');
    if (c != '\r' && c != '\n') quoted.push_back(c);
  }
  return quoted + "\"";
}

std::string Mailbox(std::string_view name, std::string_view address) {
  return Phrase(name) + " <" + std::string(address) + ">";
}

std::string DomainOf(std::string_view address) {
  size_t at = address.rfind('@');
  return at == std::string_view::npos ? "localhost" : std::string(address.substr(at + 1));
}

std::string Subject(const Notification& n) {
  std::string_view what = n.kind == NotificationKind::kConfirmation ? "is confirmed"
                          : n.kind == NotificationKind::kChange     ? "has been changed"
                                                                    : "has been cancelled";
  return fmt::format("Your reservation {} at {} {}", n.confirmation_number, n.hotel_name, what);
}

void AppendStay(std::string& out, const NotifiedStay& stay, std::string_view currency) {
  out += fmt::format("  Room:                 {}\n", stay.room_number);
  out += fmt::format("  Check-in:             {}\n", FormatDay(stay.check_in));
  out += fmt::format("  Check-out:            {}\n", FormatDay(stay.check_out));
  out += fmt::format("  Nights:               {}\n", stay.check_out - stay.check_in);
  out += fmt::format("  Total:                {} {}\n", FormatMoney(stay.total), currency);
}

}  // namespace

std::string NotificationBody(const Notification& notification, const MailIdentity& from) {
  const Notification n = Sanitized(notification);
  std::string out = fmt::format("Dear {},\n\n", n.guest_name);
  switch (n.kind) {
    case NotificationKind::kConfirmation:
      out += fmt::format("your reservation at {} is confirmed.\n\n", n.hotel_name);
      break;
    case NotificationKind::kChange:
      out += fmt::format("your reservation at {} has been changed. It is now:\n\n", n.hotel_name);
      break;
    case NotificationKind::kCancellation:
      out += fmt::format("your reservation at {} has been cancelled. It was:\n\n", n.hotel_name);
      break;
  }
  out += fmt::format("  Confirmation number:  {}\n", n.confirmation_number);
  out += fmt::format("  Hotel:                {} ({})\n", n.hotel_name, n.hotel_id);
  AppendStay(out, n.stay, n.currency);
  if (n.kind == NotificationKind::kChange && n.previous) {
    out += "\nBefore the change:\n\n";
    AppendStay(out, *n.previous, n.currency);
  }
  if (n.kind != NotificationKind::kCancellation) {
    out +=
        "\nKeep this email: with the confirmation number and your last name you can\n"
        "look up, change or cancel the reservation on our web site.\n";
  }
  out += fmt::format("\n-- \n{}\n{}\n", OneLine(from.display_name), from.address);
  return out;
}

std::string MailDate(int64_t unix_millis) {
  std::time_t seconds = static_cast<std::time_t>(unix_millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[64];
  size_t size = std::strftime(buffer, sizeof(buffer), "%a, %d %b %Y %H:%M:%S +0000", &utc);
  return std::string(buffer, size);
}

std::string QuotedPrintable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    size_t length = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      auto byte = static_cast<unsigned char>(line[i]);
      bool last = i + 1 == line.size();
      bool literal =
          (byte >= 33 && byte <= 126 && byte != '=') || ((byte == ' ' || byte == '\t') && !last);
      std::string token = literal ? std::string(1, static_cast<char>(byte))
                                  : std::string{'=', kHex[byte >> 4], kHex[byte & 15]};
      if (length + token.size() > 75) {  // room for the soft break's "="
        out += "=\r\n";
        length = 0;
      }
      out += token;
      length += token.size();
    }
    if (end == text.size()) break;
    out += "\r\n";
    start = end + 1;
  }
  return out;
}

EmailMessage RenderNotification(const Notification& notification, const MailIdentity& from) {
  const Notification n = Sanitized(notification);
  EmailMessage message;
  message.envelope_from = from.address;
  message.recipients = n.recipients;
  message.message_id = fmt::format("{}.{}@{}", n.notification_id.ToString(), n.confirmation_number,
                                   DomainOf(from.address));
  message.subject = Subject(n);
  std::vector<std::string> to;
  for (const std::string& address : n.recipients) to.push_back(Mailbox(n.guest_name, address));
  std::string body = NotificationBody(notification, from);
  bool seven_bit = IsAscii(body);
  for (size_t start = 0, end = 0; seven_bit && start < body.size(); start = end + 1) {
    end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    seven_bit = end - start <= kMaxLine;
  }
  std::string& data = message.data;
  data += Header("From", {Mailbox(OneLine(from.display_name), from.address)}, " ");
  data += Header("To", to, ", ");
  data += Header("Subject", TextTokens(message.subject), " ");
  data += Header("Date", {MailDate(n.at_millis())}, " ");
  data += Header("Message-ID", {"<" + message.message_id + ">"}, " ");
  data += "MIME-Version: 1.0\r\n";
  data += "Content-Type: text/plain; charset=UTF-8\r\n";
  data += seven_bit ? "Content-Transfer-Encoding: 7bit\r\n"
                    : "Content-Transfer-Encoding: quoted-printable\r\n";
  data += "Auto-Submitted: auto-generated\r\n";
  data += "\r\n";
  if (seven_bit) {
    for (char c : body) {
      if (c == '\n')
        data += "\r\n";
      else
        data.push_back(c);
    }
  } else {
    data += QuotedPrintable(body);
  }
  return message;
}

}  // namespace hotel
