#include "common/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace common::metrics {

namespace {

enum Type { kCounter = 0, kGauge = 1, kHistogram = 2 };

constexpr const char* kTypeNames[] = {"counter", "gauge", "histogram"};

bool IsNameChar(char c, bool first) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  return alpha || (!first && c >= '0' && c <= '9');
}

// `name` with characters a Prometheus name may not hold replaced by '_'.
std::string SanitizeName(std::string_view name) {
  std::string out(name);
  for (size_t i = 0; i < out.size(); ++i) {
    if (!IsNameChar(out[i], i == 0)) out[i] = '_';
  }
  return out;
}

// `{a="1",b="2"}`, or "" without labels; `extra` is appended (a histogram's le).
std::string FormatLabels(const Labels& labels, std::string_view extra = {}) {
  if (labels.empty() && extra.empty()) return "";
  std::string out = "{";
  for (const auto& [key, value] : labels) {
    if (out.size() > 1) out += ',';
    out += SanitizeName(key);
    out += "=\"";
    out += EscapeLabelValue(value);
    out += '"';
  }
  if (!extra.empty()) {
    if (out.size() > 1) out += ',';
    out += extra;
  }
  out += '}';
  return out;
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

double RoundSignificant(double value, int digits) {
  if (value <= 0) return value;
  double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(value))));
  return std::round(value * scale) / scale;
}

// The lines of one metric name while rendering.
struct RenderedFamily {
  int type = kCounter;
  std::string help;
  std::vector<std::string> samples;
};

using RenderedFamilies = std::map<std::string, RenderedFamily, std::less<>>;

RenderedFamily* FamilyFor(RenderedFamilies* families, std::string_view name, std::string_view help,
                          int type) {
  auto it = families->find(name);
  if (it == families->end()) {
    it = families->emplace(std::string(name), RenderedFamily{type, std::string(help), {}}).first;
  }
  return it->second.type == type ? &it->second : nullptr;
}

void AppendHistogram(const std::string& name, const Labels& labels,
                     const HistogramSnapshot& snapshot, std::vector<std::string>* out) {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < snapshot.buckets.size(); ++i) {
    cumulative += snapshot.buckets[i];
    std::string le = i < snapshot.bounds.size() ? FormatSampleValue(snapshot.bounds[i]) : "+Inf";
    out->push_back(
        fmt::format("{}_bucket{} {}", name, FormatLabels(labels, "le=\"" + le + "\""), cumulative));
  }
  out->push_back(
      fmt::format("{}_sum{} {}", name, FormatLabels(labels), FormatSampleValue(snapshot.sum)));
  out->push_back(fmt::format("{}_count{} {}", name, FormatLabels(labels), snapshot.count));
}

// Collectors' samples, written into the families being rendered.
class RenderingWriter final : public SampleWriter {
 public:
  explicit RenderingWriter(RenderedFamilies* families) : families_(families) {}

  void Counter(std::string_view name, std::string_view help, const Labels& labels,
               double value) override {
    Scalar(name, help, labels, value, kCounter);
  }
  void Gauge(std::string_view name, std::string_view help, const Labels& labels,
             double value) override {
    Scalar(name, help, labels, value, kGauge);
  }
  void Histogram(std::string_view name, std::string_view help, const Labels& labels,
                 const HistogramSnapshot& snapshot) override {
    std::string clean = SanitizeName(name);
    if (RenderedFamily* family = FamilyFor(families_, clean, help, kHistogram)) {
      AppendHistogram(clean, labels, snapshot, &family->samples);
    }
  }

 private:
  void Scalar(std::string_view name, std::string_view help, const Labels& labels, double value,
              int type) {
    std::string clean = SanitizeName(name);
    if (RenderedFamily* family = FamilyFor(families_, clean, help, type)) {
      family->samples.push_back(
          fmt::format("{}{} {}", clean, FormatLabels(labels), FormatSampleValue(value)));
    }
  }

  RenderedFamilies* families_;
};

}  // namespace

// --- HistogramSnapshot ---

