#include "hotel/hotel_service.h"

#include <fmt/format.h>

#include "common/logging.h"
#include "hotel/service_metrics.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <set>

namespace hotel {

namespace {

using common::Result;
using common::Status;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::vector<Day> NightsOf(Day check_in, Day check_out) {
  std::vector<Day> nights;
  for (Day day = check_in; day < check_out; ++day) nights.push_back(day);
  return nights;
}

// The outbox row announcing `event` of `reservation` to `guest` (notification.h): nullopt
// when the guest is unknown or has no mailable address.
std::optional<Notification> GuestNotification(NotificationKind kind, const Reservation& reservation,
                                              const Reservation* before,
                                              const std::optional<Guest>& guest,
                                              const common::Uuid& event_id) {
  if (!guest) return std::nullopt;
  return NotificationFor(kind, reservation, before, *guest, event_id);
}

// The Q12 keys a reservation of `guest` is written under: the guest's canonical addresses
// (none when the guest is unknown).
std::vector<std::string> EmailKeysOf(const std::optional<Guest>& guest) {
  return guest ? CanonicalEmails(guest->emails) : std::vector<std::string>();
}

const Notification* PointerTo(const std::optional<Notification>& notification) {
  return notification ? &*notification : nullptr;
}

constexpr int kConfirmationAttempts = 16;
constexpr int64_t kMillisPerDay = 24 * 60 * 60 * 1000;

}  // namespace

Status RoomUnavailable(std::string message) {
  return Status(common::StatusCode::kWriteFailure, std::move(message));
}

HotelService::HotelService(Repository* repository, HotelServiceOptions options)
    : repository_(repository),
      options_(options),
      random_(options.seed != 0 ? options.seed : std::random_device()()) {
  repository_->set_availability_bucketing(options_.availability_bucketing);
  if (options_.repair_interval_millis > 0) {
    repair_ = std::make_unique<RepairScheduler>(
        std::chrono::milliseconds(options_.repair_interval_millis), [this] {
          auto report = RepairAll(NowMillis());
          const ServiceMetrics& metrics = ServiceMetrics::Get();
          (report.ok() ? metrics.repair_passes_ok : metrics.repair_passes_failed).Increment();
          if (report.ok()) {
            metrics.repair_nights_freed.Increment(report->nights_freed);
            metrics.repair_pending_removed.Increment(report->pending_removed);
          }
          if (!report.ok()) {
            LOG_WARNING("hotel repair pass failed: {}", report.status().ToString());
          } else if (report->nights_freed > 0 || report->pending_removed > 0) {
            LOG_INFO("hotel repair pass: {} hotels, {} orphan nights freed, {} pending removed",
                     report->hotels, report->nights_freed, report->pending_removed);
          }
        });
  }
}

HotelService::~HotelService() { StopRepair(); }

void HotelService::StopRepair() {
  repair_stopped_.store(true);
  if (repair_) repair_->Stop();
}

Status HotelService::ValidateStay(Day check_in, Day check_out) const {
  if (check_out <= check_in) return Status::Invalid("check_out must be after check_in");
  if (check_out - check_in > options_.max_stay_nights) {
    return Status::Invalid(
        fmt::format("A stay may last at most {} nights", options_.max_stay_nights));
  }
  return Status::Ok();
}

std::string HotelService::NewNumber() {
  std::lock_guard<std::mutex> lock(random_mutex_);
  return NewConfirmationNumber(random_);
}

// --- Reads ---------------------------------------------------------------------------------

Result<std::vector<Poi>> HotelService::ListPois() { return repository_->ListPois(); }

Result<Repository::PoiHotels> HotelService::HotelsNearPoi(const std::string& poi_name,
                                                          const PageRequest& page) {
  ASSIGN_OR_RETURN(auto answer, repository_->HotelsByPoi(poi_name, page));
  if (!answer) return Status::NotFound("Point of interest '" + poi_name + "' not found");
  return std::move(*answer);
}

Result<Hotel> HotelService::GetHotel(const std::string& hotel_id) {
  ASSIGN_OR_RETURN(auto hotel, repository_->FindHotel(hotel_id));
  if (!hotel) return Status::NotFound("Hotel '" + hotel_id + "' not found");
  return std::move(*hotel);
}

Result<std::vector<Poi>> HotelService::HotelPois(const std::string& hotel_id) {
  return repository_->PoisByHotel(hotel_id);
}

Result<Availability> HotelService::FindAvailability(const std::string& hotel_id, Day check_in,
                                                    Day check_out) {
  RETURN_IF_ERROR(ValidateStay(check_in, check_out));
  // Q4: one range read of the hotel's partition; a room qualifies when every night is free.
  ASSIGN_OR_RETURN(std::vector<RoomNight> nights,
                   repository_->RoomNights(hotel_id, check_in, check_out));
  if (nights.empty()) RETURN_IF_ERROR(GetHotel(hotel_id));
  // Offers sorted by room number, built in one pass over the rows (no tree, no per-room count:
  // a room is free for the stay when it has a free row for every night).
  auto stay_nights = static_cast<size_t>(check_out - check_in);
  std::vector<bool> opened(stay_nights, false);
  std::vector<RoomOffer> offers;
  for (RoomNight& night : nights) {
    if (night.date < check_in || night.date >= check_out) continue;  // not asked for
    opened[static_cast<size_t>(night.date - check_in)] = true;
    if (!night.is_available) continue;
    auto offer = std::lower_bound(
        offers.begin(), offers.end(), night.room_number,
        [](const RoomOffer& offer, int16_t room) { return offer.room_number < room; });
    if (offer == offers.end() || offer->room_number != night.room_number) {
      offer = offers.insert(offer, RoomOffer{night.room_number, std::move(night.room_type), {}, 0});
      offer->nightly_rates.reserve(stay_nights);
    }
    offer->nightly_rates.push_back({night.date, night.rate});
    offer->total += night.rate;
  }
  Availability availability{hotel_id, check_in, check_out, {}, {}, {}};
  for (size_t i = 0; i < stay_nights; ++i) {
    if (!opened[i]) availability.not_opened.push_back(check_in + static_cast<Day>(i));
  }
  for (RoomOffer& offer : offers) {
    if (offer.nightly_rates.size() == stay_nights) availability.rooms.push_back(std::move(offer));
  }
  return availability;
}

Result<RoomDetails> HotelService::GetRoom(const std::string& hotel_id, int16_t room_number,
                                          std::optional<Day> date, const PageRequest& page) {
  ASSIGN_OR_RETURN(auto room, repository_->FindRoom(hotel_id, room_number, page));
  if (!room) {
    return Status::NotFound(fmt::format("Room {} of hotel '{}' not found", room_number, hotel_id));
  }
  RoomDetails details{hotel_id, std::move(room->room), date.value_or(Today()), 0,
                      std::move(room->paging_state)};
  ASSIGN_OR_RETURN(auto night,
                   repository_->FindRoomNight(hotel_id, details.rate_date, room_number));
  details.rate = night ? night->rate : details.room.base_rate;
  return details;
}

Result<Reservation> HotelService::GetReservation(
    const std::string& confirmation, const std::optional<std::string>& guest_last_name) {
  ASSIGN_OR_RETURN(auto reservation,
                   repository_->FindReservation(CanonicalConfirmation(confirmation)));
  bool same_guest = !guest_last_name || (reservation && FoldName(*guest_last_name) ==
                                                            FoldName(reservation->guest_last_name));
  if (!reservation || reservation->status == kStatusPending || !same_guest) {
    return Status::NotFound("Reservation '" + confirmation + "' not found");
  }
  return std::move(*reservation);
}

Result<std::vector<Reservation>> HotelService::ReservationsByHotelDate(
    const std::string& hotel_id, Day date, const std::optional<std::string>& last_name) {
  return Items(ReservationsByHotelDate(hotel_id, date, last_name, PageRequest{}));
}

Result<std::vector<Reservation>> HotelService::ReservationsByGuest(
    const std::string& last_name, const std::optional<std::string>& first_name) {
  return Items(ReservationsByGuest(last_name, first_name, PageRequest{}));
}

Result<Guest> HotelService::GetGuest(const common::Uuid& guest_id) {
  ASSIGN_OR_RETURN(auto guest, repository_->FindGuest(guest_id));
  if (!guest) return Status::NotFound("Guest '" + guest_id.ToString() + "' not found");
  return std::move(*guest);
}

Result<HotelService::ReservationHistory> HotelService::History(
    const std::string& confirmation, const std::optional<std::string>& guest_last_name,
    const PageRequest& page) {
  ReservationHistory history;
  ASSIGN_OR_RETURN(history.reservation, GetReservation(confirmation, guest_last_name));
  ASSIGN_OR_RETURN(Page<ReservationEvent> events,
                   repository_->ReservationHistory(history.reservation.confirmation_number, page));
  history.events = std::move(events.items);
  history.paging_state = std::move(events.paging_state);
  return history;
}

// --- Reservations --------------------------------------------------------------------------

Result<std::vector<RoomNight>> HotelService::NightsOfRoom(const std::string& hotel_id,
                                                          int16_t room_number, Day check_in,
                                                          Day check_out) {
  ASSIGN_OR_RETURN(std::vector<RoomNight> mine,
                   repository_->RoomNightsOfRoom(hotel_id, room_number, check_in, check_out));
  if (mine.empty()) {
    ASSIGN_OR_RETURN(auto room, repository_->FindRoom(hotel_id, room_number));
    if (!room) {
      return Status::NotFound(
          fmt::format("Room {} of hotel '{}' not found", room_number, hotel_id));
    }
  }
  return mine;
}

Status HotelService::ReserveNumber(Reservation& pending, int64_t now_millis) {
  for (int attempt = 0; attempt < kConfirmationAttempts; ++attempt) {
    pending.confirmation_number = NewNumber();
    ASSIGN_OR_RETURN(bool reserved, repository_->ReserveConfirmation(pending, now_millis));
    if (reserved) return Status::Ok();
  }
  return Status::Internal("could not find a free confirmation number");
}

namespace {

// The first night of [check_in, check_out) missing from `nights` or not free (and not held by
// `own`); nullopt when all are usable.
std::optional<Day> FirstTakenNight(const std::vector<RoomNight>& nights, Day check_in,
                                   Day check_out, const std::string& own) {
  std::map<Day, const RoomNight*> by_day;
  for (const RoomNight& night : nights) by_day[night.date] = &night;
  for (Day day = check_in; day < check_out; ++day) {
    auto it = by_day.find(day);
    if (it == by_day.end()) return day;
    const RoomNight& night = *it->second;
    if (!night.is_available && (own.empty() || night.held_by != own)) return day;
  }
  return std::nullopt;
}

Status TakenNight(int16_t room_number, Day day) {
  return RoomUnavailable(fmt::format("Room {} is not free on {}", room_number, FormatDay(day)));
}

}  // namespace

Result<Reservation> HotelService::Book(const BookingRequest& request) {
  RETURN_IF_ERROR(ValidateStay(request.check_in, request.check_out));
  ASSIGN_OR_RETURN(Hotel hotel, GetHotel(request.hotel_id));
  Guest guest;
  bool new_guest = false;
  if (request.guest_id) {
    ASSIGN_OR_RETURN(guest, GetGuest(*request.guest_id));
  } else if (request.new_guest) {
    guest = *request.new_guest;
    if (FoldName(guest.first_name).empty() || FoldName(guest.last_name).empty()) {
      return Status::Invalid("A guest needs a first_name and a last_name");
    }
    guest.guest_id = common::Uuid::Random();
    new_guest = true;
  } else {
    return Status::Invalid("A booking needs a guest or a guest_id");
  }

  // Price the stay from the room's nights as they are now (its rows of Q4's partition); a taken
  // night fails early.
  ASSIGN_OR_RETURN(
      std::vector<RoomNight> nights,
      NightsOfRoom(request.hotel_id, request.room_number, request.check_in, request.check_out));
  if (auto taken = FirstTakenNight(nights, request.check_in, request.check_out, "")) {
    return TakenNight(request.room_number, *taken);
  }
  Reservation reservation;
  reservation.hotel_id = hotel.hotel_id;
  reservation.hotel_name = hotel.name;
  reservation.room_number = request.room_number;
  reservation.check_in = request.check_in;
  reservation.check_out = request.check_out;
  reservation.guest_id = guest.guest_id;
  reservation.guest_first_name = guest.first_name;
  reservation.guest_last_name = guest.last_name;
  for (const RoomNight& night : nights) reservation.total += night.rate;

  int64_t now = NowMillis();
  RETURN_IF_ERROR(ReserveNumber(reservation, now));
  const std::string& number = reservation.confirmation_number;
  std::vector<Day> stay = NightsOf(request.check_in, request.check_out);
  // One conditional batch (per month partition when bucketed; a failed later month releases the
  // earlier ones).
  auto claimed = repository_->ClaimNights(hotel.hotel_id, request.room_number, stay, number, now);
  if (!claimed.ok() || !*claimed) {
    // Nothing is claimed (all-or-nothing, or compensated); drop the pending number.
    (void)repository_->DeletePendingConfirmation(number);
    RETURN_IF_ERROR(claimed.status());
    ASSIGN_OR_RETURN(
        std::vector<RoomNight> now_nights,
        NightsOfRoom(request.hotel_id, request.room_number, request.check_in, request.check_out));
    Day day = FirstTakenNight(now_nights, request.check_in, request.check_out, "")
                  .value_or(request.check_in);
    return TakenNight(request.room_number, day);
  }
  // Too slow to be safe: past half the hold timeout the repair pass may soon treat the holds as
  // orphans, so give up rather than write a reservation whose nights could be freed.
  ReservationEvent booked =
      NewEvent(reservation, ReservationAction::kBooked, request.actor, DescribeStay(reservation));
  std::optional<Notification> confirmation;
  if (request.notify) {
    confirmation = NotificationFor(NotificationKind::kConfirmation, reservation, nullptr, guest,
                                   booked.event_id);
  }
  Status written = NowMillis() - now > options_.hold_timeout_millis / 2
                       ? Status(common::StatusCode::kUnavailable, "booking timed out; retry")
                       : repository_->WriteReservation(reservation, new_guest ? &guest : nullptr,
                                                       nullptr, CanonicalEmails(guest.emails),
                                                       booked, PointerTo(confirmation));
  if (!written.ok()) {
    // Compensate; if this fails too, RepairHolds frees the holds later (invariant I3).
    (void)repository_->ReleaseNights(hotel.hotel_id, request.room_number, stay, number);
    (void)repository_->DeletePendingConfirmation(number);
    return written;
  }
  return reservation;
}

ReservationEvent HotelService::NewEvent(const Reservation& reservation, ReservationAction action,
                                        const std::string& actor, std::string details) {
  ReservationEvent event;
  event.event_id = event_ids_.Next();
  event.action = action;
  event.status = reservation.status;
  event.actor = actor;
  event.details = std::move(details);
  return event;
}

Status HotelService::WriteTransition(const Reservation& reservation, ReservationAction action,
                                     const std::string& actor) {
  // Rows first, nights second: a crash in between leaves orphan holds for RepairHolds (the
  // status no longer holds nights), never a reservation whose nights could be sold again.
  ReservationEvent event = NewEvent(reservation, action, actor, DescribeStay(reservation));
  // The guest (Q9): the addresses its Q12 rows are under, and the cancellation email's.
  ASSIGN_OR_RETURN(std::optional<Guest> guest, repository_->FindGuest(reservation.guest_id));
  std::optional<Notification> notification;
  if (action == ReservationAction::kCancelled) {
    notification = GuestNotification(NotificationKind::kCancellation, reservation, nullptr, guest,
                                     event.event_id);
  }
  RETURN_IF_ERROR(repository_->WriteReservation(reservation, nullptr, nullptr, EmailKeysOf(guest),
                                                event, PointerTo(notification)));
  if (HoldsNights(reservation.status)) return Status::Ok();
  return repository_
      ->ReleaseNights(reservation.hotel_id, reservation.room_number,
                      NightsOf(reservation.check_in, reservation.check_out),
                      reservation.confirmation_number)
      .status();
}

Result<Reservation> HotelService::Cancel(const std::string& confirmation,
                                         const std::optional<std::string>& guest_last_name,
                                         const std::string& actor) {
  ASSIGN_OR_RETURN(Reservation reservation, GetReservation(confirmation, guest_last_name));
  ASSIGN_OR_RETURN(reservation.status,
                   StatusAfter(reservation.confirmation_number, reservation.status,
                               ReservationAction::kCancelled));
  RETURN_IF_ERROR(WriteTransition(reservation, ReservationAction::kCancelled, actor));
  return reservation;
}

Result<Reservation> HotelService::RecordStayEvent(const std::string& confirmation,
                                                  ReservationAction action,
                                                  const std::string& actor) {
  if (action != ReservationAction::kCheckedIn && action != ReservationAction::kCheckedOut &&
      action != ReservationAction::kNoShow) {
    return Status::Invalid("Not a front-desk action: " + std::string(ActionName(action)));
  }
  ASSIGN_OR_RETURN(Reservation reservation, GetReservation(confirmation));
  ASSIGN_OR_RETURN(reservation.status,
                   StatusAfter(reservation.confirmation_number, reservation.status, action));
  RETURN_IF_ERROR(WriteTransition(reservation, action, actor));
  return reservation;
}

Result<HotelService::PlannedChange> HotelService::PlanChange(
    const std::string& confirmation, const ChangeRequest& request,
    const std::optional<std::string>& guest_last_name) {
  RETURN_IF_ERROR(ValidateStay(request.check_in, request.check_out));
  PlannedChange plan;
  ASSIGN_OR_RETURN(plan.old, GetReservation(confirmation, guest_last_name));
  const Reservation& old = plan.old;
  Reservation& updated = plan.updated;
  updated = old;
  ASSIGN_OR_RETURN(updated.status,
                   StatusAfter(old.confirmation_number, old.status, ReservationAction::kChanged));
  updated.room_number = request.room_number.value_or(old.room_number);
  updated.check_in = request.check_in;
  updated.check_out = request.check_out;

  ASSIGN_OR_RETURN(plan.nights, NightsOfRoom(old.hotel_id, updated.room_number, updated.check_in,
                                             updated.check_out));
  if (auto taken = FirstTakenNight(plan.nights, updated.check_in, updated.check_out,
                                   old.confirmation_number)) {
    return TakenNight(updated.room_number, *taken);
  }
  updated.total = 0;
  for (const RoomNight& night : plan.nights) updated.total += night.rate;
  return plan;
}

Result<ChangeQuote> HotelService::QuoteChange(const std::string& confirmation,
                                              const ChangeRequest& request,
                                              const std::optional<std::string>& guest_last_name) {
  ASSIGN_OR_RETURN(PlannedChange plan, PlanChange(confirmation, request, guest_last_name));
  ChangeQuote quote;
  quote.current = std::move(plan.old);
  quote.proposed = std::move(plan.updated);
  for (const RoomNight& night : plan.nights) {
    quote.room_type = night.room_type;
    quote.nightly_rates.push_back({night.date, night.rate});
  }
  return quote;
}

Result<Reservation> HotelService::Change(const std::string& confirmation,
                                         const ChangeRequest& request,
                                         const std::optional<std::string>& guest_last_name,
                                         const std::string& actor) {
  ASSIGN_OR_RETURN(PlannedChange plan, PlanChange(confirmation, request, guest_last_name));
  const Reservation& old = plan.old;
  const Reservation& updated = plan.updated;
  const std::string& number = old.confirmation_number;
  // Claim the nights the old stay does not already hold.
  std::vector<Day> to_claim;
  for (const RoomNight& night : plan.nights) {
    if (night.is_available) to_claim.push_back(night.date);
  }
  int64_t now = NowMillis();
  ASSIGN_OR_RETURN(bool claimed, repository_->ClaimNights(old.hotel_id, updated.room_number,
                                                          to_claim, number, now));
  if (!claimed) {
    ASSIGN_OR_RETURN(
        std::vector<RoomNight> now_nights,
        NightsOfRoom(old.hotel_id, updated.room_number, updated.check_in, updated.check_out));
    Day day = FirstTakenNight(now_nights, updated.check_in, updated.check_out, number)
                  .value_or(updated.check_in);
    return TakenNight(updated.room_number, day);
  }
  ReservationEvent changed =
      NewEvent(updated, ReservationAction::kChanged, actor,
               fmt::format("{} -> {}; total {} -> {}", DescribeStay(old), DescribeStay(updated),
                           FormatMoney(old.total), FormatMoney(updated.total)));
  auto guest = repository_->FindGuest(updated.guest_id);
  std::optional<Notification> notice;
  if (guest.ok()) {
    notice = GuestNotification(NotificationKind::kChange, updated, &old, *guest, changed.event_id);
  }
  Status written = !guest.ok() ? guest.status()
                   : NowMillis() - now > options_.hold_timeout_millis / 2
                       ? Status(common::StatusCode::kUnavailable, "change timed out; retry")
                       : repository_->WriteReservation(updated, nullptr, &old, EmailKeysOf(*guest),
                                                       changed, PointerTo(notice));
  if (!written.ok()) {
    (void)repository_->ReleaseNights(old.hotel_id, updated.room_number, to_claim, number);
    return written;
  }
  // Free the old nights the new stay does not use.
  std::vector<Day> to_free;
  for (Day day = old.check_in; day < old.check_out; ++day) {
    bool kept = updated.room_number == old.room_number && day >= updated.check_in &&
                day < updated.check_out;
    if (!kept) to_free.push_back(day);
  }
  RETURN_IF_ERROR(repository_->ReleaseNights(old.hotel_id, old.room_number, to_free, number));
  return updated;
}

Result<int> HotelService::RepairHolds(const std::string& hotel_id, int64_t now_millis) {
  Day from = now_millis / kMillisPerDay - 1;
  ASSIGN_OR_RETURN(std::vector<RoomNight> nights, repository_->RoomNightsFrom(hotel_id, from));
  // Old holds, by confirmation number.
  std::map<std::string, std::vector<const RoomNight*>> holds;
  for (const RoomNight& night : nights) {
    if (night.is_available || night.held_by.empty()) continue;
    if (now_millis - night.held_at_millis < options_.hold_timeout_millis) continue;
    holds[night.held_by].push_back(&night);
  }
  int freed = 0;
  for (const auto& [number, held] : holds) {
    ASSIGN_OR_RETURN(auto reservation, repository_->FindReservation(number));
    if (reservation && reservation->status == kStatusPending) {
      // A booking that died after claiming. The pending row goes first (IF status =
      // 'pending'): should the booking still confirm, the delete does not apply and the
      // reservation is read again, so its nights are kept. A crash here leaves holds without
      // any reservation: orphans for the next pass.
      ASSIGN_OR_RETURN(bool deleted, repository_->DeletePendingConfirmation(number));
      if (deleted) {
        reservation.reset();
      } else {
        ASSIGN_OR_RETURN(reservation, repository_->FindReservation(number));
      }
    }
    // Cancelled and no-show reservations hold nothing: their holds are orphans (a crash
    // between writing the status and freeing the nights).
    bool confirmed = reservation && HoldsNights(reservation->status);
    std::map<int16_t, std::vector<Day>> orphans;  // by room
    for (const RoomNight* night : held) {
      bool covered = confirmed && reservation->room_number == night->room_number &&
                     night->date >= reservation->check_in && night->date < reservation->check_out;
      if (!covered) orphans[night->room_number].push_back(night->date);
    }
    for (const auto& [room, days] : orphans) {
      ASSIGN_OR_RETURN(int count, repository_->ReleaseNights(hotel_id, room, days, number));
      freed += count;
    }
  }
  return freed;
}

Result<RepairReport> HotelService::RepairAll(int64_t now_millis) {
  RepairReport report;
  ASSIGN_OR_RETURN(std::vector<std::string> hotels, repository_->ListHotelIds());
  for (const std::string& hotel_id : hotels) {
    if (repair_stopped_.load()) return report;
    ASSIGN_OR_RETURN(int freed, RepairHolds(hotel_id, now_millis));
    report.nights_freed += freed;
    ++report.hotels;
  }
  // Pending rows left without holds (a booking that died before or while claiming, or whose
  // cleanup failed). Their numbers' holds, if any, were handled above.
  if (repair_stopped_.load()) return report;
  ASSIGN_OR_RETURN(std::vector<Repository::PendingConfirmation> pending,
                   repository_->PendingConfirmations());
  for (const Repository::PendingConfirmation& row : pending) {
    if (now_millis - row.created_at_millis < options_.hold_timeout_millis) continue;
    ASSIGN_OR_RETURN(bool deleted, repository_->DeletePendingConfirmation(row.confirmation));
    if (deleted) ++report.pending_removed;
  }
  return report;
}

// --- Guests and inventory ------------------------------------------------------------------

Result<Guest> HotelService::CreateGuest(Guest guest) {
  if (FoldName(guest.first_name).empty() || FoldName(guest.last_name).empty()) {
    return Status::Invalid("A guest needs a first_name and a last_name");
  }
  guest.guest_id = common::Uuid::Random();
  RETURN_IF_ERROR(repository_->UpsertGuest(guest));
  return guest;
}

Result<Guest> HotelService::UpdateGuest(const common::Uuid& guest_id, Guest guest) {
  ASSIGN_OR_RETURN(Guest before, GetGuest(guest_id));
  if (FoldName(guest.first_name).empty() || FoldName(guest.last_name).empty()) {
    return Status::Invalid("A guest needs a first_name and a last_name");
  }
  guest.guest_id = guest_id;
  std::vector<std::string> old_keys = CanonicalEmails(before.emails);
  std::vector<std::string> new_keys = CanonicalEmails(guest.emails);
  if (old_keys == new_keys) {
    RETURN_IF_ERROR(repository_->UpsertGuest(guest));
    return guest;
  }
  // The addresses change: move the guest's reservations in Q12 with the guest's row.
  std::vector<std::string> removed;
  std::vector<std::string> added;
  std::set_difference(old_keys.begin(), old_keys.end(), new_keys.begin(), new_keys.end(),
                      std::back_inserter(removed));
  std::set_difference(new_keys.begin(), new_keys.end(), old_keys.begin(), old_keys.end(),
                      std::back_inserter(added));
  ASSIGN_OR_RETURN(std::vector<Reservation> reservations, ReservationsOfGuest(before));
  RETURN_IF_ERROR(repository_->UpdateGuestAndEmailRows(guest, reservations, removed, added));
  return guest;
}

Result<std::vector<Reservation>> HotelService::ReservationsOfGuest(const Guest& guest) {
  // Every reservation of the guest is in Q12 under each of its addresses, so one of them
  // suffices; a guest without an address (or with reservations from before Q12) is found in
  // Q8's partition of its name. Rows of other guests sharing the partition are left out.
  std::map<std::string, Reservation> found;
  auto keep = [&](std::vector<Reservation> rows) {
    for (Reservation& row : rows) {
      if (row.guest_id == guest.guest_id) found[row.confirmation_number] = std::move(row);
    }
  };
  std::vector<std::string> keys = CanonicalEmails(guest.emails);
  if (!keys.empty()) {
    ASSIGN_OR_RETURN(std::vector<Reservation> by_email,
                     repository_->ReservationsByGuestEmail(keys.front()));
    keep(std::move(by_email));
  }
  ASSIGN_OR_RETURN(
      std::vector<Reservation> by_name,
      repository_->ReservationsByGuest(FoldName(guest.last_name), FoldName(guest.first_name)));
  keep(std::move(by_name));
  std::vector<Reservation> reservations;
  for (auto& [number, reservation] : found) reservations.push_back(std::move(reservation));
  return reservations;
}

Result<std::vector<Reservation>> HotelService::ReservationsByGuestEmail(const std::string& email) {
  return Items(ReservationsByGuestEmail(email, PageRequest{}));
}

Result<Hotel> HotelService::CreateHotel(Hotel hotel) {
  if (hotel.hotel_id.empty() || hotel.hotel_id.size() > 32) {
    return Status::Invalid("hotel_id must be 1 to 32 characters");
  }
  ASSIGN_OR_RETURN(std::vector<Poi> known, repository_->ListPois());
  std::vector<Poi> pois;
  std::sort(hotel.pois.begin(), hotel.pois.end());
  hotel.pois.erase(std::unique(hotel.pois.begin(), hotel.pois.end()), hotel.pois.end());
  for (const std::string& name : hotel.pois) {
    auto it =
        std::find_if(known.begin(), known.end(), [&](const Poi& poi) { return poi.name == name; });
    if (it == known.end()) return Status::Invalid("Unknown point of interest '" + name + "'");
    pois.push_back(*it);
  }
  ASSIGN_OR_RETURN(bool inserted, repository_->InsertHotel(hotel, pois));
  if (!inserted) return Status::AlreadyExists("Hotel '" + hotel.hotel_id + "' already exists");
  return hotel;
}

Status HotelService::CreatePoi(const Poi& poi) {
  if (poi.name.empty()) return Status::Invalid("A point of interest needs a name");
  return repository_->InsertPoi(poi);
}

Status HotelService::AddRoom(const std::string& hotel_id, const Room& room) {
  RETURN_IF_ERROR(GetHotel(hotel_id));
  if (room.room_number <= 0) return Status::Invalid("room_number must be positive");
  return repository_->InsertRoom(hotel_id, room);
}

Result<int> HotelService::OpenAvailability(const std::string& hotel_id, Day start, Day end,
                                           std::optional<Cents> rate) {
  if (end <= start || end - start > 731) {
    return Status::Invalid("end must be after start, at most 731 days later");
  }
  RETURN_IF_ERROR(GetHotel(hotel_id));
  ASSIGN_OR_RETURN(std::vector<Room> rooms, repository_->RoomsByHotel(hotel_id));
  int opened = 0;
  for (Day day = start; day < end; ++day) {
    for (const Room& room : rooms) {
      RoomNight night;
      night.date = day;
      night.room_number = room.room_number;
      night.rate = rate.value_or(room.base_rate);
      night.room_type = room.room_type;
      // IF NOT EXISTS: never reopens a night someone holds.
      ASSIGN_OR_RETURN(bool applied, repository_->OpenNightIfAbsent(hotel_id, night));
      if (applied) ++opened;
    }
  }
  return opened;
}

}  // namespace hotel
