#include "engine/tracing.h"

#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/value_codec.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using schema::TraceTablesData;

TraceTablesData::Session SessionWith(uint64_t n) {
  TraceTablesData::Session session;
  session.session_id = common::Uuid::FromHalves(0, n);
  session.duration = 1;
  return session;
}

std::vector<TraceTablesData::Event> Events(uint64_t session, size_t count) {
  std::vector<TraceTablesData::Event> events(count);
  for (size_t i = 0; i < count; ++i) {
    events[i].session_id = common::Uuid::FromHalves(0, session);
    events[i].event_id = common::Uuid::FromHalves(1, i);
  }
  return events;
}

TEST(TraceStoreTest, KeepsTheNewestSessionsWithinBothBounds) {
  TraceStore store(/*max_sessions=*/3, /*max_events=*/10);
  for (uint64_t n = 1; n <= 4; ++n) store.Add(SessionWith(n), Events(n, 2));
  EXPECT_EQ(store.session_count(), 3u);  // session 1 dropped
  EXPECT_EQ(store.event_count(), 6u);
  const common::Uuid first = common::Uuid::FromHalves(0, 1);
  EXPECT_TRUE(store.Snapshot(std::span<const common::Uuid>(&first, 1)).sessions.empty());
  store.Add(SessionWith(5), Events(5, 7));  // 13 events > 10: sessions 2 and 3 go
  EXPECT_EQ(store.session_count(), 2u);
  EXPECT_EQ(store.event_count(), 9u);
  TraceTablesData all = store.Snapshot({});
  ASSERT_EQ(all.sessions.size(), 2u);
  EXPECT_EQ(all.events.size(), 9u);
  const common::Uuid fifth = common::Uuid::FromHalves(0, 5);
  TraceTablesData one = store.Snapshot(std::span<const common::Uuid>(&fifth, 1));
  ASSERT_EQ(one.sessions.size(), 1u);
  EXPECT_EQ(one.events.size(), 7u);
}

