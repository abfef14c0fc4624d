#include "contracts/PairingReuse.h"

#include "absl/strings/str_cat.h"

namespace impact {

namespace {
void argNames(const std::vector<KernelArg>& args, std::string& s) {
  for (const auto& a : args) absl::StrAppend(&s, a.name, a.conditional ? "?" + a.condition : "", ",");
}
}  // namespace

std::string pairingSignature(const FileFacts& f) {
  std::string s = absl::StrCat(static_cast<int>(f.kind), "|");
  for (const auto& b : f.builders) {
    absl::StrAppend(&s, "B", b.name, "/", static_cast<int>(b.style), ":");
    for (const auto& abi : b.abis) {
      absl::StrAppend(&s, "[", abi.origin, "|", abi.guard, "|");
      argNames(abi.args, s);
      s += "]";
    }
  }
  for (const auto& l : f.lists) {
    absl::StrAppend(&s, "L", static_cast<int>(l.form), "|", l.symbol, "|", l.variable, "|", l.named, "|",
                    l.openTail.empty(), l.openStart.empty(), "|");
    if (l.builderHint) absl::StrAppend(&s, l.builderHint->source, "|", l.builderHint->builder, "|");
    for (const auto& [k, v] : l.spec) absl::StrAppend(&s, k, "=", v, ";");
    argNames(l.args, s);
  }
  if (f.manifest) s += "M";  // any manifest change re-pairs (declared surfaces)
  if (f.generator) s += "G";  // and any generator config change (pack declarations, shipped variants)
  // Descriptors: the builders their launches name, the specs (shipped variants), the dispatch id.
  if (f.descriptor) {
    absl::StrAppend(&s, "D", f.descriptor->name, "|", f.descriptor->dispatch, "|");
    for (const auto* ls : {&f.descriptor->launches, &f.descriptor->legacyLaunches})
      for (const auto& l : *ls) absl::StrAppend(&s, l.source, ":", l.builder, ":", l.ukdName, ":", l.spec, ";");
  }
  // C++: what names a pack (the pack table, the functions it registers, symbol strings).
  for (const auto& r : f.symbols.engineRegistrations) absl::StrAppend(&s, "R", r.engine, "=", r.function, ";");
  for (const auto& c : f.symbols.constants) absl::StrAppend(&s, "C", c.value, ";");
  for (const auto& d : f.symbols.descriptorSymbols) absl::StrAppend(&s, "S", d.key, "=", d.value, ";");
  if (f.kind == FileKind::Cpp)
    for (const auto& d : f.module.defs)
      if (d.name.find("register") != std::string::npos) absl::StrAppend(&s, "F", d.name, ";");
  return s;
}

std::optional<std::vector<KernargsPair>> reusePairs(const std::vector<KernargsPair>& pairs, const TreeFacts& before,
                                                    const TreeFacts& now, const std::vector<std::string>& changed) {
  for (const auto& path : changed) {
    const FileFacts* a = before.find(path);
    const FileFacts* b = now.find(path);
    if (!a && !b) continue;  // not analysed
    if (!a || !b) return std::nullopt;
    if (a->manifest || b->manifest || a->generator || b->generator) return std::nullopt;
    if (pairingSignature(*a) != pairingSignature(*b)) return std::nullopt;
  }
  std::vector<KernargsPair> out = pairs;
  for (auto& p : out) {
    if (const FileFacts* a = before.find(p.copy.path); a) {
      const FileFacts* b = now.find(p.copy.path);
      if (!b) return std::nullopt;
      if (a != b) {
        const size_t at = static_cast<size_t>(p.copy.list - a->lists.data());
        if (a->lists.size() != b->lists.size() || at >= b->lists.size()) return std::nullopt;
        p.copy.list = &b->lists[at];
      }
    }
    if (p.builder) {
      const FileFacts* a = before.find(p.builder->path);
      const FileFacts* b = now.find(p.builder->path);
      if (!a || !b) return std::nullopt;
      if (a != b) {
        const size_t at = static_cast<size_t>(p.builder->builder - a->builders.data());
        if (a->builders.size() != b->builders.size() || at >= b->builders.size()) return std::nullopt;
        p.builder->builder = &b->builders[at];
      }
    }
  }
  return out;
}

}  // namespace impact
