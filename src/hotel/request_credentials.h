// RequestCredentials: what an HTTP request presents to authenticate a staff session, and
// whether a browser sent it from another origin (docs/security.md, "Sessions").
//
// Thread-safety: immutable values; safe to share.

#pragma once

#include <string>
#include <string_view>

#include "hotel/http_router.h"

namespace hotel {

class RequestCredentials {
 public:
  // The session token of `request`: `Authorization: Bearer <token>` first (scheme name in any
  // case), else the session cookie (kSessionCookie). An Authorization header of another form
  // presents no token and is malformed().
  static RequestCredentials Of(const HttpRequest& request);

  const std::string& token() const { return token_; }
  bool from_cookie() const { return from_cookie_; }  // the token came from the cookie
  bool malformed() const { return malformed_; }

 private:
  RequestCredentials() = default;

  std::string token_;
  bool from_cookie_ = false;
  bool malformed_ = false;
};

// True when the request's Origin names another origin than its Host (a page of another site,
// or another port of this host, sent it): scheme and host:port compared without case, a
// scheme's default port ignored. No Origin header: not a browser's cross-origin request (API
// clients send none). An Origin of "null" or without a scheme counts as another origin.
bool CrossOrigin(const HttpRequest& request);

}  // namespace hotel
