// Which architectures a builder or module ships on (SPEC R2.7): the arch arrays of the
// descriptors whose launches reach it (a UKD narrows its KDP's), generic targets expanded
// through the generic-target table, every arch for modules the packer reaches, and the arch a
// path names (kernels/<arch>/, Gfx950...) for files outside the shipped closure.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Layout.h"
#include "python/ModuleGraph.h"

namespace impact {

class ArchIndex {
 public:
  ArchIndex(const TreeFacts& facts, const Layout& layout, const ModuleGraph& graph);
  std::set<std::string> forBuilder(const std::string& module, const std::string& builder) const;
  std::set<std::string> forModule(const std::string& module) const;
  // Every arch any descriptor ships on (generic targets expanded).
  const std::set<std::string>& all() const { return all_; }
  // Generic targets the table does not define (or the table is missing): kept as named.
  const std::set<std::string>& unexpanded() const { return unexpanded_; }
  bool tableFound() const { return tableFound_; }

 private:
  std::set<std::string> expand(const std::vector<std::string>& archs);
  std::map<std::string, std::vector<std::string>> generic_;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> byBuilder_;
  std::map<std::string, std::set<std::string>> byModule_;
  std::set<std::string> all_, unexpanded_;
  bool tableFound_ = false;
};

}  // namespace impact
