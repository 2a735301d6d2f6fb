// Repository: every CQL statement the hotel service issues, over `cql::Session` only
// (docs/dev/architecture.md §1; docs/data-model.md), and the mapping between rows and the domain
// values of `domain.h`.
//
// Each read is ONE single-partition query on the table designed for it (docs/data-model.md);
// the comment on each method names the query (Q1-Q9) and the partition it reads. Writes that
// must be atomic are batches: a conditional batch inside the hotel's availability partition to
// claim or release the nights of a stay, and logged batches for the denormalized reservation
// rows together with the reservation's history row (so its history and status never disagree).
// Statements are prepared once in `Create` and executed by id.
//
// Availability lives in one of two tables (`AvailabilityBucketing`, set by the service):
// `available_rooms_by_hotel_date` (one partition per hotel) or `available_rooms_by_hotel_month`
// (one partition per hotel and month). With month buckets a range of nights spans one
// partition per month it touches: reads issue one single-partition query per month, and
// conditional batches — which Cassandra allows only within one partition — are issued per
// month, in month order, with compensation (see ClaimNights). The background repair pass
// additionally uses two full-table reads (ListHotelIds, PendingConfirmations), and `hotel users
// list` one (ListStaffUsers), paged; nothing on a request path does.
//
// Errors: database errors are mapped to kUnavailable (the database could not answer: timeouts,
// unavailable replicas, overload, I/O; or could not write: WriteFailure, e.g. a full disk) or
// kInternal (anything else, e.g. a schema mismatch);
// the service turns those into HTTP 503 / 500. Rows that do not decode are kInternal.
//
// Thread-safety: thread-safe when the session is (prepared metadata is immutable after
// `Create`).

#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "cql/session.h"
#include "hotel/domain.h"
#include "hotel/notification.h"
#include "hotel/paging.h"
#include "hotel/service_schema.h"

namespace hotel {

class Repository {
 public:
  // Prepares every statement against the schema of `keyspaces` (which must exist).
  // REQUIRES: `session` outlives the repository.
  static common::Result<std::unique_ptr<Repository>> Create(cql::Session* session,
                                                            Keyspaces keyspaces);

  const Keyspaces& keyspaces() const { return keyspaces_; }

  // Selects the availability table. Set once before the repository is shared between threads
  // (HotelService's constructor does it); not thread-safe against concurrent calls.
  void set_availability_bucketing(AvailabilityBucketing bucketing) { bucketing_ = bucketing; }
  AvailabilityBucketing availability_bucketing() const { return bucketing_; }

  // A cheap query the database answers without touching the service's tables
  // (`SELECT release_version FROM system.local`): Ok when it answers, else the error
  // (DatabaseError's codes). For readiness checks.
  common::Status Ping();

  // --- Reads (one partition each) ---------------------------------------------------------

  // Every list read comes in two forms: without a PageRequest, every row; with one, one page
  // (paging.h: the engine's paging state; a refused paging state is CursorRefused).