TEST(TracingTest, TraceRecordsOnlyInsideAScope) {
  common::ManualClock clock(1'700'000'000'000'000);
  common::TimeuuidGenerator timeuuids(&clock);
  schema::LocalNodeInfo node;
  Tracer tracer(&clock, &timeuuids, &node);
  Trace("not traced {}", 1);
  EXPECT_EQ(CurrentTrace(), nullptr);
  std::optional<common::Uuid> id;
  {
    TraceScope scope(&tracer, /*requested=*/true, [] {
      return TraceRequest{"Execute CQL3 query", {{"query", "SELECT 1"}}, "10.0.0.7"};
    });
    ASSERT_TRUE(scope.active());
    id = scope.client_id();
    Trace("first {}", 1);
    {
      // A nested scope joins the outer session.
      TraceScope nested(&tracer, true, [] { return TraceRequest{}; });
      EXPECT_FALSE(nested.active());
      Trace("second");
    }
    EXPECT_EQ(tracer.store().session_count(), 0u);  // stored when the session ends
  }
  EXPECT_EQ(CurrentTrace(), nullptr);
  ASSERT_TRUE(id.has_value());
  TraceTablesData data = tracer.store().Snapshot({});
  ASSERT_EQ(data.sessions.size(), 1u);
  const TraceTablesData::Session& session = data.sessions[0];
  EXPECT_EQ(session.session_id, *id);
  EXPECT_EQ(session.client, "10.0.0.7");
  EXPECT_EQ(session.coordinator, "127.0.0.1");
  EXPECT_EQ(session.request, "Execute CQL3 query");
  EXPECT_EQ(session.command, "QUERY");
  EXPECT_EQ(session.started_at_millis, 1'700'000'000'000);
  ASSERT_TRUE(session.duration.has_value());
  EXPECT_GT(*session.duration, 0);
  ASSERT_EQ(data.events.size(), 2u);
  EXPECT_EQ(data.events[0].activity, "first 1");
  EXPECT_EQ(data.events[1].activity, "second");
  EXPECT_LE(data.events[0].source_elapsed, data.events[1].source_elapsed);
  EXPECT_LT(data.events[0].event_id, data.events[1].event_id);
}

TEST(TracingTest, ProbabilityTracesWithoutReturningTheId) {
  common::ManualClock clock(1'700'000'000'000'000);
  common::TimeuuidGenerator timeuuids(&clock);
  schema::LocalNodeInfo node;
  Tracer tracer(&clock, &timeuuids, &node);
  EXPECT_EQ(tracer.probability(), 0.0);
  {
    TraceScope scope(&tracer, false, [] { return TraceRequest{}; });
    EXPECT_FALSE(scope.active());
  }
  tracer.set_probability(7);  // clamped
  EXPECT_EQ(tracer.probability(), 1.0);
  {
    TraceScope scope(&tracer, false, [] { return TraceRequest{}; });
    EXPECT_TRUE(scope.active());
    EXPECT_FALSE(scope.client_id().has_value());
  }
  EXPECT_EQ(tracer.store().session_count(), 1u);
  tracer.set_probability(-1);
  EXPECT_EQ(tracer.probability(), 0.0);
}

TEST(TracingTest, RedactPasswordsHidesEveryPasswordLiteral) {
  EXPECT_EQ(RedactPasswords("CREATE ROLE r WITH PASSWORD = 'secret' AND LOGIN = true"),
            "CREATE ROLE r WITH PASSWORD = '***' AND LOGIN = true");
  EXPECT_EQ(RedactPasswords("alter user u with password 'it''s' superuser"),
            "alter user u with password '***' superuser");
  EXPECT_EQ(RedactPasswords("CREATE ROLE r WITH HASHED PASSWORD = $$x$$"),
            "CREATE ROLE r WITH HASHED PASSWORD = '***'");
  EXPECT_EQ(RedactPasswords("CREATE ROLE r WITH PASSWORD = 'unterminated"),
            "CREATE ROLE r WITH PASSWORD = '***'");
  EXPECT_EQ(RedactPasswords("SELECT passwords FROM t WHERE k = 'password'"),
            "SELECT passwords FROM t WHERE k = 'password'");
  EXPECT_EQ(RedactPasswords("CREATE ROLE r WITH PASSWORD = ?"), "CREATE ROLE r WITH PASSWORD = ?");
}

// ---------------------------------------------------------------------------------------------
// Through the Database: tracing, warnings, tombstone thresholds.

class DatabaseTracingTest : public testing::SessionTest {
 protected:
  DatabaseTracingTest() {
    options_.tombstone_warn_threshold = 5;
    options_.tombstone_failure_threshold = 20;
  }

  cql::ResultSet Traced(const std::string& query) {
    cql::QueryOptions options;
    options.tracing = true;
    return Query(query, options);
  }

  std::vector<std::string> Activities(const common::Uuid& id) {
    cql::ResultSet events =
        Query("SELECT activity, source_elapsed FROM system_traces.events WHERE session_id = " +
              id.ToString());
    std::vector<std::string> activities;
    int64_t previous = -1;
    for (size_t row = 0; row < events.row_count(); ++row) {
      activities.push_back(events.GetText(row, 0).value());
      const int64_t elapsed = events.GetInteger(row, 1).value();
      EXPECT_GE(elapsed, previous) << activities.back();
      previous = elapsed;
    }
    return activities;
  }
};

bool Contains(const std::vector<std::string>& activities, std::string_view wanted) {
  return std::any_of(activities.begin(), activities.end(),
                     [&](const std::string& a) { return a.find(wanted) != std::string::npos; });
}

TEST_F(DatabaseTracingTest, ATracedQueryHasItsSessionAndEvents) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)");
  EXPECT_FALSE(Query("SELECT * FROM ks.t WHERE k = 1").tracing_id().has_value());
  EXPECT_EQ(db_->tracer().store().session_count(), 0u);

  cql::ResultSet result = Traced("SELECT * FROM ks.t WHERE k = 1");
  ASSERT_TRUE(result.tracing_id().has_value());
  const common::Uuid id = *result.tracing_id();
  cql::ResultSet sessions = Query(
      "SELECT request, duration, parameters, command FROM system_traces.sessions WHERE "
      "session_id = " +
      id.ToString());
  ASSERT_EQ(sessions.row_count(), 1u);
  EXPECT_EQ(sessions.GetText(0, 0).value(), "Execute CQL3 query");
  EXPECT_GT(sessions.GetInteger(0, 1).value(), 0);
  EXPECT_EQ(sessions.GetText(0, 3).value(), "QUERY");
  const std::vector<std::string> activities = Activities(id);
  EXPECT_TRUE(Contains(activities, "Executing single-partition query on t")) << activities[0];
  EXPECT_TRUE(Contains(activities, "Read partition (1) of ks.t: 1 live rows and 0 tombstone"));
  EXPECT_TRUE(Contains(activities, "Read 1 live rows and 0 tombstone cells"));

  // A write, a prepared statement and a lightweight transaction have their own events.
  cql::ResultSet write = Traced("INSERT INTO ks.t (k, c, v) VALUES (1, 2, 2)");
  ASSERT_TRUE(write.tracing_id().has_value());
  EXPECT_TRUE(Contains(Activities(*write.tracing_id()), "Mutations applied"));
  cql::ResultSet lwt = Traced("UPDATE ks.t SET v = 3 WHERE k = 1 AND c = 2 IF v = 2");
  ASSERT_TRUE(lwt.tracing_id().has_value());
  const std::vector<std::string> lwt_events = Activities(*lwt.tracing_id());
  EXPECT_TRUE(Contains(lwt_events, "Reading existing values for CAS precondition"));
  EXPECT_TRUE(Contains(lwt_events, "CAS precondition is met"));
  auto prepared = db_->Prepare("SELECT v FROM ks.t WHERE k = ?", "");
  ASSERT_TRUE(prepared.ok());
  cql::QueryOptions options;
  options.tracing = true;
  options.values = {cql::BoundValue::Of(cql::SerializeInt(1))};
  SessionState state;
  auto executed = db_->Execute(**prepared, options, &state);
  ASSERT_TRUE(executed.ok());
  ASSERT_TRUE(executed->tracing_id().has_value());
  cql::ResultSet request = Query("SELECT request FROM system_traces.sessions WHERE session_id = " +
                                 executed->tracing_id()->ToString());
  ASSERT_EQ(request.row_count(), 1u);
  EXPECT_EQ(request.GetText(0, 0).value(), "Execute CQL3 prepared query");
}

