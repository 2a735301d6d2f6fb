#!/usr/bin/env python3
"""A tiny in-memory stand-in for `hotel serve`, for developing and testing the web UI.

It follows the hotel HTTP API contract (v1, base path /api/v1) closely enough for the UI and its
browser tests (tests/web/*.test.mjs): the read queries Q1-Q9, booking, cancelling and
changing reservations (with the price of a change first: GET .../quote), a reservation's
history, confirmation numbers in any case, guests, with the contract's JSON errors, and who may
call what (docs/security.md): staff login (POST /login, a session cookie or bearer token, /logout,
/session), 401 for staff-only calls without a session, the guest's last name for a reservation
(a wrong one is the same 404 as an unknown number). It also serves the UI from web/ at / and
/static/..., as the real service does. Python 3 standard library only; data lives in memory and
is rebuilt on every start (deterministic, relative to today's date).

One staff account: HOTEL_STAFF_USER / HOTEL_STAFF_PASSWORD from the environment, by default
"staff" / "staff-password" (a development stand-in: no rate limiting, sessions never expire).

Usage: mock_api.py [--port N] [--port-file FILE] [--web DIR]
  --port 0 picks a free port; the port is written to --port-file once the server listens and a
  line "mock_api: listening on http://127.0.0.1:PORT" goes to stdout. SIGTERM/SIGINT stop it.
"""

import argparse
import datetime as dt
import json
import mimetypes
import os
import random
import secrets
import signal
import sys
import threading
import uuid
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

MAX_NIGHTS = 30
CONFIRMATION_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O/1/I/L


