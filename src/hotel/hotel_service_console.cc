// The staff console's half of HotelService (hotel_service.h): the hotel list, the occupancy
// grid, departures and the in-house list (Q11), and rate changes.

#include <algorithm>
#include <map>

#include "hotel/hotel_service.h"

namespace hotel {

using common::Bytes;
using common::Result;
using common::Status;

std::string_view NightStateName(NightState state) {
  switch (state) {
    case NightState::kNotOpened:
      return "not_opened";
    case NightState::kFree:
      return "free";
    case NightState::kBooked:
      return "booked";
    case NightState::kCheckedIn:
      return "checked_in";
    case NightState::kCheckedOut:
      return "checked_out";
    case NightState::kHeld:
      return "held";
  }
  return "held";
}

Result<Repository::HotelPage> HotelService::ListHotels(int page_size,
                                                       std::optional<Bytes> paging_state) {
  if (page_size < 1 || page_size > kMaxHotelPageSize) {
    return Status::Invalid("page_size must be between 1 and " + std::to_string(kMaxHotelPageSize));
  }
  return repository_->ListHotels(page_size, std::move(paging_state));
}

namespace {

// The grid state of a night held by `holder` (nullopt: no reservation, or a pending one).
NightState HeldState(const std::optional<Reservation>& holder) {
  if (!holder || !HoldsNights(holder->status)) return NightState::kHeld;
  if (holder->status == kStatusCheckedIn) return NightState::kCheckedIn;
  if (holder->status == kStatusCheckedOut) return NightState::kCheckedOut;
  return NightState::kBooked;
}

}  // namespace

Result<Occupancy> HotelService::GetOccupancy(const std::string& hotel_id, Day start, int days,
                                             const PageRequest& page) {
  if (days < 1 || days > kMaxOccupancyDays) {
    return Status::Invalid("days must be between 1 and " + std::to_string(kMaxOccupancyDays));
  }
  RETURN_IF_ERROR(GetHotel(hotel_id));
  ASSIGN_OR_RETURN(Page<Room> rooms, repository_->RoomsByHotel(hotel_id, page));
  // The range read is the hotel's whole grid; only the nights of this page's rooms are kept.
  ASSIGN_OR_RETURN(std::vector<RoomNight> nights,
                   repository_->RoomNights(hotel_id, start, start + days));
  Occupancy occupancy{hotel_id, start, days, {}, std::move(rooms.paging_state)};
  std::map<int16_t, size_t> row_of;
  for (Room& room : rooms.items) {
    row_of[room.room_number] = occupancy.rooms.size();
    occupancy.rooms.push_back({std::move(room), std::vector<OccupancyNight>(days)});
  }
  // One Q6 read per reservation on the grid (a week of a 30-room hotel: tens at most).
  std::map<std::string, std::optional<Reservation>> holders;
  for (const RoomNight& night : nights) {
    auto row = row_of.find(night.room_number);
    if (row == row_of.end()) continue;  // a room not on this page, or no longer listed
    OccupancyNight& cell = occupancy.rooms[row->second].nights[night.date - start];
    cell.rate = night.rate;
    if (night.is_available) {
      cell.state = NightState::kFree;
      continue;
    }
    auto holder = holders.find(night.held_by);
    if (holder == holders.end()) {
      ASSIGN_OR_RETURN(auto reservation, repository_->FindReservation(night.held_by));
      holder = holders.emplace(night.held_by, std::move(reservation)).first;
    }
    cell.state = HeldState(holder->second);
    cell.confirmation_number = night.held_by;
    if (holder->second) cell.guest_last_name = holder->second->guest_last_name;
  }
  return occupancy;
}

namespace {

// The stays of a Q11 partition that `keep` selects and whose status is not cancelled, no-show
// or pending: one page of them (paging.h, invariant 4).
template <typename Keep>
Result<Page<Reservation>> LiveStays(Repository* repository, const std::string& hotel_id, Day date,
                                    const PageRequest& page, Keep keep) {
  return FilteredPage<Reservation>(
      page,
      [&](const PageRequest& part) { return repository->StaysByHotelDate(hotel_id, date, part); },
      [&](const Reservation& stay) { return HoldsNights(stay.status) && keep(stay); });
}

}  // namespace

Result<std::vector<Reservation>> HotelService::Departures(const std::string& hotel_id, Day date) {
  return Items(Departures(hotel_id, date, PageRequest{}));
}

Result<std::vector<Reservation>> HotelService::InHouse(const std::string& hotel_id, Day date) {
  return Items(InHouse(hotel_id, date, PageRequest{}));
}

Result<Page<Reservation>> HotelService::Departures(const std::string& hotel_id, Day date,
                                                   const PageRequest& page) {
  RETURN_IF_ERROR(GetHotel(hotel_id));
  return LiveStays(repository_, hotel_id, date, page,
                   [date](const Reservation& stay) { return stay.check_out == date; });
}

Result<Page<Reservation>> HotelService::InHouse(const std::string& hotel_id, Day date,
                                                const PageRequest& page) {
  RETURN_IF_ERROR(GetHotel(hotel_id));
  return LiveStays(repository_, hotel_id, date, page, [date](const Reservation& stay) {
    return stay.check_in <= date && date < stay.check_out;
  });
}

Result<int> HotelService::ChangeRates(const std::string& hotel_id, Day start, Day end, Cents rate,
                                      std::optional<int16_t> room_number) {
  if (end <= start || end - start > kMaxRateChangeDays) {
    return Status::Invalid("end must be after start, at most " +
                           std::to_string(kMaxRateChangeDays) + " days later");
  }
  if (rate <= 0) return Status::Invalid("rate must be positive");
  RETURN_IF_ERROR(GetHotel(hotel_id));
  if (room_number) {
    ASSIGN_OR_RETURN(auto room, repository_->FindRoom(hotel_id, *room_number));
    if (!room) {
      return Status::NotFound("Room " + std::to_string(*room_number) + " of hotel '" + hotel_id +
                              "' not found");
    }
  }
  ASSIGN_OR_RETURN(std::vector<RoomNight> nights, repository_->RoomNights(hotel_id, start, end));
  std::erase_if(nights, [&](const RoomNight& night) {
    return room_number && night.room_number != *room_number;
  });
  for (RoomNight& night : nights) night.rate = rate;
  RETURN_IF_ERROR(repository_->SetRates(hotel_id, nights));
  return static_cast<int>(nights.size());
}

}  // namespace hotel
