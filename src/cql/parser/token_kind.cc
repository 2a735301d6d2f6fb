#include "cql/parser/token_kind.h"

#include <array>
#include <bit>
#include <cstdint>

namespace cql {
namespace {

struct KeywordEntry {
  std::string_view spelling;
  TokenKind kind;
};

#define CQL_KEYWORD_ENTRY(name, spelling) KeywordEntry{spelling, TokenKind::kK##name},
constexpr KeywordEntry kUnsortedKeywords[] = {
    CQL_KEYWORDS(CQL_KEYWORD_ENTRY)
    // Aliases, as in Cassandra's Lexer.g.
    KeywordEntry{"table", TokenKind::kKColumnfamily},
    KeywordEntry{"columnfamilies", TokenKind::kKTables},
    KeywordEntry{"true", TokenKind::kBoolean},
    KeywordEntry{"false", TokenKind::kBoolean},
};
#undef CQL_KEYWORD_ENTRY

constexpr size_t kMaxKeywordLength = 14;  // "columnfamilies"

// A word of at most 16 bytes folded to lower case and zero-padded, read as two 64-bit
// integers: hashing and comparing it are a few integer operations. Every keyword is made of
// ASCII letters only, and `byte | 0x20` is a lower-case letter exactly when `byte` is a
// letter of either case, so comparing folded words is a case-insensitive comparison with the
// spellings (the zero padding makes words of different lengths differ).
using FoldedWord = std::array<uint64_t, 2>;

constexpr FoldedWord Fold(std::string_view word) {
  std::array<char, 16> bytes{};
  for (size_t i = 0; i < word.size(); ++i) bytes[i] = static_cast<char>(word[i] | 0x20);
  return std::bit_cast<FoldedWord>(bytes);
}

constexpr size_t kKeywordTableBits = 9;
constexpr size_t kKeywordTableSize = size_t{1} << kKeywordTableBits;  // load factor < 1/3

constexpr size_t SlotOf(const FoldedWord& word) {
  uint64_t h = (word[0] * 0x9E3779B97F4A7C15u) ^ (word[1] * 0xC2B2AE3D27D4EB4Fu);
  return static_cast<size_t>(h >> (64 - kKeywordTableBits));
}

constexpr size_t kKeywordCount = sizeof(kUnsortedKeywords) / sizeof(kUnsortedKeywords[0]);
constexpr uint8_t kEmptySlot = 0xFF;
static_assert(kKeywordCount < kEmptySlot);

struct FoldedKeyword {
  FoldedWord folded{};
  TokenKind kind = TokenKind::kIdent;
};

constexpr std::array<FoldedKeyword, kKeywordCount> BuildFoldedKeywords() {
  std::array<FoldedKeyword, kKeywordCount> keywords{};
  for (size_t i = 0; i < kKeywordCount; ++i) {
    keywords[i] = {Fold(kUnsortedKeywords[i].spelling), kUnsortedKeywords[i].kind};
  }
  return keywords;
}

constexpr std::array<FoldedKeyword, kKeywordCount> kFoldedKeywords = BuildFoldedKeywords();

// Open-addressing (linear probing) hash table of indexes into `kFoldedKeywords`, built at
// compile time.
constexpr std::array<uint8_t, kKeywordTableSize> BuildKeywordTable() {
  std::array<uint8_t, kKeywordTableSize> table{};
  for (uint8_t& slot : table) slot = kEmptySlot;
  for (size_t k = 0; k < kKeywordCount; ++k) {
    size_t i = SlotOf(kFoldedKeywords[k].folded);
    while (table[i] != kEmptySlot) i = (i + 1) & (kKeywordTableSize - 1);
    table[i] = static_cast<uint8_t>(k);
  }
  return table;
}

constexpr std::array<uint8_t, kKeywordTableSize> kKeywordTable = BuildKeywordTable();

// Every spelling is at most kMaxKeywordLength ASCII letters long (what `Fold` relies on).
constexpr bool SpellingsAreShortLetters() {
  for (const KeywordEntry& entry : kUnsortedKeywords) {
    if (entry.spelling.size() < 2 || entry.spelling.size() > kMaxKeywordLength) return false;
    for (char c : entry.spelling) {
      if (c < 'a' || c > 'z') return false;
    }
  }
  return true;
}
static_assert(SpellingsAreShortLetters());

#define CQL_KEYWORD_NAME(name, spelling) "K_" #name,
constexpr std::string_view kKeywordNames[] = {CQL_KEYWORDS(CQL_KEYWORD_NAME)};
#undef CQL_KEYWORD_NAME

// ANTLR names of the non-keyword kinds, in enum order.
constexpr std::string_view kOtherNames[] = {
    "EOF",
    "IDENT",
    "QUOTED_NAME",
    "EMPTY_QUOTED_NAME",
    "STRING_LITERAL",
    "INTEGER",
    "FLOAT",
    "BOOLEAN",
    "DURATION",
    "UUID",
    "HEXNUMBER",
    "QMARK",
    "RANGE",
    "K_NEGATIVE_NAN",
    "K_NEGATIVE_INFINITY",
    "'expr('",
    "'('",
    "')'",
    "'['",
    "']'",
    "'{'",
    "'}'",
    "','",
    "';'",
    "':'",
    "'.'",
    "'='",
    "'<'",
    "'<='",
    "'>'",
    "'>='",
    "'!='",
    "'+'",
    "'-'",
    "'+='",
    "'-='",
    "'\\*'",
    "'/'",
    "'%'",
};
static_assert(sizeof(kOtherNames) / sizeof(kOtherNames[0]) ==
              static_cast<size_t>(TokenKind::kKAccess));

}  // namespace

TokenKind LookupKeyword(std::string_view word) {
  if (word.size() < 2 || word.size() > kMaxKeywordLength) return TokenKind::kIdent;
  const FoldedWord folded = Fold(word);
  for (size_t i = SlotOf(folded);; i = (i + 1) & (kKeywordTableSize - 1)) {
    const uint8_t index = kKeywordTable[i];
    if (index == kEmptySlot) return TokenKind::kIdent;
    if (kFoldedKeywords[index].folded == folded) return kFoldedKeywords[index].kind;
  }
}

std::string_view TokenKindName(TokenKind kind) {
  auto index = static_cast<size_t>(kind);
  if (index < static_cast<size_t>(TokenKind::kKAccess)) return kOtherNames[index];
  if (kind == TokenKind::kKPositiveNan) return "K_POSITIVE_NAN";
  if (kind == TokenKind::kKPositiveInfinity) return "K_POSITIVE_INFINITY";
  index -= static_cast<size_t>(TokenKind::kKAccess);
  if (index < sizeof(kKeywordNames) / sizeof(kKeywordNames[0])) {
    // Cassandra's names are upper case: K_SELECT. The table holds "K_Select"; the caller
    // gets the upper-case form from a static table built once.
    static const auto upper = [] {
      std::array<std::array<char, 24>, sizeof(kKeywordNames) / sizeof(kKeywordNames[0])> out{};
      for (size_t i = 0; i < out.size(); ++i) {
        std::string_view name = kKeywordNames[i];
        for (size_t j = 0; j < name.size() && j + 1 < out[i].size(); ++j) {
          char c = name[j];
          out[i][j] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        }
      }
      return out;
    }();
    return std::string_view(upper[index].data());
  }
  return "<invalid>";
}

bool IsNativeTypeKeyword(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKAscii:
    case TokenKind::kKBigint:
    case TokenKind::kKBlob:
    case TokenKind::kKBoolean:
    case TokenKind::kKCounter:
    case TokenKind::kKDecimal:
    case TokenKind::kKDouble:
    case TokenKind::kKDuration:
    case TokenKind::kKFloat:
    case TokenKind::kKInet:
    case TokenKind::kKInt:
    case TokenKind::kKSmallint:
    case TokenKind::kKText:
    case TokenKind::kKTimestamp:
    case TokenKind::kKTinyint:
    case TokenKind::kKUuid:
    case TokenKind::kKVarchar:
    case TokenKind::kKVarint:
    case TokenKind::kKTimeuuid:
    case TokenKind::kKDate:
    case TokenKind::kKTime:
      return true;
    default:
      return false;
  }
}

