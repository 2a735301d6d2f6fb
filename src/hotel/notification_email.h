// The emails of the outbox: renders a `Notification` (notification.h) as an RFC 5322 message —
// From, To, Subject, Date, Message-ID, MIME-Version, Auto-Submitted and a text/plain UTF-8 body
// with the reservation's details — ready for a `MailSender` (mail_sender.h).
//
// Rendering is deterministic: the Date is the event's time and the Message-ID is made of the
// notification's id, so a notification delivered twice (delivery is at least once) is the same
// message, which mail clients show once. Non-ASCII text (names, hotel names) is encoded so the
// message is 7-bit clean: RFC 2047 encoded-words in headers, quoted-printable in the body; every
// line ends in CRLF and is at most 78 characters (headers are folded).
//
// Thread-safety: stateless functions.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hotel/notification.h"

namespace hotel {

// Who the emails come from (`hotel notify --mail-from`).
struct MailIdentity {
  std::string address = "reservations@localhost";  // REQUIRES: IsMailableAddress
  std::string display_name = "Hotel reservations";
};

// One email, ready to hand to a sender.
struct EmailMessage {
  std::string envelope_from;            // the SMTP MAIL FROM address
  std::vector<std::string> recipients;  // the SMTP RCPT TO addresses
  std::string message_id;               // without the angle brackets
  std::string subject;                  // as the reader sees it (decoded)
  std::string data;                     // the whole message, headers and body, CRLF line ends
};

// The email announcing `notification` from `from`.
EmailMessage RenderNotification(const Notification& notification, const MailIdentity& from);

// The plain text of the body, before transfer encoding (LF line ends).
std::string NotificationBody(const Notification& notification, const MailIdentity& from);

// RFC 5322 date-time of a moment, in UTC: "Fri, 27 Nov 2026 03:12:45 +0000".
std::string MailDate(int64_t unix_millis);

// Quoted-printable (RFC 2045 §6.7) of `text` with LF line ends: lines of at most 76 characters
// (soft breaks "=" CRLF), CRLF hard breaks.
std::string QuotedPrintable(std::string_view text);

}  // namespace hotel
