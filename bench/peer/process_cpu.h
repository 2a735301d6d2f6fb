// What the peer comparison measures of the servers from outside (bench/peer/): CPU time read
// from /proc, and bytes on disk.
//
// A server's CPU is that of its process and of every child it started and reaped: for cqld one
// process (all its threads); for PostgreSQL the postmaster, whose `cutime`/`cstime` hold the
// backends that have exited (a benchmark's connections close at its end), plus the children
// still running (checkpointer, background writer, WAL writer, autovacuum, open backends).
// Measure before and after a phase; wait a moment after closing connections so the postmaster
// has reaped their backends.
//
// Thread-safety: stateless functions.

#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace peer {

struct ProcessTimes {
  double own_seconds = 0;       // utime + stime
  double children_seconds = 0;  // cutime + cstime (reaped children)
  pid_t parent = 0;
};

// Parses the text of /proc/PID/stat. False when it is malformed.
bool ParseProcStat(std::string_view stat, double ticks_per_second, ProcessTimes* times);

// CPU seconds of `pid`, its reaped children and its living children (the file comment); 0 when
// the process is gone.
double ProcessTreeCpuSeconds(pid_t pid);

// CPU seconds of this process.
double SelfCpuSeconds();

// Bytes of the regular files under `path` (0 when it cannot be read).
int64_t DirectoryBytes(const std::string& path);

}  // namespace peer
