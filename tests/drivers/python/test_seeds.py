"""The seeds' schemas, created verbatim, as the driver's metadata sees them; the seeds' queries."""

import datetime
import re
import uuid

import pytest
from cassandra.util import Date

from conftest import DRIVER_TROUBLE, seed_statements

ADDRESS_FIELDS = ["street", "city", "state_or_province", "postal_code", "country"]


def recreate(session, files):
    for ks in ("hotel", "reservation"):
        session.execute(f"DROP KEYSPACE IF EXISTS {ks}")
    for name in files:
        for statement in seed_statements(name):
            session.execute(statement)


def names(columns):
    return [c.name for c in columns]


def check_metadata_builds_cleanly(cluster):
    """A full schema refresh, with no error from the driver's metadata parsers."""
    del DRIVER_TROUBLE.records[:]
    cluster.refresh_schema_metadata()
    assert DRIVER_TROUBLE.records == []


def check_address_type(keyspace_metadata):
    udt = keyspace_metadata.user_types["address"]
    assert udt.name == "address"
    assert udt.keyspace == keyspace_metadata.name
    assert list(udt.field_names) == ADDRESS_FIELDS
    assert list(udt.field_types) == ["text"] * 5


class TestSeed001:
    @pytest.fixture(scope="class", autouse=True)
    def schema(self, session):
        recreate(session, ["001_hotel.cql", "001_reservation.cql"])
        yield
        recreate(session, [])

    def test_metadata_builds_cleanly(self, cluster):
        check_metadata_builds_cleanly(cluster)

    def test_keyspaces(self, cluster):
        for name in ("hotel", "reservation"):
            ks = cluster.metadata.keyspaces[name]
            assert ks.durable_writes
            assert ks.replication_strategy.name == "SimpleStrategy"
            assert ks.replication_strategy.replication_factor == 3

    def test_hotel_tables(self, cluster):
        ks = cluster.metadata.keyspaces["hotel"]
        assert set(ks.tables) == {"hotels_by_poi", "hotels", "pois_by_hotel",
                                  "available_rooms_by_hotel_date", "amenities_by_room"}
        check_address_type(ks)

        poi = ks.tables["hotels_by_poi"]
        assert names(poi.partition_key) == ["poi_name"]
        assert names(poi.clustering_key) == ["hotel_id"]
        assert not poi.clustering_key[0].is_reversed
        assert [c for c in poi.columns if poi.columns[c].is_static] == ["poi_description"]
        assert set(poi.columns) == {"poi_name", "poi_description", "hotel_id", "name", "phone",
                                    "address"}
        assert poi.columns["address"].cql_type == "frozen<address>"
        assert poi.columns["poi_description"].cql_type == "text"
        assert poi.options["comment"] == "Q1. Find hotels near given poi"

        hotels = ks.tables["hotels"]
        assert names(hotels.partition_key) == ["id"]
        assert hotels.clustering_key == []
        assert hotels.columns["pois"].cql_type == "set<text>"

        rooms = ks.tables["available_rooms_by_hotel_date"]
        assert names(rooms.partition_key) == ["hotel_id"]
        assert names(rooms.clustering_key) == ["date", "room_number"]
        assert [c.cql_type for c in rooms.clustering_key] == ["date", "smallint"]
        assert rooms.columns["is_available"].cql_type == "boolean"

        amenities = ks.tables["amenities_by_room"]
        assert names(amenities.partition_key) == ["hotel_id", "room_number"]
        assert names(amenities.clustering_key) == ["amenity_name"]

    def test_reservation_tables(self, cluster):
        ks = cluster.metadata.keyspaces["reservation"]
        assert set(ks.tables) == {"reservations_by_confirmation", "reservations_by_hotel_date",
                                  "reservations_by_guest", "guests"}
        assert ks.views == {}
        check_address_type(ks)
        by_date = ks.tables["reservations_by_hotel_date"]
        assert names(by_date.partition_key) == ["hotel_id", "start_date"]
        assert names(by_date.clustering_key) == ["room_number"]
        guests = ks.tables["guests"]
        assert names(guests.partition_key) == ["guest_id"]
        assert guests.columns["guest_id"].cql_type == "uuid"
        assert guests.columns["emails"].cql_type == "set<text>"
        assert guests.columns["phone_numbers"].cql_type == "list<text>"
        assert guests.columns["addresses"].cql_type == "map<text, frozen<address>>"

    def test_exported_cql_is_complete(self, cluster):
        text = cluster.metadata.keyspaces["hotel"].export_as_string()
        assert "incompatible" not in text.lower()
        assert "CREATE KEYSPACE hotel" in text
        assert "CREATE TYPE hotel.address" in text
        assert "CREATE TABLE hotel.hotels_by_poi" in text
        assert "poi_description text static" in text
        assert "WITH CLUSTERING ORDER BY (date ASC, room_number ASC)" in text

    def test_seed_queries(self, session):
        for statement in seed_statements("hotel_q1_q9.cql"):
            if not statement.upper().startswith("SELECT"):
                session.execute(statement)

        q1 = list(session.execute(
            "SELECT * FROM hotel.hotels_by_poi WHERE poi_name = 'Eiffel Tower'"))
        assert [r.hotel_id for r in q1] == ["AZ100", "AZ123"]
        assert {r.poi_description for r in q1} == {"Iron lattice tower"}  # static
        assert q1[0].address is None
        assert q1[1].address.city == "Paris"
        assert q1[1].address.postal_code is None

        q4 = session.execute(
            "SELECT date, room_number, is_available FROM hotel.available_rooms_by_hotel_date "
            "WHERE hotel_id = 'AZ123' AND date > '2016-01-01' AND date < '2016-01-05'")
        assert [(r.date, r.room_number, r.is_available) for r in q4] == [
            (Date(datetime.date(2016, 1, 2)), 101, False),
            (Date(datetime.date(2016, 1, 2)), 102, True),
            (Date(datetime.date(2016, 1, 3)), 101, True)]

        q8 = session.execute("SELECT hotel_id, confirm_number FROM reservation.reservations_by_guest "
                             "WHERE guest_last_name = 'Nguyen'")
        assert [tuple(r) for r in q8] == [("AZ123", "RS2G0Z")]

        q9 = session.execute(
            "SELECT first_name, emails, phone_numbers, addresses FROM reservation.guests "
            "WHERE guest_id = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2").one()
        assert q9.first_name == "Mai"
        assert q9.emails == {"mai@example.com"}
        assert q9.phone_numbers == ["+1 555 0100"]
        assert list(q9.addresses) == ["home"]
        assert q9.addresses["home"].street == "1 Main St"
        assert q9.addresses["home"].country is None

        guest = session.execute("SELECT guest_id FROM reservation.guests").one().guest_id
        assert guest == uuid.UUID("5b6962dd-3f90-4c93-8f61-eabfa4a803e2")


