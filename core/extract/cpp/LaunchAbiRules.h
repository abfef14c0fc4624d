// The AOT catalog engine's packing rules, read from its launch/LaunchAbi.cpp (DOMAIN.md §6):
// `bindArgs` looks an entry argument up by name in the LaunchBindings maps (a POINTER argument in
// the maps its `arg.kind == ArgKind::POINTER` branch calls `.find` on, in order; any other in
// those of its `else`), and `packArgs` packs it from the ScalarValue alternative its branch
// `std::get`s (`arg.scalarType == ScalarType::F32` -> float; the last `else` covers the types no
// condition names). A function or branch not found leaves `notRead` saying which.
#pragma once

#include <string>

#include "model/AotFacts.h"

namespace impact::cpp {

LaunchAbiRules readLaunchAbiRules(const std::string& path, std::string source);

}  // namespace impact::cpp
