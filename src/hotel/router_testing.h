// A fixture for the endpoint tests that call the router directly, without the HTTP transport
// (http_api_test.cc covers that): the small inventory of hotel_testing.h, a staff account, and
// `Call`, which sends a request with the staff's bearer token through ApiRouter::Handle. Run on
// the embedded engine and through the driver (the test's parameter).
//
// Thread-safety: one test thread.

#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <memory>
#include <string>

#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"
#include "hotel/service_metrics.h"

namespace hotel {

class RouterTest : public HotelTest, public ::testing::WithParamInterface<SessionKind> {
 protected:
  void SetUp() override {
    session_kind_ = GetParam();
    HotelTest::SetUp();
    LoadInventory();
    SetUpStaff();
    router_ = std::make_unique<ApiRouter>(service_.get(), auth_.get(), "/nonexistent", "test");
    token_ = StaffToken();
  }

  struct Reply {
    int status = 0;
    boost::json::value body;
  };

  // `method` `target` (with `body`, as JSON, when not empty) as the staff user.
  Reply Call(const std::string& method, const std::string& target, const std::string& body = "") {
    HttpRequest request;
    request.method = method;
    request.target = target;
    request.body = body;
    request.content_type = body.empty() ? "" : "application/json";
    request.authorization = "Bearer " + token_;
    HttpResponse response = router_->Handle(request);
    // Counted as the HTTP server counts its requests, for the check that every route is
    // exercised (http_api_test.cc, EveryRouteExercised).
    ObserveHttpRequest(response.route, method, response.status, 0);
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(response.body, ec);
    EXPECT_FALSE(ec) << response.body;
    return {response.status, std::move(parsed)};
  }

  // The answer's error code ("" when it has none).
  static std::string Code(const Reply& reply) {
    boost::system::error_code ec;
    const boost::json::value* code = reply.body.find_pointer("/error/code", ec);
    return code != nullptr ? std::string(code->as_string()) : "";
  }

  std::unique_ptr<ApiRouter> router_;
  std::string token_;
};

}  // namespace hotel
