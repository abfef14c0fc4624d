// "Update <copy> to match <builder>": the stale C++ list rewritten in the file's own style
// (element form, size constants, indentation, offsets, names when the copy names them).
#pragma once

#include <optional>
#include <string>

#include "model/Facts.h"

namespace impact::server {

// The replacement text for `list.range` in `fileText`, or nullopt when the list is not a
// rewritable static list.
std::optional<std::string> rewriteList(const std::string& fileText, const CppArgList& list, const PyAbi& abi);

}  // namespace impact::server
