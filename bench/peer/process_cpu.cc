#include "bench/peer/process_cpu.h"

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace peer {

namespace {

bool ReadStat(pid_t pid, ProcessTimes* times) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  if (!file) return false;
  std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return ParseProcStat(content, static_cast<double>(sysconf(_SC_CLK_TCK)), times);
}

}  // namespace

bool ParseProcStat(std::string_view stat, double ticks_per_second, ProcessTimes* times) {
  // "PID (COMMAND) STATE PPID ...": the command may hold spaces and parentheses, so fields are
  // counted from the last ')'. Field 4 is ppid, 14-17 utime, stime, cutime, cstime.
  size_t close = stat.rfind(')');
  if (close == std::string_view::npos || ticks_per_second <= 0) return false;
  std::string_view rest = stat.substr(close + 1);
  int64_t fields[18] = {};
  int index = 2;
  size_t position = 0;
  while (index < 17 && position < rest.size()) {
    while (position < rest.size() && rest[position] == ' ') ++position;
    size_t end = rest.find(' ', position);
    if (end == std::string_view::npos) end = rest.size();
    ++index;
    std::from_chars(rest.data() + position, rest.data() + end, fields[index]);
    position = end;
  }
  if (index < 17) return false;
  times->parent = static_cast<pid_t>(fields[4]);
  times->own_seconds = static_cast<double>(fields[14] + fields[15]) / ticks_per_second;
  times->children_seconds = static_cast<double>(fields[16] + fields[17]) / ticks_per_second;
  return true;
}

double ProcessTreeCpuSeconds(pid_t pid) {
  ProcessTimes root;
  if (pid <= 0 || !ReadStat(pid, &root)) return 0;
  double total = root.own_seconds + root.children_seconds;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    pid_t child = 0;
    auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), child);
    if (parsed != std::errc() || end != name.data() + name.size() || child == pid) continue;
    ProcessTimes times;
    if (ReadStat(child, &times) && times.parent == pid) {
      total += times.own_seconds + times.children_seconds;
    }
  }
  return total;
}

double SelfCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int64_t DirectoryBytes(const std::string& path) {
  int64_t total = 0;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(path, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    std::error_code ignored;
    if (it->is_regular_file(ignored)) {
      uintmax_t size = it->file_size(ignored);
      if (!ignored) total += static_cast<int64_t>(size);
    }
  }
  return total;
}

}  // namespace peer
