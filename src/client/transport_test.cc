// TLS option handling of the driver that needs no TLS server: files that cannot be loaded, a
// key that does not match its certificate, options that contradict each other, and a TLS
// handshake against a server that does not speak TLS (the in-process cqld). The handshake with
// real certificates is tested end to end by tests/shell/cli_tls_auth_test.sh.

#include "client/transport.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "client/client_testing.h"
#include "client/remote_session.h"

namespace client {
namespace {

using common::StatusCode;

class TlsFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("transport_test_" + std::to_string(::getpid()) + "_" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::string Path(const std::string& name) const { return (directory_ / name).string(); }

  // Writes a new self-signed certificate NAME.pem and its key NAME.key (P-256).
  void WriteSelfSigned(const std::string& name) {
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
    ASSERT_NE(key, nullptr);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
    ASSERT_NE(cert, nullptr);
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
    X509_NAME* subject = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(name.c_str()), -1, -1, 0);
    X509_set_issuer_name(cert.get(), subject);
    X509_set_pubkey(cert.get(), key.get());
    ASSERT_GT(X509_sign(cert.get(), key.get(), EVP_sha256()), 0);
    std::FILE* out = std::fopen(Path(name + ".pem").c_str(), "w");
    ASSERT_NE(out, nullptr);
    PEM_write_X509(out, cert.get());
    std::fclose(out);
    out = std::fopen(Path(name + ".key").c_str(), "w");
    ASSERT_NE(out, nullptr);
    PEM_write_PrivateKey(out, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    std::fclose(out);
  }

  std::filesystem::path directory_;
};

TEST_F(TlsFilesTest, LoadsGoodFiles) {
  WriteSelfSigned("a");
  TlsOptions options;
  options.enabled = true;
  options.ca_file = Path("a.pem");
  options.cert_file = Path("a.pem");
  options.key_file = Path("a.key");
  auto context = NewTlsContext(options);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_NE(*context, nullptr);
}

TEST_F(TlsFilesTest, MissingCaFile) {
  TlsOptions options;
  options.enabled = true;
  options.ca_file = Path("missing.pem");
  auto context = NewTlsContext(options);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(context.status().message(),
            "Cannot read the TLS CA file '" + Path("missing.pem") + "': No such file or directory");
}

TEST_F(TlsFilesTest, CaFileThatIsNotPem) {
  std::ofstream(Path("junk.pem")) << "not a certificate\n";
  TlsOptions options;
  options.enabled = true;
  options.ca_file = Path("junk.pem");
  auto context = NewTlsContext(options);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().code(), StatusCode::kInvalid);
  EXPECT_TRUE(context.status().message().starts_with("Cannot load the TLS CA file '" +
                                                     Path("junk.pem") + "': "))
      << context.status().message();
}

TEST_F(TlsFilesTest, KeyOfAnotherCertificate) {
  WriteSelfSigned("a");
  WriteSelfSigned("b");
  TlsOptions options;
  options.enabled = true;
  options.cert_file = Path("a.pem");
  options.key_file = Path("b.key");
  auto context = NewTlsContext(options);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(), "The TLS private key '" + Path("b.key") +
                                            "' does not match the certificate '" + Path("a.pem") +
                                            "'");
  options.key_file = Path("missing.key");
  context = NewTlsContext(options);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(), "Cannot read the TLS private key '" + Path("missing.key") +
                                            "': No such file or directory");
}

TEST_F(TlsFilesTest, ConnectReportsBadFilesBeforeConnecting) {
  ClientOptions options;
  options.contact_points = {"127.0.0.1:1"};  // never reached
  options.tls.enabled = true;
  options.tls.ca_file = Path("missing.pem");
  auto session = RemoteSession::Connect(options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(session.status().message(),
            "Cannot read the TLS CA file '" + Path("missing.pem") + "': No such file or directory");
}

TEST(TlsOptionsTest, Validate) {
  ClientOptions options;
  options.tls.ca_file = "/ca.pem";  // TLS off
  EXPECT_EQ(Validate(options).message(), "TLS files are given but TLS is not enabled");
  options.tls.enabled = true;
  EXPECT_TRUE(Validate(options).ok());
  options.tls.cert_file = "/client.pem";
  EXPECT_EQ(Validate(options).code(), StatusCode::kInvalid);
  options.tls.key_file = "/client.key";
  EXPECT_TRUE(Validate(options).ok());
}

// TLS to a server that answers in plain CQL: a clean IOError naming the handshake.
class TlsToPlainServerTest : public testing::RemoteSessionTest {};

TEST_F(TlsToPlainServerTest, HandshakeFailsCleanly) {
  ClientOptions options = Options();
  options.tls.enabled = true;
  options.tls.verify_peer = false;
  options.connect_timeout = std::chrono::milliseconds(5000);
  auto session = RemoteSession::Connect(options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kIOError);
  EXPECT_NE(session.status().message().find("TLS handshake with 127.0.0.1:"), std::string::npos)
      << session.status().message();
}

}  // namespace
}  // namespace client
