// The availability half of Repository (repository.h): Q4/Q5 reads of the availability table,
// unbucketed or by month, availability writes, the per-partition claims and releases with
// their compensation, and the repair pass's background reads.

#include "hotel/repository.h"

#include <algorithm>
#include <map>

#include "hotel/repository_rows.h"

namespace hotel {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using repository_rows::Applied;
using repository_rows::BoolValue;
using repository_rows::DatabaseError;
using repository_rows::DayValue;
using repository_rows::IntValue;
using repository_rows::MoneyValue;
using repository_rows::RoomValue;
using repository_rows::RowView;
using repository_rows::TextValue;
using repository_rows::TimestampValue;

namespace {

Result<RoomNight> ReadRoomNight(const cql::ResultSet& rows, size_t i) {
  RowView row(rows, i);
  RoomNight night;
  night.date = row.Date(0);
  night.room_number = row.Room(1);
  night.is_available = row.Bool(2);
  night.rate = row.Money(3);
  night.room_type = row.Text(4);
  night.held_by = row.Text(5);
  night.held_at_millis = row.Timestamp(6);
  RETURN_IF_ERROR(row.status());
  return night;
}

}  // namespace

void Repository::AppendNightKey(std::vector<BoundValue>& values, const std::string& hotel_id,
                                Day date) const {
  values.push_back(TextValue(hotel_id));
  if (bucketing_ == AvailabilityBucketing::kMonth) values.push_back(IntValue(MonthOf(date)));
  values.push_back(DayValue(date));
}

std::vector<std::vector<Day>> Repository::GroupByPartition(const std::vector<Day>& nights) const {
  std::vector<Day> sorted = nights;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::vector<Day>> groups;
  for (Day night : sorted) {
    bool same = !groups.empty() && (bucketing_ == AvailabilityBucketing::kNone ||
                                    MonthOf(groups.back().front()) == MonthOf(night));
    if (!same) groups.emplace_back();
    groups.back().push_back(night);
  }
  return groups;
}

Status Repository::ReadNights(const std::string& hotel_id, Day first, Day last,
                              std::vector<RoomNight>& out) {
  std::vector<BoundValue> values;
  AppendNightKey(values, hotel_id, first);
  values.push_back(DayValue(last));
  bool month = bucketing_ == AvailabilityBucketing::kMonth;
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(month ? room_nights_month_ : room_nights_, std::move(values)));
  return AppendNights(rows, out);
}

Status Repository::AppendNights(const cql::ResultSet& rows, std::vector<RoomNight>& out) {
  out.reserve(out.size() + rows.row_count());
  for (size_t i = 0; i < rows.row_count(); ++i) {
    ASSIGN_OR_RETURN(RoomNight night, ReadRoomNight(rows, i));
    out.push_back(std::move(night));
  }
  return Status::Ok();
}

Result<std::vector<RoomNight>> Repository::RoomNightsOfRoom(const std::string& hotel_id,
                                                            int16_t room_number, Day first,
                                                            Day last) {
  std::vector<RoomNight> nights;
  bool month = bucketing_ == AvailabilityBucketing::kMonth;
  std::vector<Day> stay;
  for (Day day = first; day < last; ++day) stay.push_back(day);
  for (const std::vector<Day>& group : GroupByPartition(stay)) {
    std::vector<Bytes> dates;
    dates.reserve(group.size());
    for (Day day : group) dates.push_back(DayValue(day).bytes);
    std::vector<BoundValue> values;
    values.push_back(TextValue(hotel_id));
    if (month) values.push_back(IntValue(MonthOf(group.front())));
    values.push_back(BoundValue::Of(
        cql::SerializeCollection(cql::CqlType::List(cql::CqlType::Date()), std::move(dates))));
    values.push_back(RoomValue(room_number));
    ASSIGN_OR_RETURN(
        cql::ResultSet rows,
        Run(month ? room_nights_of_room_month_ : room_nights_of_room_, std::move(values)));
    RETURN_IF_ERROR(AppendNights(rows, nights));
  }
  return nights;
}

Result<std::vector<RoomNight>> Repository::RoomNights(const std::string& hotel_id, Day first,
                                                      Day last) {
  std::vector<RoomNight> nights;
  if (bucketing_ == AvailabilityBucketing::kNone) {
    RETURN_IF_ERROR(ReadNights(hotel_id, first, last, nights));
    return nights;
  }
  // One single-partition range read per month the range touches, in month order.
  for (Day start = first; start < last;) {
    Day end = std::min(last, NextMonthStart(start));
    RETURN_IF_ERROR(ReadNights(hotel_id, start, end, nights));
    start = end;
  }
  return nights;
}

