#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

parser: every statement of the CQL logic tests and of the seed schemas, one file each.
value:  valid serialized values, one per type of fuzz_checks.cc's list (first byte = index).
hotel:  HTTP requests for hotel_fuzz.cc (`METHOD TARGET`, Content-Type, body): every endpoint
        of the API with valid and invalid parameters and bodies.
Run from anywhere; rewrites these folders. The output is committed; rerun after adding tests.
The catalog and storage seeds come from make_binary_corpus.cc (they need the code under test).
"""
import hashlib
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def write(target, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def parser_corpus():
    for dirpath, _, files in os.walk(os.path.join(ROOT, "tests", "cql")):
        for file in files:
            if not file.endswith(".test"):
                continue
            lines = open(os.path.join(dirpath, file), encoding="utf-8").read().split("\n")
            i = 0
            while i < len(lines):
                if lines[i].startswith("statement"):
                    j = i + 1
                    body = []
                    while j < len(lines) and lines[j].strip() and lines[j].strip() != "----":
                        body.append(lines[j])
                        j += 1
                    write("parser", "\n".join(body).encode("utf-8"))
                    i = j
                else:
                    i += 1
    seeds = os.path.join(ROOT, "tests", "data", "seeds")
    for file in os.listdir(seeds):
        text = open(os.path.join(seeds, file), encoding="utf-8").read()
        for statement in re.split(r";\s*\n", text):
            if statement.strip():
                write("parser", (statement.strip() + ";").encode("utf-8"))


def b(n):  # [bytes]
    return struct.pack(">i", len(n)) + n


def value_corpus():
    text = lambda s: s.encode("utf-8")
    values = {
        0: [b"hello", b""],
        1: [struct.pack(">q", -1), struct.pack(">q", 2**63 - 1)],
        2: [b"\x00\xff\x10", b""],
        3: [b"\x01", b"\x00"],
        4: [struct.pack(">q", 42)],
        5: [struct.pack(">i", 2) + b"\x00\x96", struct.pack(">i", -3) + b"\xff"],
        6: [struct.pack(">d", 3.5), struct.pack(">d", float("nan"))],
        7: [struct.pack(">f", -0.0), struct.pack(">f", float("inf"))],
        8: [struct.pack(">i", -2**31)],
        9: [struct.pack(">q", 1430659854234)],
        10: [bytes.fromhex("123e4567e89b12d3a456426614174000")],
        11: [text("Zürich ☃"), b"a\x00b"],
        12: [b"\xff\x7f", b"\x00\x80", b"\x01" * 20],
        13: [bytes.fromhex("50554d6e29bb11e5b345feff819cdc9f")],
        14: [bytes([127, 0, 0, 1]), bytes(15) + b"\x01"],
        15: [struct.pack(">I", 2**31), struct.pack(">I", 2**31 + 19753)],
        16: [struct.pack(">q", 29574123456789)],
        17: [struct.pack(">h", 101)],
        18: [b"\x80"],
        19: [b"\x02\x04\x00", b"\x00\x00\x00", b"\x01\x01\xc1\x00"],
        20: [struct.pack(">i", 2) + b(struct.pack(">i", 1)) + b(struct.pack(">i", 2))],
        21: [struct.pack(">i", 2) + b(b"a") + b(b"b")],
        22: [struct.pack(">i", 1) + b(b"home") + b(b(b"1 Main St") + b(b"Springfield"))],
        23: [b(struct.pack(">i", 1)) + b(b"x") + struct.pack(">i", -1)],
        24: [struct.pack(">i", 1) + b(struct.pack(">i", 1) + b(b"\x05"))],
        25: [struct.pack(">i", 1) + b(struct.pack(">i", 1) + b"\x0f") +
             b(struct.pack(">i", 1) + b(bytes.fromhex("50554d6e29bb11e5b345feff819cdc9f")))],
        26: [struct.pack(">fff", 1.0, 2.5, -3.0)],
        27: [b"\x01a\x02bc"],
        28: [b(b"11 Rue de Rivoli") + b(b"Paris") + struct.pack(">i", -1)],
    }
    for index, items in values.items():
        for item in items:
            write("value", bytes([index]) + item)


def request(method, target, body="", content_type=""):
    return f"{method} {target}\n{content_type}\n{body}".encode("utf-8")


GUEST = ('{"first_name": "Mai", "last_name": "Nguyen", "title": "Ms.", '
         '"emails": ["mai@example.com"], "phone_numbers": ["+1 555 0100"], '
         '"addresses": {"home": {"street": "1 Main St", "city": "Springfield", '
         '"state_or_province": "IL", "postal_code": "62701", "country": "USA"}}}')
BOOKING = ('{"hotel_id": "AZ123", "room_number": 102, "check_in": "2030-01-06", '
           '"check_out": "2030-01-08", "guest": ' + GUEST + '}')


def hotel_corpus():
    """The requests hotel_fuzz.cc answers over its inventory (hotel AZ123, rooms 101, 102)."""
    get = [
        "/api/v1/health", "/api/v1/openapi.json", "/api/v1/pois",
        "/api/v1/pois/Eiffel%20Tower/hotels", "/api/v1/pois/Nowhere/hotels",
        "/api/v1/hotels/AZ123", "/api/v1/hotels/NOPE", "/api/v1/hotels/AZ123/pois",
        "/api/v1/hotels/AZ123/availability?check_in=2030-01-02&check_out=2030-01-05",
        "/api/v1/hotels/AZ123/availability?check_in=2030-01-05&check_out=2030-01-02",
        "/api/v1/hotels/AZ123/availability?check_in=2030-13-40",
        "/api/v1/hotels/AZ123/rooms/101", "/api/v1/hotels/AZ123/rooms/101?date=2030-01-03",
        "/api/v1/hotels/AZ123/rooms/99999", "/api/v1/hotels/AZ123/rooms/abc",
        "/api/v1/hotels/AZ123/reservations?date=2030-01-03",
        "/api/v1/hotels/AZ123/reservations?date=2030-01-03&last_name=nguyen",
        "/api/v1/reservations?last_name=Nguyen", "/api/v1/reservations?last_name=%20",
        "/api/v1/reservations?last_name=Nguyen&first_name=Mai",
        "/api/v1/reservations/AZ123-XYZ", "/api/v1/guests/not-a-uuid",
        "/api/v1/guests/123e4567-e89b-12d3-a456-426614174000",
        "/", "/static/app.js", "/static/../secret.txt", "/static/%2e%2e/secret.txt",
        "/favicon.ico", "/nowhere", "/api/v2/health", "not a target", "/api/v1/%ff%fe",
    ]
    for target in get:
        write("hotel", request("GET", target))
    posts = [
        ("/api/v1/reservations", BOOKING),
        ("/api/v1/reservations", BOOKING.replace('"room_number": 102', '"room_number": "102"')),
        ("/api/v1/reservations", '{"hotel_id": "AZ123", "room_number": 101, "check_in": '
                                 '"2030-01-02", "check_out": "2030-01-05", "guest": '
                                 '{"guest_id": "123e4567-e89b-12d3-a456-426614174000"}}'),
        ("/api/v1/guests", GUEST),
        ("/api/v1/guests", '{"first_name": "", "last_name": 7}'),
        ("/api/v1/hotels", '{"hotel_id": "NY229", "name": "Hotel NY", "phone": "1", '
                           '"address": {"city": "New York"}, "pois": ["Louvre"]}'),
        ("/api/v1/hotels", '{"hotel_id": "AZ123", "name": "X"}'),
        ("/api/v1/pois", '{"name": "Orsay", "description": "Museum"}'),
        ("/api/v1/pois", "[1]"),
        ("/api/v1/pois", "{not json"),
        ("/api/v1/hotels/AZ123/rooms", '{"room_number": 7, "room_type": "single", '
                                       '"rate": "80.50", "amenities": [{"name": "wifi", '
                                       '"description": "Free"}]}'),
        ("/api/v1/hotels/AZ123/rooms", '{"room_number": -1, "rate": "1e9"}'),
        ("/api/v1/hotels/AZ123/availability", '{"start": "2030-02-01", "end": "2030-02-04", '
                                              '"rate": "99.99"}'),
        ("/api/v1/hotels/AZ123/availability", '{"start": "2030-02-04", "end": "2030-02-01"}'),
    ]
    for target, body in posts:
        write("hotel", request("POST", target, body, "application/json"))
    write("hotel", request("POST", "/api/v1/pois", "{}", "text/plain"))
    write("hotel", request("PUT", "/api/v1/reservations/AZ123-XYZ",
                           '{"check_in": "2030-01-06", "check_out": "2030-01-08", '
                           '"room_number": 102}', "application/json"))
    write("hotel", request("PUT", "/api/v1/guests/123e4567-e89b-12d3-a456-426614174000", GUEST))
    write("hotel", request("DELETE", "/api/v1/reservations/AZ123-XYZ"))
    write("hotel", request("PATCH", "/api/v1/pois", "{}"))
    write("hotel", request("HEAD", "/"))


if __name__ == "__main__":
    for target in ("parser", "value", "hotel"):
        folder = os.path.join(CORPUS, target)
        if os.path.isdir(folder):
            for f in os.listdir(folder):
                os.remove(os.path.join(folder, f))
    parser_corpus()
    value_corpus()
    hotel_corpus()
