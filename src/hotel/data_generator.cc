#include "hotel/data_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <random>
#include <string_view>
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

}  // namespace

common::Result<GeneratorOptions> GeneratorOptionsForScale(const std::string& scale) {
  if (scale == "small") return GeneratorOptions();
  return common::Status::Invalid("Unknown scale '" + scale + "' (known: small)");
}

common::Result<GeneratorReport> Generate(Repository& repository, HotelService& service,
                                         const GeneratorOptions& options) {
  std::mt19937_64 random(options.seed);
  auto pick = [&](size_t size) {
    return static_cast<size_t>(std::uniform_int_distribution<size_t>(0, size - 1)(random));
  };
  GeneratorReport report;
  Day first_day = options.first_day != 0 ? options.first_day : Today();

  // Points of interest: each city's landmarks, then generated ones, spread over the cities.
  std::vector<std::vector<Poi>> pois_by_city(kCities.size());
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
    RETURN_IF_ERROR(repository.InsertPoi(poi));
    ++report.rows;
    pois_by_city[city].push_back(std::move(poi));
  }

  // Hotels, rooms and availability.
  std::vector<std::string> hotel_ids;
  std::vector<int> hotel_rooms;
  for (int h = 0; h < options.hotels; ++h) {
    size_t city = static_cast<size_t>(h) % kCities.size();
    const City& where = kCities[city];
    Hotel hotel;
    hotel.hotel_id = fmt::format("{}{:03}", where.code, 100 + h);
    hotel.name = fmt::format("Hotel {} {}", kHotelWords[pick(kHotelWords.size())], where.name);
    hotel.phone = fmt::format("{} {:04} {:04}", where.phone, pick(10000), pick(10000));
    hotel.address = {fmt::format("{} {}", 1 + pick(200), kStreets[pick(kStreets.size())]),
                     std::string(where.name), std::string(where.region),
                     fmt::format("{:05}", 10000 + pick(89999)), std::string(where.country)};
    std::vector<Poi> near;
    for (const Poi& poi : pois_by_city[city]) {
      if (near.size() < 2 || pick(3) == 0) near.push_back(poi);
    }
    for (const Poi& poi : near) hotel.pois.push_back(poi.name);
    std::sort(hotel.pois.begin(), hotel.pois.end());
    auto created = service.CreateHotel(hotel);
    if (!created.ok() && created.status().code() != common::StatusCode::kAlreadyExists) {
      return created.status();
    }
    report.rows += 1 + 2 * static_cast<int64_t>(near.size());

    std::vector<RoomNight> nights;
    for (int r = 0; r < options.rooms_per_hotel; ++r) {
      Room room;
      room.room_number = static_cast<int16_t>(100 * (1 + r / 10) + 1 + r % 10);
      const RoomType& type = kRoomTypes[pick(kRoomTypes.size())];
      room.room_type = std::string(type.name);
      room.base_rate = type.base + static_cast<Cents>(pick(5)) * 1000;
      for (const auto& [name, description] : kAmenities) {
        if (pick(2) == 0) room.amenities.push_back({std::string(name), std::string(description)});
      }
      RETURN_IF_ERROR(repository.InsertRoom(hotel.hotel_id, room));
      report.rows += 2 + static_cast<int64_t>(room.amenities.size());
      for (int d = 0; d < options.days; ++d) {
        Day day = first_day + d;
        int64_t weekday = (day + 4) % 7;  // 1970-01-01 was a Thursday (4); 5, 6 = Fri, Sat
        Cents rate = room.base_rate + (weekday == 5 || weekday == 6 ? room.base_rate / 5 : 0);
        nights.push_back({day, room.room_number, true, rate, room.room_type, "", 0});
      }
    }
    for (size_t begin = 0; begin < nights.size(); begin += 500) {
      std::vector<RoomNight> chunk(
          nights.begin() + static_cast<ptrdiff_t>(begin),
          nights.begin() + static_cast<ptrdiff_t>(std::min(nights.size(), begin + 500)));
      RETURN_IF_ERROR(repository.WriteNights(hotel.hotel_id, chunk));
    }
    report.rows += static_cast<int64_t>(nights.size());
    hotel_ids.push_back(hotel.hotel_id);
    hotel_rooms.push_back(options.rooms_per_hotel);
    if (options.progress) options.progress(h + 1, options.hotels);
  }

  // Guests.
  std::vector<common::Uuid> guests;
  for (int g = 0; g < options.guests; ++g) {
    Guest guest;
    guest.guest_id = common::Uuid::Random(random);
    guest.first_name = std::string(kFirstNames[pick(kFirstNames.size())]);
    guest.last_name = std::string(kLastNames[pick(kLastNames.size())]);
    guest.title = pick(2) == 0 ? "Ms." : "Mr.";
    guest.emails = {fmt::format("{}.{}{}@example.com", FoldName(guest.first_name),
                                FoldName(guest.last_name), g)};
    guest.phone_numbers = {fmt::format("+1 555 {:04}", pick(10000))};
    const City& home = kCities[pick(kCities.size())];
    guest.addresses["home"] = {fmt::format("{} {}", 1 + pick(300), kStreets[pick(kStreets.size())]),
                               std::string(home.name), std::string(home.region),
                               fmt::format("{:05}", 10000 + pick(89999)),
                               std::string(home.country)};
    RETURN_IF_ERROR(repository.UpsertGuest(guest));
    ++report.rows;
    guests.push_back(guest.guest_id);
  }

  // Reservations, through the service (a taken room-night just skips the attempt).
  for (int i = 0; i < options.reservations && !hotel_ids.empty() && !guests.empty(); ++i) {
    size_t h = pick(hotel_ids.size());
    int r = static_cast<int>(pick(static_cast<size_t>(hotel_rooms[h])));
    BookingRequest request;
    request.hotel_id = hotel_ids[h];
    request.room_number = static_cast<int16_t>(100 * (1 + r / 10) + 1 + r % 10);
    request.check_in =
        first_day + static_cast<Day>(pick(static_cast<size_t>(std::max(1, options.days - 7))));
    request.check_out = request.check_in + 1 + static_cast<Day>(pick(5));
    request.guest_id = guests[pick(guests.size())];
    auto booked = service.Book(request);
    if (booked.ok()) {
      ++report.reservations;
      report.rows += 3;
    } else if (booked.status().code() != common::StatusCode::kWriteFailure) {
      return booked.status();
    }
  }
  return report;
}

}  // namespace hotel
