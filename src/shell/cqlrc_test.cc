#include "shell/cqlrc.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace shell {
namespace {

using common::StatusCode;

TEST(CqlrcTest, ParsesCqlshSections) {
  auto rc = ParseCqlrc(R"(# a cqlshrc
; comments either way
[Authentication]
username = alice
Password: s3cret = with equals
keyspace=hotel

[connection]
hostname = db.example
port = 9142
ssl = Yes

[ssl]
certfile = /etc/ca.pem
validate = off
usercert = /etc/client.pem
userkey = /etc/client.key
version = TLSv1_2

[ui]
color = on
)",
                       "rc");
  ASSERT_TRUE(rc.ok()) << rc.status().ToString();
  EXPECT_EQ(rc->username, "alice");
  EXPECT_EQ(rc->password, "s3cret = with equals");
  EXPECT_EQ(rc->keyspace, "hotel");
  EXPECT_EQ(rc->hostname, "db.example");
  EXPECT_EQ(rc->port, 9142);
  EXPECT_EQ(rc->ssl, true);
  EXPECT_EQ(rc->ssl_certfile, "/etc/ca.pem");
  EXPECT_EQ(rc->ssl_validate, false);
  EXPECT_EQ(rc->ssl_usercert, "/etc/client.pem");
  EXPECT_EQ(rc->ssl_userkey, "/etc/client.key");
}

TEST(CqlrcTest, EmptyTextSaysNothing) {
  auto rc = ParseCqlrc("\n\n  \n", "rc");
  ASSERT_TRUE(rc.ok());
  EXPECT_FALSE(rc->username || rc->password || rc->hostname || rc->port || rc->ssl ||
               rc->ssl_certfile || rc->ssl_validate);
}

TEST(CqlrcTest, ExpandsHomeInPaths) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') GTEST_SKIP() << "no HOME";
  auto rc = ParseCqlrc("[ssl]\ncertfile = ~/ca.pem\n", "rc");
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(rc->ssl_certfile, std::string(home) + "/ca.pem");
}

TEST(CqlrcTest, ReportsBadLinesWithTheirLocation) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"[connection]\nport = 0\n",
                "rc:2: [connection] port must be a number in "
                "1..65535, not '0'"},
           Case{"[connection]\nport = 90x\n",
                "rc:2: [connection] port must be a number in "
                "1..65535, not '90x'"},
           Case{"[connection]\nssl = maybe\n",
                "rc:2: [connection] ssl must be true or false, "
                "not 'maybe'"},
           Case{"username = bob\n", "rc:1: 'key = value' before any [section]"},
           Case{"[ssl\n", "rc:1: a section header must end with ']'"},
           Case{"[ssl]\n\njust words\n", "rc:3: expected 'key = value' or a [section]"},
       }) {
    auto rc = ParseCqlrc(c.text, "rc");
    ASSERT_FALSE(rc.ok()) << c.text;
    EXPECT_EQ(rc.status().code(), StatusCode::kInvalid);
    EXPECT_EQ(rc.status().message(), c.message);
  }
}

TEST(CqlrcTest, BadPasswordLineNeverEchoesOtherLines) {
  auto rc = ParseCqlrc("[authentication]\npassword = hunter2\n[connection]\nport = x\n", "rc");
  ASSERT_FALSE(rc.ok());
  EXPECT_EQ(rc.status().message().find("hunter2"), std::string::npos);
}

class CqlrcFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("cqlrc_test_" + std::to_string(::getpid()) + "_" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::string Write(const std::string& text, mode_t mode) {
    std::string path = (directory_ / "cqlrc").string();
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    return path;
  }

  std::filesystem::path directory_;
};

TEST_F(CqlrcFileTest, MissingFileIsEmptyUnlessRequired) {
  std::string path = (directory_ / "absent").string();
  auto loaded = LoadCqlrc(path, /*required=*/false);
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(loaded->settings.username.has_value());
  auto required = LoadCqlrc(path, /*required=*/true);
  ASSERT_FALSE(required.ok());
  EXPECT_EQ(required.status().code(), StatusCode::kIOError);
  EXPECT_EQ(required.status().message(),
            "Cannot read the cqlrc file '" + path + "': No such file or directory");
}

TEST_F(CqlrcFileTest, WarnsWhenOthersMayReadAPassword) {
  std::string path = Write("[authentication]\nusername = a\npassword = p\n", 0644);
  auto loaded = LoadCqlrc(path, true);
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_NE(loaded->warnings[0].find("holds a password and other users may read it"),
            std::string::npos);
  EXPECT_EQ(loaded->warnings[0].find("= p"), std::string::npos);

  path = Write("[authentication]\nusername = a\npassword = p\n", 0600);
  loaded = LoadCqlrc(path, true);
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->warnings.empty());

  path = Write("[authentication]\nusername = a\n", 0644);  // no password: nothing to protect
  loaded = LoadCqlrc(path, true);
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(ResolveConnectionTest, Defaults) {
  auto config = ResolveConnection({}, {}, {});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->host, "127.0.0.1");
  EXPECT_EQ(config->port, 9042);
  EXPECT_EQ(config->username, "");
  EXPECT_FALSE(config->password.has_value());
  EXPECT_FALSE(config->tls.enabled);
}