class ApiError(Exception):
    """An expected failure, answered as the contract's JSON error."""

    def __init__(self, status, code, message, field=None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field

    def body(self):
        err = {"status": self.status, "code": self.code, "message": self.message}
        if self.field:
            err["field"] = self.field
        return {"error": err}


def money(value):
    return f"{Decimal(value).quantize(Decimal('0.01'))}"


def parse_date(text, field):
    if not isinstance(text, str):
        raise ApiError(400, "invalid_field", f"{field} is required (YYYY-MM-DD)", field)
    try:
        if len(text) != 10:
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ApiError(400, "invalid_field", f"{field} must be a date YYYY-MM-DD, got '{text}'",
                       field) from None


def parse_stay(check_in_text, check_out_text):
    check_in = parse_date(check_in_text, "check_in")
    check_out = parse_date(check_out_text, "check_out")
    if check_out <= check_in:
        raise ApiError(400, "invalid_field", "check_out must be after check_in", "check_out")
    nights = (check_out - check_in).days
    if nights > MAX_NIGHTS:
        raise ApiError(400, "invalid_field",
                       f"check_out must be at most {MAX_NIGHTS} nights after check_in: a stay "
                       f"lasts at most {MAX_NIGHTS} nights", "check_out")
    return check_in, check_out


def nights_of(check_in, check_out):
    return [check_in + dt.timedelta(days=i) for i in range((check_out - check_in).days)]


def address(street, city, state, postal, country):
    return {"street": street, "city": city, "state_or_province": state,
            "postal_code": postal, "country": country}


AMENITIES = {
    "wifi": ("Wi-Fi", "Free high-speed wireless internet"),
    "ac": ("Air conditioning", "Individually controlled"),
    "tv": ("Flat-screen TV", "With streaming apps"),
    "minibar": ("Minibar", "Drinks and snacks, restocked daily"),
    "bath": ("Bathtub", "Deep soaking tub"),
    "view": ("City view", "Upper floor with a view over the city"),
    "sofa": ("Sofa bed", "Sleeps two more guests"),
    "kitchen": ("Kitchenette", "Two hobs, fridge and microwave"),
    "coffee": ("Coffee machine", "Espresso machine with capsules"),
}

ROOM_TYPES = {
    "Standard Queen": (Decimal("109.00"), ["wifi", "ac", "tv"]),
    "Deluxe King": (Decimal("159.00"), ["wifi", "ac", "tv", "minibar", "coffee", "bath"]),
    "Family Suite": (Decimal("229.00"), ["wifi", "ac", "tv", "sofa", "kitchen", "view"]),
}


class Store:
    """All mock data, guarded by one lock (the server is threaded)."""

    def __init__(self, today):
        self.lock = threading.Lock()
        self.today = today
        self.rng = random.Random(42)
        self.pois = {}
        self.hotels = {}
        self.hotel_pois = {}  # hotel_id -> [poi name]
        self.rooms = {}  # (hotel_id, room_number) -> room dict
        self.open_nights = set()  # (hotel_id, room_number, date)
        self.taken = {}  # (hotel_id, room_number, date) -> confirmation number
        self.guests = {}
        self.reservations = {}
        self.history = {}  # confirmation number -> [event], oldest first
        self.rates = {}  # (hotel_id, room_number, date) -> Decimal, the staff console's changes
        self.staff = {os.environ.get("HOTEL_STAFF_USER", "staff").lower():
                      os.environ.get("HOTEL_STAFF_PASSWORD", "staff-password")}
        self.sessions = {}  # token -> username
        self._seed()

    # --- data -------------------------------------------------------------------------------
    def _seed(self):
        pois = [
            ("Eiffel Tower", "Wrought-iron lattice tower on the Champ de Mars, Paris"),
            ("Louvre Museum", "The world's most-visited art museum, home of the Mona Lisa"),
            ("Sacré-Cœur", "Basilica at the summit of Montmartre"),
            ("Central Park", "Urban park in Manhattan between the Upper West and East Sides"),
            ("Times Square", "Bright lights and Broadway theatres in Midtown Manhattan"),
            ("Grand Canyon South Rim", "Viewpoints and trails on the canyon's southern edge"),
            ("Hermit's Rest", "Historic stone rest house at the west end of the Rim Trail"),
        ]
        for name, description in pois:
            self.pois[name] = {"name": name, "description": description}
        hotels = [
            ("PA101", "Hôtel des Arts", "+33 1 42 60 00 01",
             address("12 Rue de Rivoli", "Paris", "Île-de-France", "75001", "France"),
             ["Louvre Museum", "Eiffel Tower"]),
            ("PA102", "Le Petit Jardin", "+33 1 45 55 00 02",
             address("8 Avenue Rapp", "Paris", "Île-de-France", "75007", "France"),
             ["Eiffel Tower"]),
            ("PA103", "Montmartre Lodge", "+33 1 46 06 00 03",
             address("3 Rue Lepic", "Paris", "Île-de-France", "75018", "France"),
             ["Sacré-Cœur", "Louvre Museum"]),
            ("NY201", "Park View Inn", "+1 212 555 0101",
             address("100 Central Park South", "New York", "NY", "10019", "USA"),
             ["Central Park", "Times Square"]),
            ("NY202", "Midtown Grand", "+1 212 555 0202",
             address("1501 Broadway", "New York", "NY", "10036", "USA"),
             ["Times Square"]),
            ("AZ123", "Canyon Lodge", "+1 928 555 0123",
             address("1 Village Loop Dr", "Grand Canyon Village", "AZ", "86023", "USA"),
             ["Grand Canyon South Rim", "Hermit's Rest"]),
            ("AZ124", "Desert Star Motel", "+1 928 555 0124",
             address("220 Highway 64", "Tusayan", "AZ", "86023", "USA"),
             ["Grand Canyon South Rim"]),
        ]
        for hotel_id, name, phone, addr, poi_names in hotels:
            self.hotels[hotel_id] = {"hotel_id": hotel_id, "name": name, "phone": phone,
                                     "address": addr}
            self.hotel_pois[hotel_id] = poi_names
            currency = "EUR" if addr["country"] == "France" else "USD"
            for number, room_type in ((101, "Standard Queen"), (102, "Standard Queen"),
                                      (201, "Deluxe King"), (202, "Deluxe King"),
                                      (301, "Family Suite")):
                base, amenity_keys = ROOM_TYPES[room_type]
                self.rooms[(hotel_id, number)] = {
                    "room_type": room_type, "base": base, "currency": currency,
                    "amenities": [{"name": AMENITIES[k][0], "description": AMENITIES[k][1]}
                                  for k in amenity_keys]}
                for day in range(-30, 366):
                    self.open_nights.add((hotel_id, number, self.today + dt.timedelta(days=day)))
        # A few reservations so the staff page and the lookups have something to show.
        for first, last, hotel_id, room, start, nights in (
                ("Ada", "Lovelace", "PA101", 101, 7, 3), ("Alan", "Turing", "PA101", 201, 7, 2),
                ("Grace", "Hopper", "NY201", 301, 0, 4), ("Ada", "Lovelace", "AZ123", 202, 40, 5)):
            guest = self._find_or_create_guest(
                {"first_name": first, "last_name": last, "title": "Dr",
                 "emails": [f"{first.lower()}@example.com"], "phone_numbers": [],
                 "addresses": {}})
            check_in = self.today + dt.timedelta(days=start)
            self._book(hotel_id, room, check_in, check_in + dt.timedelta(days=nights), guest)

    def _find_or_create_guest(self, fields):
        for guest in self.guests.values():
            if (guest["first_name"], guest["last_name"]) == (fields["first_name"],
                                                             fields["last_name"]):
                return guest
        guest = {"guest_id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4))}
        guest.update({"first_name": fields["first_name"], "last_name": fields["last_name"],
                      "title": fields.get("title") or "", "emails": fields.get("emails") or [],
                      "phone_numbers": fields.get("phone_numbers") or [],
                      "addresses": fields.get("addresses") or {}})
        self.guests[guest["guest_id"]] = guest
        return guest

    def rate(self, hotel_id, room_number, night):
        if (hotel_id, room_number, night) in self.rates:  # set by PUT /hotels/{id}/rates
            return self.rates[(hotel_id, room_number, night)]
        room = self.rooms[(hotel_id, room_number)]
        rate = room["base"]
        if night.weekday() in (4, 5):  # Friday and Saturday nights
            rate = rate * Decimal("1.25")
        return Decimal(rate).quantize(Decimal("0.01"))

    def _confirmation_number(self):
        while True:
            number = "".join(self.rng.choice(CONFIRMATION_ALPHABET) for _ in range(6))
            if number not in self.reservations:
                return number

    def _free(self, hotel_id, room_number, check_in, check_out):
        return all((hotel_id, room_number, night) in self.open_nights
                   and (hotel_id, room_number, night) not in self.taken
                   for night in nights_of(check_in, check_out))

    def _check(self, hotel_id, room_number, check_in, check_out, ignore=None):
        """Raises 409 unless every night is open and free (or held by reservation `ignore`)."""
        for night in nights_of(check_in, check_out):
            key = (hotel_id, room_number, night)
            if key not in self.open_nights or self.taken.get(key, ignore) != ignore:
                raise ApiError(409, "room_unavailable",
                               f"Room {room_number} is not free on {night.isoformat()}")

    def record(self, reservation, action, actor, details):
        """Appends a history event (the real service writes it in the reservation's batch)."""
        self.history.setdefault(reservation["confirmation_number"], []).append({
            "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
                    .replace("+00:00", "Z"),
            "event_id": f"{len(self.history.get(reservation['confirmation_number'], []))}",
            "action": action, "status": reservation["status"], "actor": actor,
            "details": details})

    # The transitions the service allows (src/hotel/domain.h): action -> (from, to).
    TRANSITIONS = {"changed": ({"confirmed", "changed"}, "changed"),
                   "cancelled": ({"confirmed", "changed"}, "cancelled"),
                   "checked_in": ({"confirmed", "changed"}, "checked_in"),
                   "checked_out": ({"checked_in"}, "checked_out"),
                   "no_show": ({"confirmed", "changed"}, "no_show")}
    VERBS = {"changed": "change", "cancelled": "cancel", "checked_in": "check in",
             "checked_out": "check out", "no_show": "record a no-show for"}

    def transition(self, reservation, action):
        """The status after `action`, or the 422 the service answers."""
        allowed, to = self.TRANSITIONS[action]
        status = reservation["status"]
        if status not in allowed:
            words = "a no-show" if status == "no_show" else status.replace("_", " ")
            raise ApiError(422, "invalid_transition",
                           f"Cannot {self.VERBS[action]} reservation "
                           f"'{reservation['confirmation_number']}': it is {words}")
        return to

    def _book(self, hotel_id, room_number, check_in, check_out, guest, ignore=None):
        self._check(hotel_id, room_number, check_in, check_out, ignore)
        number = ignore or self._confirmation_number()
        for night in nights_of(check_in, check_out):
            self.taken[(hotel_id, room_number, night)] = number
        total = sum(self.rate(hotel_id, room_number, n) for n in nights_of(check_in, check_out))
        reservation = {
            "confirmation_number": number, "hotel_id": hotel_id,
            "hotel_name": self.hotels[hotel_id]["name"], "room_number": room_number,
            "check_in": check_in.isoformat(), "check_out": check_out.isoformat(),
            "nights": (check_out - check_in).days,
            "guest": {"guest_id": guest["guest_id"], "first_name": guest["first_name"],
                      "last_name": guest["last_name"]},
            "total": money(total), "currency": self.rooms[(hotel_id, room_number)]["currency"],
            "status": "confirmed"}
        self.reservations[number] = reservation
        if ignore is None:
            self.record(reservation, "booked", "guest", stay_words(reservation))
        return reservation

    def _release(self, reservation):
        check_in = dt.date.fromisoformat(reservation["check_in"])
        check_out = dt.date.fromisoformat(reservation["check_out"])
        for night in nights_of(check_in, check_out):
            key = (reservation["hotel_id"], reservation["room_number"], night)
            if self.taken.get(key) == reservation["confirmation_number"]:
                del self.taken[key]

    # --- lookups ----------------------------------------------------------------------------
    def hotel(self, hotel_id):
        if hotel_id not in self.hotels:
            raise ApiError(404, "not_found", f"Hotel {hotel_id} does not exist")
        return self.hotels[hotel_id]

    def room(self, hotel_id, room_number_text):
        self.hotel(hotel_id)
        try:
            room_number = int(room_number_text)
        except (TypeError, ValueError):
            raise ApiError(400, "invalid_field", "room_number must be an integer",
                           "room_number") from None
        if (hotel_id, room_number) not in self.rooms:
            raise ApiError(404, "not_found", f"Room {room_number} does not exist in hotel "
                           f"{hotel_id}")
        return room_number, self.rooms[(hotel_id, room_number)]

    def reservation(self, number, last_name=None):
        """The reservation, its number in any case; with `last_name`, only when it is its
        guest's (any case)."""
        found = self.reservations.get(number.upper())
        guest_name = found["guest"]["last_name"] if found else ""
        if found is None or (last_name is not None and
                             guest_name.strip().lower() != last_name.strip().lower()):
            raise ApiError(404, "not_found", f"Reservation '{number}' not found")
        return found


def stay_words(reservation):
    """A stay as the history's details describe it (domain.h DescribeStay)."""
    return (f"room {reservation['room_number']}, {reservation['check_in']} to "
            f"{reservation['check_out']}")


NEEDS_LOGIN = ("This needs a staff login: POST /api/v1/login, then send the session cookie or "
               "'Authorization: Bearer <token>'")


class Caller:
    """Who sent a request: the session token presented and its staff user (None: a guest)."""

    def __init__(self, token, user):
        self.token, self.user = token, user

    def require_staff(self):
        if self.user is None:
            if self.token:
                raise ApiError(401, "unauthorized",
                               "The session has expired or was ended; log in again")
            raise ApiError(401, "unauthorized", NEEDS_LOGIN)

    def guest_last_name(self, q):
        """The last name a reservation call must give (None for staff without one)."""
        name = (q.get("last_name") or "").strip()
        if name:
            return name
        if self.user is not None:
            return None
        raise ApiError(400, "invalid_field",
                       "last_name is required: the last name of the guest on the reservation",
                       "last_name")


def session_cookie(token, max_age):
    return f"hotel_session={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Strict"


def auth_routes(store, method, parts, body, caller, headers):
    """POST /login, POST /logout, GET /session; None for any other request."""
    if method == "POST" and parts == ["login"]:
        body = require_json_object(body, {"username", "password"}, "a login")
        username = require_text(body, "username").lower()
        password = body.get("password")
        if not isinstance(password, str) or store.staff.get(username) != password:
            raise ApiError(401, "unauthorized", "Wrong username or password")
        token = secrets.token_hex(32)
        store.sessions[token] = username
        headers.append(("Set-Cookie", session_cookie(token, 43200)))
        headers.append(("Cache-Control", "no-store"))
        return 200, {"username": username, "token": token, "token_type": "Bearer",
                     "expires_in": 43200, "idle_timeout": 7200}
    if method == "POST" and parts == ["logout"]:
        store.sessions.pop(caller.token, None)
        headers.append(("Set-Cookie", session_cookie("", 0)))
        return 200, {"status": "logged_out"}
    if method == "GET" and parts == ["session"]:
        caller.require_staff()
        return 200, {"username": caller.user, "expires_in": 43200}
    return None


def require_json_object(body, known=None, what="", prefix=""):
    """`body` when it is an object whose fields are all in `known` (None: not checked); else the
    service's 400: invalid_json, or unknown_field naming the first unknown field."""
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_json", "The body must be a JSON object")
    for name in (body if known is not None else ()):
        if name not in known:
            raise ApiError(400, "unknown_field", f"{prefix}{name} is not a field of {what}",
                           prefix + name)
    return body


GUEST_FIELDS = {"guest_id", "first_name", "last_name", "title", "emails", "phone_numbers",
                "addresses"}


def require_future_stay(store, check_in):
    """The service's 400 for a stay that starts before today."""
    if check_in < store.today:
        raise ApiError(400, "invalid_field",
                       f"check_in must be today ({store.today.isoformat()}) or later: a stay "
                       "cannot start in the past", "check_in")


def require_text(obj, field, prefix=""):
    value = obj.get(field)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, "invalid_field", f"{prefix}{field} is required", prefix + field)
    return value.strip()


def quote_change(store, reservation, q):
    """GET /reservations/{n}/quote: what PUT with this stay would charge, changing nothing (the
    service's HotelService::QuoteChange), with PUT's checks and errors."""
    store.transition(reservation, "changed")
    check_in, check_out = parse_stay(q.get("check_in"), q.get("check_out"))
    hotel_id = reservation["hotel_id"]
    room_number = reservation["room_number"]
    if "room_number" in q:
        room_number, _ = store.room(hotel_id, q["room_number"])
    else:
        store.room(hotel_id, room_number)
    store._check(hotel_id, room_number, check_in, check_out,
                 ignore=reservation["confirmation_number"])
    rates = [{"date": night.isoformat(), "rate": money(store.rate(hotel_id, room_number, night))}
             for night in nights_of(check_in, check_out)]
    total = sum(Decimal(r["rate"]) for r in rates)

    def stay(room, start, end, amount):
        return {"room_number": room, "check_in": start, "check_out": end,
                "nights": (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days,
                "total": money(amount)}
    proposed = stay(room_number, check_in.isoformat(), check_out.isoformat(), total)
    proposed["room_type"] = store.rooms[(hotel_id, room_number)]["room_type"]
    proposed["nightly_rates"] = rates
    return {"confirmation_number": reservation["confirmation_number"], "hotel_id": hotel_id,
            "currency": reservation["currency"],
            "current": stay(reservation["room_number"], reservation["check_in"],
                            reservation["check_out"], Decimal(reservation["total"])),
            "proposed": proposed,
            "difference": money(total - Decimal(reservation["total"]))}


# --- The staff console (web/static/staff.js; src/hotel/hotel_service_console.cc) -------------

def night_state(store, hotel_id, room_number, night):
    """(state, confirmation number) of a night on the occupancy grid."""
    if (hotel_id, room_number, night) not in store.open_nights:
        return "not_opened", None
    number = store.taken.get((hotel_id, room_number, night))
    if number is None:
        return "free", None
    status = store.reservations[number]["status"]
    return {"checked_in": "checked_in", "checked_out": "checked_out"}.get(status, "booked"), number


def paged(q, items, list_key, key_of):
    """One page of `items` as the API pages its lists: page_size (1-500, 50 by default), the
    cursor (hex of the last key of the previous page; the service's is the engine's paging
    state), next_cursor null on the last page."""
    size_text = q.get("page_size", "50")
    if not size_text.isdigit() or not 1 <= int(size_text) <= 500:
        raise ApiError(400, "invalid_field", "page_size must be an integer between 1 and 500",
                       "page_size")
    keys = [key_of(item) for item in items]
    start = 0
    if q.get("cursor"):
        try:
            start = keys.index(bytes.fromhex(q["cursor"]).decode()) + 1
        except ValueError:
            raise ApiError(400, "invalid_field", "cursor must be a next_cursor of this list",
                           "cursor") from None
    page = items[start:start + int(size_text)]
    more = start + len(page) < len(items)
    return 200, {list_key: page, "next_cursor": key_of(page[-1]).encode().hex() if more else None}


def by_number(reservation):
    return reservation["confirmation_number"]


def console_stays(store, hotel_id, keep, q):
    found = [r for r in store.reservations.values()
             if r["hotel_id"] == hotel_id and r["status"] not in ("cancelled", "no_show")
             and keep(dt.date.fromisoformat(r["check_in"]), dt.date.fromisoformat(r["check_out"]))]
    return paged(q, sorted(found, key=lambda r: r["room_number"]), "reservations", by_number)


def date_range(body, limit):
    start = parse_date(body.get("start"), "start")
    end = parse_date(body.get("end"), "end")
    if end <= start:
        raise ApiError(400, "invalid_field", "end must be after start", "end")
    if (end - start).days > limit:
        raise ApiError(400, "invalid_field", f"end must be at most {limit} days after start",
                       "end")
    return start, end


def positive_money(body, field, required):
    value = body.get(field)
    if value is None and not required:
        return None
    try:
        amount = Decimal(str(value)) if isinstance(value, (str, int)) else None
    except ArithmeticError:
        amount = None
    if amount is None or not amount.is_finite() or amount <= 0:
        raise ApiError(400, "invalid_field", f"{field} must be a decimal such as \"129.00\"", field)
    return amount.quantize(Decimal("0.01"))


def console_routes(store, method, parts, q, body, caller):
    """The staff console's endpoints (all staff only); None for any other request."""
    n = len(parts)
    if not parts or parts[0] != "hotels":
        return None
    if method == "GET" and n == 1:
        caller.require_staff()
        return paged(q, [store.hotels[i] for i in sorted(store.hotels)], "hotels",
                     lambda hotel: hotel["hotel_id"])
    if method == "POST" and n == 1:
        caller.require_staff()
        body = require_json_object(body, {"hotel_id", "name", "phone", "address", "pois"},
                                   "a hotel")
        hotel_id = require_text(body, "hotel_id")
        if hotel_id in store.hotels:
            raise ApiError(409, "conflict", f"Hotel '{hotel_id}' already exists")
        addr = body.get("address") or {}
        store.hotels[hotel_id] = {"hotel_id": hotel_id, "name": require_text(body, "name"),
                                  "phone": body.get("phone") or "",
                                  "address": address("", addr.get("city", ""), "", "",
                                                     addr.get("country", ""))}
        store.hotel_pois[hotel_id] = []
        return 201, dict(store.hotels[hotel_id], pois=[])
    if n != 3:
        return None
    hotel_id = parts[1]
    if method == "POST" and parts[2] == "rooms":
        caller.require_staff()
        store.hotel(hotel_id)
        body = require_json_object(body, {"room_number", "room_type", "rate", "amenities"},
                                   "a room")
        number = body.get("room_number")
        if not isinstance(number, int) or not 1 <= number <= 32767:
            raise ApiError(400, "invalid_field", "room_number must be between 1 and 32767",
                           "room_number")
        rate = positive_money(body, "rate", True)
        room_type = require_text(body, "room_type")
        store.rooms[(hotel_id, number)] = {"room_type": room_type, "base": rate,
                                           "currency": "EUR", "amenities": []}
        return 201, {"hotel_id": hotel_id, "room_number": number, "room_type": room_type,
                     "rate": money(rate), "currency": "EUR", "amenities": []}
    if method == "POST" and parts[2] == "availability":
        caller.require_staff()
        store.hotel(hotel_id)
        body = require_json_object(body, {"start", "end", "rate"}, "an inventory opening")
        start, end = date_range(body, 731)
        rate = positive_money(body, "rate", False)
        opened = 0
        for (hid, number) in sorted(store.rooms):
            for night in nights_of(start, end):
                if hid == hotel_id and (hid, number, night) not in store.open_nights:
                    store.open_nights.add((hid, number, night))
                    if rate is not None:
                        store.rates[(hid, number, night)] = rate
                    opened += 1
        return 200, {"nights_opened": opened}
    if method == "PUT" and parts[2] == "rates":
        caller.require_staff()
        store.hotel(hotel_id)
        body = require_json_object(body, {"start", "end", "rate", "room_number"},
                                   "a rate change")
        unknown = set(body) - {"start", "end", "rate", "room_number"}
        if unknown:
            name = sorted(unknown)[0]
            raise ApiError(400, "invalid_field", f"{name} is not a field of a rate change", name)
        start, end = date_range(body, 731)
        rate = positive_money(body, "rate", True)
        room = body.get("room_number")
        if room is not None:
            store.room(hotel_id, room)
        if start < store.today:
            raise ApiError(422, "date_in_past",
                           "start is in the past: rates of past nights cannot change", "start")
        changed = 0
        for (hid, number) in sorted(store.rooms):
            for night in nights_of(start, end):
                if (hid == hotel_id and (room is None or room == number)
                        and (hid, number, night) in store.open_nights):
                    store.rates[(hid, number, night)] = rate
                    changed += 1
        if changed == 0:
            raise ApiError(422, "not_opened",
                           "No night of that range is open; open the inventory for it first",
                           "start")
        return 200, {"nights_changed": changed, "rate": money(rate), "currency": "EUR"}
    if method != "GET":
        return None
    if parts[2] == "occupancy":
        caller.require_staff()
        store.hotel(hotel_id)
        start = parse_date(q.get("start"), "start")
        days_text = q.get("days", "7")
        if not days_text.isdigit() or not 1 <= int(days_text) <= 31:
            raise ApiError(400, "invalid_field", "days must be an integer between 1 and 31", "days")
        dates = [start + dt.timedelta(days=i) for i in range(int(days_text))]
        rooms = []
        for (hid, number), room in sorted(store.rooms.items()):
            if hid != hotel_id:
                continue
            nights = []
            for night in dates:
                state, holder = night_state(store, hid, number, night)
                cell = {"date": night.isoformat(), "state": state}
                if state != "not_opened":
                    cell["rate"] = money(store.rate(hid, number, night))
                if holder:
                    cell["confirmation_number"] = holder
                    cell["guest"] = {"last_name": store.reservations[holder]["guest"]["last_name"]}
                nights.append(cell)
            rooms.append({"room_number": number, "room_type": room["room_type"],
                          "nights": nights})
        return 200, {"hotel_id": hotel_id, "start": start.isoformat(),
                     "end": (start + dt.timedelta(days=len(dates))).isoformat(),
                     "days": len(dates), "dates": [d.isoformat() for d in dates], "rooms": rooms}
    if parts[2] in ("departures", "in-house"):
        caller.require_staff()
        store.hotel(hotel_id)
        day = parse_date(q.get("date"), "date")
        if parts[2] == "departures":
            return console_stays(store, hotel_id, lambda check_in, check_out: check_out == day, q)
        return console_stays(store, hotel_id,
                             lambda check_in, check_out: check_in <= day < check_out, q)
    return None


def routes(store, method, parts, query, body, caller, headers):
    """Dispatches one API request; returns (status, json) or raises ApiError. Appends the
    answer's extra headers (Set-Cookie) to `headers`."""
    q = {k: v[0] for k, v in query.items()}
    n = len(parts)
    answer = auth_routes(store, method, parts, body, caller, headers)
    if answer is not None:
        return answer
    answer = console_routes(store, method, parts, q, body, caller)
    if answer is not None:
        return answer
    if method == "GET" and parts == ["health"]:
        return 200, {"status": "ok", "mode": "mock"}
    if method == "GET" and parts == ["pois"]:
        return 200, {"pois": sorted(store.pois.values(), key=lambda p: p["name"])}
    if method == "GET" and n == 3 and parts[0] == "pois" and parts[2] == "hotels":
        if parts[1] not in store.pois:
            raise ApiError(404, "not_found", f"Point of interest {parts[1]} does not exist")
        hotels = [h for hid, h in sorted(store.hotels.items())
                  if parts[1] in store.hotel_pois[hid]]
        return 200, {"poi": store.pois[parts[1]], "hotels": hotels}
    if n >= 2 and parts[0] == "hotels":
        hotel_id = parts[1]
        if method == "GET" and n == 2:
            return 200, dict(store.hotel(hotel_id), pois=list(store.hotel_pois[hotel_id]))
        if method == "GET" and n == 3 and parts[2] == "pois":
            store.hotel(hotel_id)
            return 200, {"pois": [store.pois[p] for p in store.hotel_pois[hotel_id]]}
        if method == "GET" and n == 3 and parts[2] == "availability":
            store.hotel(hotel_id)
            check_in, check_out = parse_stay(q.get("check_in"), q.get("check_out"))
            rooms = []
            for (hid, number), room in sorted(store.rooms.items()):
                if hid != hotel_id or not store._free(hid, number, check_in, check_out):
                    continue
                rates = [{"date": night.isoformat(), "rate": money(store.rate(hid, number, night))}
                         for night in nights_of(check_in, check_out)]
                rooms.append({"room_number": number, "room_type": room["room_type"],
                              "nightly_rates": rates,
                              "total": money(sum(Decimal(r["rate"]) for r in rates)),
                              "currency": room["currency"]})
            opened = {night for (hid, _, night) in store.open_nights if hid == hotel_id}
            not_opened = [night.isoformat() for night in nights_of(check_in, check_out)
                          if night not in opened]
            return 200, {"hotel_id": hotel_id, "check_in": check_in.isoformat(),
                         "check_out": check_out.isoformat(),
                         "nights": (check_out - check_in).days, "rooms": rooms,
                         "not_opened": not_opened}
        if method == "GET" and n == 4 and parts[2] == "rooms":
            number, room = store.room(hotel_id, parts[3])
            day = parse_date(q["date"], "date") if "date" in q else store.today
            return 200, {"hotel_id": hotel_id, "room_number": number,
                         "room_type": room["room_type"],
                         "rate": money(store.rate(hotel_id, number, day)),
                         "currency": room["currency"], "amenities": room["amenities"]}
        if method == "GET" and n == 3 and parts[2] == "reservations":
            caller.require_staff()
            store.hotel(hotel_id)
            day = parse_date(q.get("date"), "date").isoformat()
            found = [r for r in store.reservations.values()
                     if r["hotel_id"] == hotel_id and r["check_in"] == day
                     and ("last_name" not in q or r["guest"]["last_name"] == q["last_name"])]
            return paged(q, sorted(found, key=lambda r: r["room_number"]), "reservations",
                         by_number)
    if parts and parts[0] == "reservations":
        if method == "GET" and n == 1:
            caller.require_staff()
            if "email" in q:  # Q12: any case, blanks around; not with a name
                if "last_name" in q or "first_name" in q:
                    raise ApiError(400, "invalid_field",
                                   "email excludes last_name and first_name: search by one",
                                   "email")
                key = q["email"].strip().lower()
                if not key:
                    raise ApiError(400, "invalid_field", "email must not be empty", "email")
                ids = {g["guest_id"] for g in store.guests.values()
                       if key in {e.strip().lower() for e in g.get("emails") or []}}
                found = [r for r in store.reservations.values() if r["guest"]["guest_id"] in ids]
                return 200, {"reservations": sorted(found, key=lambda r: r["check_in"])}
            if not q.get("last_name"):
                raise ApiError(400, "invalid_field", "last_name (or email) is required",
                               "last_name")
            found = [r for r in store.reservations.values()
                     if r["guest"]["last_name"] == q["last_name"]
                     and ("first_name" not in q or r["guest"]["first_name"] == q["first_name"])]
            return paged(q, sorted(found, key=lambda r: r["check_in"]), "reservations", by_number)
        if method == "GET" and n == 2:
            return 200, store.reservation(parts[1], caller.guest_last_name(q))
        if method == "GET" and n == 3 and parts[2] == "history":
            reservation = store.reservation(parts[1], caller.guest_last_name(q))
            number = reservation["confirmation_number"]
            return 200, {"confirmation_number": number, "status": reservation["status"],
                         "history": store.history.get(number, [])}
        if method == "GET" and n == 3 and parts[2] == "quote":
            return 200, quote_change(store, store.reservation(parts[1], caller.guest_last_name(q)),
                                     q)
        if method == "POST" and n == 3 and parts[2] in ("check-in", "check-out", "no-show"):
            caller.require_staff()
            reservation = store.reservation(parts[1])
            action = parts[2].replace("-", "_").replace("check_", "checked_")
            reservation["status"] = store.transition(reservation, action)
            if action == "no_show":
                store._release(reservation)
            store.record(reservation, action, caller.user, stay_words(reservation))
            return 200, reservation
        if method == "DELETE" and n == 2:
            reservation = store.reservation(parts[1], caller.guest_last_name(q))
            reservation["status"] = store.transition(reservation, "cancelled")
            store._release(reservation)
            store.record(reservation, "cancelled", caller.user or "guest",
                         stay_words(reservation))
            return 200, reservation
        if method == "PUT" and n == 2:
            body = require_json_object(body, {"check_in", "check_out", "room_number"},
                                       "a change")
            old = store.reservation(parts[1], caller.guest_last_name(q))
            store.transition(old, "changed")
            old = dict(old)
            check_in, check_out = parse_stay(body.get("check_in"), body.get("check_out"))
            require_future_stay(store, check_in)
            room_number = body.get("room_number", old["room_number"])
            store.room(old["hotel_id"], room_number)
            guest = store.guests[old["guest"]["guest_id"]]
            # The new stay is checked (its own nights count as free) before the old is freed.
            store._check(old["hotel_id"], room_number, check_in, check_out,
                         ignore=old["confirmation_number"])
            store._release(old)
            new = store._book(old["hotel_id"], room_number, check_in, check_out, guest,
                              ignore=old["confirmation_number"])
            new["status"] = "changed"
            store.record(new, "changed", caller.user or "guest",
                         f"{stay_words(old)} -> {stay_words(new)}; "
                         f"total {old['total']} -> {new['total']}")
            return 200, new
        if method == "POST" and n == 1:
            body = require_json_object(
                body, {"hotel_id", "room_number", "check_in", "check_out", "guest"}, "a booking")
            hotel_id = require_text(body, "hotel_id")
            store.hotel(hotel_id)
            if not isinstance(body.get("room_number"), int):
                raise ApiError(400, "invalid_field", "room_number must be an integer",
                               "room_number")
            room_number, _ = store.room(hotel_id, body["room_number"])
            check_in, check_out = parse_stay(body.get("check_in"), body.get("check_out"))
            require_future_stay(store, check_in)
            guest_fields = body.get("guest")
            if not isinstance(guest_fields, dict):
                raise ApiError(400, "invalid_field", "guest is required", "guest")
            require_json_object(guest_fields, GUEST_FIELDS, "a booking's guest", "guest.")
            if "guest_id" in guest_fields:
                if caller.user is None:
                    raise ApiError(401, "unauthorized",
                                   "Booking for an existing guest (guest.guest_id) needs a staff "
                                   "login; give the guest's name and details instead")
                guest = store.guests.get(guest_fields["guest_id"])
                if guest is None:
                    raise ApiError(404, "not_found", "Unknown guest_id")
            else:
                require_text(guest_fields, "first_name", "guest.")
                require_text(guest_fields, "last_name", "guest.")
                emails = guest_fields.get("emails", [])
                if not isinstance(emails, list) or not all(
                        isinstance(e, str) and "@" in e for e in emails):
                    raise ApiError(400, "invalid_field", "guest.emails must be email addresses",
                                   "guest.emails")
                guest = {"guest_id": str(uuid.UUID(int=store.rng.getrandbits(128), version=4))}
                guest.update({k: guest_fields.get(k) for k in (
                    "first_name", "last_name", "title", "emails", "phone_numbers", "addresses")})
                guest["first_name"] = guest["first_name"].strip()
                guest["last_name"] = guest["last_name"].strip()
                store.guests[guest["guest_id"]] = guest
            return 201, store._book(hotel_id, room_number, check_in, check_out, guest)
    if method == "GET" and n == 2 and parts[0] == "guests":
        caller.require_staff()
        if parts[1] not in store.guests:
            raise ApiError(404, "not_found", f"Guest {parts[1]} does not exist")
        return 200, store.guests[parts[1]]
    raise ApiError(404, "not_found", f"No such endpoint: {method} /api/v1/{'/'.join(parts)}")


class Handler(BaseHTTPRequestHandler):
    server_version = "hotel-mock/1"
    store = None
    web_dir = None

    def log_message(self, fmt, *args):  # quiet unless asked
        if os.environ.get("MOCK_API_VERBOSE"):
            sys.stderr.write("mock_api: " + (fmt % args) + "\n")

    def _send(self, status, payload, content_type="application/json; charset=utf-8",
              headers=()):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if status == 401:
            self.send_header("WWW-Authenticate", 'Bearer realm="hotel"')
        for name, value in headers:
            if name != "Cache-Control":
                self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _api(self, method):
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path[len("/api/v1/"):].split("/") if p]
        body = None
        length = int(self.headers.get("Content-Length") or 0)
        try:
            if length > 1 << 20:
                raise ApiError(413, "payload_too_large", "The request body must be at most 1048576 bytes")
            raw = self.rfile.read(length) if length else b""
            if method in ("POST", "PUT") and raw:
                try:
                    body = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as e:
                    raise ApiError(400, "invalid_json", f"Malformed JSON: {e}") from None
            headers = []
            with self.store.lock:
                caller = self._caller()
                status, payload = routes(self.store, method, parts, parse_qs(url.query), body,
                                         caller, headers)
            self._send(status, payload, headers=headers)
        except ApiError as e:
            self._send(e.status, e.body())
        except Exception as e:  # a bug in the mock: answer like the service would
            self._send(500, ApiError(500, "internal", f"mock error: {e!r}").body())

    def _caller(self):
        """The bearer token, else the session cookie, and its staff user."""
        token = ""
        authorization = self.headers.get("Authorization") or ""
        if authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        else:
            for pair in (self.headers.get("Cookie") or "").split(";"):
                name, _, value = pair.strip().partition("=")
                if name == "hotel_session":
                    token = value
        return Caller(token, self.store.sessions.get(token) if token else None)

    def _static(self):
        path = urlsplit(self.path).path
        rel = "index.html" if path in ("/", "/index.html") else None
        if path.startswith("/static/"):
            rel = unquote(path[1:])
        full = os.path.realpath(os.path.join(self.web_dir, rel)) if rel else None
        if (not full or not full.startswith(os.path.realpath(self.web_dir) + os.sep)
                or not os.path.isfile(full)):
            self._send(404, b"not found\n", "text/plain; charset=utf-8")
            return
        content_type = mimetypes.guess_type(full)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type.endswith("javascript"):
            content_type += "; charset=utf-8"
        with open(full, "rb") as f:
            self._send(200, f.read(), content_type)

    def _dispatch(self, method):
        if self.path.startswith("/api/v1/"):
            self._api(method)
        elif method in ("GET", "HEAD"):
            self._static()
        else:
            self._send(405, b"method not allowed\n", "text/plain; charset=utf-8")

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self._dispatch("GET")

    def do_HEAD(self):  # noqa: N802
        self._dispatch("HEAD")

    def do_POST(self):  # noqa: N802
        self._dispatch("POST")

    def do_PUT(self):  # noqa: N802
        self._dispatch("PUT")

    def do_DELETE(self):  # noqa: N802
        self._dispatch("DELETE")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--port-file")
    parser.add_argument("--web", default=os.path.join(here, "..", "..", "web"))
    args = parser.parse_args()
    mimetypes.add_type("text/javascript", ".js")
    mimetypes.add_type("image/svg+xml", ".svg")
    Handler.store = Store(dt.date.today())
    Handler.web_dir = os.path.abspath(args.web)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{port}\n")
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"mock_api: listening on http://127.0.0.1:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
