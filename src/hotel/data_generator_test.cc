#include "hotel/data_generator.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <string>

#include "hotel/hotel_testing.h"
#include "hotel/progress_bar.h"

namespace hotel {
namespace {

TEST(GeneratorOptionsTest, ScalesAndValidation) {
  auto seed = GeneratorOptionsForScale("seed");
  ASSERT_TRUE(seed.ok());
  EXPECT_EQ(int64_t{seed->hotels} * seed->rooms_per_hotel * seed->days, 365000000);
  EXPECT_TRUE(ValidateGeneratorOptions(*seed).ok());
  auto small = GeneratorOptionsForScale("small");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->hotels, 20);
  EXPECT_EQ(GeneratorOptionsForScale("huge").status().code(), common::StatusCode::kInvalid);

  GeneratorOptions options;
  options.rooms_per_hotel = 0;
  EXPECT_EQ(ValidateGeneratorOptions(options).code(), common::StatusCode::kInvalid);
  options = GeneratorOptions();
  options.threads = 0;
  EXPECT_FALSE(ValidateGeneratorOptions(options).ok());
  options = GeneratorOptions();
  options.pois = 0;
  EXPECT_FALSE(ValidateGeneratorOptions(options).ok());
  options.hotels = 0;
  EXPECT_TRUE(ValidateGeneratorOptions(options).ok());
  options = GeneratorOptions();
  options.rows_per_batch = 0;
  EXPECT_FALSE(ValidateGeneratorOptions(options).ok());
}

TEST(ProgressBarTest, Formats) {
  EXPECT_EQ(FormatCount(-5), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(12345), "12.3k");
  EXPECT_EQ(FormatCount(182500000), "182.5M");
  EXPECT_EQ(FormatCount(2.1e9), "2.1G");
  EXPECT_EQ(FormatDuration(42), "42s");
  EXPECT_EQ(FormatDuration(443), "7m23s");
  EXPECT_EQ(FormatDuration(7500), "2h05m");
  EXPECT_EQ(FormatDuration(-1), "?");
  EXPECT_EQ(FormatProgress(0, 1000, 0, false, 4), "[....]  0/1.0k rows  0 rows/s  ETA ?");
  // Half done in 10 s: 50 rows/s, 10 s to go.
  EXPECT_EQ(FormatProgress(500, 1000, 10, false, 4), "[##..]  500/1.0k rows  50 rows/s  ETA 10s");
  EXPECT_EQ(FormatProgress(2000, 1000, 10, false, 0), "2.0k/1.0k rows  200 rows/s  ETA 0s");
  EXPECT_EQ(FormatProgress(990, 1000, 3, true, 2), "[##]  990/1.0k rows  330 rows/s  done in 3s");
}

class GeneratorTest : public HotelTest {
 protected:
  static GeneratorOptions Tiny(int threads) {
    GeneratorOptions options;
    options.hotels = 7;
    options.rooms_per_hotel = 6;
    options.pois = 25;
    options.days = 40;  // crosses a month boundary
    options.guests = 30;
    options.reservations = 20;
    options.first_day = D("2030-01-20");
    options.threads = threads;
    options.rows_per_batch = 50;
    return options;
  }
};

TEST_F(GeneratorTest, WritesEveryNightAndReportsProgress) {
  GeneratorOptions options = Tiny(3);
  std::vector<GeneratorProgress> calls;
  options.progress = [&](const GeneratorProgress& progress) { calls.push_back(progress); };
  auto report = Generate(*repository_, *service_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->availability_rows, 7 * 6 * 40);
  EXPECT_EQ(report->reservations, 20);  // every drawn stay is booked: none overlap
  ASSERT_FALSE(calls.empty());
  EXPECT_TRUE(calls.back().finished);
  EXPECT_EQ(calls.back().rows_done, report->rows);
  EXPECT_EQ(calls.back().rows_total, PlannedRows(options));
  // Every hotel has every night of every room; the reservations hold some of them.
  int64_t nights = 0;
  int64_t held = 0;
  for (const char* id : {"PA100", "LO101", "RM102", "BC103", "AM104", "BE105", "NY106"}) {
    auto hotel_nights = repository_->RoomNights(id, D("2030-01-20"), D("2030-03-01"));
    ASSERT_TRUE(hotel_nights.ok()) << hotel_nights.status().ToString();
    nights += static_cast<int64_t>(hotel_nights->size());
    for (const RoomNight& night : *hotel_nights) held += night.is_available ? 0 : 1;
  }
  EXPECT_EQ(nights, 7 * 6 * 40);
  EXPECT_GE(held, report->reservations);  // at least one night each
  // A weekend night costs a fifth more than the room's base rate.
  auto friday = repository_->FindRoomNight("PA100", D("2030-01-25"), 101);  // a Friday
  auto monday = repository_->FindRoomNight("PA100", D("2030-01-28"), 101);
  ASSERT_TRUE(friday.ok() && friday->has_value());
  ASSERT_TRUE(monday.ok() && monday->has_value());
  EXPECT_EQ((*friday)->rate, (*monday)->rate + (*monday)->rate / 5);
  EXPECT_EQ(service_->ListPois()->size(), 25u);
}

// A freshly loaded night that nobody holds has no held_by/held_at cells at all: writing them
// as null would leave two tombstones per room-night, thousands per availability partition,
// which every Q4 read would scan (and Cassandra would warn about).
class GeneratorTombstoneTest : public GeneratorTest {
 protected:
  GeneratorTombstoneTest() { database_options_.tombstone_warn_threshold = 1; }
};

TEST_F(GeneratorTombstoneTest, FreeNightsWriteNoTombstones) {
  GeneratorOptions options = Tiny(1);
  options.reservations = 0;
  ASSERT_TRUE(Generate(*repository_, *service_, options).ok());
  auto rows = session_->Execute(
      "SELECT room_number, held_by FROM t_hotel.available_rooms_by_hotel_date "
      "WHERE hotel_id = 'PA100'");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->row_count(), 6u * 40u);
  EXPECT_TRUE(rows->warnings().empty()) << rows->warnings().front();
}

