#include "hotel/request_credentials.h"

namespace hotel {

namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view Trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

// "host:port" without the scheme's default port, lower-cased.
std::string Authority(std::string_view authority, std::string_view scheme) {
  std::string out = Lower(authority);
  std::string_view default_port = scheme == "https" ? ":443" : ":80";
  if (out.size() > default_port.size() && out.ends_with(default_port)) {
    out.resize(out.size() - default_port.size());
  }
  return out;
}

}  // namespace

RequestCredentials RequestCredentials::Of(const HttpRequest& request) {
  RequestCredentials credentials;
  if (!request.authorization.empty()) {
    std::string_view value = Trim(request.authorization);
    if (value.size() > 7 && Lower(value.substr(0, 7)) == "bearer ") {
      credentials.token_ = std::string(Trim(value.substr(7)));
    } else {
      credentials.malformed_ = true;
    }
    return credentials;
  }
  std::string_view cookies = request.cookie;
  while (!cookies.empty()) {
    size_t end = cookies.find(';');
    std::string_view pair = Trim(cookies.substr(0, end));
    cookies = end == std::string_view::npos ? std::string_view() : cookies.substr(end + 1);
    size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == kSessionCookie) {
      credentials.token_ = std::string(pair.substr(equals + 1));
      credentials.from_cookie_ = true;
    }
  }
  return credentials;
}

bool CrossOrigin(const HttpRequest& request) {
  if (request.origin.empty()) return false;
  size_t separator = request.origin.find("://");
  if (separator == std::string::npos) return true;  // "null" (sandboxed, file:) or malformed
  std::string_view scheme = std::string_view(request.origin).substr(0, separator);
  std::string_view origin = std::string_view(request.origin).substr(separator + 3);
  std::string_view expected_scheme = request.secure ? "https" : "http";
  return Lower(scheme) != expected_scheme ||
         Authority(origin, expected_scheme) != Authority(request.host, expected_scheme);
}

}  // namespace hotel
