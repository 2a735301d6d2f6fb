#include "hotel/progress_bar.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace hotel {

std::string FormatCount(double count) {
  if (!(count > 0)) return "0";
  if (count < 1000) return fmt::format("{:.0f}", count);
  if (count < 1e6) return fmt::format("{:.1f}k", count / 1e3);
  if (count < 1e9) return fmt::format("{:.1f}M", count / 1e6);
  return fmt::format("{:.1f}G", count / 1e9);
}

std::string FormatDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 99.0 * 86400) return "?";
  auto whole = static_cast<int64_t>(std::llround(seconds));
  if (whole < 60) return fmt::format("{}s", whole);
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
}

std::string FormatProgress(int64_t done, int64_t total, double seconds, bool finished,
                           int bar_width) {
  double fraction =
      total > 0 ? std::clamp(static_cast<double>(done) / total, 0.0, 1.0) : (finished ? 1.0 : 0.0);
  if (finished) fraction = 1.0;
  std::string line;
  if (bar_width > 0) {
    int filled = static_cast<int>(fraction * bar_width);
    line = "[" + std::string(static_cast<size_t>(filled), '#') +
           std::string(static_cast<size_t>(bar_width - filled), '.') + "]  ";
  }
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  line += fmt::format("{}/{} rows  {} rows/s  ", FormatCount(static_cast<double>(done)),
                      FormatCount(static_cast<double>(total)), FormatCount(rate));
  if (finished) {
    line += "done in " + FormatDuration(seconds);
  } else if (rate <= 0 || done <= 0) {
    line += "ETA ?";
  } else {
    line += "ETA " + FormatDuration(static_cast<double>(std::max<int64_t>(0, total - done)) / rate);
  }
  return line;
}

}  // namespace hotel
