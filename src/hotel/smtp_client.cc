#include "hotel/smtp_client.h"

#include <openssl/ssl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <memory>
#include <optional>
#include <sstream>

#include "common/ascii.h"
#include "common/base64.h"

namespace hotel {

namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using common::Result;
using common::Status;

constexpr size_t kMaxReply = 64 * 1024;  // a longer reply is not SMTP

Status Transient(std::string message) {
  return Status(common::StatusCode::kUnavailable, std::move(message));
}

struct Reply {
  int code = 0;
  std::vector<std::string> lines;  // the text of each line, without the code
  std::string Text() const { return fmt::format("{} {}", code, fmt::join(lines, " ")); }
};

// One SMTP session (header comment): a connection, its optional TLS layer and what has been
// read but not parsed. Each asynchronous step runs on the session's own io_context, bounded by
// the timeout.
class SmtpSession {
 public:
  explicit SmtpSession(const SmtpOptions& options) : options_(options), socket_(io_) {}

  Status Deliver(const EmailMessage& message);

 private:
  tcp::socket& Socket() { return tls_ ? tls_->next_layer() : socket_; }

  // Starts an operation with `start(done)` and runs it until `done` is called or the timeout
  // passes; on timeout the socket is closed (cancelling the operation).
  template <typename Start>
  Status Await(std::string_view step, Start&& start) {
    std::optional<boost::system::error_code> result;
    start([&result](const boost::system::error_code& error, auto&&...) { result = error; });
    io_.restart();
    io_.run_for(options_.timeout);
    if (!result) {
      boost::system::error_code ignored;
      Socket().close(ignored);
      io_.restart();
      io_.run();
      return Transient(fmt::format("SMTP {}: no answer from {}:{} within {} ms", step,
                                   options_.host, options_.port, options_.timeout.count()));
    }
    if (*result) return Transient(fmt::format("SMTP {}: {}", step, result->message()));
    return Status::Ok();
  }

  Status Connect();
  Status Write(std::string_view step, const std::string& data);
  Result<Reply> ReadReply(std::string_view step);
  // ReadReply, Ok only when the code is within [low, high] (see Check).
  Result<Reply> ReadChecked(std::string_view step, int low, int high);
  // Writes `line` CRLF and reads the reply; Ok only when its code is within [low, high].
  Result<Reply> Command(std::string_view step, const std::string& line, int low, int high);
  Status StartTls();
  // The TLS handshake over the connected socket (after STARTTLS, or first with implicit TLS).
  Status Handshake();
  // AUTH (header comment) with the mechanism `capabilities` (the EHLO reply) allow.
  Status Authenticate(const Reply& capabilities);
  // As Command, for a step of AUTH: any failure is kUnavailable, and its text never holds the
  // password, even were the server to echo it.
  Result<Reply> AuthCommand(std::string_view step, const std::string& line, int expected);

  const SmtpOptions& options_;
  asio::io_context io_;
  tcp::socket socket_;
  std::unique_ptr<ssl::context> tls_context_;
  std::unique_ptr<ssl::stream<tcp::socket>> tls_;
  std::string buffer_;  // read, not yet parsed
};

Status SmtpSession::Connect() {
  tcp::resolver resolver(io_);
  tcp::resolver::results_type endpoints;
  RETURN_IF_ERROR(Await("resolve", [&](auto done) {
    resolver.async_resolve(options_.host, std::to_string(options_.port),
                           [&endpoints, done](const boost::system::error_code& error,
                                              tcp::resolver::results_type results) {
                             endpoints = std::move(results);
                             done(error);
                           });
  }));
  return Await("connect", [&](auto done) { asio::async_connect(socket_, endpoints, done); });
}

Status SmtpSession::Write(std::string_view step, const std::string& data) {
  return Await(step, [&](auto done) {
    if (tls_) {
      asio::async_write(*tls_, asio::buffer(data), done);
    } else {
      asio::async_write(socket_, asio::buffer(data), done);
    }
  });
}

Result<Reply> SmtpSession::ReadReply(std::string_view step) {
  Reply reply;
  for (;;) {
    size_t end = buffer_.find("\r\n");
    if (end == std::string::npos) {
      RETURN_IF_ERROR(Await(step, [&](auto done) {
        auto buffer = asio::dynamic_buffer(buffer_, kMaxReply);
        if (tls_) {
          asio::async_read_until(*tls_, buffer, "\r\n", done);
        } else {
          asio::async_read_until(socket_, buffer, "\r\n", done);
        }
      }));
      continue;
    }
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 2);
    bool well_formed = line.size() >= 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
                       std::isdigit(static_cast<unsigned char>(line[1])) &&
                       std::isdigit(static_cast<unsigned char>(line[2])) &&
                       (line.size() == 3 || line[3] == ' ' || line[3] == '-');
    int code = well_formed ? std::stoi(line.substr(0, 3)) : 0;
    if (!well_formed || (reply.code != 0 && code != reply.code)) {
      return Transient(fmt::format("SMTP {}: malformed reply '{}'", step, line));
    }
    reply.code = code;
    reply.lines.push_back(line.size() > 4 ? line.substr(4) : "");
    if (line.size() == 3 || line[3] == ' ') return reply;
  }
}

