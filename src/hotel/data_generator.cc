#include "hotel/data_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <set>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

namespace hotel {

namespace {

struct City {
  std::string_view name;
  std::string_view region;
  std::string_view country;
  std::string_view code;   // hotel id prefix
  std::string_view phone;  // prefix
  std::array<std::string_view, 3> landmarks;
};

constexpr std::array<City, 10> kCities = {{
    {"Paris", "Ile-de-France", "France", "PA", "+33 1", {"Eiffel Tower", "Louvre", "Montmartre"}},
    {"London",
     "England",
     "United Kingdom",
     "LO",
     "+44 20",
     {"British Museum", "Tower Bridge", "Hyde Park"}},
    {"Rome", "Lazio", "Italy", "RM", "+39 06", {"Colosseum", "Pantheon", "Trevi Fountain"}},
    {"Barcelona",
     "Catalonia",
     "Spain",
     "BC",
     "+34 93",
     {"Sagrada Familia", "Park Guell", "La Rambla"}},
    {"Amsterdam",
     "North Holland",
     "Netherlands",
     "AM",
     "+31 20",
     {"Rijksmuseum", "Vondelpark", "Anne Frank House"}},
    {"Berlin",
     "Berlin",
     "Germany",
     "BE",
     "+49 30",
     {"Brandenburg Gate", "Museum Island", "East Side Gallery"}},
    {"New York",
     "NY",
     "USA",
     "NY",
     "+1 212",
     {"Central Park", "Empire State Building", "Statue of Liberty"}},
    {"San Francisco",
     "CA",
     "USA",
     "SF",
     "+1 415",
     {"Golden Gate Bridge", "Alcatraz", "Fisherman's Wharf"}},
    {"Vienna",
     "Vienna",
     "Austria",
     "VI",
     "+43 1",
     {"Schonbrunn Palace", "St. Stephen's Cathedral", "Prater"}},
    {"Prague",
     "Prague",
     "Czechia",
     "PR",
     "+420 2",
     {"Charles Bridge", "Prague Castle", "Old Town Square"}},
}};

constexpr std::array<std::string_view, 8> kPoiKinds = {
    "Museum", "Park", "Market", "Theatre", "Gallery", "Gardens", "Harbour", "Old Library"};
constexpr std::array<std::string_view, 8> kPoiDescriptions = {
    "Collections spanning five centuries, open daily",
    "Green space with lakes, paths and summer concerts",
    "Covered market with local food and crafts",
    "Historic stage with a full season of plays",
    "Contemporary art in a converted warehouse",
    "Formal gardens with a rose collection",
    "Waterfront promenade with boat tours",
    "Reading rooms under a painted ceiling"};
constexpr std::array<std::string_view, 10> kHotelWords = {
    "Grand", "Royal", "Garden",  "Riverside", "Central",
    "Plaza", "Park",  "Harbour", "Metropole", "Boutique"};
constexpr std::array<std::string_view, 8> kStreets = {
    "Main Street",   "Station Road", "Market Square", "River Walk",
    "King's Avenue", "Park Lane",    "Church Street", "Harbour Road"};
constexpr std::array<std::string_view, 16> kFirstNames = {
    "Mai",    "Lucas", "Emma",  "Noah", "Olivia", "Liam",  "Sofia",  "Mateo",
    "Amelia", "Hugo",  "Chloe", "Leon", "Yuki",   "Arjun", "Fatima", "Elena"};
constexpr std::array<std::string_view, 16> kLastNames = {
    "Nguyen", "Smith", "Garcia", "Muller", "Rossi",  "Dubois", "Kowalski", "Tanaka",
    "Patel",  "Silva", "Jensen", "Novak",  "Haddad", "Okafor", "Larsen",   "Moreau"};

struct RoomType {
  std::string_view name;
  Cents base;  // base nightly rate
};
constexpr std::array<RoomType, 4> kRoomTypes = {
    {{"single", 8900}, {"double", 12900}, {"twin", 11900}, {"suite", 24900}}};
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kAmenities = {{
    {"wifi", "Free high-speed wifi"},
    {"minibar", "Stocked daily"},
    {"coffee", "Espresso machine"},
    {"bath", "Bathtub and rain shower"},
    {"view", "View over the city"},
    {"desk", "Work desk with lamp"},
}};

// A well-mixed 64-bit seed for the generator of item `index` of `stream` (splitmix64's
// finalizer), so every hotel and guest has its own independent sequence.
uint64_t SeedFor(uint64_t seed, uint64_t stream, uint64_t index) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream * 0x100000001ULL + index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

enum Stream : uint64_t { kHotelStream = 1, kGuestStream = 2, kReservationStream = 3 };

// Guests are generated in chunks of this many, one generator per chunk.
constexpr int kGuestsPerChunk = 256;

class Picker {
 public:
  explicit Picker(uint64_t seed) : random_(seed) {}
  // Uniform in [0, size). REQUIRES: size > 0.
  size_t operator()(size_t size) {
    return static_cast<size_t>(std::uniform_int_distribution<size_t>(0, size - 1)(random_));
  }
  std::mt19937_64& random() { return random_; }

