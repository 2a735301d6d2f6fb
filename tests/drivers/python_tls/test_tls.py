"""TLS on the native port through the Python driver: cqld runs with --tls-cert, --tls-key and
--tls-ca (client certificates asked for, checked when presented, not required), with
PasswordAuthenticator and CassandraAuthorizer (tests/drivers/run_suite.sh python_tls)."""

import ssl
import uuid

import pytest
from cassandra import AuthenticationFailed

from conftest import SUPERUSER_PASSWORD, connect, refusal, tls_context, tls_version

PROTOCOLS = [4, 5]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_logs_in_and_runs_statements_over_tls(protocol):
    cluster, session = connect(tls_context(), protocol)
    try:
        assert tls_version(session) == "TLSv1.3"
        name = "tls" + uuid.uuid4().hex[:8]
        session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute(f"CREATE TABLE {name}.t (k int PRIMARY KEY, v text)")
        insert = session.prepare(f"INSERT INTO {name}.t (k, v) VALUES (?, ?)")
        for k in range(50):
            session.execute(insert, (k, "x" * (k * 100)))
        rows = list(session.execute(f"SELECT k, v FROM {name}.t"))
        assert sorted(r.k for r in rows) == list(range(50))
        assert {r.k: len(r.v) for r in rows} == {k: k * 100 for k in range(50)}
        assert [(r.role, r.super) for r in session.execute("LIST ROLES")
                if r.role == "cassandra"] == [("cassandra", True)]
        session.execute(f"DROP KEYSPACE {name}")
    finally:
        cluster.shutdown()


def test_tls_1_2_is_served():
    cluster, session = connect(tls_context(maximum=ssl.TLSVersion.TLSv1_2))
    try:
        assert tls_version(session) == "TLSv1.2"
        assert session.execute("SELECT release_version FROM system.local").one()
    finally:
        cluster.shutdown()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_plaintext_cluster_fails(protocol):
    refusal(None, protocol=protocol)


def test_wrong_password_over_tls_is_refused():
    reason = refusal(tls_context(), password="not-the-password")
    assert isinstance(reason, AuthenticationFailed)
    assert "Provided username cassandra and/or password are incorrect" in str(reason)


def test_server_certificate_from_another_ca_is_refused_by_the_client():
    reason = refusal(tls_context(ca="other_ca.pem"))
    assert "CERTIFICATE_VERIFY_FAILED" in str(reason) or "certificate verify failed" in str(reason)


def test_server_name_is_checked():
    # The certificate names 127.0.0.1 and localhost: another name fails the client's check.
    reason = refusal(tls_context(), ssl_options={"server_hostname": "cqld.example"})
    assert "match" in str(reason) or "CERTIFICATE_VERIFY_FAILED" in str(reason)
    cluster, session = connect(tls_context(), ssl_options={"server_hostname": "localhost"})
    cluster.shutdown()


def test_client_certificate_from_the_ca_is_accepted():
    cluster, session = connect(tls_context(client="client"))
    try:
        assert session.execute("SELECT release_version FROM system.local").one()
    finally:
        cluster.shutdown()


def test_client_certificate_from_another_ca_is_refused():
    # Presented, so checked: the server's alert.
    assert "unknown ca" in str(refusal(tls_context(client="stranger")))
