"""Batches (logged, unlogged, counter) and lightweight transactions' [applied] results."""

import re

import pytest
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.query import BatchStatement, BatchType, SimpleStatement


@pytest.fixture(scope="module")
def tables(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.a (k int, c int, v text, PRIMARY KEY (k, c))")
    session.execute(f"CREATE TABLE {keyspace}.b (k int PRIMARY KEY, v text)")
    session.execute(f"CREATE TABLE {keyspace}.n (k int PRIMARY KEY, hits counter)")
    session.execute(f"CREATE TABLE {keyspace}.users (login text PRIMARY KEY, name text, "
                    "email text, version int)")
    return keyspace


def test_logged_batch_across_tables(session, tables):
    ks = tables
    insert_a = session.prepare(f"INSERT INTO {ks}.a (k, c, v) VALUES (?, ?, ?)")
    batch = BatchStatement(batch_type=BatchType.LOGGED)
    for c in range(5):
        batch.add(insert_a, (1, c, f"a{c}"))
    batch.add(SimpleStatement(f"INSERT INTO {ks}.b (k, v) VALUES (%s, %s)"), (1, "b1"))
    batch.add(f"UPDATE {ks}.b SET v = 'b2' WHERE k = 2")
    session.execute(batch)
    assert [r.v for r in session.execute(f"SELECT v FROM {ks}.a WHERE k = 1")] == \
        [f"a{c}" for c in range(5)]
    assert sorted(r.v for r in session.execute(f"SELECT v FROM {ks}.b")) == ["b1", "b2"]


def test_unlogged_batch_with_delete(session, tables):
    ks = tables
    batch = BatchStatement(batch_type=BatchType.UNLOGGED)
    insert = session.prepare(f"INSERT INTO {ks}.a (k, c, v) VALUES (?, ?, ?)")
    batch.add(insert, (2, 1, "x"))
    batch.add(insert, (2, 2, "y"))
    batch.add(session.prepare(f"DELETE FROM {ks}.a WHERE k = ? AND c = ?"), (1, 0))
    session.execute(batch)
    assert [r.c for r in session.execute(f"SELECT c FROM {ks}.a WHERE k = 2")] == [1, 2]
    assert [r.c for r in session.execute(f"SELECT c FROM {ks}.a WHERE k = 1")] == [1, 2, 3, 4]


def test_counter_batch(session, tables):
    ks = tables
    update = session.prepare(f"UPDATE {ks}.n SET hits = hits + ? WHERE k = ?")
    batch = BatchStatement(batch_type=BatchType.COUNTER)
    for k, delta in ((1, 3), (2, 5), (3, -4)):
        batch.add(update, (delta, k))
    session.execute(batch)
    session.execute(batch)
    assert {r.k: r.hits for r in session.execute(f"SELECT k, hits FROM {ks}.n")} == \
        {1: 6, 2: 10, 3: -8}


def test_counter_batch_adds_up_updates_to_the_same_counter(session, tables):
    # Cassandra merges the increments of one batch for the same counter cell by adding them.
    ks = tables
    update = session.prepare(f"UPDATE {ks}.n SET hits = hits + ? WHERE k = ?")
    batch = BatchStatement(batch_type=BatchType.COUNTER)
    for delta in (3, 4):
        batch.add(update, (delta, 100))
    session.execute(batch)
    assert session.execute(f"SELECT hits FROM {ks}.n WHERE k = 100").one().hits == 7


def test_text_batch(session, tables):
    ks = tables
    session.execute(f"BEGIN BATCH INSERT INTO {ks}.b (k, v) VALUES (10, 'ten'); "
                    f"INSERT INTO {ks}.b (k, v) VALUES (11, 'eleven'); APPLY BATCH")
    assert session.execute(f"SELECT v FROM {ks}.b WHERE k = 11").one().v == "eleven"


def test_insert_if_not_exists(session, tables):
    insert = session.prepare(f"INSERT INTO {tables}.users (login, name, email, version) "
                             "VALUES (?, ?, ?, ?) IF NOT EXISTS")
    first = session.execute(insert, ("jdoe", "John", "j@example.com", 1))
    assert first.was_applied
    row = first.one()
    assert row[0] is True
    assert first.column_names == ["[applied]"]

    second = session.execute(insert, ("jdoe", "Jane", "jane@example.com", 9))
    assert not second.was_applied
    row = second.one()
    assert row[0] is False
    assert second.column_names[0] == "[applied]"
    # Cassandra returns the existing row's columns after [applied].
    assert set(second.column_names[1:]) == {"login", "name", "email", "version"}
    assert (row.login, row.name, row.email, row.version) == ("jdoe", "John", "j@example.com", 1)


def test_update_if_condition(session, tables):
    ks = tables
    session.execute(f"INSERT INTO {ks}.users (login, name, version) VALUES ('ann', 'Ann', 3)")
    wrong = session.execute(f"UPDATE {ks}.users SET name = 'X' WHERE login = 'ann' IF version = 2")
    assert not wrong.was_applied
    assert wrong.column_names == ["[applied]", "version"]
    assert tuple(wrong.one()) == (False, 3)

    right = session.execute(f"UPDATE {ks}.users SET name = 'Annie', version = 4 "
                            "WHERE login = 'ann' IF version = 3")
    assert right.was_applied
    assert right.column_names == ["[applied]"]
    row = session.execute(f"SELECT name, version FROM {ks}.users WHERE login = 'ann'").one()
    assert (row.name, row.version) == ("Annie", 4)


def test_if_exists_on_missing_row(session, tables):
    result = session.execute(f"DELETE FROM {tables}.users WHERE login = 'ghost' IF EXISTS")
    assert not result.was_applied
    assert result.column_names == ["[applied]"]


def test_conditional_batch(session, tables):
    ks = tables
    session.execute(f"INSERT INTO {ks}.a (k, c, v) VALUES (9, 0, 'free')")
    batch = BatchStatement()
    batch.add(f"UPDATE {ks}.a SET v = 'taken' WHERE k = 9 AND c = 0 IF v = 'free'")
    batch.add(f"INSERT INTO {ks}.a (k, c, v) VALUES (9, 1, 'booked')")
    assert session.execute(batch).was_applied
    again = session.execute(batch)
    assert not again.was_applied
    assert [r.v for r in session.execute(f"SELECT v FROM {ks}.a WHERE k = 9")] == \
        ["taken", "booked"]


def test_many_requests_in_flight(session, tables):
    # Hundreds of concurrent requests on few connections: stream ids, out-of-order replies.
    insert = session.prepare(f"INSERT INTO {tables}.a (k, c, v) VALUES (?, ?, ?)")
    results = execute_concurrent_with_args(session, insert,
                                           [(100, c, str(c)) for c in range(500)],
                                           concurrency=100)
    assert all(ok for ok, _ in results)
    select = session.prepare(f"SELECT v FROM {tables}.a WHERE k = 100 AND c = ?")
    results = execute_concurrent_with_args(session, select, [(c,) for c in range(500)],
                                           concurrency=100)
    assert [r.one().v for ok, r in results] == [str(c) for c in range(500)]


def test_concurrent_insert_if_not_exists_applies_once(session, tables):
    insert = session.prepare(f"INSERT INTO {tables}.users (login, name) VALUES (?, ?) "
                             "IF NOT EXISTS")
    results = execute_concurrent_with_args(session, insert,
                                           [("race", f"writer{i}") for i in range(40)],
                                           concurrency=40)
    applied = [r.one()[0] for ok, r in results]
    assert applied.count(True) == 1
    winner = [f"writer{i}" for i, a in enumerate(applied) if a][0]
    assert session.execute(f"SELECT name FROM {tables}.users WHERE login = 'race'").one().name \
        == winner
    # Every loser saw the winner's row.
    assert {r.one().name for ok, r in results if not r.one()[0]} == {winner}


def test_invalid_batch_refused_when_prepared(session, tables):
    """Cassandra validates BEGIN BATCH as a whole when it prepares it, not when it runs."""
    from cassandra import InvalidRequest
    ks = tables
    cases = {
        f"BEGIN BATCH USING TIMESTAMP ? INSERT INTO {ks}.b (k, v) VALUES (?, ?) IF NOT EXISTS "
        "APPLY BATCH": "Cannot provide custom timestamp for conditional BATCH",
        f"BEGIN BATCH USING TIMESTAMP 5 UPDATE {ks}.n SET hits = hits + 1 WHERE k = ? "
        "APPLY BATCH": "Cannot provide custom timestamp for a BATCH containing counters",
        f"BEGIN BATCH USING TIMESTAMP 5 DELETE FROM {ks}.b USING TIMESTAMP 6 WHERE k = ? "
        "APPLY BATCH": "Timestamp must be set either on BATCH or individual statements",
        f"BEGIN BATCH UPDATE {ks}.n SET hits = hits + 1 WHERE k = ? "
        "APPLY BATCH": "Cannot include a counter statement in a logged batch",
    }
    for query, message in cases.items():
        with pytest.raises(InvalidRequest) as error:
            session.prepare(query)
        assert message in str(error.value), query


def test_large_and_wide_batches_warn(session, tables):
    """Cassandra's client warnings: a multi-partition batch over 5 KiB, an unlogged batch over
    10 partitions; a single-partition batch gets neither."""
    ks = tables
    insert = session.prepare(f"INSERT INTO {ks}.b (k, v) VALUES (?, ?)")
    large = BatchStatement(batch_type=BatchType.LOGGED)
    for k in (100, 101):
        large.add(insert, (k, "x" * 3000))
    warnings = session.execute(large).response_future.warnings
    # Cassandra 4 gives the sizes in bytes to the client (its log line pretty-prints them).
    assert len(warnings) == 1
    assert re.fullmatch(rf"Batch for \[{ks}\.b\] is of size (\d+), exceeding specified "
                        r"threshold of 5120 by (\d+)\.", warnings[0]), warnings[0]

    wide = BatchStatement(batch_type=BatchType.UNLOGGED)
    for k in range(200, 211):
        wide.add(insert, (k, "y"))
    warnings = session.execute(wide).response_future.warnings
    assert warnings == [f"Unlogged batch covering 11 partitions detected against table [{ks}.b]. "
                        "You should use a logged batch for atomicity, or asynchronous writes for "
                        "performance."]

    one = BatchStatement(batch_type=BatchType.UNLOGGED)
    for c in range(20):
        one.add(session.prepare(f"INSERT INTO {ks}.a (k, c, v) VALUES (?, ?, ?)"),
                (300, c, "z" * 500))
    assert not session.execute(one).response_future.warnings
