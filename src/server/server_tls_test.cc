// Tests of TLS on the native port (tls.h, transport.h, connection.h design 8; docs/security.md):
// the handshake and the protocol over it, plaintext refused or (optional) served beside TLS,
// mutual TLS, refused protocol versions, the handshake under the handshake timeout, the
// connection limit and the memory budget, garbage instead of a ClientHello, and reloading the
// certificate. Certificates come from a throwaway CA made by each test (tls_testing.h).

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "server/server_testing.h"
#include "server/tls_testing.h"

namespace server {
namespace {

using protocol::Opcode;
using testing::ClientContext;
using testing::IssuedFiles;
using testing::PeerCommonName;
using testing::RawHeader;
using testing::ServerTest;
using testing::TestAuthority;
using testing::TestClient;
using testing::UniqueSslContext;

// Waits (at most 10 s) until `condition` holds; returns whether it did.
template <typename Condition>
bool Eventually(Condition condition) {
  for (int i = 0; i < 1000; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

class TlsTest : public ServerTest {
 protected:
  void SetUp() override {
    server_files_ = authority_.IssueServer("server", "cqld-server-1");
    server_options_.tls.enabled = true;
    server_options_.tls.certificate_file = server_files_.certificate;
    server_options_.tls.private_key_file = server_files_.key;
    trusting_ = ClientContext(authority_.ca_file());
    ServerTest::SetUp();
  }

  template <typename Change>
  void Restart(Change change) {
    server_->Stop();
    change(&server_options_);
    StartServer();
  }

  // A client after the TLS handshake with `context` (default: trusting the test CA and checking
  // the server's name) and STARTUP with `version`.
  std::unique_ptr<TestClient> ConnectTls(uint8_t version = 4, SSL_CTX* context = nullptr) {
    auto client = std::make_unique<TestClient>(server_->port());
    EXPECT_TRUE(client->connected());
    common::Status handshake = client->StartTls(context != nullptr ? context : trusting_.get());
    EXPECT_TRUE(handshake.ok()) << handshake.ToString();
    if (!handshake.ok()) return client;
    common::Status startup = client->Startup(version);
    EXPECT_TRUE(startup.ok()) << startup.ToString();
    return client;
  }

  // Fails the test unless a TLS client is served (a query over a fresh connection).
  void ExpectServed() {
    auto client = ConnectTls(5);
    auto rows = client->Query("SELECT release_version FROM system.local");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->result.row_count(), 1u);
  }

  TestAuthority authority_;
  IssuedFiles server_files_;
  UniqueSslContext trusting_;
};

TEST_F(TlsTest, OptionsStartupAndQueriesOverTls) {
  for (uint8_t version : {4, 5}) {
    SCOPED_TRACE(static_cast<int>(version));
    TestClient client(server_->port());
    ASSERT_TRUE(client.StartTls(trusting_.get()).ok());
    EXPECT_STREQ(SSL_get_version(client.ssl()), "TLSv1.3");
    EXPECT_EQ(PeerCommonName(client.ssl()), "cqld-server-1");
    client.set_version(version);
    auto supported = client.Call(protocol::OptionsRequest{});
    ASSERT_TRUE(supported.ok()) << supported.status().ToString();
    EXPECT_EQ(supported->header.opcode, Opcode::kSupported);
    ASSERT_TRUE(client.Startup(version).ok());
    auto created = client.Query(
        "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    ASSERT_TRUE(client.Query("CREATE TABLE IF NOT EXISTS ks.t (k int PRIMARY KEY, v text)").ok());
    ASSERT_TRUE(client.Query("INSERT INTO ks.t (k, v) VALUES (1, 'over tls')").ok());
    auto rows = client.Query("SELECT v FROM ks.t WHERE k = 1");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->result.row_count(), 1u);
  }
}

TEST_F(TlsTest, TlsOnePointTwoIsServedAndOlderVersionsAreRefused) {
  UniqueSslContext tls12 =
      ClientContext(authority_.ca_file(), nullptr, TLS1_2_VERSION, TLS1_2_VERSION);
  auto client = ConnectTls(4, tls12.get());
  EXPECT_STREQ(SSL_get_version(client->ssl()), "TLSv1.2");
  EXPECT_TRUE(client->Query("SELECT release_version FROM system.local").ok());

  for (int version : {TLS1_VERSION, TLS1_1_VERSION}) {
    SCOPED_TRACE(version);
    UniqueSslContext old = ClientContext(authority_.ca_file(), nullptr, version, version);
    TestClient refused(server_->port());
    common::Status handshake = refused.StartTls(old.get());
    ASSERT_FALSE(handshake.ok());
    // The server's protocol_version alert, not a failure of the client's own.
    EXPECT_NE(handshake.message().find("alert protocol version"), std::string::npos)
        << handshake.ToString();
    EXPECT_TRUE(refused.WaitClosed());
  }
  ExpectServed();
}

TEST_F(TlsTest, PlaintextClientIsRefusedOnATlsPort) {
  TestClient plain(server_->port());
  ASSERT_TRUE(plain.connected());
  ASSERT_TRUE(plain.Send(protocol::OptionsRequest{}, 1));
  EXPECT_FALSE(plain.Receive().ok());  // no SUPPORTED: the bytes are not a TLS record
  EXPECT_TRUE(plain.WaitClosed());
  ExpectServed();
}

TEST_F(TlsTest, GarbageInsteadOfAClientHelloClosesTheConnection) {
  std::vector<std::string> garbage = {
      "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
      std::string(4096, '\xff'),
      std::string("\x16\x03\x01\x00\x05garbage-after-a-record-header", 34),
      std::string("\x16\x03\x01\xff\xff", 5) + std::string(1000, 'a'),  // an oversized record
      std::string("\x16\x03\x03\x00\x04\x01\xff\xff\xff",
                  9),  // a ClientHello longer than its record
  };
  for (const std::string& bytes : garbage) {
    TestClient client(server_->port());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.SendRaw(bytes));
    EXPECT_TRUE(client.WaitClosed());
  }
  ExpectServed();
  EXPECT_TRUE(Eventually([&] { return server_->connection_count() == 0; }));
}

TEST_F(TlsTest, OptionalServesPlaintextAndTlsOnOnePort) {
  Restart([](ServerOptions* options) { options->tls.optional = true; });
  auto plain = Connect(4);
  auto created = plain->Query(
      "CREATE KEYSPACE ks WITH replication = "
      "{'class': 'SimpleStrategy', 'replication_factor': 1}");
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  auto secure = ConnectTls(5);
  EXPECT_EQ(PeerCommonName(secure->ssl()), "cqld-server-1");
  auto rows =
      secure->Query("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'ks'");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->result.row_count(), 1u);
  auto plain_v5 = Connect(5);
  EXPECT_TRUE(plain_v5->Query("SELECT release_version FROM system.local").ok());
  // system_views.clients: the TLS client with its protocol and cipher (the standard name, as
  // Java gives it), the plaintext ones without.
  auto clients = secure->Query(
      "SELECT port, ssl_enabled, ssl_protocol, ssl_cipher_suite FROM system_views.clients");
  ASSERT_TRUE(clients.ok()) << clients.status().ToString();
  ASSERT_EQ(clients->result.row_count(), 3u);
  for (size_t r = 0; r < 3; ++r) {
    const bool tls = cql::DeserializeInt(*clients->result.Value(r, 0)).value() ==
                     static_cast<int32_t>(secure->local_port());
    EXPECT_EQ(clients->result.Value(r, 1).value(), std::string(1, tls ? '\x01' : '\0'));
    if (!tls) {
      EXPECT_TRUE(clients->result.IsNull(r, 2));
      EXPECT_TRUE(clients->result.IsNull(r, 3));
      continue;
    }
    EXPECT_EQ(clients->result.GetText(r, 2).value(), SSL_get_version(secure->ssl()));
    EXPECT_EQ(clients->result.GetText(r, 3).value(),
              SSL_CIPHER_standard_name(SSL_get_current_cipher(secure->ssl())));
  }
  // An unsupported version is still answered in plaintext (negotiation, connection.h design 2).
  TestClient old(server_->port());
  ASSERT_TRUE(old.SendRaw(RawHeader(3, 7, Opcode::kOptions, 0)));
  auto refused = old.Receive();
  ASSERT_TRUE(refused.ok()) << refused.status().ToString();
  EXPECT_EQ(refused->header.opcode, Opcode::kError);
}

TEST_F(TlsTest, MutualTlsNeedsAClientCertificateSignedByTheCa) {
  Restart([&](ServerOptions* options) {
    options->tls.truststore_file = authority_.ca_file();
    options->tls.require_client_auth = true;
  });
  IssuedFiles good = authority_.IssueClient("client", "app");
  TestAuthority stranger("another CA");
  IssuedFiles foreign = stranger.IssueClient("client", "app");

  // Without a certificate, and with one from another CA: refused, in TLS 1.3 and 1.2.
  for (int version : {TLS1_3_VERSION, TLS1_2_VERSION}) {
    for (const IssuedFiles* files : std::vector<const IssuedFiles*>{nullptr, &foreign}) {
      SCOPED_TRACE(std::to_string(version) + (files ? " foreign" : " none"));
      UniqueSslContext context = ClientContext(authority_.ca_file(), files, version, version);
      TestClient client(server_->port());
      common::Status handshake = client.StartTls(context.get());
      // TLS 1.2 fails the handshake; a TLS 1.3 client has finished its part of it and reads
      // the server's refusal next.
      if (handshake.ok()) {
        EXPECT_EQ(version, TLS1_3_VERSION);
        EXPECT_TRUE(client.WaitClosed());
        EXPECT_NE(client.last_tls_error().find("alert"), std::string::npos)
            << client.last_tls_error();
      } else {
        EXPECT_NE(handshake.message().find("alert"), std::string::npos) << handshake.ToString();
        EXPECT_TRUE(client.WaitClosed());
      }
    }
  }
  UniqueSslContext with_certificate = ClientContext(authority_.ca_file(), &good);
  auto client = ConnectTls(5, with_certificate.get());
  EXPECT_TRUE(client->Query("SELECT release_version FROM system.local").ok());
}

TEST_F(TlsTest, ACertificateIsCheckedWhenPresentedThoughNotRequired) {
  Restart([&](ServerOptions* options) { options->tls.truststore_file = authority_.ca_file(); });
  auto anonymous = ConnectTls(4);  // no certificate: served
  EXPECT_TRUE(anonymous->Query("SELECT release_version FROM system.local").ok());
  TestAuthority stranger("another CA");
  IssuedFiles foreign = stranger.IssueClient("client", "app");
  UniqueSslContext context =
      ClientContext(authority_.ca_file(), &foreign, TLS1_2_VERSION, TLS1_2_VERSION);
  TestClient client(server_->port());
  EXPECT_FALSE(client.StartTls(context.get()).ok());
}

TEST_F(TlsTest, SilentOrStalledHandshakesCloseAtTheHandshakeTimeout) {
  Restart(
      [](ServerOptions* options) { options->handshake_timeout = std::chrono::milliseconds(300); });
  TestClient silent(server_->port());
  TestClient stalled(server_->port());
  ASSERT_TRUE(stalled.SendRaw(std::string("\x16\x03\x01\x02\x00\x01", 6)));  // half a ClientHello
  EXPECT_TRUE(silent.WaitClosed());
  EXPECT_TRUE(stalled.WaitClosed());
  // A completed TLS handshake without STARTUP is closed at the same deadline.
  TestClient idle(server_->port());
  ASSERT_TRUE(idle.StartTls(trusting_.get()).ok());
  EXPECT_TRUE(idle.WaitClosed());
  ExpectServed();
}

TEST_F(TlsTest, PendingHandshakesCountAgainstTheConnectionLimitAndTheMemoryBudget) {
  Restart([](ServerOptions* options) { options->max_connections = 3; });
  std::vector<std::unique_ptr<TestClient>> silent(3);
  for (auto& client : silent) client = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(Eventually([&] { return server_->connection_count() == 3; }));
  // Each holds the TLS state's share of the budget before its handshake.
  EXPECT_TRUE(
      Eventually([&] { return server_->memory_budget().used() >= 3 * Transport::kTlsMemory; }));
  // A fourth is refused, with the Overloaded answer over TLS.
  TestClient over(server_->port());
  ASSERT_TRUE(over.StartTls(trusting_.get()).ok());
  auto answer = over.Call(protocol::OptionsRequest{});
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), common::StatusCode::kOverloaded);
  EXPECT_NE(answer.status().message().find("Too many connections"), std::string::npos);
  EXPECT_GE(server_->rejected_connections(), 1u);
  silent.clear();
  ASSERT_TRUE(Eventually([&] { return server_->memory_budget().used() == 0; }));
  ExpectServed();
}