TEST_F(DatabaseTracingTest, ABatchIsTraced) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  cql::BatchRequest batch;
  batch.tracing = true;
  batch.entries.push_back({"INSERT INTO ks.t (k, v) VALUES (1, 1)", nullptr, {}, {}});
  batch.entries.push_back({"INSERT INTO ks.t (k, v) VALUES (2, 2)", nullptr, {}, {}});
  auto result = session_->ExecuteBatch(batch);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_TRUE(result->tracing_id().has_value());
  const std::vector<std::string> activities = Activities(*result->tracing_id());
  EXPECT_TRUE(Contains(activities, "Executing logged batch of 2 statements"));
  EXPECT_TRUE(Contains(activities, "Batch applied"));
}

TEST_F(DatabaseTracingTest, TraceProbabilityTracesRequestsThatDidNotAsk) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  EXPECT_EQ(db_->TraceProbability(), 0.0);
  db_->SetTraceProbability(1.0);
  cql::ResultSet result = Query("SELECT * FROM ks.t WHERE k = 1");
  EXPECT_FALSE(result.tracing_id().has_value());  // not returned: the client did not ask
  db_->SetTraceProbability(0.0);
  cql::ResultSet sessions = Query("SELECT parameters FROM system_traces.sessions");
  ASSERT_EQ(sessions.row_count(), 1u);
}

TEST_F(DatabaseTracingTest, AggregationWithoutPartitionKeyWarns) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)");
  const std::vector<std::string> none;
  const std::vector<std::string> without = {"Aggregation query used without partition key"};
  const std::vector<std::string> in = {
      "Aggregation query used on multiple partition keys (IN restriction)"};
  EXPECT_EQ(Query("SELECT count(*) FROM ks.t").warnings(), without);
  EXPECT_EQ(Query("SELECT max(v) FROM ks.t WHERE c = 1 ALLOW FILTERING").warnings(), without);
  EXPECT_EQ(Query("SELECT k, count(*) FROM ks.t GROUP BY k").warnings(), without);
  EXPECT_EQ(Query("SELECT count(*) FROM ks.t WHERE k = 1").warnings(), none);
  EXPECT_EQ(Query("SELECT count(*) FROM ks.t WHERE token(k) > 0").warnings(), none);
  EXPECT_EQ(Query("SELECT count(*) FROM ks.t WHERE k IN (1, 2)").warnings(), in);
  EXPECT_EQ(Query("SELECT * FROM ks.t").warnings(), none);
  EXPECT_EQ(Query("SELECT count(*) FROM system_schema.tables").warnings(), none);
}

