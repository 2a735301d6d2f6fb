#!/usr/bin/env python3
"""The hotel data model of the seeds, with the DataStax Python driver (python3-cassandra).

A plain Cassandra program: it connects with the driver's default settings, creates the seeds'
`hotel` and `reservation` schemas (Cassandra: The Definitive Guide, ch. 5), writes a few rows
and runs queries Q1, Q4 and Q8. It runs unchanged against Apache Cassandra and against cqld.

    CASSANDRA_HOST (default 127.0.0.1) and CASSANDRA_PORT (default 9042) say where to connect.
"""

import datetime
import os
import uuid

from cassandra.cluster import Cluster

SCHEMA = [
    # One node here: the seeds use replication_factor 3.
    "CREATE KEYSPACE IF NOT EXISTS hotel "
    "WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    "CREATE TYPE IF NOT EXISTS hotel.address (street text, city text, state_or_province text, "
    "postal_code text, country text)",
    "CREATE TABLE IF NOT EXISTS hotel.hotels_by_poi (poi_name text, poi_description text STATIC, "
    "hotel_id text, name text, phone text, address frozen<address>, "
    "PRIMARY KEY ((poi_name), hotel_id)) WITH comment = 'Q1. Find hotels near given poi' "
    "AND CLUSTERING ORDER BY (hotel_id ASC)",
    "CREATE TABLE IF NOT EXISTS hotel.hotels (id text PRIMARY KEY, name text, phone text, "
    "address frozen<address>, pois set<text>) WITH comment = 'Q2. Find information about a hotel'",
    "CREATE TABLE IF NOT EXISTS hotel.pois_by_hotel (poi_name text, hotel_id text, "
    "description text, PRIMARY KEY ((hotel_id), poi_name)) "
    "WITH comment = 'Q3. Find pois near a hotel'",
    "CREATE TABLE IF NOT EXISTS hotel.available_rooms_by_hotel_date (hotel_id text, date date, "
    "room_number smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number)) "
    "WITH comment = 'Q4. Find available rooms by hotel / date'",
    "CREATE TABLE IF NOT EXISTS hotel.amenities_by_room (hotel_id text, room_number smallint, "
    "amenity_name text, description text, PRIMARY KEY ((hotel_id, room_number), amenity_name)) "
    "WITH comment = 'Q5. Find amenities for a room'",
    "CREATE KEYSPACE IF NOT EXISTS reservation "
    "WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    "CREATE TYPE IF NOT EXISTS reservation.address (street text, city text, "
    "state_or_province text, postal_code text, country text)",
    "CREATE TABLE IF NOT EXISTS reservation.reservations_by_confirmation (confirm_number text, "
    "hotel_id text, start_date date, end_date date, room_number smallint, guest_id uuid, "
    "PRIMARY KEY (confirm_number)) WITH comment = 'Q6. Find reservations by confirmation number'",
    "CREATE TABLE IF NOT EXISTS reservation.reservations_by_hotel_date (hotel_id text, "
    "start_date date, end_date date, room_number smallint, confirm_number text, guest_id uuid, "
    "PRIMARY KEY ((hotel_id, start_date), room_number)) "
    "WITH comment = 'Q7. Find reservations by hotel and date'",
    "CREATE TABLE IF NOT EXISTS reservation.reservations_by_guest (guest_last_name text, "
    "hotel_id text, start_date date, end_date date, room_number smallint, confirm_number text, "
    "guest_id uuid, PRIMARY KEY ((guest_last_name), hotel_id)) "
    "WITH comment = 'Q8. Find reservations by guest name'",
    "CREATE TABLE IF NOT EXISTS reservation.guests (guest_id uuid PRIMARY KEY, first_name text, "
    "last_name text, title text, emails set<text>, phone_numbers list<text>, "
    "addresses map<text, frozen<address>>, confirm_number text) "
    "WITH comment = 'Q9. Find guest by ID'",
]


class Address:
    """The hotel.address UDT, registered with the driver."""

    def __init__(self, street=None, city=None, state_or_province=None, postal_code=None,
                 country=None):
        self.street = street
        self.city = city
        self.state_or_province = state_or_province
        self.postal_code = postal_code
        self.country = country


def main():
    host = os.environ.get("CASSANDRA_HOST", "127.0.0.1")
    port = int(os.environ.get("CASSANDRA_PORT", "9042"))
    cluster = Cluster([host], port=port)
    session = cluster.connect()
    for statement in SCHEMA:
        session.execute(statement)
    cluster.register_user_type("hotel", "address", Address)

    add_hotel = session.prepare(
        "INSERT INTO hotel.hotels_by_poi (poi_name, poi_description, hotel_id, name, phone, "
        "address) VALUES (?, ?, ?, ?, ?, ?)")
    session.execute(add_hotel, ("Eiffel Tower", "Iron lattice tower", "AZ123",
                                "Super Hotel Paris", "+33 1 23 45 67 89",
                                Address(street="1 Rue", city="Paris", country="France")))
    session.execute(add_hotel, ("Eiffel Tower", "Iron lattice tower", "AZ100", "Hotel Lafayette",
                                "+33 1 00 00 00 00", None))

    add_room = session.prepare(
        "INSERT INTO hotel.available_rooms_by_hotel_date (hotel_id, date, room_number, "
        "is_available) VALUES (?, ?, ?, ?)")
    for day, room, available in ((1, 101, True), (2, 101, False), (2, 102, True),
                                 (3, 101, True), (5, 101, True)):
        session.execute(add_room, ("AZ123", datetime.date(2016, 1, day), room, available))

    guest_id = uuid.UUID("5b6962dd-3f90-4c93-8f61-eabfa4a803e2")
    session.execute(
        "INSERT INTO reservation.reservations_by_guest (guest_last_name, hotel_id, start_date, "
        "end_date, room_number, confirm_number, guest_id) VALUES (%s, %s, %s, %s, %s, %s, %s)",
        ("Nguyen", "AZ123", datetime.date(2016, 1, 2), datetime.date(2016, 1, 4), 101, "RS2G0Z",
         guest_id))

    print("Q1. Hotels near Eiffel Tower:")
    q1 = session.prepare("SELECT hotel_id, name, phone, address FROM hotel.hotels_by_poi "
                         "WHERE poi_name = ?")
    for row in session.execute(q1, ["Eiffel Tower"]):
        city = f", {row.address.city}" if row.address else ""
        print(f"  {row.hotel_id} {row.name} (phone {row.phone}){city}")

    print("Q4. Rooms of AZ123 from 2016-01-02 to 2016-01-04:")
    q4 = session.prepare("SELECT date, room_number, is_available "
                         "FROM hotel.available_rooms_by_hotel_date "
                         "WHERE hotel_id = ? AND date >= ? AND date <= ?")
    for row in session.execute(q4, ["AZ123", datetime.date(2016, 1, 2),
                                    datetime.date(2016, 1, 4)]):
        state = "available" if row.is_available else "taken"
        print(f"  {row.date} room {row.room_number} {state}")

    print("Q8. Reservations of guest Nguyen:")
    q8 = session.prepare("SELECT hotel_id, start_date, end_date, room_number, confirm_number "
                         "FROM reservation.reservations_by_guest WHERE guest_last_name = ?")
    for row in session.execute(q8, ["Nguyen"]):
        print(f"  {row.confirm_number} at {row.hotel_id} from {row.start_date} to "
              f"{row.end_date}, room {row.room_number}")

    cluster.shutdown()


if __name__ == "__main__":
    main()
