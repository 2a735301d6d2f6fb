#include "server/audit_log.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/logging.h"
#include "common/metrics.h"
#include "common/result.h"
#include "common/rotating_file.h"

namespace server {
namespace {

using common::Status;

constexpr uint64_t kMaxFileBytes = uint64_t{64} << 20;

struct AuditMetrics {
  common::metrics::Counter& queue_full;
  common::metrics::Counter& write_failed;
  common::metrics::Counter& written;

  static AuditMetrics& Get() {
    static constexpr std::string_view kDroppedHelp =
        "Audit log entries dropped: the queue was full, or the write failed.";
    auto& registry = common::metrics::Registry::Global();
    static AuditMetrics metrics{
        registry.counter("cqld_audit_log_dropped_total", kDroppedHelp, {{"reason", "queue_full"}}),
        registry.counter("cqld_audit_log_dropped_total", kDroppedHelp,
                         {{"reason", "write_failed"}}),
        registry.counter("cqld_audit_log_entries_total", "Audit log entries written.")};
    return metrics;
  }
};

std::vector<std::string_view> SplitNames(std::string_view list) {
  std::vector<std::string_view> names;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) names.push_back(name);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
}

Status CheckCategories(std::string_view list, std::string_view key) {
  for (std::string_view name : SplitNames(list)) {
    if (!ParseAuditCategory(name)) {
      return Status::Invalid(fmt::format(
          "Invalid {} '{}': audit log categories are QUERY, DML, DDL, DCL, OTHER, AUTH, ERROR "
          "and PREPARE",
          key, name));
    }
  }
  return Status::Ok();
}

// The categories of `list` in upper case, as the filter compares them.
std::string UpperCategories(std::string_view list) {
  std::string out;
  for (std::string_view name : SplitNames(list)) {
    if (!out.empty()) out += ',';
    out += AuditCategoryName(*ParseAuditCategory(name));
  }
  return out;
}

bool IsSystemKeyspace(std::string_view keyspace) {
  return keyspace == "system" || keyspace == "system_schema";
}

}  // namespace

Status ValidateAuditLogOptions(const AuditLogOptions& options) {
  const std::string& logger = options.logger;
  if (logger == "BinAuditLogger" || logger == "org.apache.cassandra.audit.BinAuditLogger") {
    return Status::Invalid(
        "Audit logger BinAuditLogger is not supported: cqld writes the audit log as text lines; "
        "use FileAuditLogger");
  }
  if (logger != "FileAuditLogger" && logger != "org.apache.cassandra.audit.FileAuditLogger") {
    return Status::Invalid(
        fmt::format("Unknown audit logger '{}': cqld supports FileAuditLogger", logger));
  }
  if (options.audit_logs_dir.empty()) {
    return Status::Invalid("audit_logs_dir must name the directory of the audit log");
  }
  if (options.block) {
    return Status::Invalid(
        "block: true is not supported: cqld's audit log never blocks requests; it drops entries "
        "when its queue is full and counts them (cqld_audit_log_dropped_total)");
  }
  if (options.max_log_size == 0) return Status::Invalid("max_log_size must be positive");
  if (options.max_queue_weight == 0) return Status::Invalid("max_queue_weight must be positive");
  RETURN_IF_ERROR(CheckCategories(options.included_categories, "included_categories"));
  return CheckCategories(options.excluded_categories, "excluded_categories");
}

// ---------------------------------------------------------------------------------------------
// The filter (design 4).

bool AuditLogFilter::Lists::Filtered(std::string_view name) const {
  if (excluded.find(name) != excluded.end()) return true;
  return !included.empty() && included.find(name) == included.end();
}

AuditLogFilter::Lists AuditLogFilter::Make(std::string_view included, std::string_view excluded) {
  Lists lists;
  for (std::string_view name : SplitNames(excluded)) lists.excluded.emplace(name);
  for (std::string_view name : SplitNames(included)) {
    if (lists.excluded.find(name) == lists.excluded.end()) lists.included.emplace(name);
  }
  return lists;
}

