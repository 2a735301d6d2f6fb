// Internal to the repository's implementation (repository.cc, repository_availability.cc):
// the CQL values the statements bind, the decoding of result rows into domain values, and the
// mapping of database errors (see repository.h's header comment). Not part of the hotel
// layer's interface: include it only from the repository's .cc files.
//
// Thread-safety: stateless helpers; a RowView is used by one thread.

#pragma once

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "common/uuid.h"
#include "cql/session.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"
#include "hotel/domain.h"
#include "hotel/paging.h"
#include "hotel/service_metrics.h"

namespace hotel::repository_rows {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;

// --- Values to bind ------------------------------------------------------------------------

inline BoundValue TextValue(std::string_view text) { return BoundValue::Of(Bytes(text)); }
inline BoundValue DayValue(Day day) {
  return BoundValue::Of(cql::SerializeDate(static_cast<uint32_t>(day + cql::kDateEpoch)));
}
inline BoundValue IntValue(int32_t value) { return BoundValue::Of(cql::SerializeInt(value)); }
inline BoundValue RoomValue(int16_t room) { return BoundValue::Of(cql::SerializeSmallint(room)); }
inline BoundValue MoneyValue(Cents cents) {
  return BoundValue::Of(cql::SerializeDecimal(cents, 2));
}
inline BoundValue BoolValue(bool value) { return BoundValue::Of(cql::SerializeBoolean(value)); }
inline BoundValue UuidValue(const common::Uuid& uuid) { return BoundValue::Of(uuid.ToBytes()); }
inline BoundValue TimestampValue(int64_t millis) {
  return BoundValue::Of(cql::SerializeTimestamp(millis));
}

inline Bytes AddressBytes(const Address& address) {
  return cql::SerializeTupleOrUdt({Bytes(address.street), Bytes(address.city),
                                   Bytes(address.state_or_province), Bytes(address.postal_code),
                                   Bytes(address.country)});
}

// --- Row decoding --------------------------------------------------------------------------

// Reads the cells of one row by position; remembers the first decoding error.
class RowView {
 public:
  RowView(const cql::ResultSet& result, size_t row) : result_(result), row_(row) {}

  std::string Text(size_t column) {
    auto value = result_.Value(row_, column);
    return value ? std::string(*value) : std::string();
  }
  Day Date(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value || value->size() != 4) return Fail("date", 0);
    uint32_t raw = static_cast<uint32_t>(static_cast<unsigned char>((*value)[0])) << 24 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[1])) << 16 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[2])) << 8 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[3]));
    return static_cast<Day>(raw) - static_cast<Day>(cql::kDateEpoch);
  }
  int32_t Int(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return Fail("int", 0);
    auto number = cql::DeserializeInt(*value);
    return number.ok() ? *number : Fail("int", 0);
  }
  int16_t Room(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return Fail("smallint", 0);
    auto room = cql::DeserializeSmallint(*value);
    return room.ok() ? *room : Fail("smallint", 0);
  }
  bool Bool(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return false;
    auto flag = cql::DeserializeBoolean(*value);
    return flag.ok() ? *flag : Fail("boolean", false);
  }
  int64_t Timestamp(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return 0;
    auto millis = cql::DeserializeBigint(*value);
    return millis.ok() ? *millis : Fail("timestamp", 0);
  }
  // A decimal as cents, rounding half up past 2 fraction digits.
  Cents Money(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return 0;
    if (value->size() < 5) return Fail("decimal", 0);
    int32_t scale =
        static_cast<int32_t>(static_cast<uint32_t>(static_cast<unsigned char>((*value)[0])) << 24 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[1])) << 16 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[2])) << 8 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[3])));
    auto unscaled = cql::VarintToInt64(value->substr(4));
    if (!unscaled.ok() || scale < -6 || scale > 12) return Fail("decimal", 0);
    int64_t cents = *unscaled;
    for (int32_t s = scale; s < 2; ++s) cents *= 10;
    for (int32_t s = scale; s > 2; --s) cents = (cents + (cents >= 0 ? 5 : -5)) / 10;
    return cents;
  }
  common::Uuid Uuid(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return common::Uuid();
    auto uuid = common::Uuid::FromBytes(*value);
    return uuid.ok() ? *uuid : Fail("uuid", common::Uuid());
  }
  Address AddressAt(std::optional<std::string_view> value) {
    Address address;
    if (!value) return address;
    auto fields = cql::SplitTupleOrUdt(*value, 5);
    if (!fields.ok()) return Fail("address", address);
    std::string* targets[] = {&address.street, &address.city, &address.state_or_province,
                              &address.postal_code, &address.country};
    for (size_t i = 0; i < fields->size(); ++i) {
      if ((*fields)[i]) *targets[i] = std::string(*(*fields)[i]);
    }
    return address;
  }
  Address AddressColumn(size_t column) { return AddressAt(result_.Value(row_, column)); }
  std::vector<std::string> TextCollection(size_t column, bool set) {
    std::vector<std::string> out;
    auto value = result_.Value(row_, column);
    if (!value) return out;
    cql::CqlType type =
        set ? cql::CqlType::Set(cql::CqlType::Text()) : cql::CqlType::List(cql::CqlType::Text());
    auto elements = cql::SplitListOrSet(type, *value);
    if (!elements.ok()) return Fail("collection", out);
    for (std::string_view element : *elements) out.emplace_back(element);
    return out;
  }
  std::map<std::string, Address> AddressMap(size_t column) {
    std::map<std::string, Address> out;
    auto value = result_.Value(row_, column);
    if (!value) return out;
    auto entries = cql::SplitMap(*value);
    if (!entries.ok()) return Fail("map", out);
    for (const cql::MapEntryView& entry : *entries) {
      out[std::string(entry.key)] = AddressAt(entry.value);
    }
    return out;
  }

  Status status() const { return status_; }

 private:
  template <typename T>
  T Fail(std::string_view what, T fallback) {
    if (status_.ok()) {
      status_ = Status::Internal(fmt::format("hotel: cannot decode a {} value in a row", what));
    }
    return fallback;
  }

  const cql::ResultSet& result_;
  size_t row_;
  Status status_;
};

