// The AOT catalog engine's name-keyed copies of a catalog's argument list (DOMAIN.md §6): code
// that fills a `catalog::LaunchBindings` by argument name (`bindings.pointerUids.emplace("X",
// uid)`, `bindings.scalars.emplace("eps", catalog::ScalarValue{eps})`, also `try_emplace`,
// `insert_or_assign` and `bindings.scalars["eps"] = v`), grouped per function and bound object,
// each scalar with the C++ type of its value (DeclaredTypes: `float`, `int64_t`), which picks the
// `ScalarValue` alternative LaunchAbi later `std::get`s; and each class's `opKind()` string (the
// catalog `op_kind` an adapter serves).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "extract/cpp/Context.h"
#include "model/Facts.h"

namespace impact::cpp {

void extractBindings(const Ctx& c, std::vector<BindingSet>& out, std::map<std::string, std::string>& opKinds);

}  // namespace impact::cpp