TEST(ResolveConnectionTest, CommandLineThenEnvironmentThenFile) {
  Cqlrc file;
  file.hostname = "file-host";
  file.port = 9001;
  file.username = "file-user";
  file.password = "file-password";
  file.keyspace = "file_ks";
  auto config = ResolveConnection({}, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->host, "file-host");
  EXPECT_EQ(config->port, 9001);
  EXPECT_EQ(config->username, "file-user");
  EXPECT_EQ(config->password, "file-password");
  EXPECT_EQ(config->keyspace, "file_ks");

  ConnectionEnvironment environment;
  environment.password = "env-password";
  config = ResolveConnection({}, environment, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->password, "env-password");

  ConnectionFlags flags;
  flags.host = "flag-host";
  flags.port = "9002";
  flags.username = "file-user";
  flags.password = "flag-password";
  flags.keyspace = "flag_ks";
  config = ResolveConnection(flags, environment, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->host, "flag-host");
  EXPECT_EQ(config->port, 9002);
  EXPECT_EQ(config->password, "flag-password");
  EXPECT_EQ(config->keyspace, "flag_ks");
}

TEST(ResolveConnectionTest, TheFilesPasswordBelongsToTheFilesUser) {
  Cqlrc file;
  file.username = "alice";
  file.password = "alice-password";
  ConnectionFlags flags;
  flags.username = "bob";
  auto config = ResolveConnection(flags, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->username, "bob");
  EXPECT_FALSE(config->password.has_value());  // cql asks

  file.username.reset();  // a file with a password only: for whoever is named
  config = ResolveConnection(flags, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->password, "alice-password");
}

TEST(ResolveConnectionTest, PasswordNeedsAUser) {
  ConnectionFlags flags;
  flags.password = "secret";
  auto config = ResolveConnection(flags, {}, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message(), "-p needs a username (-u, or username in the cqlrc)");
  ConnectionEnvironment environment;
  environment.password = "secret";  // from the environment: unused without a user
  config = ResolveConnection({}, environment, {});
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->password.has_value());
}

TEST(ResolveConnectionTest, BadPort) {
  ConnectionFlags flags;
  flags.port = "notaport";
  auto config = ResolveConnection(flags, {}, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message(), "the port must be a number in 1..65535, not 'notaport'");
}

TEST(ResolveConnectionTest, Tls) {
  Cqlrc file;
  file.ssl_certfile = "/file/ca.pem";
  file.ssl_usercert = "/file/client.pem";
  file.ssl_userkey = "/file/client.key";
  // TLS off: the file's TLS files wait for it, as in cqlsh.
  auto config = ResolveConnection({}, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->tls.enabled);
  EXPECT_TRUE(config->tls.ca_file.empty());

  file.ssl = true;
  config = ResolveConnection({}, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->tls.enabled);
  EXPECT_EQ(config->tls.ca_file, "/file/ca.pem");
  EXPECT_EQ(config->tls.cert_file, "/file/client.pem");
  EXPECT_EQ(config->tls.key_file, "/file/client.key");
  EXPECT_TRUE(config->tls.verify_peer);
  EXPECT_TRUE(config->tls.verify_hostname);

  ConnectionEnvironment environment;
  environment.ssl_certfile = "/env/ca.pem";
  environment.ssl_validate = "false";
  config = ResolveConnection({}, environment, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->tls.ca_file, "/env/ca.pem");
  EXPECT_FALSE(config->tls.verify_peer);
  EXPECT_FALSE(config->tls.verify_hostname);

  ConnectionFlags flags;
  flags.ssl_ca = "/flag/ca.pem";
  flags.ssl_cert = "/flag/client.pem";
  flags.ssl_key = "/flag/client.key";
  config = ResolveConnection(flags, environment, file);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->tls.ca_file, "/flag/ca.pem");
  EXPECT_EQ(config->tls.cert_file, "/flag/client.pem");
  EXPECT_EQ(config->tls.key_file, "/flag/client.key");

  file.ssl_validate = false;  // the file alone turns validation off too
  config = ResolveConnection(flags, {}, file);
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->tls.verify_peer);
}

TEST(ResolveConnectionTest, TlsMistakes) {
  ConnectionFlags flags;
  flags.ssl_ca = "/ca.pem";
  auto config = ResolveConnection(flags, {}, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message(),
            "--ssl-ca, --ssl-cert and --ssl-key need --ssl (or ssl = true in the [connection] "
            "section of the cqlrc)");

  flags = {};
  flags.ssl = true;
  flags.ssl_cert = "/client.pem";
  config = ResolveConnection(flags, {}, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kInvalid);
  EXPECT_NE(config.status().message().find("A client certificate needs its private key"),
            std::string::npos);

  flags = {};
  flags.ssl = true;
  ConnectionEnvironment environment;
  environment.ssl_validate = "perhaps";
  config = ResolveConnection(flags, environment, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().message(), "SSL_VALIDATE must be true or false, not 'perhaps'");
}

}  // namespace
}  // namespace shell
