#include "hotel/request_credentials.h"

#include <gtest/gtest.h>

namespace hotel {
namespace {

HttpRequest WithAuthorization(std::string value) {
  HttpRequest request;
  request.authorization = std::move(value);
  return request;
}

TEST(RequestCredentialsTest, BearerTokenInAnyCaseWinsOverTheCookie) {
  HttpRequest request = WithAuthorization("  bEaReR   abc123 ");
  request.cookie = "hotel_session=fromcookie";
  RequestCredentials credentials = RequestCredentials::Of(request);
  EXPECT_EQ(credentials.token(), "abc123");
  EXPECT_FALSE(credentials.from_cookie());
  EXPECT_FALSE(credentials.malformed());
}

TEST(RequestCredentialsTest, OtherAuthorizationSchemesAreMalformed) {
  for (const char* value : {"Basic YWRtaW46eA==", "Bearer", "Bearer ", "token"}) {
    RequestCredentials credentials = RequestCredentials::Of(WithAuthorization(value));
    EXPECT_TRUE(credentials.malformed()) << value;
    EXPECT_EQ(credentials.token(), "") << value;
  }
}

TEST(RequestCredentialsTest, SessionCookieAmongOthers) {
  HttpRequest request;
  request.cookie = "theme=dark; hotel_session=t0k3n ;other=1";
  RequestCredentials credentials = RequestCredentials::Of(request);
  EXPECT_EQ(credentials.token(), "t0k3n");
  EXPECT_TRUE(credentials.from_cookie());
  request.cookie = "xhotel_session=no; hotel_sessionx=no";
  EXPECT_EQ(RequestCredentials::Of(request).token(), "");
  EXPECT_FALSE(RequestCredentials::Of(HttpRequest()).from_cookie());
}

TEST(RequestCredentialsTest, CrossOriginComparesSchemeAndAuthority) {
  HttpRequest request;
  request.host = "Hotel.example:80";
  EXPECT_FALSE(CrossOrigin(request));  // no Origin: not a browser's cross-site request
  request.origin = "http://hotel.example";
  EXPECT_FALSE(CrossOrigin(request));  // default port and case ignored
  request.origin = "https://hotel.example";
  EXPECT_TRUE(CrossOrigin(request));  // another scheme
  request.origin = "http://hotel.example:8080";
  EXPECT_TRUE(CrossOrigin(request));  // another port
  request.origin = "null";
  EXPECT_TRUE(CrossOrigin(request));
  request.secure = true;
  request.host = "hotel.example";
  request.origin = "https://hotel.example:443";
  EXPECT_FALSE(CrossOrigin(request));
}

}  // namespace
}  // namespace hotel