// The data do not depend on the number of writer threads: the same seed in two keyspaces, one
// loaded by 1 thread and one by 4, reads back the same.
TEST_F(GeneratorTest, DeterministicWhateverTheThreads) {
  auto other_keyspaces = KeyspacesForPrefix("u_");
  ASSERT_TRUE(other_keyspaces.ok());
  ASSERT_TRUE(CreateServiceSchema(*session_, "u_").ok());
  auto other_repository = Repository::Create(session_.get(), *other_keyspaces);
  ASSERT_TRUE(other_repository.ok());
  HotelServiceOptions service_options;
  service_options.seed = 7;
  HotelService other_service(other_repository->get(), service_options);

  auto first = Generate(*repository_, *service_, Tiny(1));
  auto second = Generate(**other_repository, other_service, Tiny(4));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(first->rows, second->rows);
  EXPECT_EQ(first->reservations, second->reservations);
  for (const char* id : {"PA100", "LO101", "RM102", "BC103", "AM104", "BE105", "NY106"}) {
    auto a = repository_->FindHotel(id);
    auto b = (*other_repository)->FindHotel(id);
    ASSERT_TRUE(a.ok() && a->has_value()) << id;
    ASSERT_TRUE(b.ok() && b->has_value()) << id;
    EXPECT_EQ(**a, **b) << id;
    auto rooms_a = repository_->RoomsByHotel(id);
    auto rooms_b = (*other_repository)->RoomsByHotel(id);
    ASSERT_TRUE(rooms_a.ok() && rooms_b.ok());
    ASSERT_EQ(rooms_a->size(), 6u);
    ASSERT_EQ(rooms_b->size(), 6u);
    for (size_t r = 0; r < rooms_a->size(); ++r) {
      EXPECT_EQ((*rooms_a)[r].room_type, (*rooms_b)[r].room_type);
      EXPECT_EQ((*rooms_a)[r].base_rate, (*rooms_b)[r].base_rate);
    }
    auto nights_a = repository_->RoomNights(id, D("2030-01-20"), D("2030-03-01"));
    auto nights_b = (*other_repository)->RoomNights(id, D("2030-01-20"), D("2030-03-01"));
    ASSERT_TRUE(nights_a.ok() && nights_b.ok());
    ASSERT_EQ(nights_a->size(), nights_b->size());
    for (size_t n = 0; n < nights_a->size(); ++n) {
      EXPECT_EQ((*nights_a)[n].rate, (*nights_b)[n].rate);
      EXPECT_EQ((*nights_a)[n].is_available, (*nights_b)[n].is_available);
    }
  }
}

