// The SMTP sender against a tiny SMTP server run by the test on 127.0.0.1 (port 0): the plain
// conversation and dot-stuffing, STARTTLS with the server's certificate verified (and refused
// when it is not trusted, or when STARTTLS is required but not offered), 5xx as permanent and
// silence as a timeout, and the notify worker delivering a booking's confirmation through it.

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/base64.h"
#include "hotel/hotel_testing.h"
#include "hotel/notification_worker.h"
#include "hotel/smtp_client.h"
#include "server/tls_testing.h"

namespace hotel {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// What the test server received in one message.
struct Received {
  std::string from;
  std::vector<std::string> recipients;
  std::string data;  // as sent, dot-stuffing undone, CRLF line ends, without the final "."
  bool over_tls = false;
  std::string authenticated_as;  // the user of a successful AUTH
};

// The test's SMTP server: accepts connections one at a time on its own thread and plays the
// server's side of RFC 5321 (and 3207 when it has a certificate).
class TestSmtpServer {
 public:
  struct Behaviour {
    std::string certificate;  // with `key`: offers STARTTLS
    std::string key;
    int rcpt_code = 250;  // the answer to RCPT TO
    bool silent = false;  // accepts, then says nothing
    std::string auth;     // offered AUTH mechanisms ("PLAIN LOGIN"); "": no AUTH
    std::string user;     // the credentials it accepts
    std::string password;
    bool implicit_tls = false;  // TLS from the first byte (with `certificate`)
  };

