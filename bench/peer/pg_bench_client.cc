#include "bench/peer/pg_bench_client.h"

namespace peer {

using common::Result;
using common::Status;

Result<std::string> PgBenchClient::CreateGuest(const std::string& first_name,
                                               const std::string& last_name) {
  hotel::Guest guest;
  guest.guest_id = common::Uuid::Random();
  guest.first_name = first_name;
  guest.last_name = last_name;
  guest.emails = {hotel::FoldName(first_name) + "." + hotel::FoldName(last_name) + "@example.com"};
  RETURN_IF_ERROR(store_->UpsertGuest(guest));
  return guest.guest_id.ToString();
}

Status PgLoadSink::WithStore(const std::function<Status(PgHotel&)>& work) {
  std::unique_ptr<PgHotel> store;
  uint64_t seed = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      store = std::move(free_.back());
      free_.pop_back();
    } else {
      seed = seed_ * 1000003 + ++opened_;
    }
  }
  if (!store) {
    ASSIGN_OR_RETURN(store, PgHotel::Connect(conninfo_, "off", seed));
  }
  Status status = work(*store);
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(std::move(store));
  return status;
}

Status PgLoadSink::InsertPoi(const hotel::Poi& poi) {
  return WithStore([&](PgHotel& store) { return store.InsertPoi(poi); });
}

Status PgLoadSink::InsertHotel(const hotel::Hotel& hotel, const std::vector<hotel::Poi>&) {
  // The POIs are rows of their own (InsertPoi came first): only the links are written here.
  return WithStore([&](PgHotel& store) { return store.InsertHotel(hotel); });
}

Status PgLoadSink::InsertRoom(const std::string& hotel_id, const hotel::Room& room) {
  return WithStore([&](PgHotel& store) { return store.InsertRoom(hotel_id, room); });
}

Status PgLoadSink::WriteNights(const std::string& hotel_id,
                               const std::vector<hotel::RoomNight>& nights) {
  return WithStore([&](PgHotel& store) { return store.CopyNights(hotel_id, nights); });
}

Status PgLoadSink::UpsertGuest(const hotel::Guest& guest) {
  return WithStore([&](PgHotel& store) { return store.UpsertGuest(guest); });
}

Status PgLoadSink::Book(const hotel::BookingRequest& request) {
  if (!request.guest_id) return Status::Invalid("the generator books for existing guests");
  return WithStore([&](PgHotel& store) {
    return store
        .Book(request.hotel_id, request.room_number, request.check_in, request.check_out,
              request.guest_id->ToString())
        .status();
  });
}

}  // namespace peer