double HistogramSnapshot::Percentile(double q) const {
  if (count == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  double rank = q * static_cast<double>(count);
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (buckets[i] == 0) continue;
    double lower = i == 0 ? 0 : bounds[i - 1];
    if (i == bounds.size()) return lower;
    if (static_cast<double>(seen + buckets[i]) >= rank) {
      double within = (rank - static_cast<double>(seen)) / static_cast<double>(buckets[i]);
      return lower + (bounds[i] - lower) * std::clamp(within, 0.0, 1.0);
    }
    seen += buckets[i];
  }
  return Max();
}

double HistogramSnapshot::Max() const {
  for (size_t i = buckets.size(); i-- > 0;) {
    if (buckets[i] == 0) continue;
    if (i < bounds.size()) return bounds[i];
    return bounds.empty() ? 0 : bounds.back();
  }
  return 0;
}

double HistogramSnapshot::Min() const {
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (buckets[i] != 0) return i == 0 ? 0 : bounds[i - 1];
  }
  return 0;
}

void HistogramSnapshot::Merge(const HistogramSnapshot& other) {
  if (bounds.empty() && buckets.empty()) {
    *this = other;
    return;
  }
  if (other.buckets.size() != buckets.size()) return;
  for (size_t i = 0; i < buckets.size(); ++i) buckets[i] += other.buckets[i];
  count += other.count;
  sum += other.sum;
}

