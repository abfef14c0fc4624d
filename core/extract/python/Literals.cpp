#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

#include <algorithm>

namespace impact::pyextract {

std::string clip(std::string_view s, size_t n) {
  std::string out;
  out.reserve(std::min(s.size(), n + 3));
  for (char c : s.substr(0, n)) out += (c == '\n' || c == '\r') ? ' ' : c;
  if (s.size() > n) out += "...";
  return out;
}

}  // namespace impact::pyextract
