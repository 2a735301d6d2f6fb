// SmtpSender: delivers the outbox's emails to an SMTP server (RFC 5321) — `hotel notify
// --smtp-host`. A small client over Boost.Asio: one connection per message, every step bounded
// by a timeout, and STARTTLS (RFC 3207) through Asio's ssl::stream over OpenSSL when asked.
//
// The conversation: the 220 greeting; EHLO; with `starttls`, STARTTLS, the TLS handshake
// (TLS 1.2 or later, the server's certificate verified against the system's CAs or `ca_file`,
// and its name against `host`) and EHLO again; MAIL FROM; RCPT TO per recipient; DATA, the
// message dot-stuffed, "."; QUIT. A server that does not offer STARTTLS when it is required is
// a failure: the message is never sent in the clear instead. With `implicit_tls` (SMTPS, port
// 465, RFC 8314) the handshake comes first, before the greeting.
//
// Authentication (RFC 4954), when `username` is set: after TLS (STARTTLS or implicit), AUTH
// PLAIN (RFC 4616, the credentials as the initial response) or AUTH LOGIN (username and
// password answering the server's two 334 prompts), whichever `auth` asks for; kAuto takes PLAIN
// when the server offers it, else LOGIN. Credentials are never sent over a connection without
// TLS: the session fails before AUTH instead, unless `allow_auth_without_tls` (a test server
// on the loopback; docs/operations.md says why not otherwise). The password appears in no error
// message (a server echoing it back is redacted) and nothing here logs.
//
// Failures (MailSender): a 5xx reply is permanent (kInvalid); a 4xx reply, a timeout, a refused
// connection or a failed handshake may pass (kUnavailable). A refused login (535, 534, 454, or
// any other answer to AUTH) is kUnavailable too: it is the configuration, not the message, that
// is wrong, so the worker retries with its back-off until an operator fixes the credentials
// rather than give every email up. The message says which step failed and what the server
// answered.
//
// Thread-safety: thread-safe (each Send has its own connection and io_context).

#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "hotel/mail_sender.h"

namespace hotel {

// How SmtpSender authenticates (header comment).
enum class SmtpAuth { kAuto, kPlain, kLogin };
// Parses "auto", "plain" or "login". Errors: kInvalid.
common::Result<SmtpAuth> ParseSmtpAuth(std::string_view text);

struct SmtpOptions {
  std::string host;
  uint16_t port = 25;
  bool starttls = false;      // require STARTTLS before MAIL FROM
  bool implicit_tls = false;  // TLS from the first byte (SMTPS); excludes `starttls`
  std::string username;       // "": no AUTH
  std::string password;       // REQUIRES: set when `username` is; never logged or shown
  SmtpAuth auth = SmtpAuth::kAuto;
  // Sends the credentials over a connection without TLS. Anyone on the path reads them: only
  // for a server on the loopback or a test.
  bool allow_auth_without_tls = false;
  std::string ca_file;    // PEM CAs to trust besides the system's ("": the system's only)
  std::string helo_name;  // the EHLO name; "": this host's name
  std::chrono::milliseconds timeout{30000};  // per step (connect, each reply, each write)
};

class SmtpSender : public MailSender {
 public:
  explicit SmtpSender(SmtpOptions options);

  common::Status Send(const EmailMessage& message) override;
  std::string Describe() const override;

 private:
  SmtpOptions options_;
};

// The DATA of `message`: every line that starts with "." gets another (RFC 5321 §4.5.2), and it
// ends with CRLF "." CRLF. REQUIRES: `data` has CRLF line ends.
std::string DotStuffed(const std::string& data);

}  // namespace hotel
