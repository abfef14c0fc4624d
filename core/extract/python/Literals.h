// Small readers of literal syntax shared by the Python extractor's files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

// Source text on one line, cut to n characters ("..." appended when cut).
std::string clip(std::string_view s, size_t n = 120);

}  // namespace impact::pyextract
