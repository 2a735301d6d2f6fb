#include "client/client_options.h"

#include <gtest/gtest.h>

namespace client {
namespace {

TEST(ClientOptionsTest, ParsesContactPoints) {
  EXPECT_EQ(*ParseContactPoint("127.0.0.1:9043"), (ContactPoint{"127.0.0.1", 9043}));
  EXPECT_EQ(*ParseContactPoint("db.example"), (ContactPoint{"db.example", 9042}));
  EXPECT_EQ(*ParseContactPoint("[::1]:19042"), (ContactPoint{"::1", 19042}));
  EXPECT_EQ(*ParseContactPoint("[::1]"), (ContactPoint{"::1", 9042}));
  EXPECT_EQ(*ParseContactPoint("::1"), (ContactPoint{"::1", 9042}));
  for (const char* bad : {"", ":9042", "host:", "host:0", "host:65536", "host:12x", "[::1",
                          "[::1]x", "[]:1", "[::1]:"}) {
    EXPECT_FALSE(ParseContactPoint(bad).ok()) << bad;
  }
}

TEST(ClientOptionsTest, ValidatesOptions) {
  EXPECT_TRUE(Validate(ClientOptions()).ok());
  ClientOptions options;
  options.protocol_version = 3;
  EXPECT_EQ(Validate(options).code(), common::StatusCode::kInvalid);
  options = ClientOptions();
  options.connections_per_host = 0;
  EXPECT_FALSE(Validate(options).ok());
  options = ClientOptions();
  options.max_in_flight_per_connection = 40000;
  EXPECT_FALSE(Validate(options).ok());
  options = ClientOptions();
  options.request_timeout = std::chrono::milliseconds(0);
  EXPECT_FALSE(Validate(options).ok());
  options = ClientOptions();
  options.contact_points = {"ok:1", "bad:"};
  EXPECT_FALSE(Validate(options).ok());
}

}  // namespace
}  // namespace client