  explicit TestSmtpServer(Behaviour behaviour)
      : behaviour_(std::move(behaviour)),
        acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~TestSmtpServer() {
    stopping_ = true;
    // Wake the blocking accept with a connection of our own.
    boost::system::error_code ignored;
    asio::io_context io;
    tcp::socket wake(io);
    wake.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port()), ignored);
    thread_.join();
  }

  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  std::vector<Received> received() {
    std::lock_guard<std::mutex> lock(mutex_);
    return received_;
  }
  std::vector<std::string> commands() {
    std::lock_guard<std::mutex> lock(mutex_);
    return commands_;
  }

 private:
  void Loop() {
    while (!stopping_) {
      tcp::socket socket(io_);
      boost::system::error_code error;
      acceptor_.accept(socket, error);
      if (error || stopping_) continue;
      try {
        if (behaviour_.silent) {
          char byte;
          socket.read_some(asio::buffer(&byte, 1), error);  // until the client gives up
          continue;
        }
        std::string buffer;
        if (behaviour_.implicit_tls) {
          ssl::context context = TlsContext();
          ssl::stream<tcp::socket&> secure(socket, context);
          secure.handshake(ssl::stream_base::server);
          Write(secure, "220 test.invalid ESMTP\r\n");
          Converse(secure, socket, buffer, true);
          continue;
        }
        Write(socket, "220 test.invalid ESMTP\r\n");
        Converse(socket, socket, buffer, false);
      } catch (const boost::system::system_error&) {
        // The client hung up (a refused certificate, a timeout): next connection.
      }
    }
  }

  template <typename Stream>
  static void Write(Stream& stream, const std::string& text) {
    asio::write(stream, asio::buffer(text));
  }
  template <typename Stream>
  static std::string ReadLine(Stream& stream, std::string& buffer) {
    size_t end = asio::read_until(stream, asio::dynamic_buffer(buffer), "\r\n");
    std::string line = buffer.substr(0, end - 2);
    buffer.erase(0, end);
    return line;
  }

  ssl::context TlsContext() const {
    ssl::context context(ssl::context::tls_server);
    context.use_certificate_chain_file(behaviour_.certificate);
    context.use_private_key_file(behaviour_.key, ssl::context::pem);
    return context;
  }

  template <typename Stream>
  std::string ReadRecorded(Stream& stream, std::string& buffer) {
    std::string line = ReadLine(stream, buffer);
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.push_back(line);
    return line;
  }

  // AUTH PLAIN (initial response) or LOGIN (two prompts): 235 for the right credentials, else
  // 535 echoing what the client sent (so the test sees that the client redacts it).
  template <typename Stream>
  void Authenticate(Stream& stream, std::string& buffer, const std::string& line,
                    Received& message) {
    std::istringstream words(line);
    std::string verb, mechanism, answer;
    words >> verb >> mechanism >> answer;
    std::string user, password;
    if (mechanism == "PLAIN") {
      std::string decoded = common::Base64Decode(answer).value_or("");
      size_t first = decoded.find('\0');
      size_t second = decoded.find('\0', first + 1);
      if (first != std::string::npos && second != std::string::npos) {
        user = decoded.substr(first + 1, second - first - 1);
        password = decoded.substr(second + 1);
      }
    } else if (mechanism == "LOGIN") {
      Write(stream, "334 VXNlcm5hbWU6\r\n");
      user = common::Base64Decode(ReadRecorded(stream, buffer)).value_or("");
      Write(stream, "334 UGFzc3dvcmQ6\r\n");
      answer = ReadRecorded(stream, buffer);
      password = common::Base64Decode(answer).value_or("");
    }
    if (!user.empty() && user == behaviour_.user && password == behaviour_.password) {
      message.authenticated_as = user;
      Write(stream, "235 2.7.0 authenticated\r\n");
    } else {
      Write(stream, "535 5.7.8 credentials rejected: " + answer + "\r\n");
    }
  }

  template <typename Stream>
  void Converse(Stream& stream, tcp::socket& socket, std::string& buffer, bool tls) {
    Received message;
    message.over_tls = tls;
    for (;;) {
      std::string line = ReadRecorded(stream, buffer);
      std::string verb = line.substr(0, line.find_first_of(" :"));
      bool offers_tls = !behaviour_.certificate.empty() && !tls;
      if (verb == "EHLO") {
        Write(stream, std::string("250-test.invalid\r\n") + (offers_tls ? "250-STARTTLS\r\n" : "") +
                          (behaviour_.auth.empty() ? "" : "250-AUTH " + behaviour_.auth + "\r\n") +
                          "250 8BITMIME\r\n");
      } else if (verb == "AUTH" && !behaviour_.auth.empty()) {
        Authenticate(stream, buffer, line, message);
      } else if (verb == "STARTTLS" && offers_tls) {
        Write(stream, "220 2.0.0 ready\r\n");
        ssl::context context = TlsContext();
        ssl::stream<tcp::socket&> secure(socket, context);
        secure.handshake(ssl::stream_base::server);
        buffer.clear();
        Converse(secure, socket, buffer, true);
        return;
      } else if (verb == "MAIL") {
        message.from = line.substr(line.find('<') + 1, line.find('>') - line.find('<') - 1);
        Write(stream, "250 2.1.0 ok\r\n");
      } else if (verb == "RCPT") {
        message.recipients.push_back(
            line.substr(line.find('<') + 1, line.find('>') - line.find('<') - 1));
        Write(stream, behaviour_.rcpt_code == 250
                          ? "250 2.1.5 ok\r\n"
                          : std::to_string(behaviour_.rcpt_code) + " 5.1.1 no such user\r\n");
      } else if (verb == "DATA") {
        Write(stream, "354 go ahead\r\n");
        for (std::string data_line = ReadLine(stream, buffer); data_line != ".";
             data_line = ReadLine(stream, buffer)) {
          message.data += (data_line.rfind('.', 0) == 0 ? data_line.substr(1) : data_line) + "\r\n";
        }
        {
          std::lock_guard<std::mutex> lock(mutex_);
          received_.push_back(message);
        }
        Write(stream, "250 2.0.0 queued\r\n");
      } else if (verb == "QUIT") {
        Write(stream, "221 2.0.0 bye\r\n");
        return;
      } else {
        Write(stream, "502 5.5.1 unknown command\r\n");
      }
    }
  }

  Behaviour behaviour_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Received> received_;     // GUARDED_BY(mutex_)
  std::vector<std::string> commands_;  // GUARDED_BY(mutex_)
};

// The test server's behaviour: the defaults, then `edit`.
template <typename Edit>
TestSmtpServer::Behaviour Serving(Edit edit) {
  TestSmtpServer::Behaviour behaviour;
  edit(behaviour);
  return behaviour;
}

// A server offering AUTH `mechanisms` that accepts `user` with `password`.
TestSmtpServer::Behaviour Authenticating(const char* mechanisms, const char* user,
                                         const char* password) {
  return Serving([&](auto& b) {
    b.auth = mechanisms;
    b.user = user;
    b.password = password;
  });
}