bool IsBasicUnreservedKeyword(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKKeys:
    case TokenKind::kKAs:
    case TokenKind::kKCluster:
    case TokenKind::kKClustering:
    case TokenKind::kKCompact:
    case TokenKind::kKStorage:
    case TokenKind::kKTables:
    case TokenKind::kKType:
    case TokenKind::kKTypes:
    case TokenKind::kKValues:
    case TokenKind::kKMap:
    case TokenKind::kKList:
    case TokenKind::kKFiltering:
    case TokenKind::kKPermission:
    case TokenKind::kKPermissions:
    case TokenKind::kKKeyspaces:
    case TokenKind::kKAll:
    case TokenKind::kKUser:
    case TokenKind::kKUsers:
    case TokenKind::kKRole:
    case TokenKind::kKRoles:
    case TokenKind::kKSuperuser:
    case TokenKind::kKNosuperuser:
    case TokenKind::kKLogin:
    case TokenKind::kKNologin:
    case TokenKind::kKOptions:
    case TokenKind::kKPassword:
    case TokenKind::kKExists:
    case TokenKind::kKCustom:
    case TokenKind::kKTrigger:
    case TokenKind::kKContains:
    case TokenKind::kKInternals:
    case TokenKind::kKOnly:
    case TokenKind::kKStatic:
    case TokenKind::kKFrozen:
    case TokenKind::kKTuple:
    case TokenKind::kKFunction:
    case TokenKind::kKFunctions:
    case TokenKind::kKAggregate:
    case TokenKind::kKAggregates:
    case TokenKind::kKSfunc:
    case TokenKind::kKStype:
    case TokenKind::kKFinalfunc:
    case TokenKind::kKInitcond:
    case TokenKind::kKReturns:
    case TokenKind::kKLanguage:
    case TokenKind::kKCalled:
    case TokenKind::kKInput:
    case TokenKind::kKLike:
    case TokenKind::kKPer:
    case TokenKind::kKPartition:
    case TokenKind::kKGroup:
    case TokenKind::kKDatacenters:
    case TokenKind::kKAccess:
    case TokenKind::kKDefault:
    case TokenKind::kKMbean:
    case TokenKind::kKMbeans:
    case TokenKind::kKReplace:
    case TokenKind::kKUnset:
    case TokenKind::kKVector:  // 5.0 keyword; unreserved, so accepting it costs nothing
      return true;
    default:
      return false;
  }
}

bool IsUnreservedKeyword(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKTtl:
    case TokenKind::kKCount:
    case TokenKind::kKWritetime:
    case TokenKind::kKKey:
    case TokenKind::kKCast:
    case TokenKind::kKJson:
    case TokenKind::kKDistinct:
      return true;
    default:
      return IsNativeTypeKeyword(kind) || IsBasicUnreservedKeyword(kind);
  }
}

}  // namespace cql
