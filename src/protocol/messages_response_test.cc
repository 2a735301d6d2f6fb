#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "cql/types/type_codec.h"
#include "cql/types/types.h"
#include "protocol/messages.h"

namespace protocol {
namespace {

using common::Bytes;
using common::ByteWriter;
using common::Status;
using common::StatusCode;
using cql::ColumnSpec;
using cql::CqlType;

std::string Hex(std::string_view hex) { return common::FromHex(hex).value(); }
std::string HexOf(std::string_view text) { return common::ToHex(text); }

// Types as DecodeTypeOption gives them back: collections and UDTs non-frozen at every level.
std::vector<ColumnSpec> SampleColumns(bool same_table) {
  CqlType address = CqlType::Udt("hotel", "address", {"street", "city", "zip"},
                                 {CqlType::Text(), CqlType::Text(), CqlType::Int()});
  std::vector<ColumnSpec> columns = {
      {"hotel", "hotels", "id", CqlType::Text()},
      {"hotel", "hotels", "stars", CqlType::Int()},
      {"hotel", "hotels", "pois", CqlType::Set(CqlType::Text())},
      {"hotel", "hotels", "address", address},
      {"hotel", "hotels", "rates", CqlType::Map(CqlType::Date(), CqlType::Decimal())},
      {"hotel", "hotels", "pair", CqlType::Tuple({CqlType::Bigint(), CqlType::Text()})},
      {"hotel", "hotels", "embedding", CqlType::Vector(CqlType::Float(), 3)},
      {"hotel", "hotels", "nested", CqlType::List(CqlType::Map(CqlType::Int(), address))},
      {"hotel", "hotels", "d", CqlType::Duration()},
  };
  if (!same_table) columns[1].table = "other";
  return columns;
}

cql::ResultSet SampleRows(bool same_table, bool more_pages) {
  cql::ResultSet rows = cql::ResultSet::Rows(SampleColumns(same_table));
  for (int r = 0; r < 3; ++r) {
    for (size_t c = 0; c < rows.column_count(); ++c) {
      if ((r + c) % 4 == 1) {
        rows.AddCell(std::nullopt);
      } else {
        rows.AddCell(Bytes(r + c, static_cast<char>('a' + c)));
      }
    }
  }
  if (more_pages) rows.set_paging_state(Bytes("\x00page\xff", 6));
  return rows;
}

void ExpectSameColumns(const std::vector<ColumnSpec>& a, const std::vector<ColumnSpec>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].keyspace, b[i].keyspace) << i;
    EXPECT_EQ(a[i].table, b[i].table) << i;
    EXPECT_EQ(a[i].name, b[i].name) << i;
    // Compared as [option]s: the protocol carries no frozen-ness (type_codec.h), so the types
    // come back equal on the wire though not necessarily as CqlType values.
    ByteWriter x;
    ByteWriter y;
    cql::EncodeTypeOption(a[i].type, &x);
    cql::EncodeTypeOption(b[i].type, &y);
    EXPECT_EQ(common::ToHex(x.data()), common::ToHex(y.data()))
        << i << ": " << a[i].type.ToCql() << " vs " << b[i].type.ToCql();
  }
}

void ExpectSameRows(const cql::ResultSet& a, const cql::ResultSet& b) {
  ASSERT_EQ(a.kind(), b.kind());
  ExpectSameColumns(a.columns(), b.columns());
  ASSERT_EQ(a.row_count(), b.row_count());
  for (size_t r = 0; r < a.row_count(); ++r) {
    for (size_t c = 0; c < a.column_count(); ++c) {
      EXPECT_EQ(a.Value(r, c), b.Value(r, c)) << r << "," << c;
    }
  }
  EXPECT_EQ(a.paging_state(), b.paging_state());
}

Bytes Encode(const cql::ResultSet& result, uint8_t version, const RowsEncoding& encoding = {}) {
  ByteWriter out;
  EncodeResult(result, version, encoding, &out);
  return out.Release();
}