EmailMessage Letter() {
  EmailMessage message;
  message.envelope_from = "reservations@hotel.invalid";
  message.recipients = {"ada@example.com", "ada@work.example.com"};
  message.message_id = "1.ABC234@hotel.invalid";
  message.data =
      "From: reservations@hotel.invalid\r\nTo: ada@example.com\r\nSubject: hi\r\n\r\n"
      "Line one\r\n.line starting with a dot\r\n.\r\nlast\r\n";
  return message;
}

SmtpOptions OptionsFor(const TestSmtpServer& server) {
  SmtpOptions options;
  options.host = "127.0.0.1";
  options.port = server.port();
  options.helo_name = "hotel.test";
  options.timeout = std::chrono::milliseconds(5000);
  return options;
}

TEST(SmtpClient, DotStuffingDoublesLeadingDotsAndEndsWithADot) {
  EXPECT_EQ(DotStuffed("a\r\n.b\r\n.\r\n"), "a\r\n..b\r\n..\r\n.\r\n");
  EXPECT_EQ(DotStuffed(".x"), "..x\r\n.\r\n");
}

TEST(SmtpClient, DeliversAMessageInThePlainConversation) {
  TestSmtpServer server({});
  SmtpSender sender(OptionsFor(server));
  common::Status sent = sender.Send(Letter());
  ASSERT_TRUE(sent.ok()) << sent.ToString();
  std::vector<Received> received = server.received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].from, "reservations@hotel.invalid");
  EXPECT_EQ(received[0].recipients, Letter().recipients);
  EXPECT_EQ(received[0].data, Letter().data);
  EXPECT_FALSE(received[0].over_tls);
  std::vector<std::string> commands = server.commands();
  std::vector<std::string> expected = {"EHLO hotel.test",
                                       "MAIL FROM:<reservations@hotel.invalid>",
                                       "RCPT TO:<ada@example.com>",
                                       "RCPT TO:<ada@work.example.com>",
                                       "DATA",
                                       "QUIT"};
  EXPECT_EQ(commands, expected);
  EXPECT_EQ(sender.Describe(), "smtp 127.0.0.1:" + std::to_string(server.port()));
}

TEST(SmtpClient, StartTlsVerifiesTheServersCertificate) {
  server::testing::TestAuthority authority;
  server::testing::IssuedFiles files = authority.IssueServer("smtp", "localhost");
  TestSmtpServer server(Serving([&](auto& b) {
    b.certificate = files.certificate;
    b.key = files.key;
  }));
  SmtpOptions options = OptionsFor(server);
  options.starttls = true;
  options.ca_file = authority.ca_file();
  common::Status sent = SmtpSender(options).Send(Letter());
  ASSERT_TRUE(sent.ok()) << sent.ToString();
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_TRUE(server.received()[0].over_tls);
  EXPECT_EQ(server.received()[0].data, Letter().data);

  // A certificate from a CA the client does not trust: the handshake fails, nothing is sent.
  server::testing::TestAuthority stranger("some other CA");
  options.ca_file = stranger.ca_file();
  sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("TLS handshake"), std::string::npos) << sent.message();
  EXPECT_EQ(server.received().size(), 1u);
}

TEST(SmtpClient, RequiredStartTlsThatIsNotOfferedSendsNothing) {
  TestSmtpServer server({});
  SmtpOptions options = OptionsFor(server);
  options.starttls = true;
  common::Status sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("does not offer STARTTLS"), std::string::npos) << sent.message();
  EXPECT_TRUE(server.received().empty());
  for (const std::string& command : server.commands()) EXPECT_NE(command.rfind("MAIL", 0), 0u);
}

TEST(SmtpClient, A5xxReplyIsPermanent) {
  TestSmtpServer server(Serving([](auto& b) { b.rcpt_code = 550; }));
  common::Status sent = SmtpSender(OptionsFor(server)).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(sent.message(), "SMTP RCPT TO: 550 5.1.1 no such user");
  EXPECT_TRUE(server.received().empty());
}

TEST(SmtpClient, SilenceIsATimeoutAndARefusedConnectionIsRetryable) {
  TestSmtpServer server(Serving([](auto& b) { b.silent = true; }));
  SmtpOptions options = OptionsFor(server);
  options.timeout = std::chrono::milliseconds(200);
  common::Status sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("SMTP greeting: no answer from 127.0.0.1"), std::string::npos)
      << sent.message();

  uint16_t closed_port = 0;
  {
    asio::io_context io;
    tcp::acceptor probe(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    closed_port = probe.local_endpoint().port();
  }
  options.port = closed_port;
  sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("SMTP connect"), std::string::npos) << sent.message();
}

