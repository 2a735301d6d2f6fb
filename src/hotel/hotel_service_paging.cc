// The paged reads of HotelService (hotel_service.h; paging.h): one page of each list the HTTP
// API serves, read through the repository's paged reads. The unpaged forms are these with
// PageRequest{} (every row), so each list is read and decoded in one place.

#include "hotel/hotel_service.h"

namespace hotel {

using common::Result;
using common::Status;

Result<Page<Poi>> HotelService::ListPois(const PageRequest& page) {
  return repository_->ListPois(page);
}

Result<Page<Poi>> HotelService::HotelPois(const std::string& hotel_id, const PageRequest& page) {
  return repository_->PoisByHotel(hotel_id, page);
}

Result<Availability> HotelService::FindAvailability(const std::string& hotel_id, Day check_in,
                                                    Day check_out, const PageRequest& page) {
  ASSIGN_OR_RETURN(Availability availability, FindAvailability(hotel_id, check_in, check_out));
  ASSIGN_OR_RETURN(Page<RoomOffer> rooms,
                   KeysetPage(std::move(availability.rooms), page, RoomKey(0).size(),
                              [](const RoomOffer& room) { return RoomKey(room.room_number); }));
  availability.rooms = std::move(rooms.items);
  availability.paging_state = std::move(rooms.paging_state);
  return availability;
}

Result<Page<Reservation>> HotelService::ReservationsByHotelDate(
    const std::string& hotel_id, Day date, const std::optional<std::string>& last_name,
    const PageRequest& page) {
  std::optional<std::string> key;
  if (last_name) key = FoldName(*last_name);
  return repository_->ReservationsByHotelDate(hotel_id, date, key, page);
}

Result<Page<Reservation>> HotelService::ReservationsByGuest(
    const std::string& last_name, const std::optional<std::string>& first_name,
    const PageRequest& page) {
  if (FoldName(last_name).empty()) return Status::Invalid("last_name must not be empty");
  std::optional<std::string> first;
  if (first_name) first = FoldName(*first_name);
  return repository_->ReservationsByGuest(FoldName(last_name), first, page);
}

Result<Page<Reservation>> HotelService::ReservationsByGuestEmail(const std::string& email,
                                                                 const PageRequest& page) {
  std::string key = CanonicalEmail(email);
  if (key.empty()) return Status::Invalid("email must not be empty");
  return repository_->ReservationsByGuestEmail(key, page);
}

}  // namespace hotel