// The database's errors as the service sees them (header comment); each is counted in
// hotel_database_errors_total.
inline Status DatabaseError(const Status& status) {
  CountDatabaseError(status.code());
  switch (status.code()) {
    case common::StatusCode::kUnavailable:
    case common::StatusCode::kOverloaded:
    case common::StatusCode::kIsBootstrapping:
    case common::StatusCode::kWriteTimeout:
    case common::StatusCode::kReadTimeout:
    case common::StatusCode::kCasWriteUnknown:
    case common::StatusCode::kIOError:
      return Status(common::StatusCode::kUnavailable, "database unavailable: " + status.message());
    case common::StatusCode::kWriteFailure:
      // The database could not write (a full disk refuses writes while reads go on): 503, not
      // the 409 the service's own kWriteFailure (RoomUnavailable) means.
      return Status(common::StatusCode::kUnavailable, "write failed: " + status.message());
    default:
      return Status::Internal("database error: " + status.ToString());
  }
}

inline bool Applied(const cql::ResultSet& result) {
  if (result.row_count() == 0 || result.column_count() == 0) return false;
  auto applied = result.GetBoolean(0, 0);
  return applied.ok() && *applied;
}

// Column lists shared by the reservation reads and writes, so RowView positions match; the
// reads select `status` after them (column 11).
inline constexpr std::string_view kReservationColumns =
    "confirm_number, hotel_id, hotel_name, start_date, end_date, room_number, guest_id, "
    "guest_first_name, guest_last_name, total, currency";

inline Reservation ReadReservation(RowView& row) {
  Reservation reservation;
  reservation.confirmation_number = row.Text(0);
  reservation.hotel_id = row.Text(1);
  reservation.hotel_name = row.Text(2);
  reservation.check_in = row.Date(3);
  reservation.check_out = row.Date(4);
  reservation.room_number = row.Room(5);
  reservation.guest_id = row.Uuid(6);
  reservation.guest_first_name = row.Text(7);
  reservation.guest_last_name = row.Text(8);
  reservation.total = row.Money(9);
  reservation.currency = row.Text(10);
  if (reservation.currency.empty()) reservation.currency = std::string(kCurrency);
  // Rows written before the lifecycle (no status on the Q7 and Q8 rows) were confirmed.
  reservation.status = row.Text(11);
  if (reservation.status.empty()) reservation.status = std::string(kStatusConfirmed);
  return reservation;
}

// A row of `hotels`: id, name, phone, address, pois.
inline Hotel ReadHotel(RowView& row) {
  Hotel hotel;
  hotel.hotel_id = row.Text(0);
  hotel.name = row.Text(1);
  hotel.phone = row.Text(2);
  hotel.address = row.AddressColumn(3);
  hotel.pois = row.TextCollection(4, /*set=*/true);
  return hotel;
}

// The rows of one page read by Repository::RunPage, each decoded by `decode(row)` (a
// Result<T>), with the page's paging state. The first error, of `decode` or of a cell, wins.
template <typename T, typename Decode>
Result<Page<T>> DecodePage(const cql::ResultSet& rows, Decode decode) {
  Page<T> page;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    Result<T> item = decode(row);
    if (!item.ok()) return item.status();
    RETURN_IF_ERROR(row.status());
    page.items.push_back(std::move(item).value());
  }
  page.paging_state = rows.paging_state();
  return page;
}

// Every row of `rows` (selected as kReservationColumns, status), in order. Errors: kInternal
// for a row that does not decode.
inline common::Result<std::vector<Reservation>> ReadReservations(const cql::ResultSet& rows) {
  std::vector<Reservation> reservations;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    reservations.push_back(ReadReservation(row));
    RETURN_IF_ERROR(row.status());
  }
  return reservations;
}

}  // namespace hotel::repository_rows
