"""Error classes and messages as the driver raises them; schema events across clusters."""

import time

import pytest
from cassandra import AlreadyExists, FunctionFailure, InvalidRequest
from cassandra.protocol import SyntaxException

from conftest import new_cluster


@pytest.fixture(scope="module")
def table(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY, v int)")
    return f"{keyspace}.t"


def test_syntax_error(session):
    with pytest.raises(SyntaxException) as error:
        session.execute("SELEC * FROM system.local")
    assert "line 1:0 no viable alternative at input 'SELEC'" in str(error.value)


def test_syntax_error_on_prepare(session):
    with pytest.raises(SyntaxException) as error:
        session.prepare("SELECT * FROM")
    assert "line 0:-1" in str(error.value)


def test_undefined_column(session, keyspace, table):
    with pytest.raises(InvalidRequest) as error:
        session.execute(f"SELECT nope FROM {table}")
    assert f"Undefined column name nope in table {keyspace}.t" in str(error.value)
    with pytest.raises(InvalidRequest) as error:
        session.prepare(f"INSERT INTO {table} (k, nope) VALUES (?, ?)")
    assert "Undefined column name nope" in str(error.value)


def test_unknown_keyspace_and_table(session, keyspace):
    with pytest.raises(InvalidRequest) as error:
        session.execute("SELECT * FROM no_such_ks.t")
    assert "no_such_ks does not exist" in str(error.value)
    with pytest.raises(InvalidRequest) as error:
        session.execute(f"SELECT * FROM {keyspace}.no_such_table")
    assert "no_such_table does not exist" in str(error.value)
    with pytest.raises(InvalidRequest) as error:
        session.execute("USE no_such_ks")
    assert "Keyspace 'no_such_ks' does not exist" in str(error.value)


def test_function_failure_names_its_function(session, keyspace, table):
    with pytest.raises(FunctionFailure) as error:
        session.execute(f"INSERT INTO {table} (k, v) VALUES (0, fromJson('not json'))")
    assert error.value.keyspace == "system"
    assert error.value.function == "fromjson"
    assert error.value.arg_types == ["text"]
    assert "execution of 'system.fromjson[text]' failed" in str(error.value)


def test_already_exists(session, keyspace, table):
    with pytest.raises(AlreadyExists) as error:
        session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    assert error.value.keyspace == keyspace
    assert not error.value.table
    assert f"Keyspace '{keyspace}' already exists" in str(error.value)

    with pytest.raises(AlreadyExists) as error:
        session.execute(f"CREATE TABLE {table} (k int PRIMARY KEY)")
    assert error.value.keyspace == keyspace
    assert error.value.table == "t"
    assert f"Table '{table}' already exists" in str(error.value)


def test_invalid_value_types(session, table):
    with pytest.raises(InvalidRequest) as error:
        session.execute(f"INSERT INTO {table} (k, v) VALUES (1, 'text')")
    assert "Invalid STRING constant (text) for \"v\" of type int" in str(error.value)
    insert = session.prepare(f"INSERT INTO {table} (k, v) VALUES (?, ?)")
    with pytest.raises(Exception):  # the driver itself refuses to serialize a str as int
        session.execute(insert, (1, "text"))


def test_session_survives_errors(session, table):
    for _ in range(3):
        with pytest.raises(InvalidRequest):
            session.execute(f"SELECT nope FROM {table}")
    session.execute(f"INSERT INTO {table} (k, v) VALUES (5, 5)")
    assert session.execute(f"SELECT v FROM {table} WHERE k = 5").one().v == 5


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_schema_change_from_another_cluster_is_pushed(cluster, session, keyspace):
    other = new_cluster()
    try:
        other_session = other.connect()
        other_session.execute(f"CREATE TABLE {keyspace}.from_other (k int PRIMARY KEY, v text)")
        other_session.execute(f"CREATE TYPE {keyspace}.pushed_type (a int, b text)")
        other_session.execute(f"ALTER TABLE {keyspace}.from_other ADD w bigint")
        other_session.execute("CREATE KEYSPACE drv_pushed_ks WITH replication = "
                              "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    finally:
        other.shutdown()

    # The first cluster learns all of it from SCHEMA_CHANGE events on its control connection.
    def table_seen():
        ks = cluster.metadata.keyspaces.get(keyspace)
        return ks is not None and "from_other" in ks.tables and \
            "w" in ks.tables["from_other"].columns
    assert wait_for(table_seen), "the new table and column never reached the first cluster"
    assert wait_for(lambda: "pushed_type" in cluster.metadata.keyspaces[keyspace].user_types)
    assert wait_for(lambda: "drv_pushed_ks" in cluster.metadata.keyspaces)
    assert cluster.metadata.keyspaces[keyspace].tables["from_other"].columns["w"].cql_type == \
        "bigint"

    session.execute("DROP KEYSPACE drv_pushed_ks")
    assert "drv_pushed_ks" not in cluster.metadata.keyspaces
