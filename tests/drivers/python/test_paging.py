"""Paging: fetch_size over a wide partition and across partitions; paging_state resume."""

import pytest
from cassandra.query import SimpleStatement

ROWS = 53


@pytest.fixture(scope="module")
def wide(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.wide (p text, c int, v text, "
                    "PRIMARY KEY (p, c))")
    insert = session.prepare(f"INSERT INTO {keyspace}.wide (p, c, v) VALUES (?, ?, ?)")
    for c in range(ROWS):
        session.execute(insert, ("part", c, f"v{c}"))
    for p in range(10):  # other partitions, around the wide one in token order
        session.execute(insert, (f"other{p}", 0, "o"))
    return f"{keyspace}.wide"


def pages_of(result):
    """Every page of a result, fetched one at a time."""
    pages = [list(result.current_rows)]
    while result.has_more_pages:
        result.fetch_next_page()
        pages.append(list(result.current_rows))
    return pages


def check_pages(pages, fetch_size, total):
    sizes = [len(p) for p in pages]
    assert sum(sizes) == total
    assert all(size == fetch_size for size in sizes[:-1]), sizes
    assert sizes[-1] <= fetch_size
    # At most one empty page, and only when the rows end exactly on a page boundary.
    assert sizes[-1] > 0 or (total % fetch_size == 0 and len(pages) == total // fetch_size + 1)


@pytest.mark.parametrize("fetch_size", list(range(1, 13)) + [52, 53, 54, 100])
def test_wide_partition_pages(session, wide, fetch_size):
    statement = SimpleStatement(f"SELECT c, v FROM {wide} WHERE p = 'part'",
                                fetch_size=fetch_size)
    pages = pages_of(session.execute(statement))
    check_pages(pages, fetch_size, ROWS)
    assert [r.c for page in pages for r in page] == list(range(ROWS))


@pytest.mark.parametrize("fetch_size", [1, 4, 7, 10])
def test_prepared_reversed_pages(session, wide, fetch_size):
    prepared = session.prepare(f"SELECT c FROM {wide} WHERE p = ? ORDER BY c DESC")
    prepared.fetch_size = fetch_size
    pages = pages_of(session.execute(prepared, ["part"]))
    check_pages(pages, fetch_size, ROWS)
    assert [r.c for page in pages for r in page] == list(reversed(range(ROWS)))


@pytest.mark.parametrize("fetch_size", [1, 3, 8, 64])
def test_full_scan_pages_across_partitions(session, wide, fetch_size):
    unpaged = list(session.execute(SimpleStatement(f"SELECT p, c FROM {wide}", fetch_size=None)))
    assert len(unpaged) == ROWS + 10
    pages = pages_of(session.execute(SimpleStatement(f"SELECT p, c FROM {wide}",
                                                     fetch_size=fetch_size)))
    check_pages(pages, fetch_size, ROWS + 10)
    assert [tuple(r) for page in pages for r in page] == [tuple(r) for r in unpaged]
    keys = [r.p for r in unpaged]
    # Each partition's rows are contiguous.
    assert len({k for k in keys}) == 11
    assert sum(1 for a, b in zip(keys, keys[1:]) if a != b) == 10


def test_paging_state_resumes_in_a_new_request(session, wide):
    query = f"SELECT c FROM {wide} WHERE p = 'part'"
    first = session.execute(SimpleStatement(query, fetch_size=7))
    assert [r.c for r in first.current_rows] == list(range(7))
    state = first.paging_state
    assert state is not None
    # Resume twice from the same state: the state is a value, not a server cursor.
    for _ in range(2):
        resumed = session.execute(SimpleStatement(query, fetch_size=7), paging_state=state)
        assert [r.c for r in resumed.current_rows] == list(range(7, 14))
    # A prepared statement resumes with the state of its own earlier page.
    prepared = session.prepare(f"SELECT c FROM {wide} WHERE p = ?")
    prepared.fetch_size = 20
    page1 = session.execute(prepared, ["part"])
    page2 = session.execute(prepared, ["part"], paging_state=page1.paging_state)
    assert [r.c for r in page2.current_rows] == list(range(20, 40))
    rest = list(page2)  # iterating fetches the remaining pages
    assert [r.c for r in rest] == list(range(20, ROWS))


def test_iteration_fetches_every_page(session, wide):
    result = session.execute(SimpleStatement(f"SELECT c FROM {wide} WHERE p = 'part'",
                                             fetch_size=5))
    assert [r.c for r in result] == list(range(ROWS))


def test_limit_with_paging(session, wide):
    result = session.execute(SimpleStatement(f"SELECT c FROM {wide} WHERE p = 'part' LIMIT 12",
                                             fetch_size=5))
    assert [r.c for r in result] == list(range(12))