  // Every POI: the single partition directory = 'all' of `pois`.
  common::Result<std::vector<Poi>> ListPois();
  common::Result<Page<Poi>> ListPois(const PageRequest& page);
  // Q1: partition poi_name of `hotels_by_poi`. nullopt when the POI has no row at all (no
  // static description and no hotel); on a later page (`page.paging_state` set), an empty
  // page instead.
  struct PoiHotels {
    Poi poi;
    std::vector<Hotel> hotels;                  // without `pois`
    std::optional<common::Bytes> paging_state;  // when more hotels may follow
  };
  common::Result<std::optional<PoiHotels>> HotelsByPoi(const std::string& poi_name,
                                                       const PageRequest& page = {});
  // Q2: partition id of `hotels`.
  common::Result<std::optional<Hotel>> FindHotel(const std::string& hotel_id);
  // Q3: partition hotel_id of `pois_by_hotel`.
  common::Result<std::vector<Poi>> PoisByHotel(const std::string& hotel_id);
  common::Result<Page<Poi>> PoisByHotel(const std::string& hotel_id, const PageRequest& page);
  // Q4: the rows with first <= date < last, in (date, room_number) order. Unbucketed: one range
  // read of partition hotel_id of `available_rooms_by_hotel_date`. Month buckets: one range read
  // per month touched, of partition (hotel_id, month) of `available_rooms_by_hotel_month` (one
  // or two for a stay of up to 29 nights; a 30-night stay over all of February touches three).
  common::Result<std::vector<RoomNight>> RoomNights(const std::string& hotel_id, Day first,
                                                    Day last);
  // The rows of one room with first <= date < last, in date order (a booking's or a change's
  // pricing read): per availability partition one read of the listed dates and the room
  // (`date IN ? AND room_number = ?`), so it reads the room's rows only, not every room's.
  common::Result<std::vector<RoomNight>> RoomNightsOfRoom(const std::string& hotel_id,
                                                          int16_t room_number, Day first, Day last);
  // The repair pass's read: every row of the hotel with date >= first. Unbucketed: one range
  // read of the hotel's partition. Month buckets: the hotel's partition of
  // `availability_months_by_hotel`, then each listed month partition from first's month on.
  common::Result<std::vector<RoomNight>> RoomNightsFrom(const std::string& hotel_id, Day first);
  // Q5 (rate): one row of the same partition (the night's month partition when bucketed).
  common::Result<std::optional<RoomNight>> FindRoomNight(const std::string& hotel_id, Day date,
                                                         int16_t room_number);
  // Q5 (type, base rate, amenities): partition (hotel_id, room_number) of `amenities_by_room`.
  common::Result<std::optional<Room>> FindRoom(const std::string& hotel_id, int16_t room_number);
  // The same, with one page of the amenities (the type and base rate are on every page).
  struct RoomPage {
    Room room;
    std::optional<common::Bytes> paging_state;  // when more amenities may follow
  };
  common::Result<std::optional<RoomPage>> FindRoom(const std::string& hotel_id, int16_t room_number,
                                                   const PageRequest& page);
  // The rooms of a hotel: partition hotel_id of `rooms_by_hotel` (without amenities).
  common::Result<std::vector<Room>> RoomsByHotel(const std::string& hotel_id);
  common::Result<Page<Room>> RoomsByHotel(const std::string& hotel_id, const PageRequest& page);
  // Q6: partition confirm_number of `reservations_by_confirmation` (also "pending" rows, and
  // reservations of every status: a reservation is never deleted once confirmed).
  common::Result<std::optional<Reservation>> FindReservation(const std::string& confirmation);
  // Q7: partition (hotel_id, start_date) of `reservations_by_hotel_date`, restricted to the
  // clustering prefix last_name_key when `last_name_key` is set.
  common::Result<std::vector<Reservation>> ReservationsByHotelDate(
      const std::string& hotel_id, Day start_date, const std::optional<std::string>& last_name_key);
  common::Result<Page<Reservation>> ReservationsByHotelDate(
      const std::string& hotel_id, Day start_date, const std::optional<std::string>& last_name_key,
      const PageRequest& page);
  // Q8: partition last_name_key of `reservations_by_guest`, restricted to the clustering prefix
  // first_name_key when set.
  common::Result<std::vector<Reservation>> ReservationsByGuest(
      const std::string& last_name_key, const std::optional<std::string>& first_name_key);
  common::Result<Page<Reservation>> ReservationsByGuest(
      const std::string& last_name_key, const std::optional<std::string>& first_name_key,
      const PageRequest& page);
  // Q9: partition guest_id of `guests`.
  common::Result<std::optional<Guest>> FindGuest(const common::Uuid& guest_id);
  // Q10: partition confirm_number of `reservation_history_by_confirmation`, oldest event
  // first (empty for an unknown number, or a reservation booked before history was kept).
  common::Result<std::vector<ReservationEvent>> ReservationHistory(const std::string& confirmation);
  common::Result<Page<ReservationEvent>> ReservationHistory(const std::string& confirmation,
                                                            const PageRequest& page);
  // Q12: partition guest_email of `reservations_by_guest_email` (repository_guest_email.cc): the
  // reservations, of any status, of every guest with that canonical address (CanonicalEmail),
  // by arrival date.
  common::Result<std::vector<Reservation>> ReservationsByGuestEmail(const std::string& email_key);
  common::Result<Page<Reservation>> ReservationsByGuestEmail(const std::string& email_key,
                                                             const PageRequest& page);

