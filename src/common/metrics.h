// Metrics: counters, gauges and histograms, and their Prometheus text exposition.
//
//   static common::metrics::Counter& requests = common::metrics::Registry::Global().counter(
//       "cqld_native_requests_total", "Requests received, by opcode.", {{"opcode", "QUERY"}});
//   requests.Increment();
//
// A metric is a name, a help text and a set of labels; asking the registry twice for the same
// name and labels returns the same object, which lives as long as the registry (the global one:
// the process). Values are updated lock-free (relaxed atomics): an update costs one atomic add,
// a histogram observation a binary search over its bounds and two atomic adds.
//
// Values that are cheaper to compute when scraped than to keep up to date (RocksDB properties,
// per-table statistics, the memory budget) come from collectors: functions that write samples
// into a `SampleWriter` each time the registry is rendered. A collector is removed when its
// `CollectorHandle` is destroyed, so an object that registers one (a database, a server) stops
// reporting when it closes.
//
// `RenderPrometheus` writes the Prometheus text format (version 0.0.4): one `# HELP` and
// `# TYPE` line per metric name, then its samples; histograms as cumulative `_bucket{le=...}`
// lines with `_sum` and `_count`. Names follow Prometheus' conventions: counters end in
// `_total`, durations are in seconds, sizes in bytes.
//
// Thread-safety: everything here is thread-safe. Collectors run on the rendering thread, with
// the registry's collector lock held: a collector must not add or remove collectors.

#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace common::metrics {

// Label names and values, in the order they are written.
using Labels = std::vector<std::pair<std::string, std::string>>;

// A monotonically increasing count.
class Counter {
 public:
  void Increment(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// A value that goes up and down.
class Gauge {
 public:
  void Set(int64_t value) { value_.store(value, std::memory_order_relaxed); }
  void Add(int64_t delta) { value_.fetch_add(delta, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// What a histogram holds at one moment.
struct HistogramSnapshot {
  std::vector<double> bounds;     // ascending upper bounds; the last bucket is +Inf
  std::vector<uint64_t> buckets;  // observations per bucket (not cumulative), bounds.size() + 1
  uint64_t count = 0;
  double sum = 0;

  // The value below which a fraction `q` (0..1) of the observations fall, interpolated linearly
  // inside the bucket that holds it (the +Inf bucket reports its lower bound); 0 when empty.
  double Percentile(double q) const;
  // The upper bound of the highest non-empty bucket (its lower bound for +Inf); 0 when empty.
  double Max() const;
  // The lower bound of the lowest non-empty bucket; 0 when empty.
  double Min() const;
  double Mean() const { return count == 0 ? 0 : sum / static_cast<double>(count); }
  // Adds the observations of `other`, which must have the same bounds.
  void Merge(const HistogramSnapshot& other);
};

// Observations counted in buckets with fixed upper bounds.
class Histogram {
 public:
  // `bounds` ascending; an implicit +Inf bucket follows the last.
  explicit Histogram(std::vector<double> bounds);

  // `per_decade` bounds per power of ten from `first` up to and including the first bound at or
  // above `last` (1, 1.26, 1.58, 2, 2.51, ... for per_decade 10), rounded to 3 significant
  // digits.
  static std::vector<double> ExponentialBounds(double first, double last, int per_decade);
  // Durations in seconds, 10 µs to 100 s, ten buckets per decade.
  static const std::vector<double>& LatencyBounds();
  // Sizes in bytes, 1 B to 100 GiB, five buckets per decade.
  static const std::vector<double>& SizeBounds();

  void Observe(double value);
  HistogramSnapshot snapshot() const;
  const std::vector<double>& bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

// Where collectors write the samples they compute at render time.
class SampleWriter {
 public:
  virtual ~SampleWriter() = default;
  virtual void Counter(std::string_view name, std::string_view help, const Labels& labels,
                       double value) = 0;
  virtual void Gauge(std::string_view name, std::string_view help, const Labels& labels,
                     double value) = 0;
  virtual void Histogram(std::string_view name, std::string_view help, const Labels& labels,
                         const HistogramSnapshot& snapshot) = 0;
};

class Registry;

// Removes its collector from the registry when destroyed. Movable.
class CollectorHandle {
 public:
  CollectorHandle() = default;
  CollectorHandle(Registry* registry, uint64_t id) : registry_(registry), id_(id) {}
  CollectorHandle(CollectorHandle&& other) noexcept { *this = std::move(other); }
  CollectorHandle& operator=(CollectorHandle&& other) noexcept;
  ~CollectorHandle() { Reset(); }
  void Reset();

 private:
  Registry* registry_ = nullptr;
  uint64_t id_ = 0;
};

class Registry {
 public:
  using Collector = std::function<void(SampleWriter&)>;

  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The process's registry, which every server and engine metric is in.
  static Registry& Global();

  // The metric with this name and labels, created on first use. A name is one type: asking for
  // a name already registered as another type returns a metric that is never rendered (and
  // logs nothing: tests catch it). Characters not allowed in names become '_'.
  metrics::Counter& counter(std::string_view name, std::string_view help,
                            const Labels& labels = {});
  metrics::Gauge& gauge(std::string_view name, std::string_view help, const Labels& labels = {});
  // `bounds` applies when the histogram is created.
  metrics::Histogram& histogram(std::string_view name, std::string_view help, const Labels& labels,
                                const std::vector<double>& bounds);

  [[nodiscard]] CollectorHandle AddCollector(Collector collector);

  // Every metric and every collector's samples, in Prometheus text format, names sorted.
  std::string RenderPrometheus() const;

  // The current value of a counter or gauge registered (not collected) under this name and
  // these labels; -1 when there is none. For tests and the admin API.
  double Value(std::string_view name, const Labels& labels = {}) const;

 private:
  friend class CollectorHandle;
  struct Family;
  struct Entry;

  Entry& Find(std::string_view name, std::string_view help, const Labels& labels, int type,
              const std::vector<double>* bounds);
  void RemoveCollector(uint64_t id);

  mutable std::mutex mutex_;  // guards families_
  std::map<std::string, std::unique_ptr<Family>, std::less<>> families_;
  mutable std::mutex collectors_mutex_;  // guards collectors_ and next_id_
  std::map<uint64_t, Collector> collectors_;
  uint64_t next_id_ = 1;
};

// Prometheus text-format helpers, shared with servers that render their own samples.
std::string EscapeLabelValue(std::string_view value);
std::string FormatSampleValue(double value);

}  // namespace common::metrics
