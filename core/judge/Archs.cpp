#include "judge/Archs.h"

#include "contracts/AotProducers.h"

namespace impact {

namespace {
bool isGeneric(const std::string& arch) { return arch.find("-generic") != std::string::npos; }
}  // namespace

std::set<std::string> ArchIndex::expand(const std::vector<std::string>& archs) {
  std::set<std::string> out;
  for (const auto& a : archs) {
    if (auto it = generic_.find(a); it != generic_.end()) {
      out.insert(it->second.begin(), it->second.end());
    } else {
      if (isGeneric(a)) unexpanded_.insert(a);
      out.insert(a);
    }
  }
  return out;
}

ArchIndex::ArchIndex(const TreeFacts& facts, const Layout& layout, const ModuleGraph& graph) {
  if (const FileFacts* t = facts.find(layout.genericTargetTable); t && t->descriptor) {
    generic_ = t->descriptor->genericTargets;
    tableFound_ = true;
  }
  // Launch source module -> archs of the launches rooted there.
  std::map<std::string, std::set<std::string>> bySource;
  // A launch's source -> its module: many launches (a KDP's UKDs) share one source, and
  // Layout::libraryPath normalises the path each call.
  std::map<std::string, std::string, std::less<>> moduleOf;
  for (const auto& [path, f] : facts.files) {
    if (!f->descriptor || f->descriptor->type == "generic-targets") continue;
    const DescriptorFacts& d = *f->descriptor;
    std::set<std::string> kdp = expand(d.arch);
    for (const auto& l : d.launches) {
      std::set<std::string> archs = kdp;
      if (!l.arch.empty()) {
        // A UKD narrows its KDP's list, never widens it.
        std::set<std::string> own = expand(l.arch), narrowed;
        for (const auto& a : own)
          if (kdp.empty() || kdp.count(a)) narrowed.insert(a);
        archs = narrowed;
      }
      auto at = moduleOf.find(l.source);
      if (at == moduleOf.end()) at = moduleOf.emplace(l.source, layout.libraryPath(l.source)).first;
      const std::string& module = at->second;
      byBuilder_[{module, l.builder}].insert(archs.begin(), archs.end());
      bySource[module].insert(archs.begin(), archs.end());
      all_.insert(archs.begin(), archs.end());
    }
  }
  // A generator config's rocke sources ship on its packs' (or variant groups') archs.
  for (const auto& [path, f] : facts.files) {
    if (!f->generator) continue;
    for (const auto& g : f->generator->sources) {
      if (g.source.empty() || (!g.kind.empty() && g.kind != "rocke")) continue;
      std::set<std::string> archs = expand(g.arch);
      const std::string module = layout.libraryPath(g.source);
      byBuilder_[{module, g.builder}].insert(archs.begin(), archs.end());
      bySource[module].insert(archs.begin(), archs.end());
      all_.insert(archs.begin(), archs.end());
    }
  }
  // An AOT catalog family's builders ship on the arch of the catalog their producer builds for.
  for (const auto& [path, producer] : facts.producers) {
    if (!producer) continue;
    for (const AotProduced& k : producer->kernels) {
      std::string arch = aotProducerArch(facts, path, k.names);
      if (arch.empty()) continue;
      byBuilder_[{k.builderPath, k.builderName}].insert(arch);
      bySource[k.builderPath].insert(arch);
    }
  }
  // Every module a launch's module imports ships on that launch's archs.
  for (const auto& [source, archs] : bySource)
    for (const auto& m : graph.importClosure(source)) byModule_[m].insert(archs.begin(), archs.end());
  // Modules the packer reaches ship on every arch (it compiles every packed variant).
  for (const auto& m : graph.modules()) {
    std::string name = graph.moduleName(m);
    if (name == "hkp_pack" || name.starts_with("hkp_pack."))
      for (const auto& r : graph.importClosure(m)) byModule_[r].insert(all_.begin(), all_.end());
  }
}

std::set<std::string> ArchIndex::forModule(const std::string& module) const {
  std::set<std::string> out;
  if (auto it = byModule_.find(module); it != byModule_.end()) out.insert(it->second.begin(), it->second.end());
  // A file no shipped launch reaches: the arch its path names.
  if (out.empty())
    if (std::string a = archFromPath(module); !a.empty()) out.insert(a);
  return out;
}

std::set<std::string> ArchIndex::forBuilder(const std::string& module, const std::string& builder) const {
  std::set<std::string> out;
  if (auto it = byBuilder_.find({module, builder}); it != byBuilder_.end()) out.insert(it->second.begin(), it->second.end());
  if (out.empty()) return forModule(module);
  return out;
}

}  // namespace impact
