#include "judge/Archs.h"

namespace impact {

ArchIndex::ArchIndex(const TreeFacts& facts, const Layout& layout) {
  for (const auto& [path, f] : facts.files) {
    if (!f->descriptor) continue;
    const DescriptorFacts& d = *f->descriptor;
    std::set<std::string> archs(d.arch.begin(), d.arch.end());
    if (archs.empty()) archs.insert(d.ukdArchs.begin(), d.ukdArchs.end());
    for (const auto& l : d.launches) {
      std::string module = layout.libraryPath(l.source);
      byBuilder_[{module, l.builder}].insert(archs.begin(), archs.end());
      byModule_[module].insert(archs.begin(), archs.end());
    }
  }
}

std::set<std::string> ArchIndex::forModule(const std::string& module) const {
  std::set<std::string> out;
  if (std::string a = archFromPath(module); !a.empty()) out.insert(a);
  if (auto it = byModule_.find(module); it != byModule_.end()) out.insert(it->second.begin(), it->second.end());
  return out;
}

std::set<std::string> ArchIndex::forBuilder(const std::string& module, const std::string& builder) const {
  std::set<std::string> out;
  if (std::string a = archFromPath(module); !a.empty()) out.insert(a);
  if (auto it = byBuilder_.find({module, builder}); it != byBuilder_.end())
    out.insert(it->second.begin(), it->second.end());
  return out;
}

}  // namespace impact
