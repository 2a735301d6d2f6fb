#include "common/metrics.h"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace common::metrics {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MetricsTest, CounterAndGaugeRenderWithHelpTypeAndLabels) {
  Registry registry;
  registry.counter("x_requests_total", "Requests.", {{"opcode", "QUERY"}}).Increment(3);
  registry.counter("x_requests_total", "Requests.", {{"opcode", "EXECUTE"}}).Increment();
  registry.gauge("x_connections", "Open connections.").Set(7);
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(
      Contains(text, "# HELP x_requests_total Requests.\n# TYPE x_requests_total counter\n"))
      << text;
  EXPECT_TRUE(Contains(text, "x_requests_total{opcode=\"QUERY\"} 3\n")) << text;
  EXPECT_TRUE(Contains(text, "x_requests_total{opcode=\"EXECUTE\"} 1\n")) << text;
  EXPECT_TRUE(Contains(text, "# TYPE x_connections gauge\nx_connections 7\n")) << text;
  EXPECT_EQ(registry.Value("x_requests_total", {{"opcode", "QUERY"}}), 3);
  EXPECT_EQ(registry.Value("x_requests_total", {{"opcode", "PREPARE"}}), -1);
}

TEST(MetricsTest, SameNameAndLabelsIsTheSameMetric) {
  Registry registry;
  Counter& a = registry.counter("c_total", "C.", {{"k", "v"}});
  Counter& b = registry.counter("c_total", "C.", {{"k", "v"}});
  EXPECT_EQ(&a, &b);
  Counter& other_type = registry.counter("c_total", "C.", {{"k", "w"}});
  EXPECT_NE(&a, &other_type);
  // Another type under the same name is detached: never rendered.
  registry.gauge("c_total", "C.").Set(99);
  EXPECT_FALSE(Contains(registry.RenderPrometheus(), "99"));
}

TEST(MetricsTest, LabelValuesAndNamesAreEscaped) {
  Registry registry;
  registry.counter("bad-name.total", "H\\elp\nline", {{"q", "a\"b\\c\nd"}}).Increment();
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(Contains(text, "bad_name_total{q=\"a\\\"b\\\\c\\nd\"} 1")) << text;
  EXPECT_TRUE(Contains(text, "# HELP bad_name_total H\\\\elp\\nline\n")) << text;
}

TEST(MetricsTest, HistogramRendersCumulativeBucketsSumAndCount) {
  Registry registry;
  Histogram& h = registry.histogram("lat_seconds", "Latency.", {{"scope", "Read"}}, {0.1, 1, 10});
  h.Observe(0.05);
  h.Observe(0.5);
  h.Observe(0.5);
  h.Observe(100);
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(Contains(text, "# TYPE lat_seconds histogram\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_bucket{scope=\"Read\",le=\"0.1\"} 1\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_bucket{scope=\"Read\",le=\"1\"} 3\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_bucket{scope=\"Read\",le=\"10\"} 3\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_bucket{scope=\"Read\",le=\"+Inf\"} 4\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_sum{scope=\"Read\"} 101.05\n")) << text;
  EXPECT_TRUE(Contains(text, "lat_seconds_count{scope=\"Read\"} 4\n")) << text;
}

TEST(MetricsTest, PercentilesInterpolateInsideBuckets) {
  Histogram h({10, 20, 30, 40});
  for (int i = 0; i < 10; ++i) h.Observe(15);  // all in (10, 20]
  HistogramSnapshot s = h.snapshot();
  EXPECT_EQ(s.count, 10u);
  EXPECT_DOUBLE_EQ(s.Percentile(0.5), 15);
  EXPECT_DOUBLE_EQ(s.Percentile(1.0), 20);
  EXPECT_DOUBLE_EQ(s.Max(), 20);
  EXPECT_DOUBLE_EQ(s.Min(), 10);
  EXPECT_DOUBLE_EQ(s.Mean(), 15);
  h.Observe(1000);  // +Inf bucket reports its lower bound
  EXPECT_DOUBLE_EQ(h.snapshot().Percentile(1.0), 40);
  EXPECT_DOUBLE_EQ(HistogramSnapshot{}.Percentile(0.5), 0);
}

TEST(MetricsTest, SnapshotsMerge) {
  Histogram a({1, 2});
  Histogram b({1, 2});
  a.Observe(0.5);
  b.Observe(1.5);
  b.Observe(5);
  HistogramSnapshot merged;
  merged.Merge(a.snapshot());
  merged.Merge(b.snapshot());
  EXPECT_EQ(merged.count, 3u);
  EXPECT_EQ(merged.buckets, (std::vector<uint64_t>{1, 1, 1}));
}

TEST(MetricsTest, ExponentialBoundsCoverTheRange) {
  std::vector<double> bounds = Histogram::ExponentialBounds(1, 100, 10);
  ASSERT_EQ(bounds.size(), 21u);
  EXPECT_DOUBLE_EQ(bounds.front(), 1);
  EXPECT_DOUBLE_EQ(bounds[1], 1.26);
  EXPECT_DOUBLE_EQ(bounds[10], 10);
  EXPECT_DOUBLE_EQ(bounds.back(), 100);
  EXPECT_DOUBLE_EQ(Histogram::LatencyBounds().front(), 1e-5);
  EXPECT_DOUBLE_EQ(Histogram::LatencyBounds().back(), 100);
}

TEST(MetricsTest, CollectorsRenderUntilTheirHandleGoes) {
  Registry registry;
  int calls = 0;
  {
    CollectorHandle handle = registry.AddCollector([&calls](SampleWriter& out) {
      ++calls;
      out.Gauge("db_sst_files", "SST files.", {{"table", "t"}}, 4);
      out.Counter("db_flushes_total", "Flushes.", {}, 2);
      Histogram h({1});
      h.Observe(0.5);
      out.Histogram("db_partition_size_bytes", "Sizes.", {{"table", "t"}}, h.snapshot());
    });
    std::string text = registry.RenderPrometheus();
    EXPECT_TRUE(Contains(text, "# TYPE db_sst_files gauge\ndb_sst_files{table=\"t\"} 4\n")) << text;
    EXPECT_TRUE(Contains(text, "# TYPE db_flushes_total counter\ndb_flushes_total 2\n")) << text;
    EXPECT_TRUE(Contains(text, "db_partition_size_bytes_bucket{table=\"t\",le=\"1\"} 1")) << text;
    CollectorHandle moved = std::move(handle);
    EXPECT_TRUE(Contains(registry.RenderPrometheus(), "db_sst_files"));
  }
  EXPECT_FALSE(Contains(registry.RenderPrometheus(), "db_sst_files"));
  EXPECT_EQ(calls, 2);
}

TEST(MetricsTest, ConcurrentUpdatesAreAllCounted) {
  Registry registry;
  Counter& counter = registry.counter("n_total", "N.");
  Histogram& histogram = registry.histogram("h_seconds", "H.", {}, Histogram::LatencyBounds());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        counter.Increment();
        histogram.Observe(0.001);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counter.value(), 40000u);
  EXPECT_EQ(histogram.snapshot().count, 40000u);
}

TEST(MetricsTest, SampleValuesFormat) {
  EXPECT_EQ(FormatSampleValue(3), "3");
  EXPECT_EQ(FormatSampleValue(0.25), "0.25");
  EXPECT_EQ(FormatSampleValue(1.0 / 0.0), "+Inf");
}

}  // namespace
}  // namespace common::metrics
