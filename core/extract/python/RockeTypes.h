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

}  // namespace impact::pyextract
