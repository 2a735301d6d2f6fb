// Paging of every list (paging.h): the cursor helpers, FilteredPage and KeysetPage on their
// own, then every list route of the router walked a page at a time, on the embedded engine and
// through the driver (the cursor is the database's paging state either way).

#include "hotel/paging.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "hotel/router_testing.h"

namespace hotel {
namespace {

namespace json = boost::json;

TEST(PagingTest, CursorsAreHexOfThePagingState) {
  auto none = ParseCursor("");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  common::Bytes state("\x00\x01\xfe", 3);
  EXPECT_EQ(FormatCursor(state), "0001fe");
  auto parsed = ParseCursor("0001FE");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(**parsed, state);
  for (const std::string& bad : {std::string("xyz"), std::string("abc"), std::string(2050, 'a')}) {
    auto refused = ParseCursor(bad);
    EXPECT_TRUE(IsCursorRefused(refused.status())) << bad.substr(0, 10);
  }
  EXPECT_FALSE(IsCursorRefused(common::Status::Invalid("last_name must not be empty")));
}

// A list of 0..`size`-1 read like the engine reads one: the paging state is the index of the
// next item, `reads` counts the reads.
struct FakeList {
  int size = 0;
  int reads = 0;
  common::Result<Page<int>> operator()(const PageRequest& request) {
    ++reads;
    int at = request.paging_state ? std::stoi(*request.paging_state) : 0;
    int end = request.page_size > 0 ? std::min(size, at + request.page_size) : size;
    Page<int> page;
    for (int i = at; i < end; ++i) page.items.push_back(i);
    if (end < size) page.paging_state = std::to_string(end);
    return page;
  }
};

TEST(PagingTest, FilteredPagesNeitherSkipNorRepeatAKeptItem) {
  FakeList list{10};
  auto even = [](int i) { return i % 2 == 0; };
  std::vector<int> seen;
  PageRequest request{3, std::nullopt};
  int pages = 0;
  do {
    auto page = FilteredPage<int>(request, std::ref(list), even);
    ASSERT_TRUE(page.ok());
    EXPECT_LE(page->items.size(), 3u);
    seen.insert(seen.end(), page->items.begin(), page->items.end());
    request.paging_state = page->paging_state;
    ASSERT_LT(++pages, 10);
  } while (request.paging_state);
  EXPECT_EQ(seen, (std::vector<int>{0, 2, 4, 6, 8}));
  EXPECT_EQ(pages, 2);  // [0, 2, 4] then [6, 8]

  auto all = FilteredPage<int>(PageRequest{}, FakeList{10}, even);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->items.size(), 5u);
  EXPECT_FALSE(all->paging_state);
}

TEST(PagingTest, AFilteredPageStopsAfterItsReadLimitWithACursor) {
  FakeList list{100};
  auto page = FilteredPage<int>(PageRequest{1, std::nullopt}, std::ref(list),
                                [](int i) { return i == 50; });
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->items.empty());  // a short (here empty) page that is not the last
  ASSERT_TRUE(page->paging_state);
  EXPECT_EQ(*page->paging_state, std::to_string(kMaxFilteredReads));
  EXPECT_EQ(list.reads, kMaxFilteredReads);
}

TEST(PagingTest, KeysetPagesResumeAfterTheLastKey) {
  std::vector<int16_t> rooms{101, 102, 205, 301, 302};
  auto key = [](int16_t room) { return RoomKey(room); };
  auto first = KeysetPage(rooms, PageRequest{2, std::nullopt}, 2, key);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->items, (std::vector<int16_t>{101, 102}));
  ASSERT_TRUE(first->paging_state);
  auto second = KeysetPage(rooms, PageRequest{2, first->paging_state}, 2, key);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->items, (std::vector<int16_t>{205, 301}));
  auto last = KeysetPage(rooms, PageRequest{2, second->paging_state}, 2, key);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->items, (std::vector<int16_t>{302}));
  EXPECT_FALSE(last->paging_state);
  // A room gone between two pages does not shift the next page.
  std::vector<int16_t> fewer{101, 205, 301, 302};
  auto after_removal = KeysetPage(fewer, PageRequest{2, first->paging_state}, 2, key);
  ASSERT_TRUE(after_removal.ok());
  EXPECT_EQ(after_removal->items, (std::vector<int16_t>{205, 301}));
  EXPECT_TRUE(
      IsCursorRefused(KeysetPage(rooms, PageRequest{2, common::Bytes("abc")}, 2, key).status()));
}

