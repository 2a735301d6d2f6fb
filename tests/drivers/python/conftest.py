"""Fixtures for the Python driver suite (tests/drivers/README.md).

Runs against a cqld started by tests/drivers/run_with_cqld.sh, which exports CQLD_HOST and
CQLD_PORT. The driver keeps its DEFAULT settings: only the contact point and the port are set.
Two optional variables select a variant (drivers.python_v5):
  CQLD_PROTOCOL     pin the protocol version (otherwise negotiated from the driver's highest)
  CQLD_COMPRESSION  'lz4', 'snappy' or 'none' (otherwise the driver's default, compression=True)
"""

import logging
import os
import re

import pytest
from cassandra.cluster import Cluster

SEEDS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "seeds")


class _DriverTroubleHandler(logging.Handler):
    """Keeps the driver's reports of metadata it could not build or refresh."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        message = record.getMessage()
        if (record.name == "cassandra.metadata" and record.levelno >= logging.ERROR) or \
                (record.name == "cassandra.cluster" and "[control connection]" in message):
            self.records.append(f"{record.name}: {message}")


DRIVER_TROUBLE = _DriverTroubleHandler()
logging.getLogger("cassandra").addHandler(DRIVER_TROUBLE)


def cluster_kwargs():
    """The Cluster() arguments for this run: contact point, port, and the variant's options."""
    kwargs = {
        "contact_points": [os.environ.get("CQLD_HOST", "127.0.0.1")],
        "port": int(os.environ.get("CQLD_PORT", "9042")),
    }
    if os.environ.get("CQLD_PROTOCOL"):
        kwargs["protocol_version"] = int(os.environ["CQLD_PROTOCOL"])
    if os.environ.get("CQLD_COMPRESSION") == "none":
        kwargs["compression"] = False
    elif os.environ.get("CQLD_COMPRESSION"):
        kwargs["compression"] = os.environ["CQLD_COMPRESSION"]
    return kwargs


def new_cluster():
    """A Cluster with this run's settings (callers shut it down)."""
    return Cluster(**cluster_kwargs())


def split_statements(text):
    """Splits CQL text into statements at top-level ';', skipping '--' and '//' comments.

    A BEGIN ... APPLY BATCH block stays one statement."""
    statements, current, quote, i = [], [], None, 0
    while i < len(text):
        c = text[i]
        if quote:
            current.append(c)
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            current.append(c)
        elif text.startswith("--", i) or text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif c == ";":
            statement = "".join(current).strip()
            in_batch = re.match(r"(?is)BEGIN\b", statement) and \
                not re.search(r"(?is)\bAPPLY\s+BATCH$", statement)
            if in_batch:
                current.append(c)
            elif statement:
                statements.append(statement)
            if not in_batch:
                current = []
        else:
            current.append(c)
        i += 1
    tail = "".join(current).strip()
    if tail:
        statements.append(tail)
    return statements


def seed_statements(name):
    """The statements of tests/data/seeds/NAME, verbatim."""
    with open(os.path.join(SEEDS_DIR, name), encoding="utf-8") as f:
        return split_statements(f.read())


@pytest.fixture(scope="session")
def cluster():
    c = new_cluster()
    yield c
    c.shutdown()


@pytest.fixture(scope="session")
def session(cluster):
    s = cluster.connect()
    yield s


@pytest.fixture(scope="module")
def keyspace(request, session):
    """A fresh keyspace named after the test module, dropped after the module."""
    name = "drv_" + re.sub(r"\W", "_", request.module.__name__.split(".")[-1]).lower()
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")
    session.execute(
        f"CREATE KEYSPACE {name} WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")
