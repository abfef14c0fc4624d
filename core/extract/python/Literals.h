// Small readers of literal syntax shared by the Python extractor's files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

// The elements of a literal list/tuple; nullopt when one is a splat (`*rest`), which has no
// statically known elements.
std::optional<std::vector<TSNode>> literalElements(TSNode seq);

// Source text on one line, cut to n characters ("..." appended when cut).
std::string clip(std::string_view s, size_t n = 120);

}  // namespace impact::pyextract
