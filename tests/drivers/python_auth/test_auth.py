"""PasswordAuthenticator through the Python driver: cqld runs with --authenticator
PasswordAuthenticator and CQLD_SUPERUSER_PASSWORD (tests/drivers/run_suite.sh python_auth)."""

import os
import uuid

import pytest
from cassandra import AuthenticationFailed, Unauthorized
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, NoHostAvailable

SUPERUSER_PASSWORD = os.environ["CQLD_SUPERUSER_PASSWORD"]
PROTOCOLS = [4, 5]


def connect(username=None, password=None, protocol=5):
    kwargs = {
        "contact_points": [os.environ.get("CQLD_HOST", "127.0.0.1")],
        "port": int(os.environ.get("CQLD_PORT", "9042")),
        "protocol_version": protocol,
    }
    if username is not None:
        kwargs["auth_provider"] = PlainTextAuthProvider(username=username, password=password)
    cluster = Cluster(**kwargs)
    try:
        return cluster, cluster.connect()
    except Exception:
        cluster.shutdown()
        raise


def failure_of(error):
    """The error the host refused the connection with."""
    assert isinstance(error, NoHostAvailable)
    (reason,) = error.errors.values()
    return reason


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_superuser_logs_in(protocol):
    cluster, session = connect("cassandra", SUPERUSER_PASSWORD, protocol)
    try:
        rows = list(session.execute("LIST ROLES"))
        assert [(r.role, r.super, r.login) for r in rows if r.role == "cassandra"] == \
            [("cassandra", True, True)]
        assert session.execute("SELECT release_version FROM system.local").one()
    finally:
        cluster.shutdown()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_no_credentials_is_refused(protocol):
    with pytest.raises(NoHostAvailable) as error:
        connect(protocol=protocol)
    reason = failure_of(error.value)
    assert isinstance(reason, AuthenticationFailed)
    assert "requires authentication" in str(reason)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_wrong_password_is_refused(protocol):
    with pytest.raises(NoHostAvailable) as error:
        connect("cassandra", "not-the-password", protocol)
    reason = failure_of(error.value)
    assert isinstance(reason, AuthenticationFailed)
    assert "Provided username cassandra and/or password are incorrect" in str(reason)


def test_roles_created_by_the_superuser_log_in():
    name = "r" + uuid.uuid4().hex[:8]
    cluster, session = connect("cassandra", SUPERUSER_PASSWORD)
    try:
        session.execute(f"CREATE ROLE {name} WITH PASSWORD = 'pw-{name}' AND LOGIN = true")
        session.execute(f"CREATE ROLE {name}_nologin WITH PASSWORD = 'pw'")
    finally:
        cluster.shutdown()

    cluster, session = connect(name, f"pw-{name}")
    try:
        assert session.execute("SELECT cluster_name FROM system.local").one()
        with pytest.raises(Unauthorized) as error:
            session.execute(f"CREATE ROLE {name}_boss WITH SUPERUSER = true")
        assert f"User {name} has no CREATE permission on <all roles>" in str(error.value)
        session.execute(f"ALTER ROLE {name} WITH PASSWORD = 'changed'")
    finally:
        cluster.shutdown()

    with pytest.raises(NoHostAvailable):
        connect(name, f"pw-{name}")
    cluster, _ = connect(name, "changed")
    cluster.shutdown()

    with pytest.raises(NoHostAvailable) as error:
        connect(f"{name}_nologin", "pw")
    assert f"{name}_nologin is not permitted to log in" in str(failure_of(error.value))


def test_permissions_take_effect_without_reconnecting():
    name = "p" + uuid.uuid4().hex[:8]
    admin_cluster, admin = connect("cassandra", SUPERUSER_PASSWORD)
    try:
        admin.execute(f"CREATE KEYSPACE {name} WITH replication = "
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        admin.execute(f"CREATE TABLE {name}.t (k int PRIMARY KEY, v int)")
        admin.execute(f"CREATE ROLE {name} WITH PASSWORD = 'pw' AND LOGIN = true")
        cluster, session = connect(name, "pw")
        try:
            select = session.prepare(f"SELECT v FROM {name}.t WHERE k = ?")
            with pytest.raises(Unauthorized) as error:
                session.execute(select, (1,))
            assert f"User {name} has no SELECT permission on <table {name}.t>" in str(error.value)
            admin.execute(f"GRANT SELECT ON TABLE {name}.t TO {name}")
            assert list(session.execute(select, (1,))) == []
            with pytest.raises(Unauthorized):
                session.execute(f"INSERT INTO {name}.t (k, v) VALUES (1, 1)")
            admin.execute(f"REVOKE SELECT ON TABLE {name}.t FROM {name}")
            with pytest.raises(Unauthorized):
                session.execute(select, (1,))
        finally:
            cluster.shutdown()
    finally:
        admin_cluster.shutdown()
