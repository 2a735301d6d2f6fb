"""The system_views virtual keyspace, read with the Python driver: every table, its columns and
types, the connected client seen from itself, writes refused. Written to pass unchanged against
Apache Cassandra 4.1."""

import os

import pytest
from cassandra import InvalidRequest
from cassandra.query import SimpleStatement

from conftest import new_cluster

LATENCY_TABLES = ("local_read_latency", "local_write_latency",
                  "coordinator_read_latency", "coordinator_write_latency")

# Cassandra 4.1's columns and CQL types of each table (partition key columns first).
COLUMNS = {
    "settings": {"name": "text", "value": "text"},
    "clients": {"address": "inet", "port": "int", "hostname": "text", "username": "text",
                "connection_stage": "text", "protocol_version": "int",
                "client_options": "map<text, text>", "driver_name": "text",
                "driver_version": "text", "request_count": "bigint", "ssl_enabled": "boolean",
                "ssl_protocol": "text", "ssl_cipher_suite": "text"},
    "caches": {"name": "text", "capacity_bytes": "bigint", "size_bytes": "bigint",
               "entry_count": "int", "request_count": "bigint", "hit_count": "bigint",
               "hit_ratio": "double", "recent_request_rate_per_second": "bigint",
               "recent_hit_rate_per_second": "bigint"},
    "disk_usage": {"keyspace_name": "text", "table_name": "text", "mebibytes": "bigint"},
    "max_partition_size": {"keyspace_name": "text", "table_name": "text", "mebibytes": "bigint"},
    "sstable_tasks": {"keyspace_name": "text", "table_name": "text", "task_id": "uuid",
                      "completion_ratio": "double", "kind": "text", "progress": "bigint",
                      "total": "bigint", "unit": "text"},
    "thread_pools": {"name": "text", "active_tasks": "int", "active_tasks_limit": "int",
                     "pending_tasks": "int", "completed_tasks": "bigint",
                     "blocked_tasks": "bigint", "blocked_tasks_all_time": "bigint"},
}
for _table in LATENCY_TABLES:
    COLUMNS[_table] = {"keyspace_name": "text", "table_name": "text", "count": "bigint",
                       "50th_ms": "double", "99th_ms": "double", "max_ms": "double",
                       "per_second": "double"}


@pytest.fixture(scope="module")
def table(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY, v text)")
    for k in range(5):
        session.execute(f"INSERT INTO {keyspace}.t (k, v) VALUES ({k}, 'v')")
    session.execute(f"SELECT * FROM {keyspace}.t WHERE k = 1")
    return "t"


def test_keyspace_is_virtual_in_driver_metadata(cluster, session):
    metadata = cluster.metadata.keyspaces["system_views"]
    assert metadata.virtual
    for name, columns in COLUMNS.items():
        assert name in metadata.tables, name
        table = metadata.tables[name]
        assert table.virtual
        assert {c: table.columns[c].cql_type for c in table.columns} == columns, name
    assert [c.name for c in metadata.tables["clients"].partition_key] == ["address"]
    assert [c.name for c in metadata.tables["clients"].clustering_key] == ["port"]
    assert [c.name for c in metadata.tables["local_read_latency"].partition_key] == \
        ["keyspace_name", "table_name"]
    # Virtual keyspaces are in system_virtual_schema, not system_schema.
    rows = session.execute("SELECT keyspace_name FROM system_schema.keyspaces")
    assert "system_views" not in [row.keyspace_name for row in rows]
    rows = session.execute("SELECT keyspace_name FROM system_virtual_schema.keyspaces")
    assert "system_views" in [row.keyspace_name for row in rows]


def rows_as_dicts(result):
    """Rows by column name ("50th_ms" is no Python identifier, so no named-tuple field)."""
    return [dict(zip(result.column_names, row)) for row in result]


def test_every_table_reads(session, table):
    for name in COLUMNS:
        result = session.execute(f"SELECT * FROM system_views.{name}")
        assert set(result.column_names) == set(COLUMNS[name]), name
        rows_as_dicts(result)