class TestSeed003MaterializedView:
    @pytest.fixture(scope="class", autouse=True)
    def schema(self, session):
        recreate(session, ["003_hotel.cql", "003_reservation_with_view.cql"])
        yield
        recreate(session, [])

    def test_metadata_builds_cleanly(self, cluster):
        check_metadata_builds_cleanly(cluster)

    def test_hotel_without_static_column(self, cluster):
        poi = cluster.metadata.keyspaces["hotel"].tables["hotels_by_poi"]
        assert "poi_description" not in poi.columns
        assert not any(c.is_static for c in poi.columns.values())

    def test_view_metadata(self, cluster):
        ks = cluster.metadata.keyspaces["reservation"]
        assert "reservations_by_confirmation" not in ks.tables
        view = ks.views["reservations_by_confirmation"]
        assert view.keyspace_name == "reservation"
        assert view.base_table_name == "reservations_by_hotel_date"
        assert view.include_all_columns
        assert names(view.partition_key) == ["confirm_number"]
        assert names(view.clustering_key) == ["hotel_id", "start_date", "room_number"]
        assert not any(c.is_reversed for c in view.clustering_key)
        assert set(view.columns) == {"confirm_number", "hotel_id", "start_date", "room_number",
                                     "end_date", "guest_id"}
        where = re.sub(r"\s+", " ", view.where_clause).lower()
        for column in ("confirm_number", "hotel_id", "start_date", "room_number"):
            assert f"{column} is not null" in where
        base = ks.tables["reservations_by_hotel_date"]
        assert list(base.views) == ["reservations_by_confirmation"]
        assert "CREATE MATERIALIZED VIEW reservation.reservations_by_confirmation" in \
            ks.export_as_string()

    def test_view_is_maintained(self, session):
        session.execute(
            "INSERT INTO reservation.reservations_by_hotel_date (hotel_id, start_date, end_date, "
            "room_number, confirm_number, guest_id) VALUES ('AZ123', '2016-01-02', '2016-01-04', "
            "101, 'RS2G0Z', 5b6962dd-3f90-4c93-8f61-eabfa4a803e2)")
        row = session.execute("SELECT hotel_id, room_number, end_date FROM "
                              "reservation.reservations_by_confirmation "
                              "WHERE confirm_number = 'RS2G0Z'").one()
        assert (row.hotel_id, row.room_number, row.end_date) == (
            "AZ123", 101, Date(datetime.date(2016, 1, 4)))


def test_descending_clustering_order_and_secondary_index(session, cluster, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.events (day date, at timestamp, seq int, "
                    "note text STATIC, kind text, PRIMARY KEY ((day), at, seq)) "
                    "WITH CLUSTERING ORDER BY (at DESC, seq ASC)")
    session.execute(f"CREATE INDEX events_by_kind ON {keyspace}.events (kind)")
    table = cluster.metadata.keyspaces[keyspace].tables["events"]
    assert names(table.clustering_key) == ["at", "seq"]
    assert [c.is_reversed for c in table.clustering_key] == [True, False]
    assert table.columns["note"].is_static
    assert "WITH CLUSTERING ORDER BY (at DESC, seq ASC)" in table.export_as_string()
    index = table.indexes["events_by_kind"]
    assert index.kind == "COMPOSITES"
    assert index.index_options["target"] == "kind"
