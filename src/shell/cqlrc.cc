#include "shell/cqlrc.h"

#include <sys/stat.h>

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "common/ascii.h"

namespace shell {
namespace {

using common::Result;
using common::Status;

std::string_view Trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

std::optional<uint16_t> ParsePort(std::string_view text) {
  unsigned value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(value);
}

// configparser's booleans.
std::optional<bool> ParseBoolean(std::string_view text) {
  std::string lower = common::AsciiLower(text);
  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;
  if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return false;
  return std::nullopt;
}

// A file path of the cqlrc: `~/` is the home directory, as cqlsh expands it.
std::string ExpandHome(std::string_view path) {
  const char* home = std::getenv("HOME");
  if (path.starts_with("~/") && home != nullptr && *home != '\0') {
    return std::string(home) + std::string(path.substr(1));
  }
  return std::string(path);
}

// Stores `value` of `section`.`key` in `rc`; Invalid (without the location) for a bad value.
Status Assign(const std::string& section, const std::string& key, std::string_view value,
              Cqlrc* rc) {
  auto boolean = [&](std::optional<bool>* target) {
    *target = ParseBoolean(value);
    if (*target) return Status::Ok();
    return Status::Invalid(
        fmt::format("[{}] {} must be true or false, not '{}'", section, key, value));
  };
  if (section == "authentication") {
    if (key == "username") rc->username = std::string(value);
    if (key == "password") rc->password = std::string(value);
    if (key == "keyspace") rc->keyspace = std::string(value);
  } else if (section == "connection") {
    if (key == "hostname") rc->hostname = std::string(value);
    if (key == "ssl") return boolean(&rc->ssl);
    if (key == "port") {
      rc->port = ParsePort(value);
      if (!rc->port) {
        return Status::Invalid(
            fmt::format("[connection] port must be a number in 1..65535, not '{}'", value));
      }
    }
  } else if (section == "ssl") {
    if (key == "certfile") rc->ssl_certfile = ExpandHome(value);
    if (key == "usercert") rc->ssl_usercert = ExpandHome(value);
    if (key == "userkey") rc->ssl_userkey = ExpandHome(value);
    if (key == "validate") return boolean(&rc->ssl_validate);
  }
  return Status::Ok();
}

std::optional<std::string> Environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// The TLS part of ResolveConnection.
Result<client::TlsOptions> ResolveTls(const ConnectionFlags& flags,
                                      const ConnectionEnvironment& environment, const Cqlrc& file) {
  client::TlsOptions tls;
  tls.enabled = flags.ssl || file.ssl.value_or(false);
  if (!tls.enabled) {
    if (flags.ssl_ca || flags.ssl_cert || flags.ssl_key) {
      return Status::Invalid(
          "--ssl-ca, --ssl-cert and --ssl-key need --ssl (or ssl = true in the [connection] "
          "section of the cqlrc)");
    }
    return tls;  // the file's and the environment's TLS files wait for TLS to be on, as in cqlsh
  }
  tls.ca_file =
      flags.ssl_ca.value_or(environment.ssl_certfile.value_or(file.ssl_certfile.value_or("")));
  tls.cert_file = flags.ssl_cert.value_or(file.ssl_usercert.value_or(""));
  tls.key_file = flags.ssl_key.value_or(file.ssl_userkey.value_or(""));
  bool validate = file.ssl_validate.value_or(true);
  if (environment.ssl_validate) {
    std::optional<bool> value = ParseBoolean(*environment.ssl_validate);
    if (!value) {
      return Status::Invalid(
          fmt::format("SSL_VALIDATE must be true or false, not '{}'", *environment.ssl_validate));
    }
    validate = *value;
  }
  tls.verify_peer = validate;
  tls.verify_hostname = validate;
  if (tls.cert_file.empty() != tls.key_file.empty()) {
    return Status::Invalid(
        "A client certificate needs its private key: give both --ssl-cert and --ssl-key (or "
        "usercert and userkey in the [ssl] section of the cqlrc), or neither");
  }
  return tls;
}

}  // namespace

Result<Cqlrc> ParseCqlrc(std::string_view text, std::string_view source) {
  Cqlrc rc;
  std::string section;
  bool in_section = false;
  int number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++number;
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    auto error = [&](std::string_view what) {
      return Status::Invalid(fmt::format("{}:{}: {}", source, number, what));
    };
    if (line.front() == '[') {
      if (line.back() != ']') return error("a section header must end with ']'");
      section = common::AsciiLower(Trim(line.substr(1, line.size() - 2)));
      in_section = true;
      continue;
    }
    size_t delimiter = line.find_first_of("=:");
    if (delimiter == std::string_view::npos || delimiter == 0) {
      return error("expected 'key = value' or a [section]");
    }
    if (!in_section) return error("'key = value' before any [section]");
    std::string key = common::AsciiLower(Trim(line.substr(0, delimiter)));
    Status assigned = Assign(section, key, Trim(line.substr(delimiter + 1)), &rc);
    if (!assigned.ok()) return error(assigned.message());
  }
  return rc;
}

