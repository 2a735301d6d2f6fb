// The staff console's half of Repository (repository.h): the paged list of hotels, Q11's
// table `stays_by_hotel_date` (departures and the in-house list; written with the other
// reservation tables by WriteReservation) and rate changes of opened nights.

#include <fmt/format.h>

#include <map>

#include "hotel/repository.h"
#include "hotel/repository_rows.h"

namespace hotel {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using repository_rows::DatabaseError;
using repository_rows::DayValue;
using repository_rows::DecodePage;
using repository_rows::IntValue;
using repository_rows::kReservationColumns;
using repository_rows::MoneyValue;
using repository_rows::ReadHotel;
using repository_rows::ReadReservation;
using repository_rows::ReadReservations;
using repository_rows::RoomValue;
using repository_rows::RowView;
using repository_rows::TextValue;

std::vector<Repository::Statement> Repository::ConsoleStatements() {
  const std::string& h = keyspaces_.hotel;
  const std::string& r = keyspaces_.reservation;
  const std::string reservation_columns(kReservationColumns);
  return {
      {&list_hotels_, fmt::format("SELECT id, name, phone, address, pois FROM {}.hotels", h)},
      {&stays_by_hotel_date_,
       fmt::format("SELECT {}, status FROM {}.stays_by_hotel_date WHERE hotel_id = ? "
                   "AND date = ?",
                   reservation_columns, r)},
      {&insert_stay_, fmt::format("INSERT INTO {}.stays_by_hotel_date ({}, status, date) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                  r, reservation_columns)},
      {&delete_stay_,
       fmt::format("DELETE FROM {}.stays_by_hotel_date WHERE hotel_id = ? AND date = ? "
                   "AND room_number = ? AND confirm_number = ?",
                   r)},
      {&set_rate_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_date SET rate = ? WHERE hotel_id = ? "
                   "AND date = ? AND room_number = ?",
                   h)},
      {&set_rate_month_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_month SET rate = ? WHERE hotel_id = ? "
                   "AND month = ? AND date = ? AND room_number = ?",
                   h)},
  };
}

Result<Repository::HotelPage> Repository::ListHotels(int32_t page_size,
                                                     std::optional<Bytes> paging_state) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   RunPage(list_hotels_, {}, PageRequest{page_size, std::move(paging_state)}));
  ASSIGN_OR_RETURN(Page<Hotel> hotels, DecodePage<Hotel>(rows, ReadHotel));
  return HotelPage{std::move(hotels.items), std::move(hotels.paging_state)};
}

Result<std::vector<Reservation>> Repository::StaysByHotelDate(const std::string& hotel_id,
                                                              Day date) {
  return Items(StaysByHotelDate(hotel_id, date, PageRequest{}));
}

Result<Page<Reservation>> Repository::StaysByHotelDate(const std::string& hotel_id, Day date,
                                                       const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   RunPage(stays_by_hotel_date_, {TextValue(hotel_id), DayValue(date)}, page));
  return DecodePage<Reservation>(rows, ReadReservation);
}

void Repository::AddStayEntries(const Reservation& reservation, const Reservation* replaced,
                                std::vector<cql::BatchEntry>& entries) const {
  if (replaced != nullptr) {
    // As in WriteReservation: delete only the rows this batch does not write again (same
    // timestamp; a deletion would win).
    for (Day day = replaced->check_in; day <= replaced->check_out; ++day) {
      bool rewritten = replaced->room_number == reservation.room_number &&
                       day >= reservation.check_in && day <= reservation.check_out;
      if (rewritten) continue;
      cql::BatchEntry entry;
      entry.prepared = delete_stay_;
      entry.values = {TextValue(replaced->hotel_id), DayValue(day),
                      RoomValue(replaced->room_number), TextValue(replaced->confirmation_number)};
      entries.push_back(std::move(entry));
    }
  }
  for (Day day = reservation.check_in; day <= reservation.check_out; ++day) {
    cql::BatchEntry entry;
    entry.prepared = insert_stay_;
    entry.values = ReservationValues(reservation);
    entry.values.push_back(DayValue(day));
    entries.push_back(std::move(entry));
  }
}

Status Repository::SetRates(const std::string& hotel_id, const std::vector<RoomNight>& nights) {
  bool bucketed = bucketing_ == AvailabilityBucketing::kMonth;
  std::map<int32_t, std::vector<cql::BatchEntry>> batches;  // by partition (0: unbucketed)
  for (const RoomNight& night : nights) {
    cql::BatchEntry entry;
    entry.prepared = bucketed ? set_rate_month_ : set_rate_;
    entry.values = {MoneyValue(night.rate), TextValue(hotel_id)};
    if (bucketed) entry.values.push_back(IntValue(MonthOf(night.date)));
    entry.values.push_back(DayValue(night.date));
    entry.values.push_back(RoomValue(night.room_number));
    batches[bucketed ? MonthOf(night.date) : 0].push_back(std::move(entry));
  }
  for (auto& [partition, entries] : batches) {
    RETURN_IF_ERROR(RunBatch(cql::BatchType::kLogged, std::move(entries)));
  }
  return Status::Ok();
}

}  // namespace hotel