  // --- Background reads of the repair pass (full-table, paged; never on a request path) -----

  // Every hotel id (`hotels`, all partitions).
  common::Result<std::vector<std::string>> ListHotelIds();
  struct PendingConfirmation {
    std::string confirmation;
    int64_t created_at_millis = 0;
  };
  // Every "pending" row of `reservations_by_confirmation` (status = 'pending' ALLOW
  // FILTERING).
  common::Result<std::vector<PendingConfirmation>> PendingConfirmations();

  // --- Backfill of the derived tables (repository_backfill.cc; `hotel backfill`) -------------

  // One page of `reservations_by_confirmation` (every partition, in token order, full-table:
  // never on a request path): each reservation with the write time (microseconds) of its
  // status, i.e. of the logged batch that last wrote it, and the engine's paging state when
  // more follow. `paging_state` continues a previous page; one the database refuses is
  // kInvalid.
  struct TimedReservation {
    Reservation reservation;
    int64_t written_at_micros = 0;
  };
  struct ReservationPage {
    std::vector<TimedReservation> reservations;
    std::optional<common::Bytes> paging_state;
  };
  common::Result<ReservationPage> ListReservations(int32_t page_size,
                                                   std::optional<common::Bytes> paging_state);
  // One logged batch with the timestamp `written_at_micros`: `reservation`'s rows of Q11
  // (`stays_by_hotel_date`) and of Q12 under `email_keys`, as WriteReservation writes them.
  // Written at the reservation's own write time, so a later transition's writes and deletions
  // (later timestamps) win over them: rewriting an old state can never undo a newer one.
  common::Status RewriteDerivedRows(const Reservation& reservation,
                                    const std::vector<std::string>& email_keys,
                                    int64_t written_at_micros);

  // --- Inventory writes --------------------------------------------------------------------

  // Adds the POI to the directory and sets the static description of its Q1 partition.
  common::Status InsertPoi(const Poi& poi);
  // Inserts the hotel unless its id exists (returns false then, writing nothing else); then
  // its rows of `hotels_by_poi` and `pois_by_hotel` (logged batch). `pois` carries the
  // descriptions of `hotel.pois`.
  common::Result<bool> InsertHotel(const Hotel& hotel, const std::vector<Poi>& pois);
  // Inserts or replaces a room: `rooms_by_hotel` and `amenities_by_room` (logged batch).
  common::Status InsertRoom(const std::string& hotel_id, const Room& room);
  // Writes free nights without reading (bulk loading of fresh data only: it would overwrite a
  // booked night). One unlogged batch in the hotel's partition (per month partition when
  // bucketed, after recording the months in `availability_months_by_hotel`).
  common::Status WriteNights(const std::string& hotel_id, const std::vector<RoomNight>& nights);
  // Opens one night unless its row exists (INSERT ... IF NOT EXISTS). Returns whether applied.
  common::Result<bool> OpenNightIfAbsent(const std::string& hotel_id, const RoomNight& night);

  // --- Booking -----------------------------------------------------------------------------

