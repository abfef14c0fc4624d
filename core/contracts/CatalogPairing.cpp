#include "contracts/CatalogPairing.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact {

std::string catalogModule(const TreeFacts& facts, const Layout& layout, const std::string& arch,
                          const std::string& family, std::vector<std::string>* tried) {
  std::string stem = family;
  if (!arch.empty() && stem.ends_with("_" + arch)) stem.resize(stem.size() - arch.size() - 1);
  while (!stem.empty()) {
    std::string module = layout.libraryPath("kernels/" + arch + "/" + stem + ".py");
    if (tried) tried->push_back(module);
    if (const FileFacts* f = facts.find(module); f && f->kind == FileKind::Python) return module;
    auto us = stem.rfind('_');
    if (us == std::string::npos) break;
    stem.resize(us);
  }
  return "";
}

std::optional<BuilderRef> catalogBuilder(const TreeFacts& facts, const Layout& layout,
                                         const CppArgList::CatalogEntry& entry, std::string& note) {
  std::vector<std::string> tried;
  std::string module = catalogModule(facts, layout, entry.arch, entry.family, &tried);
  if (module.empty()) {
    note = absl::StrCat("catalog family ", entry.family, " (", entry.arch, "): no module ",
                        absl::StrJoin(tried, " nor "));
    return std::nullopt;
  }
  const FileFacts* f = facts.find(module);
  // The symbol is `rocke_` + the kernel name, which starts with the builder's op
  // (rocke_attention_dense_d128_... <- build_attention_dense): the longest such op wins; a
  // module with a single public builder needs no symbol to say so.
  std::string kernel = entry.symbol.starts_with("rocke_") ? entry.symbol.substr(6) : entry.symbol;
  const PyBuilder* best = nullptr;
  size_t bestLen = 0;
  std::vector<const PyBuilder*> publicBuilders;
  for (const PyBuilder& b : f->builders) {
    if (b.style != PyBuilder::Style::Params) continue;
    if (b.name.starts_with("_") || b.name.find('.') != std::string::npos) continue;
    publicBuilders.push_back(&b);
    std::string op = b.name.starts_with("build_") ? b.name.substr(6) : b.name;
    bool prefix = !op.empty() && kernel.starts_with(op) &&
                  (kernel.size() == op.size() || kernel[op.size()] == '_');
    if (prefix && op.size() > bestLen) {
      best = &b;
      bestLen = op.size();
    }
  }
  if (!best && publicBuilders.size() == 1) best = publicBuilders[0];
  if (!best) {
    note = absl::StrCat("catalog entry ", entry.symbol, ": no builder of ", module,
                        publicBuilders.empty() ? " declares an argument list" : " is named by its symbol");
    return std::nullopt;
  }
  return BuilderRef{module, best};
}

}  // namespace impact
