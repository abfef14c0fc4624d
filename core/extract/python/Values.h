// The rocKE names whose meaning the evaluator knows (DeclEval.h): the IR's scalar types (`I32`),
// `PtrType`, `IRBuilder` and SignatureBuilder (rocke.helpers.spec), used unqualified or on a module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace impact::pyextract {

enum class VK { Scalar, PtrCtor, IRBuilderCtor, SigCtor };

struct Value {
  VK k = VK::Scalar;
  uint32_t size = 0;  // Scalar
  std::string cls;    // Scalar: its type class ("i32", "bf16")
};

std::optional<Value> knownName(std::string_view n);

}  // namespace impact::pyextract
