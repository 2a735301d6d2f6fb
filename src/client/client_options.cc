#include "client/client_options.h"

#include <charconv>

#include <fmt/format.h>

namespace client {

using common::Result;
using common::Status;

Result<ContactPoint> ParseContactPoint(std::string_view text) {
  ContactPoint point;
  std::string_view port_text;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos) {
      return Status::Invalid(fmt::format("Invalid contact point '{}': missing ']'", text));
    }
    point.host = std::string(text.substr(1, close - 1));
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return Status::Invalid(fmt::format("Invalid contact point '{}'", text));
      }
      port_text = rest.substr(1);
      if (port_text.empty())
        return Status::Invalid(fmt::format("Invalid contact point '{}'", text));
    }
  } else {
    size_t colon = text.rfind(':');
    if (colon != std::string_view::npos && text.find(':') == colon) {
      point.host = std::string(text.substr(0, colon));
      port_text = text.substr(colon + 1);
      if (port_text.empty())
        return Status::Invalid(fmt::format("Invalid contact point '{}'", text));
    } else {
      point.host = std::string(text);  // a bare host (or a bare IPv6 address)
    }
  }
  if (point.host.empty()) {
    return Status::Invalid(fmt::format("Invalid contact point '{}': empty host", text));
  }
  if (!port_text.empty()) {
    unsigned port = 0;
    auto [end, error] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (error != std::errc() || end != port_text.data() + port_text.size() || port == 0 ||
        port > 65535) {
      return Status::Invalid(fmt::format("Invalid port in contact point '{}'", text));
    }
    point.port = static_cast<uint16_t>(port);
  }
  return point;
}

Status Validate(const ClientOptions& options) {
  if (options.contact_points.empty()) return Status::Invalid("No contact points given");
  for (const std::string& point : options.contact_points) {
    RETURN_IF_ERROR(ParseContactPoint(point));
  }
  if (options.protocol_version != 0 && options.protocol_version != 4 &&
      options.protocol_version != 5) {
    return Status::Invalid(
        fmt::format("Unsupported protocol version {} (supported: 4, 5, or 0 to negotiate)",
                    options.protocol_version));
  }
  if (options.connections_per_host == 0) {
    return Status::Invalid("connections_per_host must be at least 1");
  }
  if (options.max_in_flight_per_connection == 0 || options.max_in_flight_per_connection > 32768) {
    return Status::Invalid("max_in_flight_per_connection must be in 1..32768");
  }
  if (options.connect_timeout.count() <= 0 || options.request_timeout.count() <= 0 ||
      options.reconnect_initial_delay.count() <= 0 || options.reconnect_max_delay.count() <= 0) {
    return Status::Invalid("Timeouts and reconnection delays must be positive");
  }
  const TlsOptions& tls = options.tls;
  if (!tls.enabled && (!tls.ca_file.empty() || !tls.cert_file.empty() || !tls.key_file.empty())) {
    return Status::Invalid("TLS files are given but TLS is not enabled");
  }
  if (tls.cert_file.empty() != tls.key_file.empty()) {
    return Status::Invalid(
        "A TLS client certificate needs its private key: give both files or neither");
  }
  return Status::Ok();
}

}  // namespace client