cql::PreparedMetadata SamplePrepared(bool select) {
  cql::PreparedMetadata prepared;
  prepared.id = Bytes(16, '\x7f');
  prepared.result_metadata_id = Bytes(16, '\x01');
  prepared.bind_variables = {{"hotel", "hotels", "id", CqlType::Text()},
                             {"hotel", "hotels", "stars", CqlType::Int()}};
  prepared.partition_key_indexes = {0};
  if (select) prepared.result_columns = SampleColumns(true);
  return prepared;
}

class ResultVersionTest : public ::testing::TestWithParam<uint8_t> {};

TEST_P(ResultVersionTest, RowsRoundTrip) {
  uint8_t version = GetParam();
  for (bool same_table : {true, false}) {
    for (bool more : {true, false}) {
      cql::ResultSet rows = SampleRows(same_table, more);
      auto decoded = DecodeResult(Encode(rows, version), version, nullptr);
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_EQ(decoded->kind, ResultResponse::Kind::kRows);
      ExpectSameRows(decoded->result, rows);
      EXPECT_FALSE(decoded->new_metadata_id.has_value());
    }
  }
}

TEST_P(ResultVersionTest, RowsWithoutMetadataUseKnownColumns) {
  uint8_t version = GetParam();
  cql::ResultSet rows = SampleRows(true, true);
  RowsEncoding encoding;
  encoding.skip_metadata = true;
  Bytes body = Encode(rows, version, encoding);
  EXPECT_LT(body.size(), Encode(rows, version).size());
  std::vector<ColumnSpec> known = SampleColumns(true);
  auto decoded = DecodeResult(body, version, &known);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ExpectSameRows(decoded->result, rows);
  // Without known columns the cells are still there, under placeholder columns.
  auto blind = DecodeResult(body, version, nullptr);
  ASSERT_TRUE(blind.ok());
  EXPECT_EQ(blind->result.column_count(), known.size());
  EXPECT_EQ(blind->result.Value(2, 0), rows.Value(2, 0));
  // A known column list of the wrong size is an error.
  known.pop_back();
  EXPECT_FALSE(DecodeResult(body, version, &known).ok());
}

TEST_P(ResultVersionTest, SharedKnownColumnsAreReferredToNotCopied) {
  uint8_t version = GetParam();
  cql::ResultSet rows = SampleRows(true, true);
  RowsEncoding encoding;
  encoding.skip_metadata = true;
  auto known = std::make_shared<const std::vector<ColumnSpec>>(SampleColumns(true));
  auto decoded = DecodeResult(Encode(rows, version, encoding), version, known);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ExpectSameRows(decoded->result, rows);
  EXPECT_EQ(&decoded->result.columns(), known.get());
  // Rows that carry their metadata use it, whatever is known.
  auto described = DecodeResult(Encode(rows, version), version, known);
  ASSERT_TRUE(described.ok()) << described.status().ToString();
  ExpectSameRows(described->result, rows);
  EXPECT_NE(&described->result.columns(), known.get());
  // A shared list of the wrong size is an error too.
  auto shorter = std::make_shared<const std::vector<ColumnSpec>>(known->begin(), known->end() - 1);
  EXPECT_FALSE(DecodeResult(Encode(rows, version, encoding), version, shorter).ok());
}

TEST_P(ResultVersionTest, OtherKindsRoundTrip) {
  uint8_t version = GetParam();
  auto v = DecodeResult(Encode(cql::ResultSet::Void(), version), version, nullptr);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->kind, ResultResponse::Kind::kVoid);
  auto ks = DecodeResult(Encode(cql::ResultSet::SetKeyspace("hotel"), version), version, nullptr);
  ASSERT_TRUE(ks.ok());
  EXPECT_EQ(ks->kind, ResultResponse::Kind::kSetKeyspace);
  EXPECT_EQ(ks->result.keyspace(), "hotel");
  for (const cql::SchemaChangeEvent& event :
       {cql::SchemaChangeEvent{"CREATED", "KEYSPACE", "ks", "", {}},
        cql::SchemaChangeEvent{"UPDATED", "TABLE", "ks", "t", {}},
        cql::SchemaChangeEvent{"DROPPED", "TYPE", "ks", "address", {}},
        cql::SchemaChangeEvent{"CREATED", "FUNCTION", "ks", "f", {"int", "text"}},
        cql::SchemaChangeEvent{"CREATED", "AGGREGATE", "ks", "a", {}}}) {
    auto sc = DecodeResult(Encode(cql::ResultSet::SchemaChange(event), version), version, nullptr);
    ASSERT_TRUE(sc.ok()) << sc.status().ToString();
    EXPECT_EQ(sc->kind, ResultResponse::Kind::kSchemaChange);
    EXPECT_EQ(sc->result.schema_change(), event);
    ByteWriter out;
    EncodeSchemaChangeEvent(event, &out);
    auto ev = DecodeEvent(out.data());
    ASSERT_TRUE(ev.ok()) << ev.status().ToString();
    ASSERT_TRUE(ev->has_value());
    EXPECT_EQ(**ev, event);
  }
}

