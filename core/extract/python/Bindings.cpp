#include "extract/python/Bindings.h"

#include <algorithm>

namespace impact::pyextract {

std::vector<const Binding*> candidates(const Scope& s, const std::string& name, Use u, bool* anyLocal) {
  std::vector<const Binding*> out;
  auto it = s.names.find(name);
  if (anyLocal) *anyLocal = it != s.names.end() && !it->second.empty();
  if (it == s.names.end()) return out;
  const auto& v = it->second;
  // bindings are kept sorted by `effective` (finish() sorts; appends during a walk are in order)
  size_t end = static_cast<size_t>(
      std::upper_bound(v.begin(), v.end(), u.pos, [](uint32_t p, const Binding& b) { return p < b.effective; }) -
      v.begin());
  for (size_t i = end; i-- > 0;) {
    const Binding& b = v[i];
    if (b.effective > u.pos) continue;
    out.push_back(&b);
    if (isPrefix(b.path, *u.path)) break;
    if (out.size() > 64) break;
  }
  return out;
}

}  // namespace impact::pyextract
