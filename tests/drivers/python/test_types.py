"""Every CQL type round-trips through prepared statements and compares equal in Python."""

import datetime
import ipaddress
import random
import uuid
from collections import namedtuple
from decimal import Decimal

import pytest
from cassandra.cluster import Cluster
from cassandra.query import UNSET_VALUE
from cassandra.util import Date, Duration, SortedSet, Time

from conftest import cluster_kwargs

Address = namedtuple("Address", ["street", "city", "zip"])

# (column type, values to round-trip). Every value is written with a prepared INSERT and read
# back with a prepared SELECT, then compared with ==.
SCALARS = {
    "ascii": ["", "plain ascii ~!@#", "x" * 3000],
    "bigint": [0, 1, -1, 2**63 - 1, -(2**63)],
    "blob": [b"", b"\x00\xff\x10", bytes(range(256))],
    "boolean": [True, False],
    "date": [Date(datetime.date(2016, 1, 1)), Date(datetime.date(1970, 1, 1)),
             Date(datetime.date(1, 1, 1)), Date(datetime.date(9999, 12, 31)), Date(-1)],
    "decimal": [Decimal("0"), Decimal("123.456"), Decimal("-0.000001"),
                Decimal("12345678901234567890.123456789"), Decimal("1E+10")],
    "double": [0.0, -1.5, 3.141592653589793, 1e308, float("inf")],
    "duration": [Duration(0, 0, 0), Duration(1, 2, 3), Duration(-14, -3, -5_000_000_000),
                 Duration(0, 0, 86_399_999_999_999)],
    "float": [0.0, 1.5, -2.25, 1024.0, float("-inf")],
    "inet": ["127.0.0.1", "192.168.10.200", "::1", "2001:db8::ff00:42:8329"],
    "int": [0, 1, -1, 2**31 - 1, -(2**31)],
    "smallint": [0, 101, -1, 32767, -32768],
    "text": ["", "héllo wörld ✓", "日本語テキスト", "\U0001F600 emoji"],
    "time": [Time(0), Time(datetime.time(12, 34, 56, 789000)), Time(86_399_999_999_999)],
    "timestamp": [datetime.datetime(2016, 1, 2, 3, 4, 5, 678000),
                  datetime.datetime(1970, 1, 1), datetime.datetime(1900, 6, 1, 12, 0)],
    "timeuuid": [uuid.UUID("5b6962dd-3f90-11e9-8f61-eabfa4a803e2"), uuid.uuid1()],
    "tinyint": [0, 127, -128, 7],
    "uuid": [uuid.UUID("5b6962dd-3f90-4c93-8f61-eabfa4a803e2"), uuid.UUID(int=0)],
    "varchar": ["varchar", ""],
    "varint": [0, 1, -1, 2**64, -(2**100) + 7, 10**40],
}

COLLECTIONS = {
    "list<int>": [[1, 2, 3], [5, 5, 5], [-1]],
    "set<text>": [SortedSet(["a", "b", "c"]), SortedSet(["only"])],
    "map<text, int>": [{"a": 1, "b": 2}, {"z": -1}],
    "map<int, boolean>": [{3: True, 1: False, 2: True}],
    "tuple<int, text, boolean>": [(1, "one", True), (2, None, False)],
    "frozen<address>": [Address("1 Main St", "Springfield", "12345"),
                        Address("2 Rue", None, None)],
    "frozen<list<frozen<set<int>>>>": [[SortedSet([1, 2]), SortedSet([3])]],
    "map<text, frozen<list<int>>>": [{"primes": [2, 3, 5], "empty": []}],
    "set<frozen<list<int>>>": [SortedSet([[1, 2], [3], []])],
    "list<frozen<tuple<int, frozen<address>>>>": [
        [(1, Address("a", "b", "c")), (2, Address(None, "x", None))]],
    "frozen<map<uuid, frozen<list<text>>>>": [
        {uuid.UUID(int=1): ["x", "y"], uuid.UUID(int=2): []}],
    "list<varint>": [[2**70, -3]],
    "map<timestamp, decimal>": [{datetime.datetime(2020, 2, 29, 23, 59, 59): Decimal("9.99")}],
}