// A sink that records every call as a line of text (thread-safe, as the generator requires).
class RecordingSink : public GeneratorSink {
 public:
  common::Status InsertPoi(const Poi& poi) override {
    return Record("poi " + poi.name + " | " + poi.description);
  }
  common::Status InsertHotel(const Hotel& hotel, const std::vector<Poi>& pois) override {
    std::string line = "hotel " + hotel.hotel_id + " " + hotel.name + " " + hotel.address.city;
    for (const Poi& poi : pois) line += " | " + poi.name;
    return Record(line);
  }
  common::Status InsertRoom(const std::string& hotel_id, const Room& room) override {
    return Record(fmt::format("room {} {} {} {} {}", hotel_id, room.room_number, room.room_type,
                              room.base_rate, room.amenities.size()));
  }
  common::Status WriteNights(const std::string& hotel_id,
                             const std::vector<RoomNight>& nights) override {
    for (const RoomNight& night : nights) {
      if (!night.is_available || !night.held_by.empty()) {
        return common::Status::Internal("a loaded night is not free");
      }
      RETURN_IF_ERROR(Record(fmt::format("night {} {} {} {}", hotel_id, FormatDay(night.date),
                                         night.room_number, night.rate)));
    }
    return common::Status::Ok();
  }
  common::Status UpsertGuest(const Guest& guest) override {
    return Record("guest " + guest.guest_id.ToString() + " " + guest.last_name);
  }
  common::Status Book(const BookingRequest& request) override {
    if (fail_bookings_) return common::Status::Internal("disk on fire");
    return Record(fmt::format("book {} {} {} {} {}", request.hotel_id, request.room_number,
                              FormatDay(request.check_in), FormatDay(request.check_out),
                              request.guest_id ? request.guest_id->ToString() : "-"));
  }

  // The recorded lines, sorted (writer threads interleave).
  std::multiset<std::string> lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }
  size_t Count(const std::string& kind) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t count = 0;
    for (const std::string& line : lines_) count += line.rfind(kind + " ", 0) == 0 ? 1 : 0;
    return count;
  }
  void FailBookings() { fail_bookings_ = true; }

 private:
  common::Status Record(std::string line) {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.insert(std::move(line));
    return common::Status::Ok();
  }
  std::mutex mutex_;
  std::multiset<std::string> lines_;  // GUARDED_BY(mutex_)
  bool fail_bookings_ = false;
};

// A sample for the sink tests: 12 POIs, 300 guests (more than one chunk), 15 reservations.
GeneratorOptions SinkSample(int hotels, int rooms, int days) {
  GeneratorOptions options;
  options.hotels = hotels;
  options.rooms_per_hotel = rooms;
  options.days = days;
  options.pois = 12;
  options.guests = 300;
  options.reservations = 15;
  options.first_day = *ParseDay("2030-01-20");
  options.rows_per_batch = 30;
  return options;
}

// The relational peer (bench/peer/) loads the sample through a sink: it must receive every row,
// the same ones whatever the number of writer threads.
TEST(GeneratorSinkTest, ReceivesTheSameSampleWhateverTheThreads) {
  GeneratorOptions options = SinkSample(5, 4, 35);
  RecordingSink one;
  options.threads = 1;
  auto report = Generate(one, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->availability_rows, 5 * 4 * 35);
  EXPECT_EQ(report->reservations, 15);
  EXPECT_EQ(one.Count("poi"), 12u);
  EXPECT_EQ(one.Count("hotel"), 5u);
  EXPECT_EQ(one.Count("room"), 20u);
  EXPECT_EQ(one.Count("night"), 5u * 4 * 35);
  EXPECT_EQ(one.Count("guest"), 300u);
  EXPECT_EQ(one.Count("book"), 15u);

  RecordingSink three;
  options.threads = 3;
  ASSERT_TRUE(Generate(three, options).ok());
  EXPECT_EQ(one.lines(), three.lines());

  RecordingSink other_seed;
  options.seed = 43;
  ASSERT_TRUE(Generate(other_seed, options).ok());
  EXPECT_NE(one.lines(), other_seed.lines());
}

TEST(GeneratorSinkTest, StopsAtTheSinksFirstError) {
  GeneratorOptions options = SinkSample(2, 2, 10);
  RecordingSink sink;
  sink.FailBookings();
  auto report = Generate(sink, options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), common::StatusCode::kInternal);
  EXPECT_EQ(sink.Count("night"), 2u * 2 * 10);  // what was written stays
}

}  // namespace
}  // namespace hotel