  // Reserves a confirmation number: INSERT ... IF NOT EXISTS of a "pending" row into
  // `reservations_by_confirmation` describing the intended stay. False on collision.
  common::Result<bool> ReserveConfirmation(const Reservation& pending, int64_t now_millis);
  // Deletes a "pending" confirmation row (IF status = 'pending'). Returns whether it applied
  // (false: no such row, or it is no longer pending).
  common::Result<bool> DeletePendingConfirmation(const std::string& confirmation);
  // One conditional batch on the hotel's availability partition: for every night,
  // UPDATE SET is_available = false, held_by, held_at ... IF is_available = true. Returns
  // whether it applied (all nights claimed) or nothing changed.
  // Month buckets: one such batch per month partition, in ascending month order; when a later
  // batch does not apply (or fails), the months already claimed are released again
  // (IF held_by = confirmation) before returning false (or the error). A crash, or a failed
  // release, in between leaves holds of `confirmation` with no confirmed reservation: orphans
  // that the repair pass frees (docs/data-model.md).
  common::Result<bool> ClaimNights(const std::string& hotel_id, int16_t room_number,
                                   const std::vector<Day>& nights, const std::string& confirmation,
                                   int64_t now_millis);
  // Frees nights held by `confirmation` (IF held_by = confirmation): one conditional batch (per
  // month partition when bucketed), or night by night when some night is no longer held by it.
  // Returns the nights freed.
  common::Result<int> ReleaseNights(const std::string& hotel_id, int16_t room_number,
                                    const std::vector<Day>& nights,
                                    const std::string& confirmation);
  // One logged batch: the reservation's rows in the three reservation tables, its rows of
  // Q11's `stays_by_hotel_date` (AddStayEntries) and of Q12's `reservations_by_guest_email`
  // under each of `email_keys` (the guest's canonical addresses; AddEmailEntries) (with
  // `reservation.status`), the history row `event`, the guest when `guest` is set, and the
  // deletion of `replaced`'s rows in the by-date and by-guest tables when set (a changed stay)
  // (and in Q12 under `email_keys`) and their keys differ from the new rows' keys. Every change of
  // a reservation's state goes through here, so its rows and its history are written together or
  // not at all. With `notification`, the batch also inserts it into the outbox
  // (`notifications_by_hour`), so the email announcing the change exists exactly when the change
  // does. REQUIRES: `event.event_id` is a fresh timeuuid; `notification`, when set, has that id.
  common::Status WriteReservation(const Reservation& reservation, const Guest* guest,
                                  const Reservation* replaced,
                                  const std::vector<std::string>& email_keys,
                                  const ReservationEvent& event,
                                  const Notification* notification = nullptr);
  // Inserts or replaces a guest.
  common::Status UpsertGuest(const Guest& guest);
  // One logged batch: the guest's row (as UpsertGuest) and, for each of `reservations`, the
  // deletion of its Q12 rows under `removed_keys` and its Q12 rows under `added_keys`: a change
  // of the guest's addresses moves their reservations in Q12 together with the guest
  // (repository_guest_email.cc).
  common::Status UpdateGuestAndEmailRows(const Guest& guest,
                                         const std::vector<Reservation>& reservations,
                                         const std::vector<std::string>& removed_keys,
                                         const std::vector<std::string>& added_keys);

  // --- The outbox (notification.h; repository_notifications.cc; the notify worker's) ---------

  // Partition `hour` of `notifications_by_hour`: up to `limit` notifications with ids after
  // `after`, oldest first (a clustering slice: the worker pages by passing the last id back).
  common::Result<std::vector<Notification>> NotificationsInHour(int32_t hour,
                                                                const common::Uuid& after,
                                                                int32_t limit);
  // Claims a delivery attempt: UPDATE SET attempts = attempts_seen + 1, next_attempt_at =
  // `lease_until_millis` IF attempts = attempts_seen (a lightweight transaction on the row).
  // False when another worker claimed it first.
  common::Result<bool> ClaimNotification(const Notification& notification, int32_t attempts_seen,
                                         int64_t lease_until_millis);
  // Records the delivery (delivered_at): a plain update of the row, nothing deleted.
  common::Status RecordNotificationDelivered(const Notification& notification,
                                             int64_t delivered_at_millis);
  // Records a failed attempt `attempts` (the claimed count): retried at `retry_at_millis`, or,
  // when `give_up`, given up (failed_at = `now_millis`). Conditional on the attempt count, so
  // a worker records only its own attempt. Returns whether it applied.
  common::Result<bool> RecordNotificationFailure(const Notification& notification, int32_t attempts,
                                                 const std::string& error, int64_t now_millis,
                                                 int64_t retry_at_millis, bool give_up);
  // Partition `worker` of `notification_checkpoints_by_worker`: every notification before the
  // returned time is done; nullopt before the worker's first pass.
  common::Result<std::optional<int64_t>> NotificationCheckpoint(const std::string& worker);
  common::Status SetNotificationCheckpoint(const std::string& worker, int64_t done_before_millis,
                                           int64_t now_millis);

  // --- The staff console (repository_console.cc; docs/data-model.md, "The staff console") ---

