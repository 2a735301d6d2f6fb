// SmtpSender: delivers the outbox's emails to an SMTP server (RFC 5321) — `hotel notify
// --smtp-host`. A small client over Boost.Asio: one connection per message, every step bounded
// by a timeout, and STARTTLS (RFC 3207) through Asio's ssl::stream over OpenSSL when asked.
//
// The conversation: the 220 greeting; EHLO; with `starttls`, STARTTLS, the TLS handshake
// (TLS 1.2 or later, the server's certificate verified against the system's CAs or `ca_file`,
// and its name against `host`) and EHLO again; MAIL FROM; RCPT TO per recipient; DATA, the
// message dot-stuffed, "."; QUIT. A server that does not offer STARTTLS when it is required is
// a failure: the message is never sent in the clear instead. No authentication (AUTH) yet: the
// server must relay for the host, as a local MTA or a smarthost allowing the IP does.
//
// Failures (MailSender): a 5xx reply is permanent (kInvalid); a 4xx reply, a timeout, a refused
// connection or a failed handshake may pass (kUnavailable). The message says which step failed
// and what the server answered.
//
// Thread-safety: thread-safe (each Send has its own connection and io_context).

#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "hotel/mail_sender.h"

namespace hotel {

struct SmtpOptions {
  std::string host;
  uint16_t port = 25;
  bool starttls = false;  // require STARTTLS before MAIL FROM
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
