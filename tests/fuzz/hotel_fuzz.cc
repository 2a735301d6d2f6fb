// libFuzzer target for the hotel HTTP API: `ApiRouter::Handle` (hotel/http_router.h), its JSON
// body readers (hotel/http_json.h) and the service behind them, on an embedded database.
//
// Input: `METHOD TARGET` on the first line, the Content-Type on the second, the body after it
// (missing lines are empty). Invariants, for every input:
// 1. Handle never crashes, throws or trips a sanitizer.
// 2. The answer is a valid HTTP response: a status in 100..599 and a Content-Type.
// 3. An answer labelled application/json has a body that parses as JSON; an error (status
//    >= 400) is the contract's JSON error: {"error": {"status": <the status>, "code": <string>,
//    "message": <string>, ...}}.
// 4. A static file is never served from outside the web directory: a file beside it holds a
//    marker that no non-JSON answer (a served file) may contain.
//
// Every input is sent with a staff session's bearer token (logged in again after an input that
// logs it out), so the handlers behind the staff check stay reachable; what anonymous callers
// get (401, the guest's last name) is HttpApiTest's (src/hotel/http_api_test.cc).
//
// One database, in a fresh temporary directory, serves every input (created in
// LLVMFuzzerInitialize with a small inventory loaded through the router itself; removed at
// exit), so inputs see each other's writes: a crash found this way may need the inputs before
// it to reproduce. A violation aborts, so libFuzzer keeps the input (scripts/run-fuzzers moves
// it to tests/fuzz/regressions/hotel/).

#include <stdlib.h>

#include <boost/json.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "engine/database.h"
#include "hotel/hotel_service.h"
#include "hotel/http_router.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"
#include "hotel/staff_accounts.h"
#include "hotel/staff_auth.h"

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr std::string_view kSecret = "fuzz-secret-2c9f1e";
constexpr const char* kStaffUser = "fuzzer";
constexpr const char* kStaffPassword = "fuzz-staff-password";

// Everything the router needs, built once per process.
struct Fixture {
  fs::path directory;
  std::unique_ptr<engine::Database> database;
  std::unique_ptr<cql::Session> session;
  std::unique_ptr<hotel::Repository> repository;
  std::unique_ptr<hotel::HotelService> service;
  std::unique_ptr<hotel::StaffAccounts> accounts;
  std::unique_ptr<hotel::StaffAuth> auth;
  std::unique_ptr<hotel::ApiRouter> router;
  std::string token;  // the staff session every input is sent with
};

std::unique_ptr<Fixture> fixture;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

void WriteFile(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The requests that load the inventory: two POIs, a hotel with two rooms open for ten nights,
// a guest and a booking.
void LoadInventory(const hotel::ApiRouter& router) {
  struct Request {
    const char* method;
    const char* target;
    const char* content_type;
    const char* body;
  };
  const Request requests[] = {
      {"POST", "/api/v1/pois", "", R"({"name": "Eiffel Tower", "description": "Tower"})"},
      {"POST", "/api/v1/pois", "", R"({"name": "Louvre", "description": "Museum"})"},
      {"POST", "/api/v1/hotels", "application/json",
       R"({"hotel_id": "AZ123", "name": "Super Hotel Paris", "phone": "+33 1 23 45 67 89",
           "address": {"street": "1 Rue de Rivoli", "city": "Paris", "country": "France"},
           "pois": ["Louvre", "Eiffel Tower"]})"},
      {"POST", "/api/v1/hotels/AZ123/rooms", "",
       R"({"room_number": 101, "room_type": "double", "rate": "100.00",
           "amenities": [{"name": "wifi", "description": "Free wifi"}]})"},
      {"POST", "/api/v1/hotels/AZ123/rooms", "",
       R"({"room_number": 102, "room_type": "suite", "rate": "150.00"})"},
      {"POST", "/api/v1/hotels/AZ123/availability", "",
       R"({"start": "2030-01-01", "end": "2030-01-11"})"},
      {"POST", "/api/v1/reservations", "",
       R"({"hotel_id": "AZ123", "room_number": 101, "check_in": "2030-01-02",
           "check_out": "2030-01-05", "guest": {"first_name": "Mai", "last_name": "Nguyen",
           "emails": ["mai@example.com"], "addresses": {"home": {"city": "Springfield"}}}})"},
  };
  for (const Request& item : requests) {
    hotel::HttpRequest request;
    request.method = item.method;
    request.target = item.target;
    request.content_type = item.content_type;
    request.body = item.body;
    request.authorization = "Bearer " + fixture->token;
    hotel::HttpResponse response = router.Handle(request);
    if (response.status >= 300) Fail("loading the inventory failed: " + response.body);
  }
}

