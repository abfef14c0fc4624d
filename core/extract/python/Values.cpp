#include "extract/python/Values.h"

#include "extract/python/RockeTypes.h"

namespace impact::pyextract {

bool sameValue(const Value& a, const Value& b) {
  if (a.k != b.k) return false;
  if (a.k == VK::Scalar) return a.size == b.size;
  if (a.k == VK::Str) return a.str == b.str;
  return a.k != VK::Unknown;
}

Value agreedValue(Value a, const Value& b) {
  if (a.cls != b.cls) a.cls.clear();
  return a;
}

std::optional<Value> knownName(std::string_view n) {
  if (auto s = scalarSize(n)) {
    Value v = Value::of(VK::Scalar);
    v.size = *s;
    v.cls = scalarClass(n);
    return v;
  }
  if (n == "PtrType") return Value::of(VK::PtrCtor);
  if (n == "IRBuilder") return Value::of(VK::IRBuilderCtor);
  if (n == "SignatureBuilder") return Value::of(VK::SigCtor);
  return std::nullopt;
}

}  // namespace impact::pyextract
