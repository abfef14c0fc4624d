// Which architectures a builder or file ships on: the kernel's kernels/<arch>/ path and the
// arch arrays of descriptors whose launches name it.
#pragma once

#include <map>
#include <set>
#include <string>

#include "analysis/TreeFacts.h"
#include "model/Layout.h"

namespace impact {

class ArchIndex {
 public:
  ArchIndex(const TreeFacts& facts, const Layout& layout);
  std::set<std::string> forBuilder(const std::string& module, const std::string& builder) const;
  std::set<std::string> forModule(const std::string& module) const;

 private:
  std::map<std::pair<std::string, std::string>, std::set<std::string>> byBuilder_;
  std::map<std::string, std::set<std::string>> byModule_;
};

}  // namespace impact
