"""Query tracing (the driver's trace=True and get_query_trace()) and client warnings, as
Cassandra 4 gives them. Written to pass unchanged against Apache Cassandra."""

import uuid

import pytest
from cassandra.query import BatchStatement, BatchType, SimpleStatement


@pytest.fixture(scope="module")
def table(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.t (k int, c int, v text, PRIMARY KEY (k, c))")
    for c in range(3):
        session.execute(f"INSERT INTO {keyspace}.t (k, c, v) VALUES (1, {c}, 'v{c}')")
    return f"{keyspace}.t"


def test_trace_of_a_query(session, table):
    result = session.execute(f"SELECT * FROM {table} WHERE k = 1", trace=True)
    assert len(result.current_rows) == 3
    trace_id = result.response_future.get_query_trace_ids()[0]
    assert isinstance(trace_id, uuid.UUID) and trace_id.version == 1
    trace = result.get_query_trace()
    assert trace.trace_id == trace_id
    assert trace.request_type == "Execute CQL3 query"
    assert trace.duration is not None and trace.duration.total_seconds() > 0
    assert trace.parameters["query"] == f"SELECT * FROM {table} WHERE k = 1"
    assert trace.parameters["consistency_level"] == "LOCAL_ONE"
    assert str(trace.coordinator) == "127.0.0.1"
    assert trace.started_at is not None
    assert trace.events, "no events"
    elapsed = [event.source_elapsed for event in trace.events]
    assert elapsed == sorted(elapsed)
    assert all(str(event.source) == "127.0.0.1" for event in trace.events)
    descriptions = [event.description for event in trace.events]
    assert any(d.startswith("Read 3 live rows and 0 tombstone cells") for d in descriptions), \
        descriptions


def test_trace_of_prepared_statement_and_batch(session, table):
    select = session.prepare(f"SELECT v FROM {table} WHERE k = ?")
    trace = session.execute(select, (1,), trace=True).get_query_trace()
    assert trace.request_type == "Execute CQL3 prepared query"
    assert trace.events

    insert = session.prepare(f"INSERT INTO {table} (k, c, v) VALUES (?, ?, ?)")
    batch = BatchStatement(batch_type=BatchType.LOGGED)
    batch.add(insert, (2, 1, "a"))
    batch.add(insert, (2, 2, "b"))
    trace = session.execute(batch, trace=True).get_query_trace()
    assert trace.request_type == "Execute batch of CQL3 queries"
    assert trace.events


def test_no_trace_without_asking(session, table):
    result = session.execute(f"SELECT * FROM {table} WHERE k = 1")
    assert result.get_query_trace() is None


def test_traces_are_in_system_traces(session, table):
    result = session.execute(f"SELECT * FROM {table} WHERE k = 1", trace=True)
    trace_id = result.response_future.get_query_trace_ids()[0]
    trace = result.get_query_trace()
    rows = list(session.execute(
        "SELECT session_id, duration, request FROM system_traces.sessions WHERE session_id = %s",
        (trace_id,)))
    assert len(rows) == 1 and rows[0].duration > 0
    events = list(session.execute(
        "SELECT event_id, activity FROM system_traces.events WHERE session_id = %s",
        (trace_id,)))
    assert len(events) == len(trace.events)
    # The driver sees the tables' schema, as DESCRIBE does.
    metadata = session.cluster.metadata.keyspaces["system_traces"].tables
    assert list(metadata["events"].primary_key[i].name for i in range(2)) == \
        ["session_id", "event_id"]
    assert {"session_id", "command", "client", "coordinator", "coordinator_port", "duration",
            "parameters", "request", "started_at"} == set(metadata["sessions"].columns)


def test_aggregation_without_partition_key_warns(session, table):
    warnings = session.execute(f"SELECT count(*) FROM {table}").response_future.warnings
    assert warnings == ["Aggregation query used without partition key"]
    warnings = session.execute(
        f"SELECT count(*) FROM {table} WHERE k IN (1, 2)").response_future.warnings
    assert warnings == ["Aggregation query used on multiple partition keys (IN restriction)"]
    assert not session.execute(
        f"SELECT count(*) FROM {table} WHERE k = 1").response_future.warnings
    statement = SimpleStatement(f"SELECT max(c) FROM {table}")
    prepared = session.prepare(statement.query_string)
    assert session.execute(prepared).response_future.warnings == \
        ["Aggregation query used without partition key"]
