#include "server/tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "common/status.h"

namespace server {
namespace {

namespace asio = boost::asio;
using common::Status;

// The reason of the oldest error OpenSSL queued on this thread (the queue is then cleared), or
// `fallback` when none is queued. Reasons name what failed, never the bytes.
std::string OpenSslReason(std::string_view fallback) {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return std::string(fallback);
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : fmt::format("OpenSSL error {:#x}", code);
}

// The whole of `path`. Errors: IOError naming the file and the system's reason.
common::Result<std::string> ReadFile(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::IOError(
        fmt::format("cannot read the TLS {} {}: {}", what, path, std::strerror(errno)));
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Status::IOError(fmt::format("cannot read the TLS {} {}", what, path));
  return bytes;
}

// OpenSSL asks this for the passphrase of an encrypted key: there is none (tls.h design 4).
int NoPassphrase(char*, int, int, void*) { return 0; }

// Design 1-3 on a fresh context.
Status ApplyPolicy(SSL_CTX* context) {
  if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_max_proto_version(context, 0) != 1) {
    return Status::Internal("cannot restrict the TLS versions: " + OpenSslReason("?"));
  }
  SSL_CTX_set_options(context, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                   SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_TICKET);
  if (SSL_CTX_set_cipher_list(context, kCipherList) != 1) {
    return Status::Internal("cannot set the TLS cipher list: " + OpenSslReason("?"));
  }
  SSL_CTX_set_dh_auto(context, 1);
  SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_num_tickets(context, 0);
  // OpenSSL's record buffers are freed while a connection is idle.
  SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
  SSL_CTX_set_default_passwd_cb(context, &NoPassphrase);
  return Status::Ok();
}

// What went wrong in an Asio call that failed with `ec` (Asio takes OpenSSL's error off the
// queue into `ec`).
std::string Reason(const boost::system::error_code& ec, std::string_view fallback) {
  ERR_clear_error();
  std::string message = ec.message();
  return message.empty() ? std::string(fallback) : message;
}

// The server's private key and certificate chain, checked against each other. The key goes in
// first: a certificate that does not match it then fails the check below with a clear message
// (the other order fails inside OpenSSL with a vaguer one).
Status UseIdentity(const TlsOptions& options, asio::ssl::context* context) {
  ASSIGN_OR_RETURN(std::string key, ReadFile(options.private_key_file, "private key"));
  boost::system::error_code ec;
  context->use_private_key(asio::buffer(key), asio::ssl::context::pem, ec);
  OPENSSL_cleanse(key.data(), key.size());
  if (ec) {
    return Status::Invalid(
        fmt::format("cannot use the TLS private key {}: {} (an unencrypted PEM key is needed)",
                    options.private_key_file, Reason(ec, "no PEM private key in it")));
  }
  ASSIGN_OR_RETURN(std::string chain, ReadFile(options.certificate_file, "certificate"));
  context->use_certificate_chain(asio::buffer(chain), ec);
  if (ec) {
    return Status::Invalid(fmt::format("cannot use the TLS certificate {}: {}",
                                       options.certificate_file,
                                       Reason(ec, "no PEM certificate in it")));
  }
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    ERR_clear_error();
    return Status::Invalid(fmt::format("the TLS private key {} does not match the certificate {}",
                                       options.private_key_file, options.certificate_file));
  }
  return Status::Ok();
}

// The CA certificates of the truststore: trusted for client certificates, and named to clients
// as the acceptable issuers.
Status UseTruststore(const std::string& path, SSL_CTX* context) {
  ASSIGN_OR_RETURN(std::string bundle, ReadFile(path, "truststore"));
  BIO* bio = BIO_new_mem_buf(bundle.data(), static_cast<int>(bundle.size()));
  if (bio == nullptr) return Status::Internal("out of memory reading " + path);
  X509_STORE* store = SSL_CTX_get_cert_store(context);
  int added = 0;
  Status status = Status::Ok();
  while (X509* certificate = PEM_read_bio_X509(bio, nullptr, &NoPassphrase, nullptr)) {
    if (X509_STORE_add_cert(store, certificate) != 1 ||
        SSL_CTX_add_client_CA(context, certificate) != 1) {
      status = Status::Invalid(fmt::format(
          "cannot trust a certificate of the TLS truststore {}: {}", path, OpenSslReason("?")));
    }
    X509_free(certificate);
    if (!status.ok()) break;
    ++added;
  }
  BIO_free(bio);
  ERR_clear_error();  // the end of the bundle reads as an error
  RETURN_IF_ERROR(status);
  if (added == 0) {
    return Status::Invalid(fmt::format("the TLS truststore {} holds no PEM certificate", path));
  }
  return Status::Ok();
}

}  // namespace

common::Result<std::shared_ptr<asio::ssl::context>> NewTlsContext(const TlsOptions& options) {
  if (options.certificate_file.empty() || options.private_key_file.empty()) {
    return Status::Invalid("TLS needs both a certificate and a private key file");
  }
  if (options.require_client_auth && options.truststore_file.empty()) {
    return Status::Invalid(
        "requiring client certificates needs a truststore (the CA that signs them)");
  }
  ERR_clear_error();
  std::shared_ptr<asio::ssl::context> context;
  try {
    context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  } catch (const boost::system::system_error& e) {
    return Status::Internal(fmt::format("cannot create a TLS context: {}", e.what()));
  }
  SSL_CTX* native = context->native_handle();
  RETURN_IF_ERROR(ApplyPolicy(native));
  RETURN_IF_ERROR(UseIdentity(options, context.get()));
  int verify = SSL_VERIFY_NONE;
  if (!options.truststore_file.empty()) {
    RETURN_IF_ERROR(UseTruststore(options.truststore_file, native));
    verify = SSL_VERIFY_PEER;
    if (options.require_client_auth) verify |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
  }
  SSL_CTX_set_verify(native, verify, nullptr);
  return context;
}

std::string_view TlsMode(const TlsOptions& options) {
  if (!options.enabled) return "off";
  return options.optional ? "optional" : "on";
}

}  // namespace server