  // One page of `hotels` (every partition, in token order): at most `page_size` hotels, and the
  // engine's paging state when more follow. `paging_state` continues a previous page; one the
  // database does not accept is kInvalid.
  struct HotelPage {
    std::vector<Hotel> hotels;
    std::optional<common::Bytes> paging_state;
  };
  common::Result<HotelPage> ListHotels(int32_t page_size,
                                       std::optional<common::Bytes> paging_state);
  // Q11: partition (hotel_id, date) of `stays_by_hotel_date`: every reservation (any status)
  // whose stay starts, goes on or ends on `date`, by room number.
  common::Result<std::vector<Reservation>> StaysByHotelDate(const std::string& hotel_id, Day date);
  common::Result<Page<Reservation>> StaysByHotelDate(const std::string& hotel_id, Day date,
                                                     const PageRequest& page);
  // Sets the rate of existing nights (`date`, `room_number`, `rate` of each), without reading:
  // one logged batch per availability partition. Only the rate cell is written, so a
  // concurrent claim or release of the same night is unaffected.
  common::Status SetRates(const std::string& hotel_id, const std::vector<RoomNight>& nights);

  // --- Staff accounts (docs/security.md; StaffAccounts hashes, this stores) ------------------

  // Partition username of `staff_users`: the account's bcrypt hash, nullopt when there is none.
  common::Result<std::optional<std::string>> FindStaffPasswordHash(const std::string& username);
  // INSERT ... IF NOT EXISTS. Returns false (writing nothing) when the username is taken.
  common::Result<bool> InsertStaffUser(const std::string& username,
                                       const std::string& password_hash, int64_t now_millis);
  // UPDATE ... IF EXISTS. Returns false when there is no such account.
  common::Result<bool> SetStaffPassword(const std::string& username,
                                        const std::string& password_hash);
  // DELETE ... IF EXISTS. Returns false when there is no such account.
  common::Result<bool> DeleteStaffUser(const std::string& username);
  // Every username, in token order (full-table, paged: `hotel users list` and the startup
  // check of `hotel serve`, never a request path).
  common::Result<std::vector<std::string>> ListStaffUsers();

  // Use Create(); public only for std::make_unique.
  Repository(cql::Session* session, Keyspaces keyspaces)
      : session_(session), keyspaces_(std::move(keyspaces)) {}

 private:
  using Prepared = std::shared_ptr<const cql::PreparedMetadata>;