// Every GET whose answer carries next_cursor takes page_size and cursor, and those are exactly
// the lists walked below.
TEST(PagingTest, OpenApiGivesEveryListItsPagingParameters) {
  json::value document = json::parse(OpenApiDocument());
  const json::object& schemas = document.at("components").at("schemas").as_object();
  std::set<std::string> paged;
  for (const auto& [path, operations] : document.at("paths").as_object()) {
    const json::value* get = operations.as_object().if_contains("get");
    boost::system::error_code ec;
    const json::value* ref =
        get == nullptr
            ? nullptr
            : get->find_pointer("/responses/200/content/application~1json/schema/$ref", ec);
    if (ref == nullptr) continue;
    std::string name(ref->as_string());
    name = name.substr(name.rfind('/') + 1);
    bool list = schemas.at(name).at("properties").as_object().contains("next_cursor");
    std::set<std::string> parameters;
    if (const json::value* all = get->as_object().if_contains("parameters")) {
      for (const json::value& parameter : all->as_array()) {
        parameters.insert(std::string(parameter.at("name").as_string()));
      }
    }
    EXPECT_EQ(list, parameters.contains("page_size") && parameters.contains("cursor")) << path;
    if (list) paged.insert(std::string(path));
  }
  EXPECT_EQ(paged, (std::set<std::string>{
                       "/pois", "/pois/{poi_name}/hotels", "/hotels", "/hotels/{hotel_id}/pois",
                       "/hotels/{hotel_id}/rooms/{room_number}", "/hotels/{hotel_id}/availability",
                       "/hotels/{hotel_id}/reservations", "/hotels/{hotel_id}/departures",
                       "/hotels/{hotel_id}/in-house", "/hotels/{hotel_id}/occupancy",
                       "/reservations", "/reservations/{confirmation_number}/history"}));
}

// --- Every list route, through the router ---------------------------------------------------

class PagingApiTest : public RouterTest {
 protected:
  void SetUp() override {
    RouterTest::SetUp();
    LoadLists();
  }

  std::string Book(int room, const char* check_in, const char* check_out, const char* last) {
    std::string body = std::string(R"({"hotel_id": "AZ123", "room_number": )") +
                       std::to_string(room) + R"(, "check_in": ")" + check_in +
                       R"(", "check_out": ")" + check_out +
                       R"(", "guest": {"first_name": "Mai", "last_name": ")" + last +
                       R"(", "emails": [")" + last + R"(@example.com"]}})";
    Reply booked = Call("POST", "/api/v1/reservations", body);
    EXPECT_EQ(booked.status, 201) << json::serialize(booked.body);
    return booked.status == 201 ? std::string(booked.body.at("confirmation_number").as_string())
                                : "";
  }

  // Three of everything each list shows: POIs, hotels near the Eiffel Tower, POIs of PG1, rooms
  // (103 with three amenities), arrivals, departures and guests of the same stay, and three
  // events of one reservation's history. Smith arrives on the Nguyens' departure day, so the
  // departures filter Q11's partition of that day.
  void LoadLists() {
    ASSERT_EQ(Call("POST", "/api/v1/pois", R"({"name": "Opera", "description": "Palais"})").status,
              201);
    for (const char* id : {"PG1", "PG2"}) {
      std::string body = std::string(R"({"hotel_id": ")") + id + R"(", "name": "Paged", )" +
                         R"("pois": ["Eiffel Tower", "Louvre", "Opera"]})";
      ASSERT_EQ(Call("POST", "/api/v1/hotels", body).status, 201);
    }
    std::string room = R"({"room_number": 103, "room_type": "double", "rate": "90.00",
      "amenities": [{"name": "bath", "description": "Bathtub"},
                    {"name": "desk", "description": "Desk"},
                    {"name": "wifi", "description": "Free wifi"}]})";
    ASSERT_EQ(Call("POST", "/api/v1/hotels/AZ123/rooms", room).status, 201);
    ASSERT_EQ(Call("POST", "/api/v1/hotels/AZ123/availability",
                   R"({"start": "2030-01-01", "end": "2030-01-11"})")
                  .status,
              200);
    for (int room_number : {101, 102, 103}) {
      numbers_.push_back(Book(room_number, "2030-01-02", "2030-01-04", "Nguyen"));
    }
    Book(101, "2030-01-04", "2030-01-06", "Smith");
    for (const char* check_out : {"2030-01-05", "2030-01-04"}) {
      std::string change =
          std::string(R"({"check_in": "2030-01-02", "check_out": ")") + check_out + R"("})";
      ASSERT_EQ(Call("PUT", "/api/v1/reservations/" + numbers_[2], change).status, 200);
    }
  }

  // Walks `target` (with its query, without paging parameters) two items a page and checks
  // the pages against the whole list (page_size=500): the same items in the same order, none
  // twice, the last page's next_cursor null. Returns the number of items.
  size_t Walk(const std::string& target, const std::string& list) {
    std::string separator = target.find('?') == std::string::npos ? "?" : "&";
    Reply whole = Call("GET", target + separator + "page_size=500");
    EXPECT_EQ(whole.status, 200) << target << ": " << json::serialize(whole.body);
    if (whole.status != 200) return 0;
    EXPECT_TRUE(whole.body.at("next_cursor").is_null()) << target;
    json::array walked;
    std::string cursor;
    int pages = 0;
    do {
      std::string url = target + separator + "page_size=2";
      if (!cursor.empty()) url += "&cursor=" + cursor;
      Reply page = Call("GET", url);
      EXPECT_EQ(page.status, 200) << url << ": " << json::serialize(page.body);
      if (page.status != 200) return 0;
      EXPECT_LE(page.body.at(list).as_array().size(), 2u) << url;
      for (const json::value& item : page.body.at(list).as_array()) walked.push_back(item);
      const json::value& next = page.body.at("next_cursor");
      cursor = next.is_null() ? "" : std::string(next.as_string());
      EXPECT_LT(++pages, 10) << url;
    } while (!cursor.empty() && pages < 10);
    EXPECT_GE(pages, 2) << target;
    EXPECT_EQ(walked, whole.body.at(list).as_array()) << target;
    return walked.size();
  }

  // Answers 400 invalid_field naming `field` for `target` + `query`.
  void ExpectRefused(const std::string& target, const std::string& query,
                     const std::string& field) {
    std::string separator = target.find('?') == std::string::npos ? "?" : "&";
    Reply refused = Call("GET", target + separator + query);
    EXPECT_EQ(refused.status, 400) << target << " " << query;
    EXPECT_EQ(Code(refused), "invalid_field") << json::serialize(refused.body);
    boost::system::error_code ec;
    const json::value* named = refused.body.find_pointer("/error/field", ec);
    EXPECT_TRUE(named != nullptr && *named == json::string(field)) << json::serialize(refused.body);
  }

  // Walk, then the refusals every list shares; `forged` is a well-formed cursor of no page.
  void CheckList(const std::string& target, const std::string& list, size_t expected,
                 const std::string& forged = "0011") {
    EXPECT_EQ(Walk(target, list), expected) << target;
    ExpectRefused(target, "page_size=0", "page_size");
    ExpectRefused(target, "page_size=501", "page_size");
    ExpectRefused(target, "cursor=xyz", "cursor");
    ExpectRefused(target, "cursor=" + forged, "cursor");
  }

  std::vector<std::string> numbers_;  // the Nguyens' reservations
};

