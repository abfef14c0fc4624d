// The values the resolver computes for an expression (an IR type, an IRBuilder, a
// SignatureBuilder, a module, a string...), and the rocKE names that have one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace impact::pyextract {

enum class VK { Unknown, Scalar, PtrType, PtrCtor, IRBuilderCtor, IRBuilder, SigCtor, Sig, Module, Str };

struct Value {
  VK k = VK::Unknown;
  uint32_t size = 0;     // Scalar
  std::string cls;       // Scalar: its type class ("i32", "bf16"); PtrType: its element's, "" when not resolved
  std::string str;       // Str: the string; Unknown: why it is unknown; Module: where from
  bool unbound = false;  // Unknown because the name is bound nowhere
  static Value unknown(std::string why, bool unbound = false) {
    Value v;
    v.str = std::move(why);
    v.unbound = unbound;
    return v;
  }
  static Value of(VK k) {
    Value v;
    v.k = k;
    return v;
  }
};

// Same kind (and size for scalars): F16 and BF16 agree on kind and size, not on class.
bool sameValue(const Value& a, const Value& b);
// Of two values that agree (sameValue): a, its type class kept only when b's is the same.
Value agreedValue(Value a, const Value& b);
// The value of a rocKE name used unqualified or on a module (`I32`, `PtrType`, `IRBuilder`).
std::optional<Value> knownName(std::string_view n);

}  // namespace impact::pyextract