// --- AUTH ----------------------------------------------------------------------------------

constexpr const char* kSecret = "s3cret-pa55word";

// OptionsFor `server`, logging in as "mailer" with kSecret.
SmtpOptions LoginOptions(const TestSmtpServer& server) {
  SmtpOptions options = OptionsFor(server);
  options.username = "mailer";
  options.password = kSecret;
  return options;
}

TEST(SmtpClient, AuthPlainAfterStartTls) {
  server::testing::TestAuthority authority;
  server::testing::IssuedFiles files = authority.IssueServer("smtp", "localhost");
  TestSmtpServer::Behaviour behaviour = Authenticating("PLAIN LOGIN", "mailer", kSecret);
  behaviour.certificate = files.certificate;
  behaviour.key = files.key;
  TestSmtpServer server(behaviour);
  SmtpOptions options = LoginOptions(server);
  options.starttls = true;
  options.ca_file = authority.ca_file();
  SmtpSender sender(options);
  common::Status sent = sender.Send(Letter());
  ASSERT_TRUE(sent.ok()) << sent.ToString();
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].authenticated_as, "mailer");
  std::vector<std::string> commands = server.commands();
  ASSERT_GE(commands.size(), 4u);
  EXPECT_EQ(commands[1], "STARTTLS");
  // \0user\0password, base64, as the initial response (RFC 4616), once TLS is up.
  EXPECT_EQ(commands[3],
            "AUTH PLAIN " + common::Base64Encode(std::string("\0mailer\0", 8) + kSecret));
  EXPECT_EQ(commands[4], "MAIL FROM:<reservations@hotel.invalid>");
  EXPECT_EQ(sender.Describe(),
            "smtp 127.0.0.1:" + std::to_string(server.port()) + " (STARTTLS, AUTH as mailer)");
}

TEST(SmtpClient, AuthLoginOnImplicitTls) {
  server::testing::TestAuthority authority;
  server::testing::IssuedFiles files = authority.IssueServer("smtp", "localhost");
  TestSmtpServer::Behaviour behaviour = Authenticating("LOGIN", "mailer", kSecret);
  behaviour.certificate = files.certificate;
  behaviour.key = files.key;
  behaviour.implicit_tls = true;
  TestSmtpServer server(behaviour);
  SmtpOptions options = LoginOptions(server);
  options.implicit_tls = true;
  options.ca_file = authority.ca_file();
  common::Status sent = SmtpSender(options).Send(Letter());
  ASSERT_TRUE(sent.ok()) << sent.ToString();
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_TRUE(server.received()[0].over_tls);
  EXPECT_EQ(server.received()[0].authenticated_as, "mailer");
  std::vector<std::string> commands = server.commands();
  ASSERT_GE(commands.size(), 4u);
  EXPECT_EQ(commands[0], "EHLO hotel.test");  // no STARTTLS: TLS from the first byte
  EXPECT_EQ(commands[1], "AUTH LOGIN");
  EXPECT_EQ(commands[2], common::Base64Encode("mailer"));
  EXPECT_EQ(commands[3], common::Base64Encode(kSecret));

  // Asking for PLAIN where only LOGIN is offered: nothing sent, the offer named.
  options.auth = SmtpAuth::kPlain;
  sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("does not offer AUTH PLAIN (it offers: LOGIN)"), std::string::npos)
      << sent.message();
  EXPECT_EQ(server.received().size(), 1u);
}

TEST(SmtpClient, CredentialsAreNeverSentWithoutTls) {
  TestSmtpServer server(Authenticating("PLAIN LOGIN", "mailer", kSecret));
  SmtpOptions options = LoginOptions(server);
  common::Status sent = SmtpSender(options).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("refusing to send the credentials of 'mailer'"), std::string::npos)
      << sent.message();
  EXPECT_EQ(sent.message().find(kSecret), std::string::npos);
  for (const std::string& command : server.commands()) {
    EXPECT_NE(command.rfind("AUTH", 0), 0u) << command;
    EXPECT_NE(command.rfind("MAIL", 0), 0u) << command;
  }
  EXPECT_TRUE(server.received().empty());

  // The explicit, insecure switch (a server on the loopback).
  options.allow_auth_without_tls = true;
  sent = SmtpSender(options).Send(Letter());
  ASSERT_TRUE(sent.ok()) << sent.ToString();
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].authenticated_as, "mailer");
}

