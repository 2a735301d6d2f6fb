// AuditLog: cqld's audit log, Cassandra 4's audit logging with its FileAuditLogger
// (docs/operations.md §10): logins, statements and failed requests as one text line each
// (audit_entry.h) in `audit_logs_dir`/audit.log, filtered by keyspace, category and user.
//
// Pipeline: the connection (login) and the request handler (QUERY, PREPARE, EXECUTE, BATCH)
// build an AuditEntry and call `Log`; `Log` filters it, formats it and puts the line on a
// bounded queue; one writer thread takes lines off the queue and appends them to a
// common::RotatingFile. The admin API (`enableauditlog`, `disableauditlog`, `getauditlog`)
// turns it on and off at run time.
//
// Design:
//  1. The request path never waits for the disk and never fails because of the audit log:
//     `Log` takes two short locks (one to find the writer, one to queue the line); Enable makes
//     the directory and opens the file without holding either. When the lines waiting pass
//     `max_queue_weight` bytes, the line is dropped and counted in
//     `cqld_audit_log_dropped_total{reason="queue_full"}` (Cassandra's `block: false`; cqld
//     has no blocking mode).
//  2. Write failures (a full disk, a removed directory) drop the line and count it in
//     `cqld_audit_log_dropped_total{reason="write_failed"}`; the first failure after a success
//     logs one ERROR line, the first success after failures one INFO line. Nothing throws.
//     The file is reopened on the next line, so logging resumes once space is freed.
//  3. The file rotates by size: audit.log becomes audit.log.1 (and .1 becomes .2 ...) when the
//     next line would take it past the file size, and the oldest file goes, so the files
//     together stay within about `max_log_size` bytes (files of min(64 MiB, max_log_size / 2)
//     bytes, max_log_size / file size - 1 old files kept, at least one).
//  4. Entries on keyspaces `system` and `system_schema` are never logged (drivers read them on
//     every connect), as Cassandra; the filter then applies: an entry is dropped when its
//     keyspace, its category or its user is excluded, or when an included list is set and
//     does not hold it (so an entry without keyspace passes only when no keyspace is
//     included). A name both included and excluded is excluded.
//  5. `Enable` while enabled swaps the filter, and reopens the file only when the directory,
//     the size or the queue's weight changed; `Disable` writes the lines queued, closes the file
//     and stops the writer. Lines queued before `Disable` are written; `Log` after it does nothing.
//
// Thread-safety: thread-safe. `Log` may be called from any thread, concurrently with Enable,
// Disable and each other.

#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "common/status.h"
#include "server/audit_entry.h"

namespace server {

// cassandra.yaml's audit_logging_options (4.1). The lists are comma-separated names, as
// Cassandra has them.
struct AuditLogOptions {
  bool enabled = false;
  // FileAuditLogger (or org.apache.cassandra.audit.FileAuditLogger); BinAuditLogger is refused.
  std::string logger = "FileAuditLogger";
  std::string audit_logs_dir;  // REQUIRES: not empty for Enable
  std::string included_keyspaces;
  std::string excluded_keyspaces = "system,system_schema,system_virtual_schema";
  std::string included_categories;
  std::string excluded_categories;
  std::string included_users;
  std::string excluded_users;
  // The bytes the files may take together (design 3); Cassandra's default, 16 GiB.
  uint64_t max_log_size = uint64_t{16} << 30;
  // The bytes of lines waiting to be written before lines are dropped (design 1).
  uint64_t max_queue_weight = uint64_t{256} << 20;
  // Cassandra's `block`: only false is supported (design 1).
  bool block = false;
};

// Invalid with the reason when `options` cannot be used: an unknown or unsupported logger, an
// unknown category, a zero size, `block: true`, no directory.
common::Status ValidateAuditLogOptions(const AuditLogOptions& options);

// Which entries are logged (design 4). Immutable once made.
class AuditLogFilter {
 public:
  // REQUIRES: ValidateAuditLogOptions(options) is ok.
  explicit AuditLogFilter(const AuditLogOptions& options);
  // Whether `entry` is left out of the log.
  bool Filtered(const AuditEntry& entry) const;

 private:
  struct Lists {
    std::set<std::string, std::less<>> included;
    std::set<std::string, std::less<>> excluded;
    bool Filtered(std::string_view name) const;
  };
  static Lists Make(std::string_view included, std::string_view excluded);

  Lists keyspaces_;
  Lists categories_;
  Lists users_;
};

class AuditLog {
 public:
  // `host` is what the lines show as `host` ("127.0.0.1:7000"). `configured` is the
  // configuration file's options: what `options()` shows while disabled, and the base that
  // enableauditlog's arguments override. Logging starts only with `Enable`.
  AuditLog(std::string host, AuditLogOptions configured);
  // Disables (writes what is queued).
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Starts (or reconfigures, design 5) logging with `options`. Errors: Invalid from
  // ValidateAuditLogOptions; IOError when the directory cannot be created or the file opened
  // (logging then stays as it was).
  common::Status Enable(const AuditLogOptions& options);
  // Stops logging (design 5). Idempotent.
  void Disable();

  // Whether entries are being logged. One atomic load: callers check it before building an
  // entry.
  bool enabled() const { return enabled_.load(std::memory_order_acquire); }
  // The options in force while enabled (`enabled` true), else the configured ones.
  AuditLogOptions options() const;
  const AuditLogOptions& configured() const { return configured_; }
  const std::string& host() const { return host_; }

  // Filters, formats and queues `entry` (design 1, 4). Never blocks on I/O, never fails.
  void Log(const AuditEntry& entry);

  // Waits until every line queued before the call is written or dropped, or `timeout` passes;
  // returns whether it got there. For tests and the admin API; true when disabled.
  bool Flush(std::chrono::milliseconds timeout);

  // The file lines are written to; "" when disabled.
  std::string path() const;

 private:
  class Writer;

  const std::string host_;
  const AuditLogOptions configured_;
  std::atomic<bool> enabled_{false};
  std::mutex control_mutex_;                      // serializes Enable and Disable
  mutable std::mutex mutex_;                      // guards below; held only to copy or swap
  AuditLogOptions options_;                       // GUARDED_BY(mutex_)
  std::shared_ptr<const AuditLogFilter> filter_;  // GUARDED_BY(mutex_)
  std::shared_ptr<Writer> writer_;                // GUARDED_BY(mutex_)
};

}  // namespace server