Result<std::vector<RoomNight>> Repository::RoomNightsFrom(const std::string& hotel_id, Day first) {
  // Partition bounds that cover every date the service uses (up to 4841).
  constexpr Day kLastDay = 1 << 20;
  std::vector<RoomNight> nights;
  if (bucketing_ == AvailabilityBucketing::kNone) {
    RETURN_IF_ERROR(ReadNights(hotel_id, first, kLastDay, nights));
    return nights;
  }
  ASSIGN_OR_RETURN(cql::ResultSet months,
                   Run(list_months_, {TextValue(hotel_id), IntValue(MonthOf(first))}));
  for (size_t i = 0; i < months.row_count(); ++i) {
    RowView row(months, i);
    int32_t month = row.Int(0);
    RETURN_IF_ERROR(row.status());
    if (month / 100 < 1 || month % 100 < 1 || month % 100 > 12) {
      return Status::Internal(fmt::format("hotel: bad month bucket {}", month));
    }
    Day start = cql::DaysFromCivil(month / 100, month % 100, 1);
    RETURN_IF_ERROR(ReadNights(hotel_id, std::max(start, first), NextMonthStart(start), nights));
  }
  return nights;
}

Result<std::optional<RoomNight>> Repository::FindRoomNight(const std::string& hotel_id, Day date,
                                                           int16_t room_number) {
  std::vector<BoundValue> values;
  AppendNightKey(values, hotel_id, date);
  values.push_back(RoomValue(room_number));
  ASSIGN_OR_RETURN(
      cql::ResultSet rows,
      Run(bucketing_ == AvailabilityBucketing::kMonth ? room_night_month_ : room_night_,
          std::move(values)));
  if (rows.row_count() == 0) return std::optional<RoomNight>();
  ASSIGN_OR_RETURN(RoomNight night, ReadRoomNight(rows, 0));
  return std::optional<RoomNight>(std::move(night));
}

// --- Background reads ----------------------------------------------------------------------

Result<std::vector<cql::ResultSet>> Repository::RunAllPages(const Prepared& statement) {
  constexpr int32_t kPageSize = 1000;
  std::vector<cql::ResultSet> pages;
  std::optional<Bytes> paging_state;
  do {
    cql::QueryOptions options;
    options.consistency = cql::Consistency::kLocalQuorum;
    options.page_size = kPageSize;
    options.paging_state = std::move(paging_state);
    auto page = session_->ExecutePrepared(*statement, options);
    if (!page.ok()) return DatabaseError(page.status());
    paging_state = page->paging_state();
    pages.push_back(std::move(*page));
  } while (paging_state);
  return pages;
}

Result<std::vector<std::string>> Repository::AllTexts(const Prepared& statement) {
  ASSIGN_OR_RETURN(std::vector<cql::ResultSet> pages, RunAllPages(statement));
  std::vector<std::string> texts;
  for (const cql::ResultSet& page : pages) {
    for (size_t i = 0; i < page.row_count(); ++i) texts.push_back(RowView(page, i).Text(0));
  }
  return texts;
}

Result<std::vector<std::string>> Repository::ListHotelIds() { return AllTexts(list_hotel_ids_); }

Result<std::vector<Repository::PendingConfirmation>> Repository::PendingConfirmations() {
  ASSIGN_OR_RETURN(std::vector<cql::ResultSet> pages, RunAllPages(pending_confirmations_));
  std::vector<PendingConfirmation> pending;
  for (const cql::ResultSet& page : pages) {
    for (size_t i = 0; i < page.row_count(); ++i) {
      RowView row(page, i);
      PendingConfirmation item{row.Text(0), row.Timestamp(1)};
      RETURN_IF_ERROR(row.status());
      pending.push_back(std::move(item));
    }
  }
  return pending;
}

// --- Availability writes -----------------------------------------------------------------

Status Repository::NoteMonth(const std::string& hotel_id, int32_t month) {
  {
    std::lock_guard<std::mutex> lock(noted_mutex_);
    if (noted_months_.count({hotel_id, month}) != 0) return Status::Ok();
  }
  RETURN_IF_ERROR(Run(note_month_, {TextValue(hotel_id), IntValue(month)}));
  std::lock_guard<std::mutex> lock(noted_mutex_);
  noted_months_.insert({hotel_id, month});
  return Status::Ok();
}

Status Repository::WriteNights(const std::string& hotel_id, const std::vector<RoomNight>& nights) {
  if (nights.empty()) return Status::Ok();
  bool bucketed = bucketing_ == AvailabilityBucketing::kMonth;
  // One unlogged batch per availability partition (the whole list when unbucketed).
  std::map<int32_t, std::vector<cql::BatchEntry>> batches;
  for (const RoomNight& night : nights) {
    cql::BatchEntry entry;
    entry.prepared = bucketed ? write_night_month_ : write_night_;
    AppendNightKey(entry.values, hotel_id, night.date);
    for (BoundValue& value : std::vector<BoundValue>{
             RoomValue(night.room_number), BoolValue(night.is_available), MoneyValue(night.rate),
             TextValue(night.room_type),
             // Unset, not null, for a night nobody holds: a null is a tombstone cell, and
             // thousands of them per partition would slow every read of it (Q4).
             night.held_by.empty() ? BoundValue::Unset() : TextValue(night.held_by),
             night.held_by.empty() ? BoundValue::Unset() : TimestampValue(night.held_at_millis)}) {
      entry.values.push_back(std::move(value));
    }
    batches[bucketed ? MonthOf(night.date) : 0].push_back(std::move(entry));
  }
  for (auto& [month, entries] : batches) {
    // The month is recorded before its nights, so the repair pass never misses a partition.
    if (bucketed) RETURN_IF_ERROR(NoteMonth(hotel_id, month));
    RETURN_IF_ERROR(RunBatch(cql::BatchType::kUnlogged, std::move(entries)));
  }
  return Status::Ok();
}

