#include "extract/python/Values.h"

#include "extract/python/RockeTypes.h"

namespace impact::pyextract {

std::optional<Value> knownName(std::string_view n) {
  if (auto s = scalarSize(n)) return Value{VK::Scalar, *s, scalarClass(n)};
  if (n == "PtrType") return Value{VK::PtrCtor, 0, ""};
  if (n == "IRBuilder") return Value{VK::IRBuilderCtor, 0, ""};
  if (n == "SignatureBuilder") return Value{VK::SigCtor, 0, ""};
  return std::nullopt;
}

}  // namespace impact::pyextract