TEST_F(TlsTest, ReloadServesTheNewCertificateToNewConnectionsOnly) {
  auto before = ConnectTls(4);
  EXPECT_EQ(PeerCommonName(before->ssl()), "cqld-server-1");
  authority_.IssueServer("server", "cqld-server-2");  // over the same files
  ASSERT_TRUE(server_->ReloadTls().ok());
  auto after = ConnectTls(4);
  EXPECT_EQ(PeerCommonName(after->ssl()), "cqld-server-2");
  EXPECT_TRUE(before->Query("SELECT release_version FROM system.local").ok());

  // A failed reload keeps the current certificate.
  { std::ofstream(server_files_.key, std::ios::trunc) << "not a key\n"; }
  common::Status failed = server_->ReloadTls();
  EXPECT_EQ(failed.code(), common::StatusCode::kInvalid) << failed.ToString();
  EXPECT_NE(failed.message().find(server_files_.key), std::string::npos) << failed.ToString();
  EXPECT_EQ(failed.message().find("not a key"), std::string::npos);
  auto still = ConnectTls(5);
  EXPECT_EQ(PeerCommonName(still->ssl()), "cqld-server-2");
  EXPECT_TRUE(before->Query("SELECT release_version FROM system.local").ok());
}

TEST_F(TlsTest, StartRefusesFilesItCannotUse) {
  server_->Stop();
  IssuedFiles other = authority_.IssueServer("other", "other");
  struct Case {
    std::string certificate;
    std::string key;
    std::string truststore;
    bool require_client_auth;
    common::StatusCode code;
    std::string expected;
  };
  std::vector<Case> cases = {
      {authority_.Path("missing.pem"), server_files_.key, "", false, common::StatusCode::kIOError,
       "cannot read the TLS certificate"},
      {server_files_.key, server_files_.key, "", false, common::StatusCode::kInvalid,
       "cannot use the TLS certificate"},
      {server_files_.certificate, other.key, "", false, common::StatusCode::kInvalid,
       "does not match"},
      {server_files_.certificate, server_files_.key, server_files_.key, false,
       common::StatusCode::kInvalid, "holds no PEM certificate"},
      {server_files_.certificate, server_files_.key, "", true, common::StatusCode::kInvalid,
       "needs a truststore"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expected);
    ServerOptions options = server_options_;
    options.port = 0;
    options.tls.certificate_file = c.certificate;
    options.tls.private_key_file = c.key;
    options.tls.truststore_file = c.truststore;
    options.tls.require_client_auth = c.require_client_auth;
    auto server = Server::Start(database_.get(), options);
    ASSERT_FALSE(server.ok());
    EXPECT_EQ(server.status().code(), c.code) << server.status().ToString();
    EXPECT_NE(server.status().message().find(c.expected), std::string::npos)
        << server.status().ToString();
  }
}

TEST_F(TlsTest, ReloadWithoutTlsIsRefused) {
  Restart([](ServerOptions* options) { options->tls = TlsOptions(); });
  EXPECT_EQ(server_->ReloadTls().code(), common::StatusCode::kInvalid);
  auto plain = Connect(4);
  EXPECT_TRUE(plain->Query("SELECT release_version FROM system.local").ok());
}

}  // namespace
}  // namespace server