// Ok when `reply`'s code is within [low, high]; else kInvalid for a 5xx (permanent), or
// kUnavailable.
Status Check(std::string_view step, const Reply& reply, int low, int high) {
  if (reply.code >= low && reply.code <= high) return Status::Ok();
  std::string message = fmt::format("SMTP {}: {}", step, reply.Text());
  if (reply.code >= 500 && reply.code <= 599) {
    return Status(common::StatusCode::kInvalid, std::move(message));
  }
  return Transient(std::move(message));
}

Result<Reply> SmtpSession::ReadChecked(std::string_view step, int low, int high) {
  ASSIGN_OR_RETURN(Reply reply, ReadReply(step));
  RETURN_IF_ERROR(Check(step, reply, low, high));
  return reply;
}

Result<Reply> SmtpSession::Command(std::string_view step, const std::string& line, int low,
                                   int high) {
  RETURN_IF_ERROR(Write(step, line + "\r\n"));
  return ReadChecked(step, low, high);
}

Status SmtpSession::StartTls() {
  RETURN_IF_ERROR(Command("STARTTLS", "STARTTLS", 220, 220).status());
  // Bytes that came with the 220 were sent before TLS: a man in the middle's (RFC 3207 §5).
  if (!buffer_.empty()) return Transient("SMTP STARTTLS: the server sent data before TLS");
  return Handshake();
}

Status SmtpSession::Handshake() {
  tls_context_ = std::make_unique<ssl::context>(ssl::context::tls_client);
  boost::system::error_code error;
  tls_context_->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                                ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                                ssl::context::no_tlsv1_1,
                            error);
  tls_context_->set_default_verify_paths(error);
  if (!options_.ca_file.empty()) {
    tls_context_->load_verify_file(options_.ca_file, error);
    if (error) {
      return Transient(fmt::format("SMTP STARTTLS: cannot read the CA file {}: {}",
                                   options_.ca_file, error.message()));
    }
  }
  tls_context_->set_verify_mode(ssl::verify_peer, error);
  tls_ = std::make_unique<ssl::stream<tcp::socket>>(std::move(socket_), *tls_context_);
  tls_->set_verify_callback(ssl::host_name_verification(options_.host), error);
  boost::system::error_code not_an_address;
  asio::ip::make_address(options_.host, not_an_address);
  if (not_an_address) {  // SNI names a host, never an IP address (RFC 6066 §3)
    SSL_set_tlsext_host_name(tls_->native_handle(), options_.host.c_str());
  }
  return Await("TLS handshake",
               [&](auto done) { tls_->async_handshake(ssl::stream_base::client, done); });
}