  // A statement to prepare and where its metadata goes.
  struct Statement {
    Prepared* target;
    std::string query;
  };
  common::Status PrepareAll();
  // The statements PrepareAll prepares, by area.
  std::vector<Statement> ReadStatements();
  std::vector<Statement> WriteStatements();
  std::vector<Statement> MonthAndRepairStatements();
  std::vector<Statement> StaffStatements();
  std::vector<Statement> NotificationStatements();
  // The outbox insert of `notification`, for WriteReservation's batch.
  cql::BatchEntry NotificationEntry(const Notification& notification) const;
  std::vector<Statement> ConsoleStatements();
  std::vector<Statement> GuestEmailStatements();
  std::vector<Statement> BackfillStatements();
  // The batch entry inserting or replacing `guest`'s row of `guests`.
  cql::BatchEntry GuestEntry(const Guest& guest) const;
  // The batch entries writing `reservation`'s Q12 rows under each of `email_keys` and deleting
  // `replaced`'s rows whose key (the arrival date) changes.
  void AddEmailEntries(const Reservation& reservation, const Reservation* replaced,
                       const std::vector<std::string>& email_keys,
                       std::vector<cql::BatchEntry>& entries) const;
  // The batch entries writing `reservation`'s rows of `stays_by_hotel_date` (one per day of
  // [check_in, check_out]) and deleting `replaced`'s rows the new ones do not overwrite.
  void AddStayEntries(const Reservation& reservation, const Reservation* replaced,
                      std::vector<cql::BatchEntry>& entries) const;
  common::Result<cql::ResultSet> Run(const Prepared& statement,
                                     std::vector<cql::BoundValue> values);
  // One page of a SELECT (paging.h, invariants 1 and 3): `page.page_size` rows from
  // `page.paging_state` (every row when 0). A paging state the database refuses, or a page
  // size outside [0, kMaxPageSize], is CursorRefused / kInvalid; other errors as Run.
  common::Result<cql::ResultSet> RunPage(const Prepared& statement,
                                         std::vector<cql::BoundValue> values,
                                         const PageRequest& page);
  // `timestamp`: the batch's write time in microseconds (default: the database's clock).
  common::Result<cql::ResultSet> RunBatch(cql::BatchType type, std::vector<cql::BatchEntry> entries,
                                          std::optional<int64_t> timestamp = std::nullopt);
  std::vector<cql::BoundValue> ReservationValues(const Reservation& reservation) const;
  // The nights grouped by availability partition, in ascending order: one group when
  // unbucketed, one per month otherwise.
  std::vector<std::vector<Day>> GroupByPartition(const std::vector<Day>& nights) const;
  // hotel_id, [month,] date: the leading key values of a night's row.
  void AppendNightKey(std::vector<cql::BoundValue>& values, const std::string& hotel_id,
                      Day date) const;
  // Reads [first, last) of one availability partition (REQUIRES: one month when bucketed).
  common::Status ReadNights(const std::string& hotel_id, Day first, Day last,
                            std::vector<RoomNight>& out);
  // Appends every row of `rows` decoded as a night to `out`.
  static common::Status AppendNights(const cql::ResultSet& rows, std::vector<RoomNight>& out);
  // Records (hotel_id, month) in `availability_months_by_hotel` unless already recorded by
  // this repository.
  common::Status NoteMonth(const std::string& hotel_id, int32_t month);
  common::Result<bool> ClaimPartition(const std::string& hotel_id, int16_t room_number,
                                      const std::vector<Day>& nights,
                                      const std::string& confirmation, int64_t now_millis);
  common::Result<int> ReleasePartition(const std::string& hotel_id, int16_t room_number,
                                       const std::vector<Day>& nights,
                                       const std::string& confirmation);
  // Every row of a SELECT without partition restriction, fetched in pages.
  common::Result<std::vector<cql::ResultSet>> RunAllPages(const Prepared& statement);
  // The first column of every row of such a SELECT, as text.
  common::Result<std::vector<std::string>> AllTexts(const Prepared& statement);

  cql::Session* session_;
  Keyspaces keyspaces_;
  AvailabilityBucketing bucketing_ = AvailabilityBucketing::kNone;
  std::mutex noted_mutex_;
  std::set<std::pair<std::string, int32_t>> noted_months_;  // GUARDED_BY(noted_mutex_)

  Prepared list_pois_, hotels_by_poi_, find_hotel_, pois_by_hotel_, room_nights_, room_night_,
      room_nights_of_room_, find_room_, rooms_by_hotel_, find_reservation_, by_hotel_date_,
      by_hotel_date_name_, by_guest_, by_guest_first_, find_guest_, history_;
  Prepared insert_poi_, set_poi_description_, insert_hotel_, insert_hotel_by_poi_,
      insert_poi_by_hotel_, insert_room_, set_room_statics_, insert_amenity_, delete_amenities_,
      write_night_, open_night_;
  Prepared reserve_confirmation_, delete_pending_, claim_night_, release_night_,
      insert_by_confirmation_, insert_by_hotel_date_, insert_by_guest_, insert_history_,
      delete_by_hotel_date_, delete_by_guest_, insert_guest_;
  // The month-bucketed variants of the availability statements (a `month` key after hotel_id).
  Prepared room_nights_month_, room_night_month_, room_nights_of_room_month_, write_night_month_,
      open_night_month_, claim_night_month_, release_night_month_, note_month_, list_months_;
  Prepared list_hotel_ids_, pending_confirmations_;
  Prepared list_hotels_, stays_by_hotel_date_, insert_stay_, delete_stay_, set_rate_,
      set_rate_month_;
  Prepared find_staff_user_, insert_staff_user_, set_staff_password_, delete_staff_user_,
      list_staff_users_;
  Prepared by_guest_email_, insert_by_guest_email_, delete_by_guest_email_, list_reservations_;
  Prepared insert_notification_, notifications_in_hour_, claim_notification_,
      notification_delivered_, notification_retry_, notification_given_up_,
      notification_checkpoint_, set_notification_checkpoint_;
};

}  // namespace hotel