 private:
  std::mt19937_64 random_;
};

int16_t RoomNumber(int index) {
  return static_cast<int16_t>(100 * (1 + index / 10) + 1 + index % 10);
}

// "YYYY-MM" of a day, to keep batches inside one month.
int64_t MonthOf(Day day) {
  std::string text = FormatDay(day);
  return std::stoll(text.substr(0, 4)) * 12 + std::stoll(text.substr(5, 2));
}

// Runs task(0) .. task(count - 1) on `threads` threads (each index once, in increasing order
// per thread); the calling thread calls `tick` every `interval_millis` until they finish.
// Returns the first error; after an error no new index starts.
common::Status RunParallel(int count, int threads, const std::function<common::Status(int)>& task,
                           const std::function<void()>& tick, int interval_millis) {
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable finished_cv;
  int running = std::max(1, std::min(threads, count));
  common::Status first_error;  // GUARDED_BY(mutex)
  auto work = [&] {
    while (!failed.load()) {
      int index = next.fetch_add(1);
      if (index >= count) break;
      common::Status status = task(index);
      if (!status.ok()) {
        std::lock_guard<std::mutex> lock(mutex);
        if (first_error.ok()) first_error = status;
        failed = true;
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    finished_cv.notify_all();
  };
  if (count <= 0) return common::Status::Ok();
  std::vector<std::thread> workers;
  int started = running;
  for (int i = 0; i < started; ++i) workers.emplace_back(work);
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      finished_cv.wait_for(lock, std::chrono::milliseconds(interval_millis));
      if (running > 0 && tick) {
        lock.unlock();
        tick();
        lock.lock();
      }
    }
  }
  for (std::thread& worker : workers) worker.join();
  return first_error;
}

// `hotel load`'s sink: the repository's writes and the service's bookings.
class RepositorySink : public GeneratorSink {
 public:
  RepositorySink(Repository& repository, HotelService& service)
      : repository_(repository), service_(service) {}
  common::Status InsertPoi(const Poi& poi) override { return repository_.InsertPoi(poi); }
  common::Status InsertHotel(const Hotel& hotel, const std::vector<Poi>& pois) override {
    return repository_.InsertHotel(hotel, pois).status();  // false: exists, keep it
  }
  common::Status InsertRoom(const std::string& hotel_id, const Room& room) override {
    return repository_.InsertRoom(hotel_id, room);
  }
  common::Status WriteNights(const std::string& hotel_id,
                             const std::vector<RoomNight>& nights) override {
    return repository_.WriteNights(hotel_id, nights);
  }
  common::Status UpsertGuest(const Guest& guest) override { return repository_.UpsertGuest(guest); }
  common::Status Book(const BookingRequest& request) override {
    return service_.Book(request).status();
  }