TEST_F(DatabaseTracingTest, TombstonesOverTheWarnThresholdWarn) {
  Run("CREATE TABLE ks.t (k int, c int, v int, w int, PRIMARY KEY (k, c))");
  for (int c = 0; c < 4; ++c) {
    Run(fmt::format("INSERT INTO ks.t (k, c, v, w) VALUES (1, {}, 1, 1)", c));
  }
  // Row tombstones (3), a cell tombstone (1): 4, not over 5.
  Run("DELETE FROM ks.t WHERE k = 1 AND c = 0");
  Run("DELETE FROM ks.t WHERE k = 1 AND c = 1");
  Run("DELETE FROM ks.t WHERE k = 1 AND c = 2");
  Run("DELETE v FROM ks.t WHERE k = 1 AND c = 3");
  EXPECT_TRUE(Query("SELECT * FROM ks.t WHERE k = 1").warnings().empty());
  // A range tombstone is two more (its bounds): 6.
  Run("DELETE FROM ks.t WHERE k = 1 AND c > 10");
  cql::ResultSet result = Query("SELECT * FROM ks.t WHERE k = 1");
  EXPECT_EQ(result.row_count(), 1u);
  ASSERT_EQ(result.warnings().size(), 1u);
  EXPECT_EQ(result.warnings()[0],
            "Read 1 live rows and 6 tombstone cells for query SELECT * FROM ks.t WHERE k = 1 "
            "(see tombstone_warn_threshold)");
  cql::ResultSet traced = Traced("SELECT * FROM ks.t WHERE k = 1");
  ASSERT_TRUE(traced.tracing_id().has_value());
  EXPECT_TRUE(Contains(Activities(*traced.tracing_id()),
                       "Read 1 live rows and 6 tombstone cells (see tombstone_warn_threshold)"));
}

TEST_F(DatabaseTracingTest, TombstonesOverTheFailureThresholdFailTheRead) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  for (int c = 0; c < 21; ++c) {
    Run(fmt::format("INSERT INTO ks.t (k, c, v) VALUES (1, {}, 1)", c));
    Run(fmt::format("DELETE FROM ks.t WHERE k = 1 AND c = {}", c));
  }
  auto result = session_->Execute("SELECT * FROM ks.t WHERE k = 1");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kReadFailure);
  EXPECT_EQ(result.status().message(),
            "Operation failed - received 0 responses and 1 failures: READ_TOO_MANY_TOMBSTONES "
            "from /127.0.0.1:7000");
  // A scan fails the same way; a partition with fewer tombstones still reads.
  EXPECT_FALSE(session_->Execute("SELECT * FROM ks.t").ok());
  EXPECT_TRUE(session_->Execute("SELECT * FROM ks.t WHERE k = 2").ok());
}

class ExpiredCellsTest : public DatabaseTracingTest {
 protected:
  ExpiredCellsTest() { options_.clock = &clock_; }
  common::ManualClock clock_{1'700'000'000'000'000};
};

TEST_F(ExpiredCellsTest, ExpiredCellsCountAsTombstones) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  for (int c = 0; c < 3; ++c) {
    Run(fmt::format("INSERT INTO ks.t (k, c, v) VALUES (1, {}, 1) USING TTL 10", c));
    Run(fmt::format("UPDATE ks.t USING TTL 10 SET v = 2 WHERE k = 1 AND c = {}", c + 10));
  }
  EXPECT_TRUE(Query("SELECT * FROM ks.t WHERE k = 1").warnings().empty());
  clock_.AdvanceMicros(11'000'000);
  // Six expired cells, no live row.
  cql::ResultSet result = Query("SELECT * FROM ks.t WHERE k = 1");
  EXPECT_EQ(result.row_count(), 0u);
  ASSERT_EQ(result.warnings().size(), 1u);
  EXPECT_EQ(result.warnings()[0].rfind("Read 0 live rows and 6 tombstone cells for query", 0), 0u)
      << result.warnings()[0];
}

}  // namespace
}  // namespace engine