def test_settings(session):
    settings = {row.name: row.value for row in session.execute("SELECT * FROM system_views.settings")}
    assert settings["cluster_name"] == "Test Cluster"
    assert settings["native_transport_port"] == os.environ.get("CQLD_PORT", "9042")
    assert settings["authenticator"].endswith("Authenticator")
    assert settings["tombstone_warn_threshold"] == "1000"
    assert settings["tombstone_failure_threshold"] == "100000"
    assert settings["commitlog_sync"] in ("periodic", "batch")
    names = [row.name for row in session.execute("SELECT name FROM system_views.settings")]
    assert names == sorted(names)
    one = session.execute("SELECT value FROM system_views.settings WHERE name = 'cluster_name'")
    assert [row.value for row in one] == ["Test Cluster"]


def test_clients_show_this_connection():
    cluster = new_cluster()
    try:
        session = cluster.connect()
        rows = list(session.execute("SELECT * FROM system_views.clients"))
        ours = [row for row in rows if row.driver_name == "DataStax Python Driver"]
        assert len(ours) >= 2, rows  # this cluster's control and pool connections at least
        for row in ours:
            assert str(row.address) == "127.0.0.1"
            assert row.connection_stage == "ready"
            assert row.protocol_version == cluster.protocol_version
            assert row.driver_version
            assert row.request_count >= 0
            assert row.ssl_enabled is False
            assert row.client_options["DRIVER_NAME"] == "DataStax Python Driver"
        assert max(row.request_count for row in ours) >= 1  # this query's connection
        ports = [row.port for row in rows if str(row.address) == "127.0.0.1"]
        assert ports == sorted(ports)
    finally:
        cluster.shutdown()


def test_table_metrics(session, keyspace, table):
    for name in LATENCY_TABLES + ("disk_usage", "max_partition_size"):
        rows = rows_as_dicts(session.execute(f"SELECT * FROM system_views.{name} "
                                             f"WHERE keyspace_name = %s AND table_name = %s",
                                             (keyspace, table)))
        assert len(rows) == 1, name
        row = rows[0]
        if name in LATENCY_TABLES:
            assert row["count"] >= 0 and row["max_ms"] >= row["50th_ms"] >= 0
        else:
            assert row["mebibytes"] >= 0
    writes = session.execute("SELECT count FROM system_views.local_write_latency "
                             "WHERE keyspace_name = %s AND table_name = %s",
                             (keyspace, table)).one()
    assert writes.count >= 5


def test_caches_and_thread_pools(session):
    caches = list(session.execute("SELECT * FROM system_views.caches"))
    assert caches
    for cache in caches:
        assert cache.entry_count >= 0 and cache.hit_count <= cache.request_count
    pools = list(session.execute("SELECT * FROM system_views.thread_pools"))
    assert pools
    names = [pool.name for pool in pools]
    assert names == sorted(names)
    for pool in pools:
        assert 0 <= pool.active_tasks and pool.pending_tasks >= 0


def test_paging_and_limit(session):
    everything = [row.name for row in session.execute("SELECT name FROM system_views.settings")]
    limited = [row.name for row in session.execute("SELECT name FROM system_views.settings LIMIT 3")]
    assert limited == everything[:3]
    paged = session.execute(SimpleStatement("SELECT name FROM system_views.settings", fetch_size=5))
    assert [row.name for row in paged] == everything


@pytest.mark.parametrize("statement", [
    "INSERT INTO system_views.caches (name, entry_count) VALUES ('x', 1)",
    "UPDATE system_views.thread_pools SET active_tasks = 1 WHERE name = 'x'",
    "DELETE FROM system_views.clients WHERE address = '127.0.0.1'",
])
def test_writes_are_refused(session, statement):
    table = statement.split("system_views.")[1].split()[0]
    with pytest.raises(InvalidRequest, match=f"Modification is not supported by table "
                                             f"system_views.{table}"):
        session.execute(statement)