// --- Histogram ---

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), buckets_(new std::atomic<uint64_t>[bounds_.size() + 1]) {
  std::sort(bounds_.begin(), bounds_.end());
  for (size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

std::vector<double> Histogram::ExponentialBounds(double first, double last, int per_decade) {
  std::vector<double> bounds;
  if (first <= 0 || per_decade <= 0) return bounds;
  double step = std::pow(10.0, 1.0 / per_decade);
  for (int i = 0;; ++i) {
    double bound = RoundSignificant(first * std::pow(step, i), 3);
    if (bounds.empty() || bound > bounds.back()) bounds.push_back(bound);
    if (bound >= last * (1 - 1e-9)) break;
  }
  return bounds;
}

const std::vector<double>& Histogram::LatencyBounds() {
  static const std::vector<double> bounds = ExponentialBounds(1e-5, 100, 10);
  return bounds;
}

const std::vector<double>& Histogram::SizeBounds() {
  static const std::vector<double> bounds = ExponentialBounds(1, 100.0 * (1ull << 30), 5);
  return bounds;
}

void Histogram::Observe(double value) {
  size_t bucket = std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

HistogramSnapshot Histogram::snapshot() const {
  HistogramSnapshot out;
  out.bounds = bounds_;
  out.buckets.resize(bounds_.size() + 1);
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    out.buckets[i] = buckets_[i].load(std::memory_order_relaxed);
    out.count += out.buckets[i];
  }
  out.sum = sum_.load(std::memory_order_relaxed);
  return out;
}

// --- CollectorHandle ---

CollectorHandle& CollectorHandle::operator=(CollectorHandle&& other) noexcept {
  if (this != &other) {
    Reset();
    registry_ = std::exchange(other.registry_, nullptr);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void CollectorHandle::Reset() {
  if (registry_ != nullptr) registry_->RemoveCollector(id_);
  registry_ = nullptr;
  id_ = 0;
}

// --- Registry ---

struct Registry::Entry {
  Labels labels;
  metrics::Counter counter;
  metrics::Gauge gauge;
  std::unique_ptr<metrics::Histogram> histogram;
};

struct Registry::Family {
  int type = kCounter;
  std::string help;
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries;  // by rendered labels
};

Registry::Registry() = default;
Registry::~Registry() = default;

Registry& Registry::Global() {
  static Registry* registry = new Registry();  // never destroyed: metrics outlive statics
  return *registry;
}

Registry::Entry& Registry::Find(std::string_view name, std::string_view help, const Labels& labels,
                                int type, const std::vector<double>* bounds) {
  std::string clean = SanitizeName(name);
  std::string key = FormatLabels(labels);
  std::lock_guard lock(mutex_);
  auto family_it = families_.find(clean);
  if (family_it == families_.end()) {
    auto family = std::make_unique<Family>();
    family->type = type;
    family->help = std::string(help);
    family_it = families_.emplace(clean, std::move(family)).first;
  }
  Family* family = family_it->second.get();
  if (family->type != type) {
    // A second type under one name: a detached entry, kept alive but never rendered.
    static std::mutex orphans_mutex;
    static std::vector<std::unique_ptr<Entry>>* orphans = new std::vector<std::unique_ptr<Entry>>;
    std::lock_guard orphans_lock(orphans_mutex);
    orphans->push_back(std::make_unique<Entry>());
    if (bounds != nullptr)
      orphans->back()->histogram = std::make_unique<metrics::Histogram>(*bounds);
    return *orphans->back();
  }
  auto entry_it = family->entries.find(key);
  if (entry_it == family->entries.end()) {
    auto entry = std::make_unique<Entry>();
    entry->labels = labels;
    if (bounds != nullptr) entry->histogram = std::make_unique<metrics::Histogram>(*bounds);
    entry_it = family->entries.emplace(key, std::move(entry)).first;
  }
  return *entry_it->second;
}

Counter& Registry::counter(std::string_view name, std::string_view help, const Labels& labels) {
  return Find(name, help, labels, kCounter, nullptr).counter;
}

Gauge& Registry::gauge(std::string_view name, std::string_view help, const Labels& labels) {
  return Find(name, help, labels, kGauge, nullptr).gauge;
}

Histogram& Registry::histogram(std::string_view name, std::string_view help, const Labels& labels,
                               const std::vector<double>& bounds) {
  return *Find(name, help, labels, kHistogram, &bounds).histogram;
}

CollectorHandle Registry::AddCollector(Collector collector) {
  std::lock_guard lock(collectors_mutex_);
  uint64_t id = next_id_++;
  collectors_.emplace(id, std::move(collector));
  return CollectorHandle(this, id);
}

void Registry::RemoveCollector(uint64_t id) {
  std::lock_guard lock(collectors_mutex_);
  collectors_.erase(id);
}

std::string Registry::RenderPrometheus() const {
  RenderedFamilies rendered;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, family] : families_) {
      RenderedFamily& out = rendered[name];
      out.type = family->type;
      out.help = family->help;
      for (const auto& [labels, entry] : family->entries) {
        if (family->type == kCounter) {
          out.samples.push_back(fmt::format("{}{} {}", name, labels, entry->counter.value()));
        } else if (family->type == kGauge) {
          out.samples.push_back(fmt::format("{}{} {}", name, labels, entry->gauge.value()));
        } else {
          AppendHistogram(name, entry->labels, entry->histogram->snapshot(), &out.samples);
        }
      }
    }
  }
  {
    RenderingWriter writer(&rendered);
    std::lock_guard lock(collectors_mutex_);
    for (const auto& [id, collector] : collectors_) collector(writer);
  }
  std::string out;
  for (const auto& [name, family] : rendered) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, EscapeHelp(family.help), name,
                       kTypeNames[family.type]);
    for (const std::string& sample : family.samples) {
      out += sample;
      out += '\n';
    }
  }
  return out;
}

double Registry::Value(std::string_view name, const Labels& labels) const {
  std::string clean = SanitizeName(name);
  std::string key = FormatLabels(labels);
  std::lock_guard lock(mutex_);
  auto family = families_.find(clean);
  if (family == families_.end()) return -1;
  auto entry = family->second->entries.find(key);
  if (entry == family->second->entries.end()) return -1;
  if (family->second->type == kCounter) return static_cast<double>(entry->second->counter.value());
  if (family->second->type == kGauge) return static_cast<double>(entry->second->gauge.value());
  return -1;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatSampleValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return fmt::format("{}", static_cast<int64_t>(value));
  }
  return fmt::format("{}", value);
}

}  // namespace common::metrics
