// InfoLogFile: RocksDB's informational log (the `LOG` file of a data directory), written by us
// so that a full disk can never abort the process through it.
//
// RocksDB's own file logger writes through a `WritableFileWriter`; after one failed append
// (ENOSPC) the writer remembers the error, and the next log line trips an assertion that the
// Debian build of librocksdb 7.8 keeps (`sync_without_flush_called_` in
// `WritableFileWriter::AssertFalseAndGetStatusForPrevError`): the process aborts on the next
// background-error message. This logger writes each line with one write(2) on a file opened
// with O_APPEND and simply drops the lines the disk has no room for.
//
// The file starts afresh at every open (the previous one is kept as `LOG.old`) and is rotated
// the same way when it passes `max_bytes`, so it never grows without bound.
//
// Thread-safety: thread-safe (RocksDB logs from its background threads): a mutex guards the
// file descriptor and the size.

#pragma once

#include <cstdarg>
#include <cstddef>
#include <mutex>
#include <string>

#include <rocksdb/env.h>

namespace storage {

class InfoLogFile final : public rocksdb::Logger {
 public:
  // Logs to `directory`/LOG, moving an existing LOG to LOG.old first. A file that cannot be
  // created gives a logger that drops every line (and retries at the next rotation).
  explicit InfoLogFile(const std::string& directory, size_t max_bytes = size_t{64} << 20);
  ~InfoLogFile() override;

  using rocksdb::Logger::Logv;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override;
  void LogHeader(const char* format, va_list ap) override;
  size_t GetLogFileSize() const override;

 protected:
  rocksdb::Status CloseImpl() override;

 private:
  // Appends one formatted line. REQUIRES: mutex_ held.
  void WriteLine(const std::string& line);
  // Starts a new file, keeping the current one as LOG.old. REQUIRES: mutex_ held.
  void Rotate();

  const std::string path_;
  const std::string old_path_;
  const size_t max_bytes_;
  mutable std::mutex mutex_;
  int fd_ = -1;      // GUARDED_BY(mutex_)
  size_t size_ = 0;  // GUARDED_BY(mutex_)
};

}  // namespace storage