Result<LoadedCqlrc> LoadCqlrc(const std::string& path, bool required) {
  LoadedCqlrc loaded;
  struct stat info {};
  if (path.empty() || ::stat(path.c_str(), &info) != 0) {
    if (!required && (path.empty() || errno == ENOENT)) return loaded;
    return Status::IOError(fmt::format("Cannot read the cqlrc file '{}': {}", path,
                                       path.empty() ? "no path" : std::strerror(errno)));
  }
  std::ifstream file(path, std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  if (!file) {
    return Status::IOError(
        fmt::format("Cannot read the cqlrc file '{}': {}", path, std::strerror(errno)));
  }
  ASSIGN_OR_RETURN(loaded.settings, ParseCqlrc(buffer.str(), path));
  if (loaded.settings.password && (info.st_mode & (S_IRGRP | S_IROTH)) != 0) {
    loaded.warnings.push_back(
        fmt::format("Warning: '{}' holds a password and other users may read it; make it private "
                    "(chmod 600 '{}') or put the password in CQL_PASSWORD",
                    path, path));
  }
  return loaded;
}

std::string DefaultCqlrcPath() {
  const char* home = std::getenv("HOME");
  return home == nullptr || *home == '\0' ? "" : std::string(home) + "/.cql/cqlrc";
}

ConnectionEnvironment EnvironmentFromProcess() {
  ConnectionEnvironment environment;
  environment.password = Environment("CQL_PASSWORD");
  environment.ssl_certfile = Environment("SSL_CERTFILE");
  environment.ssl_validate = Environment("SSL_VALIDATE");
  return environment;
}

Result<ConnectionConfig> ResolveConnection(const ConnectionFlags& flags,
                                           const ConnectionEnvironment& environment,
                                           const Cqlrc& file) {
  ConnectionConfig config;
  config.host = flags.host.value_or(file.hostname.value_or(config.host));
  if (flags.port) {
    std::optional<uint16_t> port = ParsePort(*flags.port);
    if (!port) {
      return Status::Invalid(
          fmt::format("the port must be a number in 1..65535, not '{}'", *flags.port));
    }
    config.port = *port;
  } else if (file.port) {
    config.port = *file.port;
  }
  config.username = flags.username.value_or(file.username.value_or(""));
  if (flags.password && config.username.empty()) {
    return Status::Invalid("-p needs a username (-u, or username in the cqlrc)");
  }
  if (flags.password) {
    config.password = flags.password;
  } else if (environment.password) {
    config.password = environment.password;
  } else if (file.password && (!file.username || *file.username == config.username)) {
    config.password = file.password;
  }
  if (config.username.empty()) config.password.reset();
  config.keyspace = flags.keyspace ? flags.keyspace : file.keyspace;
  ASSIGN_OR_RETURN(config.tls, ResolveTls(flags, environment, file));
  return config;
}

}  // namespace shell
