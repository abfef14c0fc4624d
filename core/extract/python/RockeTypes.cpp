#include "extract/python/RockeTypes.h"

#include <cctype>
#include <utility>

namespace impact::pyextract {

std::optional<uint32_t> scalarSize(std::string_view n) {
  static const std::pair<std::string_view, uint32_t> kScalars[] = {
      {"I1", 1},  {"I8", 1},  {"I16", 2},  {"I32", 4},      {"I64", 8},     {"F16", 2},
      {"BF16", 2}, {"F32", 4}, {"F64", 8}, {"FP8E4M3", 1}, {"BF8E5M2", 1}};
  for (auto& [k, v] : kScalars)
    if (k == n) return v;
  return std::nullopt;
}

// Size of a SignatureBuilder type string: "i32", "bf16", "ptr<bf16,global>" (nullopt: unknown).
// *isPtr is set for pointer types.
std::optional<uint32_t> typeStringSize(std::string s, bool* isPtr) {
  *isPtr = false;
  std::string l;
  for (char c : s)
    if (c != ' ' && c != '\t') l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l.rfind("ptr", 0) == 0 || (!l.empty() && l.back() == '*')) {
    *isPtr = true;
    return 8;
  }
  static const std::pair<std::string_view, uint32_t> kTypes[] = {
      {"i1", 1},  {"bool", 1}, {"i8", 1},   {"u8", 1},   {"i16", 2},      {"u16", 2},
      {"f16", 2}, {"bf16", 2}, {"i32", 4},  {"u32", 4},  {"f32", 4},      {"i64", 8},
      {"u64", 8}, {"f64", 8},  {"fp8e4m3", 1}, {"bf8e5m2", 1}, {"fp8", 1}, {"bf8", 1}};
  for (auto& [k, v] : kTypes)
    if (k == l) return v;
  return std::nullopt;
}

std::string scalarClass(std::string_view n) {
  if (!scalarSize(n)) return "";
  std::string out;
  for (char c : n) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;  // "I32" -> "i32", "BF16" -> "bf16", "FP8E4M3" -> "fp8e4m3"
}

std::string typeStringClass(std::string s) {
  std::string l;
  for (char c : s)
    if (c != ' ' && c != '\t') l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l.rfind("ptr", 0) == 0) {
    // "ptr<bf16,global>": the element; "ptr" alone states none.
    size_t open = l.find('<');
    if (open == std::string::npos) return "";
    size_t end = l.find_first_of(",>", open + 1);
    return typeStringClass(l.substr(open + 1, end == std::string::npos ? std::string::npos : end - open - 1));
  }
  if (!l.empty() && l.back() == '*') return typeStringClass(l.substr(0, l.size() - 1));
  bool isPtr = false;
  if (!typeStringSize(l, &isPtr) || isPtr) return "";
  if (l == "bool") return "i1";
  if (l == "fp8") return "fp8e4m3";
  if (l == "bf8") return "bf8e5m2";
  return l;  // "i32", "u32", "f32", "bf16" ...
}

}  // namespace impact::pyextract