AuditLogFilter::AuditLogFilter(const AuditLogOptions& options)
    : keyspaces_(Make(options.included_keyspaces, options.excluded_keyspaces)),
      categories_(Make(UpperCategories(options.included_categories),
                       UpperCategories(options.excluded_categories))),
      users_(Make(options.included_users, options.excluded_users)) {}

bool AuditLogFilter::Filtered(const AuditEntry& entry) const {
  if (IsSystemKeyspace(entry.keyspace)) return true;
  return keyspaces_.Filtered(entry.keyspace) ||
         categories_.Filtered(AuditCategoryName(CategoryOf(entry.type))) ||
         users_.Filtered(entry.user ? std::string_view(*entry.user) : std::string_view("null"));
}

// ---------------------------------------------------------------------------------------------
// The writer (design 1-3): a bounded queue of lines and the thread that writes them.

class AuditLog::Writer {
 public:
  Writer(std::unique_ptr<common::RotatingFile> file, const AuditLogOptions& options)
      : file_(std::move(file)),
        directory_(options.audit_logs_dir),
        max_log_size_(options.max_log_size),
        max_queue_weight_(options.max_queue_weight),
        thread_([this] { Run(); }) {}

  ~Writer() { Stop(); }

  // Writes what is queued and ends the thread; later lines are ignored. REQUIRES: not called
  // concurrently with itself (the owner calls it once it has taken the writer out of use).
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // Opens `audit_logs_dir`/audit.log (creating the directory), sized per design 3.
  static common::Result<std::unique_ptr<common::RotatingFile>> OpenFile(
      const AuditLogOptions& options) {
    std::error_code error;
    std::filesystem::create_directories(options.audit_logs_dir, error);
    if (error) {
      return Status::IOError(fmt::format("cannot create the audit log directory {}: {}",
                                         options.audit_logs_dir, error.message()));
    }
    const uint64_t file_bytes =
        std::min(kMaxFileBytes, std::max<uint64_t>(options.max_log_size / 2, 1));
    const uint64_t files = std::max<uint64_t>(options.max_log_size / file_bytes, 2) - 1;
    std::string message;
    auto file = common::RotatingFile::Open(
        (std::filesystem::path(options.audit_logs_dir) / "audit.log").string(), file_bytes,
        static_cast<int>(std::min<uint64_t>(files, 100000)), &message);
    if (file == nullptr) {
      return Status::IOError(fmt::format("cannot open the audit log: {}", message));
    }
    return file;
  }

  // Whether `options` would make the same writer (design 5).
  bool Same(const AuditLogOptions& options) const {
    return options.audit_logs_dir == directory_ && options.max_log_size == max_log_size_ &&
           options.max_queue_weight == max_queue_weight_;
  }
  const std::string& path() const { return file_->path(); }

  void Push(std::string line) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;  // disabled meanwhile
      if (weight_ + line.size() > max_queue_weight_) {
        AuditMetrics::Get().queue_full.Increment();
        return;
      }
      weight_ += line.size();
      queue_.push_back(std::move(line));
      ++queued_;
    }
    wake_.notify_one();
  }

  bool Flush(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    const uint64_t target = queued_;
    return done_.wait_for(lock, timeout, [&] { return written_ >= target; });
  }

 private:
  void Run() {
    std::unique_lock lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is written
      std::deque<std::string> lines;
      lines.swap(queue_);
      weight_ = 0;
      lock.unlock();
      for (const std::string& line : lines) Write(line);
      lock.lock();
      written_ += lines.size();
      done_.notify_all();
    }
  }

  void Write(const std::string& line) {
    const uint64_t dropped_before = file_->dropped();
    file_->Append(line);
    if (file_->dropped() != dropped_before) {
      AuditMetrics::Get().write_failed.Increment();
      if (!failing_) {
        LOG_ERROR("audit log: cannot write to {}; entries are dropped until it can be written",
                  file_->path());
      }
      failing_ = true;
      return;
    }
    AuditMetrics::Get().written.Increment();
    if (failing_) LOG_INFO("audit log: writing to {} again", file_->path());
    failing_ = false;
  }

  const std::unique_ptr<common::RotatingFile> file_;
  const std::string directory_;
  const uint64_t max_log_size_;
  const uint64_t max_queue_weight_;
  bool failing_ = false;  // writer thread only
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::deque<std::string> queue_;  // GUARDED_BY(mutex_)
  uint64_t weight_ = 0;            // GUARDED_BY(mutex_): bytes in queue_
  uint64_t queued_ = 0;            // GUARDED_BY(mutex_): lines queued since the start
  uint64_t written_ = 0;           // GUARDED_BY(mutex_): of those, written or dropped
  bool stopping_ = false;          // GUARDED_BY(mutex_)
  std::thread thread_;             // last: starts once the members above exist
};

