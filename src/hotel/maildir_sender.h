// MaildirSender: delivers the outbox's emails into a maildir directory (the format of qmail,
// Dovecot, mutt, ...: https://cr.yp.to/proto/maildir.html) — the default sender of `hotel
// notify` and of `make run`, so the mail a guest is promised can be read without a mail server.
//
// Delivery follows the spec: the message is written to `tmp/` under a name unique to this
// delivery (`<seconds>.M<microseconds>P<pid>Q<sequence>.<host>`), flushed to disk (fsync), then
// renamed into `new/`, where a reader sees it whole or not at all; the directory is fsynced after
// the rename. Lines end in LF on disk, as maildir readers expect. A crash leaves at most a file
// in `tmp/`, which readers ignore.
//
// Thread-safety: thread-safe (the sequence number is atomic; names never repeat in a process).

#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "common/result.h"
#include "hotel/mail_sender.h"

namespace hotel {

class MaildirSender : public MailSender {
 public:
  // Creates `directory` and its tmp/, new/ and cur/ when missing. Errors: kIOError.
  static common::Result<std::unique_ptr<MaildirSender>> Open(const std::string& directory);

  // Writes `message` into new/ (header comment). kUnavailable when a file cannot be written.
  common::Status Send(const EmailMessage& message) override;
  std::string Describe() const override { return "maildir " + directory_; }

  explicit MaildirSender(std::string directory) : directory_(std::move(directory)) {}

 private:
  // A file name no other delivery uses.
  std::string UniqueName();

  std::string directory_;
  std::string host_;  // the host name, with '/' and ':' escaped as the spec says
  std::atomic<uint64_t> sequence_{0};
};

}  // namespace hotel
