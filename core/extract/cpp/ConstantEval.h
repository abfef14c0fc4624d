// Constant lookup and evaluation in C++ source: the integers (sizes, offsets) and strings (kinds,
// names, symbol strings) an expression stands for, through named constants, sizeof, casts and
// the loop bindings of the lambda idiom.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

// The constant a (possibly qualified) name written at `site` refers to, or null.
const Constant* lookup(const Ctx& c, std::string_view written, const Site& site);
std::optional<uint64_t> parseInteger(std::string_view s);
// "const std::int32_t" -> "int32_t"
std::string normaliseTypeName(std::string_view s);
// Size in bytes of a scalar or pointer type name; nullopt when unknown.
std::optional<uint64_t> sizeOfTypeName(std::string_view written);
bool isIntegralTypeName(std::string_view written);
// The type class (Facts.h KernelArg::typeClass) of a scalar type name: "float" -> "f32",
// "int32_t" -> "s32", "uint32_t" -> "u32", "__hip_bfloat16" -> "bf16"; "" when not known.
std::string typeClassOfName(std::string_view written);
// The elements of a range-for's range or of an initializer: the braced list written there, or the
// one a named constant holds (`constexpr std::array<const char*, 4> kNames{…}`, `const char* const
// kNames[] = {…}`), followed through constants naming constants; empty when neither.
std::vector<TSNode> elementsOf(const Ctx& c, TSNode n, int depth = 0);

// A field of one row of a table (`{"global_buffer", PTR, "a"}` of `constexpr Row kRows[] = {…}`,
// a designated `{.kind = …}`, a `Row{…}`): the item that initialises field `name`, through the
// declared order of the row struct's fields (the file's `struct Row { … }`); null when unknown.
TSNode fieldOfRow(const Ctx& c, TSNode row, std::string_view name);

struct Evaluator {
  const Ctx& c;
  // Substitutions for the lambda idiom: a loop variable bound to one literal of its range list
  // (or one row of a table: `r.kind`, `std::get<0>(r)`, `kRows[i].name` read through it).
  const std::map<std::string, TSNode>* env = nullptr;
  // The counters of an indexed loop being unrolled (`for (size_t i = 0; i < std::size(kRows); ++i)`).
  const std::map<std::string, uint64_t>* ints = nullptr;

  TSNode substitute(TSNode n) const;
  std::optional<uint64_t> integer(TSNode n, const Site& site, int depth, std::string& why) const;
  static std::string literalContent(const Ctx& c, TSNode lit);
  std::optional<std::string> str(TSNode n, const Site& site, int depth) const;
};

}  // namespace impact::cpp