TEST(SmtpClient, ARefusedLoginIsRetryableAndNeverShowsTheSecret) {
  TestSmtpServer server(Authenticating("PLAIN LOGIN", "mailer", "other"));
  SmtpOptions options = LoginOptions(server);
  options.allow_auth_without_tls = true;
  for (SmtpAuth auth : {SmtpAuth::kPlain, SmtpAuth::kLogin}) {
    options.auth = auth;
    common::Status sent = SmtpSender(options).Send(Letter());
    // The server's 535 echoes what it was sent; the error quotes the reply, redacted.
    EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
    EXPECT_NE(sent.message().find("535 5.7.8 credentials rejected: [redacted]"), std::string::npos)
        << sent.message();
    EXPECT_NE(sent.message().find("refused the login of 'mailer'"), std::string::npos);
    EXPECT_EQ(sent.message().find(kSecret), std::string::npos) << sent.message();
    EXPECT_EQ(sent.message().find(common::Base64Encode(kSecret)), std::string::npos);
    EXPECT_EQ(sent.ToString().find(kSecret), std::string::npos);
  }
  EXPECT_TRUE(server.received().empty());
  EXPECT_EQ(ParseSmtpAuth("login").value(), SmtpAuth::kLogin);
  EXPECT_EQ(ParseSmtpAuth("cram-md5").status().code(), common::StatusCode::kInvalid);
}

class SmtpWorkerTest : public HotelTest {};

// A refused login is retried with the worker's back-off like any passing failure, and the
// secret is not in the error the outbox records.
TEST_F(SmtpWorkerTest, ARefusedLoginIsRetriedLater) {
  LoadInventory();
  TestSmtpServer server(Authenticating("PLAIN", "mailer", "other"));
  SmtpOptions smtp = LoginOptions(server);
  smtp.allow_auth_without_tls = true;
  SmtpSender sender(smtp);
  NotificationWorker worker(repository_.get(), &sender, NotificationWorkerOptions());
  ASSERT_TRUE(service_
                  ->Book({"AZ123", 101, D("2030-01-03"), D("2030-01-05"), std::nullopt,
                          MakeGuest("Ada", "Byron")})
                  .ok());
  auto report = worker.RunOnce(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->delivered, 0);
  EXPECT_EQ(report->failed, 1);
  EXPECT_EQ(report->given_up, 0);
  auto rows = session_->Execute("SELECT last_error FROM t_reservation.notifications_by_hour");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->row_count(), 1u);
  std::string error(rows->Value(0, 0).value_or(""));
  EXPECT_NE(error.find("535"), std::string::npos) << error;
  EXPECT_EQ(error.find(kSecret), std::string::npos) << error;
}

TEST_F(SmtpWorkerTest, TheWorkerDeliversABookingsConfirmationOverSmtp) {
  LoadInventory();
  TestSmtpServer server({});
  SmtpSender sender(OptionsFor(server));
  NotificationWorkerOptions options;
  options.from = {"frontdesk@hotel.invalid", "Super Hotel Paris"};
  NotificationWorker worker(repository_.get(), &sender, options);
  auto booked = service_->Book(
      {"AZ123", 102, D("2030-01-03"), D("2030-01-05"), std::nullopt, MakeGuest("Ada", "Byron")});
  ASSERT_TRUE(booked.ok()) << booked.status().ToString();
  auto report = worker.RunOnce(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->delivered, 1);
  std::vector<Received> received = server.received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].from, "frontdesk@hotel.invalid");
  EXPECT_EQ(received[0].recipients, std::vector<std::string>{"Ada@example.com"});
  EXPECT_NE(received[0].data.find("\r\nTo: \"Ada Byron\" <Ada@example.com>\r\n"),
            std::string::npos);
  EXPECT_NE(received[0].data.find("Subject: Your reservation " + booked->confirmation_number +
                                  " at Super Hotel Paris is confirmed\r\n"),
            std::string::npos);
}

}  // namespace
}  // namespace hotel