TEST_P(ResultVersionTest, PreparedRoundTrip) {
  uint8_t version = GetParam();
  for (bool select : {true, false}) {
    cql::PreparedMetadata prepared = SamplePrepared(select);
    ByteWriter out;
    EncodePreparedResult(prepared, version, &out);
    auto decoded = DecodeResult(out.data(), version, nullptr);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(decoded->kind, ResultResponse::Kind::kPrepared);
    EXPECT_EQ(decoded->prepared.id, prepared.id);
    EXPECT_EQ(decoded->prepared.result_metadata_id,
              version >= 5 ? prepared.result_metadata_id : Bytes());
    ExpectSameColumns(decoded->prepared.bind_variables, prepared.bind_variables);
    EXPECT_EQ(decoded->prepared.partition_key_indexes, prepared.partition_key_indexes);
    ExpectSameColumns(decoded->prepared.result_columns, prepared.result_columns);
  }
}

std::vector<Bytes> SampleResultBodies(uint8_t version) {
  std::vector<Bytes> bodies = {
      Encode(SampleRows(true, true), version), Encode(SampleRows(false, false), version),
      Encode(cql::ResultSet::Void(), version), Encode(cql::ResultSet::SetKeyspace("ks"), version),
      Encode(cql::ResultSet::SchemaChange({"CREATED", "FUNCTION", "ks", "f", {"int"}}), version)};
  for (bool select : {true, false}) {
    ByteWriter out;
    EncodePreparedResult(SamplePrepared(select), version, &out);
    bodies.push_back(out.Release());
  }
  RowsEncoding changed;
  changed.skip_metadata = true;
  changed.new_metadata_id = Bytes(16, '\x03');
  bodies.push_back(Encode(SampleRows(true, true), version, changed));
  return bodies;
}

TEST_P(ResultVersionTest, EveryTruncationIsAnError) {
  uint8_t version = GetParam();
  for (const Bytes& body : SampleResultBodies(version)) {
    ASSERT_TRUE(DecodeResult(body, version, nullptr).ok());
    for (size_t n = 0; n < body.size(); ++n) {
      auto decoded = DecodeResult(body.substr(0, n), version, nullptr);
      EXPECT_FALSE(decoded.ok()) << "prefix " << n << " of " << common::ToHex(body);
    }
  }
}

TEST_P(ResultVersionTest, RandomBodiesNeverCrash) {
  uint8_t version = GetParam();
  std::mt19937 rng(99 + version);
  std::vector<Bytes> seeds = SampleResultBodies(version);
  std::vector<ColumnSpec> known = SampleColumns(true);
  for (int i = 0; i < 20000; ++i) {
    Bytes body;
    if (i % 2 == 0) {
      body.resize(rng() % 64);
      for (char& c : body) c = static_cast<char>(rng());
      if (body.size() >= 4 && i % 4 == 0) body[3] = static_cast<char>(1 + rng() % 5);
    } else {
      body = seeds[rng() % seeds.size()];
      for (int m = 0; m < 3; ++m) body[rng() % body.size()] = static_cast<char>(rng());
    }
    (void)DecodeResult(body, version, i % 3 == 0 ? &known : nullptr);
    (void)DecodeError(body);
    (void)DecodeEvent(body);
    (void)DecodeSupported(body);
    (void)DecodeAuthenticate(body);
  }
}

