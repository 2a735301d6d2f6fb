#include "cql/token_kind.h"

#include <array>
#include <cstring>

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

constexpr char LowerAscii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr uint32_t Fnv1a(const char* p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 16777619u;
  }
  return h;
}

// Open-addressing hash table of the keywords, built at compile time.
struct KeywordSlot {
  uint8_t length = 0;  // 0: empty slot
  char text[kMaxKeywordLength] = {};
  TokenKind kind = TokenKind::kIdent;
};
constexpr size_t kKeywordTableSize = 512;  // power of two, load factor about 1/3

constexpr std::array<KeywordSlot, kKeywordTableSize> BuildKeywordTable() {
  std::array<KeywordSlot, kKeywordTableSize> table{};
  for (const KeywordEntry& entry : kUnsortedKeywords) {
    size_t i = Fnv1a(entry.spelling.data(), entry.spelling.size()) & (kKeywordTableSize - 1);
    while (table[i].length != 0) i = (i + 1) & (kKeywordTableSize - 1);
    table[i].length = static_cast<uint8_t>(entry.spelling.size());
    for (size_t k = 0; k < entry.spelling.size(); ++k) table[i].text[k] = entry.spelling[k];
    table[i].kind = entry.kind;
  }
  return table;
}

constexpr std::array<KeywordSlot, kKeywordTableSize> kKeywordTable = BuildKeywordTable();

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
  char lower[kMaxKeywordLength];
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < word.size(); ++i) {
    lower[i] = LowerAscii(word[i]);
    h ^= static_cast<unsigned char>(lower[i]);
    h *= 16777619u;
  }
  for (size_t i = h & (kKeywordTableSize - 1);; i = (i + 1) & (kKeywordTableSize - 1)) {
    const KeywordSlot& slot = kKeywordTable[i];
    if (slot.length == 0) return TokenKind::kIdent;
    if (slot.length == word.size() && std::memcmp(slot.text, lower, word.size()) == 0) {
      return slot.kind;
    }
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
