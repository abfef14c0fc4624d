#include "contracts/ShippedVariants.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace impact {

namespace {

void addFrom(ShippedSet& s, const std::string& what, const std::string& path) {
  if (std::find(s.files.begin(), s.files.end(), path) != s.files.end()) return;
  s.files.push_back(path);
  s.from += (s.from.empty() ? "" : ", ") + absl::StrCat(what, " ", path);
}

}  // namespace

ShippedIndex shippedVariants(const TreeFacts& facts, const Layout& layout) {
  std::map<std::string, ShippedSet> fromDescriptors, fromConfigs;
  for (const auto& [path, f] : facts.files) {
    if (!f) continue;
    if (f->descriptor)
      for (const DescriptorLaunch& l : f->descriptor->launches) {
        ShippedSet& s = fromDescriptors[layout.libraryPath(l.source) + "|" + l.builder];
        s.variants.push_back({l.ukdName, &l.specFields});
        addFrom(s, f->descriptor->type == "kdp" ? "KDP" : "descriptor", path);
      }
    if (f->generator)
      for (const GeneratorSource& g : f->generator->sources) {
        if (g.source.empty() || g.builder.empty()) continue;
        if (!g.kind.empty() && g.kind != "rocke") continue;  // only rocke kernels are built from a builder
        ShippedSet& s = fromConfigs[layout.libraryPath(g.source) + "|" + g.builder];
        for (const GeneratorVariant& v : g.variants) s.variants.push_back({v.name, &v.spec});
        if (!g.incomplete.empty() && s.incomplete.empty()) s.incomplete = absl::StrCat(path, ": ", g.incomplete);
        addFrom(s, "generator config", path);
      }
  }
  ShippedIndex out;
  // What ships is what the descriptors say; a config is what they would be generated from.
  for (auto& [key, s] : fromDescriptors) out[key] = std::make_shared<const ShippedSet>(std::move(s));
  for (auto& [key, s] : fromConfigs)
    if (!out.count(key)) out[key] = std::make_shared<const ShippedSet>(std::move(s));
  return out;
}

std::shared_ptr<const ShippedSet> shippedFor(const ShippedIndex& index, const std::string& module,
                                             const std::string& builder, bool restatement) {
  if (auto it = index.find(module + "|" + builder); it != index.end()) return it->second;
  if (auto dot = builder.rfind('.'); dot != std::string::npos)
    if (auto it = index.find(module + "|" + builder.substr(dot + 1)); it != index.end()) return it->second;
  if (!restatement) return nullptr;
  std::vector<std::shared_ptr<const ShippedSet>> sets;
  for (auto it = index.lower_bound(module + "|"); it != index.end() && it->first.starts_with(module + "|"); ++it)
    sets.push_back(it->second);
  if (sets.size() <= 1) return sets.empty() ? nullptr : sets[0];
  auto merged = std::make_shared<ShippedSet>();
  for (const auto& s : sets) {
    merged->variants.insert(merged->variants.end(), s->variants.begin(), s->variants.end());
    merged->from += (merged->from.empty() ? "" : ", ") + s->from;
    merged->files.insert(merged->files.end(), s->files.begin(), s->files.end());
    if (merged->incomplete.empty()) merged->incomplete = s->incomplete;
  }
  return merged;
}

}  // namespace impact