INSTANTIATE_TEST_SUITE_P(V4AndV5, ResultVersionTest, ::testing::Values(4, 5));

TEST(ResultEncodeTest, RowsBytes) {
  // One text column of ks.t, one row 'a' and one null row, no paging: global table spec.
  cql::ResultSet rows = cql::ResultSet::Rows({{"ks", "t", "k", CqlType::Text()}});
  rows.AddCell(Bytes("a"));
  rows.AddCell(std::nullopt);
  EXPECT_EQ(common::ToHex(Encode(rows, 4)),
            "00000002"  // Rows
            "00000001"
            "00000001"  // Global_tables_spec, 1 column
            "00026b73"
            "000174"  // ks, t
            "00016b"
            "000d"  // k text
            "00000002"
            "0000000161"
            "ffffffff");  // 2 rows
  RowsEncoding skip;
  skip.skip_metadata = true;
  rows.set_paging_state(Bytes("p"));
  EXPECT_EQ(common::ToHex(Encode(rows, 4, skip)),
            "00000002"
            "00000006"
            "00000001"
            "0000000170"
            "00000002"
            "0000000161"
            "ffffffff");
  // v5 Metadata_changed: flags, count, paging state, new id, then the metadata.
  skip.new_metadata_id = Bytes("\xab\xcd", 2);
  EXPECT_EQ(common::ToHex(Encode(rows, 5, skip)),
            "00000002"
            "0000000b"
            "00000001"
            "0000000170"
            "0002abcd"
            "00026b73"
            "000174"
            "00016b"
            "000d"
            "00000002"
            "0000000161"
            "ffffffff");
  // v4 has no Metadata_changed: skip_metadata wins.
  EXPECT_EQ(common::ToHex(Encode(rows, 4, skip)),
            "00000002"
            "00000006"
            "00000001"
            "0000000170"
            "00000002"
            "0000000161"
            "ffffffff");
}

// The result keeps its cells in the protocol's form; null, empty and long values (lengths
// that need every byte of the 4-byte prefix) read back as they were added.
TEST(ResultEncodeTest, CellsKeepNullEmptyAndLongValuesApart) {
  cql::ResultSet rows = cql::ResultSet::Rows({{"ks", "t", "k", CqlType::Blob()}});
  const Bytes long_value(0x10F03, 'x');  // three significant length bytes
  rows.AddCell(std::nullopt);
  rows.AddCell(Bytes());
  rows.AddCell(std::string_view("\x00\xff", 2));
  rows.AddCell(long_value);
  rows.AddNullCell();
  ASSERT_EQ(rows.row_count(), 5u);
  EXPECT_EQ(rows.Value(0, 0), std::nullopt);
  EXPECT_EQ(rows.Value(1, 0), std::optional<std::string_view>(""));
  EXPECT_EQ(rows.Value(2, 0), std::optional<std::string_view>(std::string_view("\x00\xff", 2)));
  EXPECT_EQ(rows.Value(3, 0), std::optional<std::string_view>(long_value));
  EXPECT_TRUE(rows.IsNull(4, 0));
  EXPECT_EQ(common::ToHex(rows.encoded_cells().substr(0, 18)),
            "ffffffff"
            "00000000"
            "0000000200ff"
            "00010f03");
  EXPECT_EQ(rows.encoded_cells().size(), 4 * 5 + 2 + long_value.size());
}

TEST(ResultEncodeTest, PreparedBytes) {
  cql::PreparedMetadata prepared;
  prepared.id = Hex("0102");
  prepared.result_metadata_id = Hex("0304");
  prepared.bind_variables = {{"ks", "t", "k", CqlType::Int()}};
  prepared.partition_key_indexes = {0};
  EXPECT_EQ(common::ToHex([&] {
              ByteWriter out;
              EncodePreparedResult(prepared, 5, &out);
              return out.Release();
            }()),
            "00000004"
            "00020102"
            "00020304"
            "00000001"
            "00000001"
            "00000001"
            "0000"  // flags, 1 bind, 1 pk index: 0
            "00026b73"
            "000174"
            "00016b"
            "0009"  // ks.t k int
            "00000004"
            "00000000");  // result metadata: No_metadata, 0
}

