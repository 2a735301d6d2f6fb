// The write-ahead log's file system for `--durability batch`: RocksDB's default file system,
// except that a write-ahead log file is filled with zeros ahead of what RocksDB appends, so
// that the fdatasync each synced write waits for writes the log's data and nothing else.
//
// Why: a synced append to a file that grows makes fdatasync commit the file's new size too,
// which on ext4 is a journal commit: the data block, then the journal's blocks (measured on
// this project's VM: 3 device writes per fdatasync when appending, 2 when overwriting a block
// that already exists, a cache flush included in both). RocksDB's own cure, WAL recycling
// (`recycle_log_file_num`), is turned off by RocksDB 7.8 unless the recovery mode is
// kSkipAnyCorruptedRecords, which replays past a damaged record and so could recover a state
// that never existed; we keep kPointInTimeRecovery. PostgreSQL zero-fills its WAL segments for
// the same reason.
//
// Design (numbered invariants):
//  1. Only write-ahead log files (`<number>.log`) are wrapped; every other file (SSTs,
//     MANIFEST, OPTIONS, the info LOG) is RocksDB's default file, untouched.
//  2. Before RocksDB appends bytes that would reach past the zero-filled end of a log file,
//     the next `kZeroFillChunk` bytes after that end are written with zeros (pwrite on a
//     descriptor of our own; RocksDB's descriptor keeps appending at its own offset). Zeros
//     are only ever written past everything RocksDB appended, never over it. The first synced
//     write after a fill commits the new size (the journal), once per chunk; the writes after
//     it overwrite blocks that exist and commit data alone.
//  3. A crash leaves the live log as RocksDB's records followed by zeros. RocksDB's log reader
//     skips a zero header (type 0, length 0: the padding its own writer puts at the end of a
//     32 KiB block) without reporting corruption, so recovery under kPointInTimeRecovery
//     replays every record and stops at the end, as without the zeros (the crash tests in
//     `engine/crash_test.cc` run in this mode).
//  4. Close truncates the file to what RocksDB appended, so a log closed cleanly (switched
//     after a flush, or at shutdown) has no zeros, and sizes reported for it are exact. Only
//     the live log of a killed process carries zeros, at most one chunk.
//  5. A failure to write the zeros (a full disk) is not an error of the log: zero-filling stops
//     for that file, and RocksDB's appends go on as they would without it (growing the file,
//     and failing or not on their own), so a full disk meets RocksDB's own error handling
//     exactly as before (store.h header invariants 3 and 4).
//
// Thread-safety: as RocksDB's files: a log file is appended by one writer at a time.

#pragma once

#include <cstdint>
#include <memory>

#include <rocksdb/env.h>

namespace storage {

// Bytes of zeros written ahead of the log at a time (invariant 2).
inline constexpr uint64_t kZeroFillChunk = uint64_t{1} << 20;

// An Env over the default file system with zero-filled write-ahead log files. REQUIRES: it
// outlives every DB opened with it.
std::unique_ptr<rocksdb::Env> NewZeroFilledWalEnv();

}  // namespace storage
