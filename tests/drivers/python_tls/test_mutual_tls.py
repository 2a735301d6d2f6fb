"""Mutual TLS through the Python driver: cqld runs with --tls-require-client-cert besides the
flags of test_tls.py, so a client needs a certificate signed by the test CA
(tests/drivers/run_suite.sh python_tls runs this file against its own cqld)."""

import pytest

from conftest import connect, refusal, tls_context

PROTOCOLS = [4, 5]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_client_with_a_certificate_from_the_ca_is_served(protocol):
    cluster, session = connect(tls_context(client="client"), protocol)
    try:
        assert session.execute("SELECT release_version FROM system.local").one()
    finally:
        cluster.shutdown()


@pytest.mark.parametrize("client, alert", [(None, "certificate required"),
                                           ("stranger", "unknown ca")])
def test_client_without_a_valid_certificate_is_refused(client, alert):
    assert alert in str(refusal(tls_context(client=client)))


def test_plaintext_client_is_refused():
    refusal(None)
