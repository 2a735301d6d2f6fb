"""Helpers of the TLS suites: the certificates of make_certs.sh (in $CQLD_TLS_DIR) and a
connect() that builds the driver's Cluster with an ssl_context (tests/drivers/run_suite.sh
python_tls)."""

import os
import ssl

import pytest
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, NoHostAvailable

SUPERUSER_PASSWORD = os.environ["CQLD_SUPERUSER_PASSWORD"]
CERTS = os.environ["CQLD_TLS_DIR"]


def cert(name):
    return os.path.join(CERTS, name)


def tls_context(ca="ca.pem", client=None, maximum=None):
    """A client context that verifies the server's certificate against `ca` and its name
    (check_hostname: the driver passes the contact point, 127.0.0.1, which the certificate
    names as an IP subjectAltName). `client`: present NAME.pem/NAME.key."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED, check_hostname on
    context.load_verify_locations(cert(ca))
    if client is not None:
        context.load_cert_chain(cert(client + ".pem"), cert(client + ".key"))
    if maximum is not None:
        context.maximum_version = maximum
    return context


def connect(context, protocol=5, username="cassandra", password=SUPERUSER_PASSWORD,
            ssl_options=None):
    kwargs = {
        "contact_points": [os.environ.get("CQLD_HOST", "127.0.0.1")],
        "port": int(os.environ.get("CQLD_PORT", "9042")),
        "protocol_version": protocol,
        "connect_timeout": 5,
    }
    if context is not None:
        kwargs["ssl_context"] = context
    if ssl_options is not None:
        kwargs["ssl_options"] = ssl_options
    if username is not None:
        kwargs["auth_provider"] = PlainTextAuthProvider(username=username, password=password)
    cluster = Cluster(**kwargs)
    try:
        return cluster, cluster.connect()
    except Exception:
        cluster.shutdown()
        raise


def refusal(context, **kwargs):
    """The reason the only host refused a connection with `context`."""
    with pytest.raises(NoHostAvailable) as error:
        connect(context, **kwargs)
    (reason,) = error.value.errors.values()
    return reason


def tls_version(session):
    """The TLS version of the session's control connection ('TLSv1.3', ...), or None for a
    plaintext socket. Reads the driver's connection object: for tests only."""
    sock = session.cluster.control_connection._connection._socket
    return sock.version() if isinstance(sock, ssl.SSLSocket) else None
