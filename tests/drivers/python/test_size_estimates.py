"""system.size_estimates, read with the Python driver as Spark's connector and drivers read it to
split a table scan: Cassandra's schema in the driver's metadata, rows whose ranges parse as
Murmur3 tokens, writes refused. Written to pass unchanged against Apache Cassandra 4.1, which
fills the table every 5 minutes (cqld when it is read), so the rows are checked when present."""

import pytest
from cassandra import Unauthorized

MIN_TOKEN = -(2 ** 63)
MAX_TOKEN = 2 ** 63 - 1


@pytest.fixture(scope="module")
def table(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY, v text)")
    for k in range(20):
        session.execute(f"INSERT INTO {keyspace}.t (k, v) VALUES ({k}, 'value')")
    return "t"


def test_described_as_cassandra_describes_it(cluster, session):
    metadata = cluster.metadata.keyspaces["system"].tables["size_estimates"]
    assert {c: metadata.columns[c].cql_type for c in metadata.columns} == {
        "keyspace_name": "text", "table_name": "text", "range_start": "text",
        "range_end": "text", "mean_partition_size": "bigint", "partitions_count": "bigint"}
    assert [c.name for c in metadata.partition_key] == ["keyspace_name"]
    assert [c.name for c in metadata.clustering_key] == ["table_name", "range_start", "range_end"]


def test_rows_are_token_ranges_of_the_table(session, keyspace, table):
    rows = list(session.execute(
        "SELECT * FROM system.size_estimates WHERE keyspace_name = %s AND table_name = %s",
        (keyspace, table)))
    for row in rows:
        start, end = int(row.range_start), int(row.range_end)
        assert MIN_TOKEN <= start <= MAX_TOKEN and MIN_TOKEN <= end <= MAX_TOKEN, row
        assert row.partitions_count >= 0 and row.mean_partition_size >= 0, row


def test_writes_are_refused(session, keyspace, table):
    with pytest.raises(Unauthorized, match="system keyspace is not user-modifiable"):
        session.execute("INSERT INTO system.size_estimates (keyspace_name, table_name, "
                        "range_start, range_end, partitions_count) "
                        f"VALUES ('{keyspace}', '{table}', '0', '1', 5)")