// Starts the staff session (again, after a fuzzed logout ended it).
void LogIn() {
  auto grant = fixture->auth->Login("", kStaffUser, kStaffPassword);
  if (!grant.ok()) Fail("staff login failed: " + grant.status().ToString());
  fixture->token = grant->token;
}

void SetUp() {
  std::string pattern = (fs::temp_directory_path() / "hotel-fuzz-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) Fail("mkdtemp failed");
  fixture = std::make_unique<Fixture>();
  fixture->directory = pattern;
  fs::create_directories(fixture->directory / "web" / "static");
  WriteFile(fixture->directory / "web" / "index.html", "<!doctype html><title>hotel</title>");
  WriteFile(fixture->directory / "web" / "static" / "app.js", "console.log('hotel');");
  WriteFile(fixture->directory / "secret.txt", kSecret);
  auto database = engine::Database::Open((fixture->directory / "db").string(), {});
  if (!database.ok()) Fail(database.status().ToString());
  fixture->database = std::move(*database);
  fixture->session = fixture->database->NewSession();
  common::Status schema = hotel::CreateServiceSchema(*fixture->session, "f_");
  if (!schema.ok()) Fail(schema.ToString());
  auto repository =
      hotel::Repository::Create(fixture->session.get(), *hotel::KeyspacesForPrefix("f_"));
  if (!repository.ok()) Fail(repository.status().ToString());
  fixture->repository = std::move(*repository);
  hotel::HotelServiceOptions options;
  options.seed = 7;
  fixture->service = std::make_unique<hotel::HotelService>(fixture->repository.get(), options);
  auto accounts = hotel::StaffAccounts::Create(fixture->repository.get(), {.bcrypt_cost = 4});
  if (!accounts.ok()) Fail(accounts.status().ToString());
  fixture->accounts = std::move(*accounts);
  common::Status added = fixture->accounts->Add(kStaffUser, kStaffPassword);
  if (!added.ok()) Fail(added.ToString());
  fixture->auth = std::make_unique<hotel::StaffAuth>(fixture->accounts.get());
  fixture->router =
      std::make_unique<hotel::ApiRouter>(fixture->service.get(), fixture->auth.get(),
                                         (fixture->directory / "web").string(), "embedded");
  LogIn();
  LoadInventory(*fixture->router);
}

void TearDown() {
  fixture->router.reset();
  fixture->auth.reset();
  fixture->accounts.reset();
  fixture->service.reset();
  fixture->repository.reset();
  fixture->session.reset();
  fixture->database.reset();
  std::error_code ignored;
  fs::remove_all(fixture->directory, ignored);
  fixture.reset();
}

hotel::HttpRequest ParseInput(std::string_view input) {
  hotel::HttpRequest request;
  auto line = [&input]() {
    size_t end = input.find('\n');
    std::string_view text = input.substr(0, end);
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
    return std::string(text);
  };
  std::string first = line();
  size_t space = first.find(' ');
  request.method = first.substr(0, space);
  request.target = space == std::string::npos ? "" : first.substr(space + 1);
  request.content_type = line();
  request.body = std::string(input);
  return request;
}

void CheckResponse(const hotel::HttpResponse& response) {
  if (response.status < 100 || response.status > 599) Fail("status out of range");
  if (response.content_type.empty()) Fail("no Content-Type");
  bool is_json = response.content_type.rfind("application/json", 0) == 0;
  // Only files are served as something else than JSON (JSON answers may quote the request,
  // and libFuzzer learns the marker from this very comparison).
  if (!is_json && response.body.find(kSecret) != std::string::npos) {
    Fail("served a file outside web/");
  }
  if (response.status >= 400 && !is_json) Fail("an error that is not JSON");
  if (!is_json) return;
  boost::system::error_code ec;
  json::value body = json::parse(response.body, ec);
  if (ec) Fail("invalid JSON body (" + ec.message() + "): " + response.body);
  if (response.status < 400) return;
  const json::object* object = body.if_object();
  const json::value* error = object != nullptr ? object->if_contains("error") : nullptr;
  const json::object* fields = error != nullptr ? error->if_object() : nullptr;
  if (fields == nullptr) Fail("an error without an error object: " + response.body);
  const json::value* status = fields->if_contains("status");
  const json::value* code = fields->if_contains("code");
  const json::value* message = fields->if_contains("message");
  if (status == nullptr || !status->is_int64() || status->as_int64() != response.status ||
      code == nullptr || !code->is_string() || message == nullptr || !message->is_string()) {
    Fail("a malformed error object: " + response.body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  SetUp();
  std::atexit(TearDown);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hotel::HttpRequest request =
      ParseInput(std::string_view(reinterpret_cast<const char*>(data), size));
  if (auto session = fixture->auth->Authenticate(fixture->token); !session.ok() || !*session) {
    LogIn();
  }
  request.authorization = "Bearer " + fixture->token;
  CheckResponse(fixture->router->Handle(request));
  return 0;
}