TEST(ErrorResponseTest, FromStatus) {
  ErrorResponse unprepared = ErrorResponse::FromStatus(
      Status(StatusCode::kUnprepared,
             "Prepared query with ID 0a0b0c not found (either the query was not prepared on this "
             "host (maybe the host has been restarted?) or you have prepared too many queries "
             "and it has been evicted from the internal cache)"));
  EXPECT_EQ(unprepared.code, 0x2500u);
  EXPECT_EQ(unprepared.unprepared_id, Hex("0a0b0c"));
  ErrorResponse keyspace =
      ErrorResponse::FromStatus(Status::AlreadyExists("Cannot add existing keyspace \"hotel\""));
  EXPECT_EQ(keyspace.code, 0x2400u);
  EXPECT_EQ(keyspace.keyspace, "hotel");
  EXPECT_EQ(keyspace.table, "");
  ErrorResponse table = ErrorResponse::FromStatus(
      Status::AlreadyExists("Cannot add already existing table \"hotels\" to keyspace \"hotel\""));
  EXPECT_EQ(table.keyspace, "hotel");
  EXPECT_EQ(table.table, "hotels");
  ErrorResponse other = ErrorResponse::FromStatus(Status::AlreadyExists("something else"));
  EXPECT_EQ(other.keyspace, "");
  EXPECT_EQ(other.table, "");
  EXPECT_EQ(ErrorResponse::FromStatus(Status::Corruption("bad block")).code, 0x0000u);
  EXPECT_EQ(ErrorResponse::FromStatus(Status::Invalid("x")).code, 0x2200u);
  EXPECT_EQ(ErrorResponse::FromStatus(Status::SyntaxError("x")).ToStatus(),
            Status::SyntaxError("x"));
  ErrorResponse unknown;
  unknown.code = 0x7777;
  unknown.message = "?";
  EXPECT_EQ(unknown.ToStatus().code(), StatusCode::kServerError);
}

TEST(ErrorResponseTest, EveryCodeRoundTrips) {
  for (uint32_t code :
       {0x0000u, 0x000Au, 0x0100u, 0x1000u, 0x1001u, 0x1002u, 0x1003u, 0x1100u, 0x1200u, 0x1300u,
        0x1400u, 0x1500u, 0x1600u, 0x1700u, 0x2000u, 0x2100u, 0x2200u, 0x2300u, 0x2400u, 0x2500u}) {
    ErrorResponse error;
    error.code = code;
    error.message = "message " + std::to_string(code);
    error.consistency = cql::Consistency::kLocalQuorum;
    if (code == 0x2400 || code == 0x1400) {
      error.keyspace = "ks";
      error.table = "t";
    }
    if (code == 0x2500) error.unprepared_id = Hex("deadbeef");
    ByteWriter out;
    EncodeError(error, &out);
    auto decoded = DecodeError(out.data());
    ASSERT_TRUE(decoded.ok()) << code;
    EXPECT_EQ(decoded->code, code);
    EXPECT_EQ(decoded->message, error.message);
    EXPECT_EQ(decoded->keyspace, error.keyspace);
    EXPECT_EQ(decoded->table, error.table);
    EXPECT_EQ(decoded->unprepared_id, error.unprepared_id);
    bool has_cl = code == 0x1000 || code == 0x1100 || code == 0x1200 || code == 0x1300 ||
                  code == 0x1500 || code == 0x1700;
    EXPECT_EQ(decoded->consistency,
              has_cl ? cql::Consistency::kLocalQuorum : cql::Consistency::kOne);
    EXPECT_EQ(decoded->ToStatus().code(), static_cast<StatusCode>(code));
    // Prefixes shorter than code + message are errors; none crashes.
    for (size_t n = 0; n < out.size(); ++n) {
      auto cut = DecodeError(out.data().substr(0, n));
      if (n < 4 + 2 + error.message.size()) {
        EXPECT_FALSE(cut.ok());
      }
    }
  }
}