def column_name(cql_type):
    return "c_" + "".join(ch if ch.isalnum() else "_" for ch in cql_type).strip("_")


@pytest.fixture(scope="module")
def typed_table(session, keyspace):
    session.execute(f"CREATE TYPE {keyspace}.address (street text, city text, zip text)")
    columns = ", ".join(f"{column_name(t)} {t}" for t in list(SCALARS) + list(COLLECTIONS))
    session.execute(f"CREATE TABLE {keyspace}.all_types (k int PRIMARY KEY, {columns})")
    return f"{keyspace}.all_types"


def round_trip(session, table, cql_type, value, key):
    column = column_name(cql_type)
    insert = session.prepare(f"INSERT INTO {table} (k, {column}) VALUES (?, ?)")
    select = session.prepare(f"SELECT {column} FROM {table} WHERE k = ?")
    session.execute(insert, (key, value))
    return session.execute(select, (key,)).one()[0]


@pytest.mark.parametrize("cql_type", list(SCALARS))
def test_scalar_round_trip(session, typed_table, cql_type):
    for i, value in enumerate(SCALARS[cql_type]):
        got = round_trip(session, typed_table, cql_type, value, 1000 + i)
        if cql_type == "inet":
            assert ipaddress.ip_address(got) == ipaddress.ip_address(value)
        else:
            assert got == value, f"{cql_type}: wrote {value!r}, read {got!r}"
            if cql_type in ("bigint", "int", "smallint", "tinyint", "varint"):
                assert type(got) is int


@pytest.mark.parametrize("cql_type", list(COLLECTIONS))
def test_collection_round_trip(session, typed_table, cql_type):
    for i, value in enumerate(COLLECTIONS[cql_type]):
        got = round_trip(session, typed_table, cql_type, value, 2000 + i)
        if cql_type.startswith("tuple") or cql_type.startswith("frozen<address"):
            assert tuple(got) == tuple(value)
        else:
            assert got == value, f"{cql_type}: wrote {value!r}, read {got!r}"


def test_udt_fields_come_back_by_name(session, typed_table):
    got = round_trip(session, typed_table, "frozen<address>", Address("s", "c", None), 3000)
    assert (got.street, got.city, got.zip) == ("s", "c", None)


def test_nulls_and_empty_collections_read_as_none(session, typed_table):
    insert = session.prepare(f"INSERT INTO {typed_table} (k, c_int, c_text, c_list_int, "
                             "c_set_text, c_map_text__int) VALUES (?, ?, ?, ?, ?, ?)")
    session.execute(insert, (4000, None, None, [], set(), {}))
    row = session.execute(f"SELECT c_int, c_text, c_list_int, c_set_text, c_map_text__int "
                          f"FROM {typed_table} WHERE k = 4000").one()
    assert tuple(row) == (None, None, None, None, None)


def test_unset_values_leave_columns_untouched(session, typed_table):
    insert = session.prepare(f"INSERT INTO {typed_table} (k, c_int, c_text) VALUES (?, ?, ?)")
    session.execute(insert, (4001, 7, "kept"))
    session.execute(insert, (4001, 8, UNSET_VALUE))
    row = session.execute(f"SELECT c_int, c_text FROM {typed_table} WHERE k = 4001").one()
    assert (row.c_int, row.c_text) == (8, "kept")