 private:
  Repository& repository_;
  HotelService& service_;
};

// What every worker shares.
struct LoadState {
  GeneratorSink& sink;
  const GeneratorOptions& options;
  Day first_day;
  std::vector<std::vector<Poi>> pois_by_city;
  std::atomic<int64_t> rows{0};
  std::atomic<int64_t> availability_rows{0};
  std::atomic<int> reservations{0};
};

common::Status WritePois(LoadState& state) {
  const GeneratorOptions& options = state.options;
  Picker pick(SeedFor(options.seed, 0, 0));
  state.pois_by_city.assign(kCities.size(), {});
  for (int i = 0; i < options.pois; ++i) {
    size_t city = static_cast<size_t>(i) % kCities.size();
    size_t round = static_cast<size_t>(i) / kCities.size();
    Poi poi;
    if (round < 3) {
      poi.name = std::string(kCities[city].landmarks[round]);
      poi.description = fmt::format("Landmark of {}", kCities[city].name);
    } else {
      size_t kind = pick(kPoiKinds.size());
      poi.name = fmt::format("{} {} {}", kCities[city].name, kPoiKinds[kind], round - 2);
      poi.description = std::string(kPoiDescriptions[kind]);
    }
    RETURN_IF_ERROR(state.sink.InsertPoi(poi));
    state.rows += 2;  // the directory row and the Q1 partition's static description
    state.pois_by_city[city].push_back(std::move(poi));
  }
  return common::Status::Ok();
}

std::string HotelId(int index) {
  return fmt::format("{}{:03}", kCities[static_cast<size_t>(index) % kCities.size()].code,
                     100 + index);
}

// One hotel: its row and POI links, its rooms, and its nights in partition-sized batches.
common::Status WriteHotel(LoadState& state, int index) {
  const GeneratorOptions& options = state.options;
  Picker pick(SeedFor(options.seed, kHotelStream, static_cast<uint64_t>(index)));
  size_t city = static_cast<size_t>(index) % kCities.size();
  const City& where = kCities[city];
  Hotel hotel;
  hotel.hotel_id = HotelId(index);
  hotel.name = fmt::format("Hotel {} {}", kHotelWords[pick(kHotelWords.size())], where.name);
  hotel.phone = fmt::format("{} {:04} {:04}", where.phone, pick(10000), pick(10000));
  hotel.address = {fmt::format("{} {}", 1 + pick(200), kStreets[pick(kStreets.size())]),
                   std::string(where.name), std::string(where.region),
                   fmt::format("{:05}", 10000 + pick(89999)), std::string(where.country)};
  // Near: two of the city's POIs in rotation, sometimes a third at random.
  const std::vector<Poi>& city_pois = state.pois_by_city[city];
  std::vector<Poi> near;
  if (!city_pois.empty()) {
    size_t count = city_pois.size();
    size_t first = static_cast<size_t>(index) / kCities.size() % count;
    near.push_back(city_pois[first]);
    if (count > 1) near.push_back(city_pois[(first + 1) % count]);
    size_t extra = pick(count);
    if (count > 2 && pick(3) == 0 && extra != first && extra != (first + 1) % count) {
      near.push_back(city_pois[extra]);
    }
  }
  std::sort(near.begin(), near.end(), [](const Poi& a, const Poi& b) { return a.name < b.name; });
  for (const Poi& poi : near) hotel.pois.push_back(poi.name);
  RETURN_IF_ERROR(state.sink.InsertHotel(hotel, near));
  state.rows += 1 + 2 * static_cast<int64_t>(near.size());

  std::vector<Room> rooms(static_cast<size_t>(options.rooms_per_hotel));
  for (int r = 0; r < options.rooms_per_hotel; ++r) {
    Room& room = rooms[static_cast<size_t>(r)];
    room.room_number = RoomNumber(r);
    const RoomType& type = kRoomTypes[pick(kRoomTypes.size())];
    room.room_type = std::string(type.name);
    room.base_rate = type.base + static_cast<Cents>(pick(5)) * 1000;
    for (const auto& [name, description] : kAmenities) {
      if (pick(2) == 0) room.amenities.push_back({std::string(name), std::string(description)});
    }
    RETURN_IF_ERROR(state.sink.InsertRoom(hotel.hotel_id, room));
    state.rows += 2 + static_cast<int64_t>(room.amenities.size());
  }

  // Whole days per batch, never across a month.
  int days_per_batch = std::max(1, options.rows_per_batch / options.rooms_per_hotel);
  std::vector<RoomNight> batch;
  batch.reserve(static_cast<size_t>(days_per_batch * options.rooms_per_hotel));
  Day end = state.first_day + options.days;
  for (Day day = state.first_day; day < end;) {
    int64_t month = MonthOf(day);
    batch.clear();
    for (int d = 0; d < days_per_batch && day < end && MonthOf(day) == month; ++d, ++day) {
      int64_t weekday = ((day + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday; 5, 6 = Fri, Sat
      bool weekend = weekday == 5 || weekday == 6;
      for (const Room& room : rooms) {
        Cents rate = room.base_rate + (weekend ? room.base_rate / 5 : 0);
        batch.push_back({day, room.room_number, true, rate, room.room_type, "", 0});
      }
    }
    RETURN_IF_ERROR(state.sink.WriteNights(hotel.hotel_id, batch));
    state.rows += static_cast<int64_t>(batch.size());
    state.availability_rows += static_cast<int64_t>(batch.size());
  }
  return common::Status::Ok();
}

Guest MakeGuest(Picker& pick, int index) {
  Guest guest;
  guest.guest_id = common::Uuid::Random(pick.random());
  guest.first_name = std::string(kFirstNames[pick(kFirstNames.size())]);
  guest.last_name = std::string(kLastNames[pick(kLastNames.size())]);
  guest.title = pick(2) == 0 ? "Ms." : "Mr.";
  guest.emails = {fmt::format("{}.{}{}@example.com", FoldName(guest.first_name),
                              FoldName(guest.last_name), index)};
  guest.phone_numbers = {fmt::format("+1 555 {:04}", pick(10000))};
  const City& home = kCities[pick(kCities.size())];
  guest.addresses["home"] = {fmt::format("{} {}", 1 + pick(300), kStreets[pick(kStreets.size())]),
                             std::string(home.name), std::string(home.region),
                             fmt::format("{:05}", 10000 + pick(89999)), std::string(home.country)};
  return guest;
}

}  // namespace

common::Result<GeneratorOptions> GeneratorOptionsForScale(const std::string& scale) {
  if (scale == "small") return GeneratorOptions();
  if (scale == "seed") {
    GeneratorOptions options;
    options.hotels = 5000;
    options.rooms_per_hotel = 100;
    options.days = 730;
    options.pois = 500;
    options.guests = 100000;
    options.reservations = 20000;
    return options;
  }
  return common::Status::Invalid("Unknown scale '" + scale + "' (known: small, seed)");
}

common::Status ValidateGeneratorOptions(const GeneratorOptions& options) {
  auto bad = [](const char* field, const char* rule) {
    return common::Status::Invalid(fmt::format("{} must be {}", field, rule));
  };
  if (options.hotels < 0 || options.hotels > 1000000) return bad("hotels", "0 to 1000000");
  if (options.rooms_per_hotel < 1 || options.rooms_per_hotel > 3000) {
    return bad("rooms", "1 to 3000");
  }
  if (options.days < 0 || options.days > 3660) return bad("days", "0 to 3660");
  if (options.pois < 0 || options.pois > 1000000) return bad("pois", "0 to 1000000");
  if (options.guests < 0) return bad("guests", "at least 0");
  if (options.reservations < 0) return bad("reservations", "at least 0");
  if (options.threads < 1 || options.threads > 64) return bad("threads", "1 to 64");
  if (options.rows_per_batch < 1 || options.rows_per_batch > 65535) {
    return bad("rows_per_batch", "1 to 65535");
  }
  if (options.hotels > 0 && options.pois < 1) return bad("pois", "at least 1 with hotels");
  return common::Status::Ok();
}

int64_t PlannedRows(const GeneratorOptions& options) {
  int64_t hotels = options.hotels;
  int64_t rooms = hotels * options.rooms_per_hotel;
  return 2 * int64_t{options.pois} + hotels * 6 + rooms * 5 + rooms * options.days +
         options.guests + 3 * int64_t{options.reservations};
}

common::Result<GeneratorReport> Generate(Repository& repository, HotelService& service,
                                         const GeneratorOptions& options) {
  RepositorySink sink(repository, service);
  return Generate(sink, options);
}

common::Result<GeneratorReport> Generate(GeneratorSink& sink, const GeneratorOptions& options) {
  RETURN_IF_ERROR(ValidateGeneratorOptions(options));
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  LoadState state{sink, options, options.first_day != 0 ? options.first_day : Today(), {}, {},
                  {},   {}};
  int64_t planned = PlannedRows(options);
  auto tick = [&] {
    if (options.progress) options.progress({state.rows.load(), planned, elapsed(), false});
  };
  int threads = options.threads;
  int interval = std::max(10, options.progress_interval_millis);

  RETURN_IF_ERROR(WritePois(state));
  RETURN_IF_ERROR(RunParallel(
      options.hotels, threads, [&](int index) { return WriteHotel(state, index); }, tick,
      interval));
  double availability_seconds = elapsed();

  // Guests, in chunks with a generator each.
  std::vector<common::Uuid> guests(static_cast<size_t>(options.guests));
  int guest_chunks = (options.guests + kGuestsPerChunk - 1) / kGuestsPerChunk;
  RETURN_IF_ERROR(RunParallel(
      guest_chunks, threads,
      [&](int chunk) -> common::Status {
        Picker pick(SeedFor(options.seed, kGuestStream, static_cast<uint64_t>(chunk)));
        int end = std::min(options.guests, (chunk + 1) * kGuestsPerChunk);
        for (int g = chunk * kGuestsPerChunk; g < end; ++g) {
          Guest guest = MakeGuest(pick, g);
          RETURN_IF_ERROR(sink.UpsertGuest(guest));
          ++state.rows;
          guests[static_cast<size_t>(g)] = guest.guest_id;
        }
        return common::Status::Ok();
      },
      tick, interval));

  // Reservations: drawn in one sequence, booked per hotel in that order (thread t books the
  // hotels with index % threads == t), so the same ones succeed whatever the timing.
  struct Draw {
    int hotel = 0;
    BookingRequest request;
  };
  std::vector<Draw> draws;
  if (options.hotels > 0 && options.guests > 0) {
    Picker pick(SeedFor(options.seed, kReservationStream, 0));
    draws.reserve(static_cast<size_t>(options.reservations));
    // Stays are drawn so that no two hold the same room-night: every drawn reservation is
    // booked, and the sample has exactly `reservations` of them. A stay that would overlap
    // one drawn before is drawn again (a few times at most: the sample is sparse).
    std::set<std::tuple<int, int, Day>> taken;  // (hotel, room, night)
    constexpr int kAttempts = 16;
    for (int i = 0; i < options.reservations; ++i) {
      for (int attempt = 0; attempt < kAttempts; ++attempt) {
        Draw draw;
        draw.hotel = static_cast<int>(pick(static_cast<size_t>(options.hotels)));
        const int room = static_cast<int>(pick(static_cast<size_t>(options.rooms_per_hotel)));
        BookingRequest& request = draw.request;
        request.hotel_id = HotelId(draw.hotel);
        request.room_number = RoomNumber(room);
        request.check_in =
            state.first_day +
            static_cast<Day>(pick(static_cast<size_t>(std::max(1, options.days - 7))));
        request.check_out = request.check_in + 1 + static_cast<Day>(pick(5));
        request.guest_id = guests[pick(guests.size())];
        request.notify = false;  // sample data: no email is owed to a generated guest
        bool free = true;
        for (Day night = request.check_in; night < request.check_out && free; ++night) {
          free = taken.count({draw.hotel, room, night}) == 0;
        }
        if (!free) continue;
        for (Day night = request.check_in; night < request.check_out; ++night) {
          taken.insert({draw.hotel, room, night});
        }
        draws.push_back(std::move(draw));
        break;
      }
    }
  }
  int booking_threads = std::min(threads, std::max(1, options.hotels));
  RETURN_IF_ERROR(RunParallel(
      booking_threads, booking_threads,
      [&](int thread) -> common::Status {
        for (const Draw& draw : draws) {
          if (draw.hotel % booking_threads != thread) continue;
          common::Status booked = sink.Book(draw.request);
          if (booked.ok()) {
            ++state.reservations;
            state.rows += 3;
          } else if (booked.code() != common::StatusCode::kWriteFailure) {
            return booked;
          }
        }
        return common::Status::Ok();
      },
      tick, interval));

  GeneratorReport report;
  report.rows = state.rows.load();
  report.availability_rows = state.availability_rows.load();
  report.reservations = state.reservations.load();
  report.seconds = elapsed();
  report.availability_seconds = availability_seconds;
  if (options.progress) options.progress({report.rows, planned, report.seconds, true});
  return report;
}

}  // namespace hotel