// A read stopped by tombstone_failure_threshold: Cassandra 4's ReadFailure with the replica's
// READ_TOO_MANY_TOMBSTONES (code 1) in the v5 reason map; v4 sends the failure count.
TEST(ErrorResponseTest, TombstoneReadFailureCarriesItsReason) {
  const common::Status status(common::StatusCode::kReadFailure,
                              "Operation failed - received 0 responses and 1 failures: "
                              "READ_TOO_MANY_TOMBSTONES from /127.0.0.1:7000");
  ErrorResponse error = ErrorResponse::FromStatus(status);
  ASSERT_EQ(error.failures.size(), 1u);
  EXPECT_EQ(error.failures[0].reason, 1);
  error.message = "m";
  ByteWriter v5;
  EncodeError(error, &v5, 5);
  EXPECT_EQ(common::ToHex(v5.data()),
            "00001300"
            "00016d"
            "0001"        // ONE
            "00000000"    // received
            "00000001"    // blockfor
            "00000001"    // one failure:
            "047f000001"  //   127.0.0.1
            "0001"        //   READ_TOO_MANY_TOMBSTONES
            "00");        // data_present
  ByteWriter v4;
  EncodeError(error, &v4, 4);
  EXPECT_EQ(common::ToHex(v4.data()),
            "00001300"
            "00016d"
            "0001"
            "00000000"
            "00000001"
            "00000001"
            "00");
  // Another ReadFailure keeps an empty map.
  EXPECT_TRUE(ErrorResponse::FromStatus(common::Status(common::StatusCode::kReadFailure, "x"))
                  .failures.empty());
}

TEST(ErrorResponseTest, Bytes) {
  ErrorResponse unavailable;
  unavailable.code = 0x1000;
  unavailable.message = "x";
  unavailable.consistency = cql::Consistency::kQuorum;
  ByteWriter out;
  EncodeError(unavailable, &out);
  EXPECT_EQ(common::ToHex(out.data()),
            "00001000"
            "000178"
            "0004"
            "00000001"
            "00000000");
  ErrorResponse write_timeout;
  write_timeout.code = 0x1100;
  write_timeout.message = "";
  ByteWriter out2;
  EncodeError(write_timeout, &out2);
  EXPECT_EQ(common::ToHex(out2.data()),
            "00001100"
            "0000"
            "0001"
            "00000000"
            "00000001"
            "0006" +
                HexOf("SIMPLE"));
  ErrorResponse exists = ErrorResponse::FromStatus(
      Status::AlreadyExists("Cannot add already existing table \"t\" to keyspace \"ks\""));
  ByteWriter out3;
  EncodeError(exists, &out3);
  EXPECT_EQ(common::ToHex(out3.data()).substr(0, 8), "00002400");
  EXPECT_EQ(common::ToHex(out3.data()).substr(out3.size() * 2 - 14),
            "00026b73"
            "000174");
}

// A FunctionFailure body names the function: keyspace, name and argument types, read from the
// engine's wording (Cassandra's FunctionExecutionException / OperationExecutionException).
TEST(ErrorResponseTest, FunctionFailureNamesItsFunction) {
  ErrorResponse json = ErrorResponse::FromStatus(
      Status(StatusCode::kFunctionFailure,
             "execution of 'system.fromjson[text]' failed: Could not decode JSON string 'x'"));
  EXPECT_EQ(json.keyspace, "system");
  EXPECT_EQ(json.table, "fromjson");
  EXPECT_EQ(json.arg_types, std::vector<std::string>({"text"}));
  ErrorResponse nested = ErrorResponse::FromStatus(
      Status(StatusCode::kFunctionFailure,
             "execution of 'system.f[int, map<int, text>, frozen<tuple<int, int>>]' failed: no"));
  EXPECT_EQ(nested.arg_types,
            std::vector<std::string>({"int", "map<int, text>", "frozen<tuple<int, int>>"}));
  ErrorResponse operation = ErrorResponse::FromStatus(Status(
      StatusCode::kFunctionFailure, "the operation 'varint * varint' failed: value exceeds"));
  EXPECT_EQ(operation.keyspace, "system");
  EXPECT_EQ(operation.table, "_multiply");
  EXPECT_EQ(operation.arg_types, std::vector<std::string>({"varint", "varint"}));
  ErrorResponse other =
      ErrorResponse::FromStatus(Status(StatusCode::kFunctionFailure, "execution of 'broken"));
  EXPECT_EQ(other.keyspace, "");
  EXPECT_TRUE(other.arg_types.empty());

  ByteWriter out;
  EncodeError(json, &out);
  common::Result<ErrorResponse> decoded = DecodeError(out.data());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 0x1400u);
  EXPECT_EQ(decoded->keyspace, "system");
  EXPECT_EQ(decoded->table, "fromjson");
  EXPECT_EQ(decoded->arg_types, std::vector<std::string>({"text"}));
  // The body ends with the [string list] of argument types: one string, "text".
  EXPECT_EQ(common::ToHex(out.data()).substr(out.size() * 2 - 16), "00010004" + HexOf("text"));
}