TEST_P(PagingApiTest, InventoryListsArePaged) {
  CheckList("/api/v1/pois", "pois", 3);
  CheckList("/api/v1/pois/Eiffel%20Tower/hotels", "hotels", 3);
  CheckList("/api/v1/hotels/PG1/pois", "pois", 3);
  CheckList("/api/v1/hotels/AZ123/rooms/103", "amenities", 3);
  CheckList("/api/v1/hotels", "hotels", 3);
  // Availability pages by room number (a keyset cursor: two bytes), so its forged cursor is
  // one of another length.
  CheckList("/api/v1/hotels/AZ123/availability?check_in=2030-01-07&check_out=2030-01-09", "rooms",
            3, "001122");
  // The grid pages by room: every page has every date.
  CheckList("/api/v1/hotels/AZ123/occupancy?start=2030-01-01", "rooms", 3);
  Reply grid = Call("GET", "/api/v1/hotels/AZ123/occupancy?start=2030-01-01&page_size=1");
  ASSERT_EQ(grid.status, 200);
  EXPECT_EQ(grid.body.at("dates").as_array().size(), 7u);
}

TEST_P(PagingApiTest, ReservationListsArePaged) {
  CheckList("/api/v1/hotels/AZ123/reservations?date=2030-01-02", "reservations", 3);
  CheckList("/api/v1/reservations?last_name=Nguyen", "reservations", 3);
  CheckList("/api/v1/reservations?email=NGUYEN@Example.com", "reservations", 3);
  CheckList("/api/v1/hotels/AZ123/departures?date=2030-01-04", "reservations", 3);
  CheckList("/api/v1/hotels/AZ123/in-house?date=2030-01-03", "reservations", 3);
  // The history: the reservation's own fields on every page.
  std::string history = "/api/v1/reservations/" + numbers_[2] + "/history";
  CheckList(history, "history", 3);
  Reply last_page = Call("GET", history + "?page_size=1");
  ASSERT_EQ(last_page.status, 200);
  EXPECT_EQ(last_page.body.at("confirmation_number"), json::string(numbers_[2]));
  // A guest pages their history too (with the last name, as for every guest call).
  Reply guest = Call("GET", history + "?last_name=Nguyen&page_size=2");
  EXPECT_EQ(guest.status, 200);
}

INSTANTIATE_TEST_SUITE_P(Sessions, PagingApiTest,
                         ::testing::Values(SessionKind::kEmbedded, SessionKind::kRemote),
                         [](const ::testing::TestParamInfo<SessionKind>& info) {
                           return info.param == SessionKind::kEmbedded ? "Embedded" : "Remote";
                         });

}  // namespace
}  // namespace hotel