def test_counter_table(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.counters (k text PRIMARY KEY, n counter, m counter)")
    update = session.prepare(f"UPDATE {keyspace}.counters SET n = n + ?, m = m - ? WHERE k = ?")
    for delta in (5, 10, -3):
        session.execute(update, (delta, 1, "a"))
    row = session.execute(f"SELECT n, m FROM {keyspace}.counters WHERE k = 'a'").one()
    assert (row.n, row.m) == (12, -3)


def test_bind_by_name_and_prepared_metadata(session, typed_table):
    insert = session.prepare(f"INSERT INTO {typed_table} (k, c_bigint, c_text) "
                             "VALUES (:k, :b, :t)")
    assert [c.name for c in insert.column_metadata] == ["k", "b", "t"]
    assert insert.routing_key_indexes == [0]
    session.execute(insert, {"k": 5000, "b": 42, "t": "named"})
    select = session.prepare(f"SELECT c_bigint, c_text FROM {typed_table} WHERE k = ?")
    assert [c[2] for c in select.result_metadata] == ["c_bigint", "c_text"]  # (ks, table, name, type)
    assert tuple(session.execute(select, [5000]).one()) == (42, "named")


def test_simple_statement_values_round_trip(session, typed_table):
    # Non-prepared statements with %s parameters: the driver inlines literals.
    session.execute(f"INSERT INTO {typed_table} (k, c_decimal, c_list_int, c_map_text__int) "
                    "VALUES (%s, %s, %s, %s)", (6000, Decimal("1.25"), [3, 1], {"x": 9}))
    row = session.execute(f"SELECT c_decimal, c_list_int, c_map_text__int FROM {typed_table} "
                          "WHERE k = %s", (6000,)).one()
    assert tuple(row) == (Decimal("1.25"), [3, 1], {"x": 9})


def test_large_values_span_several_frames_and_segments(session, keyspace):
    # v5 segments carry at most 128 KiB: these requests and results need several of them.
    session.execute(f"CREATE TABLE {keyspace}.big (k int, c int, v blob, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {keyspace}.big (k, c, v) VALUES (?, ?, ?)")
    blobs = [bytes((i * 7 + j) % 251 for j in range(size))
             for i, size in enumerate([300_000, 131_072, 131_071, 1])]
    for c, blob in enumerate(blobs):
        session.execute(insert, (1, c, blob))
    rows = list(session.execute(f"SELECT c, v FROM {keyspace}.big WHERE k = 1"))
    assert [r.c for r in rows] == list(range(len(blobs)))
    assert [r.v for r in rows] == blobs
    # Poorly compressible bytes too (LZ4 must fall back to raw segments where it does not help).
    noise = random.Random(7).randbytes(200_000)
    session.execute(insert, (2, 0, noise))
    assert session.execute(f"SELECT v FROM {keyspace}.big WHERE k = 2").one().v == noise


def test_ttl_and_writetime(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.timed (k int PRIMARY KEY, v text)")
    session.execute(f"INSERT INTO {keyspace}.timed (k, v) VALUES (1, 'a') "
                    "USING TTL 3600 AND TIMESTAMP 1000")
    row = session.execute(f"SELECT TTL(v) AS t, WRITETIME(v) AS w FROM {keyspace}.timed "
                          "WHERE k = 1").one()
    assert 3590 <= row.t <= 3600
    assert row.w == 1000
    # A later write with an older timestamp loses.
    session.execute(f"INSERT INTO {keyspace}.timed (k, v) VALUES (1, 'old') USING TIMESTAMP 999")
    assert session.execute(f"SELECT v FROM {keyspace}.timed WHERE k = 1").one().v == "a"


def test_client_side_timestamps_are_used():
    # The driver sends its own timestamp with each request (the protocol's timestamp flag).
    kwargs = cluster_kwargs()
    kwargs["timestamp_generator"] = lambda: 1234567
    cluster = Cluster(**kwargs)
    try:
        s = cluster.connect()
        s.execute("CREATE KEYSPACE IF NOT EXISTS drv_client_ts WITH replication = "
                  "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        s.execute("CREATE TABLE IF NOT EXISTS drv_client_ts.t (k int PRIMARY KEY, v int)")
        s.execute("INSERT INTO drv_client_ts.t (k, v) VALUES (1, 1)")
        prepared = s.prepare("INSERT INTO drv_client_ts.t (k, v) VALUES (?, ?)")
        s.execute(prepared, (2, 2))
        got = {r.k: r.w for r in s.execute("SELECT k, WRITETIME(v) AS w FROM drv_client_ts.t")}
        assert got == {1: 1234567, 2: 1234567}
        s.execute("DROP KEYSPACE drv_client_ts")
    finally:
        cluster.shutdown()