Result<bool> Repository::OpenNightIfAbsent(const std::string& hotel_id, const RoomNight& night) {
  bool bucketed = bucketing_ == AvailabilityBucketing::kMonth;
  if (bucketed) RETURN_IF_ERROR(NoteMonth(hotel_id, MonthOf(night.date)));
  std::vector<BoundValue> values;
  AppendNightKey(values, hotel_id, night.date);
  values.push_back(RoomValue(night.room_number));
  values.push_back(MoneyValue(night.rate));
  values.push_back(TextValue(night.room_type));
  ASSIGN_OR_RETURN(cql::ResultSet result,
                   Run(bucketed ? open_night_month_ : open_night_, std::move(values)));
  return Applied(result);
}

// --- Claims and releases -------------------------------------------------------------------

Result<bool> Repository::ClaimPartition(const std::string& hotel_id, int16_t room_number,
                                        const std::vector<Day>& nights,
                                        const std::string& confirmation, int64_t now_millis) {
  bool bucketed = bucketing_ == AvailabilityBucketing::kMonth;
  std::vector<cql::BatchEntry> entries;
  for (Day night : nights) {
    cql::BatchEntry entry;
    entry.prepared = bucketed ? claim_night_month_ : claim_night_;
    entry.values = {TextValue(confirmation), TimestampValue(now_millis)};
    AppendNightKey(entry.values, hotel_id, night);
    entry.values.push_back(RoomValue(room_number));
    entries.push_back(std::move(entry));
  }
  ASSIGN_OR_RETURN(cql::ResultSet result, RunBatch(cql::BatchType::kLogged, std::move(entries)));
  return Applied(result);
}

Result<bool> Repository::ClaimNights(const std::string& hotel_id, int16_t room_number,
                                     const std::vector<Day>& nights,
                                     const std::string& confirmation, int64_t now_millis) {
  // Conditional batches may only span one partition: claim partition by partition, in month
  // order (every booker claims in the same order), and undo the earlier claims when a later one
  // fails.
  std::vector<std::vector<Day>> groups = GroupByPartition(nights);
  for (size_t i = 0; i < groups.size(); ++i) {
    Result<bool> claimed =
        ClaimPartition(hotel_id, room_number, groups[i], confirmation, now_millis);
    if (claimed.ok() && *claimed) continue;
    // Compensation: release what this call claimed (IF held_by = confirmation, so nothing
    // someone else holds is touched). If this fails too, the holds are orphans for the repair
    // pass. After a failed (not just rejected) claim the partition's state is unknown, so it is
    // released as well: releasing a night not held by us changes nothing.
    size_t claimed_groups = claimed.ok() ? i : i + 1;
    for (size_t j = 0; j < claimed_groups; ++j) {
      (void)ReleasePartition(hotel_id, room_number, groups[j], confirmation);
    }
    return claimed;
  }
  return true;
}

Result<int> Repository::ReleasePartition(const std::string& hotel_id, int16_t room_number,
                                         const std::vector<Day>& nights,
                                         const std::string& confirmation) {
  const Prepared& statement =
      bucketing_ == AvailabilityBucketing::kMonth ? release_night_month_ : release_night_;
  auto values_for = [&](Day night) {
    std::vector<BoundValue> values;
    AppendNightKey(values, hotel_id, night);
    values.push_back(RoomValue(room_number));
    values.push_back(TextValue(confirmation));
    return values;
  };
  std::vector<cql::BatchEntry> entries;
  for (Day night : nights) {
    cql::BatchEntry entry;
    entry.prepared = statement;
    entry.values = values_for(night);
    entries.push_back(std::move(entry));
  }
  ASSIGN_OR_RETURN(cql::ResultSet result, RunBatch(cql::BatchType::kLogged, std::move(entries)));
  if (Applied(result)) return static_cast<int>(nights.size());
  // Some night is no longer held by this confirmation (freed by a repair pass, say): free the
  // others one by one.
  int freed = 0;
  for (Day night : nights) {
    ASSIGN_OR_RETURN(cql::ResultSet one, Run(statement, values_for(night)));
    if (Applied(one)) ++freed;
  }
  return freed;
}

Result<int> Repository::ReleaseNights(const std::string& hotel_id, int16_t room_number,
                                      const std::vector<Day>& nights,
                                      const std::string& confirmation) {
  int freed = 0;
  for (const std::vector<Day>& group : GroupByPartition(nights)) {
    ASSIGN_OR_RETURN(int count, ReleasePartition(hotel_id, room_number, group, confirmation));
    freed += count;
  }
  return freed;
}

}  // namespace hotel