std::string HeloName(const SmtpOptions& options) {
  if (!options.helo_name.empty()) return options.helo_name;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

bool Offers(const Reply& ehlo, std::string_view extension) {
  for (size_t i = 1; i < ehlo.lines.size(); ++i) {  // line 0 is the greeting
    std::string keyword = ehlo.lines[i].substr(0, ehlo.lines[i].find(' '));
    for (char& c : keyword) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (keyword == extension) return true;
  }
  return false;
}

// The mechanisms of the EHLO reply's AUTH line, upper-cased ("AUTH PLAIN LOGIN").
std::vector<std::string> AuthMechanisms(const Reply& ehlo) {
  std::vector<std::string> mechanisms;
  for (size_t i = 1; i < ehlo.lines.size(); ++i) {
    std::istringstream words(common::AsciiUpper(ehlo.lines[i]));
    std::string word;
    if (!(words >> word) || word != "AUTH") continue;
    while (words >> word) mechanisms.push_back(word);
  }
  return mechanisms;
}

Result<Reply> SmtpSession::AuthCommand(std::string_view step, const std::string& line,
                                       int expected) {
  auto redact = [this](std::string text) {
    for (const std::string& secret :
         {options_.password, common::Base64Encode(options_.password),
          common::Base64Encode(std::string(1, '\0') + options_.username + '\0' +
                               options_.password)}) {
      for (size_t at = text.find(secret); !secret.empty() && at != std::string::npos;
           at = text.find(secret, at)) {
        text.replace(at, secret.size(), "[redacted]");
      }
    }
    return text;
  };
  auto reply = Command(step, line, expected, expected);
  if (reply.ok()) return reply;
  return Transient(redact(fmt::format(
      "{} (the SMTP server refused the login of '{}': check --smtp-user and the password)",
      reply.status().message(), options_.username)));
}

Status SmtpSession::Authenticate(const Reply& capabilities) {
  if (!tls_ && !options_.allow_auth_without_tls) {
    return Transient(fmt::format(
        "SMTP AUTH: refusing to send the credentials of '{}' to {}:{} without TLS (use STARTTLS "
        "or implicit TLS)",
        options_.username, options_.host, options_.port));
  }
  std::vector<std::string> offered = AuthMechanisms(capabilities);
  auto offers = [&](std::string_view name) {
    return std::find(offered.begin(), offered.end(), name) != offered.end();
  };
  bool plain = options_.auth == SmtpAuth::kPlain ||
               (options_.auth == SmtpAuth::kAuto && (offers("PLAIN") || !offers("LOGIN")));
  std::string_view mechanism = plain ? "PLAIN" : "LOGIN";
  if (!offers(mechanism)) {
    return Transient(fmt::format(
        "SMTP AUTH: {}:{} does not offer AUTH {} (it offers: {})", options_.host, options_.port,
        mechanism, offered.empty() ? "none" : fmt::format("{}", fmt::join(offered, " "))));
  }
  if (plain) {
    std::string credentials = std::string(1, '\0') + options_.username + '\0' + options_.password;
    return AuthCommand("AUTH PLAIN", "AUTH PLAIN " + common::Base64Encode(credentials), 235)
        .status();
  }
  RETURN_IF_ERROR(AuthCommand("AUTH LOGIN", "AUTH LOGIN", 334).status());
  RETURN_IF_ERROR(
      AuthCommand("AUTH LOGIN username", common::Base64Encode(options_.username), 334).status());
  return AuthCommand("AUTH LOGIN password", common::Base64Encode(options_.password), 235).status();
}

Status SmtpSession::Deliver(const EmailMessage& message) {
  RETURN_IF_ERROR(Connect());
  if (options_.implicit_tls) RETURN_IF_ERROR(Handshake());
  RETURN_IF_ERROR(ReadChecked("greeting", 220, 220).status());
  std::string ehlo = "EHLO " + HeloName(options_);
  ASSIGN_OR_RETURN(Reply capabilities, Command("EHLO", ehlo, 250, 250));
  if (options_.starttls && !options_.implicit_tls) {
    if (!Offers(capabilities, "STARTTLS")) {
      return Transient(fmt::format("SMTP STARTTLS: {}:{} does not offer STARTTLS", options_.host,
                                   options_.port));
    }
    RETURN_IF_ERROR(StartTls());
    ASSIGN_OR_RETURN(capabilities, Command("EHLO", ehlo, 250, 250));
  }
  if (!options_.username.empty()) RETURN_IF_ERROR(Authenticate(capabilities));
  RETURN_IF_ERROR(
      Command("MAIL FROM", "MAIL FROM:<" + message.envelope_from + ">", 250, 250).status());
  for (const std::string& recipient : message.recipients) {
    RETURN_IF_ERROR(Command("RCPT TO", "RCPT TO:<" + recipient + ">", 250, 251).status());
  }
  RETURN_IF_ERROR(Command("DATA", "DATA", 354, 354).status());
  RETURN_IF_ERROR(Write("DATA", DotStuffed(message.data)));
  RETURN_IF_ERROR(ReadChecked("end of DATA", 250, 250).status());
  (void)Command("QUIT", "QUIT", 221, 221);  // the message is accepted whatever QUIT answers
  return Status::Ok();
}

}  // namespace

std::string DotStuffed(const std::string& data) {
  std::string out;
  out.reserve(data.size() + 16);
  bool line_start = true;
  for (char c : data) {
    if (line_start && c == '.') out.push_back('.');
    out.push_back(c);
    line_start = c == '\n';
  }
  if (out.size() < 2 || out.substr(out.size() - 2) != "\r\n") out += "\r\n";
  return out + ".\r\n";
}

SmtpSender::SmtpSender(SmtpOptions options) : options_(std::move(options)) {}

std::string SmtpSender::Describe() const {
  std::string login =
      options_.username.empty() ? "" : fmt::format(", AUTH as {}", options_.username);
  const char* tls = options_.implicit_tls ? " (TLS" : options_.starttls ? " (STARTTLS" : "";
  if (*tls == '\0' && login.empty()) return fmt::format("smtp {}:{}", options_.host, options_.port);
  if (*tls == '\0') tls = " (no TLS";
  return fmt::format("smtp {}:{}{}{})", options_.host, options_.port, tls, login);
}

Result<SmtpAuth> ParseSmtpAuth(std::string_view text) {
  if (text == "auto") return SmtpAuth::kAuto;
  if (text == "plain") return SmtpAuth::kPlain;
  if (text == "login") return SmtpAuth::kLogin;
  return Status::Invalid("SMTP AUTH mechanism '" + std::string(text) +
                         "' is none of auto, plain, login");
}

Status SmtpSender::Send(const EmailMessage& message) {
  SmtpSession session(options_);
  return session.Deliver(message);
}

}  // namespace hotel
