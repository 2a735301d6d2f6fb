#include "cql/types/type_depth.h"

#include <algorithm>

namespace cql {

int TypeDepth(const CqlType& type) {
  if (type.IsNative() || type.kind() == TypeKind::kCustom) return 0;
  int deepest = 0;
  for (const CqlType& param : type.params()) deepest = std::max(deepest, TypeDepth(param));
  return deepest + 1;
}

}  // namespace cql
