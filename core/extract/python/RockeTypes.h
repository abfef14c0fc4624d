// rocKE type names and their sizes: IR scalar types (`I32`, `BF16`) and SignatureBuilder type
// strings (`"i32"`, `"ptr<bf16,global>"`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace impact::pyextract {

// Size of an IR scalar type name ("I32" -> 4); nullopt when not one.
std::optional<uint32_t> scalarSize(std::string_view n);

// Size of a SignatureBuilder type string: "i32", "bf16", "ptr<bf16,global>" (nullopt: unknown).
// *isPtr is set for pointer types.
std::optional<uint32_t> typeStringSize(std::string s, bool* isPtr);

// The type class (Facts.h KernelArg::typeClass) of an IR scalar type name: "I32" -> "i32"
// (signedness not stated), "BF16" -> "bf16"; "" when not one.
std::string scalarClass(std::string_view n);

// The type class a SignatureBuilder type string states: "f32" -> "f32", "u32" -> "u32",
// "ptr<bf16,global>" -> "bf16" (a pointer's element); "" when it states none.
std::string typeStringClass(std::string s);

}  // namespace impact::pyextract
