#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

#include <algorithm>

namespace impact::pyextract {

std::optional<std::vector<TSNode>> literalElements(TSNode seq) {
  std::vector<TSNode> out;
  for (TSNode ch : namedChildren(seq)) {
    if (is(ch, "comment")) continue;
    if (is(ch, "list_splat")) return std::nullopt;
    out.push_back(ch);
  }
  return out;
}

std::string clip(std::string_view s, size_t n) {
  std::string out;
  out.reserve(std::min(s.size(), n + 3));
  for (char c : s.substr(0, n)) out += (c == '\n' || c == '\r') ? ' ' : c;
  if (s.size() > n) out += "...";
  return out;
}

}  // namespace impact::pyextract