TEST(ResponseTest, SupportedAuthenticateReady) {
  SupportedResponse supported;
  supported.options = {{"CQL_VERSION", {"3.4.6"}},
                       {"COMPRESSION", {"lz4", "snappy"}},
                       {"PROTOCOL_VERSIONS", {"4/v4", "5/v5"}}};
  ByteWriter out;
  EncodeSupported(supported, &out);
  auto decoded = DecodeSupported(out.data());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->options, supported.options);
  ByteWriter auth;
  EncodeAuthenticate({"org.apache.cassandra.auth.PasswordAuthenticator"}, &auth);
  auto authenticate = DecodeAuthenticate(auth.data());
  ASSERT_TRUE(authenticate.ok());
  EXPECT_EQ(authenticate->authenticator, "org.apache.cassandra.auth.PasswordAuthenticator");
  ByteWriter ready;
  EncodeReady(&ready);
  EXPECT_EQ(ready.size(), 0u);
}

TEST(ResponseTest, PrefixRoundTrip) {
  ByteWriter out;
  Bytes tracing(16, '\x42');
  uint8_t flags = EncodeResponsePrefix(tracing, {"warning one", "two"}, &out);
  EXPECT_EQ(flags, kFlagTracing | kFlagWarning);
  EncodeResult(cql::ResultSet::Void(), 4, {}, &out);
  Envelope envelope;
  envelope.header.flags = flags;
  envelope.body = out.Release();
  auto prefix = DecodeResponsePrefix(envelope);
  ASSERT_TRUE(prefix.ok());
  EXPECT_EQ(prefix->tracing_id, tracing);
  EXPECT_EQ(prefix->warnings, (std::vector<std::string>{"warning one", "two"}));
  EXPECT_EQ(common::ToHex(prefix->rest), "00000001");
  ByteWriter none;
  EXPECT_EQ(EncodeResponsePrefix(std::nullopt, {}, &none), 0);
  EXPECT_EQ(none.size(), 0u);
  // Truncated prefixes are errors.
  envelope.body = envelope.body.substr(0, 20);
  EXPECT_FALSE(DecodeResponsePrefix(envelope).ok());
}

TEST(EventTest, TopologyAndStatusEventsGiveNothing) {
  std::string status = Hex("000d" + HexOf("STATUS_CHANGE") + "0002" + HexOf("UP") +
                           "04"
                           "7f000001"
                           "00002352");
  auto decoded = DecodeEvent(status);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_FALSE(decoded->has_value());
  EXPECT_FALSE(DecodeEvent(Hex("0003" + HexOf("FOO"))).ok());
  // SCHEMA_CHANGE bytes as the spec lays them out.
  ByteWriter out;
  EncodeSchemaChangeEvent({"CREATED", "TABLE", "ks", "t", {}}, &out);
  EXPECT_EQ(common::ToHex(out.data()), "000d" + HexOf("SCHEMA_CHANGE") + "0007" + HexOf("CREATED") +
                                           "0005" + HexOf("TABLE") +
                                           "00026b73"
                                           "000174");
}

}  // namespace
}  // namespace protocol
