#include "contracts/kernargs/PairingBuilders.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "contracts/kernargs/ArgListDiff.h"

namespace impact::kernargs_detail {

namespace {
std::vector<std::string> names(const std::vector<KernelArg>& args) {
  std::vector<std::string> out;
  for (const auto& a : args)
    if (!a.name.empty()) out.push_back(a.name);
  return out;
}

// How many of the copy's names the builder's closest list shares; and whether one list
// (or the list without its conditional arguments) has exactly the copy's names in order.
struct NameMatch {
  size_t common = 0;
  bool exact = false;
};

// The copy's named arguments in order, against one builder list's named arguments (all of them,
// or the unconditional ones only): the same names in the same order.
bool sameNames(const std::vector<std::string_view>& cn, const std::vector<KernelArg>& args, bool unconditionalOnly) {
  size_t k = 0;
  for (const auto& a : args) {
    if (a.name.empty() || (unconditionalOnly && a.conditional)) continue;
    if (k == cn.size() || cn[k] != a.name) return false;
    ++k;
  }
  return k == cn.size();
}

NameMatch nameMatch(const PyBuilder& b, const CppArgList& copy) {
  // Asked for every candidate builder of every copy: no copy of either list is made.
  NameMatch best;
  std::vector<std::string_view> cn, cs;
  for (const auto& a : copy.args)
    if (!a.name.empty()) cn.push_back(a.name);
  cs = cn;
  std::sort(cs.begin(), cs.end());
  cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
  std::vector<std::string_view> full;
  for (const auto& abi : b.abis) {
    if (!cn.empty() && (sameNames(cn, abi.args, false) || sameNames(cn, abi.args, true))) best.exact = true;
    full.clear();
    for (const auto& a : abi.args)
      if (!a.name.empty()) full.push_back(a.name);
    std::sort(full.begin(), full.end());
    full.erase(std::unique(full.begin(), full.end()), full.end());
    size_t common = 0;  // distinct names of the list the copy has
    for (auto x = full.begin(), y = cs.begin(); x != full.end() && y != cs.end();) {
      if (*x < *y) ++x;
      else if (*y < *x) ++y;
      else ++common, ++x, ++y;
    }
    best.common = std::max(best.common, common);
  }
  return best;
}

bool related(const NameMatch& m, const CppArgList& copy) {
  size_t own = names(copy.args).size();
  return m.exact || (m.common >= 2 && 2 * m.common >= own);
}

// Lower-case letters and digits only.
std::string squash(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

AffinityTokens affinityTokens(const BuilderRef& b) {
  auto ms = b.path.rfind('/');
  std::string module = b.path.substr(ms == std::string::npos ? 0 : ms + 1);
  if (module.ends_with(".py")) module.resize(module.size() - 3);
  AffinityTokens t{squash(module), squash(b.builder->name)};
  if (t.name.rfind("build", 0) == 0) t.name = t.name.substr(5);
  return t;
}

std::string squashedFileName(const std::string& path) {
  auto slash = path.rfind('/');
  return squash(path.substr(slash == std::string::npos ? 0 : slash + 1));
}
}  // namespace

bool namesRelate(const PyBuilder& b, const CppArgList& copy) { return related(nameMatch(b, copy), copy); }

std::pair<std::optional<BuilderRef>, std::optional<BuilderRef>> bestByNames(const std::vector<BuilderRef>& cands,
                                                                            const CppArgList& list) {
  std::optional<BuilderRef> exact, closest;
  size_t bestCommon = 0;
  for (const auto& b : cands) {
    NameMatch nm = nameMatch(*b.builder, list);
    if (nm.exact && !exact) exact = b;
    if (related(nm, list) && nm.common > bestCommon) {
      bestCommon = nm.common;
      closest = b;
    }
  }
  return {exact, closest};
}

AffinityIndex::AffinityIndex(const std::vector<AffinityTokens>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i)
    for (const std::string* t : {&tokens[i].module, &tokens[i].name}) {
      if (t->size() < 3) continue;
      auto& ids = byToken_[*t];
      if (ids.empty() || ids.back() != i) ids.push_back(i);
      lengths_.insert(t->size());
    }
}

std::vector<size_t> AffinityIndex::matching(const std::string& file) const {
  std::vector<size_t> out;
  for (size_t len : lengths_)
    for (size_t at = 0; at + len <= file.size(); ++at) {
      auto it = byToken_.find(absl::string_view(file.data() + at, len));
      if (it == byToken_.end()) continue;
      // "op1" must not claim Gfx950Op12Native.cpp: a match ending in a digit may not run into more.
      size_t end = at + len;
      if (end < file.size() && std::isdigit(static_cast<unsigned char>(file[end])) &&
          std::isdigit(static_cast<unsigned char>(file[end - 1])))
        continue;
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Builders::Builders(const TreeFacts& facts) {
  for (const auto& [path, f] : facts.files)
    for (const auto& b : f->builders) {
      byModule_[path].push_back({path, &b});
      all_.push_back({path, &b});
    }
  std::vector<AffinityTokens> tokens;
  tokens.reserve(all_.size());
  archs_.reserve(all_.size());
  for (const auto& b : all_) tokens.push_back(affinityTokens(b)), archs_.push_back(archFromPath(b.path));
  affinity_ = AffinityIndex(tokens);
}

const std::vector<BuilderRef>* Builders::ofModule(const std::string& module) const {
  auto it = byModule_.find(module);
  return it == byModule_.end() ? nullptr : &it->second;
}

std::optional<BuilderRef> Builders::find(const std::string& module, const std::string& name) const {
  auto it = byModule_.find(module);
  if (it == byModule_.end()) return std::nullopt;
  for (const auto& b : it->second)
    if (b.builder->name == name || b.builder->name.ends_with("." + name)) return b;
  return std::nullopt;
}

const std::vector<BuilderRef>& Builders::affineTo(const std::string& path) {
  auto [it, fresh] = affineByFile_.try_emplace(path);
  if (fresh)
    for (size_t i : affinity_.matching(squashedFileName(path))) it->second.push_back(all_[i]);
  return it->second;
}

std::optional<BuilderRef> Builders::ofArchModule(const std::string& path) const {
  const std::string arch = archFromPath(path);
  std::vector<size_t> hits;
  for (size_t i : arch.empty() ? std::vector<size_t>{} : affinity_.matching(squashedFileName(path))) {
    const PyBuilder& pb = *all_[i].builder;
    if (pb.style != PyBuilder::Style::Params || pb.name.starts_with("_") || pb.name.find('.') != std::string::npos)
      continue;
    if (archs_[i] == arch) hits.push_back(i);
  }
  if (hits.size() != 1) return std::nullopt;
  return all_[hits[0]];
}

}  // namespace impact::kernargs_detail
