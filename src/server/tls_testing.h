// Test helpers for TLS on the native port: a throwaway certificate authority that issues server
// and client certificates into a temporary directory (OpenSSL's C API, no `openssl` binary),
// and client contexts for server_testing.h's TestClient. Header-only, for *_test.cc files.
//
// Keys are ECDSA P-256, certificates valid from an hour ago for a day, signed with SHA-256.
//
// Thread-safety: not thread-safe; used by the test thread.

#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace server::testing {

struct EvpPkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct X509Free {
  void operator()(X509* certificate) const { X509_free(certificate); }
};
struct SslCtxFree {
  void operator()(SSL_CTX* context) const { SSL_CTX_free(context); }
};
using UniqueKey = std::unique_ptr<EVP_PKEY, EvpPkeyFree>;
using UniqueCertificate = std::unique_ptr<X509, X509Free>;
using UniqueSslContext = std::unique_ptr<SSL_CTX, SslCtxFree>;

// The files of one issued identity.
struct IssuedFiles {
  std::string certificate;  // PEM
  std::string key;          // PEM, unencrypted
};

// A certificate authority with its own temporary directory (removed by the destructor).
class TestAuthority {
 public:
  // `name` is the CA's common name (two authorities with different names do not trust each
  // other's certificates).
  explicit TestAuthority(const std::string& name = "cqld test CA") {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-tls-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) directory_ = pattern;
    key_ = NewKey();
    certificate_ = Sign(name, key_.get(), /*issuer=*/nullptr, key_.get(), "critical,CA:TRUE",
                        "critical,keyCertSign,cRLSign", "", "");
    ca_file_ = Path("ca.pem");
    WriteCertificate(ca_file_, certificate_.get());
  }
  ~TestAuthority() {
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }
  TestAuthority(const TestAuthority&) = delete;
  TestAuthority& operator=(const TestAuthority&) = delete;

  // The CA certificate (PEM), to trust.
  const std::string& ca_file() const { return ca_file_; }
  std::string Path(const std::string& file) const { return directory_ + "/" + file; }

  // A server certificate for `common_name` with the subject alternative name IP:127.0.0.1,
  // written to FILE_NAME.pem and FILE_NAME.key (over earlier files of that name).
  IssuedFiles IssueServer(const std::string& file_name, const std::string& common_name) {
    return Issue(file_name, common_name, "IP:127.0.0.1,DNS:localhost", "serverAuth");
  }
  // A client certificate for `common_name`.
  IssuedFiles IssueClient(const std::string& file_name, const std::string& common_name) {
    return Issue(file_name, common_name, "", "clientAuth");
  }

 private:
  static UniqueKey NewKey() { return UniqueKey(EVP_EC_gen("P-256")); }

  IssuedFiles Issue(const std::string& file_name, const std::string& common_name,
                    const std::string& alternative_names, const std::string& usage) {
    UniqueKey key = NewKey();
    UniqueCertificate certificate =
        Sign(common_name, key.get(), certificate_.get(), key_.get(), "critical,CA:FALSE",
             "critical,digitalSignature,keyAgreement", usage, alternative_names);
    IssuedFiles files{Path(file_name + ".pem"), Path(file_name + ".key")};
    WriteCertificate(files.certificate, certificate.get());
    std::FILE* out = std::fopen(files.key.c_str(), "w");
    EXPECT_NE(out, nullptr) << files.key;
    if (out != nullptr) {
      EXPECT_EQ(PEM_write_PrivateKey(out, key.get(), nullptr, nullptr, 0, nullptr, nullptr), 1);
      std::fclose(out);
    }
    return files;
  }

  // A certificate for `subject_key` named `common_name`, signed by `issuer` (null: self-signed)
  // with `issuer_key`, with the given extensions ("" leaves one out).
  UniqueCertificate Sign(const std::string& common_name, EVP_PKEY* subject_key, X509* issuer,
                         EVP_PKEY* issuer_key, const std::string& basic_constraints,
                         const std::string& key_usage, const std::string& extended_usage,
                         const std::string& alternative_names) {
    UniqueCertificate certificate(X509_new());
    X509* x = certificate.get();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), ++serial_);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_set_pubkey(x, subject_key);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                               0);
    X509_set_issuer_name(x, issuer != nullptr ? X509_get_subject_name(issuer) : name);
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer != nullptr ? issuer : x, x, nullptr, nullptr, 0);
    for (auto [nid, value] :
         {std::pair{NID_basic_constraints, basic_constraints}, std::pair{NID_key_usage, key_usage},
          std::pair{NID_ext_key_usage, extended_usage},
          std::pair{NID_subject_alt_name, alternative_names}}) {
      if (value.empty()) continue;
      X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
      EXPECT_NE(extension, nullptr) << value;
      if (extension == nullptr) continue;
      X509_add_ext(x, extension, -1);
      X509_EXTENSION_free(extension);
    }
    EXPECT_GT(X509_sign(x, issuer_key, EVP_sha256()), 0);
    return certificate;
  }

  static void WriteCertificate(const std::string& path, X509* certificate) {
    std::FILE* out = std::fopen(path.c_str(), "w");
    EXPECT_NE(out, nullptr) << path;
    if (out == nullptr) return;
    EXPECT_EQ(PEM_write_X509(out, certificate), 1);
    std::fclose(out);
  }

  std::string directory_;
  UniqueKey key_;
  UniqueCertificate certificate_;
  std::string ca_file_;
  long serial_ = 0;
};

// A client context. `ca_file` non-empty: the server's certificate must chain to it and name
// 127.0.0.1. `client` non-null: present that certificate. `min_version`/`max_version`: OpenSSL's
// TLS1_x_VERSION (0: the library's bound); versions below TLS 1.2 also need security level 0.
inline UniqueSslContext ClientContext(const std::string& ca_file,
                                      const IssuedFiles* client = nullptr, int min_version = 0,
                                      int max_version = 0) {
  UniqueSslContext context(SSL_CTX_new(TLS_client_method()));
  SSL_CTX* ctx = context.get();
  if (min_version != 0 || max_version != 0) {
    SSL_CTX_set_security_level(ctx, 0);
    SSL_CTX_set_cipher_list(ctx, "ALL:@SECLEVEL=0");
    SSL_CTX_set_min_proto_version(ctx, min_version);
    SSL_CTX_set_max_proto_version(ctx, max_version);
  }
  if (!ca_file.empty()) {
    EXPECT_EQ(SSL_CTX_load_verify_locations(ctx, ca_file.c_str(), nullptr), 1);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_CTX_get0_param(ctx), "127.0.0.1");
  }
  if (client != nullptr) {
    EXPECT_EQ(SSL_CTX_use_certificate_chain_file(ctx, client->certificate.c_str()), 1);
    EXPECT_EQ(SSL_CTX_use_PrivateKey_file(ctx, client->key.c_str(), SSL_FILETYPE_PEM), 1);
  }
  return context;
}

// The common name of the certificate the server presented to `ssl` ("" when none).
inline std::string PeerCommonName(SSL* ssl) {
  if (ssl == nullptr) return "";
  UniqueCertificate peer(SSL_get1_peer_certificate(ssl));
  if (!peer) return "";
  char name[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(peer.get()), NID_commonName, name, sizeof(name));
  return name;
}

}  // namespace server::testing
