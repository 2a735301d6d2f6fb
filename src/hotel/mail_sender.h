// MailSender: where the notify worker (notification_worker.h) hands the emails it renders — a
// maildir directory (maildir_sender.h, the default) or an SMTP server (smtp_client.h). Both are
// behind this interface so the worker, its retries and its records are the same for either, and
// tests can put a sender of their own in.
//
// Thread-safety: an implementation is used by one worker thread at a time.

#pragma once

#include <string>

#include "common/status.h"
#include "hotel/notification_email.h"

namespace hotel {

class MailSender {
 public:
  virtual ~MailSender() = default;

  // Delivers `message` to its recipients (as far as this sender goes: into the maildir, or
  // accepted by the SMTP server). Ok when delivered. kUnavailable for a failure worth retrying
  // (I/O error, timeout, a 4xx reply); kInvalid for a permanent one (a 5xx reply: retrying
  // sends the same message to the same refusal), which the worker gives up on at once.
  virtual common::Status Send(const EmailMessage& message) = 0;

  // Where the mail goes, for logs ("maildir /var/mail/hotel", "smtp mail.example.com:25").
  virtual std::string Describe() const = 0;
};

}  // namespace hotel
