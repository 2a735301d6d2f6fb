// The SMTP sender against a tiny SMTP server run by the test on 127.0.0.1 (port 0): the plain
// conversation and dot-stuffing, STARTTLS with the server's certificate verified (and refused
// when it is not trusted, or when STARTTLS is required but not offered), 5xx as permanent and
// silence as a timeout, and the notify worker delivering a booking's confirmation through it.

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

  template <typename Stream>
  void Converse(Stream& stream, tcp::socket& socket, std::string& buffer, bool tls) {
    Received message;
    message.over_tls = tls;
    for (;;) {
      std::string line = ReadLine(stream, buffer);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        commands_.push_back(line);
      }
      std::string verb = line.substr(0, line.find_first_of(" :"));
      bool offers_tls = !behaviour_.certificate.empty() && !tls;
      if (verb == "EHLO") {
        Write(stream, std::string("250-test.invalid\r\n") + (offers_tls ? "250-STARTTLS\r\n" : "") +
                          "250 8BITMIME\r\n");
      } else if (verb == "STARTTLS" && offers_tls) {
        Write(stream, "220 2.0.0 ready\r\n");
        ssl::context context(ssl::context::tls_server);
        context.use_certificate_chain_file(behaviour_.certificate);
        context.use_private_key_file(behaviour_.key, ssl::context::pem);
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
  TestSmtpServer server({files.certificate, files.key, 250, false});
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
  TestSmtpServer server({"", "", 550, false});
  common::Status sent = SmtpSender(OptionsFor(server)).Send(Letter());
  EXPECT_EQ(sent.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(sent.message(), "SMTP RCPT TO: 550 5.1.1 no such user");
  EXPECT_TRUE(server.received().empty());
}

TEST(SmtpClient, SilenceIsATimeoutAndARefusedConnectionIsRetryable) {
  TestSmtpServer server({"", "", 250, true});
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

class SmtpWorkerTest : public HotelTest {};

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