// ---------------------------------------------------------------------------------------------

AuditLog::AuditLog(std::string host, AuditLogOptions configured)
    : host_(std::move(host)), configured_(std::move(configured)), options_(configured_) {
  options_.enabled = false;
}

AuditLog::~AuditLog() { Disable(); }

Status AuditLog::Enable(const AuditLogOptions& requested) {
  RETURN_IF_ERROR(ValidateAuditLogOptions(requested));
  AuditLogOptions options = requested;
  options.enabled = true;
  options.included_categories = UpperCategories(options.included_categories);
  options.excluded_categories = UpperCategories(options.excluded_categories);
  auto filter = std::make_shared<const AuditLogFilter>(options);
  std::lock_guard control(control_mutex_);
  std::shared_ptr<Writer> writer;
  {
    std::lock_guard lock(mutex_);
    writer = writer_;
  }
  std::shared_ptr<Writer> previous;
  if (writer == nullptr || !writer->Same(options)) {
    // The directory and the file are made outside mutex_: Log never waits for them.
    ASSIGN_OR_RETURN(std::unique_ptr<common::RotatingFile> file, Writer::OpenFile(options));
    previous = std::move(writer);
    writer = std::make_shared<Writer>(std::move(file), options);
  }
  {
    std::lock_guard lock(mutex_);
    writer_ = writer;
    options_ = options;
    filter_ = std::move(filter);
    enabled_.store(true, std::memory_order_release);
  }
  LOG_INFO("audit log enabled: {}", writer->path());
  if (previous != nullptr) previous->Stop();  // writes what it still had
  return Status::Ok();
}

void AuditLog::Disable() {
  std::lock_guard control(control_mutex_);
  std::shared_ptr<Writer> previous;
  {
    std::lock_guard lock(mutex_);
    if (writer_ == nullptr) return;
    enabled_.store(false, std::memory_order_release);
    previous = std::move(writer_);
    filter_.reset();
    options_ = configured_;
    options_.enabled = false;
  }
  LOG_INFO("audit log disabled");
  previous->Stop();  // a Log still holding it queues nothing more
}

AuditLogOptions AuditLog::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

std::string AuditLog::path() const {
  std::lock_guard lock(mutex_);
  return writer_ == nullptr ? std::string() : writer_->path();
}

void AuditLog::Log(const AuditEntry& entry) {
  if (!enabled()) return;
  std::shared_ptr<Writer> writer;
  std::shared_ptr<const AuditLogFilter> filter;
  {
    std::lock_guard lock(mutex_);
    writer = writer_;
    filter = filter_;
  }
  if (writer == nullptr || filter->Filtered(entry)) return;
  writer->Push(FormatAuditEntry(entry, host_) + "\n");
}

bool AuditLog::Flush(std::chrono::milliseconds timeout) {
  std::shared_ptr<Writer> writer;
  {
    std::lock_guard lock(mutex_);
    writer = writer_;
  }
  return writer == nullptr || writer->Flush(timeout);
}

}  // namespace server
