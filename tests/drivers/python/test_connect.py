"""Connecting with default settings: negotiation, cluster metadata, keyspace-bound sessions."""

import os

from cassandra.cluster import ControlConnection

from conftest import DRIVER_TROUBLE, new_cluster


def test_protocol_version_is_negotiated_or_pinned(cluster, session):
    expected = int(os.environ.get("CQLD_PROTOCOL") or 5)
    assert cluster.protocol_version == expected


def test_compression_is_negotiated_when_requested(cluster, session):
    requested = os.environ.get("CQLD_COMPRESSION")
    connection = cluster.control_connection._connection
    if requested == "none":
        assert connection.compressor is None
    elif requested:
        assert connection.compressor is not None, f"{requested} was not negotiated"
    # Without CQLD_COMPRESSION the driver compresses only when cqld advertises a codec it has.


def test_cluster_metadata_describes_one_node(cluster, session):
    metadata = cluster.metadata
    assert metadata.cluster_name == "Test Cluster"
    assert metadata.partitioner.endswith("Murmur3Partitioner")
    hosts = metadata.all_hosts()
    assert len(hosts) == 1
    host = hosts[0]
    assert host.is_up
    assert host.datacenter == "datacenter1"
    assert host.rack == "rack1"
    assert host.release_version.startswith("4.")
    assert host.host_id is not None
    assert metadata.token_map is not None
    assert len(metadata.token_map.ring) >= 1


def test_system_keyspaces_are_in_metadata(cluster, session):
    keyspaces = cluster.metadata.keyspaces
    for name in ("system", "system_schema"):
        assert name in keyspaces
        assert not keyspaces[name].virtual
    assert "local" in keyspaces["system"].tables
    assert "columns" in keyspaces["system_schema"].tables
    assert "system_virtual_schema" in keyspaces
    assert keyspaces["system_virtual_schema"].virtual


def test_system_local_row(session):
    row = session.execute("SELECT key, cluster_name, schema_version FROM system.local "
                          "WHERE key = 'local'").one()
    assert row.key == "local"
    assert row.cluster_name == "Test Cluster"
    assert row.schema_version is not None


def test_ddl_reaches_schema_agreement(session, keyspace):
    result = session.execute(f"CREATE TABLE {keyspace}.agreed (k int PRIMARY KEY)")
    assert result.response_future.is_schema_agreed
    # The driver refreshed its metadata before execute() returned.
    assert "agreed" in session.cluster.metadata.keyspaces[keyspace].tables


def test_keyspace_bound_session_uses_the_keyspace(cluster, session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.bound (k int PRIMARY KEY, v text)")
    bound = cluster.connect(keyspace)
    try:
        assert bound.keyspace == keyspace
        bound.execute("INSERT INTO bound (k, v) VALUES (1, 'one')")
        assert bound.execute("SELECT v FROM bound WHERE k = 1").one().v == "one"
        bound.set_keyspace("system")
        assert bound.execute("SELECT key FROM local").one().key == "local"
    finally:
        bound.shutdown()


def test_second_cluster_connects_independently():
    other = new_cluster()
    try:
        s = other.connect()
        assert s.execute("SELECT release_version FROM system.local").one().release_version
    finally:
        other.shutdown()


def test_control_connection_reads_peers_without_error(cluster, session):
    # A single node: no peers, in either table the driver may use.
    assert isinstance(cluster.control_connection, ControlConnection)
    assert list(session.execute("SELECT * FROM system.peers")) == []
    assert list(session.execute("SELECT * FROM system.peers_v2")) == []


def test_no_control_connection_or_metadata_trouble_so_far(cluster, session):
    # Everything the driver loaded at connect time (system keyspaces, virtual keyspaces) parsed.
    assert DRIVER_TROUBLE.records == []
